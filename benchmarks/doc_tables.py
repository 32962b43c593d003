"""Write the manual's tables (``docs/tables/NAME.md``): every figure in the docs comes
from here.

    python benchmarks/doc_tables.py                  # the quick tables (seconds)
    python benchmarks/doc_tables.py NAME [NAME ...]  # those tables, quick or long
    python benchmarks/doc_tables.py --list           # every table, its command and cost

Two kinds of table:

* **built** tables (``keys``, ``mouse``, ``actions``, ``methods``, ``rules``, ``library``,
  ``cli``) are computed in this process from the code itself (the viewer's action table,
  the method registry, the diagram library and its verdicts, the argparse parsers).  They do
  not depend on the machine; ``tests/test_docs.py`` builds them and compares them with
  the checked-in files.
* **measured** tables run a command (a script of ``benchmarks/`` or a ``pawnfence``
  subcommand) and keep its Markdown output (any other output goes in a text block), under
  a line naming the command and the machine kind.  Some take minutes to hours
  (``--list`` says which); their checked-in files carry the figures of their last run.

Run from the project root.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "docs" / "tables"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

#: the first line of every generated table file
MARK = "<!-- written by benchmarks/doc_tables.py; do not edit by hand -->"
SHARED = "../shared/corpora"
PY = "python"


def machine_kind() -> str:
    """This machine in a few words, e.g. ``"2-core x86_64 (Linux)"``."""
    return f"{os.cpu_count()}-core {platform.machine()} ({platform.system()})"


def page(body: str, command: str, machine: str) -> str:
    """A table file: the mark, ``body`` and the line that says how it was made."""
    return f"{MARK}\n\n{body.rstrip()}\n\n*Made by `{command}` on {machine}.*\n"


def md_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table (``|`` in cells escaped)."""
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
    return "\n".join([line(header), "|" + "---|" * len(header), *map(line, rows)])


# ---------------------------------------------------------------- built tables

def build_keys() -> str:
    """The help overlay's key lines, from ``viewer.model.actions`` (the one action table)."""
    from viewer.model.actions import help_lines

    return md_table(["keys", "what they do"], [[f"`{k}`", w] for k, w in help_lines()])


def build_mouse() -> str:
    """The help overlay's mouse lines (``viewer.window.gesture.GESTURE_HELP``)."""
    from viewer.window.gesture import GESTURE_HELP

    return md_table(["mouse", "what it does"], [[k, w] for k, w in GESTURE_HELP])


def build_actions() -> str:
    """Every action of the table: its name, button label and keys."""
    from viewer.model.actions import ACTIONS, KEYS, key_caption

    rows = [[f"`{a.name}`", a.label or "–", " / ".join(f"`{key_caption(k)}`"
                                                      for k in KEYS.get(a.name, ())) or "–"]
            for a in ACTIONS.values()]
    return md_table(["action", "button", "keys"], rows)


def build_methods() -> str:
    """The method registry (``logic.METHODS``)."""
    import logic

    rows = [[f"`{name}`", m.label, m.title, "yes" if m.static else "no (a proof per side)"]
            for name, m in logic.METHODS.items()]
    return md_table(["name", "menu label", "source", "cheap enough for every search node"],
                    rows)


def build_rules() -> str:
    """Every rule a verdict can cite, with its heading: the shared ones, then each method's
    own (``Method.rules``), in the registry's order."""
    import logic

    rows = [[f"`{r}`", "every method", r.heading] for r in logic.SharedRule]
    rows += [[f"`{r}`", f"`{m.name}`", r.heading] for m in logic.METHODS.values()
             for r in m.rules]
    return md_table(["rule", "introduced by", "heading"], rows)


def _cell(verdict: object) -> str:
    blocked = getattr(verdict, "blocked", False)
    rule = getattr(verdict, "rule", "")
    return f"**blocked** ({rule})" if blocked else f"no ({rule})"


def build_library() -> str:
    """Each library diagram: the verdicts its source states and each static method's
    verdict for both sides."""
    import chess

    import logic
    from logic.diagrams import load_diagrams

    methods = list(logic.STATIC_METHODS)
    header = ["diagram", "source", "stated by the source",
              *(f"{m}: {side}" for m in methods for side in ("White", "Black"))]
    rows = []
    for d in load_diagrams():
        board = d.board()
        stated = [f"{name}: {'White' if e.side else 'Black'} "
                  f"{'blocked' if e.blocked else 'open' if e.blocked is False else 'n/a'}"
                  f" ({e.rule})" for name, e in d.expect.items() if e is not None]
        cells = [_cell(logic.detect(board, color, method=m))
                 for m in methods for color in (chess.WHITE, chess.BLACK)]
        rows.append([f"`{d.id}`", d.source, "; ".join(stated) or "–", *cells])
    return md_table(header, rows)


