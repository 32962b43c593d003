"""The strategies of :mod:`logic.exact` as objects, their registry, and the scheduler
that runs them side by side until one decides.

A strategy (:class:`Levels`, :class:`GapRounds`, :class:`Forward`) has a ``weight``
(its share of the time; a forward search of weight 0 runs only in its time alone) and
``start(root, call)``, which gives a :class:`Run`: each ``step()`` does one expansion
(or one ply of search) and returns a :class:`Proof` when it decides the root;
``finished`` says it has nothing more to try.  :func:`prove` always steps the run that
has spent the least time for its weight.  The schedule changes only how soon an answer
comes, never the answer: every strategy is sound on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol

from logic.exact.dag import Budget, Call, Dag
from logic.exact.forward import POLL_EVERY, ForwardSearch, SearchAborted
from logic.exact.gap import GapExpansion
from logic.exact.root import Root, oriented_board, reach, root_seeds, root_states, root_table
from logic.exact.tables import FULL, GUARD, KINGS, LEVERS, NOPUSH, index

__all__ = ["Proof", "Horizon", "Run", "Levels", "GapRounds", "Forward", "STRATEGIES", "prove",
           "whole_dag"]


class Proof(NamedTuple):
    """A decided root: ``table`` the side-to-move table that decided it, trustworthy on
    the states of ``mask`` (for the king map); ``restricted`` the game that proved it;
    ``dag`` the expansion whose bounds gave it (the PV of a breakthrough walks them), or
    the forward search that found the breakthrough (its line is its own)."""

    won: bool
    table: int
    mask: int
    restricted: str
    dag: Dag | GapExpansion | ForwardSearch


class Horizon(NamedTuple):
    """No proof within the budget: ``plies``, the most plies the forward search proved X
    cannot force the target within against every defence (-1: it proved no such
    horizon, or did not run)."""

    plies: int


class Run(Protocol):
    """One strategy at work on one root."""

    finished: bool  # nothing more to try

    def step(self) -> Proof | None:
        """One expansion; the proof if it decides the root."""


def _no_cap(level: int) -> int | None:
    return None


@dataclass(frozen=True)
class Levels:
    """Level-limited expansions of game ``mode``: at level ``n`` X's and D's progress
    are limited to ``limits(n)``; structures beyond are bounded by ``want``: ``"hi"``
    all X wins (a non-win proves a blockage), ``"lo"`` all losses but X's runners (a
    win proves a breakthrough).  In the full game the lower bound is read either way,
    and an expansion that cuts nothing is exact (a blockage or a breakthrough).  An
    expansion is given up past ``cap(n)`` structures (None: no cap).  Levels grow,
    doubling the increment while an expansion less than doubles the last's work."""

    mode: str
    want: str
    limits: Callable[[int], tuple[int, int]]
    cap: Callable[[int], int | None] = _no_cap
    weight: float = 1.0

    def start(self, root: Root, call: Call) -> LevelRun:
        """A run of these expansions on ``root``."""
        return LevelRun(self, root, call)

    def decide(self, r: Root, dag: Dag) -> Proof | None:
        """The proof one finished expansion gives, if any."""
        bit = index(r.xk, r.dk)
        how = self.mode if self.mode != FULL else ("bounds" if dag.frontier else "")
        if self.want != "lo":
            hi = root_table(r, self.mode, dag.hi)
            if not hi >> bit & 1:
                return Proof(False, hi, reach(r), how, dag)
        if self.mode != FULL:
            return None
        lo = root_table(r, self.mode, dag.lo)
        if lo >> bit & 1:
            reached = reach(r)
            return Proof(True, lo & reached, reached, how, dag)
        if not dag.frontier:  # exact on the states reached from the root
            return Proof(False, lo, reach(r), how, dag)
        return None


