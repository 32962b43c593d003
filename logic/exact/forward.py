"""Forward search for short breakthroughs: a strategy of :mod:`logic.exact`, and the
fastest line of a breakthrough that a partial expansion proved.

In the solver's orientation (X = White): can X force the target -- any promotion, by
either side, or D checkmated -- within ``n`` plies, against every defence?  A
depth-limited AND-OR search over python-chess boards, deepened one ply at a time.  A
table keeps, per position, the most plies known not to suffice, the fewest known to
suffice and the move that decided (X's win, D's refutation: tried first next time).

Exhaustive within its depth, so a win it finds is a proof, and the first depth at which
the root wins is X's fastest distance in the real game (the first X promotion that
stands or X's mate, or D's first move that promotes, ends the line; stalemate and X
without a move are no win).  An X promotion whose new piece D's king can take at once
ends nothing: D takes it (any other move lets it stand) and the search goes on.  Its
line (:meth:`ForwardSearch.line`) is X's fastest move against D's longest defence,
each by the same deepening: the fastest line of the real game, like the whole DAG's.
It never proves a blockage (kings can walk for ever, so the depth always cuts); what it
proves short of a win is a *horizon*: the deepest ply ``n`` it finished (``depth``), X
cannot force the target within ``n`` plies against every defence.  And
deep breakthroughs are out of its reach: where a blocked-looking wall falls to one
pawn blow (the paper's Diagram 20, 1. f5, 9 plies) it answers in a fraction of a
second, where the retrograde expansions take 20 s.

Three shortcuts cut the work without cutting the answer: on X's last ply only pawn
moves are generated (the target there is a promotion or a mate, and a mate needs a
check, which only the pawn that moves can give: kings give none and nothing slides);
two plies from the end, a D move after which no X pawn can check D's king in one move,
with no X pawn on the seventh rank, refutes at once; and near the end
(:data:`HOPELESS_PLIES`) a position is dropped when no pawn can reach its last rank
within its side's moves and no X pawn can reach a square that checks a square D's
king can reach with every square around it closed, every distance measured on an
empty board, captures only where an enemy pawn may stand (a superset of the real
moves, so nothing reachable is dropped).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import chess

from logic.bitboards import king_attacks_setwise, pawn_attacks, pawn_pushes
from logic.exact.pv import PV, defence_rank, promotion_taker

__all__ = ["ForwardSearch", "SearchAborted", "MAX_ENTRIES", "POLL_EVERY"]

#: the table's size at which a search gives up (about 380 bytes an entry, measured: some
#: 0.4 GB when full)
MAX_ENTRIES = 1_000_000
_NEVER = 1 << 30  # a terminal position: no number of plies suffices / needed
#: the search polls its budget every this many positions (a power of two)
POLL_EVERY = 256
#: the most plies left at which a position is first tested for a target out of reach
HOPELESS_PLIES = 4
_POLL = POLL_EVERY - 1


class SearchAborted(Exception):
    """The search stopped: its budget said so, its node limit was reached, or its table
    is full (``full``)."""

    def __init__(self, full: bool = False) -> None:
        super().__init__("table full" if full else "stopped")
        self.full = full


def _key(b: chess.Board) -> tuple[int, int, int, bool, int | None]:
    # kings and pawns only: the two colours' men, the pawns, the side to move and the
    # en-passant square (kept even when no capture is legal: a finer key stays sound)
    return b.occupied_co[chess.WHITE], b.occupied_co[chess.BLACK], b.pawns, b.turn, b.ep_square


@dataclass
class _Entry:
    """What is known of one position: no win within ``no`` plies, a win within
    ``win``; ``move`` the move that decided last (X's win, D's refutation)."""

    no: int = -1
    win: int = _NEVER
    move: chess.Move | None = None


def _order(b: chess.Board, moves: list[chess.Move], first: chess.Move | None
           ) -> list[chess.Move]:
    """``first`` (the table's move), then for X (White) pawn moves, captures first and
    the most advanced first, then king moves; for D (Black) king captures, then the
    other king moves and pawn captures (en passant among them), then pawn pushes."""
    pawns = b.pawns
    if b.turn == chess.WHITE:
        def rank(m: chess.Move) -> int:
            if pawns >> m.from_square & 1:
                return -16 - (m.to_square >> 3) - 8 * b.is_capture(m)
            return 0
    else:
        occ = b.occupied_co[chess.WHITE]

        def rank(m: chess.Move) -> int:
            cap = occ >> m.to_square & 1
            return -2 * cap + (pawns >> m.from_square & 1) * 4
    out = sorted(moves, key=rank)
    if first is not None and first in moves:
        out.remove(first)
        out.insert(0, first)
    return out


def _king(b: chess.Board, color: chess.Color = chess.BLACK) -> chess.Square:
    """``color``'s king, D's by default (the board is a legal K+P position: it has
    one)."""
    king = b.king(color)
    assert king is not None
    return king


def _quiet_refutation(b: chess.Board, moves: list[chess.Move]) -> chess.Move | None:
    """A move of D (to move, ``moves`` its legal ones) after which X surely cannot force
    the target in one ply, or None: X has no pawn on the seventh rank (no promotion)
    and D's king stands where no X pawn can reach a checking square in one move (no
    mate).  A superset of X's pawn moves is taken, so the answer is sound."""
    xp = b.pawns & b.occupied_co[chess.WHITE]
    if xp & chess.BB_RANK_7:
        return None
    checked = pawn_attacks(_pawn_step(xp, chess.WHITE), chess.WHITE)  # a pawn may check there
    dk = _king(b)
    for m in moves:
        k = m.to_square if m.from_square == dk else dk
        if not m.promotion and not checked >> k & 1:
            return m
    return None


