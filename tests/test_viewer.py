"""The viewer driven headless (SDL_VIDEODRIVER=dummy) through its real loop with real
pygame events: clicks, drags, a painted pawn chain, undo/redo, paste, timeline keys,
resize, persistence, exports, and rendered frames against reference images."""

from __future__ import annotations

import os
from pathlib import Path

import chess
import pytest

from logic import METHODS

pygame = pytest.importorskip("pygame")

from tests.waiting import HANG  # noqa: E402
from viewer.figures.render import board_geometry  # noqa: E402
from viewer.model.settings import Settings, load_settings, load_settings_checked  # noqa: E402
from viewer.model.text import caption_html, explanation_html  # noqa: E402
from viewer.window import clipboard  # noqa: E402
from viewer.window.app import App  # noqa: E402

WIKI = "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1"
D16 = "5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - - 0 1"
REF = Path(__file__).parent / "data" / "ref"


@pytest.fixture
def app(home, tmp_path):
    a = App(Settings(fen=WIKI), size=(1280, 860), export_dir=tmp_path / "exports")
    a.run(max_frames=1)
    yield a
    pygame.display.quit()


def centre(app: App, name: str) -> tuple[int, int]:
    left, top, sq = board_geometry(app.layout.board)
    s = chess.parse_square(name)
    f, r = chess.square_file(s), chess.square_rank(s)
    if app.state.options.flipped:
        f, r = 7 - f, 7 - r
    return left + f * sq + sq // 2, top + (7 - r) * sq + sq // 2


