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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import chess

from logic.exact.pv import PV, defence_rank, promotion_taker

__all__ = ["ForwardSearch", "SearchAborted", "MAX_ENTRIES", "POLL_EVERY"]

#: the table's size at which a search gives up (about 380 bytes an entry, measured: some
#: 0.4 GB when full)
MAX_ENTRIES = 1_000_000
_NEVER = 1 << 30  # a terminal position: no number of plies suffices / needed
#: the search polls its budget every this many positions (a power of two)
POLL_EVERY = 256
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
        e = self._entry()
        if e.win <= n:
            return True
        if e.no >= n:
            return False
        moves = list(b.legal_moves)
        if not moves:  # D mated: the target; stalemate, or X with no move: never
            if b.turn == chess.BLACK and b.is_check():
                e.win = 0
                return True
            e.no = _NEVER
            return False
        if n <= 0:
            e.no = max(e.no, 0)
            return False
        x = b.turn == chess.WHITE
        if x:
            standing = next((m for m in moves if m.promotion and promotion_taker(b, m) is None),
                            None)
            if standing is not None:
                e.win, e.move = 1, standing
                return True
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

    def _entry(self) -> _Entry:
        """The table entry of the current board (made on first visit), counting the
        visit; raises :class:`SearchAborted` when the budget or the table is spent."""
        self.nodes += 1
        if self.nodes & _POLL == 0:
            self._tell()
            if self.nodes >= self.limit or self.poll():
                raise SearchAborted()
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
