"""Expansions of the structure DAG for :mod:`logic.exact`: the budget, the structure
cache, and :class:`Dag`, one (partial) expansion of one game solved successors first.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from logic.exact.budget import NODE_BYTES, SOLVE_BYTES, VISIT_BYTES, Clock, WallClock
from logic.exact.reach import reach_moves, regions, runner
from logic.exact.tables import (
    FULL,
    GUARD,
    HIGH,
    KINGS,
    LEVERS,
    LOW,
    NOPUSH,
    Moves,
    Tables,
    moves_of,
    progress,
    solve_structure,
)

__all__ = ["Budget", "Call", "Bounds", "Dag", "Key", "clear_cache", "cache_info",
           "CACHE_LIMIT", "cached_tables"]

CACHE_LIMIT = 60_000
SEEN_LIMIT = 100_000  # structures a trace keeps
#: seconds it takes, per structure solved, to free a call's expansions when it returns
#: (about 4 us measured: 0.32 s after 83,000 solves of the gap rounds); the budget keeps
#: that time back, so a call returns within its ``max_seconds``
TEARDOWN = 5e-6


def cached_tables(mode: str, key: Key) -> Tables | None:
    """The cached tables of structure ``key`` in game ``mode`` (exact everywhere), if any."""
    return _cache[mode].get(key)
Key = tuple[int, int]


class Budget:
    """Time (read from ``clock``, :class:`~logic.exact.budget.WallClock` by default),
    structure count, memory and cancellation for one call.  Every solve, forward-pass
    visit and searched position counted here is told to the clock.

    Memory is counted, not measured (:meth:`held`): ``held_before`` bytes the call
    starts with (the structure cache), and a fixed estimate per structure solved, per
    structure of the widest forward pass and per position searched
    (:data:`~logic.exact.budget.SOLVE_BYTES` and the others); the call stops expanding
    before :meth:`held` would pass ``max_bytes`` (None: no memory budget)."""

    def __init__(self, max_seconds: float, max_structures: int,
                 cancel: Callable[[], bool] | None,
                 report: Callable[[int], None] | None = None,
                 seen: list[Key] | None = None, clock: Clock | None = None,
                 max_bytes: int | None = None, held_before: int = 0) -> None:
        #: ``report(n)`` is called with the distinct structures solved so far every 16
        #: solves (progress);
        #: ``seen`` collects the structures solved, in order (for a trace)
        self.max_bytes = max_bytes
        self.held_before = held_before
        #: the most structures one forward pass of an expansion took on
        self.widest = 0
        self.report = report
        self.seen = seen
        self.clock: Clock = WallClock() if clock is None else clock
        self.start = self.clock()
        self.deadline = self.start + max_seconds
        self.left = max_structures
        self.cancel = cancel
        self.solved = 0
        self.cached = 0
        #: positions the forward search (:mod:`logic.exact.forward`) searched
        self.nodes = 0
        self.out = False
        #: what ran out first: "structures", "memory", "time" or "cancelled" ("" while
        #: in budget)
        self.why = ""
        #: the distinct structures solved (a structure may be solved in several games,
        #: and again in each partial expansion or round)
        self.keys: set[Key] = set()

    def spend(self, key: Key | None = None) -> bool:
        """Count one solve (of structure ``key``) if the budget allows it; False (and
        nothing counted) once the budget is gone."""
        polled = self.cancel is not None and (self.solved + 1) % 16 == 0
        if self.out:
            return False
        if self.left <= 0:
            return self.run_out("structures")
        if self._over_memory(SOLVE_BYTES):
            return self.run_out("memory")
        if self._overdue():
            return self.run_out("time")
        if polled and self.cancel is not None and self.cancel():
            return self.run_out("cancelled")
        self.solved += 1
        self.left -= 1
        self.clock.work("solve")
        if key is not None:
            self.keys.add(key)
        if self.report is not None and self.solved % 16 == 0:
            self.report(len(self.keys))
        return True

    def _overdue(self) -> bool:
        """At or past the deadline, less the time freeing what was solved will take (a
        budget of 0 s is out at once, whatever the clock)."""
        return self.clock() + self.solved * TEARDOWN >= self.deadline

    def held(self) -> int:
        """The bytes the call holds by its count: what it started with, its solves, its
        widest forward pass and the forward search's positions."""
        return (self.held_before + self.solved * SOLVE_BYTES + self.widest * VISIT_BYTES
                + self.nodes * NODE_BYTES)

    def _over_memory(self, more: int = 0) -> bool:
        """Whether :meth:`held` and ``more`` bytes pass the memory budget."""
        return self.max_bytes is not None and self.held() + more > self.max_bytes

    def taken_on(self, n: int) -> bool:
        """A forward pass has taken on ``n`` structures; False (the budget is out) once
        that passes the memory budget."""
        if n > self.widest:
            self.widest = n
            if self._over_memory():
                return self.run_out("memory")
        return not self.out

    def solving(self, moves: Moves) -> None:
        """Tell the clock of a structure's retrograde solve over ``moves`` (its cost grows
        with them)."""
        self.clock.work("move", len(moves.x) + len(moves.d))

    def searched(self, nodes: int) -> None:
        """Count ``nodes`` more positions searched by the forward search."""
        self.nodes += nodes
        self.clock.work("node", nodes)

    def elapsed(self) -> float:
        """Seconds since the call began, by its clock."""
        return self.clock() - self.start

    def run_out(self, why: str) -> bool:
        """The budget is out (``why``: ``"structures"``, ``"memory"``, ``"time"`` or
        ``"cancelled"``, the first reason kept); returns False (nothing more may be
        spent)."""
        if not self.out:
            self.out, self.why = True, why
        return False

    def late(self, n: int = 63) -> bool:
        """Whether time is up, the memory budget is spent or (when ``n % 64 == 63``) the
        call is cancelled; then the budget is out."""
        if self._over_memory():
            self.run_out("memory")
        elif self._overdue():
            self.run_out("time")
        elif self.cancel is not None and n % 64 == 63 and self.cancel():
            self.run_out("cancelled")
        return self.out


