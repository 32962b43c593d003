"""The ``pawnfence`` console entry point (the application layer).

``pawnfence [FEN | --diagram ID | --playlist FILE]`` opens the viewer; ``pawnfence
COMMAND`` runs a command: the library's headless ones (:mod:`logic.tools.commands`: explain,
classify, diagrams, search, scan, experiment, bench) and the application's own
(``render``, ``bench --viewer``).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import errno
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, TextIO

# The library is imported inside the functions: ``main`` then catches a Ctrl-C during
# its import (0.3 s and more on a loaded machine), which would otherwise end the
# process with a traceback and a death by SIGINT instead of one line and status 130.

__all__ = ["main", "console", "build_parser", "build_viewer_parser", "render_flipped"]


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose help and version text reach the output or fail loudly:
    argparse swallows an ``OSError`` writing them (a full device, a closed output) and
    exits 0; here the error propagates to :func:`main`, which says it in one line and
    exits 74.  The text is flushed before the exit, so a full device shows at once."""

    def _print_message(self, message: str, file: TextIO | None = None) -> None:
        if not message:
            return
        file = file if file is not None else sys.stderr
        if file is None:
            return
        file.write(message)
        file.flush()


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser for all subcommands."""
    import logic
    from logic.tools.commands import add_commands, add_exact_seconds, with_exact_memory
    from logic.tools.game_cmd import add_game_options
    from logic.tools.lesson_cmd import add_export_command

    p = _Parser(
        prog="pawnfence",
        description="Blockage detection in pawn endgames (David, Felner & Netanyahu 2004; "
        "the Chessprogramming wiki's king flood), made visible.",
        epilog="Without a command it opens the viewer: pawnfence [FEN] [--diagram ID] "
        "[--playlist FILE.epd] [--pgn FILE.pgn [--game N]] [--size WxH].",
    )
    p.add_argument("--version", action="version", version=f"pawnfence {logic.__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    parsers = add_commands(sub)
    r = sub.add_parser("render", help="draw a position's verdict to PNG, SVG, TikZ or LaTeX, "
                       "or its trace to a GIF")
    r.add_argument("fen", nargs="*", help="a FEN (or use --diagram)")
    r.add_argument("--diagram", help="a diagram id from the library (see 'pawnfence diagrams')")
    r.add_argument("--out", required=True,
                   help="FILE.png, FILE.svg, FILE.tikz or FILE.tex (the final verdict; .tikz: "
                   "the picture as a TikZ picture for LaTeX; .tex: a LaTeX chessboard diagram) "
                   "or FILE.gif (every step)")
    r.add_argument("--side", choices=["white", "black"], default="white")
    r.add_argument("--method", choices=list(logic.METHODS), default=logic.DEFAULT_METHOD)
    r.add_argument("--size", type=int, default=640,
                   help=f"the picture's width in pixels, {RENDER_SIZES[0]} to {RENDER_SIZES[1]}: "
                   "the board with its coordinates (text and legend scale with it)")
    r.add_argument("--flip", action="store_true", help="Black at the bottom")
    r.add_argument("--orientation", choices=["white", "black", "side"], default="white",
                   help="the side drawn at the bottom: white (the default), black, or side: "
                   "the side under test (--side), so that its \"below the fence\" is below "
                   "in the picture; with White at the bottom a figure of Black's verdict "
                   "says how to read its words")
    r.add_argument("--board-only", action="store_true",
                   help="the board and pieces only (no overlays, banner, legend, explanation)")
    for part in ("overlays", "banner", "legend", "explanation"):
        r.add_argument(f"--no-{part}", action="store_true", help=f"leave out the {part}")
    r.add_argument("--theme", choices=["light", "dark"], default="light",
                   help="the picture's colours: light (black on white, for print; the "
                   "default) or dark (the window's)")
    r.add_argument("--svg-text", choices=["paths", "fonts"], default="paths",
                   help="an SVG's text: paths (each character its glyph's outline: the same "
                   "in every renderer; the default) or fonts (text in the embedded subsets of "
                   "its fonts: editable, but renderers without web fonts substitute one)")
    r.add_argument("--stats", action="store_true",
                   help="give the exact prover's counts and time in the texts (they change "
                   "from run to run; without them the same command writes the same file)")
    r.add_argument("--speed", type=float, default=1.5,
                   help="GIF: steps per second (the frame time is 1/speed)")
    add_exact_seconds(r)
    r.set_defaults(run=with_exact_memory(_render))
    _add_report_commands(sub, parsers)
    add_game_options(parsers["explain"])
    add_export_command(sub)
    bench = parsers["bench"]
    bench.add_argument("--viewer", action="store_true",
                       help="time the viewer's frames (dummy video driver) instead")
    bench.set_defaults(run=_bench_or_viewer_bench(bench.get_default("run")))
    p.set_defaults(commands=tuple(sub.choices))
    return p


def _bench_or_viewer_bench(library_bench: Callable[[argparse.Namespace, TextIO], int]
                           ) -> Callable[[argparse.Namespace, TextIO], int]:
    """``bench``'s handler with ``--viewer`` (the frame bench) in front of the library's."""

    def run(args: argparse.Namespace, out: TextIO) -> int:
        if args.viewer:
            from logic.tools.bench import option_problem
            from viewer.window.bench import run_viewer_bench

            if why := option_problem(args):
                print(f"pawnfence {why}", file=sys.stderr)
                return 2

            run_viewer_bench(out)
            return 0
        return library_bench(args, out)

    return run


def _render(args: argparse.Namespace, out: TextIO) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from logic.tools.commands import board_from_args, exact_seconds_problem
    from viewer.figures.export import ExportError, render_to_file
    from viewer.model.state import ExportOptions

    only = args.board_only
    options = ExportOptions(args.size, *(not (only or getattr(args, f"no_{part}")) for part in
                                         ("overlays", "banner", "legend", "explanation")),
                            theme=args.theme, stats=args.stats,
                            svg_text=args.svg_text)
    try:
        if not 0.1 <= args.speed <= 50:
            raise ValueError(f"--speed must be from 0.1 to 50 steps per second, got {args.speed}")
        lo, hi = RENDER_SIZES
        if not lo <= args.size <= hi:
            raise ValueError(f"--size must be from {lo} to {hi} pixels, got {args.size}")
        if why := exact_seconds_problem(args):
            raise ValueError(why)
        board, caption = board_from_args(args.fen, args.diagram)
        if not args.stats:  # the same figure on any machine, idle or busy
            _work_clock()
        path = render_to_file(board, args.out, side=args.side == "white", method=args.method,
                              size=args.size, flipped=render_flipped(args),
                              caption=caption, options=options, speed=args.speed,
                              seconds=args.exact_seconds)
    except (ValueError, ExportError) as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    from logic.files import escaped

    out.write(f"wrote {escaped(str(path))}\n")  # a name that is not UTF-8 as escapes
    return 0


def _work_clock() -> None:
    """Give the exact prover a clock of work done (:class:`logic.exact.WorkClock`): its
    budget then buys the same work on any machine, so an exact figure is the same whatever
    the load (with ``--stats`` it runs on the wall clock and says the time it took)."""
    import logic
    from logic.exact import WorkClock

    logic.METHODS["exact"].clock = WorkClock


def render_flipped(args: argparse.Namespace) -> bool:
    """Whether ``render`` draws Black at the bottom (``--flip``, ``--orientation``)."""
    return args.flip or args.orientation == "black" or (
        args.orientation == "side" and args.side == "black")


def build_viewer_parser(commands: Sequence[str] = ()) -> argparse.ArgumentParser:
    """``pawnfence [FEN | --diagram ID | --playlist FILE | --pgn FILE]``: open the viewer."""
    from logic import __version__

    p = _Parser(
        prog="pawnfence",
        description="Open the pawnfence viewer (board editor and step-by-step animation). "
        f"Other commands: {', '.join(commands)} (pawnfence COMMAND --help).",
    )
    p.add_argument("fen", nargs="*", help="open on this FEN")
    p.add_argument("--diagram", help="open on a diagram of the library (pawnfence diagrams)")
    p.add_argument("--playlist", help="step through the positions of an EPD file (N / P keys)")
    p.add_argument("--case", type=int, default=1, metavar="N",
                   help="with --playlist: open on its N-th position (1 = the first)")
    p.add_argument("--pgn", metavar="FILE.pgn",
                   help="walk a game of a PGN file (plain or .gz) move by move: Left / Right, "
                   "the strip under the board shows every method at every ply")
    p.add_argument("--game", type=int, default=None, metavar="N",
                   help="with --pgn: open its N-th game (1 = the first)")
    p.add_argument("--size", help="window size WxH, e.g. 1280x860")
    p.add_argument("--exact-memory", metavar="SIZE",
                   help="the memory the exact prover may hold per side, e.g. 512M or 2G "
                   "(default: half the memory free at the proof's start)")
    p.add_argument("--frames", type=int, help=argparse.SUPPRESS)  # tests: stop after N frames
    p.add_argument("--screenshot", help=argparse.SUPPRESS)  # tests: save the last frame
    p.add_argument("--version", action="version", version=f"pawnfence {__version__}")
    return p


#: the board sizes ``render --size`` accepts, in pixels
RENDER_SIZES = (160, 4000)

#: the window sizes ``--size`` accepts
SIZE_RANGE = (200, 16384)


def parse_size(text: str) -> tuple[int, int]:
    """``"WxH"`` as two integers within :data:`SIZE_RANGE`; raises ``ValueError`` with a
    message naming ``--size`` and echoing the text (bounded)."""
    shown = text if len(text) <= 60 else text[:60] + "…"
    lo, hi = SIZE_RANGE
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() and len(p.strip()) <= 6 for p in parts) \
            or not all(lo <= int(p) <= hi for p in parts):
        raise ValueError(f"--size must be WxH with W and H whole numbers from {lo} to {hi}, "
                         f"got {shown!r}")
    return int(parts[0]), int(parts[1])


def _exact_memory(text: str) -> int:
    """``--exact-memory`` of the window: a size (:func:`logic.exact.parse_memory`); raises a
    ``ValueError`` naming the option and echoing the text."""
    from logic.exact import parse_memory

    try:
        return parse_memory(text)
    except ValueError as exc:
        raise ValueError(f"--exact-memory: {exc}") from None


def _viewer(argv: Sequence[str], commands: Sequence[str]) -> int:
    args = build_viewer_parser(commands).parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before pygame's import
    import logic
    from logic.position import read_playlist
    from logic.tools.commands import board_from_args

    try:  # the arguments first: a mistake is told whether or not there is a display
        board, caption = (board_from_args(args.fen, args.diagram)
                          if args.fen or args.diagram else (None, ""))
        playlist = read_playlist(args.playlist) if args.playlist else []
        if args.case < 1 or (playlist and args.case > len(playlist)) or \
                (args.case != 1 and not playlist):
            raise ValueError(f"--case must be from 1 to the playlist's {len(playlist)} "
                             f"positions (with --playlist), got {args.case}")
        games = _games(args)
        size = parse_size(args.size) if args.size else None
        if args.exact_memory is not None:
            logic.METHODS["exact"].max_bytes = _exact_memory(args.exact_memory)
    except (ValueError, OSError) as exc:
        print(f"pawnfence: {exc}{_command_hint(args.fen, commands)}", file=sys.stderr)
        return 2
    import pygame

    from viewer.window.display import has_display, unasked_headless

    if not has_display():
        return _no_display("no DISPLAY or WAYLAND_DISPLAY")
    try:
        pygame.display.init()
    except pygame.error as exc:
        print(f"pawnfence: cannot open a window ({exc}). Use: pawnfence render FEN --out "
              "board.png", file=sys.stderr)
        return 3
    if driver := unasked_headless():
        pygame.display.quit()
        where = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or ""
        return _no_display(f"the display {where!r} cannot be reached; only SDL's {driver} "
                           "driver, which shows nothing, started")

    from viewer.model.settings import load_settings_checked
    from viewer.window.app import App

    loaded = load_settings_checked()
    settings = loaded.settings
    if board is not None:
        settings.fen = board.fen()
    try:
        app = App(settings, caption=caption, size=size, playlist=playlist,
                  notices=loaded.problems, save=loaded.writable)
    except pygame.error as exc:
        print(f"pawnfence: cannot open a window ({exc}). Use: pawnfence render FEN --out "
              "board.png", file=sys.stderr)
        return 3
    if playlist and args.case != 1:
        app.state.load_playlist(args.case - 1)
    if args.diagram:
        from logic.diagrams import get_diagram

        app.state.load_diagram(get_diagram(args.diagram))
    if games is not None:
        from viewer.model.game import open_games

        open_games(app.state, games, (args.game or 1) - 1)
    app.run(max_frames=args.frames)
    if args.screenshot:
        pygame.image.save(app.screen, args.screenshot)
    err = app.close()
    if err:
        print(f"pawnfence: {err}", file=sys.stderr)
    return 0


def _games(args: argparse.Namespace) -> Any:
    """The games of ``--pgn`` (None without it), checked against ``--game``; raises
    ``ValueError`` (naming the file, the game and the move where it cannot be walked) or
    ``OSError``."""
    if args.pgn is None:
        if args.game is not None:
            raise ValueError("--game applies only with --pgn")
        return None
    if args.fen or args.diagram or args.playlist:
        raise ValueError("give a FEN, --diagram, --playlist or --pgn, not two of them")
    from logic.games import read_games

    games = read_games(args.pgn)
    n = 1 if args.game is None else args.game
    if not 1 <= n <= len(games):
        raise ValueError(f"--game must be from 1 to the {len(games)} game"
                         f"{'' if len(games) == 1 else 's'} of {games.source}, got {n}")
    games[n - 1]  # a game that cannot be walked is said here, before the window opens
    return games


def _no_display(why: str) -> int:
    """Say that no window can be shown (``why``) and how to draw a picture instead;
    returns the exit status 3."""
    print(f"pawnfence: no display to open a window on ({why}).\n"
          "Draw a picture instead:  pawnfence render FEN --out board.png  "
          "(or --diagram ID, or FILE.gif for the steps).", file=sys.stderr)
    return 3


def _command_hint(words: Sequence[str], commands: Sequence[str]) -> str:
    """A hint when the viewer's FEN was more likely a mistyped command (its first word
    has no ``/``): the commands there are."""
    if not words or "/" in words[0]:
        return ""
    near = difflib.get_close_matches(words[0], commands, n=1)
    guess = f" (did you mean '{near[0]}'?)" if near else ""
    return f"\n{words[0]!r} is not a command{guess}; commands: {', '.join(commands)}"


def console() -> int:
    """The ``pawnfence`` console script (and ``python -m viewer.cli``): :func:`main` on
    the process's arguments, owning its signals (see ``console`` there)."""
    return main(console=True)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, *,
         console: bool = False) -> int:
    """Run ``pawnfence`` with ``argv`` (default: the process's arguments); returns the
    exit status.

    Manners of a Unix tool: output into a closed pipe ends quietly (141, as if killed by
    SIGPIPE), an output error (a full disk, a closed standard output) is one line and
    74, Ctrl-C is one line and 130; no traceback.  With ``console`` (the console script
    only: it changes the process's signal handling) Ctrl-C is ignored once the outcome is
    known, so that a late one cannot kill the exit; in-process callers keep theirs."""
    if out is None and sys.stdout is None:
        if sys.stderr is not None:
            print("pawnfence: standard output is closed", file=sys.stderr)
        return 74
    out = out or sys.stdout
    # the console script: once the outcome is known, a Ctrl-C can only cut the
    # exit itself (the interpreter's finalization restores the default handler, and the
    # process would die by SIGINT after finishing its work): it is ignored from then on
    wind_down = _ignore_sigint if console else _nothing
    try:
        _import_library()
        status = _main(argv, out)
        out.flush()
        wind_down()
        return status
    except BrokenPipeError:
        wind_down()
        _quiet(out)
        return 141
    except KeyboardInterrupt:
        wind_down()
        print("\npawnfence: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        wind_down()
        if exc.filename is not None or exc.errno not in _OUTPUT_ERRNOS:
            raise
        _quiet(out)
        print(f"pawnfence: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 74


def _nothing() -> None:
    """No wind-down (``main`` called in-process, e.g. by tests: signals stay theirs)."""


def _import_library() -> None:
    """Import the library with Ctrl-C held back.  A KeyboardInterrupt raised inside the
    import of a C extension (NumPy's, python-chess's dependencies) marks the interpreter
    to die by SIGINT at exit even when ``main`` handles it (exit status -2, not 130); a
    Ctrl-C that comes meanwhile is raised once the import is done."""
    got: list[int] = []
    try:
        if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, None):
            raise ValueError("Ctrl-C is ignored (a background job): nothing to hold back")
        previous = signal.signal(signal.SIGINT, lambda *_: got.append(1))
    except ValueError:  # not the main thread, or ignored: signals are not ours to hold
        import logic.tools.commands  # noqa: F401
        return
    try:
        import logic.tools.commands  # noqa: F401
    finally:
        signal.signal(signal.SIGINT, previous)
    if got:
        raise KeyboardInterrupt


def _ignore_sigint() -> None:
    """Ignore further Ctrl-C for the rest of the process (its exit: closing pools and
    files), so that the exit status stays 130 instead of a death by SIGINT."""
    with contextlib.suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGINT, signal.SIG_IGN)


