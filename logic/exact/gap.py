"""Gap-guided expansion of the structure DAG: blockage proofs for :mod:`logic.exact`.

Keeps a growing set of *expanded* structures of the full game (X = White), each with
an upper bound of its tables (:func:`~logic.exact.tables.solve_structure` over its
successors' bounds; a structure not expanded counts as all X wins,
:data:`~logic.exact.tables.HIGH`, unless its exact tables, or a restricted game's
(a weaker defender: X wins at least there), are known).  Any expanded
set gives valid upper bounds (induction over the DAG, successors first), so a root
state the bound calls no win is a proof that X cannot win, whatever was expanded.

Which structures to expand is guided by the states still in doubt: from the root's
state, follow king steps and structure-changing moves of both sides through the
states the upper bound calls X wins; the unexpanded structures this walk enters are
the only ones whose expansion can still turn the root's verdict.  Each round
(:meth:`GapExpansion.step`) expands all of them, re-solves them and their expanded
ancestors (children first), and the walk is repeated.  When the walk enters nothing
new while the root is still won, X wins the full game (found by the other
strategies); the expansion is then ``stuck``.

Where the level-limited expansions of :mod:`logic.exact.dag` cut the DAG by progress,
this one follows the play that matters: on the master-game drawn set it proves
blockages with fewer structures (``tests/test_exact.py``,
``test_gap_expansion_proves_an_open_master_blockage``).
"""

from __future__ import annotations

import heapq

from logic.exact.dag import SEEN_LIMIT, Call, Key, cached_tables
from logic.exact.reach import close_within
from logic.exact.tables import (
    FULL,
    GUARD,
    HIGH,
    KCAP,
    KINGS,
    LEVERS,
    NOPUSH,
    PROMO,
    Legal,
    Moves,
    Tables,
    d_king_onto,
    d_takes_promoted,
    legal_masks,
    move_legal,
    moves_of,
    solve_structure,
    x_king_onto,
)

__all__ = ["GapExpansion"]

#: the restricted games whose exact tables bound the full game's from above, tightest first
_WEAKER = (NOPUSH, LEVERS, GUARD, KINGS)


