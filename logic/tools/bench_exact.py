"""``pawnfence bench --exact``: how fast and how often the exact prover settles.

Three kinds of sets, each a list of side-positions ``(position, side)``:

* ``built-in``: both sides of every position of ``assets/bench.epd`` and the
  library's diagrams;
* ``heuristic-blocked``: every side-position of the built-in set and of the given
  files that the paper or the flood calls blocked -- exact must confirm each (a
  ``breaks`` there is a false "blocked" of that method, listed);
* ``extended-only-blocked``: those that only the extended method's own criteria (x3,
  x4, x5) call blocked, the same way;
* one set per given file: both sides of each of its positions.

``--sample N`` draws a seeded sample of N side-positions from the built-in set and
from each file's set (never from the two blocked sets).  ``--exact-sets NAME ...``
proves only the sets of those names (an unknown name is an error).

Every side-position is solved on a cold structure cache (the figures are for a
position met alone) with the budget ``--exact-seconds``, in ``--jobs`` processes.
Files may be EPD/FEN or JSON lines with a ``"fen"`` field.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, TextIO

import chess

import logic
from logic.assets import asset_path
from logic.exact import EXACT, MAX_STRUCTURES, horizon_of
from logic.position import (
    PositionFileError,
    bounded_lines,
    is_kp,
    load_boards,
    load_counted,
    open_text,
    skipped_note,
)

__all__ = ["Case", "Row", "built_in", "heuristic_blocked", "file_set", "solve_case",
           "summarise", "run_exact_bench"]


class Case(NamedTuple):
    """One side-position to prove: where it comes from, the FEN, the side (X), and the
    static methods that call it blocked (``"paper+flood"``, or ``""``)."""

    source: str
    fen: str
    side: bool
    methods: str


class Row(NamedTuple):
    """The prover's answer for a :class:`Case`: ``status`` blocked, breaks, horizon (a
    verdict's horizon, :func:`logic.exact.horizon_of`: ``horizon`` its plies) or
    unknown."""

    case: Case
    status: str
    restricted: str
    ms: float
    structures: int
    pv: tuple[str, ...]
    horizon: int | None = None


def read_boards(path: str | Path) -> list[chess.Board]:
    """Legal king-and-pawn boards of an EPD/FEN file or of JSON lines with ``"fen"``
    (other lines are skipped: :func:`read_counted` counts them); raises
    :class:`PositionFileError`."""
    return read_counted(path)[0]


def read_counted(path: str | Path) -> tuple[list[chess.Board], int]:
    """:func:`read_boards` and how many non-blank lines it skipped (not a position, or
    not a legal king-and-pawn one); raises :class:`PositionFileError` when the file
    cannot be read or holds no such position.  JSON lines are ``.jsonl`` or
    ``.jsonl.gz``; anything else is read as EPD/FEN."""
    if not str(path).endswith((".jsonl", ".jsonl.gz")):
        return load_counted(path, kp_only=True)
    try:
        found = _read_jsonl(path)
    except (OSError, ValueError) as exc:
        raise PositionFileError(f"cannot read {path}: "
                                f"{getattr(exc, 'strerror', None) or exc}") from None
    if not found[0]:
        raise PositionFileError(f"no legal king-and-pawn positions in {path}")
    return found


def _read_jsonl(path: str | Path) -> tuple[list[chess.Board], int]:
    out: list[chess.Board] = []
    skipped = 0
    with open_text(path) as f:
        for line in bounded_lines(f):  # a damaged .gz: a ValueError, not an EOFError
            if not line.strip():
                continue
            try:
                board = chess.Board(json.loads(line)["fen"])
            except (ValueError, KeyError, TypeError, AttributeError):
                skipped += 1
                continue
            if is_kp(board):
                out.append(board)
            else:
                skipped += 1
    return out, skipped


def built_in() -> list[Case]:
    """Both sides of the bench positions and the library's diagrams."""
    boards = [("bench", b) for b in load_boards(asset_path("bench.epd"), kp_only=True)]
    boards += [("diagrams", b) for b in load_boards(asset_path("diagrams.epd"), kp_only=True)]
    return [Case(src, b.fen(), side, "") for src, b in boards for side in chess.COLORS]


