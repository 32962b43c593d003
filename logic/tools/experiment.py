"""``pawnfence experiment``: paper 4, Table 1, on any EPD file.

Every position is searched for the same time with blockage detection off and on, once
per detecting method of the registry (paper, flood, ...): nodes, blockages detected,
draws (positions whose score is exactly 0.00), nodes per second and the speed overhead
of detection.  With ``--exact SECONDS`` the exact prover judges every position for
both sides: how many of the 0.00 answers it confirms (neither side can win) and how
many non-zero answers it proves drawn.

The run is parallel over cores (each position's settings run one after the other in
the same worker, so the overhead compares like with like), resumable (every finished
position is appended to ``OUT/runs.jsonl``; a killed run restarted with the same
command loses and repeats nothing; malformed lines are set aside into
``OUT/errors.log``) and shows a progress bar with an ETA.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

import chess

import logic
from logic.assets import asset_path
from logic.exact import MAX_STRUCTURES, ExactMethod
from logic.files import atomic_write_text, make_folder
from logic.position import PositionFileError, load_counted, skipped_note
from logic.search import Searcher, from_board
from logic.tools.runlog import Progress, carried_notes, finite_number, load_rows

__all__ = ["run_experiment", "experiment", "measure_position", "table", "markdown_table",
           "PAPER_TABLE_1"]

#: the paper's Table 1 (3,118 drawn master-game positions, 10 s a position)
PAPER_TABLE_1 = {"on": {"nodes": 24_474_565_168, "blockages": 13_082_174, "draws": 895,
                        "nps": 785_235},
                 "off": {"nodes": 25_232_289_880, "blockages": 0, "draws": 569,
                         "nps": 809_547}}

#: seconds of search a column needs before its speed means anything: below that (every
#: position decided at the root, say) nps and overhead are None ("-" in the tables)
MIN_TIMED = 0.01


def detecting_methods() -> list[str]:
    """The registry's methods cheap enough for every search node (``static``)."""
    return list(logic.STATIC_METHODS)


def measure_position(fen: str, seconds: float, settings: Sequence[str],
                     exact_seconds: float = 0.0) -> dict[str, Any]:
    """One position's row: for each setting (``"off"`` or a method name) the search's
    nodes, blockages, score (side to move's view, centipawns), depth and time; with
    ``exact_seconds`` the exact prover's status for each side."""
    board = chess.Board(fen)
    pos = from_board(board)
    row: dict[str, Any] = {"fen": fen, "seconds": seconds, "runs": {}}
    for setting in settings:
        on = setting != "off"
        r = Searcher(blockage=on, method=setting if on else logic.DEFAULT_METHOD).search(pos,
                                                                           seconds=seconds)
        row["runs"][setting] = {"nodes": r.nodes, "blockages": r.blockages, "score": r.score,
                                "depth": r.depth, "elapsed": r.seconds}
    if exact_seconds:
        row["exact"] = _exact(board, exact_seconds)
    return row


def _exact(board: chess.Board, seconds: float) -> dict[str, str]:
    """The exact prover's status for each side (``"blocked"``, ``"breaks"``,
    ``"unknown"``), or ``"n/a"`` when no exact method is registered."""
    method = logic.METHODS.get("exact")
    if not isinstance(method, ExactMethod):
        return {"white": "n/a", "black": "n/a"}
    out: dict[str, str] = {}
    for color in chess.COLORS:
        v = method.solve(board, color, max_seconds=seconds,
                         max_structures=MAX_STRUCTURES)  # jobs run at once: memory
        out[chess.COLOR_NAMES[color]] = v.status
    return out


def _count(x: Any) -> bool:
    """A whole number a 64-bit counter holds (10**400 is JSON, but no count)."""
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**63


def _row_problem(row: Any) -> str:
    """Why a line of ``runs.jsonl`` is not a well-formed row ("" when it is): a FEN, a
    positive time, every run's counts whole and not negative, its score whole, its time
    finite and not negative, the exact statuses (if any) text."""
    if not isinstance(row, dict):
        return f"a JSON {type(row).__name__}, not an object"
    if not isinstance(row.get("fen"), str) or not isinstance(row.get("runs"), dict):
        return "'fen' or 'runs' missing or mistyped"
    try:
        chess.Board(row["fen"])
    except ValueError:
        return "'fen' is not a FEN"
    for setting, run in row["runs"].items():
        if not isinstance(run, dict) or not all(_count(run.get(k)) for k in
                                                ("nodes", "blockages", "depth")) \
                or isinstance(run.get("score"), bool) or not isinstance(run.get("score"), int) \
                or not abs(run["score"]) < 2**63 \
                or not finite_number(run.get("elapsed")) or run["elapsed"] < 0:
            return f"run {setting!r} malformed"
    if not finite_number(row.get("seconds")) or row["seconds"] <= 0:
        return "'seconds' missing or not a positive number"
    exact = row.get("exact", {"white": "", "black": ""})
    if not isinstance(exact, dict) or not all(isinstance(exact.get(s), str)
                                              for s in ("white", "black")):
        return "'exact' malformed"
    return ""


