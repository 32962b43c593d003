"""How long a playlist takes to open: wall time from starting ``pawnfence --playlist FILE``
(in a fresh interpreter) to its first frame on screen; the process ends at that frame.

    python -m benchmarks.playlist_open [FILE] [--positions MINE.epd] [--root CHECKOUT]
                                       [--repeat 3]

``--positions`` puts a copy of that file in place as the user's own list
(``my-positions.epd``).  ``--root`` runs another checkout's code (its ``viewer.cli`` from
its folder), to compare two versions on the same machine; the window is SDL's ``dummy``
driver and the settings live in a temporary folder.  Prints one line per run and the
median.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


#: run in the child: the viewer's command line, timed from the first import to the first
#: ``pygame.display.flip`` (the first frame on screen), which prints it and ends the process
_CHILD = """
import os, sys, time
t0 = time.monotonic()
import pygame
flip = pygame.display.flip
def first():
    flip()
    print(f"{time.monotonic() - t0:.3f}", flush=True)
    os._exit(0)
pygame.display.flip = first
from viewer.cli import main
sys.exit(main(sys.argv[1:]))
"""


def open_seconds(playlist: str | None, root: Path, positions: str | None = None) -> float:
    """Seconds from the start of the viewer (in ``root``) to its first frame on screen,
    with ``positions`` as the user's own list."""
    with tempfile.TemporaryDirectory() as home:
        if positions:
            shutil.copyfile(positions, Path(home) / "my-positions.epd")
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PAWNFENCE_HOME": home, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        args = [sys.executable, "-c", _CHILD, "--frames", "1", "--size", "1280x860"]
        if playlist:
            args += ["--playlist", playlist]
        out = subprocess.run(args, cwd=root, env=env, check=True, capture_output=True,
                             text=True).stdout
        return float(out.split()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("playlist", nargs="?", help="an EPD file (none: the window alone)")
    p.add_argument("--positions", help="an EPD file to use as the user's own list")
    p.add_argument("--root", type=Path, default=ROOT, help="the checkout to run")
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    times = []
    for i in range(args.repeat):
        t = open_seconds(args.playlist, args.root, args.positions)
        times.append(t)
        print(f"run {i + 1}: {t:.2f} s", flush=True)
    print(f"median {statistics.median(times):.2f} s ({args.root}, "
          f"{args.playlist or 'no playlist'}, {args.positions or 'no list of my own'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
