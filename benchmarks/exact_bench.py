"""Speed and coverage of the exact prover (``logic.exact``) on three sets.

    python benchmarks/exact_bench.py heuristic           # every side a detector calls blocked
    python benchmarks/exact_bench.py bench               # assets/bench.epd, both sides
    python benchmarks/exact_bench.py master --sample 60  # master-pawn-endings-drawn
    options: --seconds 10 --structures 200000 --jobs 2 --json out.json

Each side-position is solved on a cold cache (``clear_cache()`` first) with the given
budget, in ``--jobs`` worker processes.  Prints the status counts, the proof's
origin, the unknown rate, time percentiles and structures per position; for the
heuristic set also every side-position a detector calls blocked but the prover
shows breaking through (with the detector and the PV).
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

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import logic  # noqa: E402
from logic.exact import prover as exact  # noqa: E402
from tests.conftest import SHARED  # noqa: E402

CORPORA = ["lichess-pawn-endings", "d3chess-pawn-only", "master-pawn-endings-drawn",
           "master-pawn-endings-decisive"]


def _epd_boards(path: Path) -> list[chess.Board]:
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        try:
            board, _ = chess.Board.from_epd(line)
        except ValueError:
            continue
        if board.occupied == board.pawns | board.kings and board.status() == chess.STATUS_VALID:
            out.append(board)
    return out


def heuristic_set() -> list[tuple[str, str, bool, str]]:
    """``(source, fen, side, methods)`` wherever ``paper`` or ``flood`` says blocked."""
    boards: list[tuple[str, chess.Board]] = []
    boards += [("diagrams", b) for b in _epd_boards(ROOT / "assets" / "diagrams.epd")]
    for line in (ROOT / "tests" / "data" / "sf_corpus.jsonl").read_text().splitlines():
        b = chess.Board(json.loads(line)["fen"])
        if b.occupied == b.pawns | b.kings and b.status() == chess.STATUS_VALID:
            boards.append(("sf_corpus", b))
    for name in CORPORA:
        path = SHARED / "corpora" / f"{name}.epd"
        if path.is_file():
            boards += [(name, b) for b in _epd_boards(path)]
    out, seen = [], set()
    for src, b in boards:
        for side in chess.COLORS:
            methods = [m for m in logic.STATIC_METHODS if logic.detect(b, side, method=m).blocked]
            key = (b.fen(), side)
            if methods and key not in seen:
                seen.add(key)
                out.append((src, b.fen(), side, "+".join(methods)))
    return out


def bench_set() -> list[tuple[str, str, bool, str]]:
    return [("bench", b.fen(), side, "") for b in _epd_boards(ROOT / "assets" / "bench.epd")
            for side in chess.COLORS]


def master_set(sample: int | None) -> list[tuple[str, str, bool, str]]:
    boards = _epd_boards(SHARED / "corpora" / "master-pawn-endings-drawn.epd")
    rows = [("master", b.fen(), side, "") for b in boards for side in chess.COLORS]
    if sample:
        rows = random.Random(7).sample(rows, sample)
    return rows


def _work(args: tuple) -> dict:
    (src, fen, side, methods), seconds, structures = args
    exact.clear_cache()
    r = exact.solve(chess.Board(fen), side, max_seconds=seconds, max_structures=structures)
    return {"source": src, "fen": fen, "side": "white" if side else "black", "methods": methods,
            "status": r.status, "restricted": r.restricted, "ms": r.ms,
            "structures": r.structures, "pv": list(r.pv), "ends": r.ends, "plies": r.plies}


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def report(name: str, rows: list[dict]) -> None:
    n = len(rows)
    ms = [r["ms"] for r in rows]
    st = [r["structures"] for r in rows]
    status = Counter(r["status"] for r in rows)
    origin = Counter(f"{r['status']}/{r['restricted'] or 'full'}" for r in rows
                     if r["status"] != "unknown")
    settled = status["blocked"] + status["breaks"]
    print(f"## {name}: {n} side-positions")
    print(f"status: {dict(status)}; settled {settled} ({100 * settled / n:.1f} %), "
          f"unknown {status['unknown']} ({100 * status['unknown'] / n:.1f} %)")
    print(f"proof from: {dict(origin.most_common())}")
    print(f"time ms: median {statistics.median(ms):.1f}, p90 {_pct(ms, .9):.1f}, "
          f"p99 {_pct(ms, .99):.1f}, max {max(ms):.1f}")
    print(f"structures: median {statistics.median(st):.0f}, p90 {_pct(st, .9):.0f}, "
          f"max {max(st)}")
    if name == "heuristic":
        refuted = [r for r in rows if r["status"] == "breaks"]
        print(f"heuristic 'blocked' refuted by a proof of a breakthrough: {len(refuted)}")
        for r in refuted:
            print(f"  {r['fen']} side={r['side']} detector={r['methods']} "
                  f"pv={' '.join(r['pv'][:12])} ends={r['ends']} plies={r['plies']}")
    print()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+", choices=["heuristic", "bench", "master"])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--structures", type=int, default=exact.MAX_STRUCTURES)
    ap.add_argument("--sample", type=int, default=None, help="master: side-positions to draw")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", default=None, help="write every row here")
    args = ap.parse_args()
    all_rows = {}
    for name in args.sets:
        cases = {"heuristic": heuristic_set, "bench": bench_set,
                 "master": lambda: master_set(args.sample)}[name]()
        jobs = [(c, args.seconds, args.structures) for c in cases]
        with mp.Pool(args.jobs) as pool:
            rows = pool.map(_work, jobs, chunksize=1)
        all_rows[name] = rows
        report(name, rows)
    if args.json:
        Path(args.json).write_text(json.dumps(all_rows))


if __name__ == "__main__":
    main()
