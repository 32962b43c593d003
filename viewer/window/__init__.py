"""The viewer's window: the loop (app), the widget panel, the components and panes, the
view, the layout, the board's gestures and hover, the display and the clipboard.  Imports
the model and the figures; the console (``viewer.cli``) sits on top."""
