"""``pawnfence export --pgn LESSON.pgn [FEN ... | --diagram ID ... | --playlist FILE]``: a
lesson as one PGN file, a chapter per position (:mod:`logic.pgn_export`), for a Lichess
study (study → add chapter → PGN), ChessBase or any PGN reader.

:func:`add_sources` and :func:`positions_from_args` are the position sources every
lesson writer shares: FENs, ``--diagram ID`` (repeatable; ``all``: the library), a
``--playlist`` EPD file; none of them: the whole library.  The exact prover's lines are
found on a clock of work done (:class:`logic.exact.WorkClock`), so the same command
writes the same file on any machine.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path
from typing import TextIO

import logic
from logic.files import escaped
from logic.lessons import SIDE_CHOICES, LessonPosition, lesson_positions
from logic.pgn_export import LICHESS, Chapter, LessonError, write_lesson

__all__ = ["add_sources", "positions_from_args", "add_export_command", "EXPORT_SECONDS",
           "target_problem"]

#: the exact prover's budget per side in an export (seconds of work: see the module)
EXPORT_SECONDS = 2.0


def add_sources(parser: argparse.ArgumentParser) -> None:
    """The position sources of a lesson: FENs, ``--diagram`` (repeatable), ``--playlist``,
    ``--side`` and ``--method``."""
    parser.add_argument("fen", nargs="*", help="positions as FEN (quote each one); none of "
                        "FEN, --diagram, --playlist: the whole diagram library")
    parser.add_argument("--diagram", action="append", default=[], metavar="ID",
                        help="a diagram of the library (repeat it for more; 'all': every "
                        "one; see 'pawnfence diagrams')")
    parser.add_argument("--playlist", metavar="FILE.epd",
                        help="every position of an EPD file (a scan's suspects.epd: each on "
                        "its own side and method)")
    parser.add_argument("--side", choices=SIDE_CHOICES, default="auto",
                        help="the side a FEN is about (auto: the side with more pawns); a "
                        "diagram is about the side its source names")
    parser.add_argument("--method", choices=list(logic.METHODS), default=None,
                        help=f"the method whose verdict each position shows (default "
                        f"{logic.DEFAULT_METHOD}; a scan's suspect: its own)")


def positions_from_args(args: argparse.Namespace) -> list[LessonPosition]:
    """The positions :func:`add_sources`' arguments name; raises ``ValueError`` or
    ``OSError`` naming what cannot be read."""
    return lesson_positions(fens=[" ".join(args.fen)] if args.fen else (),
                            diagrams=args.diagram, playlist=args.playlist, side=args.side,
                            method=args.method)


def add_export_command(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``export`` to the console's subcommands; returns its parser."""
    from logic.tools.commands import seconds_arg

    x = sub.add_parser("export", help="write a lesson as one PGN file: a chapter per position "
                       "with its verdict, the fence as Lichess shapes and the exact line "
                       "(import: Lichess study, add chapter, PGN)")
    x.add_argument("--pgn", required=True, metavar="LESSON.pgn", help="the PGN file to write")
    add_sources(x)
    x.add_argument("--exact-seconds", type=seconds_arg, default=EXPORT_SECONDS,
                   help=f"the exact prover's budget per position, in seconds of work "
                   f"(default {EXPORT_SECONDS:g}: the same file on any machine)")
    x.add_argument("--no-exact", action="store_true",
                   help="leave out the exact prover (no line, no exact verdict)")
    x.add_argument("--study", default="pawnfence",
                   help="the study's name, before each chapter's in its Event tag")
    x.set_defaults(run=_export)
    return x


def target_problem(target: Path, inputs: list[Path]) -> str:
    """Why ``target`` may not be written ("" when it may): it is a folder, a device or a
    FIFO, or one of ``inputs``."""
    try:
        st = os.stat(target)
    except OSError:
        return ""
    if not stat.S_ISREG(st.st_mode):
        return f"{escaped(str(target))} is not a regular file: not replaced"
    for path in inputs:
        try:
            if os.path.samefile(path, target):
                return f"{escaped(str(target))} is an input of this command: not replaced"
        except OSError:
            continue
    return ""


def _export(args: argparse.Namespace, out: TextIO) -> int:
    target = Path(args.pgn)
    if target.suffix.lower() != ".pgn":
        print(f"pawnfence: --pgn must name a .pgn file, got {escaped(args.pgn)!r}",
              file=sys.stderr)
        return 2
    inputs = [Path(args.playlist)] if args.playlist else []
    if why := target_problem(target, inputs):
        print(f"pawnfence: {why}", file=sys.stderr)
        return 2
    try:
        positions = positions_from_args(args)
    except OSError as exc:
        print(f"pawnfence: cannot read {escaped(str(exc.filename or args.playlist))}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    from logic.exact import WorkClock

    exact = logic.METHODS["exact"]
    clock, exact.clock = exact.clock, WorkClock  # type: ignore[attr-defined]
    try:
        chapters = [Chapter(p, exact=not args.no_exact, exact_seconds=args.exact_seconds)
                    for p in positions]
        path = write_lesson(target, chapters, args.study)
    except LessonError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"pawnfence: cannot write {escaped(str(target))}: {exc.strerror or exc}",
              file=sys.stderr)
        return 74
    finally:
        exact.clock = clock  # type: ignore[attr-defined]
    n = len(chapters)
    out.write(f"wrote {escaped(str(path))}: {n} chapter{'' if n == 1 else 's'} "
              "(Lichess: study, add chapter, PGN)\n")
    if n > LICHESS.chapters:
        print(f"pawnfence: a Lichess study holds {LICHESS.chapters} chapters; this lesson has "
              f"{n}: import it into {-(-n // LICHESS.chapters)} studies", file=sys.stderr)
    return 0

