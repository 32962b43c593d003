"""Playback of a verdict's steps: the current step index, play/pause and speed.

``index`` None means the live view (the final verdict).  Time only advances in
:meth:`Timeline.tick`, driven by the frame loop, so tests step it exactly.
"""

from __future__ import annotations

from typing import NamedTuple

from logic.verdict import Verdict

__all__ = ["Timeline", "Group", "step_groups"]


class Group(NamedTuple):
    """A run of consecutive steps with the same ``phase``: steps ``start`` to ``end - 1``."""

    phase: str
    section: str
    start: int
    end: int


def step_groups(verdict: Verdict | None) -> tuple[Group, ...]:
    """The phases of ``verdict``'s trace: consecutive steps with one phase form a group."""
    out: list[Group] = []
    for i, step in enumerate(verdict.steps if verdict is not None else ()):
        if out and out[-1].phase == step.phase:
            out[-1] = out[-1]._replace(end=i + 1)
        else:
            out.append(Group(step.phase, step.section, i, i + 1))
    return tuple(out)


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

    @property
    def groups(self) -> tuple[Group, ...]:
        """The phases of the trace (:func:`step_groups`, computed once per verdict)."""
        held, groups = getattr(self, "_groups", (None, ()))
        if held is not self.verdict:
            groups = step_groups(self.verdict)
            self._groups = (self.verdict, groups)
        return groups

    def group_of(self, k: int | None) -> int | None:
        """The index of the group holding step ``k`` (None for the live view)."""
        if k is None:
            return None
        for i, g in enumerate(self.groups):
            if g.start <= k < g.end:
                return i
        return None

    def next_phase(self) -> None:
        """The first step of the next phase (from the live view: the first step)."""
        g = self.group_of(self.index)
        groups = self.groups
        if not groups:
            return
        if g is None:
            self.seek(0)
        elif g + 1 < len(groups):
            self.seek(groups[g + 1].start)
        else:
            self.last()

    def prev_phase(self) -> None:
        """The first step of this phase, or of the previous one when already there."""
        g = self.group_of(self.index)
        groups = self.groups
        if not groups:
            return
        if g is None:
            self.seek(groups[-1].start)
        elif self.index != groups[g].start or g == 0:
            self.seek(groups[g].start)
        else:
            self.seek(groups[g - 1].start)

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
        """Advance playback by ``dt_ms``; True if the step changed or playback ended (the
        Play button reads "Play" again: the window must draw that frame)."""
        if not self.playing or self.index is None:
            return False
        self._acc += dt_ms / 1000.0 * self.speed
        moved = False
        while self._acc >= 1.0:
            self._acc -= 1.0
            if self.index >= self.count - 1:
                self.playing = False
                moved = True
                break
            self.index += 1
            moved = True
        return moved
