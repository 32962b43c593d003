"""The judged scan of the 85,007 master-game positions as a Markdown table.

    python benchmarks/scan_table.py                         # scan, then print the table
    python benchmarks/scan_table.py --read build/scan-out   # the table of a finished run

The scan is ``pawnfence scan ../shared/corpora/master-pawn-endings-all.epd --judge exact
--exact-seconds 2 --jobs 1 --out build/scan-out`` (resumable: a killed run repeats nothing).
The table is its ``summary.json``: per static method the sides it calls blocked, how many
exact refutes (must be 0), confirms and leaves unknown; then the disagreements between
methods and exact's unknown rate.  Run from the project root.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = "../shared/corpora/master-pawn-endings-all.epd"


def table(summary: dict[str, Any]) -> str:
    """The Markdown of a judged scan's ``summary.json``."""
    judge = summary["judge"]
    lines = [f"{judge['positions']:,} positions; exact at {judge['seconds']:g} s a side judged "
             f"the {judge['judged_sides']:,} sides some method calls blocked; "
             f"{summary['seconds']:,.0f} s, {summary['positions_per_second']:,.0f} "
             f"positions/s with {summary['jobs']} job(s)", "",
             "| method | claims \"blocked\" | false positives (exact breaks) "
             "| confirmed by exact | unknown |",
             "|---|---|---|---|---|"]
    for name, m in judge["methods"].items():
        lines.append(f"| {name} | {m['claims']:,} | **{m['false_positives']}** "
                     f"| {m['confirmed']:,} | {m['unknown']:,} |")
    pairs = ", ".join(f"{k} {v:,}" for k, v in judge["disagreements"].items())
    rate = judge.get("exact_unknown_rate") or 0.0
    lines += ["", f"Sides where two methods disagree: {pairs}.",
              f"Exact left {judge['exact']['unknown']:,} of {judge['judged_sides']:,} judged "
              f"sides unknown ({100 * rate:.1f} %)."]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--read", metavar="DIR", help="print the table of a finished scan in DIR")
    ap.add_argument("--out", default="build/scan-out",
                    help="the scan's folder (default build/scan-out)")
    ap.add_argument("--exact-seconds", default="2")
    args = ap.parse_args(argv)
    folder = Path(args.read or args.out)
    if not args.read:
        subprocess.run([sys.executable, "-m", "viewer.cli", "scan", CORPUS, "--judge", "exact",
                        "--exact-seconds", args.exact_seconds, "--jobs", "1", "--out",
                        str(folder)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    summary = json.loads((ROOT / folder / "summary.json").read_text(encoding="utf-8"))
    print(table(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
