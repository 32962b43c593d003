"""A plain-text board showing pieces and a verdict's fence, for the terminal."""

from __future__ import annotations

import chess

from logic.verdict import Verdict

__all__ = ["text_board", "LEGEND"]

LEGEND = "legend: # fence   x marked   : king side (below/flood)   * removed/drowned pawn"


def text_board(board: chess.Board, verdict: Verdict | None = None, *, flipped: bool = False) -> str:
    """The board as 8 text rows of two characters a square: piece letter (or '.') and a
    marker (``#`` fence, ``x`` marked, ``:`` the attacker's king side, ``*`` removed)."""
    fence = marked = below = gone = 0
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
                    else ":" if below & bit else " ")
            cells.append(sym + mark)
        rows.append(f"{r + 1} " + " ".join(cells))
    rows.append("  " + " ".join(chess.FILE_NAMES[f] + " " for f in files))
    return "\n".join(rows)
