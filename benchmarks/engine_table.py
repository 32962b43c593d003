"""The paper's Appendix (Tables 2-4) redone on real games with a modern engine.

    python benchmarks/engine_table.py [--exact-seconds 10] [--times 1,10]
        [--scan scan-out/results.jsonl --scan-limit 30] [--json out.json]

For the drawn master-game set (``../shared/corpora/master-pawn-endings-drawn.epd``), every
(position, side) where the side has more pawns goes to the exact prover
(``--exact-seconds``); for each pair exact proves "cannot win", Stockfish
(``/usr/games/stockfish``, through ``logic.uci.Engine``) analyses the position for each of
``--times`` seconds: how many it scores above +0.50 from the side's view (it believes a
win exact refutes; a mate counts), how many below -0.50 and, of those, how many where exact
also proves the other side unable to win (a dead draw scored as a loss), and its most
optimistic score.  With ``--scan`` (a judged scan's
``results.jsonl``) the same for up to ``--scan-limit`` sides exact proved blocked there
(sides with more pawns, heuristic claims and misses alike, first in file order).
Prints Markdown rows.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import logic  # noqa: E402
from logic.position import load_boards  # noqa: E402
from logic.tools.judge import edge  # noqa: E402
from logic.uci import Engine  # noqa: E402
from tests.conftest import SHARED  # noqa: E402

STOCKFISH = "/usr/games/stockfish"
DRAW_CP = 50


def proven_drawn_pairs(path: Path, seconds: float) -> tuple[list[tuple[str, chess.Color]], int,
                                                             dict[str, int]]:
    """``(pairs exact proves blocked, edge pairs, exact's answers)`` of an EPD file."""
    pairs, answers, n = [], {"blocked": 0, "breaks": 0, "unknown": 0}, 0
    for board in load_boards(path, kp_only=True):
        for color in chess.COLORS:
            if not edge(board, color):
                continue
            n += 1
            r = logic.METHODS["exact"].solve(board, color, max_seconds=seconds)
            answers[r.status] += 1
            if r.status == "blocked":
                pairs.append((board.fen(), color))
            print(f"  {board.fen()} {chess.COLOR_NAMES[color]}: {r.status} "
                  f"({r.ms / 1000:.1f} s)", file=sys.stderr)
    return pairs, n, answers


def scan_pairs(path: Path, limit: int) -> list[tuple[str, chess.Color, str]]:
    """Up to ``limit`` (FEN, side, id) pairs exact proved blocked in a judged scan, sides
    with more pawns only."""
    out = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        for name, e in (row.get("exact") or {}).items():
            color = name == "white"
            if e["status"] == "blocked" and len(out) < limit \
                    and edge(chess.Board(row["fen"]), color):
                out.append((row["fen"], color, str(row["source"].get("id"))))
    return out


def side_cp(ev: Any, color: chess.Color) -> float:
    """The engine's score from ``color``'s view, in pawns (a mate: +-100)."""
    sign = 1 if color else -1
    if ev.mate is not None:
        return 100.0 * sign * (1 if ev.mate > 0 else -1)
    return sign * (ev.cp or 0) / 100


def judge(engine: Engine, pairs: list[tuple[str, chess.Color]], times: list[float],
          exact_seconds: float) -> dict[str, Any]:
    """Per time: how many pairs the engine scores above +0.50 for the side exact proved
    unable to win (a misjudgment), how many below -0.50 and, of those, how many where exact
    also proves the other side unable to win (a dead draw: a misjudgment too), and the
    highest score."""
    out: dict[str, Any] = {"sides": len(pairs)}
    other_blocked: dict[int, str] = {}
    for t in times:
        scores = [side_cp(engine.analyse(chess.Board(fen), t), color) for fen, color in pairs]
        low = [i for i, s in enumerate(scores) if s < -DRAW_CP / 100]
        for i in low:
            if i not in other_blocked:
                fen, color = pairs[i]
                other_blocked[i] = logic.METHODS["exact"].solve(
                    chess.Board(fen), not color, max_seconds=exact_seconds).status
        out[f"{t:g}s"] = {"above": sum(s > DRAW_CP / 100 for s in scores), "below": len(low),
                          "below_dead_draw": sum(other_blocked[i] == "blocked" for i in low),
                          "max": max(scores, default=None), "scores": scores}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exact-seconds", type=float, default=10.0)
    ap.add_argument("--times", default="1,10")
    ap.add_argument("--scan", type=Path, help="a judged scan's results.jsonl")
    ap.add_argument("--scan-limit", type=int, default=30)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    times = [float(t) for t in args.times.split(",")]
    drawn = SHARED / "corpora" / "master-pawn-endings-drawn.epd"
    if not drawn.is_file() or not Path(STOCKFISH).is_file():
        print(f"needs {drawn} and {STOCKFISH}", file=sys.stderr)
        return 2
    result: dict[str, Any] = {"exact_seconds": args.exact_seconds}
    pairs, n, answers = proven_drawn_pairs(drawn, args.exact_seconds)
    with Engine(STOCKFISH) as engine:
        result["drawn"] = {"edge_pairs": n, "exact": answers,
                           **judge(engine, pairs, times, args.exact_seconds)}
        if args.scan:
            sp = scan_pairs(args.scan, args.scan_limit)
            result["scan"] = judge(engine, [(f, c) for f, c, _ in sp], times,
                                   args.exact_seconds)
    print("| set | edge sides | exact proves blocked | " + " | ".join(
        f"Stockfish {t:g} s: above +0.50 / below -0.50 (of which a dead draw) / highest"
        for t in times) + " |")
    print("|---|---|---|" + "---|" * len(times))
    for name, r in (("drawn master games", result["drawn"]),
                    ("85k scan sample, proved blocked", result.get("scan"))):
        if r is None:
            continue
        cols = " | ".join(f"{r[f'{t:g}s']['above']} / {r[f'{t:g}s']['below']} "
                          f"({r[f'{t:g}s']['below_dead_draw']}) / {_fmt(r[f'{t:g}s']['max'])}"
                          for t in times)
        print(f"| {name} | {r.get('edge_pairs', '-')} | {r['sides']} | {cols} |")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:+.2f}"


if __name__ == "__main__":
    raise SystemExit(main())