#: the methods whose "blocked" the exact issue's speed targets are about
PAPER_AND_FLOOD = ("paper", "flood")


def heuristic_blocked(sources: list[tuple[str, list[chess.Board]]],
                      extended_only: bool = False) -> list[Case]:
    """Every (position, side) of ``sources`` that the paper or the flood calls blocked,
    once; with ``extended_only``, those that only other static methods call blocked
    (the extended criteria's own claims).  ``Case.methods`` names every claimant."""
    out: list[Case] = []
    seen: set[tuple[str, bool]] = set()
    for src, boards in sources:
        for b in boards:
            for side in chess.COLORS:
                methods = [m for m in logic.STATIC_METHODS
                           if logic.detect(b, side, method=m).blocked]
                key = (b.fen(), side)
                first = any(m in PAPER_AND_FLOOD for m in methods)
                if methods and key not in seen and first != extended_only:
                    seen.add(key)
                    out.append(Case(src, b.fen(), side, "+".join(methods)))
    return out


def file_set(name: str, boards: list[chess.Board], sample: int, seed: int = 7) -> list[Case]:
    """Both sides of every board (a seeded sample of ``sample`` side-positions if > 0)."""
    cases = [Case(name, b.fen(), side, "") for b in boards for side in chess.COLORS]
    if 0 < sample < len(cases):
        cases = random.Random(seed).sample(cases, sample)
    return cases


def solve_case(args: tuple[Case, float]) -> Row:
    """Prove one case on a cold cache (a worker's job)."""
    case, seconds = args
    exact = EXACT
    exact.clear_cache()
    # the workers prove at once: each keeps the default 10 s structure budget (memory)
    r = exact.solve(chess.Board(case.fen), case.side, max_seconds=seconds,
                    max_structures=MAX_STRUCTURES)
    n = horizon_of(r)
    if n is not None:
        return Row(case, "horizon", "forward", r.ms, r.structures, r.pv, n)
    return Row(case, r.status, r.restricted, r.ms, r.structures, r.pv)


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarise(rows: list[Row]) -> dict[str, Any]:
    """Counts and the distribution of time and structures of a set's rows; the
    horizons (no blockage, no breakthrough: not settled) and their median depth."""
    ms = [r.ms for r in rows] or [0.0]
    st = [r.structures for r in rows] or [0]
    status = Counter(r.status for r in rows)
    n = len(rows)
    depths = [r.horizon for r in rows if r.horizon is not None]
    open_ = status["unknown"] + status["horizon"]
    return {"side_positions": n, "blocked": status["blocked"], "breaks": status["breaks"],
            "unknown": status["unknown"], "horizon": status["horizon"],
            "horizon_median": statistics.median(depths) if depths else None,
            "settled_pct": 100 * (n - open_) / n if n else 0.0,
            "unknown_pct": 100 * status["unknown"] / n if n else 0.0,
            "ms_median": statistics.median(ms), "ms_p90": _pct(ms, .9),
            "ms_p99": _pct(ms, .99), "ms_max": max(ms),
            "structures_median": statistics.median(st), "structures_p90": _pct(st, .9),
            "structures_max": max(st),
            "proof_from": dict(Counter(f"{r.status}/{r.restricted or 'full'}" for r in rows
                                       if r.status in ("blocked", "breaks")).most_common())}


def _solve_all(cases: list[Case], seconds: float, jobs: int) -> list[Row]:
    work = [(c, seconds) for c in cases]
    if jobs <= 1 or len(work) < 2:
        return [solve_case(w) for w in work]
    # never more processes than side-positions (a huge --jobs must not start thousands)
    with mp.get_context("spawn").Pool(min(jobs, len(work))) as pool:
        return pool.map(solve_case, work, chunksize=1)


