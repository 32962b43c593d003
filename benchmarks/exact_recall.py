"""Recall of every static method against the exact prover, per corpus (the README table).

    python benchmarks/exact_recall.py [--seconds 3] [--sample 0] [--json out.json]

For each corpus (the library, our ``sf_corpus.jsonl``, the shared corpora but the 85,007
master-game positions), every (position, side) where the side has more pawns is given to
the exact prover (``--seconds`` per side, cold cache).  Recall of a method = the share of
the pairs exact proves "cannot win" that the method calls blocked.  A method's "blocked"
where exact proves a breakthrough is a false positive (must be 0).  Unknown pairs count
neither way and are reported.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import logic  # noqa: E402
from logic.tools.bench_exact import read_boards  # noqa: E402
from logic.tools.judge import edge  # noqa: E402
from tests.conftest import SHARED  # noqa: E402

CORPORA = ["lichess-pawn-endings", "d3chess-pawn-only", "master-pawn-endings-drawn",
           "master-pawn-endings-decisive"]


def sources() -> dict[str, list[chess.Board]]:
    """Corpus name -> its legal king-and-pawn boards (absent shared files are left out)."""
    out = {"library": read_boards(ROOT / "assets" / "diagrams.epd"),
           "ours": read_boards(ROOT / "tests" / "data" / "sf_corpus.jsonl")}
    for name in CORPORA:
        path = SHARED / "corpora" / f"{name}.epd"
        if path.is_file():
            out[name] = read_boards(path)
    return out


def measure(boards: list[chess.Board], seconds: float) -> dict[str, object]:
    """The counts of one corpus."""
    exact = logic.METHODS["exact"]
    statics = list(logic.STATIC_METHODS)
    pairs = proved = breaks = unknown = 0
    hits = dict.fromkeys(statics, 0)
    false_pos = dict.fromkeys(statics, 0)
    union = 0
    for b in boards:
        for side in chess.COLORS:
            if not edge(b, side):
                continue
            pairs += 1
            exact.clear_cache()
            r = exact.solve(b, side, max_seconds=seconds, pv=False)
            said = {m: logic.detect(b, side, method=m).blocked for m in statics}
            if r.status == "unknown":
                unknown += 1
                continue
            if r.status == "breaks":
                breaks += 1
                for m in statics:
                    false_pos[m] += said[m]
                continue
            proved += 1
            for m in statics:
                hits[m] += said[m]
            union += any(said.values())
    return {"positions": len(boards), "pairs": pairs, "proved": proved, "breaks": breaks,
            "unknown": unknown, "hits": hits, "union": union, "false_pos": false_pos}


def _pct(a: int, b: int) -> str:
    return f"{a} ({100 * a / b:.0f} %)" if b else "0"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--sample", type=int, default=0, help="at most this many positions a corpus")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    statics = list(logic.STATIC_METHODS)
    print(f"| corpus | positions | pairs with more pawns | exact: cannot win / breaks / "
          f"unknown | {' | '.join(f'{m}: recognised (false pos.)' for m in statics)} | "
          f"any static method |")
    print("|---" * (5 + len(statics)) + "|")
    out = {}
    for name, boards in sources().items():
        if 0 < args.sample < len(boards):
            boards = random.Random(7).sample(boards, args.sample)
        r = measure(boards, args.seconds)
        out[name] = r
        cells = " | ".join(f"{_pct(r['hits'][m], r['proved'])} ({r['false_pos'][m]})"
                           for m in statics)
        print(f"| {name} | {r['positions']} | {r['pairs']} | {r['proved']} / {r['breaks']} / "
              f"{r['unknown']} | {cells} | {_pct(r['union'], r['proved'])} |", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out))


if __name__ == "__main__":
    main()