def down(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def up(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def motion(pos):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(1, 0, 0))


def key(k, mod=0, unicode=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)


def frames(app: App, *batches) -> None:
    app.run(max_frames=app.frame + len(batches) + 1, events=[list(b) for b in batches])


def test_click_places_and_toggles_a_pawn(app: App) -> None:
    frames(app, [key(pygame.K_2, unicode="2")], [down(centre(app, "c3")), up(centre(app, "c3"))])
    assert app.state.position.editor.board.piece_at(chess.C3) == chess.Piece.from_symbol("P")
    frames(app, [down(centre(app, "c3")), up(centre(app, "c3"))])  # same piece: removed
    assert app.state.position.editor.board.piece_at(chess.C3) is None


def test_drag_moves_a_piece_and_off_board_deletes(app: App) -> None:
    frames(app, [down(centre(app, "d2"))], [motion(centre(app, "c2"))], [up(centre(app, "c2"))])
    assert app.state.position.editor.board.king(chess.WHITE) == chess.C2
    frames(app, [down(centre(app, "f3"))], [motion((5, 5))], [up((5, 5))])
    assert app.state.position.editor.board.piece_at(chess.F3) is None


def test_right_click_deletes(app: App) -> None:
    frames(app, [down(centre(app, "h4"), button=3), up(centre(app, "h4"), button=3)])
    assert app.state.position.editor.board.piece_at(chess.H4) is None


def test_painted_pawn_chain_is_one_undo_step(app: App) -> None:
    squares = ["a2", "b3", "c2", "d3"]
    batches = [[key(pygame.K_4, unicode="4")], [down(centre(app, squares[0]))]]
    batches += [[motion(centre(app, s))] for s in squares[1:]]
    batches += [[up(centre(app, squares[-1]))]]
    frames(app, *batches)
    board = app.state.position.editor.board
    assert all(board.piece_at(chess.parse_square(s)) == chess.Piece.from_symbol("p")
               for s in squares)
    frames(app, [key(pygame.K_z, mod=pygame.KMOD_CTRL)])
    assert app.state.position.editor.fen == WIKI
    frames(app, [key(pygame.K_y, mod=pygame.KMOD_CTRL)])
    assert app.state.position.editor.board.piece_at(chess.D3) == chess.Piece.from_symbol("p")


def test_paste_fen_and_bad_paste_keeps_the_board(app: App) -> None:
    clipboard.put_text(D16)
    frames(app, [key(pygame.K_v, mod=pygame.KMOD_CTRL)])
    assert app.state.position.editor.fen == D16
    assert app.state.playback.verdict.headline == "White cannot win: blockage (paper 3.4)"
    clipboard.put_text("this is not a fen")
    frames(app, [key(pygame.K_v, mod=pygame.KMOD_CTRL)])
    assert app.state.position.editor.fen == D16
    assert "Not loaded" in app.state.message.text and "this is not a fen" in app.state.message.text
    frames(app, [key(pygame.K_c, mod=pygame.KMOD_CTRL)])
    assert clipboard.get_text() == D16


def test_timeline_keys_and_playback(app: App) -> None:
    n = app.state.playback.timeline.count
    assert n > 10 and app.state.playback.timeline.index is None
    frames(app, [key(pygame.K_RIGHT)], [key(pygame.K_RIGHT)], [key(pygame.K_RIGHT)])
    assert app.state.playback.timeline.index == 2
    assert app.panel.step_label.text.startswith(f"step 3 of {n}")
    frames(app, [key(pygame.K_END)])
    assert app.state.playback.timeline.index == n - 1
    frames(app, [key(pygame.K_HOME)])
    assert app.state.playback.timeline.index == 0
    app.state.playback.timeline.set_speed(6.0)
    frames(app, [key(pygame.K_SPACE)], *[[] for _ in range(30)])  # 0.5 s at 60 fps
    assert app.state.playback.timeline.playing and app.state.playback.timeline.index == 3
    frames(app, [key(pygame.K_ESCAPE)])
    assert app.state.playback.timeline.index is None


def test_switching_method_and_side_keeps_the_step(app: App) -> None:
    frames(app, [key(pygame.K_RIGHT)] * 1, [key(pygame.K_RIGHT)], [key(pygame.K_RIGHT)])
    frames(app, [key(pygame.K_m)])
    assert app.state.options.method.name == "flood" and app.state.playback.timeline.index == 2
    assert app.state.playback.verdict.method == "flood"
    frames(app, [key(pygame.K_s)])
    state = app.state
    assert state.options.side == "black" and state.playback.timeline.index == 2 \
        and not state.playback.verdict.color


def test_editing_while_playing_returns_to_live(app: App) -> None:
    frames(app, [key(pygame.K_SPACE)], [], [])
    assert app.state.playback.timeline.playing
    frames(app, [key(pygame.K_2, unicode="2")], [down(centre(app, "a2")), up(centre(app, "a2"))])
    assert app.state.playback.timeline.index is None and not app.state.playback.timeline.playing


def test_edit_reanalyses_in_the_same_frame(app: App) -> None:
    assert app.state.playback.verdict.blocked
    # White's king carried above the fence: the blockage is gone in the same frame
    frames(app, [down(centre(app, "d2"))], [motion(centre(app, "a7"))], [up(centre(app, "a7"))])
    v = app.state.playback.verdict
    assert not v.blocked and "not below the fence" in v.reason


def test_resize_rebuilds_the_layout(app: App) -> None:
    app.screen = pygame.display.set_mode((900, 640), pygame.RESIZABLE)
    frames(app, [pygame.event.Event(pygame.VIDEORESIZE, size=(900, 640), w=900, h=640)])
    left, top, sq = board_geometry(app.layout.board)
    assert sq < 80 and app.panel.fen_entry.rect.right <= 900
    frames(app, [down(centre(app, "d2"))], [motion(centre(app, "e2"))], [up(centre(app, "e2"))])
    assert app.state.position.editor.board.king(chess.WHITE) == chess.E2


def test_flip_and_settings_come_back(home, tmp_path) -> None:
    a = App(Settings(fen=D16), size=(1280, 860))
    frames(a, [key(pygame.K_f)], [key(pygame.K_m)])
    assert a.state.options.flipped
    assert a.close() is None
    s = load_settings()
    assert s.fen == D16 and s.flipped and s.method == "flood"
    b = App(s, size=(1280, 860))
    assert b.state.position.editor.fen == D16 and b.state.options.flipped \
        and b.state.options.method.name == "flood"
    pygame.display.quit()


def test_exports_png_and_gif(app: App, tmp_path) -> None:
    from PIL import Image

    png = app.export_png()
    gif = app.export_gif()
    assert png and png.is_file() and Image.open(png).size[0] == 720
    with Image.open(gif) as im:
        assert im.n_frames == app.state.playback.timeline.count + 1


def test_unwritable_export_folder_gives_a_message(app: App, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    app.export_dir = blocker / "sub"
    assert app.export_png() is None and "cannot write" in app.state.message.text


def test_diagram_library_selection_shows_caption_and_stated_verdict(app: App) -> None:
    d = next(d for d in app.state.position.diagrams if d.id == "paper-12")
    app.state.load_diagram(d)
    assert app.state.position.editor.fen == d.fen
    html = caption_html(app.state)
    assert "paper-12" in html and "Stated: blocked (paper 3.2)" in html
    assert "pawnfence (white): blocked (paper 3.2)" in html


def test_help_overlay_toggles(app: App) -> None:
    frames(app, [key(pygame.K_h)])
    assert app.state.options.show_help
    frames(app, [key(pygame.K_ESCAPE)])
    assert not app.state.options.show_help


def _compare(surface, name: str, regen: bool, tolerance: float = 2.0) -> None:
    from PIL import Image, ImageChops, ImageStat

    got = Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))
    path = REF / name
    if regen or not path.is_file():
        if not regen:
            pytest.fail(f"missing reference image {path}: run pytest --regen-refs")
        REF.mkdir(parents=True, exist_ok=True)
        got.save(path)
        return
    ref = Image.open(path).convert("RGB")
    assert ref.size == got.size
    diff = ImageStat.Stat(ImageChops.difference(ref, got)).mean
    assert max(diff) <= tolerance, f"{name}: mean channel difference {diff} > {tolerance}"


