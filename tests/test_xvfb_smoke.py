"""CI smoke test: the real window under Xvfb, a real X screenshot, the board on it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.waiting import HANG

ROOT = Path(__file__).resolve().parent.parent


def _free_display() -> int:
    for n in range(91, 140):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return n
    raise RuntimeError("no free X display number")


def _board_pixels(image) -> tuple[int, int]:
    """How many pixels have the light and dark square colours."""
    light, dark = (240, 217, 181), (181, 136, 99)
    counts = {light: 0, dark: 0}
    for colour, n in ((c, n) for n, c in image.convert("RGB").getcolors(1 << 20) or []):
        if colour in counts:
            counts[colour] += n
    return counts[light], counts[dark]


def _why(app: subprocess.Popen, light: int, dark: int) -> str:
    """The failure message: the pixel counts, and the app's exit code and stderr if it
    has exited (else that it was still running at the deadline)."""
    code = app.poll()
    if code is None:
        return f"board pixels {(light, dark)}; the app was still running after 30 s"
    err = app.communicate()[1].decode(errors="replace")[-2000:]
    return f"board pixels {(light, dark)}; the app exited with {code}: {err}"


def test_real_window_under_xvfb(tmp_path) -> None:
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed (.ci/run installs Debian's xvfb)")
    from PIL import ImageGrab

    n = _free_display()
    server = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "1400x950x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    app = None
    try:
        for _ in range(200):  # until the server accepts a client (not just its socket file)
            assert server.poll() is None, f"Xvfb :{n} exited with {server.returncode}"
            if Path(f"/tmp/.X11-unix/X{n}").exists():
                try:
                    ImageGrab.grab(xdisplay=f":{n}")
                    break
                except OSError:
                    pass
            time.sleep(0.05)
        env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
        env.update(DISPLAY=f":{n}", PAWNFENCE_HOME=str(tmp_path), SDL_AUDIODRIVER="dummy")
        app = subprocess.Popen([sys.executable, "-m", "viewer.cli", "--diagram", "paper-16",
                                "--frames", "3000"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        shot = None
        light = dark = 0
        deadline = time.time() + HANG
        while time.time() < deadline and app.poll() is None:
            time.sleep(0.5)
            shot = ImageGrab.grab(xdisplay=f":{n}")
            light, dark = _board_pixels(shot)
            if light > 50_000 and dark > 50_000:
                break
        assert shot is not None, app.communicate()[1].decode(errors="replace")
        shot.save(tmp_path / "xvfb-window.png")
        # 32 light and 32 dark squares of at least 60x60 pixels each are on the screen
        assert light > 50_000 and dark > 50_000, _why(app, light, dark)
    finally:
        if app is not None:
            app.kill()
            app.wait()
        server.terminate()
        server.wait()
