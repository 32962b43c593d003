"""Budgets of the exact prover: how many structures a call of N seconds may solve, and the
retry policy of a caller that asks again after "unknown" (:func:`next_budget`).

A proof's budget is time, a structure count and memory: the time bounds the wait, the
count and the memory bound what the call holds (the process grows to about 0.7 GB after
216,000 solves, 2.0 GB after 766,000).  More time is more work only below
:data:`STRUCTURE_CEILING` and within the memory budget.  The memory is counted, not read
from the machine: each structure solved, each structure an expansion's forward pass takes
on and each position the forward search meets adds a fixed estimate (:data:`SOLVE_BYTES`,
:data:`VISIT_BYTES`, :data:`NODE_BYTES`), so that a call's answer under a given memory
budget is as deterministic as under a given structure count.  A call's memory budget is
its own (``max_bytes``), else the setting :data:`MEMORY_ENV` (``--exact-memory`` sets it,
for the command's worker processes too: :func:`memory_setting`), else a share of what the
machine has free (:func:`default_memory`).

The time is read from a :class:`Clock`: :class:`WallClock` (the default: seconds as they
pass) or :class:`WorkClock`, whose seconds are the work done (structures solved, positions
searched, each at a fixed cost), so that a call's answer, its counts and the order its
strategies run in depend on the position and the budget only, never on the machine's
speed or load.
"""

from __future__ import annotations

