"""The viewer's model: the state and its parts (position, playback, proof, options), the
editor, the timeline, the playlist, the settings, the background jobs, the action table,
the text builders, the overlay and the theme.  No pygame: every part is testable alone.
It imports only ``logic`` and itself."""
