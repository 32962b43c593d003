"""A game walked in the window (issue 50), headless through the real loop with real
pygame events: the scan's test games opened through the Open dialog's event and from the
command line, the arrows walking plies (Shift the trace), the strip's cells drawn by shape
and colour with exact filled in from the background, the strip clicked and dragged, the
pieces before the pawn ending said, and the Export pane's PGN button."""

from __future__ import annotations

import itertools
from pathlib import Path

import chess
import chess.pgn
import pytest

import logic

pygame = pytest.importorskip("pygame")
pygame_gui = pytest.importorskip("pygame_gui")

from logic.games import read_games  # noqa: E402
from logic.legend import BOARD_LEGEND as LEGEND  # noqa: E402
from tests.test_viewer import down, frames, key, motion, up  # noqa: E402
from tests.test_viewer_panes import click, make  # noqa: E402
from tests.test_viewer_window import show_pane, until  # noqa: E402
from viewer.model.game import NOT_YET  # noqa: E402
from viewer.window.app import App  # noqa: E402
from viewer.window.layout import MIN_SIZE, compute_layout  # noqa: E402

GAMES = Path(__file__).parent / "data" / "scan" / "games.pgn"


def picked(app: App, path: Path) -> None:
    """What choosing ``path`` in the file dialog and OK do: the dialog closes and posts
    its event."""
    dialog = app.file_dialog
    assert dialog is not None and dialog.alive()
    dialog.kill()
    frames(app, [pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(path),
                                    ui_element=dialog)], [])


def opened(home, game: int = 1, size=(1280, 860)) -> App:
    """A window that opened ``games.pgn`` through the Open dialog (O, then the file), on
    game ``game``."""
    a = make(home, size)
    frames(a, [key(pygame.K_o, unicode="o")])
    assert a.dialog_for == "open" and "PGN" in a.file_dialog.window_display_title
    picked(a, GAMES)
    for _ in range(game - 1):
        frames(a, [key(pygame.K_n, unicode="n")])
    assert a.state.game.open and a.state.game.index == game - 1
    return a


def test_the_open_dialog_loads_a_game_and_the_arrows_walk_its_plies(home) -> None:
    a = opened(home)
    record = read_games(GAMES)[0]
    g, board = a.state.game, lambda: a.state.position.editor.board
    assert a.layout.strip.height > 0 and a.strip.rect == a.layout.strip
    assert g.ply == 0 and board().fen() == record.root
    frames(a, [key(pygame.K_RIGHT)], [key(pygame.K_RIGHT)], [key(pygame.K_RIGHT)])
    assert g.ply == 3 and board().fen() == record.board_at(3).fen()
    assert a.state.playback.timeline.index is None  # a new ply: its live verdict
    frames(a, [key(pygame.K_RIGHT, mod=pygame.KMOD_SHIFT)])  # Shift: the detector's trace
    assert g.ply == 3 and a.state.playback.timeline.index == 0
    frames(a, [key(pygame.K_LEFT)])
    assert g.ply == 2 and board().fen() == record.board_at(2).fen()
    frames(a, [key(pygame.K_END)])
    assert g.ply == record.plies and board().fen() == record.board_at(record.plies).fen()
    frames(a, [key(pygame.K_RIGHT)])
    assert g.ply == record.plies and "last move" in a.state.message.text
    frames(a, [key(pygame.K_HOME)], [key(pygame.K_LEFT)])
    assert g.ply == 0 and "start" in a.state.message.text
    frames(a, [key(pygame.K_n, unicode="n")])
    assert g.index == 1 and board().fen() == read_games(GAMES)[1].root
    frames(a, [key(pygame.K_PAGEUP)])
    assert g.index == 0
    frames(a, *[[key(pygame.K_PAGEUP)] for _ in range(2)])  # game 6, its illegal move said
    assert g.index == 5 and g.plies == 2 and "'Ke3' is illegal after 1...e5" in \
        a.state.message.text
    frames(a, [key(pygame.K_n, unicode="n")])  # game 7 cannot be walked: said, board kept
    assert g.index == 6 and g.record.number == 6
    assert "game 7: its FEN tag is not a position" in a.state.message.text
    frames(a, [key(pygame.K_n, unicode="n")])  # past it: game 1 again
    assert g.index == 0 and g.record.number == 1
    a.close()


