"""A plain-text board showing pieces and a verdict's fence, for the terminal."""

from __future__ import annotations

import chess

from logic.registry import METHODS
from logic.verdict import Verdict
from logic.vocab import Status

__all__ = ["text_board", "legend", "LEGEND", "KING_MAP_LEGEND"]

LEGEND = "legend: # fence   x marked   : king side (below/flood)   * removed/drowned pawn"
#: a prover's king map line, by whether the verdict is a blockage (True); ``{}`` is the
#: method's name
KING_MAP_LEGEND = {True: "        H defending king holds here ({} king map)",
                   False: "        B attacking king forces a promotion from here ({} king map)"}


def _king_map(verdict: Verdict | None) -> tuple[int, bool]:
    """The king map of a prover's ``verdict`` (a method that is not ``static``: its king
    mask is where the defending king holds when it is a blockage, where the attacking
    king breaks through when not; real squares) and whether it marks where the defending
    king holds; ``(0, ...)`` for any other verdict."""
    method = METHODS.get(verdict.method) if verdict is not None else None
    if verdict is None or method is None or method.static or verdict.status != Status.OK:
        return 0, False
    return verdict.king_mask, verdict.blocked


def legend(verdict: Verdict | None = None) -> str:
    """The legend of :func:`text_board` for ``verdict``: :data:`LEGEND`, and a line for
    the king map when the board shows one."""
    kmap, holds = _king_map(verdict)
    if not kmap or verdict is None:
        return LEGEND
    return LEGEND + "\n" + KING_MAP_LEGEND[holds].format(verdict.method)


def text_board(board: chess.Board, verdict: Verdict | None = None, *, flipped: bool = False) -> str:
    """The board as 8 text rows of two characters a square: piece letter (or '.') and a
    marker (``#`` fence, ``x`` marked, ``:`` the attacker's king side, ``*`` removed;
    for the exact prover ``H`` / ``B`` on its king map, see :func:`legend`)."""
    fence = marked = below = gone = 0
    kmap, holds = _king_map(verdict)
    kletter = "H" if holds else "B"
    if verdict is not None and verdict.raw:
        fence, marked, below = verdict.fence, verdict.marked, verdict.below
        gone = verdict.removed | verdict.drowned
    ranks = range(8) if flipped else range(7, -1, -1)
    files = range(7, -1, -1) if flipped else range(8)
    rows = []
    for r in ranks:
        cells = []
        for f in files:
            sq = chess.square(f, r)
            piece = board.piece_at(sq)
            sym = piece.symbol() if piece else "."
            bit = 1 << sq
            mark = ("*" if gone & bit else "#" if fence & bit else "x" if marked & bit
                    else ":" if below & bit else kletter if kmap & bit else " ")
            cells.append(sym + mark)
        rows.append(f"{r + 1} " + " ".join(cells))
    rows.append("  " + " ".join(chess.FILE_NAMES[f] + " " for f in files))
    return "\n".join(rows)