#: the structure cache: per game, structure -> tables exact everywhere
_cache: dict[str, dict[Key, Tables]] = {FULL: {}, KINGS: {}, NOPUSH: {}, LEVERS: {},
                                         GUARD: {}}
_cached = [0]  # entries in all games


def clear_cache() -> None:
    """Forget every solved structure."""
    for d in _cache.values():
        d.clear()
    _cached[0] = 0


def cache_info() -> dict[str, int]:
    """``{"structures": n, "limit": cap}`` of the solved-structure cache."""
    return {"structures": _cached[0], "limit": CACHE_LIMIT}


def _store(mode: str, key: Key, t: Tables) -> None:
    if _cached[0] >= CACHE_LIMIT:
        clear_cache()
    d = _cache[mode]
    if key not in d:
        _cached[0] += 1
    d[key] = t


class Call:
    """What the expansions of one call share: the budget, the cache switch, each
    structure's progress, and per game the exact tables met (``ex``, kept even if the
    global cache is cleared meanwhile) and the tables exact on the states reached
    from this root (``done``).  A structure's reached states depend only on its
    ancestors, which every limit admitting it admits too, so ``done`` holds for every
    later expansion of the call."""

    def __init__(self, budget: Budget, use_cache: bool) -> None:
        self.budget = budget
        self.use_cache = use_cache
        self.prog: dict[Key, tuple[int, int]] = {}
        self.ex: dict[str, dict[Key, Tables]] = {}
        self.done: dict[str, dict[Key, Tables]] = {}

    def progress(self, key: Key) -> tuple[int, int]:
        p = self.prog.get(key)
        if p is None:
            p = self.prog[key] = progress(*key)
        return p


