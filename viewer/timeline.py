"""Playback of a verdict's steps: the current step index, play/pause and speed.

``index`` None means the live view (the final verdict).  Time only advances in
:meth:`Timeline.tick`, driven by the frame loop, so tests step it exactly.
"""

from __future__ import annotations

from logic.verdict import Verdict

__all__ = ["Timeline"]


class Timeline:
    """Steps of one verdict and where playback stands."""

    MIN_SPEED, MAX_SPEED = 0.5, 20.0

    def __init__(self) -> None:
        self.verdict: Verdict | None = None
        self.index: int | None = None
        self.playing = False
        self.speed = 3.0  # steps per second
        self._acc = 0.0

    @property
    def count(self) -> int:
        return len(self.verdict.steps) if self.verdict is not None else 0

    def load(self, verdict: Verdict | None, *, keep: bool) -> None:
        """Show ``verdict``; with ``keep`` stay on the same step number where it exists."""
        self.verdict = verdict
        if not keep or self.index is None:
            self.index = None
            self.playing = False
        elif self.count == 0:
            self.index = None
        else:
            self.index = min(self.index, self.count - 1)
        self._acc = 0.0

    def live(self) -> None:
        """Back to the live view."""
        self.index = None
        self.playing = False

    def seek(self, k: int) -> None:
        if self.count:
            self.index = max(0, min(k, self.count - 1))

    def first(self) -> None:
        self.seek(0)

    def last(self) -> None:
        self.seek(self.count - 1)

    def next(self) -> None:
        self.seek(0 if self.index is None else self.index + 1)

    def prev(self) -> None:
        self.seek(self.count - 1 if self.index is None else self.index - 1)

    def toggle(self) -> None:
        """Play or pause; playing from the end (or the live view) restarts at step 1."""
        if not self.count:
            return
        if self.playing:
            self.playing = False
            return
        if self.index is None or self.index >= self.count - 1:
            self.index = 0
        self.playing = True
        self._acc = 0.0

    def set_speed(self, steps_per_second: float) -> None:
        self.speed = max(self.MIN_SPEED, min(self.MAX_SPEED, steps_per_second))

    def tick(self, dt_ms: float) -> bool:
        """Advance playback by ``dt_ms``; True if the step changed."""
        if not self.playing or self.index is None:
            return False
        self._acc += dt_ms / 1000.0 * self.speed
        moved = False
        while self._acc >= 1.0:
            self._acc -= 1.0
            if self.index >= self.count - 1:
                self.playing = False
                break
            self.index += 1
            moved = True
        return moved
