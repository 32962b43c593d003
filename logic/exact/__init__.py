"""The exact prover: retrograde analysis over the DAG of pawn structures (paper 4's
"pawn hash", generalised), with sound shortcuts run side by side.

One door: :func:`solve` (a board and a side: :class:`ExactResult`), :class:`ExactError`,
the method object :data:`EXACT` (``logic.METHODS["exact"]``), the budgets (time,
structures, memory: :func:`parse_memory`, :data:`MEMORY_ENV`) and
:func:`next_budget` (the retry policy after "unknown"), the clocks a call reads its
time from (:class:`WallClock`, :class:`WorkClock`).  The modules behind it:

* :mod:`~logic.exact.tables`: the bitboard-parallel retrograde solve of one structure;
* :mod:`~logic.exact.reach`: which king squares play can enter;
* :mod:`~logic.exact.dag`: the structure DAG, its cache and budget;
* :mod:`~logic.exact.root`: the root position in the solver's terms;
* :mod:`~logic.exact.gap`, :mod:`~logic.exact.forward`: partial expansions and the
  forward search;
* :mod:`~logic.exact.schedule`: the strategies and their scheduler;
* :mod:`~logic.exact.pv`: the principal variation's walk;
* :mod:`~logic.exact.prover`: :func:`solve`;
* :mod:`~logic.exact.method`: the verdict, steps and king map of the method (a
  horizon, :func:`horizon_of`, where only the forward search proved something);
* :mod:`~logic.exact.outcome`: what a forced promotion leads to (its ``outcome``,
  :func:`open_tables`);
* :mod:`~logic.exact.why`: why a move of the line works, where a short reason is known.
"""

from logic.exact.budget import (
    MAX_RETRY_SECONDS,
    MAX_SECONDS,
    MAX_STRUCTURES,
    MEMORY_ENV,
    STRUCTURE_CEILING,
    Clock,
    MemoryBudgetError,
    Retry,
    WallClock,
    WorkClock,
    default_memory,
    memory_text,
    next_budget,
    parse_memory,
    structure_budget,
)
from logic.exact.method import (
    DEFENDER_PROMOTES,
    EXACT,
    MIN_HORIZON,
    ExactDetail,
    ExactMethod,
    defender_promotes,
    horizon_headline,
    horizon_of,
    line_san,
)
from logic.exact.outcome import OUTCOMES, EndgameTables, Outcome, open_tables
from logic.exact.prover import (
    ExactError,
    ExactResult,
    cache_info,
    check_board,
    clear_cache,
    solve,
    solve_bitboards,
)

__all__ = [
    "DEFENDER_PROMOTES",
    "EXACT",
    "OUTCOMES",
    "MAX_RETRY_SECONDS",
    "MAX_SECONDS",
    "MAX_STRUCTURES",
    "MEMORY_ENV",
    "MIN_HORIZON",
    "STRUCTURE_CEILING",
    "Clock",
    "EndgameTables",
    "ExactDetail",
    "ExactError",
    "ExactMethod",
    "ExactResult",
    "MemoryBudgetError",
    "Retry",
    "WallClock",
    "WorkClock",
    "cache_info",
    "check_board",
    "clear_cache",
    "default_memory",
    "defender_promotes",
    "horizon_headline",
    "horizon_of",
    "line_san",
    "memory_text",
    "next_budget",
    "open_tables",
    "Outcome",
    "parse_memory",
    "solve",
    "solve_bitboards",
    "structure_budget",
]