def _help_of(parser: argparse.ArgumentParser, argv: list[str]) -> str:
    """What ``argv`` (ending in ``--help``) prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        parser.parse_args(argv)
    return out.getvalue()


def build_cli() -> str:
    """``--help`` of the console and every subcommand, at 100 columns."""
    from viewer.cli import build_parser, build_viewer_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        parser = build_parser()
        parts = [("pawnfence (the window)", build_viewer_parser().format_help()),
                 ("pawnfence --help", parser.format_help())]
        parts += [(f"pawnfence {name}", _help_of(parser, [name, "--help"]))
                  for name in parser.get_default("commands")]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return "\n\n".join(f"### `{title}`\n\n```text\n{text.rstrip()}\n```" for title, text in parts)


def build_commands() -> str:
    """Every table of the docs: its file, the command that writes it and its cost."""
    rows = [[f"`tables/{name}.md`", f"`python benchmarks/doc_tables.py {name}`",
             "seconds (built from the code)"] for name in BUILT_NAMES]
    rows += [[f"`tables/{name}.md`", f"`{command_text(m.argv)}`", m.cost]
             for name, m in MEASURED.items()]
    return md_table(["table", "command", "takes"], rows)


class Built(NamedTuple):
    """A table computed from the code."""

    build: Callable[[], str]
    command: str


BUILT_NAMES = ("keys", "mouse", "actions", "methods", "rules", "library", "cli", "commands")
BUILT: dict[str, Built] = {
    name: Built(build=fn, command=f"python benchmarks/doc_tables.py {name}")
    for name, fn in (("keys", build_keys), ("mouse", build_mouse), ("actions", build_actions),
                     ("methods", build_methods), ("rules", build_rules),
                     ("library", build_library),
                     ("cli", build_cli), ("commands", build_commands))
}
#: what a built table says about the machine: nothing depends on it
ANY_MACHINE = "any machine (the table is computed from the code, not measured)"


def built_page(name: str) -> str:
    """The file text of built table ``name``."""
    table = BUILT[name]
    return page(table.build(), table.command, ANY_MACHINE)


# ---------------------------------------------------------------- measured tables

class Measured(NamedTuple):
    """A table a command measures: ``argv`` (run from the root), a rough ``cost``."""

    argv: tuple[str, ...]
    cost: str


_CLI = (PY, "-m", "viewer.cli")
_MASTER = tuple(f"{SHARED}/{n}.epd" for n in (
    "lichess-pawn-endings", "d3chess-pawn-only", "master-pawn-endings-drawn",
    "master-pawn-endings-decisive", "master-pawn-endings-all"))

MEASURED: dict[str, Measured] = {
    "corpus-recognition": Measured((PY, "benchmarks/report.py"), "under a minute"),
    "kpk-rules": Measured((PY, "benchmarks/kpk_report.py"), "about a minute"),
    "exact-syzygy": Measured((PY, "benchmarks/exact_syzygy_report.py", "1000"),
                             "about an hour"),
    "outcome": Measured((PY, "benchmarks/outcome_sweep.py", "--jobs", "2"),
                        "about 30 minutes on two cores"),
    "exact-restricted-syzygy": Measured((PY, "benchmarks/exact_syzygy_report.py", "1000",
                                         "guard", "levers"), "about 5 minutes"),
    "extended-rules": Measured((PY, "benchmarks/extended_sweep.py", "rules", "--count",
                                "200000", "--shut-in", "10000", "--seconds", "2"),
                               "about 10 minutes on two cores"),
    "extended-recall": Measured((PY, "benchmarks/extended_sweep.py", "recall", "--seconds",
                                 "3"), "about 30 minutes"),
    "exact-speed": Measured((*_CLI, "bench", "--exact", *_MASTER, "--exact-sets", "built-in",
                             *(Path(f).stem for f in _MASTER), "--exact-seconds", "10",
                             "--sample", "40", "--jobs", "2"), "about 15 minutes on two cores"),
    "exact-claims": Measured((*_CLI, "bench", "--exact", *_MASTER, "--exact-sets",
                              "heuristic-blocked", "extended-only-blocked", "--exact-seconds",
                              "10", "--jobs", "2"), "about 15 minutes on two cores"),
    "exact-memory": Measured((PY, "benchmarks/exact_memory.py"), "about 10 minutes"),
    "exact-master-drawn": Measured((PY, "benchmarks/exact_bench.py", "master", "--seconds",
                                    "10", "--jobs", "2"), "about 2 hours"),
    "horizon": Measured((PY, "benchmarks/horizon.py", "--sample", "120", "--jobs", "2"),
                        "about 10 minutes on an idle two-core machine"),
    "table1-drawn": Measured((*_CLI, "experiment", f"{SHARED}/master-pawn-endings-drawn.epd",
                              "--time", "0.5", "--exact", "0.5", "--jobs", "1",
                              "--markdown", "--quiet", "--out", "build/table1-drawn"),
                             "about 2 hours"),
    "table1-decisive": Measured((*_CLI, "experiment",
                                 f"{SHARED}/master-pawn-endings-decisive.epd", "--time",
                                 "0.5", "--exact", "0.5", "--jobs", "1", "--markdown",
                                 "--quiet", "--out", "build/table1-decisive"),
                                "about 1.5 hours"),
    "scan-master": Measured((PY, "benchmarks/scan_table.py"), "about 5 to 10 minutes"),
    "report": Measured((PY, "benchmarks/report_bench.py", "--engine", "/usr/games/stockfish"),
                       "about 10 minutes (the scan) and 3 minutes (the reports)"),
    "engine-appendix": Measured((PY, "benchmarks/engine_table.py", "--exact-seconds", "10",
                                 "--times", "1,10", "--scan", "scan-out/results.jsonl",
                                 "--scan-limit", "30"), "about 30 minutes"),
    "experiment-set": Measured((*_CLI, "experiment", "--time", "0.5", "--jobs", "1",
                                "--markdown", "--quiet", "--out", "build/experiment-set"),
                               "about 5 minutes"),
    "speed": Measured((*_CLI, "bench"), "about a minute"),
    "scan-speed": Measured((*_CLI, "bench", "--scan", "tests/data/scan/selfplay.pgn.gz"),
                           "about a minute"),
    "search-overhead": Measured((*_CLI, "bench", "--search", "0.5"), "about 10 minutes"),
    "viewer-speed": Measured((*_CLI, "bench", "--viewer"), "about a minute"),
    "search-instructions": Measured((PY, "benchmarks/search_instructions.py"),
                                    "about 10 minutes (needs valgrind)"),
    "faults": Measured((PY, "benchmarks/fault_campaign.py", "--seed", "18"),
                       "about 10 minutes"),
    "faults-new": Measured((PY, "benchmarks/fault_campaign.py", "--seed", "18",
                            *(w for f in ("shared-files", "display", "dask-silent",
                                          "pool-kill", "names", "small")
                              for w in ("--family", f))), "about 3 minutes"),
}
#: the measured tables run by default (each well under five minutes here)
QUICK_MEASURED = ("corpus-recognition", "kpk-rules")


def command_text(argv: tuple[str, ...]) -> str:
    """A measured table's command as a person types it (``pawnfence`` for the console)."""
    words = list(argv)
    if words[:3] == list(_CLI):
        words = ["pawnfence", *words[3:]]
    return " ".join(words)


