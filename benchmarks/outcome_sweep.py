"""What the exact prover's forced promotions lead to (``logic.exact.outcome``), on random
KPvK, KPPvK and KPvKP positions, each ``wins`` checked against Syzygy's value of the root.

    python benchmarks/outcome_sweep.py [--count N] [--seed S] [--seconds T]
                                       [--results FILE] [--jobs J]

``N`` random positions of each material (either side to move, not game over; default
1,700, so 5,100 in all), generated from seed ``S``; every side with pawns is X (both
sides in KPvKP).  Each side is solved exactly with a budget of ``T`` seconds of a
:class:`~logic.exact.budget.WorkClock` (a count of work: the answers do not depend on
the machine's load), and every breakthrough gets its outcome without tables (what a
user gets by default): ``wins`` (proved by a rule), ``race``, ``defender`` or
``unclear``.  Every ``wins`` must be a Syzygy win for X at the root (the tables of
``../shared/syzygy``); the script prints the shares as Markdown and exits 1 on an
exception.  ``--results FILE`` keeps the prover's answers (one JSON line a side) and
reuses them on the next run, so the outcomes can be recomputed without the proofs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from itertools import zip_longest
from pathlib import Path
from typing import NamedTuple

import chess
import chess.syzygy

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logic.exact import WorkClock  # noqa: E402
from logic.exact import prover as exact  # noqa: E402
from logic.exact.outcome import outcome  # noqa: E402
from tests.conftest import SHARED  # noqa: E402
from tests.strategies import random_material_board  # noqa: E402

#: the materials swept: (White's pawns, Black's pawns) and the name in the table
MATERIALS = {"KPvK": ("P", ""), "KPPvK": ("PP", ""), "KPvKP": ("P", "p")}
#: the outcomes of a breakthrough without tables, in the table's order
KINDS = ("wins", "race", "defender", "unclear")


class Side(NamedTuple):
    """One side-position solved: ``fen``, ``x`` (True: White is X), the prover's
    ``status``, ``pv`` (UCI) and ``ends``."""

    fen: str
    x: bool
    status: str
    pv: tuple[str, ...]
    ends: str


class Tally(NamedTuple):
    """A material's counts: ``sides`` solved, ``kinds`` (status or outcome kind: blocked,
    unknown, wins, race, defender, unclear), ``table_wins`` (breakthroughs Syzygy calls a
    win for X, by outcome kind) and ``exceptions`` (``wins`` that are no Syzygy win:
    ``(fen, x, pv)``)."""

    sides: int
    kinds: Counter[str]
    table_wins: Counter[str]
    exceptions: list[tuple[str, bool, tuple[str, ...]]]


def boards(material: str, n: int, seed: str) -> list[chess.Board]:
    """The ``n`` random boards of ``material`` (a key of :data:`MATERIALS`) of seed
    ``seed``: legal, not game over, either side to move."""
    rng = random.Random(f"{seed}:{material}")
    return [random_material_board(rng, *MATERIALS[material], playable=True) for _ in range(n)]


def solve_side(fen: str, x: bool, seconds: float) -> Side:
    """The prover's answer for X = ``x`` on ``fen`` (a work-clock budget of ``seconds``).

    A breakthrough a partial expansion proved takes its line from the whole DAG's
    distances (:data:`~logic.exact.prover.LINE_DAG_CAP`), not from the forward search
    first: the same real game's fastest line (``fastest`` True, the same length), which
    on these small DAGs comes about eight times sooner."""
    keep, exact.FORWARD_LINE_SECONDS = exact.FORWARD_LINE_SECONDS, 0.0
    try:
        r = exact.solve(chess.Board(fen), x, max_seconds=seconds, clock=WorkClock())
    finally:
        exact.FORWARD_LINE_SECONDS = keep
    return Side(fen=fen, x=x, status=r.status, pv=r.pv, ends=r.ends)


def sides(material: str, n: int, seed: str) -> Iterator[tuple[str, bool]]:
    """``(fen, x)`` of every side with pawns of :func:`boards`."""
    for board in boards(material, n, seed):
        for x in chess.COLORS:
            if board.pawns & board.occupied_co[x]:
                yield board.fen(), x


def solve_all(keys: list[tuple[str, bool]], seconds: float, jobs: int,
              known: dict[tuple[str, bool], Side],
              keep: Callable[[Side], None] | None = None) -> list[Side]:
    """Every side of ``keys`` solved (``known`` answers reused, new ones added to it and
    passed to ``keep`` as they come), in order."""
    todo = [k for k in dict.fromkeys(keys) if k not in known]
    with contextlib.ExitStack() as stack:
        if jobs > 1 and len(todo) > 1:
            pool = stack.enter_context(ProcessPoolExecutor(jobs))
            done: Iterable[Side] = pool.map(solve_side, [f for f, _ in todo],
                                            [x for _, x in todo], [seconds] * len(todo),
                                            chunksize=4)
        else:
            done = (solve_side(f, x, seconds) for f, x in todo)
        for s in done:
            known[s.fen, s.x] = s
            if keep is not None:
                keep(s)
    return [known[k] for k in keys]


def tally(solved: list[Side], tb: chess.syzygy.Tablebase) -> Tally:
    """The counts of ``solved`` (see :class:`Tally`), each breakthrough's outcome without
    tables and each ``wins`` against Syzygy's value of the root."""
    kinds: Counter[str] = Counter()
    table_wins: Counter[str] = Counter()
    exceptions = []
    for s in solved:
        if s.status != "breaks":
            kinds[s.status] += 1
            continue
        board = chess.Board(s.fen)
        kind = outcome(board, s.x, s.pv, s.ends).kind
        kinds[kind] += 1
        wdl = tb.probe_wdl(board)
        wins = (wdl if board.turn == s.x else -wdl) > 0
        table_wins[kind] += wins
        if kind == "wins" and not wins:
            exceptions.append((s.fen, s.x, s.pv))
    return Tally(sides=len(solved), kinds=kinds, table_wins=table_wins, exceptions=exceptions)


