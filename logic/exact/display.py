"""What the exact prover shows: its pseudo-code (:data:`EXACT_LISTING`, the Code pane's),
the legend of its overlays (:data:`EXACT_LEGEND`: the king map, ghost pawns, the line's
moves) and a verdict in a few words (:func:`exact_summary`), which
:class:`~logic.exact.method.ExactMethod` holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from logic.legend import LegendItem
from logic.listing import CodeLine, Listing
from logic.vocab import ExactCode, Status

if TYPE_CHECKING:
    from logic.verdict import Verdict

__all__ = ["EXACT_LISTING", "EXACT_LEGEND", "EXACT_HOLDS", "EXACT_BREAKS", "exact_legend",
           "exact_summary"]

_L = CodeLine
#: the retrograde analysis over the pawn-structure DAG: each line names the step kinds it
#: stands for
EXACT_LISTING = Listing("Exact: retrograde analysis over the pawn-structure DAG (after "
                 "Stockfish's former bitbase.cpp)", (
    _L(0, "exact(position), X to win (a promotion by either side, or mate):"),
    _L(1, "S ← the pawn structures reachable from here  # pawns never go back: a DAG"),
    _L(1, "for each structure s of S, its successors first:", ("exact-structure",)),
    _L(2, "states ← X's king × D's king × side to move (2 × 64 × 64)"),
    _L(2, "WIN ← states that promote or mate now, or whose pawn move or capture "
          "reaches a won successor"),
    _L(2, "repeat until nothing changes:  # retrograde, as bitbase.cpp"),
    _L(3, "X to move: WIN += states with some king move into WIN"),
    _L(3, "D to move: WIN += states whose every move leads into WIN"),
    _L(2, "cache s's tables  # the paper's pawn hash, generalised"),
    _L(1, "# shortcuts side by side: D moves only its king / never pushes (a draw"),
    _L(1, "#   there is one here), partial expansions bounded above and below"),
    _L(1, "# beside them: a forward search, a ply deeper each time, for a short"),
    _L(1, "#   breakthrough (X fastest, D longest: the line)", ("exact-forward",)),
    _L(1, "the root is decided (or the budget is spent: unknown)", ("exact-solve",)),
    _L(1, "king map ← the king squares from which the root is held / won",
       ("exact-kings",)),
    _L(1, "if the root is in WIN:  # a breakthrough"),
    _L(2, "play the line: X a move of least distance, D one of greatest",
       ("exact-move",)),
    _L(1, "return proved (X cannot win) / breaks (the line) / unknown", ("verdict",)),
))

#: the king map of a blockage: where the defending king holds
EXACT_HOLDS = LegendItem("kingmap", "kingmap_holds", "H",
                         "H = defending king holds here")
#: the king map of a forced promotion: where the attacking king breaks through from
EXACT_BREAKS = LegendItem("kingmap", "kingmap_breaks", "B",
                          "B = attacking king forces a promotion from here")
#: the exact prover's overlays
EXACT_LEGEND: tuple[LegendItem, ...] = (
    EXACT_HOLDS,
    EXACT_BREAKS,
    LegendItem("ghost", "ghost", "", "ghost pawns (dashed frame): a pawn structure solved"),
    LegendItem("move", "arrow_line", "", "a move of the line, labelled with its SAN"),
    LegendItem("outline", "changed", "", "changed in this step"),
)


def exact_legend(code: str | None) -> tuple[LegendItem, ...]:
    """The lines of :data:`EXACT_LEGEND` for a verdict whose code is ``code`` (None: every
    line): a blockage ("proved") has no B map and no line, a forced promotion ("breaks")
    no H map, any other code no king map at all."""
    items = EXACT_LEGEND
    if code == ExactCode.PROVED:
        return tuple(i for i in items if i is not EXACT_BREAKS and i.style != "move")
    if code == ExactCode.BREAKS:
        return tuple(i for i in items if i is not EXACT_HOLDS)
    if code is not None:
        return tuple(i for i in items if i.style != "kingmap")
    return items


def exact_summary(v: Verdict) -> str | None:
    """An exact verdict in a few words: proved, a forced promotion (or mate, or the
    defender's) with its outcome, unknown (out of time or memory) or a horizon; None for
    a verdict that is not the prover's answer (pieces, an illegal position)."""
    if v.code == ExactCode.PROVED:
        return f"{v.side} cannot win — proved ({v.method})"
    if v.code == ExactCode.BREAKS:
        ends = getattr(getattr(v.detail, "result", None), "ends", "")
        if ends == "defender-promotion":  # a blockage that ends, no win
            return f"{v.side}: the blockage ends, the defender forced to promote ({v.method})"
        told = getattr(v.detail, "outcome", None)
        short = told.short if told is not None else "outcome not proved"
        what = "forces mate" if ends == "mate" else "forces a promotion"
        return f"{v.side} {what}: {short} — proved ({v.method})"
    if v.status == Status.UNKNOWN:
        if getattr(getattr(v.detail, "result", None), "ran_out", "") == "memory":
            return f"{v.side}: unknown — memory ({v.method}: out of memory, no guess)"
        return f"{v.side}: unknown ({v.method}: out of time, no guess)"
    if v.status == Status.HORIZON:
        n = getattr(getattr(v.detail, "result", None), "horizon", 0)
        return f"{v.side}: no promotion within {n} plies — proved horizon ({v.method})"
    return None
