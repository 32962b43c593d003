"""Print how many drawn positions with a material edge each method recognises.

Usage (from the project root)::

    python benchmarks/report.py [FILE.jsonl ...]

Default files: ``tests/data/sf_corpus.jsonl`` and, when present, the shared
corpora ``../shared/corpora/*.sf2.jsonl``.  A position counts once per side:
"drawn with an edge" means Stockfish's score is within 0.50 of a draw (no mate)
although that side has more pawns; "recognised" means the method says the side
cannot win (rule other than "no pawns").  "false positives" are sides called
blocked where Stockfish finds a win (must be 0); the last two columns count the
sides where the paper and flood methods answer differently, and where any two of
the static methods (paper, flood, extended) do.
"""

from __future__ import annotations

import sys
from pathlib import Path

import chess

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import logic  # noqa: E402
from tests.truth import drawn_with_edge, load_jsonl, stockfish_wins  # noqa: E402


def report(path: Path) -> str:
    rows = load_jsonl(path)
    edge = 0
    hits = dict.fromkeys(logic.STATIC_METHODS, 0)
    false_pos = dict.fromkeys(logic.STATIC_METHODS, 0)
    disagree = differ = 0
    for row in rows:
        board = chess.Board(row["fen"])
        for color in chess.COLORS:
            verdicts = {m: logic.detect(board, color, method=m) for m in logic.STATIC_METHODS}
            disagree += verdicts["paper"].blocked != verdicts["flood"].blocked
            differ += len({v.blocked for v in verdicts.values()}) > 1
            is_edge = drawn_with_edge(row, color)
            edge += is_edge
            for m, v in verdicts.items():
                hits[m] += is_edge and v.blocked and v.rule != "material"
                false_pos[m] += v.blocked and stockfish_wins(row, color)
    cells = " | ".join(f"{hits[m]} ({false_pos[m]})" for m in logic.STATIC_METHODS)
    return f"| {path.name} | {len(rows)} | {edge} | {cells} | {disagree} | {differ} |"


def main(argv: list[str]) -> None:
    files = [Path(a) for a in argv] or [HERE.parent / "tests" / "data" / "sf_corpus.jsonl", *sorted(
        (HERE.parent.parent / "shared" / "corpora").glob("*.sf2.jsonl"))]
    methods = " | ".join(f"{m}: recognised (false pos.)" for m in logic.STATIC_METHODS)
    print(f"| corpus | positions | drawn sides with an edge | {methods} "
          "| sides where paper and flood disagree | sides where any two methods disagree |")
    print("|---" * (5 + len(logic.STATIC_METHODS)) + "|")
    for f in files:
        print(report(f))


if __name__ == "__main__":
    main(sys.argv[1:])