def as_markdown(output: str) -> str:
    """A command's output for the docs: runs of Markdown table lines as they are, runs of
    other lines in text blocks, blank lines between them; a blank line in the output
    also ends a run (two tables one after the other stay two tables)."""
    blocks: list[tuple[bool, list[str]]] = []
    fresh = True  # the next line starts a block
    for line in output.splitlines():
        if not line.strip():
            fresh = True
            continue
        is_table = line.startswith("|")
        if fresh or blocks[-1][0] != is_table:
            blocks.append((is_table, []))
        blocks[-1][1].append(line)
        fresh = False
    return "\n\n".join("\n".join(lines) if is_table else "```text\n" + "\n".join(lines)
                       + "\n```" for is_table, lines in blocks)


def run_measured(name: str, note: str = "") -> str:
    """Run measured table ``name``'s command; its file text (``note``: words on the
    machine's state, e.g. its load, after its kind)."""
    table = MEASURED[name]
    argv = [sys.executable if word == PY else word for word in table.argv]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True)
    machine = f"{machine_kind()}, {note}" if note else machine_kind()
    return page(as_markdown(done.stdout), command_text(table.argv), machine)


def write(name: str, note: str = "") -> Path:
    """Write table ``name`` (built or measured) to ``docs/tables/NAME.md``."""
    text = built_page(name) if name in BUILT else run_measured(name, note)
    TABLES.mkdir(parents=True, exist_ok=True)
    path = TABLES / f"{name}.md"
    path.write_text(text, encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="tables to write (default: the quick ones)")
    ap.add_argument("--list", action="store_true", help="list the tables and their commands")
    ap.add_argument("--note", default="", help="the machine's state for the measured tables, "
                    "e.g. 'both cores shared with other jobs'")
    args = ap.parse_args(argv)
    if args.list:
        for name in BUILT:
            print(f"{name:22s} built from the code (seconds)")
        for name, m in MEASURED.items():
            print(f"{name:22s} {m.cost}: {command_text(m.argv)}")
        return 0
    names = args.names or [*BUILT, *QUICK_MEASURED]
    unknown = [n for n in names if n not in BUILT and n not in MEASURED]
    if unknown:
        ap.error(f"unknown table(s) {', '.join(unknown)}; see --list")
    for name in names:
        with contextlib.redirect_stdout(io.StringIO()):
            path = write(name, args.note)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
