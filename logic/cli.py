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
from logic.position import PositionError, parse_epd_line
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

    b = sub.add_parser("bench", help="detector throughput beside python-chess's FEN parse")
    b.add_argument("--rounds", type=int, default=7, help="timing rounds (best is reported)")
    b.add_argument("--file", help="EPD/FEN file to time instead of the built-in set")
    b.add_argument("--json", action="store_true")
    return p


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    fen = " ".join(args.fen)
    try:
        board, _ops = parse_epd_line(fen)
    except PositionError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    verdicts = [logic.detect(board, c, method=args.method, trace=True) for c in _SIDES[args.side]]
    if args.json:
        json.dump({"fen": board.fen(), "verdicts": [v.to_dict() for v in verdicts]}, out, indent=1)
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
    return 0


def classify_lines(lines: Iterator[str], method: str) -> Iterator[dict[str, object]]:
    """One JSON-ready object per non-blank, non-comment line; errors become
    ``{"line": N, "error": ...}`` and the run goes on."""
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board, ops = parse_epd_line(line)
            obj: dict[str, object] = {"id": ops.get("id"), "fen": board.fen()}
            for color in (chess.WHITE, chess.BLACK):
                v = logic.detect(board, color, method=method)
                side: dict[str, object] = {"blocked": v.blocked, "rule": v.rule}
                if v.status != "ok":
                    side["status"] = v.status
                    side["reason"] = v.reason
                obj[chess.COLOR_NAMES[color]] = side
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


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Entry point of the ``pawnfence`` console script; returns the exit status."""
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "explain":
        return _explain(args, out)
    if args.command == "classify":
        return _classify(args, out)
    if args.command == "bench":
        from logic.bench import run_bench

        return run_bench(args, out)
    parser.print_help(out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
