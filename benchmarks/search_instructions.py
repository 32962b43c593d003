"""The search's detection overhead counted in machine instructions, not seconds: a
cross-check of ``pawnfence bench --search`` that a busy machine cannot disturb.

Each setting (detection off, then each static method) searches the same positions of
``assets/experiment.epd`` (the first ``--positions`` that no method blocks at the root,
the set ``bench --search`` uses) to one fixed depth on cold caches, in its own Python
process under Valgrind's callgrind; a run of the same script at depth 1 measures the
start-up (imports, loading and filtering the positions), which is subtracted.  The
overhead of a method is its extra instructions over "off" in percent.  About ten
minutes (callgrind runs Python some fifty times slower).

    python benchmarks/search_instructions.py [--depth 15] [--positions 6]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import logic  # noqa: E402

CHILD = """
import sys
import chess
import logic
from logic.tools.bench import asset_path, load_boards
from logic.search import Searcher, from_board
setting, depth, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
boards = [b for b in load_boards(asset_path("experiment.epd"), unique=True)
          if not any(logic.detect(b, c, method=m).blocked
                     for m in logic.STATIC_METHODS for c in chess.COLORS)][:count]
nodes = 0
for board in boards:
    logic.clear_cache()
    searcher = Searcher(blockage=setting != "off",
                        method="paper" if setting == "off" else setting)
    nodes += searcher.search(from_board(board), depth=depth).nodes
print("nodes", nodes)
"""


def instructions(setting: str, depth: int, count: int) -> tuple[int, int]:
    """(instructions, nodes) of one child run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, "-c", CHILD, setting, str(depth), str(count)],
            capture_output=True, text=True, check=True, cwd=ROOT)
    ir = re.search(r"Collected : (\d+)", out.stderr)
    nodes = re.search(r"nodes (\d+)", out.stdout)
    if ir is None or nodes is None:
        raise SystemExit(f"no callgrind total in:\n{out.stderr[-2000:]}")
    return int(ir.group(1)), int(nodes.group(1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--depth", type=int, default=15)
    p.add_argument("--positions", type=int, default=6)
    args = p.parse_args()
    base, _ = instructions("off", 1, args.positions)
    print(f"start-up (depth 1): {base:,} instructions")
    off = None
    for setting in ["off", *logic.STATIC_METHODS]:
        ir, nodes = instructions(setting, args.depth, args.positions)
        work = ir - base
        off = work if off is None else off
        print(f"  detection {setting:8s} {nodes:>9,} nodes {work:>16,} instructions "
              f"{work / nodes:>9,.0f} a node   overhead {100 * (work - off) / off:+.2f} %",
              flush=True)


if __name__ == "__main__":
    main()
