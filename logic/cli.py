"""``pawnfence`` command line: explain, classify, bench (and the viewer, later).

Every subcommand calls :func:`logic.detect`; nothing here decides about fences.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from typing import TextIO

import chess

import logic
from logic.position import PositionError, iter_epd, parse_epd_line
from logic.textboard import LEGEND, text_board

__all__ = ["main", "build_parser", "classify_lines"]

_SIDES = {"white": (chess.WHITE,), "black": (chess.BLACK,), "both": (chess.WHITE, chess.BLACK)}


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser for all subcommands."""
    p = argparse.ArgumentParser(
        prog="pawnfence",
        description="Blockage detection in pawn endgames (David, Felner & Netanyahu 2004; "
        "the Chessprogramming wiki's king flood), made visible.",
    )
    p.add_argument("--version", action="version", version=f"pawnfence {logic.__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    e = sub.add_parser("explain", help="print the detector's reasoning step by step")
    e.add_argument("fen", nargs="+", help="a FEN (quote it, or pass its fields)")
    e.add_argument("--side", choices=sorted(_SIDES), default="both")
    e.add_argument("--method", choices=logic.METHODS, default="paper")
    e.add_argument("--json", action="store_true", help="print the verdicts with steps as JSON")

    c = sub.add_parser("classify", help="classify every FEN/EPD line of FILE ('-' = stdin)")
    c.add_argument("file")
    c.add_argument("--method", choices=logic.METHODS, default="paper")

    r = sub.add_parser("render", help="draw a position's verdict to PNG, or its trace to a GIF")
    r.add_argument("fen", nargs="*", help="a FEN (or use --diagram)")
    r.add_argument("--diagram", help="a diagram id from the library (see 'pawnfence diagrams')")
    r.add_argument("--out", required=True, help="FILE.png (final verdict) or FILE.gif (steps)")
    r.add_argument("--side", choices=["white", "black"], default="white")
    r.add_argument("--method", choices=logic.METHODS, default="paper")
    r.add_argument("--size", type=int, default=640, help="board size in pixels")
    r.add_argument("--flip", action="store_true", help="Black at the bottom")

    sub.add_parser("diagrams", help="list the diagram library")

    s = sub.add_parser("search", help="search a king-and-pawn position (blockage at every node)")
    s.add_argument("fen", nargs="+")
    limit = s.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int, help="search to this many plies")
    limit.add_argument("--time", type=float, help="search for this many seconds (default 2)")
    s.add_argument("--no-blockage", action="store_true", help="switch the detector off")
    s.add_argument("--json", action="store_true")

    sc = sub.add_parser("scan", help="scan PGN/EPD files (plain or .gz) for detector failures")
    sc.add_argument("inputs", nargs="+", metavar="INPUT")
    sc.add_argument("--engine", help="a UCI engine to evaluate every position")
    sc.add_argument("--engine-time", type=float, default=0.1, help="seconds per position")
    sc.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    sc.add_argument("--out", default="scan-out", help="output folder (default: scan-out)")
    sc.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster (pip install "
                    "'pawnfence[dask]')")
    sc.add_argument("--quiet", action="store_true", help="no progress bar")

    x = sub.add_parser("experiment", help="paper 4, Table 1: every position with detection "
                       "on and off")
    x.add_argument("file", nargs="?", help="EPD file (default: assets/experiment.epd)")
    x.add_argument("--time", type=float, default=1.0, help="seconds per position and setting")
    x.add_argument("--limit", type=int, help="only the first N positions")

    b = sub.add_parser("bench", help="detector throughput beside python-chess's FEN parse")
    b.add_argument("--rounds", type=int, default=7, help="timing rounds (best is reported)")
    b.add_argument("--file", help="EPD/FEN file to time instead of the built-in set")
    b.add_argument("--json", action="store_true")
    b.add_argument("--viewer", action="store_true",
                   help="time the viewer's frames (dummy video driver) instead")
    b.add_argument("--scan", nargs="+", metavar="PGN",
                   help="time a scan of these games against python-chess's replay of them")
    return p


def kpk_summary(board: chess.Board) -> dict[str, object] | None:
    """See :func:`logic.kpk_rules.summary`."""
    from logic.kpk_rules import summary

    return summary(board)


