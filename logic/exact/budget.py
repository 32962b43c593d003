"""Budgets of the exact prover: how many structures a call of N seconds may solve, and the
retry policy of a caller that asks again after "unknown" (:func:`next_budget`).

A proof's budget is time *and* a structure count: the count bounds memory (about 0.7 GB
after 216,000 solves, 2.0 GB after 766,000), the time bounds the wait.  More time is more
work only below :data:`STRUCTURE_CEILING`.

The time is read from a :class:`Clock`: :class:`WallClock` (the default: seconds as they
pass) or :class:`WorkClock`, whose seconds are the work done (structures solved, positions
searched, each at a fixed cost), so that a call's answer, its counts and the order its
strategies run in depend on the position and the budget only, never on the machine's
speed or load.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Literal, NamedTuple, Protocol

MAX_SECONDS = 10.0
#: the structure solves of a call of :data:`MAX_SECONDS`; a longer call may make as many
#: per :data:`MAX_SECONDS` of its budget (:func:`structure_budget`)
MAX_STRUCTURES = 200_000
#: the most structure solves a call makes by default, whatever its time: memory grows
#: with them (measured: 0.7 GB after 216,000 solves, 2.0 GB after 766,000)
STRUCTURE_CEILING = 1_000_000
#: the most seconds a side a caller's retries give a proof that came back "unknown"
#: (doubling each time: :func:`next_budget`)
MAX_RETRY_SECONDS = 640.0


#: the kinds of work a :class:`Clock` is told of: a structure solved (retrograde tables),
#: each structure-changing move such a solve goes over, a structure visited by an
#: expansion's forward pass, a position searched by the forward search, a structure's
#: distances computed for a principal variation
Work = Literal["solve", "move", "visit", "node", "distance"]

#: :class:`WorkClock`'s seconds per unit of work: about what each takes on an idle
#: two-core machine of the project's kind, so that a budget of N seconds buys about as
#: much work as N seconds of the wall clock there.  Measured: the forward search finds
#: the 33-ply line of ``2k5/6p1/8/5P2/8/8/8/2K5 b`` after 789,000 positions, within the
#: default 10 s on the idle machine (12.5 us a position); relative to a position, a
#: structure solve costs 0.4 plus 0.28 a structure-changing move (Fine #70's whole DAG,
#: 6 moves a structure, and eight pawns a side, 45 moves, in the same runs), a forward
#: pass's visit 0.65, a structure's distances (NumPy value iteration) an estimated 8
WORK_SECONDS: Mapping[Work, float] = {"solve": 5e-6, "move": 3.5e-6, "visit": 8e-6,
                                      "node": 1.25e-5, "distance": 1e-4}


class Clock(Protocol):
    """What the prover reads its time from: ``clock()`` is seconds (from any origin,
    never decreasing), and ``work(kind, n)`` tells the clock of ``n`` units of work
    done (a clock of real time ignores it)."""

    def __call__(self) -> float:
        """Seconds from the clock's origin."""
        ...

    def work(self, kind: Work, n: int = 1) -> None:
        """``n`` units of ``kind`` of work were done."""
        ...


class WallClock:
    """Real time (:func:`time.perf_counter`): the default clock of a proof."""

    def __call__(self) -> float:
        """Seconds of :func:`time.perf_counter`."""
        return time.perf_counter()

    def work(self, kind: Work, n: int = 1) -> None:
        """Real time passes by itself: nothing to do."""


class WorkClock:
    """A clock that advances only with work done: ``costs[kind]`` seconds per unit
    (:data:`WORK_SECONDS` by default).  Under it a proof is deterministic: the same
    position, budget and cache give the same answer, counts and line on any machine
    under any load.  One clock per call (a clock shared by concurrent calls would
    advance with both)."""

    def __init__(self, costs: Mapping[Work, float] = WORK_SECONDS) -> None:
        self.costs = dict(costs)
        self.seconds = 0.0
        #: units of each kind of work told so far
        self.done: dict[Work, int] = dict.fromkeys(self.costs, 0)

    def __call__(self) -> float:
        """The seconds the work done so far is worth."""
        return self.seconds

    def work(self, kind: Work, n: int = 1) -> None:
        """Advance by ``n`` units of ``kind``."""
        self.done[kind] += n
        self.seconds += n * self.costs[kind]


def structure_budget(max_seconds: float) -> int:
    """The structure solves a call of ``max_seconds`` may make by default:
    :data:`MAX_STRUCTURES` per :data:`MAX_SECONDS` (never fewer than
    :data:`MAX_STRUCTURES`, never more than :data:`STRUCTURE_CEILING`), so that more time
    is more work, not the same structure budget spent sooner."""
    scaled = MAX_STRUCTURES * max_seconds / MAX_SECONDS
    return int(min(STRUCTURE_CEILING, max(MAX_STRUCTURES, scaled)))


class Retry(NamedTuple):
    """The answer of :func:`next_budget`: ``seconds`` for the next try, or ``None`` with
    ``reason``, one sentence saying why more time would not help."""

    seconds: float | None
    reason: str


def next_budget(seconds: float, ran_out: Iterable[str | None]) -> Retry:
    """The retry policy after "unknown": twice ``seconds`` (at most
    :data:`MAX_RETRY_SECONDS`) when a retry can still help, judged by what the unknown
    verdicts ran out of (``ran_out``: each one's ``ExactResult.ran_out``: ``"time"``,
    ``"structures"`` or ``None`` when every strategy ended undecided).  More time helps
    where time ran out; more structures only below :data:`STRUCTURE_CEILING`.  An empty
    ``ran_out`` (nothing known yet) allows a retry."""
    ends = list(ran_out)
    if seconds >= MAX_RETRY_SECONDS:
        return Retry(None, f"Already {seconds:g} s a side, the most a retry gives: "
                           "still unknown")
    if ends and "time" not in ends:
        if "structures" in ends and structure_budget(seconds) < STRUCTURE_CEILING:
            return Retry(min(MAX_RETRY_SECONDS, 2 * seconds), "")
        if "structures" in ends:
            return Retry(None, f"Already the most structures a proof may solve "
                               f"({STRUCTURE_CEILING:,}): still unknown")
        return Retry(None, "Every strategy ended undecided: more time would not help")
    return Retry(min(MAX_RETRY_SECONDS, 2 * seconds), "")