def _write(name: str, s: dict[str, Any], out: TextIO) -> None:
    out.write(f"{name}: {s['side_positions']} side-positions: blocked {s['blocked']}, "
              f"breaks {s['breaks']}, unknown {s['unknown']} ({s['unknown_pct']:.1f} %); "
              f"settled {s['settled_pct']:.1f} %\n")
    if s["horizon"]:
        out.write(f"  horizons {s['horizon']} (median {s['horizon_median']:g} plies: no "
                  f"forced promotion within them)\n")
    out.write(f"  time ms  median {s['ms_median']:.1f}  p90 {s['ms_p90']:.1f}  "
              f"p99 {s['ms_p99']:.1f}  max {s['ms_max']:.1f}\n")
    out.write(f"  structures  median {s['structures_median']:.0f}  p90 "
              f"{s['structures_p90']:.0f}  max {s['structures_max']}\n")
    if s["proof_from"]:  # the game that gave each proof
        out.write("  proofs from  " + ", ".join(f"{k} {v}" for k, v in s["proof_from"].items())
                  + "\n")


def run_exact_bench(args: argparse.Namespace, out: TextIO) -> int:
    """The ``bench --exact [FILE ...]`` table (or JSON)."""
    files: list[str] = list(args.exact or [])
    try:
        counted = [(f, *read_counted(f)) for f in files]
    except PositionFileError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    for f, _boards, skipped in counted:
        if skipped:
            print(f"pawnfence: {skipped_note(f, skipped)}", file=sys.stderr)
    loaded = [(Path(f).stem, boards) for f, boards, _skipped in counted]
    names = ["built-in", "heuristic-blocked", "extended-only-blocked",
             *(name for name, _boards in loaded)]
    wanted = getattr(args, "exact_sets", None) or names
    if unknown := [w for w in wanted if w not in names]:
        print(f"pawnfence: --exact-sets: no set {', '.join(unknown)} (the sets: "
              f"{', '.join(names)})", file=sys.stderr)
        return 2
    base = built_in()
    base_boards = {c.fen: chess.Board(c.fen) for c in base}
    sources = [("built-in", list(base_boards.values())), *loaded]
    makers = {"built-in": lambda: file_set("built-in", list(base_boards.values()),
                                           args.sample or 0),
              "heuristic-blocked": lambda: heuristic_blocked(sources),
              "extended-only-blocked": lambda: heuristic_blocked(sources, extended_only=True)}
    by_name = dict(loaded)
    sets = {name: makers[name]() if name in makers else file_set(name, by_name[name],
                                                                 args.sample or 0)
            for name in names if name in wanted}
    seconds = args.exact_seconds or logic.METHODS["exact"].max_seconds
    result: dict[str, Any] = {"seconds": seconds, "sets": {}}
    for name, cases in sets.items():
        rows = _solve_all(cases, seconds, args.jobs or 1)
        s = summarise(rows)
        refuted = [r for r in rows if r.case.methods and r.status == "breaks"]
        s["refuted"] = [{"fen": r.case.fen, "side": chess.COLOR_NAMES[r.case.side],
                         "methods": r.case.methods, "pv": list(r.pv[:16])} for r in refuted]
        result["sets"][name] = s
        if not args.json:
            _write(name, s, out)
            if name in ("heuristic-blocked", "extended-only-blocked"):
                out.write(f"  a static method's 'blocked' refuted by exact: {len(refuted)}\n")
                for r in refuted:
                    out.write(f"    {r.case.fen} {chess.COLOR_NAMES[r.case.side]} "
                              f"({r.case.methods}): {' '.join(r.pv[:12])}\n")
            out.flush()
    if args.json:
        out.write(json.dumps(result) + "\n")
    return 0