class Bounds(dict):
    """One bound of every structure an expansion meets (a dict for speed): what is
    known is stored; anything else is looked up in the call's exact tables and the
    cache, or else gets the frontier's bound (``default``, or for a lower bound the
    runner bound when ``runner``)."""

    def __init__(self, dag: Dag, default: Tables, runner: bool) -> None:
        super().__init__()
        self.dag = dag
        self.default = default
        self.runner = runner

    def __missing__(self, key: Key) -> Tables:
        t = self.dag.exact(key)
        if t is None:
            t = self.default
            if self.runner:
                run = runner(*key)
                if run is not None:
                    t = Tables(run[0], run[1], 0)
        self[key] = t
        return t


class Dag:
    """One (partial) expansion of the structure DAG in one game.

    ``ex``: exact tables (cached, or solved from exact successors); ``done``: tables
    exact on the states reached from the root (successors exact or never reached);
    ``bnd``: the other expanded structures, bounded by ``tlo`` / ``thi``.  A
    structure whose progress (:func:`~logic.exact.tables.progress`) exceeds the
    root's by more than ``lx`` for X or ``ld`` for D is left unexpanded (``front``),
    bounded by the runner bound (or :data:`~logic.exact.tables.LOW`) and
    :data:`~logic.exact.tables.HIGH`; so is a successor never reached.  ``want`` is
    ``"lo"``, ``"hi"`` or ``"both"``: which bounds the other structures get.
    """

    #: the forward pass keeps this many structures' moves for the backward pass
    KEEP_MOVES = 20_000

    def __init__(self, mode: str, lx: int, ld: int, want: str, call: Call,
                 cap: int | None = None) -> None:
        self.call = call
        self.budget = call.budget
        self.use_cache = call.use_cache
        self.mode = mode
        self.cap = cap
        self.capped = False
        self.lx, self.ld = lx, ld
        self.want = want
        self.ex = call.ex.setdefault(mode, {})
        self.gcache = _cache[mode]
        self.done = call.done.setdefault(mode, {})
        self.bnd: set[Key] = set()
        self.front: set[Key] = set()
        self.tlo = Bounds(self, LOW, want != "hi")
        self.thi = Bounds(self, HIGH, False)
        self.p0 = (0, 0)
        self.work = 0  # structures visited and solved: the cost the scheduler balances

    @property
    def frontier(self) -> bool:
        """Whether the limits cut anything."""
        return bool(self.front)

    def exact(self, key: Key) -> Tables | None:
        """The exact tables of ``key`` if solved or cached (exact everywhere), or exact
        on the states reached in this call."""
        t = self.ex.get(key)
        if t is None:
            if self.use_cache:
                t = self.gcache.get(key)
                if t is not None:
                    self.ex[key] = t
                    self.budget.cached += 1
                    return t
            return self.done.get(key)
        return t

    def expanded(self, key: Key) -> bool:
        """Whether ``key`` was solved (exactly or within bounds)."""
        return key in self.bnd or self.exact(key) is not None

    def hi(self, key: Key) -> Tables:
        """The upper bound of ``key``."""
        return self.thi[key]

    def lo(self, key: Key) -> Tables:
        """The lower bound of ``key``."""
        return self.tlo[key]

    def _known(self, key: Key) -> bool:
        """Whether ``key`` needs no expansion: solved, or beyond the limits (then it
        joins the frontier)."""
        px, pd = self.call.progress(key)
        if px - self.p0[0] > self.lx or pd - self.p0[1] > self.ld:
            self.front.add(key)
            return True
        return key in self.bnd or self.exact(key) is not None

    def expand(self, seeds: dict[Key, list[int]]) -> bool:
        """Solve every structure reachable from the kings' squares seeded
        (``seeds[key] = [X-king squares, D-king squares]``, the root first), children
        before parents; False if out of budget or past this expansion's own cap
        (``capped``).

        A forward pass, in order of total progress (which every move raises, so a
        structure comes after all its parents), collects the squares each king can
        reach (:func:`~logic.exact.tables.regions`) and the structures play can enter
        (a king capture needs the pawn next to the king's region); the backward pass
        solves those.  A successor never reached is bounded like the frontier: no
        state reachable from the root moves into it, so the tables are exact on
        those states when nothing else is cut."""
        call = self.call
        self.p0 = call.progress(next(iter(seeds)))
        seeds = {k: v for k, v in seeds.items() if not self._known(k)}
        heap = [(sum(call.progress(k)), k) for k in seeds]
        heapq.heapify(heap)
        skip: set[Key] = set()  # children known or cut at first sight
        order: list[Key] = []
        kept: dict[Key, Moves] = {}
        prog = call.prog
        while heap:
            _, key = heapq.heappop(heap)
            seed = seeds.pop(key)
            self.work += 1
            if self._over(len(order) + 1):
                return False
            xr, dr = regions(key[0], key[1], seed[0], seed[1])
            moves = moves_of(key[0], key[1], self.mode)
            order.append(key)
            if len(kept) < self.KEEP_MOVES:
                kept[key] = moves
            px, pd = call.progress(key)
            for child, xs, ds, gx, gd in reach_moves(moves, xr, dr):
                e = seeds.get(child)
                if e is not None:
                    e[0] |= xs
                    e[1] |= ds
                    continue
                if child in skip:
                    continue
                if gx >= 0 and child not in prog:
                    prog[child] = (px + gx, pd + gd)
                if self._known(child):
                    skip.add(child)
                    continue
                seeds[child] = [xs, ds]
                heapq.heappush(heap, (sum(call.progress(child)), child))
        mode = self.mode
        for key in reversed(order):
            moves = kept.get(key) or moves_of(key[0], key[1], mode)
            if not self._solve(key, moves):
                return False
        return True

    def _over(self, n: int) -> bool:
        """Whether ``n`` structures taken on exceed this expansion's cap (then
        ``capped``) or the budget (structures or memory: then the budget is out), or time
        is up or the call is cancelled."""
        if self.cap is not None and n > self.cap:
            self.capped = True
            return True
        b = self.budget
        b.clock.work("visit")
        if n > b.left:
            b.run_out("structures")
        b.taken_on(n)
        return b.late(n)

    def _kinds(self, moves: Moves) -> tuple[bool, bool]:
        """``(all successors exact everywhere, none cut by the limits or bounded)``."""
        everywhere = True
        ex, bnd, front = self.ex, self.bnd, self.front
        for mv in moves.x + moves.d:
            for k in ((mv.child,) if mv.child is not None else ()) + mv.ep:
                if k in ex:
                    continue
                everywhere = False
                if k in bnd or k in front:
                    return False, False
        return everywhere, True

    def _solve(self, key: Key, moves: Moves) -> bool:
        self.work += 1
        if self.cap is not None:
            self.cap -= 1
            if self.cap < 0:
                self.capped = True
                return False
        if not self.budget.spend(key):
            return False
        seen = self.budget.seen
        if seen is not None and len(seen) < SEEN_LIMIT:
            seen.append(key)
        everywhere, clean = self._kinds(moves)
        tlo, thi = self.tlo, self.thi
        if clean:
            self.budget.solving(moves)
            t = solve_structure(key[0], key[1], self.mode, moves,
                                   (thi if self.want == "hi" else tlo).__getitem__)
            if everywhere:
                self.ex[key] = t
                _store(self.mode, key, t)
            else:
                self.done[key] = t
            tlo[key] = thi[key] = t
            return True
        self.bnd.add(key)
        if self.want != "lo":
            self.budget.solving(moves)
            thi[key] = solve_structure(key[0], key[1], self.mode, moves, thi.__getitem__)
        else:
            thi[key] = HIGH
        if self.want != "hi":
            if self.want == "both" and not self.budget.spend():
                return False
            self.budget.solving(moves)
            tlo[key] = solve_structure(key[0], key[1], self.mode, moves, tlo.__getitem__)
        else:
            tlo[key] = LOW
        return True
