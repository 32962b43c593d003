"""Instructions per position (valgrind's callgrind, deterministic, unlike time):
uncached paper detection of both sides against python-chess's ``chess.Board(fen)``.

    python benchmarks/instructions.py [FILE.epd]

Each loop runs 0 and 5 times in its own process; the difference over 5 rounds and the
positions is the cost of one position.  Needs ``valgrind`` (Debian package).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOOP = """
import gc, sys
sys.path.insert(0, {root!r})
import chess, logic
from logic.tools.bench import load_positions
boards = load_positions({file!r} or None)
fens = [b.fen() for b in boards]
gc.disable()
for _ in range({rounds}):
    if {parse}:
        for f in fens:
            chess.Board(f)
    else:
        logic.clear_cache()
        for b in boards:
            logic.detect(b, True)
            logic.detect(b, False)
print(len(boards))
"""


def _count(file: str, rounds: int, parse: bool) -> tuple[int, int]:
    code = LOOP.format(root=str(ROOT), file=file, rounds=rounds, parse=parse)
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    ir = int(re.search(r"Collected : (\d+)", out.stderr).group(1))
    return ir, int(out.stdout)


def main(argv: list[str]) -> None:
    file = argv[0] if argv else ""
    per = {}
    for parse in (True, False):
        base, n = _count(file, 0, parse)
        five, _ = _count(file, 5, parse)
        per[parse] = (five - base) / 5 / n
    print(f"{n} positions: parse {per[True]:,.0f} instructions, paper detect (both sides, "
          f"uncached) {per[False]:,.0f}: {per[False] / per[True]:.3f}x parse")


if __name__ == "__main__":
    main(sys.argv[1:])
