"""What a budget of N seconds costs the exact prover in memory: the peak resident size of
``explain --method exact --exact-seconds N`` (both sides, with the trace and the line) on
a few of the paper's diagrams, as a Markdown table.

    python benchmarks/exact_memory.py [--diagrams paper-1,paper-13,paper-3]
                                      [--seconds 2,10,30] [--wall]

Each (diagram, budget) runs in a fresh process on a cold cache, so that its peak
(``ru_maxrss`` of that process) is its own; "growth" is that peak less the process's
resident size before the proofs (the interpreter and the library).  The prover's time is
read from its work clock (:class:`logic.exact.WorkClock`: seconds of work as an idle
two-core machine does them), so the figures do not depend on the machine's load;
``--wall`` reads the wall clock instead, as ``explain`` does.  Every proof runs under the
default memory budget (half the memory free at its start).  ``doc_tables.py exact-memory``
keeps the table in the manual.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DIAGRAMS = ("paper-1", "paper-13", "paper-3")
SECONDS = (2.0, 10.0, 30.0)


def _rss() -> int:
    """This process's resident size now (bytes), from ``/proc/self/status``."""
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def one(diagram: str, seconds: float, wall: bool) -> dict[str, Any]:
    """Both sides of ``diagram`` proved as ``explain`` proves them (traced, with the
    line), ``seconds`` a side: their statuses, structures and positions, and the
    resident size before the proofs."""
    import chess

    import logic
    from logic.diagrams import get_diagram
    from logic.exact import EXACT, WorkClock, default_memory

    board = get_diagram(diagram).board()
    if not wall:
        EXACT.clock = WorkClock
    before = _rss()
    budget = default_memory()
    sides = []
    for color in (chess.WHITE, chess.BLACK):
        v = logic.detect(board, color, method="exact", trace=True, seconds=seconds)
        r = v.detail.result
        sides.append({"status": r.status, "ran_out": r.ran_out, "structures": r.structures,
                      "nodes": r.nodes, "ms": r.ms})
    return {"before": before, "budget": budget, "sides": sides}


def measure(diagram: str, seconds: float, wall: bool) -> dict[str, Any]:
    """:func:`one` in a fresh process, with that process's peak resident size."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--one", diagram, str(seconds)]
    if wall:
        argv.append("--wall")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    env.pop("PAWNFENCE_EXACT_MEMORY", None)
    with subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env) as p:
        assert p.stdout is not None
        out = p.stdout.read()
        _pid, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{diagram} at {seconds:g} s failed (status {p.returncode})")
    row = json.loads(out)
    row["peak"] = usage.ru_maxrss * 1024  # Linux: kilobytes
    return row


def _mb(n: float) -> str:
    return f"{n / 2**20:,.0f} MB"


def _status(side: dict[str, Any]) -> str:
    if side["status"] == "unknown":
        return f"unknown — {side['ran_out'] or 'undecided'}"
    return side["status"]


def table(rows: list[tuple[str, float, dict[str, Any]]]) -> str:
    """The Markdown table of the measurements."""
    lines = ["| diagram | seconds a side | White / Black | structures solved | positions "
             "searched | peak resident | growth |", "|---|---|---|---|---|---|---|"]
    for diagram, seconds, m in rows:
        w, b = m["sides"]
        growth = max(0, m["peak"] - m["before"])
        lines.append(f"| `{diagram}` | {seconds:g} | {_status(w)} / {_status(b)} | "
                     f"{w['structures']:,} / {b['structures']:,} | "
                     f"{w['nodes']:,} / {b['nodes']:,} | {_mb(m['peak'])} | {_mb(growth)} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--diagrams", default=",".join(DIAGRAMS))
    ap.add_argument("--seconds", default=",".join(f"{s:g}" for s in SECONDS))
    ap.add_argument("--wall", action="store_true", help="the wall clock, not the work clock")
    ap.add_argument("--one", nargs=2, metavar=("DIAGRAM", "SECONDS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one[0], float(args.one[1]), args.wall)))
        return 0
    rows = [(d, float(s), measure(d, float(s), args.wall))
            for s in args.seconds.split(",") for d in args.diagrams.split(",")]
    clock = "the wall clock" if args.wall else "the work clock (an idle machine's seconds)"
    print(f"`explain --method exact --exact-seconds N`, both sides, each (diagram, N) in a "
          f"fresh process on a cold cache, the prover's time by {clock}; the default memory "
          f"budget was {_mb(rows[0][2]['budget'])} a proof.\n")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
