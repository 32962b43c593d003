"""The console's ``report`` command and ``scan --report``: argument parsing only; the
page is :mod:`viewer.report`'s, imported when a report is written (pygame and the
drawing code stay out of every other command's start)."""

from __future__ import annotations

import sys
from typing import IO, Any

__all__ = ["add_report_commands"]


def add_report_commands(sub: Any, parsers: dict[str, Any]) -> None:
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
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from viewer.report import ReportError, write_report

    try:
        stats = write_report(results, target)
    except ReportError as exc:
        print(f"pawnfence: {exc.strerror or exc}", file=sys.stderr)
        return 74 if exc.errno not in (0, 2) else 2
    skipped = f", {stats.skipped:,} damaged line(s) skipped" if stats.skipped else ""
    out.write(f"wrote {stats.path}: {stats.findings:,} findings of {stats.results:,} results"
              f"{skipped}, {stats.bytes / 1e6:.1f} MB in {stats.seconds:.1f} s\n")
    return 0
