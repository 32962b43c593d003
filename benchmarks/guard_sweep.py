"""GUARD's blockages against the exact truth of the full game (the whole structure DAG).

    python benchmarks/guard_sweep.py [N] [--jobs J] [--full STRUCTURES]

GUARD (``logic.exact.tables``) is LEVERS where X's king taking a pawn ends the game as
X's success: it only adds X wins, so its "blocked" is a proof.  This checks it on
generated boards: the first N (default 20,000) boards of
``benchmarks/promotion_sweep.py`` (near-fortresses rich in boxed kings, frozen pawns and
pawns on the seventh rank), N of ``tests.strategies.extended_case`` (walls of every
family, mutated) and N random near-fortresses, both sides each.  Every side GUARD calls
blocked (within 3,000 structure solves, counted on a work clock) is solved as the whole
DAG of the full game (``method="full"``, at most ``--full`` structures, default 20,000):

* ``confirmed``: the full game is blocked too;
* ``too big``: its whole DAG exceeds the cap (nothing said);
* ``refuted``: the full game says X forces a promotion or mate -- GUARD is wrong (must
  be 0; each is listed).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
from collections import Counter
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.promotion_sweep import board_at  # noqa: E402
from logic.exact import prover as exact  # noqa: E402
from logic.exact.budget import WorkClock  # noqa: E402
from tests.strategies import extended_case, random_near_fortress  # noqa: E402

FAMILIES = ("promotion-sweep", "extended-case", "near-fortress")


def board_of(family: str, i: int) -> chess.Board:
    """Board ``i`` of ``family``, from its own seed."""
    if family == "promotion-sweep":
        return board_at(2026, i)
    if family == "extended-case":
        return extended_case(random.Random(f"guard {i}"), i)
    return random_near_fortress(random.Random(f"guard near {i}"))


def check(job: tuple[str, int, int]) -> list[tuple[str, str, bool]]:
    """``(family, fen, X)`` rows of board ``i``'s sides: GUARD blocked and what the whole
    DAG says (``confirmed``, ``too big`` or ``refuted``)."""
    family, i, cap = job
    board = board_of(family, i)
    rows = []
    for x in chess.COLORS:
        exact.clear_cache()
        g = exact.solve(board, x, method="guard", max_structures=3000, pv=False,
                        clock=WorkClock())
        if not g.blocked:
            continue
        exact.clear_cache()
        full = exact.solve(board, x, method="full", max_structures=cap, pv=False,
                           clock=WorkClock())
        kind = {"blocked": "confirmed", "breaks": "refuted"}.get(full.status, "too big")
        rows.append((kind, board.fen(), x))
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=20_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--full", type=int, default=20_000)
    args = ap.parse_args(argv)
    print("| boards | sides | GUARD: blocked | whole DAG: blocked too | whole DAG too big "
          "| **refuted** |")
    print("|---|---|---|---|---|---|")
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for family in FAMILIES:
            jobs = [(family, i, args.full) for i in range(args.n)]
            c: Counter[str] = Counter()
            refuted = []
            for rows in pool.imap(check, jobs, chunksize=20):
                for kind, fen, x in rows:
                    c[kind] += 1
                    if kind == "refuted":
                        refuted.append(f"{fen} {chess.COLOR_NAMES[x]}")
            print(f"| {args.n:,} {family} | {2 * args.n:,} | {sum(c.values()):,} "
                  f"| {c['confirmed']:,} | {c['too big']:,} | **{c['refuted']:,}** |",
                  flush=True)
            for line in refuted:
                print(f"refuted: {line}")


if __name__ == "__main__":
    main()