#: write errors that mean "the output is gone or full" (not a bug of ours)
_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EBADF, errno.EFBIG, errno.EDQUOT}


def _quiet(out: TextIO) -> None:
    """When ``out`` is the process's standard output, point it at /dev/null so that the
    interpreter's final flush of a broken or full stream raises nothing."""
    if out is not sys.__stdout__:
        return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())


def _main(argv: Sequence[str] | None, out: TextIO) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "help":
        argv = ["--help"]
    parser = build_parser()
    commands = parser.get_default("commands")
    if not argv or (argv[0] not in commands and argv[0] not in ("-h", "--help")):
        return _viewer(argv, commands)
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help(out)
        return 0
    return args.run(args, out)


# -- report: the page of a scan's findings ----------------------------------------------
def _add_report_commands(sub: Any, parsers: dict[str, Any]) -> None:
    """Add ``report RESULTS_DIR [--out FILE]`` to the console's subcommands and
    ``--report FILE`` to ``scan`` (the page written after the scan)."""
    r = sub.add_parser("report", help="write a scan's findings as one self-contained HTML "
                       "page (also while the scan runs, or after it was killed)")
    r.add_argument("results", help="the scan's output folder (its results.jsonl)")
    r.add_argument("--out", help="the HTML file (default RESULTS/report.html)")
    r.set_defaults(run=_report)
    scan = parsers["scan"]
    scan.add_argument("--report", metavar="FILE.html",
                      help="also write the findings as an HTML page (see 'pawnfence report')")
    scan_run = scan.get_default("run")

    def run(args: Any, out: IO[str]) -> int:
        status = scan_run(args, out)
        if status != 0 or not args.report:
            return status
        return _write(args.out, args.report, out)

    scan.set_defaults(run=run)


def _report(args: Any, out: IO[str]) -> int:
    return _write(args.results, args.out, out)


def _write(results: str, target: str | None, out: IO[str]) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from viewer.figures.report import ReportError, write_report

    try:
        stats = write_report(results, target)
    except ReportError as exc:
        print(f"pawnfence: {exc.strerror or exc}", file=sys.stderr)
        return 74 if exc.errno not in (0, 2) else 2
    skipped = f", {stats.skipped:,} damaged line(s) skipped" if stats.skipped else ""
    out.write(f"wrote {stats.path}: {stats.findings:,} findings of {stats.results:,} results"
              f"{skipped}, {stats.bytes / 1e6:.1f} MB in {stats.seconds:.1f} s\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(console())
