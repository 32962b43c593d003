"""How every side of the master-game drawn set ends under the exact prover's default
budget: a blockage, a forced promotion (or mate), a horizon ("X cannot force a
promotion within N plies", proved by the forward search where the whole game is too
big) or nothing proved; the share of sides with a proof of some kind (a horizon counts
from :data:`ENOUGH` plies) and the median horizon.  Prints a Markdown table (the docs'
``docs/tables/horizon.md``, written by ``benchmarks/doc_tables.py horizon``).

    python benchmarks/horizon.py [--sample N] [--seconds 10] [--jobs 2]
                                 [--clock wall|work] [--json rows.jsonl]
    python benchmarks/horizon.py --from rows.jsonl  # the table of rows written before

``--clock wall`` (the default) reads the wall clock, as every call of the prover does
unless told otherwise: the default budget as a user has it (run it on an idle machine,
``--jobs`` at most its cores).  ``--clock work`` reads each proof's time from a
:class:`~logic.exact.WorkClock`: deterministic whatever the load, but its costs are
those of few-pawn positions, and in these structures (six pawns a side) its 10 s are
about 30 s of an idle machine's work.  Each side is proved on a cold structure cache.
``--sample N``
draws a seeded sample of N side-positions (all of them by default).  ``--json`` writes
each row as it comes, so a run stopped early can still be tabulated (``--from``: the
table of the rows it finished, said as a sample of that size).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logic.exact import MAX_SECONDS, MAX_STRUCTURES, WorkClock, clear_cache, solve  # noqa: E402
from logic.tools.bench_exact import read_boards  # noqa: E402
from tests.conftest import SHARED  # noqa: E402

CORPUS = SHARED / "corpora" / "master-pawn-endings-drawn.epd"
#: the fewest plies of a horizon that counts as a proof for the target
ENOUGH = 12
#: the share of sides that must end with a proof of some kind
TARGET = 95.0
KINDS = ("blocked", "forces", "horizon", "short", "unknown")


def sides(sample: int, seed: int = 7) -> list[tuple[str, bool]]:
    """Both sides of every position of :data:`CORPUS` (a seeded sample if ``sample``)."""
    cases = [(b.fen(), side) for b in read_boards(CORPUS) for side in chess.COLORS]
    if 0 < sample < len(cases):
        cases = random.Random(seed).sample(cases, sample)
    return cases


def kind(status: str, horizon: int) -> str:
    """``blocked``, ``forces`` (a breakthrough, the defender's forced promotion or mate),
    ``horizon`` (at least :data:`ENOUGH` plies), ``short`` (a shallower horizon) or
    ``unknown`` (none)."""
    if status == "blocked":
        return "blocked"
    if status == "breaks":
        return "forces"
    if horizon >= ENOUGH:
        return "horizon"
    return "short" if horizon >= 0 else "unknown"


def prove(args: tuple[str, bool, float, str]) -> dict[str, Any]:
    """One side on a cold cache (a worker's job): its row."""
    fen, side, seconds, clock = args
    clear_cache()
    r = solve(chess.Board(fen), side, max_seconds=seconds, max_structures=MAX_STRUCTURES,
              clock=WorkClock() if clock == "work" else None)
    return {"fen": fen, "side": chess.COLOR_NAMES[side], "status": r.status,
            "horizon": r.horizon, "proof": r.restricted, "plies": r.plies, "ends": r.ends,
            "ms": round(r.ms, 1), "structures": r.structures, "nodes": r.nodes,
            "kind": kind(r.status, r.horizon)}


def table(rows: list[dict[str, Any]], seconds: float, clock: str, total: int) -> str:
    """The Markdown report of ``rows`` (of ``total`` sides in the corpus)."""
    n = len(rows)
    got = Counter(r["kind"] for r in rows)
    proved = got["blocked"] + got["forces"] + got["horizon"]
    horizons = [r["horizon"] for r in rows if r["kind"] in ("horizon", "short")]
    median = f"{statistics.median(horizons):g}" if horizons else "-"
    low = f"{min(horizons)}–{max(horizons)}" if horizons else "-"
    when = ("work clock: deterministic, about three times an idle machine's work in these "
            "structures" if clock == "work" else "wall clock, an idle machine")
    share = 100 * proved / n if n else 0.0
    lines = [
        f"{n:,} of the {total:,} side-positions of `master-pawn-endings-drawn.epd` "
        f"(a seeded sample)" if n < total else
        f"Every side of `master-pawn-endings-drawn.epd` ({total:,} side-positions)",
        f"under the default budget of {seconds:g} s a side ({when}); a horizon counts "
        f"as a proof from {ENOUGH} plies:",
        "",
        "| side-positions | a proof of some kind | blocked | forces a promotion or mate "
        f"| horizon ≥ {ENOUGH} | shorter horizon | nothing proved | median horizon "
        "(range) |",
        "|---|---|---|---|---|---|---|---|",
        f"| {n:,} | **{proved:,} ({share:.1f} %)** | {got['blocked']:,} | {got['forces']:,} "
        f"| {got['horizon']:,} | {got['short']:,} | {got['unknown']:,} "
        f"| {median} ({low}) |",
        "",
        f"Target: a proof of some kind for at least {TARGET:g} % of the sides: "
        f"{'met' if share >= TARGET else 'not met'}.",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=0, help="side-positions to draw (0: all)")
    ap.add_argument("--seconds", type=float, default=MAX_SECONDS)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--clock", choices=("wall", "work"), default="wall")
    ap.add_argument("--json", default=None, help="write every row here (JSON lines)")
    ap.add_argument("--from", dest="rows", default=None,
                    help="tabulate the rows of an earlier --json (no proving)")
    args = ap.parse_args(argv)
    total = 2 * len(read_boards(CORPUS))
    if args.rows:
        with open(args.rows, encoding="utf-8") as f:
            done = [json.loads(line) for line in f if line.strip()]
        print(table(done, args.seconds, args.clock, total))
        return 0
    cases = sides(args.sample)
    work = [(fen, side, args.seconds, args.clock) for fen, side in cases]
    rows: list[dict[str, Any]] = []
    out = open(args.json, "w", encoding="utf-8") if args.json else None  # noqa: SIM115
    try:
        with mp.get_context("spawn").Pool(max(1, min(args.jobs, len(work)))) as pool:
            for row in pool.imap_unordered(prove, work):
                rows.append(row)
                if out is not None:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    finally:
        if out is not None:
            out.close()
    print(table(rows, args.seconds, args.clock, total))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
