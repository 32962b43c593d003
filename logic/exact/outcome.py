"""What a forced promotion leads to: the exact prover proves that X forces a promotion (or
mate); a chess player reads that as "wins".  :func:`outcome` says what happens after the
line's last move, only where that is cheap and sure:

* ``wins``: proved, by a rule or by endgame tables the caller points at:

  - a queen against a bare king: the defender D has no pawn at the root, so D never
    promotes and every end of the prover's game is a mate or X's promotion that stands
    (the game does not count a promotion D's king takes at once); the line ends in a
    queen D can neither take nor is stalemated by: KQvK (an extra X pawn changes
    nothing), which the whole KQvK table calls a win (``tests/test_outcome.py``, against
    Gaviota's table where Debian's ``gaviotatb`` is installed).  The other lines of X's
    strategy are not replayed; that no stalemating promotion spoils one of them is
    checked against Syzygy's value of the root (``benchmarks/outcome_sweep.py``: 6,800
    random side-positions, zero exceptions);
  - mate ends the line (or its promotion mates), and D has no pawn at the root (with a
    pawn, another defence may end in D's promotion instead);
  - a table (Syzygy or Gaviota, through python-chess: :func:`open_tables`) that holds the
    root's material says X wins.

* ``race``: D, to move after X's promotion, forces a promotion of its own that stands
  within its next :data:`RACE_MOVES` moves (a small AND-OR search over every reply of
  X): both sides queen.
* ``defender``: the line ends in D's own promotion (D is forced to promote): the
  blockage ends, but no win for X is proved.
* ``draws`` / ``loses``: a table of the root says so.
* ``unclear``: anything else (e.g. a queen against a pawn on the seventh rank when no
  table is at hand).

Every ``wins`` is checked against Syzygy's value of the root on random KPvK, KPPvK and
KPvKP positions (``benchmarks/outcome_sweep.py``, ``tests/test_outcome.py``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import chess

__all__ = ["Outcome", "Tables", "EndgameTables", "outcome", "OUTCOMES", "UNCLEAR",
           "RACE_MOVES", "open_tables"]

#: the outcomes, strongest claim first
OUTCOMES = ("wins", "race", "defender", "draws", "loses", "unclear")

#: how many of its own moves D gets to promote in a race
RACE_MOVES = 2

#: what each outcome is in a few words (a side's summary: "White forces a promotion:
#: wins")
SHORT = {"wins": "wins", "race": "a race", "defender": "the defender promotes",
         "draws": "a draw", "loses": "loses", "unclear": "outcome not proved"}


class Tables(Protocol):
    """What :func:`outcome` asks of endgame tables: ``value(board)``, the game's value
    for the side to move (1 a win, 0 a draw, -1 a loss), or None where they hold no
    table for the material (:class:`EndgameTables`; a test may pass its own)."""

    def value(self, board: chess.Board) -> int | None: ...


class Outcome(NamedTuple):
    """``kind`` (one of :data:`OUTCOMES`), ``text`` (one clause for a headline, e.g.
    "then a queen against a bare king: wins") and ``by`` (what proved it: ``"rule"``,
    ``"table"``, ``"search"`` or ``""``)."""

    kind: str
    text: str
    by: str = ""

    @property
    def short(self) -> str:
        """The outcome in a few words ("wins", "a race", "outcome not proved")."""
        return SHORT.get(self.kind, self.kind)

    def to_dict(self) -> dict[str, str]:
        """The JSON form (``classify`` / ``explain --json``: the ``"outcome"`` field)."""
        return {"kind": self.kind, "text": self.text, "by": self.by}


UNCLEAR = Outcome(kind="unclear", text="outcome not proved")


def _replay(board: chess.Board, pv: Sequence[str]) -> chess.Board | None:
    """``board`` after the UCI moves ``pv`` (kept as a move stack), or None when one is
    not legal."""
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
    """The queen-against-a-bare-king rule (see the module's docstring) on the line's end:
    ``after`` has D to move right after X's promotion to a queen, D has its king alone,
    a legal move (no stalemate; mate ends a line as ``"mate"``) and none that takes the
    queen."""
    d = not x
    if after.turn != d or not after.move_stack \
            or after.occupied_co[d] != after.pieces_mask(chess.KING, d):
        return False
    queen = after.peek().to_square
    if after.piece_type_at(queen) != chess.QUEEN or after.color_at(queen) != x:
        return False
    moves = list(after.legal_moves)
    return bool(moves) and not any(m.to_square == queen for m in moves)


def _d_promotes(board: chess.Board, d_moves: int) -> tuple[int, str]:
    """The fewest of its own moves (1..``d_moves``) in which D, to move, forces a
    promotion that stands against every reply, and (for one move) that promotion in
    SAN; ``(0, "")`` when it cannot (or has no pawn that close to its promotion square:
    then nothing is searched)."""
    d = board.turn
    near = chess.BB_RANK_2 | chess.BB_RANK_3 if d == chess.BLACK else \
        chess.BB_RANK_7 | chess.BB_RANK_6
    if d_moves < 2:
        near &= chess.BB_RANK_2 if d == chess.BLACK else chess.BB_RANK_7
    if not board.pieces_mask(chess.PAWN, d) & near:
        return 0, ""
    now = [m for m in board.legal_moves if m.promotion == chess.QUEEN and _stands(board, m)]
    if now:
        return 1, board.san(now[0])
    for n in range(2, d_moves + 1):
        if _forces(board, n):
            return n, ""
    return 0, ""


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
    value = tables.value(board)
    if value is None:
        return None
    if board.turn != x:
        value = -value
    if value > 0:
        return Outcome(kind="wins", text="the endgame table says: wins", by="table")
    if value == 0:
        return Outcome(kind="draws", text="the endgame table says: a draw", by="table")
    other = chess.COLOR_NAMES[not x].capitalize()
    return Outcome(kind="loses", text=f"the endgame table says: {other} wins", by="table")


def outcome(board: chess.Board, x: chess.Color, pv: Sequence[str], ends: str, *,
            tables: Tables | None = None) -> Outcome:
    """What the line ``pv`` (UCI from ``board``, X = ``x``; the exact prover's
    breakthrough, which ``ends`` with ``"promotion"``, ``"defender-promotion"`` or
    ``"mate"``) leads to; :data:`UNCLEAR` when nothing cheap and sure says.  ``tables``:
    endgame tables, asked for the root's value (:func:`open_tables`)."""
    side = chess.COLOR_NAMES[x].capitalize()
    other = chess.COLOR_NAMES[not x].capitalize()
    if ends == "defender-promotion":
        return Outcome(kind="defender", text=f"{other} is forced to promote (no win for "
                                             f"{side} proved)", by="rule")
    told = _table(tables, board, x)
    if told is not None:
        return told
    bare = not board.pieces_mask(chess.PAWN, not x)
    if ends == "mate":
        return Outcome(kind="wins", text="mate: wins", by="rule") if bare else \
            Outcome(kind="unclear", text=f"mate on this line, but another defence may end "
                                         f"in {other}'s promotion: outcome not proved")
    if ends != "promotion" or not pv:
        return UNCLEAR
    after = _replay(board, pv)
    if after is None or after.turn == x:
        return UNCLEAR
    if bare and after.is_checkmate():  # the promotion mates
        return Outcome(kind="wins", text="then mate: wins", by="rule")
    if bare and _bare_king_wins(after, x):
        return Outcome(kind="wins", text="then a queen against a bare king: wins", by="rule")
    n, san = _d_promotes(after, RACE_MOVES)
    if n:
        number = after.fullmove_number
        dots = "..." if after.turn == chess.BLACK else "."
        when = f"{number}{dots} {san}" if n == 1 else f"by move {number + n - 1}"
        return Outcome(kind="race", text=f"{other} queens too ({when}): a race", by="search")
    return UNCLEAR


class EndgameTables:
    """Syzygy or Gaviota tables in one folder, through python-chess (see
    :func:`open_tables`): ``kind`` (``"syzygy"`` / ``"gaviota"``), ``path`` and
    :meth:`value`.  A context manager; :meth:`close` frees the files."""

    def __init__(self, kind: str, path: str, base: Any) -> None:
        self.kind = kind
        self.path = path
        self._base = base

    def value(self, board: chess.Board) -> int | None:
        """The value of ``board`` for the side to move: 1 a win, 0 a draw, -1 a loss;
        None where the folder holds no table for its material.  Syzygy's wins and losses
        that the 50-move rule turns into draws count as draws."""
        try:
            wdl = self._base.probe_wdl(board)
        except (KeyError, IndexError, ValueError):  # MissingTableError is a KeyError
            return None
        if self.kind == "syzygy":
            return 1 if wdl == 2 else -1 if wdl == -2 else 0
        return 1 if wdl > 0 else -1 if wdl < 0 else 0

    def close(self) -> None:
        """Close the table files."""
        self._base.close()

    def __enter__(self) -> EndgameTables:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _gaviota_folder(path: str, names: list[str]) -> str | None:
    """The folder of ``path`` with Gaviota's ``*.gtb.cp4`` tables (python-chess reads
    those): ``path`` itself or its ``gtb4`` (Debian's ``gaviotatb`` package's layout,
    ``/usr/share/gaviotatb``)."""
    if any(n.endswith(".gtb.cp4") for n in names):
        return path
    sub = os.path.join(path, "gtb4")
    if "gtb4" in names and os.path.isdir(sub) \
            and any(n.endswith(".gtb.cp4") for n in os.listdir(sub)):
        return sub
    return None


def open_tables(path: str) -> EndgameTables:
    """Endgame tables in folder ``path``: Syzygy (``*.rtbw``) or Gaviota (``*.gtb.cp4``,
    in ``path`` or its ``gtb4``) through python-chess; raises ``ValueError`` (naming the
    folder) when it holds neither or cannot be read."""
    import chess.gaviota
    import chess.syzygy

    try:
        names = os.listdir(path)
    except OSError as exc:
        raise ValueError(f"--tables {path}: {exc.strerror or exc}") from None
    if any(n.endswith(".rtbw") for n in names):
        return EndgameTables("syzygy", path, chess.syzygy.open_tablebase(path))
    gtb = _gaviota_folder(path, names)
    if gtb is not None:
        return EndgameTables("gaviota", gtb, chess.gaviota.open_tablebase(gtb))
    raise ValueError(f"--tables {path}: no Syzygy (.rtbw) or Gaviota (.gtb.cp4) tables there")
