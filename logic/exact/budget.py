"""Budgets of the exact prover: how many structures a call of N seconds may solve, and the
retry policy of a caller that asks again after "unknown" (:func:`next_budget`).

A proof's budget is time *and* a structure count: the count bounds memory (about 0.7 GB
after 216,000 solves, 2.0 GB after 766,000), the time bounds the wait.  More time is more
work only below :data:`STRUCTURE_CEILING`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

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