def _task(args: tuple[str, float, tuple[str, ...], float]) -> dict[str, Any]:
    return measure_position(*args)


def _ignore_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def experiment(fens: Sequence[str], seconds: float, settings: Sequence[str], *,
               out_dir: Path, jobs: int = 1, exact_seconds: float = 0.0,
               progress: TextIO | None = None) -> list[dict[str, Any]]:
    """Run (or resume) the experiment over ``fens``; returns one row per position in
    input order.  Rows already in ``out_dir/runs.jsonl`` with the same settings, time
    and exact budget are reused."""
    make_folder(out_dir)
    log = out_dir / "runs.jsonl"
    errors: list[str] = []
    wanted = set(settings)
    done = {r["fen"]: r for r in load_rows(log, _row_problem, errors)
            if r["seconds"] == seconds and set(r["runs"]) == wanted
            and (not exact_seconds or "exact" in r)}
    todo = [f for f in dict.fromkeys(fens) if f not in done]
    bar = Progress(len(set(fens)), progress)
    bar.step(len(set(fens)) - len(todo), resumed=True)
    with open(log, "a", encoding="utf-8") as fh:
        for row in _rows(todo, seconds, tuple(settings), exact_seconds, jobs):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[row["fen"]] = row
            bar.step()
    rows = [done[f] for f in dict.fromkeys(fens)]
    atomic_write_text(log, "".join(json.dumps(r) + "\n" for r in rows))
    notes = carried_notes(out_dir / "errors.log")
    atomic_write_text(out_dir / "errors.log", "".join(e + "\n" for e in [*notes, *errors]))
    return rows


def _rows(todo: list[str], seconds: float, settings: tuple[str, ...], exact_seconds: float,
          jobs: int) -> Iterable[dict[str, Any]]:
    tasks = [(f, seconds, settings, exact_seconds) for f in todo]
    if jobs <= 1 or len(tasks) < 2:
        for t in tasks:
            yield _task(t)
        return
    import multiprocessing as mp

    # never more processes than positions (a huge --jobs must not start thousands)
    with mp.get_context("spawn").Pool(min(jobs, len(tasks)),
                                      initializer=_ignore_sigint) as pool:
        yield from pool.imap(_task, tasks)


def table(rows: Sequence[dict[str, Any]], settings: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Table 1's columns per setting: positions, nodes, blockages, draws (score exactly
    0), nps (total nodes over total time; None under :data:`MIN_TIMED` seconds) and,
    for detecting settings, the overhead against ``"off"`` in percent (None without
    both speeds); with exact verdicts also ``exact_confirms`` (0.00
    answers where exact proves neither side can win), ``exact_refutes`` (0.00 answers
    where exact proves a side breaks through) and ``exact_drawn_missed`` (non-zero
    answers exact proves drawn)."""
    out: dict[str, dict[str, Any]] = {}
    for s in settings:
        runs = [(r["runs"][s], r.get("exact")) for r in rows]
        nodes = sum(run["nodes"] for run, _ in runs)
        elapsed = sum(run["elapsed"] for run, _ in runs)
        col: dict[str, Any] = {
            "positions": len(runs), "nodes": nodes,
            "blockages": sum(run["blockages"] for run, _ in runs),
            "draws": sum(run["score"] == 0 for run, _ in runs),
            "nps": nodes / elapsed if elapsed >= MIN_TIMED else None}
        judged = [(run, ex) for run, ex in runs if ex and "n/a" not in ex.values()]
        if judged:
            drawn = [set(ex.values()) == {"blocked"} for _run, ex in judged]
            col["exact_confirms"] = sum(d for (run, _), d in zip(judged, drawn, strict=True)
                                        if run["score"] == 0)
            col["exact_refutes"] = sum(run["score"] == 0 and "breaks" in ex.values()
                                       for run, ex in judged)
            col["exact_drawn_missed"] = sum(d for (run, _), d in zip(judged, drawn,
                                                                     strict=True)
                                            if run["score"] != 0)
            col["exact_unknown"] = sum("unknown" in ex.values() for _run, ex in judged)
        out[s] = col
    for s in settings:
        if s != "off" and "off" in out:
            off, on = out["off"]["nps"], out[s]["nps"]
            out[s]["overhead"] = 100.0 * (off - on) / off if off and on is not None else None
    return out


def _nps(col: dict[str, Any], none: str = "-") -> str:
    """A column's speed, or ``none`` when its searches took too little time to measure."""
    return none if col["nps"] is None else f"{col['nps']:,.0f}"


