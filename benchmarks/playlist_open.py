"""How long a playlist takes to open: wall time from starting ``pawnfence --playlist FILE``
to its first frame on screen (the process draws one frame, then closes).

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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def open_seconds(playlist: str | None, root: Path, positions: str | None = None) -> float:
    """Seconds from the start of the viewer (in ``root``) to the end of its first frame,
    with ``positions`` as the user's own list."""
    with tempfile.TemporaryDirectory() as home:
        if positions:
            shutil.copyfile(positions, Path(home) / "my-positions.epd")
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PAWNFENCE_HOME": home, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        args = [sys.executable, "-m", "viewer.cli", "--frames", "1", "--size", "1280x860"]
        if playlist:
            args += ["--playlist", playlist]
        t0 = time.monotonic()
        subprocess.run(args, cwd=root, env=env, check=True, capture_output=True)
        return time.monotonic() - t0


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