def _pawn_step(squares: int, color: chess.Color, prey: int = chess.BB_ALL) -> int:
    """Where ``color``'s pawns on ``squares`` may stand after one move: a push, a double
    push from the second rank or a capture onto ``prey`` (the squares an enemy pawn may
    stand on; occupancy otherwise ignored: a superset)."""
    start = chess.BB_RANK_2 if color else chess.BB_RANK_7
    return (pawn_pushes(squares, color) | pawn_pushes(pawn_pushes(squares & start, color), color)
            | pawn_attacks(squares, color) & prey)


def _pawn_moved(pawns: int, color: chess.Color, moves: int, prey: int = chess.BB_ALL) -> int:
    """A superset of the squares a pawn of ``pawns`` may stand on after it made from one
    to ``moves`` moves, capturing only onto ``prey`` (0 if ``moves`` < 1)."""
    if moves < 1:
        return 0
    moved = _pawn_step(pawns, color, prey)
    for _ in range(moves - 1):
        moved |= _pawn_step(moved, color, prey)
    return moved


def _king_reach(square: chess.Square, moves: int) -> int:
    """The squares a king on ``square`` may stand on after at most ``moves`` moves (an
    empty board)."""
    bb = chess.BB_SQUARES[square]
    for _ in range(moves):
        bb = king_attacks_setwise(bb)
    return bb


def _hopeless(b: chess.Board, n: int) -> bool:
    """Whether X surely cannot force the target within ``n`` plies, by distance alone.
    Pawns move on an empty board, capturing only where an enemy pawn may stand (an X
    pawn also where a D pawn's double push may be taken en passant); kings step freely.
    Then: no X pawn reaches the eighth rank in X's moves, no D pawn the first in D's,
    and no mate: a mate is a check by the pawn that just moved (kings give none, nothing
    slides) with every square around D's king taken (a D pawn on it, or attacked by an
    X pawn or X's king), and no square D's king may reach is both checkable and so
    closed in.  D to move in check is never out of reach (it may be mated already).
    Every set is a superset of the real one, so the answer is sound."""
    if b.turn == chess.BLACK and b.is_check():
        return False  # perhaps mated already: the pawn that checks has moved before
    xm = (n + 1) // 2 if b.turn == chess.WHITE else n // 2  # X's moves within n plies
    dm = n - xm  # D's
    xp = b.pawns & b.occupied_co[chess.WHITE]
    dp = b.pawns & b.occupied_co[chess.BLACK]
    d_moved = _pawn_moved(dp, chess.BLACK, dm, xp | _pawn_moved(xp, chess.WHITE, xm))
    if d_moved & chess.BB_RANK_1:
        return False
    passant = pawn_pushes(dp & chess.BB_RANK_7, chess.BLACK)
    if b.ep_square is not None:
        passant |= chess.BB_SQUARES[b.ep_square]
    moved = _pawn_moved(xp, chess.WHITE, xm, dp | d_moved | passant)
    if moved & chess.BB_RANK_8:
        return False
    checkable = pawn_attacks(moved, chess.WHITE) & _king_reach(_king(b), dm)
    if not checkable:
        return True
    closed = (dp | d_moved | pawn_attacks(xp | moved, chess.WHITE)
              | king_attacks_setwise(_king_reach(_king(b, chess.WHITE), xm)))
    return all(chess.BB_KING_ATTACKS[k] & ~closed for k in chess.scan_forward(checkable))