def _print_table(t: dict[str, dict[str, Any]], out: TextIO) -> None:
    exact = any("exact_confirms" in c for c in t.values())
    head = (f"{'Blockage det.':16s}{'Nodes':>16s}{'Blockages':>13s}{'Draws':>8s}"
            f"{'Speed (NPS)':>14s}{'Overhead':>10s}")
    if exact:
        head += f"{'0.00 exact-confirmed':>22s}{'0.00 refuted':>14s}{'drawn, not 0.00':>17s}"
    out.write(head + "\n")
    for s, c in t.items():
        name = "Off" if s == "off" else f"On ({s})"
        over = f"{c['overhead']:+.1f}%" if c.get("overhead") is not None else "-"
        line = (f"{name:16s}{c['nodes']:>16,}{c['blockages']:>13,}{c['draws']:>8}"
                f"{_nps(c):>14s}{over:>10s}")
        if exact:
            line += (f"{c.get('exact_confirms', 0):>22}{c.get('exact_refutes', 0):>14}"
                     f"{c.get('exact_drawn_missed', 0):>17}")
        out.write(line + "\n")


def markdown_table(t: dict[str, dict[str, Any]], positions: int, seconds: float) -> str:
    """Table 1 as Markdown: the paper's two rows, then ours (off, then each method), with
    the exact columns when the run had them."""
    exact = any("exact_confirms" in c for c in t.values())
    head = ["Blockage det.", "Positions", "Nodes", "Blockages", "Draws (0.00)", "Speed (NPS)",
            "Overhead"]
    if exact:
        head += ["0.00 exact-confirmed", "0.00 exact-refuted", "drawn by exact, not 0.00",
                 "exact unknown"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    paper_over = 100 * (1 - PAPER_TABLE_1["on"]["nps"] / PAPER_TABLE_1["off"]["nps"])
    for s, c in (("On", PAPER_TABLE_1["on"]), ("Off", PAPER_TABLE_1["off"])):
        row = [f"paper, {s}", "3,118 (10 s)", f"{c['nodes']:,}", f"{c['blockages']:,}",
               str(c["draws"]), f"{c['nps']:,}", f"{paper_over:.1f} %" if s == "On" else "–"]
        row += ["–"] * (len(head) - len(row))
        lines.append("| " + " | ".join(row) + " |")
    for s, c in t.items():
        name = "Off" if s == "off" else f"On ({s})"
        over = f"{c['overhead']:.1f} %" if c.get("overhead") is not None else "–"
        row = [f"ours, {name}", f"{positions} ({seconds:g} s)", f"{c['nodes']:,}",
               f"{c['blockages']:,}", str(c["draws"]), _nps(c, "–"), over]
        if exact:
            row += [str(c.get(k, "–")) for k in ("exact_confirms", "exact_refutes",
                                                 "exact_drawn_missed", "exact_unknown")]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def run_experiment(args: argparse.Namespace, out: TextIO) -> int:
    """``pawnfence experiment [FILE]``: print Table 1's columns (and ``--json``)."""
    path = args.file or asset_path("experiment.epd")
    try:
        boards, skipped = load_counted(path, kp_only=True)
    except PositionFileError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    if skipped:
        print(f"pawnfence: {skipped_note(path, skipped)}", file=sys.stderr)
    boards = boards[:: getattr(args, "every", 1)]
    if args.limit:
        boards = boards[: args.limit]
    methods = ([m.strip() for m in args.methods.split(",")] if args.methods is not None
               else detecting_methods())
    unknown = [m for m in methods if m not in detecting_methods()]
    if unknown:
        print(f"pawnfence: not a detecting method: {', '.join(map(repr, unknown))} (choose from "
              f"{', '.join(detecting_methods())})", file=sys.stderr)
        return 2
    settings = ["off", *methods]
    out_dir = Path(args.out) if args.out else Path("experiment-out") / Path(path).stem
    try:
        rows = experiment([b.fen() for b in boards], args.time, settings, out_dir=out_dir,
                          jobs=args.jobs or os.cpu_count() or 1,
                          exact_seconds=args.exact or 0.0,
                          progress=None if args.quiet else sys.stderr)
    except OSError as exc:  # a read-only or full disk: the rows written so far are kept
        print(f"pawnfence: experiment failed: cannot write {exc.filename or out_dir}: "
              f"{exc.strerror or exc} (the finished positions are kept: the same command "
              "resumes)", file=sys.stderr)
        return 2
    t = table(rows, settings)
    if args.json:
        out.write(json.dumps({"file": str(path), "seconds": args.time, "table": t}) + "\n")
        return 0
    if getattr(args, "markdown", False):
        out.write(markdown_table(t, len(rows), args.time))
        return 0
    merged = len(boards) - len(rows)
    same = f" ({merged:,} repeated, run once)" if merged else ""
    out.write(f"{len(rows)} positions of {path}{same}, {args.time:g} s per position and setting "
              f"(paper 4, Table 1: 3,118 positions, 10 s, overhead 3 %); runs in {out_dir}\n")
    _print_table(t, out)
    return 0
