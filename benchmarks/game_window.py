"""The window walking a real game, saved as a picture (run under a display, e.g.
``xvfb-run``; ``benchmarks/readme_images.py game`` does):

    python benchmarks/game_window.py OUT.png [--ply N] [--size WxH] [--projector]

Opens the scan's test games (``tests/data/scan/games.pgn``) on DEEP FRITZ - Kramnik,
Bahrain 2002 (game 5) with real key presses (End, then Left back to ply ``N``; default
53, 27. hxg5, where the pawn ending begins), waits for the strip's exact proofs (on a
clock of work: the same cells on any machine) and saves the window.  Run from the
project root; the user folder is a fresh temporary one.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GAMES = ROOT / "tests" / "data" / "scan" / "games.pgn"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--ply", type=int, default=53)
    p.add_argument("--size", default="1280x860")
    p.add_argument("--game", type=int, default=5)
    p.add_argument("--projector", action="store_true")
    args = p.parse_args(argv)
    os.environ.setdefault("PAWNFENCE_HOME", tempfile.mkdtemp(prefix="pawnfence-home-"))
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    import logic
    from logic.exact import WorkClock
    from viewer.model.settings import Settings
    from viewer.window.app import App

    logic.METHODS["exact"].clock = WorkClock  # the same cells whatever the machine
    w, h = (int(x) for x in args.size.split("x"))
    app = App(Settings(), size=(w, h), save=False)

    def press(k: int, unicode: str = "") -> list[pygame.event.Event]:
        return [pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=unicode, scancode=0)]

    app.run(max_frames=app.frame + 2, events=[[]])
    assert app.open_playlist(str(GAMES)), app.state.message.text
    app.run(max_frames=app.frame + args.game + 1,
            events=[press(pygame.K_n, "n") for _ in range(args.game - 1)] + [[]])
    app.run(max_frames=app.frame + 2, events=[press(pygame.K_END), []])
    back = max(0, app.state.game.plies - args.ply)
    app.run(max_frames=app.frame + back + 1, events=[press(pygame.K_LEFT)
                                                     for _ in range(back)] + [[]])
    app.state.game.job.wait(600)
    if args.projector:
        app.run(max_frames=app.frame + 2, events=[press(pygame.K_p, "p"), []])
    app.state.message.seconds = 0  # the opening message has gone by then when a person walks
    app.run(max_frames=app.frame + 3, events=[[], [], []])
    pygame.image.save(app.screen, args.out)
    app.close()
    print(f"wrote {args.out}: ply {app.state.game.ply}, {app.state.game.line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