class ForwardSearch:
    """The deepening search from one oriented root ``board`` (X = White).

    ``poll()`` is called every :data:`POLL_EVERY` positions and returns True to stop (the call's
    budget); ``nodes`` counts the positions searched.  ``work(n)``, if given, is told
    of the positions searched since it was last told: before each ``poll()`` and
    when :meth:`deepen` or :meth:`line` returns (so a clock that advances with work
    is up to date whenever it is read).  Raises :class:`SearchAborted` from
    :meth:`deepen` and :meth:`line` when stopped (the table keeps what was proved, so
    a later call goes on from there)."""

    def __init__(self, board: chess.Board, poll: Callable[[], bool],
                 work: Callable[[int], None] | None = None) -> None:
        self.root = board.copy(stack=False)
        self.board = board.copy(stack=False)
        self.poll = poll
        self.work = work
        self.table: dict[tuple[int, int, int, bool, int | None], _Entry] = {}
        self.nodes = 0
        self._told = 0  # the positions ``work`` was told of
        self.limit = _NEVER
        #: plies the root is known not to suffice within (-1: not even 0 is tried yet;
        #: a root where D is already mated wins in 0)
        self.depth = -1
        self.distance: int | None = None  # the root's, once found

    def wins(self, n: int) -> bool:
        """Whether X forces the target within ``n`` plies from the current board."""
        b = self.board
        if n <= 0:  # only D's mate: no table entry needed
            self._visit()
            return b.turn == chess.BLACK and b.is_checkmate()
        e = self._entry()
        if e.win <= n:
            return True
        if e.no >= n:
            return False
        x = b.turn == chess.WHITE
        if n == 1 and x:
            return self._in_one(e)
        if n <= HOPELESS_PLIES and _hopeless(b, n):
            e.no = n
            return False
        moves = list(b.legal_moves)
        known = self._settled(e, n, moves)
        if known is not None:
            return known
        for m in _order(b, moves, e.move):
            if m.promotion and (not x or m.promotion != chess.QUEEN):
                continue  # D promotes (a win for X), or X's underpromotion (as a queen)
            r = self._taken(m, n) if m.promotion else self._pushed(m, n)
            if r == x:  # X found a win, or D a refutation
                e.move = m
                break
        else:
            r = not x
        if r:
            e.win = n
        else:
            e.no = n
        return r

    def _settled(self, e: _Entry, n: int, moves: list[chess.Move]) -> bool | None:
        """What the current board's legal ``moves`` settle before any is searched (the
        answer, recorded in ``e``), or None: no move (D mated wins; stalemate or X
        without a move never does), D's quiet refutation two plies from the end, X's
        promotion that stands."""
        b = self.board
        if not moves:
            if b.turn == chess.BLACK and b.is_check():
                e.win = 0
                return True
            e.no = _NEVER
            return False
        if b.turn == chess.BLACK:
            refute = _quiet_refutation(b, moves) if n == 2 else None
            if refute is not None:
                e.no, e.move = 2, refute
                return False
            return None
        standing = next((m for m in moves if m.promotion and promotion_taker(b, m) is None),
                        None)
        if standing is not None:
            e.win, e.move = 1, standing
            return True
        return None

    def _in_one(self, e: _Entry) -> bool:
        """Whether X (to move) forces the target in one ply: a promotion that stands, or
        a pawn move that mates (only a pawn gives check here, and only the pawn that
        moves: a king move discovers nothing), so only those moves are generated."""
        b = self.board
        to = chess.BB_RANK_8 | chess.BB_PAWN_ATTACKS[chess.BLACK][_king(b)]
        for m in b.generate_legal_moves(b.pawns & b.occupied_co[chess.WHITE], to):
            if m.promotion:
                won = m.promotion == chess.QUEEN and promotion_taker(b, m) is None
            else:
                won = self._pushed(m, 1)
            if won:
                e.win, e.move = 1, m
                return True
        e.no = max(e.no, 1)
        return False

    def _visit(self) -> None:
        """Count a position searched; raises :class:`SearchAborted` when the budget is
        spent."""
        self.nodes += 1
        if self.nodes & _POLL == 0:
            self._tell()
            if self.nodes >= self.limit or self.poll():
                raise SearchAborted()

    def _entry(self) -> _Entry:
        """The table entry of the current board (made on first visit), counting the
        visit; raises :class:`SearchAborted` when the budget or the table is spent."""
        self._visit()
        key = _key(self.board)
        e = self.table.get(key)
        if e is None:
            if len(self.table) >= MAX_ENTRIES:
                raise SearchAborted(full=True)
            e = self.table[key] = _Entry()
        return e

    def _pushed(self, m: chess.Move, n: int) -> bool:
        """Whether X wins within ``n - 1`` plies after ``m``."""
        b = self.board
        b.push(m)
        try:
            return self.wins(n - 1)
        finally:
            b.pop()

    def _taken(self, m: chess.Move, n: int) -> bool:
        """Whether X's promotion ``m``, whose new piece D's king takes at once (D's only
        move that does not leave the promotion standing), wins within ``n`` plies."""
        b = self.board
        take = promotion_taker(b, m)
        assert take is not None
        if n < 2:
            return False
        b.push(m)
        b.push(take)
        try:
            return self.wins(n - 2)
        finally:
            b.pop()
            b.pop()

    def _tell(self) -> None:
        """Tell ``work`` of the positions searched since it was last told."""
        if self.work is not None and self.nodes > self._told:
            self.work(self.nodes - self._told)
        self._told = self.nodes

    def deepen(self, max_plies: int, limit: int | None = None) -> int | None:
        """Deepen from the root one ply at a time up to ``max_plies``: X's fastest
        distance (plies) once found, else None (no win within ``max_plies``).
        ``limit``: stop (:class:`SearchAborted`) after that many more positions."""
        self.limit = _NEVER if limit is None else self.nodes + limit
        try:
            while self.distance is None and self.depth < max_plies:
                self.board = self.root.copy(stack=False)
                if self.wins(self.depth + 1):
                    self.distance = self.depth + 1
                else:
                    self.depth += 1
        finally:
            self.limit = _NEVER
            self._tell()
        return self.distance

    def _exact(self, n: int) -> int:
        """The current board's distance, known to be at most ``n``: the fewest plies
        that suffice (deepening from what the table knows)."""
        e = self.table.get(_key(self.board))
        k = max(0, e.no + 1) if e is not None else 0
        while k < n and not self.wins(k):
            k += 1
        return k

    def _after(self, m: chess.Move, take: chess.Move, n: int) -> int:
        """The distance after X's promotion ``m`` and D's capture ``take``, known to be
        at most ``n - 2``."""
        b = self.board
        b.push(m)
        b.push(take)
        try:
            return self._exact(n - 2)
        finally:
            b.pop()
            b.pop()

    def line(self, max_plies: int = 2000) -> PV:
        """The line from the root (whose distance :meth:`deepen` found): X's fastest
        move, D's longest reply (among equal ones by :func:`defence_rank`), to the
        target."""
        try:
            return self._line(max_plies)
        finally:
            self._tell()

    def _line(self, max_plies: int) -> PV:
        assert self.distance is not None
        b = self.board = self.root.copy(stack=False)
        n = self.distance
        moves: list[str] = []
        ends = ""
        while n > 0 and len(moves) < max_plies:
            x = b.turn == chess.WHITE
            legal = list(b.legal_moves)
            best: chess.Move | None = None
            best_d, rank = -1, 99
            for m in _order(b, legal, None):
                take = promotion_taker(b, m) if m.promotion and x else None
                if m.promotion and take is None:
                    d = 1
                elif take is not None:
                    d = 2 + self._after(m, take, n) if self._taken(m, n) else _NEVER
                else:
                    b.push(m)
                    try:
                        d = 1 + self._exact(n - 1) if (not x or self.wins(n - 1)) else _NEVER
                    finally:
                        b.pop()
                if x and d <= n:
                    best, best_d = m, d
                    break
                if not x and (d > best_d or d == best_d and defence_rank(b, m) < rank):
                    best, best_d, rank = m, d, defence_rank(b, m)
            assert best is not None
            moves.append(best.uci())
            take = promotion_taker(b, best) if best.promotion and x else None
            b.push(best)
            if take is not None:  # X's new piece falls at once: the line goes on
                moves.append(take.uci())
                b.push(take)
                n = best_d - 2
                continue
            if best.promotion:
                ends = "promotion" if x else "defender-promotion"
                break
            n = best_d - 1
        if not ends:
            ends = "mate"
        return PV(tuple(moves), len(moves), ends)