import math
import os
import re
import resource
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
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
#: pass's visit 0.65, a structure's distances (NumPy value iteration) an estimated 8.
#: These are few-pawn costs: with six pawns a side (the master-game structures) a position
#: and a structure take about three times as long, so that a 10 s budget on this clock is
#: about 30 s of the wall clock there (``benchmarks/horizon.py --clock work``)
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
    ``"structures"``, ``"memory"`` or ``None`` when every strategy ended undecided).  More
    time helps where time ran out; more structures only below :data:`STRUCTURE_CEILING`;
    never where memory ran out.  An empty ``ran_out`` (nothing known yet) allows a
    retry."""
    ends = list(ran_out)
    if seconds >= MAX_RETRY_SECONDS:
        return Retry(None, f"Already {seconds:g} s a side, the most a retry gives: "
                           "still unknown")
    if ends and "time" not in ends:
        if "structures" in ends and structure_budget(seconds) < STRUCTURE_CEILING:
            return Retry(min(MAX_RETRY_SECONDS, 2 * seconds), "")
        if "memory" in ends:
            return Retry(None, "The prover's memory budget ran out: more time would not "
                               "help")
        if "structures" in ends:
            return Retry(None, f"Already the most structures a proof may solve "
                               f"({STRUCTURE_CEILING:,}): still unknown")
        return Retry(None, "Every strategy ended undecided: more time would not help")
    return Retry(min(MAX_RETRY_SECONDS, 2 * seconds), "")


#: bytes a call holds per structure solved: its tables (three 4096-bit integers) in the
#: call's dictionaries and bounds.  Measured with :mod:`tracemalloc` (peak of a call on a
#: cold cache over its solves, ``pv=False``): 3,196 for the gap rounds of ``paper-13``
#: (17,222 solves, 55.0 MB), 2,676 for its level-limited bounds (16,146 solves, 43.2 MB);
#: by the resident size, which adds the allocator's slack (``benchmarks/exact_memory.py``,
#: both sides of ``explain`` at 30 s a side): 2,100 for ``paper-13`` (430,000 solves,
#: 890 MB) to 5,000 for ``paper-3`` (366,000 solves, 1.8 GB): the largest
SOLVE_BYTES = 5_000
#: bytes per structure the widest forward pass of an expansion holds at once (its order,
#: seeds, kept moves and each structure's progress): the whole DAG of ``paper-13``, given
#: up after 125,000 structures taken on and none solved, peaked at 152.0 MB (1,216 each)
VISIT_BYTES = 1_300
#: bytes per position of the forward search (its table of proved bounds): 22 to 87
#: measured (``paper-13`` and ``paper-3``, 160,768 positions each, 3.5 and 14.0 MB)
NODE_BYTES = 100
#: the share of the machine's free memory a call may hold by default: the rest is the
#: allocator's slack (Python's heap is not returned page by page) and the rest of the
#: process
MEMORY_SHARE = 0.5
#: the default memory budget when the machine says nothing of its memory (no ``/proc``)
FALLBACK_MEMORY = 1 << 30
#: the least memory budget accepted (bytes): below it no structure fits
MIN_MEMORY = 1 << 10
#: the most memory budget accepted (bytes): a pebibyte
MAX_MEMORY = 1 << 50
#: the environment variable that sets the memory budget of every call that is not given
#: its own (a size, as :func:`parse_memory` reads it): spawned worker processes inherit it
MEMORY_ENV = "PAWNFENCE_EXACT_MEMORY"

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:([kmgt])(?:i?b)?|b)?\s*", re.IGNORECASE)


class MemoryBudgetError(ValueError):
    """A memory size that cannot be read, or out of range (the message echoes it)."""


def parse_memory(text: str) -> int:
    """A memory size in bytes: a number with an optional unit, K, M, G or T (powers of
    1024; ``KB``, ``MiB`` and the like too, any case): ``"512M"``, ``"2G"``, ``"1.5g"``,
    ``"1000000"``.  Raises :class:`MemoryBudgetError` (a ``ValueError``) echoing
    ``text`` unless it is such a size from :data:`MIN_MEMORY` to :data:`MAX_MEMORY`."""
    shown = text if len(text) <= 60 else text[:60] + "…"
    m = _SIZE.fullmatch(text) if len(text) <= 60 else None
    if m is None:
        raise MemoryBudgetError(f"expected a memory size such as 512M or 2G, got {shown!r}")
    size = float(m.group(1)) * _UNITS[(m.group(2) or "").lower()]
    if not MIN_MEMORY <= size <= MAX_MEMORY:
        raise MemoryBudgetError(f"expected a memory size from 1K to 1024T, got {shown!r}")
    return int(size)


def _kib_field(path: Path, name: str) -> int | None:
    """Field ``name`` (in kB) of a ``/proc`` file such as ``meminfo``, in bytes."""
    try:
        for line in path.read_text(encoding="ascii", errors="replace").splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup_room() -> int | None:
    """What this process's cgroup (v2) may still take: ``memory.max`` less
    ``memory.current`` (None without a limit)."""
    try:
        rel = Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines()[0]
        base = Path("/sys/fs/cgroup") / rel.split(":", 2)[2].lstrip("/")
        limit = (base / "memory.max").read_text(encoding="ascii").strip()
        if limit == "max":
            return None
        return int(limit) - int((base / "memory.current").read_text(encoding="ascii"))
    except (OSError, ValueError, IndexError):
        return None


def free_memory() -> int | None:
    """The memory this process may still take (bytes): the least of the machine's
    ``MemAvailable``, the room under its address-space limit (``RLIMIT_AS`` less its
    ``VmSize``), under its data limit (``RLIMIT_DATA`` less ``VmData``) and under its
    cgroup's limit; None when none of them can be read."""
    status = Path("/proc/self/status")
    rooms = [_kib_field(Path("/proc/meminfo"), "MemAvailable"), _cgroup_room()]
    for limit, field in ((resource.RLIMIT_AS, "VmSize"), (resource.RLIMIT_DATA, "VmData")):
        soft = resource.getrlimit(limit)[0]
        if soft != resource.RLIM_INFINITY:
            used = _kib_field(status, field)
            rooms.append(soft - (used or 0))
    known = [max(0, r) for r in rooms if r is not None]
    return min(known) if known else None


def default_memory() -> int:
    """The memory budget of a call when nothing sets one: :data:`MEMORY_SHARE` of
    :func:`free_memory` (:data:`FALLBACK_MEMORY` when unknown), at least
    :data:`MIN_MEMORY`."""
    free = free_memory()
    if free is None:
        return FALLBACK_MEMORY
    return max(MIN_MEMORY, int(free * MEMORY_SHARE))


def memory_setting() -> int | None:
    """The memory budget :data:`MEMORY_ENV` sets (None when unset or blank); a bad
    setting raises :class:`MemoryBudgetError`, naming the variable and echoing it."""
    setting = os.environ.get(MEMORY_ENV, "").strip()
    if not setting:
        return None
    try:
        return parse_memory(setting)
    except MemoryBudgetError as exc:
        raise MemoryBudgetError(f"{MEMORY_ENV}: {exc}") from None


def memory_text(size: float) -> str:
    """``size`` bytes in a few characters: "512 MB", "1.5 GB", "64 KB" (powers of 1024)."""
    for unit, scale in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value >= 10 or math.isclose(value, round(value)) \
                else f"{value:.1f} {unit}"
    return f"{int(size)} B"