def _board_area(app: App, size: tuple[int, int] = (852, 682)):
    """The board as the window draws it, in a board area of ``size`` (the area the
    window had at 1280x860 when these references were made)."""
    surf = pygame.Surface(size)
    surf.fill(app.painter.colours["background"])
    app.painter.render_board(surf, surf.get_rect(), app.state.position.editor.board,
                             overlay=app.state.playback.overlay(),
                             flipped=app.state.options.flipped)
    return surf


def test_frames_match_reference_images(app: App, regen_refs: bool) -> None:
    app.state.load_fen(D16)
    frames(app, [])
    _compare(_board_area(app), "d16-live.png", regen_refs)
    frames(app, [key(pygame.K_RIGHT)] * 1, *[[key(pygame.K_RIGHT)] for _ in range(5)])
    _compare(_board_area(app), "d16-step6.png", regen_refs)


def test_no_display_points_to_render(monkeypatch, capsys) -> None:
    from viewer.cli import main

    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(var, raising=False)
    if os.name != "posix":
        pytest.skip("display detection is for X11/Wayland")
    assert main([]) == 3
    err = capsys.readouterr().err
    assert "no display" in err and "pawnfence render" in err
    # a mistake in the arguments is told first, display or not
    assert main(["--diagram", "nope"]) == 2
    assert "no diagram 'nope'" in capsys.readouterr().err
    assert main(["expalin", "8/8/8"]) == 2
    assert "did you mean 'explain'?" in capsys.readouterr().err


def test_render_command_writes_png_and_gif(tmp_path) -> None:
    from PIL import Image

    from viewer.cli import main

    png, gif = tmp_path / "d.png", tmp_path / "d.gif"
    assert main(["render", "--diagram", "paper-12", "--out", str(png)]) == 0
    assert Image.open(png).format == "PNG"
    assert main(["render", D16, "--side", "white", "--method", "flood", "--out", str(gif)]) == 0
    with Image.open(gif) as im:
        assert im.format == "GIF" and im.n_frames > 5
    assert main(["render", "--diagram", "nope", "--out", str(png)]) == 2
    assert main(["render", D16, "--out", str(tmp_path / "x.jpg")]) == 2


def test_kpk_position_shows_verdict_rule_square_and_key_squares(app: App) -> None:
    app.state.load_fen("8/8/8/8/7k/8/P7/K7 w - - 0 1")
    frames(app, [])
    assert app.state.playback.kpk == {"result": "win", "side": "white", "rule": "outside-square*",
                       "rule_text": app.state.playback.kpk["rule_text"]}
    overlay = app.state.playback.overlay()
    assert overlay.kpk_keys == chess.BB_B7 | chess.BB_B8  # rook pawn: b7, b8
    assert overlay.kpk_square >> chess.A8 & 1 and overlay.kpk_square >> chess.F3 & 1
    assert not overlay.kpk_square >> chess.H4 & 1  # Black's king is outside the square
    assert "heuristic rule outside-square*" in explanation_html(app.state)


def test_position_is_saved_soon_after_an_edit_without_closing(app: App, home) -> None:
    frames(app, [key(pygame.K_2, unicode="2")], [down(centre(app, "a3")), up(centre(app, "a3"))])
    frames(app, *[[] for _ in range(70)])
    assert load_settings().fen == app.state.position.editor.fen \
        and "P" in load_settings().fen.split("/")[5]


def test_search_panel_with_a_missing_engine_gives_a_message(home) -> None:
    a = App(Settings(fen=D16, engine="/nonexistent/engine"), size=(1280, 860))
    frames(a, [key(pygame.K_e)])
    assert a.state.options.search_on
    a.analysis.wait(HANG)
    frames(a, [])
    html = caption_html(a.state, a.analysis.result)
    assert "with detection: +0.00" in html  # Diagram 16 is a blockage for White
    assert "without: +1.00" in html
    assert "engine /nonexistent/engine" in html
    pygame.display.quit()


