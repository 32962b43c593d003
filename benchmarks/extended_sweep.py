"""The extended method's criteria against the exact prover: the rule table and the recall.

Usage (from the project root)::

    python benchmarks/extended_sweep.py rules [--count 200000] [--shut-in 10000] [--seconds 2]
                                              [--seed 2004]
    python benchmarks/extended_sweep.py recall [--seconds 3] [--cache FILE.jsonl]

``rules``: every (position, side) of ``--count`` generated near-fortresses
(:func:`tests.strategies.extended_case`: the seeded random near-fortresses of
``tests.strategies``, the wall families of ``benchmarks/make_corpus.py`` and KPK
boards, half of them colour-mirrored), of ``--shut-in`` boxed kings and their near
misses (:func:`tests.strategies.shut_in_case`, x5's family) and of every corpus (the
diagram library, our ``sf_corpus.jsonl`` and ``../shared/corpora/*.epd``, the 85,007
master-game positions included) is decided by ``method="extended"``.  Wherever a criterion of
``logic.extended.RULES`` decides (the paper proves no blockage), the exact prover
judges the board with each legal side to move (a static verdict does not know who
moves): "wrong" if it breaks through with either, "unknown" if its budget runs out
(counted neither way).  Prints the rule table (Markdown) with a counterexample for any
rule with an error.

``recall``: for the corpora ours, D3-Chess and the master drawn set, every (position,
side) where the side has more pawns is solved by the exact prover (``--seconds`` each;
results kept in ``--cache`` so a rerun solves nothing twice); prints how many exact
proves blocked and how many of those paper, flood and extended recognise.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from pathlib import Path

import chess

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import logic  # noqa: E402
from logic.bitboards import orient  # noqa: E402
from logic.extended import RULES, kpk_draw, x1_blocked  # noqa: E402
from logic.position import iter_epd  # noqa: E402
from tests.conftest import SHARED  # noqa: E402
from tests.strategies import extended_case, random_near_fortress, shut_in_case  # noqa: E402

EXACT = logic.METHODS["exact"]


def _kp(board: chess.Board) -> bool:
    return board.occupied == board.pawns | board.kings and board.is_valid()


def corpora() -> dict[str, list[chess.Board]]:
    """The library, our corpus and every shared corpus, legal K+P boards only."""
    sets: dict[str, list[chess.Board]] = {}
    with open(ROOT / "assets" / "diagrams.epd", encoding="utf-8") as fh:
        sets["library"] = [b for _, b, _ in iter_epd(fh) if isinstance(b, chess.Board)]
    with open(ROOT / "tests" / "data" / "sf_corpus.jsonl", encoding="utf-8") as fh:
        sets["ours"] = [chess.Board(json.loads(line)["fen"]) for line in fh]
    for path in sorted((SHARED / "corpora").glob("*.epd")):
        with open(path, encoding="utf-8", errors="replace") as fh:
            sets[path.stem] = [b for _, b, _ in iter_epd(fh) if isinstance(b, chess.Board)]
    return {name: [b for b in boards if _kp(b)] for name, boards in sets.items()}


def soundness_set() -> list[chess.Board]:
    """The 20,000 seeded near-fortresses of ``tests/test_exact_soundness.py`` (seed 2026):
    they found x1's counterexample, which the generated set never met."""
    rng = random.Random(2026)
    return [random_near_fortress(rng) for _ in range(20_000)]


def turns(board: chess.Board) -> list[chess.Board]:
    """``board`` with each side to move that makes a legal position."""
    out = []
    for turn in chess.COLORS:
        b = board.copy(stack=False)
        b.turn = turn
        b.ep_square = None
        if b.is_valid():
            out.append(b)
    return out


def judge(board: chess.Board, color: chess.Color, seconds: float) -> str:
    """The exact prover on ``board`` with each legal side to move: ``"breaks"`` if it
    breaks through with either, ``"blocked"`` if it is proved blocked with every one,
    else ``"unknown"``."""
    status = "blocked"
    for b in turns(board):
        r = EXACT.solve(b, color, max_seconds=seconds, pv=False).status
        if r == "breaks":
            return "breaks"
        if r == "unknown":
            status = "unknown"
    return status


def fired(board: chess.Board, color: chess.Color) -> list[str]:
    """The criteria that decide ``color``'s verdict on ``board`` where the paper proves no
    blockage: the extended method's rule, and each dropped criterion that would fire
    there (measured, never used); empty when the paper decides or nothing fires."""
    v = logic.detect(board, color, method="extended")
    if v.blocked and v.rule not in RULES:
        return []  # the paper's own blockage
    out = [v.rule] if v.blocked else []
    w, b, wk, bk = oriented(board, color)
    if not RULES["x1"].used and x1_blocked(w, b, wk, bk):
        out.append("x1")
    if not RULES["x2"].used and kpk_draw(w, b, wk, bk):
        out.append("x2")
    return out


def oriented(board: chess.Board, color: chess.Color) -> tuple[int, int, int, int]:
    """The board's pawns and kings oriented for ``color`` (the side under test as White)."""
    w = board.pawns & board.occupied_co[chess.WHITE]
    b = board.pawns & board.occupied_co[chess.BLACK]
    wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
    assert wk is not None and bk is not None
    return orient(w, b, wk, bk, color)