class GapExpansion:
    """Upper bounds of the full game's tables on a growing set of structures.

    ``seeds``: the root's states (``[X to move, D to move]`` per structure, the root
    first, as :func:`logic.exact.root.root_states` gives them).  ``call``: the budget (each
    structure solve is spent from it) and the call's exact tables.  ``stuck``: the
    walk found nothing more to expand.
    """

    def __init__(self, seeds: dict[Key, list[int]], call: Call) -> None:
        self.seeds = seeds
        self.call = call
        self.budget = call.budget
        self.ex = call.ex.setdefault(FULL, {})
        self.moves: dict[Key, Moves] = {}
        self.thi: dict[Key, Tables] = {}
        self.parents: dict[Key, list[Key]] = {}
        self.psum: dict[Key, int] = {}
        self.exact: set[Key] = set()  # unexpanded, exact tables known
        self.restricted: dict[Key, Tables] = {}  # a restricted game's tables (a bound)
        self.stuck = False

    def hi(self, key: Key) -> Tables:
        """The upper bound of ``key``: its own if expanded, else its exact tables if
        known (this call's or the cache's), else a restricted game's exact tables (D
        weaker: X wins at least there), else :data:`HIGH`."""
        t = self.thi.get(key)
        if t is None:
            t = self._known(key)
            self.thi[key] = t
        return t

    def _known(self, key: Key) -> Tables:
        t = self.ex.get(key)
        if t is None and self.call.use_cache:
            t = cached_tables(FULL, key)
        if t is not None:
            self.exact.add(key)
            return t
        for mode in _WEAKER:
            t = self.call.ex.get(mode, {}).get(key)
            if t is None and self.call.use_cache:
                t = cached_tables(mode, key)
            if t is not None:
                self.restricted[key] = t
                return t
        return HIGH

    def _sum(self, key: Key) -> int:
        s = self.psum.get(key)
        if s is None:
            s = self.psum[key] = sum(self.call.progress(key))
        return s

    def step(self) -> bool:
        """One round: expand every structure the walk from the root enters (the root
        itself first time), re-solve what changed; False when the budget ran out or
        the walk found nothing to expand (then ``stuck``)."""
        front = list(self.seeds) if not self.moves else self._frontier()
        if self.budget.out:
            return False
        if not front:
            self.stuck = True
            return False
        return self._expand(front)

    def _expand(self, keys: list[Key]) -> bool:
        """Expand ``keys`` (not expanded yet), then re-solve them and, while bounds
        change, their expanded ancestors, children first (highest progress first:
        every move raises it).  A key's moves are generated when it is first solved
        (so solves, and the progress they report, never wait for a whole round's move
        generation); a parent among the new keys is queued anyway."""
        budget = self.budget
        heap = [(-self._sum(k), k) for k in keys]
        heapq.heapify(heap)
        queued = set(keys)
        get = self.hi
        seen = budget.seen
        moves = self.moves
        while heap:
            _, k = heapq.heappop(heap)
            if not budget.spend(k):
                return False
            queued.discard(k)
            mv = moves.get(k)
            if mv is None:
                mv = moves[k] = moves_of(k[0], k[1], FULL)
                for m in mv.x + mv.d:
                    for c in ((m.child,) if m.child is not None else ()) + m.ep:
                        self.parents.setdefault(c, []).append(k)
            if seen is not None and len(seen) < SEEN_LIMIT:
                seen.append(k)
            budget.solving(mv)
            t = solve_structure(k[0], k[1], FULL, mv, get)
            r = self.restricted.get(k)
            if r is not None:  # both bound it: so does their meet
                t = Tables(t.wgood & r.wgood, t.b & r.b, t.bstale)
            if self.thi.get(k) == t:
                continue
            self.thi[k] = t
            for p in self.parents.get(k, ()):
                if p in moves and p not in queued:
                    queued.add(p)
                    heapq.heappush(heap, (-self._sum(p), p))
        return True

    def _frontier(self) -> list[Key]:
        """The unexpanded structures the walk from the root's states enters through
        states the upper bound calls X wins, most-entered first."""
        seeds = {k: list(v) for k, v in self.seeds.items()}
        heap = [(self._sum(k), k) for k in seeds]
        heapq.heapify(heap)
        front: dict[Key, int] = {}
        n = 0
        while heap:
            n += 1
            if n & 63 == 63:
                self.budget.clock.work("visit", 64)  # the walk's structures, as work
                if self.budget.late():
                    return []
            _, key = heapq.heappop(heap)
            sw, sb = seeds.pop(key)
            if key not in self.moves:
                t = self.hi(key)
                if key in self.exact:  # nothing below it to expand
                    continue
                lg = legal_masks(*key)
                if t is not HIGH:
                    sw, sb = close_within(sw, sb, t.wgood & lg.w, t.b)
                entered = ((sw & lg.w) | (sb & lg.b)).bit_count()
                if entered:
                    front[key] = front.get(key, 0) + entered
                continue
            t = self.thi[key]
            lg = legal_masks(*key)
            rw, rb = close_within(sw, sb, t.wgood & lg.w, t.b)
            if rw | rb:
                self._follow(self.moves[key], lg, rw, rb, seeds, heap)
        return sorted(front, key=lambda k: -front[k])

    def _follow(self, moves: Moves, lg: Legal, rw: int, rb: int,
                seeds: dict[Key, list[int]], heap: list[tuple[int, Key]]) -> None:
        """Seed the successors of the won states ``rw`` (X to move) and ``rb`` (D to
        move) by every structure-changing move legal there (an X promotion D's king can
        take: the structure after the capture)."""
        for side, mvs, states, nocheck, check in (
                (0, moves.x, rw, lg.w ^ lg.xcheck, lg.xcheck),
                (1, moves.d, rb, lg.b ^ lg.dcheck, lg.dcheck)):
            if not states:
                continue
            for mv in mvs:
                child = mv.child
                if child is None:  # a promotion that ends the game
                    continue
                s = move_legal(mv, nocheck, check, not side) & states
                if not s:
                    continue
                if mv.kind == PROMO:  # X's: D's king takes the new piece, X to move
                    taken = d_takes_promoted(s, mv.sq)
                    if taken:
                        self._seed(seeds, heap, child, 0, taken)
                    continue
                if mv.kind == KCAP:
                    s = d_king_onto(s, mv.sq) if side else x_king_onto(s, mv.sq)
                self._seed(seeds, heap, child, 1 - side, s)
                for c in mv.ep:
                    self._seed(seeds, heap, c, side, s)

    def _seed(self, seeds: dict[Key, list[int]], heap: list[tuple[int, Key]], key: Key,
              to_move: int, states: int) -> None:
        """Add ``states`` to ``key``'s seeds, X to move if ``to_move`` is 0, else D."""
        e = seeds.get(key)
        if e is None:
            e = seeds[key] = [0, 0]
            heapq.heappush(heap, (self._sum(key), key))
        e[to_move] |= states