@pytest.mark.slow
def test_search_panel_runs_stockfish_when_present(home) -> None:
    from viewer.model.analysis import default_engine

    if default_engine() is None:
        pytest.skip("no stockfish installed (.ci/run installs Debian's stockfish)")
    a = App(Settings(fen="8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1", search=True),
            size=(1280, 860))
    a.analysis.wait(HANG)
    frames(a, [])
    r = a.analysis.result
    assert r.done and r.engine is not None and r.engine["pv"]
    assert r.with_detection["pv"][0] == "a1b1"
    pygame.display.quit()


def test_playlist_steps_through_scan_suspects(home, tmp_path) -> None:
    from logic.position import read_playlist
    from logic.tools.scan import scan

    data = Path(__file__).parent / "data" / "scan"
    scan([str(data / "games.pgn")], tmp_path / "scan", jobs=1, progress=None)
    cases = read_playlist(str(tmp_path / "scan" / "suspects.epd"))
    a = App(Settings(), size=(1280, 860), playlist=cases)
    frames(a, [])
    assert a.state.position.editor.fen == cases[0][1]
    html = caption_html(a.state, a.analysis.result)
    assert "category: <b>methods-disagree</b>" in html
    assert f"{METHODS['paper'].label}: White blocked" in html
    assert f"{METHODS['flood'].label}: White open" in html
    frames(a, [key(pygame.K_n)])
    assert a.state.position.playlist_index == 1 and a.state.position.editor.fen == cases[1][1]
    frames(a, [key(pygame.K_PAGEUP)])
    assert a.state.position.playlist_index == 0
    frames(a, [key(pygame.K_SPACE)], [], [])
    assert a.state.playback.timeline.playing  # the full trace plays for each case
    pygame.display.quit()


def test_playlist_chosen_in_the_viewer(app: App, tmp_path) -> None:
    import pygame_gui

    epd = tmp_path / "cases.epd"
    epd.write_text(f'{D16.rsplit(" ", 2)[0]} id "d16"; c0 "methods-disagree";\n')
    frames(app, [key(pygame.K_o)])
    assert app.file_dialog.alive()
    event = pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(epd),
                               ui_element=app.file_dialog)
    frames(app, [event])
    state = app.state
    assert state.position.playlist and state.position.editor.fen == D16 \
        and "cases.epd: 1 case" in state.message.text  # on opening, and once it is checked
    bad = tmp_path / "empty.epd"
    bad.write_text("# nothing\n")
    assert not app.open_playlist(str(bad)) and "Not opened" in app.state.message.text


def test_typing_in_the_fen_field_is_not_a_shortcut(app: App) -> None:
    pos = app.panel.fen_entry.rect.center
    frames(app, [down(pos), up(pos)])
    assert app.panel.fen_entry.is_focused
    frames(app, [key(pygame.K_f, unicode="f")])
    assert not app.state.options.flipped  # "f" went into the text, not to the flip shortcut


@pytest.mark.parametrize("method", list(METHODS))
def test_every_method_of_the_menu_comes_back_from_the_settings(home, method: str) -> None:
    """Whatever method the menu was left on (the exact prover included), the next start
    takes it from settings.json without calling the file bad."""
    a = App(Settings(fen=D16), size=(1280, 860))
    while a.state.options.method.name != method:
        frames(a, [key(pygame.K_m)])
    assert a.close() is None
    loaded = load_settings_checked()
    assert loaded.settings.method == method and not loaded.problems, loaded
    assert not any(home.rglob("settings.json.bad"))
    b = App(loaded.settings, size=(1280, 860))
    assert b.state.options.method.name == method
    b.close()
    pygame.display.quit()