class Table:
    """Fires, wrong and unknown calls per rule, with the first counterexample."""

    def __init__(self) -> None:
        self.fires: collections.Counter[tuple[str, str]] = collections.Counter()
        self.wrong: collections.Counter[tuple[str, str]] = collections.Counter()
        self.unknown: collections.Counter[tuple[str, str]] = collections.Counter()
        self.example: dict[str, str] = {}
        self.pairs: collections.Counter[str] = collections.Counter()

    def add(self, where: str, board: chess.Board, seconds: float) -> None:
        for color in chess.COLORS:
            self.pairs[where] += 1
            rules = fired(board, color)
            if rules:
                status = judge(board, color, seconds)
            for rule in rules:
                self.count(rule, where, board, color, status)

    def count(self, rule: str, where: str, board: chess.Board, color: chess.Color,
              status: str) -> None:
        """One firing of ``rule`` and the exact prover's ``status`` there."""
        self.fires[(rule, where)] += 1
        if status == "breaks":
            self.wrong[(rule, where)] += 1
            side = chess.COLOR_NAMES[color]
            self.example.setdefault(rule, f"`{board.fen()}` ({side})")
            print(f"WRONG {rule} {where} {board.fen()} {side}", file=sys.stderr)
        elif status == "unknown":
            self.unknown[(rule, where)] += 1

    def print(self, wheres: list[str]) -> None:
        gen = wheres[0]
        print(f"(position, side) pairs: {gen} {self.pairs[gen]:,}, "
              + ", ".join(f"{w} {self.pairs[w]:,}" for w in wheres[1:]))
        print("| rule | statement | fires: generated | fires: the other sets | wrong vs exact "
              "| unknown | counterexample | used |")
        print("|---|---|---|---|---|---|---|---|")
        for rid, rule in RULES.items():
            fg = self.fires[(rid, gen)]
            fc = sum(self.fires[(rid, w)] for w in wheres[1:])
            wrong = sum(self.wrong[(rid, w)] for w in wheres)
            unk = sum(self.unknown[(rid, w)] for w in wheres)
            print(f"| {rid} | {rule.statement} | {fg:,} | {fc:,} | {wrong} | {unk} | "
                  f"{self.example.get(rid, '-')} | {'yes' if rule.used else 'no'} |")
        print()
        print("fires (wrong) per set and rule: " + "; ".join(
            f"{w} " + ", ".join(f"{r} {self.fires[(r, w)]} ({self.wrong[(r, w)]})"
                                for r in RULES if self.fires[(r, w)]) for w in wheres))


def rules(count: int, seconds: float, seed: int, shut_in: int = 10_000) -> None:
    t0 = time.perf_counter()
    table = Table()
    rng = random.Random(seed)
    for i in range(count):
        table.add("generated", extended_case(rng, i), seconds)
        if i % 10000 == 9999:
            print(f"{i + 1:,} generated, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    rng = random.Random(seed + 1)
    for i in range(shut_in):
        table.add("shut-in", shut_in_case(rng), seconds)
        if i % 1000 == 999:
            print(f"{i + 1:,} shut-in, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    sets = {"near-fortress-2026": soundness_set(), **corpora()}
    for name, boards in sets.items():
        for b in boards:
            table.add(name, b, seconds)
        print(f"{name}: {len(boards):,} positions, {time.perf_counter() - t0:.0f} s",
              file=sys.stderr)
    table.print(["generated", "shut-in", *sets])
    print(f"\n{time.perf_counter() - t0:.0f} s; exact {seconds} s per side to move")


RECALL_SETS = {"ours": "ours", "d3chess-pawn-only": "D3-Chess",
               "master-pawn-endings-drawn": "master drawn"}


def recall(seconds: float, cache_path: Path) -> None:
    cache: dict[tuple[str, bool], str] = {}
    if cache_path.is_file():
        for line in cache_path.read_text().splitlines():
            d = json.loads(line)
            cache[(d["epd"], d["side"])] = d["status"]
    sets = corpora()
    methods = ["paper", "flood", "extended"]
    print("| set | (position, side) pairs with more pawns | exact: blocked / breaks / unknown "
          "| " + " | ".join(f"{m}: recognised (recall)" for m in methods) + " |")
    print("|---|---|---|" + "---|" * len(methods))
    with open(cache_path, "a", encoding="utf-8") as out:
        for key, label in RECALL_SETS.items():
            status: collections.Counter[str] = collections.Counter()
            hits: collections.Counter[str] = collections.Counter()
            pairs = [(b, c) for b in sets[key] for c in chess.COLORS
                     if len(b.pieces(chess.PAWN, c)) > len(b.pieces(chess.PAWN, not c))]
            for b, c in pairs:
                st = cache.get((b.epd(), c))
                if st is None:
                    st = EXACT.solve(b, c, max_seconds=seconds, pv=False).status
                    cache[(b.epd(), c)] = st
                    out.write(json.dumps({"epd": b.epd(), "side": c, "status": st}) + "\n")
                    out.flush()
                status[st] += 1
                if st == "blocked":
                    for m in methods:
                        hits[m] += logic.detect(b, c, method=m).blocked
                elif st == "breaks":
                    for m in methods:
                        assert not logic.detect(b, c, method=m).blocked, (m, b.fen(), c)
            n = status["blocked"]
            cells = " | ".join(f"{hits[m]} ({100 * hits[m] / max(n, 1):.1f} %)" for m in methods)
            print(f"| {label} | {len(pairs)} | {n} / {status['breaks']} / {status['unknown']} "
                  f"| {cells} |")


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["rules", "recall"])
    ap.add_argument("--count", type=int, default=200_000)
    ap.add_argument("--shut-in", type=int, default=10_000,
                    help="positions of the shut-in family (tests.strategies.shut_in_case)")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=2004)
    ap.add_argument("--cache", type=Path, default=Path("extended-recall.jsonl"))
    args = ap.parse_args(argv)
    if args.what == "rules":
        rules(args.count, args.seconds, args.seed, args.shut_in)
    else:
        recall(args.seconds, args.cache)


if __name__ == "__main__":
    main(sys.argv[1:])
