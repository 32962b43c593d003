"""What the board shows of the analysis and its playback (part of
:class:`viewer.model.state.ViewerState`, without pygame): the verdicts of the side under test
and the other side, the pawn structure and the KPK answer, and the timeline (the step
on show, playing at its speed).

Invariants: the timeline plays the steps of ``verdict`` (none while it is None);
``board_revision`` is bumped by every analysis (any change of what the detector looked
at); :meth:`Playback.overlay` is what the board shows now.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import chess

from logic import kpk_rules
from logic.pawns import PawnStructure
from logic.verdict import Verdict
from viewer.model.overlay import EMPTY, Overlay, live_overlay, step_overlay
from viewer.model.timeline import Timeline

__all__ = ["Playback"]


class Playback:
    """The verdicts on show and their steps (see the module's invariants)."""

    def __init__(self, speed: float) -> None:
        """A timeline playing ``speed`` steps per second, nothing analysed yet."""
        self.timeline = Timeline()
        self.timeline.set_speed(speed)
        self.verdict: Verdict | None = None
        self.other: Verdict | None = None
        self.structure: PawnStructure | None = None
        self.kpk: dict[str, object] | None = None
        #: the KPK answer's squares: ``(pawn square, key squares)`` bitboards
        self.kpk_boards = (0, 0)
        self.board_revision = 0
        self._overlay_memo: tuple[Any, Any, Overlay] = (None, None, EMPTY)

    def describe(self, board: chess.Board, *, structure: bool) -> None:
        """What does not depend on the method: the pawn structure (with ``structure``,
        else None) and the KPK answer of ``board``; a new analysis begins."""
        self.structure = PawnStructure.analyse(board) if structure else None
        self.kpk = kpk_rules.summary(board)
        self.kpk_boards = ((kpk_rules.pawn_square(board), kpk_rules.key_squares(board))
                           if self.kpk else (0, 0))
        self.board_revision += 1

    def show(self, verdict: Verdict | None, other: Verdict | None, *, keep: bool) -> None:
        """Show ``verdict`` and ``other`` (None: none yet); with ``keep`` the timeline
        stays on the same step number where it exists."""
        self.verdict, self.other = verdict, other
        self.timeline.load(verdict, keep=keep)

    def show_main(self, verdict: Verdict, step: int | None) -> None:
        """The side under test's verdict arrives (the other's may follow): on step
        ``step`` where it exists (None: the live view)."""
        self.verdict = verdict
        self.timeline.index = step
        self.timeline.load(verdict, keep=step is not None)

    def step_to(self, where: str) -> None:
        """``first``/``prev``/``next``/``last`` step or ``next-phase``/``prev-phase``;
        stepping by hand stops playback."""
        tl = self.timeline
        tl.playing = False
        {"first": tl.first, "prev": tl.prev, "next": tl.next, "last": tl.last,
         "next-phase": tl.next_phase, "prev-phase": tl.prev_phase}[where]()

    def seek(self, k: int) -> None:
        """Show step ``k`` (the scrubber, the step list); stops playback."""
        if self.timeline.count:
            self.timeline.playing = False
            self.timeline.seek(k)

    def overlay(self) -> Overlay:
        """What the board shows now: the step being played back, or the live verdict."""
        v, tl = self.verdict, self.timeline
        if v is None:
            return EMPTY
        memo_key = (tl.index, self.kpk_boards)
        held, key_held, overlay = self._overlay_memo
        if held is v and key_held == memo_key:
            return overlay  # the frame loop asks every frame
        if tl.index is not None and v.steps:
            overlay = step_overlay(v, tl.index)
        else:
            overlay = live_overlay(v)
            if self.kpk:
                overlay = replace(overlay, kpk_square=self.kpk_boards[0],
                                  kpk_keys=self.kpk_boards[1])
        self._overlay_memo = (v, memo_key, overlay)  # holding v keeps the identity test valid
        return overlay
