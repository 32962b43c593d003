"""What a square of the board says when the mouse rests on it (without pygame): the
reason the detector recorded for it, read from the verdict's records, never from text.

* a pawn with a note (a dynamic pawn, in the live view): its Story line, "f2 (below,
  holds): ..." (:class:`logic.verdict.PawnNote`);
* otherwise the last step (up to the one on show during playback) that is about the
  square (``Step.square``), else the last one that changed it (``Step.changed``): "f4:
  its phase and sentence".

A square the trace never touched has nothing to say ("").
"""

from __future__ import annotations

import chess

from logic.steps import Step
from logic.verdict import Verdict
from viewer.model.text import step_headline
from viewer.model.words import bounded

__all__ = ["square_reason", "note_line"]

#: the bound of a hover's text (one sentence of the program's own)
HOVER_CHARS = 400


def note_line(square: chess.Square, category: str, ok: bool, reason: str) -> str:
    """A pawn note as the Story lists it: "f2 (below, holds): ..."."""
    mark = "holds" if ok else "breaks"
    return f"{chess.square_name(square)} ({category}, {mark}): {reason}"


def _step_about(steps: tuple[Step, ...], square: chess.Square) -> Step | None:
    """The last of ``steps`` about ``square``, else the last that changed it."""
    bit = chess.BB_SQUARES[square]
    about = [s for s in steps if s.square == square]
    if about:
        return about[-1]
    changed = [s for s in steps if s.changed & bit]
    return changed[-1] if changed else None


def square_reason(verdict: Verdict | None, index: int | None, square: chess.Square) -> str:
    """The one-line reason of ``square`` for ``verdict`` shown at step ``index`` (None:
    the live view), "" when the verdict records nothing about it (see the module)."""
    if verdict is None or not 0 <= square < 64:
        return ""
    if index is None:
        for note in verdict.pawns:
            if note.square == square:
                return bounded(note_line(square, str(note.category), note.ok, note.reason),
                               HOVER_CHARS)
        steps = verdict.steps
    else:
        steps = verdict.steps[:index + 1]
    step = _step_about(steps, square)
    if step is None:
        return ""
    return bounded(f"{chess.square_name(square)}: {step_headline(step)}", HOVER_CHARS)
