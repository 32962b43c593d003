"""The fault campaign's harness, shared by the fault tests (``tests/test_faults.py``,
``tests/test_viewer_faults.py``) and the longer sweep (``benchmarks/fault_campaign.py``):
running the command line, finding processes left behind, and the damaged inputs the
campaign found bugs with (issues 16 and 18)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

__all__ = ["ROOT", "SCAN_DATA", "WIKI", "D16", "ENV", "cli", "processes", "MALFORMED_PGNS",
           "DAMAGED_LINES", "DAMAGED_SETTINGS", "TRACEBACK_MARKERS"]

ROOT = Path(__file__).resolve().parent.parent
SCAN_DATA = Path(__file__).resolve().parent / "data" / "scan"
WIKI = "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1"
D16 = "5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - - 0 1"
#: the environment of a command run from the tests: this checkout first on the path, and the
#: interpreter the fake UCI engines run under (it has python-chess)
ENV = dict(os.environ, PYTHONPATH=str(ROOT),
           PAWNFENCE_PYTHON=os.environ.get("PAWNFENCE_PYTHON", sys.executable))
#: what a crash of the interpreter leaves on standard error
TRACEBACK_MARKERS = ("Traceback (most recent call last)", "Fatal Python error",
                     "Segmentation fault")


def cli(*args: str, stdin: object = subprocess.DEVNULL, timeout: float = 60,
        stdout: object = subprocess.PIPE, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess:
    """Run ``python -m viewer.cli ARGS`` from the project root (text output)."""
    return subprocess.run([sys.executable, "-m", "viewer.cli", *args], cwd=ROOT,
                          env=env or ENV, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def processes(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line contains ``marker``."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{d}/cmdline").read_bytes()
            state = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmd and state != "Z":
            out.append(int(d))
    return out


#: games python-chess fails inside (``IndexError`` in ``visit_nag``, unbalanced variations)
MALFORMED_PGNS = ["g1)?", "Ke6# ) e4", "1. e4 $ 2. e5", "1. e4 (", "[Event \"x\"]\n\n1. e4 )) *"]

#: lines of a ``results.jsonl`` that are not results: wrong JSON types, missing or mistyped
#: keys, a torn line, nesting deeper than the parser's recursion limit
DAMAGED_LINES = ['"just a string"', "[1, 2, 3]", "42", "null", '{"key": "k"}',
                 '{"key": "k", "fen": "8/8", "source": {}, "verdicts": {}, "categories": []}',
                 '{"key": 1, "fen": 2, "source": [], "verdicts": 0, "categories": "x"}',
                 "{not json", "[" * 100_000]

#: damaged ``settings.json`` contents: deep nesting, an impossible window, not an object
DAMAGED_SETTINGS = {
    "nested": "[" * 100_000 + "]" * 100_000,
    "huge": '{"width": 100000, "height": 100000}',
    "not-an-object": "[1, 2, 3]",
    # integers too large for a float where a float goes (float() raised OverflowError)
    "huge-number": '{"speed": 1' + "0" * 400 + ', "search_seconds": ' + "9" * 400 + "}",
}