def test_a_file_whose_first_games_cannot_be_walked_opens_the_next(home, tmp_path) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n[FEN "9/8/8/8/8/8/8/8 w - - 0 1"]\n\n*\n\n'
                   '[Event "y"]\n\n1. e4 *\n', encoding="utf-8")
    a = make(home)
    assert a.open_playlist(str(bad))
    assert a.state.game.record.number == 2
    assert "game 1 cannot be walked (PageUp says why)" in a.state.message.text
    frames(a, [key(pygame.K_PAGEUP)])
    assert "bad.pgn game 1: its FEN tag is not a position" in a.state.message.text
    assert not a.open_playlist(str(tmp_path / "none.pgn"))
    assert a.state.message.text.startswith("Not opened:")
    a.close()


def test_the_strip_draws_each_cell_by_shape_and_colour(home) -> None:
    """Once exact's cells are in: a blockage a full block in the blocked colour, no
    blockage a low bar in the open colour (the cell's middle empty), exact's proof of a
    blockage a static method misses with its corner mark; the ply on show outlined."""
    a = opened(home)
    g = a.state.game
    assert until(a, lambda: not g.proving() and g.pending() == 0)
    frames(a, [key(pygame.K_RIGHT)], [])
    c = a.painter.colours
    # ply 2 (1...fxe5): every method, both sides: cannot win
    for method in ("paper", "flood", "extended", "exact"):
        for color in chess.COLORS:
            cell = a.strip.cell_rect(2, method, color)
            assert tuple(a.screen.get_at(cell.center))[:3] == c["banner_blocked"], \
                (method, color)
    # ply 0: flood claims nothing for White where exact proves the blockage
    col = g.column(0)
    assert col.cells["flood"][chess.WHITE].disagrees == "missed"
    cell = a.strip.cell_rect(0, "flood", chess.WHITE)
    assert tuple(a.screen.get_at((cell.centerx, cell.bottom - 2)))[:3] == c["banner_open"]
    assert tuple(a.screen.get_at(cell.center))[:3] != c["banner_open"]
    assert tuple(a.screen.get_at((cell.left + 2, cell.top + 2)))[:3] == c["changed"]
    assert g.first_proved(chess.WHITE) == 0 and g.first_proved(chess.BLACK) == 0
    assert "ply 1/12 · 1. fxe5" in a.strip.words
    a.close()


def test_a_click_and_a_drag_on_the_strip_walk_the_game(home) -> None:
    a = opened(home)
    g, strip = a.state.game, a.strip
    x6 = strip.cell_rect(6, "paper", chess.WHITE).center
    click(a, x6)
    assert g.ply == 6
    x2 = strip.cell_rect(2, "exact", chess.BLACK).center
    x9 = strip.cell_rect(9, "exact", chess.BLACK).center
    frames(a, [down(x2)], [motion(x9)], [up(x9)])
    assert g.ply == 9 and not strip.dragging
    assert a.state.position.editor.board.fen() == read_games(GAMES)[0].board_at(9).fen()
    frames(a, [motion(strip.cell_rect(4, "flood", chess.BLACK).center)])
    assert strip.words.startswith("ply 4 · 2...Ke7 · flood, Black: blocked")
    a.close()


def test_pieces_before_the_pawn_ending_are_shown_and_said(home, monkeypatch) -> None:
    # White's positions are horizons that take the whole budget: a small one (of work)
    monkeypatch.setattr("viewer.model.game.STRIP_SECONDS", 0.25)
    a = opened(home, game=5)
    g = a.state.game
    assert g.record.title.startswith("Deep Fritz – Kramnik")
    board = a.state.position.editor.board
    assert board.occupied != board.pawns | board.kings  # every piece on the board
    assert NOT_YET in a.state.game.line()
    from viewer.model.text import window_banner

    assert NOT_YET in " ".join(b.text for b in window_banner(a.state).blocks)
    frames(a, [motion(a.strip.cell_rect(10, "paper", chess.WHITE).center)])
    assert a.strip.words == f"ply 10 · 5...Nd6: {NOT_YET}"
    frames(a, [key(pygame.K_END)], *[[key(pygame.K_LEFT)] for _ in range(2)])
    assert g.ply == 53 and g.kp(53) and NOT_YET not in g.line()
    assert until(a, lambda: g.pending() == 0)
    assert g.first_proved(chess.BLACK) == 53  # 27. hxg5: Black cannot win (exact)
    assert g.first_proved(chess.WHITE) is None
    frames(a, [])
    assert "Black first proved unable to win at 27. hxg5 (exact)" in g.line()
    a.close()