def _share(k: int, total: int) -> str:
    return f"{k:,} ({100 * k / total:.1f} %)" if total else "0"


def merged(tallies: list[Tally]) -> Tally:
    """The sum of ``tallies``."""
    kinds: Counter[str] = Counter()
    table_wins: Counter[str] = Counter()
    for t in tallies:
        kinds += t.kinds
        table_wins += t.table_wins
    return Tally(sides=sum(t.sides for t in tallies), kinds=kinds, table_wins=table_wins,
                 exceptions=[e for t in tallies for e in t.exceptions])


def markdown(tallies: dict[str, Tally], n: int, seconds: float) -> str:
    """The table of the manual: per material the forced promotions and their outcomes."""
    lines = [f"{n:,} random positions per material (either side to move, not game over), "
             f"every side with pawns as X, {seconds:g} s of work a side; outcomes without "
             "tables (the rules alone), each `wins` checked against Syzygy's value of the "
             "root:", "",
             "| material | side-positions | blocked | unknown | forces a promotion | wins | "
             "race | defender | unclear | `wins` that are no Syzygy win | Syzygy wins "
             "among the others |", "|" + "---|" * 11]
    for name, t in [*tallies.items(), ("all", merged(list(tallies.values())))]:
        breaks = sum(t.kinds[k] for k in KINDS)
        others = sum(t.table_wins[k] for k in KINDS if k != "wins")
        lines.append(f"| {name} | {t.sides:,} | {t.kinds['blocked']:,} | "
                     f"{t.kinds['unknown']:,} | {breaks:,} | "
                     + " | ".join(_share(t.kinds[k], breaks) for k in KINDS)
                     + f" | **{len(t.exceptions)}** | {others:,} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1700, help="positions per material")
    ap.add_argument("--seed", default="outcome", help="the positions' seed")
    ap.add_argument("--seconds", type=float, default=10.0, help="work-clock seconds a side")
    ap.add_argument("--results", help="a JSON-lines file of the prover's answers, read and "
                    "extended")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = ap.parse_args(argv)
    known: dict[tuple[str, bool], Side] = {}
    path = Path(args.results) if args.results else None
    if path is not None and path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            s = Side(fen=row["fen"], x=row["x"], status=row["status"], pv=tuple(row["pv"]),
                     ends=row["ends"])
            known[s.fen, s.x] = s
    with contextlib.ExitStack() as stack:
        tb = stack.enter_context(chess.syzygy.open_tablebase(str(SHARED / "syzygy")))
        fh = None if path is None else stack.enter_context(path.open("a", encoding="utf-8"))

        def keep(s: Side) -> None:
            if fh is not None:
                fh.write(json.dumps(s._asdict()) + "\n")
                fh.flush()

        keys = {name: list(sides(name, args.count, args.seed)) for name in MATERIALS}
        # the materials interleaved, so a sweep stopped early has some of each
        order = [k for group in zip_longest(*keys.values()) for k in group if k is not None]
        solve_all(order, args.seconds, args.jobs, known, keep)
        tallies = {name: tally([known[k] for k in ks], tb) for name, ks in keys.items()}
    print(markdown(tallies, args.count, args.seconds))
    bad = [e for t in tallies.values() for e in t.exceptions]
    for fen, x, pv in bad:
        print(f"EXCEPTION: {fen} X={chess.COLOR_NAMES[x]} {' '.join(pv)}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