@dataclass
class LevelRun:
    """:class:`Levels` at work: the next level, the increment to the one after it and
    the last expansion's work."""

    strategy: Levels
    root: Root
    call: Call
    level: int = 1
    inc: int = 1
    last: int = 0
    finished: bool = False

    def step(self) -> Proof | None:
        """Expand the next level; a capped expansion is retried at the next (larger
        cap), a restricted game X wins outright finishes the run."""
        st, r = self.strategy, self.root
        dag = Dag(st.mode, *st.limits(self.level), st.want, self.call, st.cap(self.level))
        done = dag.expand(root_seeds(r))
        if dag.work < 2 * self.last:
            self.inc *= 2
        self.last = dag.work
        self.level += self.inc
        if not done:  # capped (try the next level) or out of budget (the scheduler sees)
            return None
        proof = st.decide(r, dag)
        if proof is None and not dag.frontier:  # a restricted game X wins outright
            self.finished = True
        return proof


@dataclass(frozen=True)
class GapRounds:
    """The gap-guided expansion of the full game's upper bounds
    (:mod:`logic.exact.gap`), a round a step: it proves blockages only (a win it cannot
    tell from a bound: the other strategies find those)."""

    weight: float = 1.0

    def start(self, root: Root, call: Call) -> GapRun:
        """A run of the rounds on ``root``."""
        return GapRun(root, GapExpansion(root_states(root), call))


@dataclass
class GapRun:
    """:class:`GapRounds` at work; finished when out of budget or stuck."""

    root: Root
    gap: GapExpansion
    finished: bool = False

    def step(self) -> Proof | None:
        """One round; a proof once the root's state is no longer an upper-bound win."""
        r, g = self.root, self.gap
        if not g.step():
            self.finished = True
            return None
        hi = root_table(r, FULL, g.hi)
        if hi >> index(r.xk, r.dk) & 1:
            return None
        return Proof(False, hi, reach(r), "gap", g)


@dataclass(frozen=True)
class Forward:
    """The forward search for a short breakthrough (:mod:`logic.exact.forward`), a ply
    deeper each step: it proves breakthroughs, with their fastest line, and otherwise a
    horizon (:class:`Horizon`: its deepest finished ply)."""

    weight: float = 1.0
    #: the share of a call's time the search has alone, after the other strategies'
    #: (when it runs with them): where the whole game is too big, it deepens the horizon
    alone: float = 0.5
    #: the deepest search tried (plies); deeper breakthroughs are left to the expansions
    max_plies: int = 64
    #: the positions a step may search before it yields (doubled each time it must)
    first_cap: int = 4096

    def start(self, root: Root, call: Call) -> ForwardRun:
        """A run of the search on ``root``."""
        run = ForwardRun(self, root, call,
                         ForwardSearch(oriented_board(root), _never, call.budget.searched),
                         self.first_cap)
        run.search.poll = run.poll
        return run


def _never() -> bool:
    return False


@dataclass
class ForwardRun:
    """:class:`Forward` at work: a step deepens by one ply, within ``cap`` positions
    (an unfinished ply is taken up again at the next step, with twice the cap and what
    the search's table proved meanwhile)."""

    strategy: Forward
    root: Root
    call: Call
    search: ForwardSearch
    cap: int
    finished: bool = False
    #: the budget's clock and the positions searched at the search's last poll in this
    #: step (None: none yet)
    polled: tuple[float, int] | None = None
    #: the time a position takes, as last measured between two polls
    rate: float = 0.0

    def poll(self) -> bool:
        """The search's poll (every :data:`POLL_EVERY` positions): stop when the budget
        is out (time up, cancelled), or when the positions up to the next poll would
        pass the deadline (the budget is then out of time): a call ends within its
        seconds."""
        b = self.call.budget
        now, nodes = b.clock(), self.search.nodes
        if self.polled is not None and nodes > self.polled[1]:
            self.rate = (now - self.polled[0]) / (nodes - self.polled[1])
        self.polled = (now, nodes)
        if not b.late() and now + self.rate * (POLL_EVERY - nodes % POLL_EVERY) >= b.deadline:
            b.run_out("time")
        return b.out

    def step(self) -> Proof | None:
        """One ply deeper; the proof once X forces the target within it."""
        s = self.search
        self.polled = None
        if self.poll():
            return None
        try:
            d = s.deepen(s.depth + 1, limit=self.cap)
        except SearchAborted as e:
            self.cap *= 2
            self.finished = e.full
            return None
        if d is None:
            self.finished = s.depth >= self.strategy.max_plies
            return None
        bit = 1 << index(self.root.xk, self.root.dk)
        return Proof(True, bit, bit, "forward", s)