def test_an_edit_leaves_the_game_and_another_position_closes_it(home) -> None:
    a = opened(home)
    g = a.state.game
    frames(a, [key(pygame.K_RIGHT)], [key(pygame.K_RIGHT)])
    from tests.test_viewer import centre

    frames(a, [key(pygame.K_2, unicode="2")], [down(centre(a, "a3")), up(centre(a, "a3"))])
    assert not g.active and g.open and "left the game" in g.line()
    frames(a, [key(pygame.K_RIGHT)])
    assert g.active and g.ply == 3
    a.state.load_diagram(logic.diagrams.get_diagram("paper-16"))
    frames(a, [])
    assert not g.open and a.layout.strip.width == 0 and a.strip.rect.width == 0
    frames(a, [key(pygame.K_RIGHT)])  # the trace again
    assert a.state.playback.timeline.index == 0
    a.close()


def test_the_pgn_button_saves_the_position_as_a_lichess_chapter(home, tmp_path) -> None:
    a = make(home, (1920, 1080), fen="5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - - 0 1")
    show_pane(a, "export")
    click(a, a.panel.buttons["pgn"].rect.center)
    assert a.dialog_for == "pgn"
    out = tmp_path / "lesson"
    picked(a, out)
    assert "Lichess study chapter" in a.state.message.text
    with open(out.with_suffix(".pgn"), encoding="utf-8") as fh:
        game = chess.pgn.read_game(fh)
    v = logic.detect(a.state.position.editor.board, chess.WHITE)
    red = sum(1 << s.tail for s in game.arrows() if s.tail == s.head and s.color == "red")
    assert red == v.fence != 0
    assert game.headers["FEN"] == a.state.position.editor.board.fen()
    a.close()


def test_the_help_names_the_walking_keys(home) -> None:
    a = make(home)
    frames(a, [key(pygame.K_h, unicode="h")])
    lines = dict(a.view.help)
    assert "a game open: its previous / next move" in lines["Left / Right"]
    assert "a game open or not" in lines["Shift+Left / Shift+Right"]
    assert "PGN" in lines["O"] and "PGN lesson" in lines["Ctrl+L"]
    a.close()


def test_the_layout_with_a_strip_never_overlaps() -> None:
    from tests.test_viewer_panes import _leaf_overlaps

    for w, h in itertools.product(range(MIN_SIZE[0], 3841, 211), range(MIN_SIZE[1], 2161, 173)):
        for structure in (False, True):
            layout = compute_layout((w, h), structure=structure, legend=LEGEND, strip=True)
            assert not _leaf_overlaps(layout), ((w, h), structure)
            assert layout.strip.width > 0 and layout.strip.top > layout.board.bottom


def test_the_command_line_opens_a_game(home, tmp_path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from viewer.cli import main

    shot = tmp_path / "game.png"
    assert main(["--pgn", str(GAMES), "--game", "5", "--size", "1280x860", "--frames", "3",
                 "--screenshot", str(shot)]) == 0
    assert shot.stat().st_size > 0
    assert main(["--pgn", str(GAMES), "--game", "7"]) == 2
    assert "games.pgn game 7: its FEN tag is not a position" in capsys.readouterr().err
    assert main(["--pgn", str(GAMES), "--game", "9"]) == 2
    assert "--game must be from 1 to the 7 games of games.pgn, got 9" in capsys.readouterr().err
    assert main(["--game", "2"]) == 2
    assert "--game applies only with --pgn" in capsys.readouterr().err


def test_a_game_walked_in_the_real_window_under_xvfb(tmp_path) -> None:
    """The real window under Xvfb (no dummy driver) walks the scan's first test game with
    real key presses (``benchmarks/game_window.py``): the picture has the board and, under
    it, the strip's blocks of "cannot win" once exact's cells are in."""
    import os
    import shutil
    import subprocess
    import sys

    from PIL import Image

    from viewer.model.theme import COLOURS

    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is not installed (.ci/run installs Debian's xvfb)")
    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "game.png"
    env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
    env.update(PAWNFENCE_HOME=str(tmp_path / "home"), SDL_AUDIODRIVER="dummy")
    done = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x860x24", sys.executable,
                           str(root / "benchmarks" / "game_window.py"), str(out), "--game", "1",
                           "--ply", "6"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ply 6 of 12" in done.stdout
    image = Image.open(out).convert("RGB")
    assert image.size == (1280, 860)
    lay = compute_layout((1280, 860), legend=LEGEND, strip=True)
    colours = dict((c, n) for n, c in image.crop((lay.strip.left, lay.strip.top, lay.strip.right,
                                                        lay.strip.bottom)).getcolors(1 << 20) or [])
    assert colours.get(COLOURS["banner_blocked"], 0) > 2000  # the blocks of "cannot win"
    board = dict((c, n) for n, c in image.crop((lay.board.left, lay.board.top, lay.board.right,
                                           lay.board.bottom)).getcolors(1 << 20) or [])
    assert board.get((240, 217, 181), 0) > 20_000  # the light squares
