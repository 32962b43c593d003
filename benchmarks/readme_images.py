"""Make the README's pictures (``assets/readme/``) with the product's own commands.

    python benchmarks/readme_images.py            # every picture
    python benchmarks/readme_images.py window     # only the window (needs xvfb-run)
    python benchmarks/readme_images.py game       # only the window walking a game

* ``paper-16.png``, ``paper-12.png``: ``pawnfence render --diagram ID --size 480``;
* ``wiki-1-steps.gif``: every step of the detector on the wiki's diagram;
* ``window.png``: the viewer at 1280x860 on Diagram 16, under Xvfb
  (``xvfb-run``), saved by the viewer itself after 60 frames, with a fresh user
  folder so that no saved setting changes the picture;
* ``game.png``: the viewer at 1280x860 walking DEEP FRITZ - Kramnik, Bahrain 2002 (the
  scan's test games) at 27. hxg5, its strip under the board, under Xvfb
  (``benchmarks/game_window.py``: real key presses, the strip's proofs waited for).

Run from the project root.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "readme"

#: picture name -> the ``pawnfence`` arguments that draw it
RENDERS: dict[str, tuple[str, ...]] = {
    "paper-16.png": ("render", "--diagram", "paper-16", "--size", "480"),
    "paper-12.png": ("render", "--diagram", "paper-12", "--size", "480"),
    "wiki-1-steps.gif": ("render", "--diagram", "wiki-1", "--size", "400"),
}
WINDOW = "window.png"
GAME = "game.png"
#: the Xvfb screen and the window's size
SCREEN = "1280x860x24"
WINDOW_SIZE = "1280x860"


def render(name: str) -> None:
    """Draw picture ``name`` of :data:`RENDERS` into ``assets/readme/``."""
    args = (*RENDERS[name], "--out", str(OUT / name))
    subprocess.run([sys.executable, "-m", "viewer.cli", *args], cwd=ROOT, check=True)


def window() -> None:
    """Open the viewer under Xvfb on Diagram 16 and let it save its last frame."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "PAWNFENCE_HOME": home}
        env.pop("SDL_VIDEODRIVER", None)
        subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", sys.executable, "-m",
                        "viewer.cli", "--diagram", "paper-16", "--size", WINDOW_SIZE,
                        "--frames", "60", "--screenshot", str(OUT / WINDOW)],
                       cwd=ROOT, env=env, check=True)


def game() -> None:
    """Walk a real game in the viewer under Xvfb and save the window at 27. hxg5."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "PAWNFENCE_HOME": home}
        env.pop("SDL_VIDEODRIVER", None)
        subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", sys.executable,
                        str(ROOT / "benchmarks" / "game_window.py"), str(OUT / GAME),
                        "--size", WINDOW_SIZE], cwd=ROOT, env=env, check=True)


def main(argv: list[str]) -> int:
    names = argv or [*RENDERS, "window", "game"]
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names:
        if name == "window":
            window()
            print(f"wrote assets/readme/{WINDOW}")
        elif name == "game":
            game()
            print(f"wrote assets/readme/{GAME}")
        elif name in RENDERS:
            render(name)
            print(f"wrote assets/readme/{name}")
        else:
            print(f"unknown picture {name!r}; choose from "
                  f"{', '.join([*RENDERS, 'window', 'game'])}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
