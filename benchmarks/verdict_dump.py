"""Dump every verdict of every static method for both sides of many positions, and diff two
dumps.

Usage (from the project root)::

    python benchmarks/verdict_dump.py dump OUT.tsv          # this checkout's verdicts
    python benchmarks/verdict_dump.py diff OLD.tsv NEW.tsv [--engine /usr/games/stockfish]

The position sets: the diagram library, ``tests/data/sf_corpus.jsonl``, the shared
corpora (``../shared/corpora/*.epd``, the 85,007 master-game positions included) and
20,000 seeded near-fortresses (``tests.strategies.random_near_fortress``).  A line is
``set<TAB>fen<TAB>side<TAB>method<TAB>blocked<TAB>rule<TAB>code``.  ``diff`` counts the
verdicts that changed per set, method and direction, groups them by old and new rule,
and with ``--engine`` asks the engine (1 s) whether the side now refused wins: a mate,
or a decisive score whose line promotes for that side ("breakable").
"""

from __future__ import annotations

import collections
import json
import random
import sys
from pathlib import Path

import chess
import chess.engine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import logic  # noqa: E402
from logic.position import iter_epd  # noqa: E402
from tests.strategies import random_near_fortress  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpora"


def _sets() -> dict[str, list[str]]:
    sets: dict[str, list[str]] = {}
    with open(ROOT / "assets" / "diagrams.epd", encoding="utf-8") as fh:
        sets["library"] = [b.fen() for _, b, _ in iter_epd(fh) if isinstance(b, chess.Board)]
    with open(ROOT / "tests" / "data" / "sf_corpus.jsonl", encoding="utf-8") as fh:
        sets["ours"] = [json.loads(line)["fen"] for line in fh]
    for path in sorted(SHARED.glob("*.epd")):
        with open(path, encoding="utf-8", errors="replace") as fh:
            sets[path.stem] = [b.fen() for _, b, _ in iter_epd(fh)
                               if isinstance(b, chess.Board)]
    rng = random.Random(2026)
    sets["generated"] = [random_near_fortress(rng).fen() for _ in range(20_000)]
    return sets


def dump(out: Path) -> None:
    with open(out, "w", encoding="utf-8") as fh:
        for name, fens in _sets().items():
            for fen in fens:
                board = chess.Board(fen)
                for color in chess.COLORS:
                    for method in logic.STATIC_METHODS:
                        v = logic.detect(board, color, method=method)
                        fh.write(f"{name}\t{fen}\t{chess.COLOR_NAMES[color]}\t{method}\t"
                                 f"{int(v.blocked)}\t{v.rule}\t{v.code}\n")


def _read(path: Path) -> dict[tuple[str, str, str, str], tuple[str, str, str]]:
    rows = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            name, fen, side, method, blocked, rule, code = line.rstrip("\n").split("\t")
            rows[(name, fen, side, method)] = (blocked, rule, code)
    return rows


def _engine_wins(engine: chess.engine.SimpleEngine, fen: str, side: str) -> bool:
    board = chess.Board(fen)
    color = side == "white"
    info = engine.analyse(board, chess.engine.Limit(time=1.0))
    score = info["score"].pov(color)
    if score.is_mate():
        return score.mate() > 0
    if (score.score() or 0) < 400:
        return False
    for move in info.get("pv", []):
        if move.promotion and board.turn == color:
            return True
        board.push(move)
    return False


def diff(old: Path, new: Path, engine_path: str | None) -> None:
    a, b = _read(old), _read(new)
    changed = [(k, a[k], b[k]) for k in a if k in b and a[k][0] != b[k][0]]
    print(f"{len(a)} verdicts compared, {len(changed)} changed")
    per = collections.Counter((k[0], k[3], f"{x[0]}->{y[0]}") for k, x, y in changed)
    for (name, method, way), n in sorted(per.items()):
        print(f"  {name:36} {method:6} {way}: {n}")
    why = collections.Counter((x[1], y[1], y[2]) for _, x, y in changed)
    for (r0, r1, code), n in why.most_common():
        print(f"  {r0!r} -> {r1!r} ({code}): {n}")
    if not engine_path:
        return
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        seen: dict[tuple[str, str], bool] = {}
        for (_name, fen, side, _m), _x, _y in changed:
            if (fen, side) not in seen:
                seen[(fen, side)] = _engine_wins(engine, fen, side)
        wins = sum(seen.values())
        print(f"engine (1 s): {wins} of {len(seen)} changed (position, side) pairs are wins "
              "for the side now refused; the others:")
        for (fen, side), won in seen.items():
            if not won:
                print(f"    {side}: {fen}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"] and len(sys.argv) == 3:
        dump(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["diff"] and len(sys.argv) in (4, 6) and (
            len(sys.argv) == 4 or sys.argv[4] == "--engine"):
        diff(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[5] if len(sys.argv) == 6 else None)
    else:
        sys.exit(__doc__)