def test_step_list_always_shows_the_verdict_on_show(app: App) -> None:
    """Random edits, method and side switches (real clicks and keys): after every frame
    the step list draws what a fresh step list (no caches) draws for the same state.  Its
    caches were keyed by ``id(verdict)``, which Python reuses once a verdict is freed:
    a new verdict could get an old one's drawing."""
    import random

    from viewer.figures.render import Painter
    from viewer.window.components import StepList

    app.state.options.show_pane(0, "steps", 1)
    frames(app, [])
    rng = random.Random(5)
    squares = ["c3", "e3", "g3", "a3", "h3", "b2", "c2", "e2", "g2", "d3", "f3"]
    painter = Painter()
    for _ in range(120):
        r = rng.random()
        if r < 0.15:
            frames(app, [key(pygame.K_m, unicode="m")])
        elif r < 0.2:
            frames(app, [key(pygame.K_s, unicode="s")])
        else:
            pos = centre(app, rng.choice(squares))
            frames(app, [down(pos), up(pos)])
        if not app.state.options.method.static:  # exact: its own tests
            frames(app, [key(pygame.K_m, unicode="m")])
        rect = app.steps.rect
        assert rect.width > 0 and rect.height > 0
        fresh = StepList(app.state, painter)
        fresh.place(rect, app.steps.px)
        fresh.scroll = app.steps.scroll
        drawn, want = (pygame.Surface(app.screen.get_size()) for _ in range(2))
        app.steps.draw(drawn)
        painter.cached, keep = (lambda _key, make, _alpha=True: make()), painter.cached
        fresh.draw(want)
        painter.cached = keep
        assert pygame.image.tobytes(drawn.subsurface(rect), "RGB") == \
            pygame.image.tobytes(want.subsurface(rect), "RGB"), app.state.position.editor.fen


def test_every_frame_paints_every_pixel_after_switching_panes(app: App) -> None:
    """Steps, then Library, Export, Code and Story by clicks: each frame is the same drawn
    over magenta as over the frame before, so nothing of an older frame shows through
    (nor, below a list's last line, the steps of the pane before)."""
    for name in ("steps", "library", "export", "code", "story", "steps"):
        tab = app.layout.slots[0].tabs[name]
        frames(app, [down(tab.center), up(tab.center)], [], [])
        assert app.panel.panes[0] == name
        shown = pygame.image.tobytes(app.screen, "RGB")
        app.screen.fill((255, 0, 255))
        app.draw()
        assert pygame.image.tobytes(app.screen, "RGB") == shown, name


@pytest.mark.parametrize(("size", "step"), [((1280, 860), None), ((900, 650), 1)])
def test_a_message_leaves_the_board_and_the_headline_clear(home, tmp_path, size, step) -> None:
    """A message (a long one, cut to its line) is drawn on the message line under the
    board: the board with its rank and file labels, the headline's pixels and the whole
    banner are as without it (the verdict, or the step's sentence while stepping, stays
    readable), at a large and the smallest window."""
    from viewer.figures.render import board_cover

    a = App(Settings(fen=WIKI), size=size, export_dir=tmp_path / "exports")
    frames(a, [])
    for _ in range(step or 0):
        frames(a, [key(pygame.K_RIGHT)])

    def areas() -> tuple[bytes, bytes]:
        frames(a, [])
        head = a.layout.banner.copy()
        head.height = a.view.headline_bottom - head.top
        assert head.height > 10
        return (pygame.image.tobytes(a.screen.subsurface(board_cover(a.layout.board)), "RGB"),
                pygame.image.tobytes(a.screen.subsurface(head), "RGB"))

    before = areas()
    banner = pygame.image.tobytes(a.screen.subsurface(a.layout.banner), "RGB")
    status = pygame.image.tobytes(a.screen.subsurface(a.layout.status), "RGB")
    a.state.say("Not loaded: " + "a long reason that has to wrap " * 12)
    assert areas() == before
    assert pygame.image.tobytes(a.screen.subsurface(a.layout.banner), "RGB") == banner
    assert pygame.image.tobytes(a.screen.subsurface(a.layout.status), "RGB") != status
    pygame.display.quit()


def test_a_window_below_the_minimum_says_how_large_it_must_be(app: App) -> None:
    """Without a window manager to keep it at least MIN_SIZE, a smaller window shows
    only the size it needs (the layout there overlapped the board and the banner)."""
    from viewer.window.layout import MIN_SIZE

    app.screen = pygame.display.set_mode((640, 480), pygame.RESIZABLE)
    frames(app, [pygame.event.Event(pygame.VIDEORESIZE, w=640, h=480, size=(640, 480))], [])
    bg = app.painter.colours["background"]
    colours = {app.screen.get_at((x, y))[:3] for x in range(0, 640, 4) for y in range(0, 480, 4)}
    c = app.painter.colours
    assert c["square_light"] not in colours and c["square_dark"] not in colours  # no board
    assert len(colours) > 2  # but text
    assert app.screen.get_at((320, 400))[:3] == bg
    app.screen = pygame.display.set_mode(MIN_SIZE, pygame.RESIZABLE)
    frames(app, [pygame.event.Event(pygame.VIDEORESIZE, w=MIN_SIZE[0], h=MIN_SIZE[1],
                                    size=MIN_SIZE)], [])
    left, top, sq = board_geometry(app.layout.board)
    assert app.screen.get_at((left + sq // 2, top + sq // 2))[:3] != bg  # the board is back
