"""What a forced promotion leads to: the exact prover proves that X forces a promotion (or
mate); a chess player reads "breaks through" as "wins".  :func:`outcome` says what
happens after the line's last move, only where that is cheap and sure:

* ``wins``: proved, by a rule or by endgame tables the caller points at:

  - mate ends the line;
  - a queen against a bare king: the defender D has no pawn at the root, so X's forced
    promotion (one that stands: the prover's game does not count a promotion D takes
    at once, nor one that stalemates) leaves a queen against a bare king;
  - a table (Syzygy or Gaviota, through python-chess) of the root says X wins.

* ``race``: D, to move after X's promotion, forces a promotion of its own within its
  next two moves (a small AND-OR search over every reply of X): both sides queen.
* ``defender``: the line ends in D's own promotion (D is forced to promote): the
  blockage ends, but no win for X is proved.
* ``draws`` / ``loses``: a table says so.
* ``unclear``: anything else (e.g. a queen against a pawn on the seventh rank when no
  table is at hand).

Every ``wins`` is checked against Syzygy's value of the root on thousands of random
KPvK, KPPvK and KPvKP positions (``tests/test_outcome.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

import chess

__all__ = ["Outcome", "Tables", "outcome", "OUTCOMES", "open_tables"]

#: the outcomes, strongest claim first
OUTCOMES = ("wins", "race", "defender", "draws", "loses", "unclear")

#: how many of its own moves D gets to promote in a race
RACE_MOVES = 2


class Tables(Protocol):
    """What :func:`outcome` asks of endgame tables: python-chess's Syzygy or Gaviota
    ``Tablebase`` (``probe_wdl`` answers for the side to move, raises ``KeyError`` /
    ``chess.syzygy.MissingTableError`` where it has no table)."""

    def probe_wdl(self, board: chess.Board) -> int: ...


class Outcome(NamedTuple):
    """``kind`` (one of :data:`OUTCOMES`), ``text`` (one clause for a headline, e.g.
    "a queen against a bare king: wins") and ``by`` (what proved it: ``"rule"``,
    ``"table"``, ``"search"`` or ``""``)."""

    kind: str
    text: str
    by: str = ""

    def to_dict(self) -> dict[str, str]:
        """The JSON form (``classify`` / ``explain --json``)."""
        return {"kind": self.kind, "text": self.text, "by": self.by}


UNCLEAR = Outcome("unclear", "outcome not proved")


def _replay(board: chess.Board, pv: Sequence[str]) -> chess.Board | None:
    b = board.copy(stack=False)
    try:
        for uci in pv:
            move = chess.Move.from_uci(uci)
            if move not in b.legal_moves:
                return None
            b.push(move)
    except ValueError:
        return None
    return b


def _bare_king_wins(after: chess.Board, x: chess.Color) -> bool:
    """The queen-against-a-bare-king rule (see the module's docstring); ``after`` has
    D to move right after X's promotion."""
    d = not x
    if after.turn != d or after.pieces_mask(chess.PAWN, d) \
            or after.occupied_co[d] != after.pieces_mask(chess.KING, d):
        return False
    if not any(True for _ in after.legal_moves):  # stalemate (mate would have ended it)
        return False
    promoted = after.peek().to_square if after.move_stack else None
    return not any(after.is_capture(m) and m.to_square == promoted for m in after.legal_moves)


def _d_promotes(board: chess.Board, d_moves: int) -> int:
    """The fewest of its own moves (1..``d_moves``) in which D, to move, forces a
    promotion against every reply; 0 when it cannot (or has no pawn that close to its
    promotion square: then nothing is searched)."""
    d = board.turn
    near = chess.BB_RANK_2 | chess.BB_RANK_3 if d == chess.BLACK else \
        chess.BB_RANK_7 | chess.BB_RANK_6
    if d_moves < 2:
        near &= chess.BB_RANK_2 if d == chess.BLACK else chess.BB_RANK_7
    if not board.pieces_mask(chess.PAWN, d) & near:
        return 0
    for n in range(1, d_moves + 1):
        if _forces(board, n):
            return n
    return 0


def _forces(board: chess.Board, n: int) -> bool:
    """D (to move) promotes within ``n`` of its moves whatever X replies, and its new
    piece cannot be taken at once."""
    for m in board.legal_moves:
        if m.promotion and _stands(board, m):
            return True
    if n <= 1:
        return False
    for m in board.legal_moves:
        board.push(m)
        try:
            replies = list(board.legal_moves)
            if replies and all(_after(board, r, n - 1) for r in replies):
                return True
        finally:
            board.pop()
    return False


def _stands(board: chess.Board, move: chess.Move) -> bool:
    """After ``move`` (a promotion), the other side cannot capture the new piece."""
    board.push(move)
    try:
        return not any(board.is_capture(r) and r.to_square == move.to_square
                       for r in board.legal_moves)
    finally:
        board.pop()


def _after(board: chess.Board, reply: chess.Move, n: int) -> bool:
    board.push(reply)
    try:
        return _forces(board, n)
    finally:
        board.pop()


def _table(tables: Tables | None, board: chess.Board, x: chess.Color) -> Outcome | None:
    """The tables' value of ``board`` for X, where they hold its material."""
    if tables is None:
        return None
    try:
        wdl = tables.probe_wdl(board)
    except (KeyError, IndexError, ValueError):  # no table for this material
        return None
    if board.turn != x:
        wdl = -wdl
    if wdl > 0:
        return Outcome("wins", "the endgame table says it wins", "table")
    if wdl == 0:
        return Outcome("draws", "the endgame table says it draws", "table")
    return Outcome("loses", "the endgame table says it loses", "table")


def outcome(board: chess.Board, x: chess.Color, pv: Sequence[str], ends: str, *,
            tables: Tables | None = None) -> Outcome:
    """What the line ``pv`` (UCI from ``board``, X = ``x``; the exact prover's
    breakthrough, which ``ends`` with ``"promotion"``, ``"defender-promotion"`` or
    ``"mate"``) leads to; :data:`UNCLEAR` when nothing cheap and sure says."""
    side = chess.COLOR_NAMES[x].capitalize()
    other = chess.COLOR_NAMES[not x].capitalize()
    if ends == "defender-promotion":
        return Outcome("defender", f"{other} is forced to promote (no win for {side} "
                                   "proved)", "rule")
    if ends == "mate":
        return Outcome("wins", "mate", "rule")
    if ends != "promotion" or not pv:
        return UNCLEAR
    told = _table(tables, board, x)
    if told is not None:
        return told
    after = _replay(board, pv)
    if after is None or after.turn == x:
        return UNCLEAR
    if not board.pieces_mask(chess.PAWN, not x) and _bare_king_wins(after, x):
        return Outcome("wins", "a queen against a bare king: wins", "rule")
    n = _d_promotes(after, RACE_MOVES)
    if n:
        when = "at once" if n == 1 else f"within {n} moves"
        return Outcome("race", f"{other} queens too ({when}): a race", "search")
    return UNCLEAR


def open_tables(path: str) -> Tables:
    """Endgame tables in folder ``path``: Syzygy (``*.rtbw``) or Gaviota (``*.gtb.cp4``)
    through python-chess; raises ``ValueError`` (naming the folder) when it holds
    neither."""
    import os

    import chess.gaviota
    import chess.syzygy

    try:
        names = os.listdir(path)
    except OSError as exc:
        raise ValueError(f"--tables {path}: {exc.strerror or exc}") from None
    if any(n.endswith(".rtbw") for n in names):
        return chess.syzygy.open_tablebase(path)
    if any(".gtb" in n for n in names):
        return chess.gaviota.open_tablebase(path)
    raise ValueError(f"--tables {path}: no Syzygy (.rtbw) or Gaviota (.gtb.cp4) tables there")
