"""The headless ``pawnfence`` commands: explain, classify, diagrams, search, scan,
experiment and bench.

:func:`add_commands` registers them on an ``argparse`` sub-parser set, each with its
handler (``args.run(args, out) -> exit status``); the console entry point lives in the
application layer (``viewer.cli``), which adds the window, ``render`` and the viewer
bench on top.  Every command calls :func:`logic.detect` (through the registry's
methods); nothing here decides about fences.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import chess

import logic
from logic.explain import status_names
from logic.files import escaped
from logic.position import PositionError, bounded_lines, iter_epd, open_text, parse_epd_line
from logic.search import MAX_DEPTH
from logic.textboard import legend, text_board
from logic.tools.judge import JUDGE_PAIRS
from logic.uci import check_seconds

__all__ = ["add_commands", "add_exact_seconds", "add_tables", "exact_tables",
           "exact_seconds_problem", "classify_lines",
           "board_from_args", "SIDES", "seconds_arg", "memory_arg", "with_exact_memory",
           "positive_int", "int_range", "MAX_JOBS", "MAX_ROUNDS"]

SIDES = {"white": (chess.WHITE,), "black": (chess.BLACK,), "both": (chess.WHITE, chess.BLACK)}


def seconds_arg(text: str) -> float:
    """An argparse type: a finite, positive number of seconds (at most a day)."""
    try:
        return check_seconds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def memory_arg(text: str) -> int:
    """An argparse type: a memory size such as ``512M`` or ``2G``, in bytes
    (:func:`logic.exact.parse_memory`; the message echoes the text)."""
    try:
        return logic.exact.parse_memory(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


#: a command's handler: ``run(args, out) -> exit status``
Handler = Callable[[argparse.Namespace, TextIO], int]


def with_exact_memory(run: Handler) -> Handler:
    """``run`` with ``args.exact_memory`` (when given) as the memory budget of every
    proof it makes, in its worker processes too: the setting
    :data:`logic.exact.MEMORY_ENV`, for the run's length."""

    def wrapped(args: argparse.Namespace, out: TextIO) -> int:
        size = getattr(args, "exact_memory", None)
        if size is None:
            return run(args, out)
        name = logic.exact.MEMORY_ENV
        before = os.environ.get(name)
        os.environ[name] = str(size)
        try:
            return run(args, out)
        finally:
            if before is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = before

    return wrapped


def add_exact_memory(parser: argparse.ArgumentParser, when: str) -> None:
    """The ``--exact-memory`` option (``when``: the option it goes with, for the help)."""
    parser.add_argument("--exact-memory", type=memory_arg, metavar="SIZE",
                        help=f"with {when}: the memory the prover may hold per side, e.g. "
                        "512M or 2G (default: half the memory free at the proof's start); "
                        "past it a side is unknown — memory")