def _kpk_line(summary: dict[str, object]) -> str:
    from logic.kpk_rules import summary_line

    return summary_line(summary)


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    fen = " ".join(args.fen)
    try:
        board, _ops = parse_epd_line(fen)
    except PositionError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    verdicts = [logic.detect(board, c, method=args.method, trace=True) for c in _SIDES[args.side]]
    kpk = kpk_summary(board)
    if args.json:
        data: dict[str, object] = {"fen": board.fen(), "verdicts": [v.to_dict() for v in verdicts]}
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
        out.write("\n" + text_board(board, v) + "\n" + LEGEND + "\n")
        out.write(f"\n=> {v.headline}\n   {v.reason}\n")
        for note in v.pawns:
            out.write(f"   {'ok ' if note.ok else 'NO '} {note.reason}\n")
    if kpk is not None:
        out.write(f"\n{_kpk_line(kpk)}\n")
    return 0


def classify_lines(lines: Iterator[str], method: str) -> Iterator[dict[str, object]]:
    """One JSON-ready object per non-blank, non-comment line; errors become
    ``{"line": N, "error": ...}`` and the run goes on."""
    for n, board, ops in iter_epd(lines):
        if isinstance(board, PositionError):
            yield {"line": n, "error": str(board)}
            continue
        try:
            obj: dict[str, object] = {"id": ops.get("id"), "fen": board.fen()}
            for color in (chess.WHITE, chess.BLACK):
                v = logic.detect(board, color, method=method)
                side: dict[str, object] = {"blocked": v.blocked, "rule": v.rule}
                if v.status != "ok":
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
    if args.file == "-":
        for obj in classify_lines(iter(sys.stdin), args.method):
            out.write(json.dumps(obj) + "\n")
        return 0
    try:
        with open(args.file, encoding="utf-8", errors="replace") as fh:
            for obj in classify_lines(iter(fh), args.method):
                out.write(json.dumps(obj) + "\n")
    except OSError as exc:
        print(f"pawnfence: cannot read {args.file!r}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0


def _board_from_args(fen_fields: list[str], diagram: str | None) -> tuple[chess.Board, str]:
    """The board named by a FEN or ``--diagram`` and a caption; raises ValueError."""
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


def _render(args: argparse.Namespace, out: TextIO) -> int:
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from viewer.export import ExportError, render_to_file

    try:
        board, caption = _board_from_args(args.fen, args.diagram)
        path = render_to_file(board, args.out, side=args.side == "white", method=args.method,
                              size=max(160, min(args.size, 2000)), flipped=args.flip,
                              caption=caption)
    except (ValueError, ExportError) as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    out.write(f"wrote {path}\n")
    return 0


def _search(args: argparse.Namespace, out: TextIO) -> int:
    from logic.search import DECISIVE, search_board

    try:
        board, _ops = parse_epd_line(" ".join(args.fen))
        if board.status() != chess.STATUS_VALID:
            raise ValueError(f"illegal position: {board.fen()!r}")
        result = search_board(board, depth=args.depth,
                              seconds=None if args.depth else (args.time or 2.0),
                              blockage=not args.no_blockage)
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
    out.write(f"pv {' '.join(result.pv)}\n")
    return 0


def _scan(args: argparse.Namespace, out: TextIO) -> int:
    from logic.scan import scan

    try:
        summary = scan(args.inputs, args.out, engine=args.engine, engine_time=args.engine_time,
                       jobs=args.jobs, dask_address=args.dask,
                       progress=None if args.quiet else sys.stderr)
    except (OSError, ImportError, ValueError) as exc:
        print(f"pawnfence: scan failed: {exc}", file=sys.stderr)
        return 2
    out.write(f"{summary['positions']} positions ({summary['resumed']} from an earlier run), "
              f"{summary['errors']} malformed games or lines (see {args.out}/errors.log)\n")
    for cat, n in sorted(summary["categories"].items()):
        out.write(f"  {cat}: {n}\n")
    out.write(f"results: {args.out}/results.jsonl   suspects: {args.out}/suspects.epd\n")
    return 0


def _experiment(args: argparse.Namespace, out: TextIO) -> int:
    from logic.experiment import run_experiment

    return run_experiment(args, out)


def _diagrams(out: TextIO) -> int:
    from logic.diagrams import load_diagrams

    for d in load_diagrams():
        out.write(f"{d.id:14s} {d.fen:58s} {d.caption[:70]}\n")
    return 0


_COMMANDS = ("explain", "classify", "bench", "render", "diagrams", "search", "experiment",
             "scan")


def build_viewer_parser() -> argparse.ArgumentParser:
    """``pawnfence [FEN | --diagram ID | --playlist FILE]``: open the viewer."""
    p = argparse.ArgumentParser(
        prog="pawnfence",
        description="Open the pawnfence viewer (board editor and step-by-step animation). "
        f"Other commands: {', '.join(_COMMANDS)} (pawnfence COMMAND --help).",
    )
    p.add_argument("fen", nargs="*", help="open on this FEN")
    p.add_argument("--diagram", help="open on a diagram of the library (pawnfence diagrams)")
    p.add_argument("--playlist", help="step through the positions of an EPD file (N / P keys)")
    p.add_argument("--size", help="window size WxH, e.g. 1280x860")
    p.add_argument("--frames", type=int, help=argparse.SUPPRESS)  # tests: stop after N frames
    p.add_argument("--screenshot", help=argparse.SUPPRESS)  # tests: save the last frame
    p.add_argument("--version", action="version", version=f"pawnfence {logic.__version__}")
    return p


def _viewer(argv: Sequence[str], out: TextIO) -> int:
    args = build_viewer_parser().parse_args(argv)
    from viewer.app import has_display

    if not has_display():
        print("pawnfence: no display to open a window on (no DISPLAY or WAYLAND_DISPLAY).\n"
              "Draw a picture instead:  pawnfence render FEN --out board.png  "
              "(or --diagram ID, or FILE.gif for the steps).", file=sys.stderr)
        return 3
    try:
        board, caption = (_board_from_args(args.fen, args.diagram)
                          if args.fen or args.diagram else (None, ""))
        playlist = _read_playlist(args.playlist) if args.playlist else []
        size = tuple(int(x) for x in args.size.lower().split("x")) if args.size else None
        if size is not None and len(size) != 2:
            raise ValueError(f"--size must be WxH, got {args.size!r}")
    except (ValueError, OSError) as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from viewer.app import App
    from viewer.settings import load_settings

    settings = load_settings()
    if board is not None:
        settings.fen = board.fen()
    try:
        app = App(settings, caption=caption, size=size, playlist=playlist)
    except pygame.error as exc:
        print(f"pawnfence: cannot open a window ({exc}). Use: pawnfence render FEN --out "
              "board.png", file=sys.stderr)
        return 3
    if args.diagram:
        from logic.diagrams import get_diagram

        app.load_diagram(get_diagram(args.diagram))
    app.run(max_frames=args.frames)
    if args.screenshot:
        pygame.image.save(app.screen, args.screenshot)
    err = app.close()
    if err:
        print(f"pawnfence: {err}", file=sys.stderr)
    return 0


def _read_playlist(path: str) -> list[tuple[str, str, dict[str, object]]]:
    """``(name, fen, info)`` per EPD line (id, c0 category, other opcodes as info)."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for n, board, ops in iter_epd(fh):
            if isinstance(board, chess.Board):
                name = str(ops.pop("id", f"line {n}"))
                out.append((name, board.fen(), dict(ops)))
    if not out:
        raise ValueError(f"no positions in {path}")
    return out


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Entry point of the ``pawnfence`` console script; returns the exit status."""
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "help":
        argv = ["--help"]
    if not argv or (argv[0] not in _COMMANDS and argv[0] not in ("-h", "--help")):
        return _viewer(argv, out)
    parser = build_parser()
    args = parser.parse_args(argv)
    handlers = {"explain": _explain, "classify": _classify, "render": _render,
                "search": _search, "scan": _scan, "experiment": _experiment,
                "diagrams": lambda _args, o: _diagrams(o)}
    if args.command in handlers:
        return handlers[args.command](args, out)
    if args.command == "bench" and args.viewer:
        from viewer.bench import run_viewer_bench

        run_viewer_bench(out)
        return 0
    if args.command == "bench":
        from logic.bench import run_bench

        return run_bench(args, out)
    parser.print_help(out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
