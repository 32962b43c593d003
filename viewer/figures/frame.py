"""What one picture shows (:class:`Frame`: a board, its verdicts, the step on show, the
caption, the orientation) and its geometry: the text size of a picture of a given board
size (:func:`frame_px`).  Plain data, without pygame: the figure of a frame is laid out
by :func:`viewer.figures.figure.layout` and drawn by every format of
:data:`viewer.figures.export.FORMATS`."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import chess

import logic
from logic.verdict import Verdict
from logic.vocab import Status
from viewer.model.overlay import EMPTY, Overlay, legend_drawn, live_overlay, step_overlay
from viewer.model.text import Banner, frame_banner, frame_explanation
from viewer.model.theme import LegendItem, legend_items

if TYPE_CHECKING:
    from viewer.model.state import ViewerState

__all__ = ["Frame", "frame_of", "frame_px"]


def frame_px(size: int) -> int:
    """The body text size of a picture whose board is ``size`` pixels."""
    return max(11, round(size / 40))


@dataclass(frozen=True)
class Frame:
    """What one picture shows: the board, the verdict of the side under test and the
    other side's, the step on show (None: the live verdict), a caption, the KPK answer
    and the orientation."""

    board: chess.Board
    verdict: Verdict | None
    other: Verdict | None = None
    index: int | None = None
    caption: str = ""
    kpk: dict[str, Any] | None = None
    flipped: bool = False

    def without_stats(self) -> Frame:
        """This frame with verdicts whose texts leave out the run's counts and time (the
        exact prover's structures and seconds, which change from run to run): what a
        figure shows unless asked for them."""
        return replace(self, verdict=_without_stats(self.verdict),
                       other=_without_stats(self.other))

    def at(self, index: int | None) -> Frame:
        """This frame showing step ``index`` (None: the live verdict)."""
        return replace(self, index=index)

    def overlay(self) -> Overlay:
        """The overlay of this frame."""
        v = self.verdict
        if v is None:
            return EMPTY
        return step_overlay(v, self.index) if self.index is not None and v.steps \
            else live_overlay(v)

    def legend(self, drawn: Overlay | None = None) -> tuple[LegendItem, ...]:
        """The legend of this frame: the lines of its method's items (and the KPK items
        on a KPK position) for what the overlay ``drawn`` draws (by default this frame's
        own; :data:`~viewer.model.overlay.EMPTY` for a board without one: no line)."""
        return legend_drawn(self.legend_lines(), self.overlay() if drawn is None else drawn)

    def banner(self) -> Banner:
        """The banner of this frame (the step on show, or the verdicts)."""
        return frame_banner(self.verdict, self.other, self.index, self.caption, self.kpk)

    def explanation(self) -> str:
        """The words under the board of this frame; when the method's words (its steps,
        reason, notes, legend) speak of "below" or "above" the fence and the attacking
        side is drawn at the top, a line says how to read them (:meth:`view_note`)."""
        text = frame_explanation(self.verdict, self.index, self.caption)
        # the method's own words (a caption speaks for itself), the legend's included
        own = [frame_explanation(self.verdict, self.index), *(i.text for i in self.legend())]
        note = self.view_note(" ".join(own))
        return f"{text}\n{note}" if note else text

    def view_note(self, words: str) -> str:
        """How to read "below" and "above" in ``words`` on this board: the methods speak
        from the attacking side (its pawns go up the board), so when that side is drawn
        at the top its "below the fence" is the upper part of the picture; "" when the
        words use neither or the attacker is drawn at the bottom."""
        v = self.verdict
        if v is None or v.color == (chess.BLACK if self.flipped else chess.WHITE):
            return ""
        if not re.search(r"\b(below|above)\b", words):
            return ""
        us = "White" if v.color == chess.WHITE else "Black"
        them = "Black" if v.color == chess.WHITE else "White"
        return (f"Drawn from {them}'s side: in {us}'s words \u201cbelow the fence\u201d is "
                f"the upper part of this board, \u201cabove\u201d the lower.")

    def legend_lines(self) -> tuple[LegendItem, ...]:
        """Every line the legend of this frame's method may have, in order."""
        v = self.verdict
        name = v.method if v is not None else logic.DEFAULT_METHOD
        method = logic.METHODS.get(name) or logic.METHODS[logic.DEFAULT_METHOD]
        code = v.code if v is not None and v.status == Status.OK else \
            ("none" if v is not None else None)
        return legend_items(method, kpk=bool(self.kpk), code=code)


def _without_stats(v: Verdict | None) -> Verdict | None:
    if v is None or v.detail is None or not v.detail.stats:
        return v
    return v._replace(detail=v.detail._replace(stats=False))


def frame_of(state: ViewerState) -> Frame:
    """The frame the window shows now."""
    shown = state.playback
    return Frame(state.position.editor.board.copy(stack=False), shown.verdict, shown.other,
                 shown.timeline.index, state.position.shown_caption(), shown.kpk,
                 state.options.flipped)