Strategy = Levels | GapRounds | Forward

_UNLIMITED = 1 << 20
_KINGS_GAME = Levels(KINGS, "hi", lambda n: (n, _UNLIMITED))
_NOPUSH_GAME = Levels(NOPUSH, "hi", lambda n: (n, _UNLIMITED))
_LEVERS_GAME = Levels(LEVERS, "hi", lambda n: (n, _UNLIMITED))
_GUARD_GAME = Levels(GUARD, "hi", lambda n: (n, _UNLIMITED))
_FULL_HI = Levels(FULL, "hi", lambda n: (n, n // 2))
_FULL_LO = Levels(FULL, "lo", lambda n: (n // 2, n))
_FULL_GAME = Levels(FULL, "lo", lambda n: (_UNLIMITED, _UNLIMITED))
#: the whole DAG, given up when it outgrows a cap that doubles with each try
_FULL_CAPPED = Levels(FULL, "lo", _FULL_GAME.limits, cap=lambda n: 1000 << n, weight=0.5)
#: upper bounds of the full game expanded where the root's doubt leads, a round a step
_GAP = GapRounds()
#: short breakthroughs by a forward search, with their fastest line
_FORWARD = Forward(weight=1.0)
#: the forward search of a claimed side: no share of the race (the restricted games prove
#: nearly every claim, soonest alone), the last tenth of the time alone (a horizon where
#: they do not)
_FORWARD_CLAIMED = Forward(weight=0.0, alone=0.1)


#: ``method`` of :func:`logic.exact.solve`: the strategies it runs.  ``auto`` runs the
#: shortcut games KINGS and NOPUSH, the gap-guided expansion (upper bounds: blockages;
#: twice the share), the lower-bound partial expansion (breakthroughs; one and a half, so
#: that it keeps the breakthroughs of the built-in sample), the capped whole DAG and the
#: forward search (short breakthroughs: Diagram 20's 1. f5 in under a second; a horizon
#: where the whole game is too big), always the one that has spent the least time so far
#: for its weight, at its next level.  ``claimed``, for a side a static method calls
#: blocked, runs the restricted games, which nearly always give the proof there: GUARD and
#: LEVERS eight times KINGS's share each (GUARD proves most claims of real games with a
#: tenth of LEVERS's structures or less; LEVERS those where X's king may take a pawn and
#: still not win), NOPUSH twice; the level-limited bounds of the full game a quarter to a
#: half (no gap expansion), and the forward search in the last tenth of the time only (a
#: horizon where no proof comes); measured by ``python benchmarks/doc_tables.py
#: exact-claims`` (docs/tables/exact-claims.md).  ``kings`` / ``guard`` / ``levers`` /
#: ``nopush`` only that restricted game (blocked or unknown); ``bounds`` only the
#: level-limited partial expansions of the full game; ``gap`` only the gap-guided
#: expansion (blocked or unknown); ``full`` the whole DAG of the full game at once;
#: ``forward`` only the forward search (breaks, a horizon, or unknown).
STRATEGIES: dict[str, tuple[Strategy, ...]] = {
    "auto": (_KINGS_GAME, _NOPUSH_GAME, replace(_GAP, weight=2.0), replace(_FULL_LO, weight=1.5),
             _FULL_CAPPED, _FORWARD),
    "claimed": (_KINGS_GAME, replace(_GUARD_GAME, weight=8.0), replace(_LEVERS_GAME, weight=8.0),
                replace(_NOPUSH_GAME, weight=2.0),
                replace(_FULL_HI, weight=0.5), replace(_FULL_LO, weight=0.25),
                replace(_FULL_CAPPED, weight=0.25), _FORWARD_CLAIMED),
    "kings": (_KINGS_GAME,),
    "levers": (_LEVERS_GAME,),
    "guard": (_GUARD_GAME,),
    "nopush": (_NOPUSH_GAME,),
    "bounds": (_FULL_HI, _FULL_LO),
    "gap": (_GAP,),
    "full": (_FULL_GAME,),
    "forward": (replace(_FORWARD, weight=1.0),),
}

#: seconds every strategy is deemed to have spent before it starts: a strategy of
#: weight w first runs once one of weight W has spent ``_HEAD_START * (W / w - 1)``, so
#: a light strategy's first (possibly large) expansion does not delay a heavy one's
#: quick proof
_HEAD_START = 0.05


def prove(r: Root, call: Call, strategies: tuple[Strategy, ...]) -> Proof | Horizon:
    """Run ``strategies`` on ``r``, always stepping the one that has spent the least
    time so far for its weight, until one decides; a :class:`Horizon` if out of budget
    (``call``'s) or if every run finished undecided (restricted games X wins outright, a
    gap expansion stuck: X wins the full game, which only the other strategies prove):
    the deepest ply count a forward search among ``strategies`` completed without a win.
    With a forward search among other strategies, these share the time up to
    ``1 - alone`` of it (:attr:`Forward.alone`); after that (once time, not the
    structure budget, ran out, or every other run finished) the forward search deepens
    alone until the budget's deadline.  Time is read from the budget's clock: under a
    :class:`~logic.exact.budget.WorkClock` the order of the steps, and so the answer's
    counts, depend on the work done only."""
    budget = call.budget
    runs: list[Run] = [s.start(r, call) for s in strategies]
    forward = [run for run in runs if isinstance(run, ForwardRun)]
    end = budget.deadline
    if forward and len(runs) > 1:  # the last share of the time: the forward search's alone
        alone = forward[0].strategy.alone
        budget.deadline = budget.start + (end - budget.start) * (1 - alone)
    racing = [(run, s.weight) for run, s in zip(runs, strategies, strict=True) if s.weight > 0]
    proof = _race([run for run, _w in racing], [w for _run, w in racing], budget)
    if proof is None and budget.deadline < end:
        proof = _deepen(forward[0], budget, end)
    budget.deadline = end
    if proof is not None:
        return proof
    return Horizon(max((run.search.depth for run in forward), default=-1))


def _race(runs: list[Run], weights: list[float], budget: Budget) -> Proof | None:
    """Step ``runs``, always the one that has spent the least time for its weight, until
    one decides (its proof), the budget is out or every run finished (None)."""
    clock = budget.clock
    spent = [0.0] * len(runs)
    active = set(range(len(runs)))
    while active:
        i = min(active, key=lambda j: ((spent[j] + _HEAD_START) / weights[j], j))
        t0 = clock()
        proof = runs[i].step()
        spent[i] += clock() - t0
        if proof is not None:
            return proof
        if budget.out:
            return None
        if runs[i].finished:
            active.discard(i)
    return None


def _deepen(run: ForwardRun, budget: Budget, end: float) -> Proof | None:
    """The forward search alone, a ply deeper each step, from where the other
    strategies' share of the time ended until the budget's own deadline ``end`` or a
    breakthrough.  Only after time ran out (a budget out of structures or cancelled
    stays out) or every other strategy finished undecided."""
    if budget.out and budget.why != "time":
        return None
    budget.deadline, budget.out, budget.why = end, False, ""
    while not run.finished and not budget.late():
        proof = run.step()
        if proof is not None:
            return proof
    return None


def whole_dag(r: Root, call: Call, cap: int) -> Proof | None:
    """The whole DAG of the full game from ``r`` solved at once, if it has at most
    ``cap`` structures and fits ``call``'s budget: exact on every state the root
    reaches, so its distances give the fastest line (:mod:`logic.exact.pv`); None
    otherwise, or if X does not win there."""
    dag = Dag(FULL, _UNLIMITED, _UNLIMITED, "lo", call, cap)
    if not dag.expand(root_seeds(r)) or dag.frontier:
        return None
    proof = _FULL_GAME.decide(r, dag)
    return proof if proof is not None and proof.won else None
