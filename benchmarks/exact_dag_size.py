"""How large the full game's structure DAG is: the structures a complete solve would
have to solve, counted by the prover's own forward pass, without solving any.

    python benchmarks/exact_dag_size.py [FILE] [--cap N] [--sample N] [--seed S]
                                        [--first N] [--out rows.jsonl]

For every side-position of FILE (default: the shared master drawn set; both sides of
every position, or a seeded sample as ``logic.tools.bench_exact.file_set`` draws it), the
walk of :meth:`logic.exact.dag.Dag.expand`'s forward pass without limits: from the
root's structure and kings' squares, every structure-changing move of either side that
the kings' regions allow (:func:`logic.exact.reach.reach_moves`), each structure once,
its kings' squares the union over its parents.  It stops at ``--cap`` structures (the
count is then "more than cap").  It prints how many side-positions fit in 10,000,
100,000, 1,000,000 and ``--cap`` structures; ``--out`` writes one JSON line per
side-position (fen, side, structures, complete); ``--first`` counts only the first N
side-positions of the sample (a larger cap costs 10 to 25 s and some 350 MB of memory per
million structures).

The prover solves about 7,000 structures a second on the development machine (a
median of 66,533 structures in 10 s over the drawn set), so a DAG over
100,000 structures cannot be solved whole within the default 10 s: a proof there must
come from a partial expansion, a restricted game or the forward search.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from logic.exact import reach as er  # noqa: E402
from logic.exact import root as rt  # noqa: E402
from logic.exact import tables as et  # noqa: E402
from logic.tools.bench_exact import file_set, read_boards  # noqa: E402

DRAWN = Path(__file__).resolve().parents[2] / "shared/corpora/master-pawn-endings-drawn.epd"
BANDS = (10_000, 100_000, 1_000_000)


def dag_size(board: chess.Board, color: chess.Color, cap: int) -> tuple[int, bool]:
    """``(structures, complete)``: the full game's DAG from ``board`` with ``color`` as X,
    counted up to ``cap`` (``complete`` False when the count stopped there)."""
    r = rt.orient(board.pawns & board.occupied_co[chess.WHITE],
                  board.pawns & board.occupied_co[chess.BLACK],
                  board.king(chess.WHITE), board.king(chess.BLACK), board.turn,
                  board.ep_square if board.has_legal_en_passant() else None, color)
    seeds = rt.root_seeds(r)
    heap = [(sum(et.progress(*k)), k) for k in seeds]
    heapq.heapify(heap)
    while heap:  # in order of total progress, which every move raises: parents first
        if len(seeds) > cap:
            return len(seeds), False
        _, key = heapq.heappop(heap)
        xs, ds = seeds[key]
        xr, dr = er.regions(key[0], key[1], xs, ds)
        for child, cx, cd, _gx, _gd in er.reach_moves(et.moves_of(*key, et.FULL), xr, dr):
            seen = seeds.get(child)
            if seen is None:
                seeds[child] = [cx, cd]
                heapq.heappush(heap, (sum(et.progress(*child)), child))
            else:
                seen[0] |= cx
                seen[1] |= cd
    return len(seeds), True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=str(DRAWN))
    ap.add_argument("--cap", type=int, default=200_000)
    ap.add_argument("--sample", type=int, default=0, help="side-positions (0: all)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--first", type=int, default=0, help="only the sample's first N (0: all)")
    ap.add_argument("--out", help="one JSON line per side-position")
    a = ap.parse_args(argv)
    cases = file_set(Path(a.file).stem, read_boards(a.file), a.sample, seed=a.seed)
    if a.first > 0:
        cases = cases[:a.first]
    sizes: list[tuple[int, bool]] = []
    out = open(a.out, "w") if a.out else None  # noqa: SIM115
    start = time.perf_counter()
    try:
        for c in cases:
            n, complete = dag_size(chess.Board(c.fen), c.side, a.cap)
            sizes.append((n, complete))
            if out:
                out.write(json.dumps({"fen": c.fen, "side": "white" if c.side else "black",
                                      "structures": n, "complete": complete}) + "\n")
                out.flush()
    finally:
        if out:
            out.close()
    print(f"{len(sizes)} side-positions of {a.file}, {time.perf_counter() - start:.0f} s")
    for band in (*[b for b in BANDS if b < a.cap], a.cap):
        k = sum(1 for n, complete in sizes if complete and n <= band)
        print(f"  DAG of at most {band:>9,} structures: {k:>5} ({100 * k / len(sizes):.1f} %)")
    k = sum(1 for _n, complete in sizes if not complete)
    print(f"  more than {a.cap:,} structures:   {k:>7} ({100 * k / len(sizes):.1f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