def int_range(lo: int, hi: int, shown_hi: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi`` (``shown_hi``: how the
    message writes ``hi``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"expected a number from {lo} to "
                                             f"{shown_hi or hi}, got {text!r}")
        return value

    return parse


#: an argparse type: an integer of at least 1 (and at most a billion)
positive_int = int_range(1, 10**9, "10^9")
#: the most worker processes ``--jobs`` starts (never more than there is work for)
MAX_JOBS = 256
#: the most timing rounds of ``bench --rounds``
MAX_ROUNDS = 1000


def add_exact_seconds(parser: argparse.ArgumentParser) -> None:
    """The ``--exact-seconds`` option of a command with ``--method`` (see
    :func:`exact_seconds_problem`)."""
    parser.add_argument("--exact-seconds", type=seconds_arg,
                        help="with --method exact: the prover's time per side (default "
                        f"{logic.METHODS['exact'].max_seconds:g} s; its structure budget "
                        f"grows in proportion, up to {logic.exact.STRUCTURE_CEILING:,} solves)")
    add_exact_memory(parser, "--method exact")


def add_tables(parser: argparse.ArgumentParser) -> None:
    """The ``--tables DIR`` option of a command with ``--method`` (see :func:`exact_tables`)."""
    parser.add_argument("--tables", metavar="DIR",
                        help="with --method exact: Syzygy or Gaviota endgame tables (a folder "
                        "of .rtbw or .gtb.cp4 files) that decide what a forced promotion "
                        "leads to where they hold the position's material")


@contextlib.contextmanager
def exact_tables(args: argparse.Namespace) -> Iterator[None]:
    """The exact method asks the tables of ``args.tables`` (if given) for the outcome of
    every forced promotion while the block runs (none again after it); raises
    ``ValueError`` when the folder holds no tables or the method does not prove."""
    path = getattr(args, "tables", None)
    if path is None:
        yield
        return
    if logic.METHODS[args.method].static and not getattr(args, "all", False):
        raise ValueError(f"--tables applies only with --method exact, not {args.method}")
    exact = logic.METHODS["exact"]
    with logic.exact.open_tables(path) as tables:
        exact.use_tables(tables)  # type: ignore[attr-defined]
        try:
            yield
        finally:
            exact.use_tables(None)  # type: ignore[attr-defined]


def exact_seconds_problem(args: argparse.Namespace) -> str:
    """Why ``args.exact_seconds`` or ``args.exact_memory`` cannot be used ("" when they
    can): they apply only to a method that searches (``explain --all`` includes exact)."""
    if not logic.METHODS[args.method].static or getattr(args, "all", False):
        return ""
    for name in ("exact_seconds", "exact_memory"):
        if getattr(args, name, None) is not None:
            flag = "--" + name.replace("_", "-")
            return f"{flag} applies only with --method exact, not {args.method}"
    return ""


def add_commands(sub: argparse._SubParsersAction) -> dict[str, argparse.ArgumentParser]:
    """Add the headless commands to ``sub``; returns their parsers by name (the
    application may add options, e.g. ``bench --viewer``)."""
    methods = list(logic.METHODS)
    parsers = {}
    e = parsers["explain"] = sub.add_parser("explain", help="print the detector's reasoning "
                                            "step by step")
    e.add_argument("fen", nargs="*", help="a FEN (quote it, or pass its fields; or use "
                   "--diagram)")
    e.add_argument("--diagram", help="a diagram id from the library (see 'pawnfence diagrams')")
    e.add_argument("--side", choices=sorted(SIDES), default="both")
    e.add_argument("--method", choices=methods, default=logic.DEFAULT_METHOD)
    e.add_argument("--json", action="store_true", help="print the verdicts with steps as JSON")
    e.add_argument("--all", action="store_true", help="every method for both sides in one "
                   "table, marking where a method disagrees with exact's proof")
    add_exact_seconds(e)
    add_tables(e)
    e.set_defaults(run=with_exact_memory(_explain))

    c = parsers["classify"] = sub.add_parser("classify", help="classify every FEN/EPD line of "
                                             "FILE ('-' = stdin)")
    c.add_argument("file")
    c.add_argument("--method", choices=methods, default=logic.DEFAULT_METHOD)
    add_exact_seconds(c)
    add_tables(c)
    c.set_defaults(run=with_exact_memory(_classify))

    d = parsers["diagrams"] = sub.add_parser("diagrams", help="list the diagram library")
    d.set_defaults(run=lambda _args, out: _diagrams(out))

    s = parsers["search"] = sub.add_parser("search", help="search a king-and-pawn position "
                                           "(blockage at every node)")
    s.add_argument("fen", nargs="*", help="a FEN (or use --diagram)")
    s.add_argument("--diagram", help="a diagram id from the library (see 'pawnfence diagrams')")
    limit = s.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int_range(1, MAX_DEPTH),
                       help=f"search to this many plies (1 to {MAX_DEPTH})")
    limit.add_argument("--time", type=seconds_arg,
                       help="search for this many seconds (default 2)")
    s.add_argument("--no-blockage", action="store_true", help="switch the detector off")
    s.add_argument("--method", choices=list(logic.STATIC_METHODS), default=logic.DEFAULT_METHOD,
                   help="the detecting method at interior nodes (default: paper)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(run=_search)

    sc = parsers["scan"] = sub.add_parser("scan", help="scan PGN/EPD files (plain or .gz) for "
                                          "detector failures")
    sc.add_argument("inputs", nargs="+", metavar="INPUT")
    sc.add_argument("--engine", help="a UCI engine to evaluate every position")
    sc.add_argument("--engine-time", type=seconds_arg, default=0.1, help="seconds per position")
    sc.add_argument("--jobs", type=int_range(1, MAX_JOBS),
                    help="worker processes (default: all cores)")
    sc.add_argument("--out", default="scan-out", help="output folder, created with its parents "
                    "if missing (default: scan-out)")
    sc.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster (pip install "
                    "'pawnfence[dask]')")
    sc.add_argument("--dask-timeout", type=seconds_arg, default=30.0, metavar="SECONDS",
                    help="with --dask: how long the scheduler may take to answer the "
                    "connection before the scan gives up, keeping its results (default 30)")
    sc.add_argument("--judge", choices=["exact"], help="settle (position, side) pairs with "
                    "the exact prover: false positives, recall, summary.json")
    sc.add_argument("--exact-seconds", type=seconds_arg,
                    help="with --judge: the prover's time per side (default 0.5 s; the "
                    "processes prove at once, each with at most "
                    f"{logic.exact.MAX_STRUCTURES:,} structure solves)")
    add_exact_memory(sc, "--judge")
    sc.add_argument("--judge-pairs", choices=list(JUDGE_PAIRS),
                    help="with --judge: the sides some method calls blocked (claimed, the "
                    "default), or those and every side with more pawns (edge: recall)")
    sc.add_argument("--every", type=int_range(1, 10**9), default=1, metavar="K",
                    help="only every K-th distinct position (a sample)")
    sc.add_argument("--quiet", action="store_true", help="no progress bar")
    sc.set_defaults(run=with_exact_memory(_scan))

    x = parsers["experiment"] = sub.add_parser("experiment", help="paper 4, Table 1: every "
                                               "position with detection on and off")
    x.add_argument("file", nargs="?", help="EPD file (default: assets/experiment.epd)")
    x.add_argument("--time", type=seconds_arg, default=1.0,
                   help="seconds per position and setting")
    x.add_argument("--limit", type=positive_int, help="only the first N positions")
    x.add_argument("--methods", help="comma-separated detecting methods (default: every one "
                   "in the registry that is cheap enough for a search node)")
    x.add_argument("--jobs", type=int_range(1, MAX_JOBS),
                   help="worker processes (default: all cores)")
    x.add_argument("--out", help="folder for the resumable runs (default: "
                   "experiment-out/FILE-STEM), created if missing")
    x.add_argument("--exact", type=seconds_arg, metavar="SECONDS",
                   help="also judge every position with the exact prover, at most SECONDS "
                   "per side")
    x.add_argument("--json", action="store_true", help="print the table as JSON")
    x.add_argument("--markdown", action="store_true", help="print the table as Markdown, "
                   "below the paper's Table 1")
    x.add_argument("--every", type=int_range(1, 10**9), default=1, metavar="K",
                   help="only every K-th position of the file (a sample)")
    x.add_argument("--quiet", action="store_true", help="no progress bar")
    x.set_defaults(run=_experiment)

    b = parsers["bench"] = sub.add_parser("bench", help="detector throughput beside "
                                          "python-chess's FEN parse")
    b.add_argument("--rounds", type=int_range(1, MAX_ROUNDS), default=None,
                   help=f"timing rounds, at most {MAX_ROUNDS} (best is reported; default 7)")
    b.add_argument("--file", help="EPD/FEN file to time instead of the built-in set")
    b.add_argument("--json", action="store_true")
    b.add_argument("--search", type=seconds_arg, metavar="SECONDS",
                   help="also time the search with detection off and with each static "
                   "method (the NPS overhead): each position to the depth detection off "
                   "reaches in SECONDS, best of --rounds (at most 7) per setting")
    b.add_argument("--scan", nargs="+", metavar="PGN",
                   help="time a scan of these games against python-chess's replay of them")
    b.add_argument("--exact", nargs="*", metavar="FILE", default=None,
                   help="time the exact prover instead: the built-in set, every side a "
                   "static method calls blocked (there and in the FILEs), and each FILE")
    b.add_argument("--exact-seconds", type=seconds_arg, default=None,
                   help="the exact prover's time per side-position (default 10 s; the "
                   "workers prove at once, each with at most "
                   f"{logic.exact.MAX_STRUCTURES:,} structure solves)")
    add_exact_memory(b, "--exact")
    b.add_argument("--sample", type=positive_int, default=None,
                   help="with --exact: at most this many side-positions of each FILE "
                   "(a seeded sample)")
    b.add_argument("--jobs", type=int_range(1, MAX_JOBS), default=None,
                   help=f"with --exact: worker processes (at most {MAX_JOBS}; default 1)")
    b.add_argument("--exact-sets", nargs="+", metavar="SET", default=None,
                   help="with --exact: only these sets (built-in, heuristic-blocked, "
                   "extended-only-blocked or a FILE's name without its suffix)")
    b.set_defaults(run=with_exact_memory(_bench))
    return parsers


def kpk_summary(board: chess.Board) -> dict[str, object] | None:
    """See :func:`logic.kpk_rules.summary`."""
    from logic.kpk_rules import summary

    return summary(board)


def _kpk_line(summary: dict[str, object]) -> str:
    from logic.kpk_rules import summary_line

    return summary_line(summary)


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    try:
        if why := exact_seconds_problem(args):
            raise ValueError(why)
        board, _caption = board_from_args(args.fen, args.diagram)
    except ValueError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    return _with_tables(args, lambda: _explain_board(board, args, out))


def _explain_board(board: chess.Board, args: argparse.Namespace, out: TextIO) -> int:
    """``explain`` of one board (the tables, if any, in use)."""
    if args.all:
        return _explain_all(board, args, out)
    verdicts = [logic.detect(board, c, method=args.method, trace=True, seconds=args.exact_seconds)
                for c in SIDES[args.side]]
    kpk = kpk_summary(board)
    if args.json:
        method = logic.METHODS[args.method]
        data: dict[str, object] = {"fen": board.fen(), "verdicts": [
            {**v.to_dict(), **method.fields(v)} for v in verdicts]}
        if kpk is not None:
            data["kpk"] = kpk
        json.dump(data, out, indent=1)
        out.write("\n")
        return 0
    out.write(f"{board.fen()}   ({args.method} method)\n")
    for v in verdicts:
        out.write(f"\n== {v.side} ==\n")
        for i, s in enumerate(v.steps, 1):
            out.write(f"{i:3d}. [{s.section}] {s.phase}: {s.text}\n")
        out.write("\n" + text_board(board, v) + "\n" + legend(v) + "\n")
        out.write(f"\n=> {v.headline}\n   {v.reason}\n")
        for note in v.pawns:
            out.write(f"   {'ok ' if note.ok else 'NO '} {note.reason}\n")
    if kpk is not None:
        out.write(f"\n{_kpk_line(kpk)}\n")
    return 0


def _explain_all(board: chess.Board, args: argparse.Namespace, out: TextIO) -> int:
    """``explain --all``: :func:`logic.compare.compare` as a table (or JSON)."""
    from logic.compare import compare, compare_table

    cmp = compare(board, seconds=args.exact_seconds)
    if args.json:
        json.dump({"fen": cmp.fen, "methods": {
            m: {chess.COLOR_NAMES[c]: {"blocked": cell.blocked, "status": cell.status,
                                       "rule": cell.rule, "ms": round(cell.ms, 1),
                                       "disagrees": cell.disagrees}
                for c, cell in row.items()} for m, row in cmp.cells.items()}}, out, indent=1)
        out.write("\n")
        return 0
    out.write(compare_table(cmp))
    return 0


def classify_lines(lines: Iterator[str], method: str, seconds: float | None = None
                   ) -> Iterator[dict[str, object]]:
    """One JSON-ready object per non-blank, non-comment line; errors become
    ``{"line": N, "error": ...}`` and the run goes on.  ``seconds``: the budget per
    side of a method that searches (:func:`logic.detect`)."""
    for n, board, ops in iter_epd(lines):
        if isinstance(board, PositionError):
            yield {"line": n, "error": str(board)}
            continue
        try:
            obj: dict[str, object] = {"id": ops.get("id"), "fen": board.fen()}
            for color in (chess.WHITE, chess.BLACK):
                v = logic.detect(board, color, method=method, seconds=seconds)
                side: dict[str, object] = {"blocked": v.blocked, "rule": v.rule}
                side.update(logic.METHODS[method].fields(v))
                if v.status not in (logic.Status.OK, logic.Status.UNKNOWN, logic.Status.HORIZON):
                    side["status"] = v.status
                    side["reason"] = v.reason
                obj[chess.COLOR_NAMES[color]] = side
            kpk = kpk_summary(board)
            if kpk is not None:
                obj["kpk"] = kpk["result"]
        except (ValueError, AssertionError, IndexError) as exc:
            obj = {"line": n, "error": str(exc)}
        yield obj


def _classify(args: argparse.Namespace, out: TextIO) -> int:
    if why := exact_seconds_problem(args):
        print(f"pawnfence: {why}", file=sys.stderr)
        return 2
    return _with_tables(args, lambda: _classify_file(args, out))


def _with_tables(args: argparse.Namespace, run: Callable[[], int]) -> int:
    """``run()`` with the endgame tables of ``--tables`` open for the exact prover's
    outcomes; 2 (and the reason on stderr) when they cannot be opened."""
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(exact_tables(args))
        except ValueError as exc:
            print(f"pawnfence: {exc}", file=sys.stderr)
            return 2
        return run()


def _classify_file(args: argparse.Namespace, out: TextIO) -> int:
    """``classify`` of ``args.file`` (the tables, if any, in use)."""
    fh: contextlib.AbstractContextManager[TextIO]
    if args.file == "-":
        if sys.stdin is None:
            print("pawnfence: standard input is closed", file=sys.stderr)
            return 2
        fh = contextlib.nullcontext(sys.stdin)
    else:
        try:
            fh = open_text(args.file)
        except OSError as exc:
            print(f"pawnfence: cannot read {args.file!r}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    with fh as lines:
        _newline_only(lines)
        try:
            for obj in classify_lines(bounded_lines(lines), args.method, args.exact_seconds):
                out.write(json.dumps(obj) + "\n")  # an output error propagates: not the file's
        except ValueError as exc:  # a line without end
            print(f"pawnfence: {args.file}: {exc}", file=sys.stderr)
            return 2
    return 0


def _newline_only(fh: TextIO) -> None:
    """Make ``fh`` end its lines at ``"\n"`` only (a text file's default also ends them
    at a stray ``"\r"``, and the error line numbers of ``classify`` then drift from
    those of an editor); a ``"\r\n"`` ending stays one line ending.  A stream that
    cannot be reconfigured (not a text file, already read from) is left as it is."""
    with contextlib.suppress(AttributeError, ValueError, OSError, io.UnsupportedOperation):
        fh.reconfigure(newline="\n")  # type: ignore[attr-defined]


def board_from_args(fen_fields: list[str], diagram: str | None) -> tuple[chess.Board, str]:
    """The board named by a FEN or ``--diagram`` and a caption; raises ValueError."""
    if diagram and fen_fields:
        raise ValueError("give a FEN or --diagram ID, not both")
    if diagram:
        from logic.diagrams import get_diagram

        try:
            d = get_diagram(diagram)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
        return d.board(), d.caption
    if not fen_fields:
        raise ValueError("give a FEN or --diagram ID")
    board, _ops = parse_epd_line(" ".join(fen_fields))
    return board, ""


def _search(args: argparse.Namespace, out: TextIO) -> int:
    from logic.search import DECISIVE, search_board

    try:
        board, _caption = board_from_args(args.fen, args.diagram)
        if board.status() != chess.STATUS_VALID:
            raise PositionError(" ".join(args.fen),
                                f"illegal position ({status_names(board.status())})")
        result = search_board(board, depth=args.depth,
                              seconds=None if args.depth else (2.0 if args.time is None
                                                               else args.time),
                              blockage=not args.no_blockage, method=args.method)
    except ValueError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out.write(json.dumps(result.to_dict()) + "\n")
        return 0
    side = "White" if board.turn else "Black"
    verdict = (" (decisive)" if abs(result.score) >= DECISIVE else
               " (draw)" if result.score == 0 else "")
    out.write(f"score {result.score / 100:+.2f} for {side} to move{verdict}; "
              f"White's view {result.score_white / 100:+.2f}\n")
    out.write(f"depth {result.depth}  nodes {result.nodes}  nps {result.nps}  "
              f"blockages {result.blockages}  time {result.seconds:.2f} s\n")
    out.write(f"pv {' '.join(result.pv)}\n" if result.pv else
              "pv - (no legal move)\n")
    return 0


def _scan(args: argparse.Namespace, out: TextIO) -> int:
    from logic.tools.scan import JudgeConfig, ScanError, scan

    if not args.judge and (args.exact_seconds is not None or args.judge_pairs is not None):
        print("pawnfence scan: --exact-seconds and --judge-pairs apply only with --judge exact",
              file=sys.stderr)
        return 2
    if not args.judge and args.exact_memory is not None:
        print("pawnfence scan: --exact-memory applies only with --judge exact", file=sys.stderr)
        return 2
    given = {k: v for k, v in (("seconds", args.exact_seconds), ("pairs", args.judge_pairs))
             if v is not None}
    judge = JudgeConfig(**given) if args.judge else None
    if args.dask is not None and not args.dask.strip():
        print("pawnfence scan: --dask needs an address (host:port)", file=sys.stderr)
        return 2
    if args.engine and not args.dask and shutil.which(args.engine) is None:  # (a cluster
        # runs the engine on its own machines)
        print(f"pawnfence scan: --engine {args.engine!r}: no such program (or not executable)",
              file=sys.stderr)
        return 2
    try:
        summary = scan(args.inputs, args.out, engine=args.engine, engine_time=args.engine_time,
                       jobs=args.jobs, dask_address=args.dask,
                       progress=None if args.quiet else sys.stderr, judge=judge,
                       every=args.every, dask_timeout=args.dask_timeout)
    except (OSError, ImportError, ValueError, ScanError) as exc:
        why: object = exc
        if isinstance(exc, OSError) and exc.strerror:
            name = exc.filename
            why = exc.strerror if name is None or str(name) in exc.strerror else \
                f"{name}: {exc.strerror}"
        print(f"pawnfence: scan failed: {why}", file=sys.stderr)
        return 2
    for message in [*summary.get("engine_failures", ()), *summary.get("engine_gave_up", ())]:
        print(f"pawnfence: {message}", file=sys.stderr)
    where = escaped(args.out)  # a folder name that is not UTF-8 as escapes
    skipped = (f", {summary['skipped']} EPD lines skipped (not kings and pawns)"
               if summary.get("skipped") else "")
    out.write(f"{summary['positions']} positions ({summary['resumed']} from an earlier run), "
              f"{summary['errors']} malformed games or lines{skipped} (see "
              f"{where}/errors.log)\n")
    for cat, n in sorted(summary["categories"].items()):
        out.write(f"  {cat}: {n}\n")
    if judge is not None:
        _print_judge(summary, out)
    out.write(f"results: {where}/results.jsonl   suspects: {where}/suspects.epd\n")
    for message in summary["unreadable"]:
        print(f"pawnfence: {message}", file=sys.stderr)
    # the scan's results are kept, but an input it could not read or an engine it had to
    # give up is a failure of the command
    return 2 if summary["unreadable"] or summary["engine_gave_up"] else 0


def _print_judge(summary: dict[str, Any], out: TextIO) -> None:
    """The judge's figures (``summary.json``) as a few lines."""
    j = summary["judge"]
    e = j["exact"]
    rate = summary.get("positions_per_second")
    out.write(f"exact judge ({j['pairs']} pairs, {j['seconds']:g} s a side): "
              f"{j['judged_sides']} sides judged: {e['blocked']} blocked, {e['breaks']} "
              f"breaks, {e['unknown']} unknown, {e.get('horizon', 0)} horizons; "
              f"{rate if rate is not None else '-'} positions/s this run\n")
    for m, f in j["methods"].items():
        rec = (f", recall {f['recognised']}/{j['edge_sides_exact_blocked']}"
               if f["recall"] is not None else "")
        out.write(f"  {m}: {f['claims']} claims, {f['false_positives']} false positives, "
                  f"{f['confirmed']} confirmed, {f['unknown']} unknown{rec}\n")
    out.write("  disagreements: " + ", ".join(f"{k} {n}" for k, n in
                                               j["disagreements"].items()) + "\n")


def _experiment(args: argparse.Namespace, out: TextIO) -> int:
    from logic.tools.experiment import run_experiment

    return run_experiment(args, out)


def _diagrams(out: TextIO) -> int:
    from logic.diagrams import load_diagrams

    for d in load_diagrams():
        out.write(f"{d.id:14s} {d.fen:58s} {d.caption[:70]}\n")
    return 0


def _bench(args: argparse.Namespace, out: TextIO) -> int:
    from logic.tools.bench import run_bench

    return run_bench(args, out)
