"""The viewer's exact mode (issue 12, parts 3 and 4), driven headless through the real loop
with real pygame events: the method chosen from the menu, the proof in a background job
(progress in the banner, cancelled by Esc and by edits, stale results dropped, no thread
left behind), the king map drawn with a hatch and a letter, the structures as ghost
pawns, the line's moves as positions with a labelled arrow, the code pane's listing, the
analysis pane's exact verdicts and ``pawnfence render --method exact``."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path

import chess
import pytest

import logic

pygame = pytest.importorskip("pygame")

from logic.exact.display import EXACT_BREAKS, EXACT_HOLDS  # noqa: E402
from logic.listing import line_of  # noqa: E402
from tests.test_viewer import centre, down, frames, key, motion, up  # noqa: E402
from tests.waiting import HANG  # noqa: E402
from viewer.figures.render import Painter, board_geometry  # noqa: E402
from viewer.model.actions import help_lines  # noqa: E402
from viewer.model.overlay import Overlay, live_overlay, step_overlay  # noqa: E402
from viewer.model.proof import ProofJob  # noqa: E402
from viewer.model.settings import Settings  # noqa: E402
from viewer.model.text import banner_text, window_banner  # noqa: E402
from viewer.model.theme import legend_items  # noqa: E402
from viewer.window.app import App  # noqa: E402

#: White cannot win: a wall of rams (proved in one structure)
WALL = "4k3/8/8/p1p1p1p1/P1P1P1P1/2P5/8/4K3 w - -"
#: Fine #70: White breaks through, 1. Kb1!
FINE70 = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - -"
#: every pawn on its square: the prover needs its whole budget (a job to cancel)
SLOW = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - -"


def _proof_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == ProofJob.THREAD_NAME)


def make(home, fen: str, size=(1280, 860), **settings) -> App:
    a = App(Settings(fen=fen, **settings), size=size, export_dir=home.parent / "exports")
    frames(a, [])
    return a


def until_proved(a: App, seconds: float = HANG) -> None:
    """Run frames until both sides' verdicts are in (the job ran in the background)."""
    deadline = time.monotonic() + seconds
    while a.state.playback.verdict is None or a.state.playback.other is None:
        assert time.monotonic() < deadline, window_banner(a.state)
        frames(a, [])
        time.sleep(0.02)


def choose_method(a: App, label_start: str) -> None:
    """Open the method menu and click the option whose label starts so (real clicks)."""
    menu = a.panel.method_menu
    frames(a, [down(menu.rect.center), up(menu.rect.center)], [])
    items = menu.current_state.options_selection_list.item_list
    button = next(i["button_element"] for i in items if i["text"].startswith(label_start))
    pos = button.rect.center
    frames(a, [motion(pos)], [down(pos)], [up(pos)], [], [], [], [])


def test_exact_is_the_third_method_of_menu_keys_and_help(home) -> None:
    """Menu, M and the help list the methods (exact third, extended after it); R (prove
    again) is in the help."""
    assert list(logic.METHODS)[2] == "exact"
    a = make(home, WALL)
    labels = [text for text, _id in a.panel.method_menu.options_list]
    assert labels == [m.label for m in logic.METHODS.values()]
    seen = []
    for _ in range(len(logic.METHODS)):
        frames(a, [key(pygame.K_m, unicode="m")])
        seen.append(a.state.options.method.name)
    assert seen == [*list(logic.METHODS)[1:], "paper"]
    assert seen[:2] == ["flood", "exact"]
    lines = help_lines()
    assert any(logic.METHODS["exact"].label in words for _keys, words in lines)
    assert any(keys == "R" and "prove again" in words for keys, words in lines)
    a.close()


def test_exact_from_the_menu_proves_the_blockage(home) -> None:
    a = make(home, WALL)
    choose_method(a, "exact")
    assert a.state.options.method.name == "exact"
    assert a.panel.method_menu.selected_option[0].startswith("exact")
    until_proved(a)
    b = window_banner(a.state)
    assert b.kind == "blocked" and b.head.startswith("White cannot win — proved (exact: ")
    assert "Black cannot win — proved" in " ".join(x.text for x in b.blocks)
    ov = a.state.playback.overlay()  # the live view: the defending king's squares, H
    assert ov.kingmap == a.state.playback.verdict.king_mask and ov.kingmap_holds and ov.kingmap
    assert chess.E8 in chess.SquareSet(ov.kingmap) and not ov.kingmap & chess.BB_RANK_1
    assert EXACT_HOLDS in a.state.legend() and EXACT_BREAKS in a.state.legend()
    assert a.layout.legend.height > 0
    a.close()
    assert not a.state.proof.job.alive()


@pytest.mark.slow
def test_fine70_breaks_through_and_its_moves_are_positions_with_labelled_arrows(home) -> None:
    a = make(home, FINE70, method="exact")
    until_proved(a)
    v = a.state.playback.verdict
    b = window_banner(a.state)
    assert b.kind == "open" and b.head.startswith("White forces a promotion: 1. Kb1!")
    ov = a.state.playback.overlay()
    assert not ov.kingmap_holds and ov.kingmap == v.king_mask and chess.A1 in \
        chess.SquareSet(ov.kingmap)
    assert ov.arrow == (chess.A1, chess.B1, "Kb1")  # the line's first move, live
    kinds = [s.kind for s in v.steps]
    assert kinds[0] == "exact-structure" and "exact-move" in kinds and kinds[-1] == "verdict"
    # the structures one by one: ghost pawns instead of the board's
    frames(a, [key(pygame.K_RIGHT)])
    ov = a.state.playback.overlay()
    step = v.steps[0]
    assert ov.ghosts == (step.board("structure_white"), step.board("structure_black"))
    assert ov.kingmap == 0 and window_banner(a.state).head.endswith(step.text)
    # on to the first move of the line (real key presses), then one more
    first = kinds.index("exact-move")
    frames(a, *[[key(pygame.K_RIGHT)] for _ in range(first)])
    assert a.state.playback.timeline.index == first
    for k in (first, first + 1):
        step = v.steps[k]
        ov = a.state.playback.overlay()
        assert ov.fen == step.fact("fen") and ov.ghosts is None and ov.kingmap == 0
        assert ov.arrow == (step.fact("from"), step.fact("to"), step.fact("san"))
        assert window_banner(a.state).head == f"{step.phase}: {step.text}"
        # the board on screen is the position after the move, not the editor's
        want = pygame.Surface(a.screen.get_size())
        Painter().render_board(want, a.layout.board, chess.Board(step.fact("fen")),
                               overlay=replace(ov, fen=""))
        left, top, sq = board_geometry(a.layout.board)
        grid = pygame.Rect(left, top, 8 * sq, 8 * sq)
        diff = sum(1 for x in range(grid.left, grid.right, 3) for y in range(grid.top,
                   grid.bottom, 3) if a.screen.get_at((x, y)) != want.get_at((x, y)))
        assert diff == 0
        assert a.state.position.editor.fen.startswith("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7")
        frames(a, [key(pygame.K_RIGHT)])
    assert v.steps[first].fact("san") == "Kb1"
    a.close()


def test_progress_in_the_banner_and_the_board_stays_editable(home) -> None:
    a = make(home, SLOW, method="exact")
    frames(a, [], [])
    p = a.state.proof.proving()
    assert p is not None and a.state.playback.verdict is None
    b = window_banner(a.state)
    assert b.kind == "busy" and b.head.startswith("Exact: proving for White … ")
    assert " structures, " in b.head and b.head.endswith(" s")
    assert "Esc or an edit cancels" in " ".join(x.text for x in b.blocks)
    assert a.export_png() is None and "still working" in a.state.message.text
    # an edit while proving: the job is superseded, the board changed at once
    frames(a, [down(centre(a, "e8")), motion(centre(a, "d8")), up(centre(a, "d8"))])
    assert a.state.position.editor.board.king(chess.BLACK) == chess.D8
    assert a.state.proof.proving() is not None and a.state.proof.proving().token != p.token
    assert _proof_threads() <= 1
    a.close()


def test_esc_cancels_and_no_thread_is_left(home) -> None:
    before = _proof_threads()
    a = make(home, SLOW, method="exact")
    frames(a, [], [])
    assert a.state.proof.proving() is not None and a.state.proof.job.alive()
    frames(a, [key(pygame.K_ESCAPE)], [])
    assert a.state.proof.proving() is None and a.state.playback.verdict is None
    b = window_banner(a.state)
    assert b.head.startswith("Exact: no verdict — cancelled while proving for White after")
    deadline = time.monotonic() + HANG
    while a.state.proof.job.alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not a.state.proof.job.alive() and _proof_threads() == before
    # R proves again
    frames(a, [key(pygame.K_r, unicode="r")])
    assert a.state.proof.proving() is not None and not a.state.proof.note
    a.close()
    assert not a.state.proof.job.alive()


def test_an_edit_cancels_and_a_stale_result_never_lands(home) -> None:
    before = _proof_threads()
    a = make(home, SLOW, method="exact")
    frames(a, [], [])
    assert a.state.proof.proving() is not None
    # a white queen: no longer a king-and-pawn position, decided in the frame
    a.state.options.select_tool("Q")
    frames(a, [down(centre(a, "d4")), up(centre(a, "d4"))], [])
    assert a.state.playback.verdict is not None and a.state.playback.verdict.status == "pieces"
    assert a.state.proof.proving() is None
    deadline = time.monotonic() + HANG
    while a.state.proof.job.alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not a.state.proof.job.alive(), "the cancelled job's thread is still alive"
    assert _proof_threads() == before
    frames(a, [], [])
    assert a.state.playback.verdict.status == "pieces"  # nothing of the old job landed
    # Fine #70 and at once another board: what arrives is for the board on show
    a.state.load_fen(FINE70)
    frames(a, [key(pygame.K_2, unicode="2")], [down(centre(a, "h2")), up(centre(a, "h2"))])
    until_proved(a)
    assert a.state.playback.verdict.detail.fen == a.state.position.editor.board.fen()
    a.close()


def test_rapid_edits_keep_one_job_and_one_thread(home) -> None:
    before = threading.active_count()
    a = make(home, SLOW, method="exact")
    frames(a, [key(pygame.K_2, unicode="2")])
    for i in range(20):
        sq = centre(a, "a3" if i % 2 else "h3")
        frames(a, [down(sq), up(sq)])
        assert _proof_threads() <= 1 and threading.active_count() <= before + 1
    a.close()
    assert not a.state.proof.job.alive() and threading.active_count() <= before


def test_a_proving_window_sleeps_but_shows_progress(home) -> None:
    a = make(home, SLOW, method="exact")
    a.run(seconds=0.8)  # the half second after input ends
    before = a.draws
    n0 = a.state.proof.proving().structures
    a.run(seconds=1.2)
    assert 2 <= a.draws - before <= 8  # four times a second, not every frame
    # the count the window shows grows while it sleeps (a proof's phase between two
    # reports may take a while on a busy machine: a generous timeout, not a budget)
    deadline = time.monotonic() + HANG
    while a.state.proof.proving().structures <= n0 and time.monotonic() < deadline:
        a.run(seconds=0.25)
    assert a.state.proof.proving().structures > n0
    a.close()


@pytest.mark.slow
def test_code_pane_has_the_exact_listing_and_follows_its_steps(home) -> None:
    listing = logic.METHODS["exact"].listing
    assert "retrograde" in listing.title.lower() and "bitbase.cpp" in listing.title
    v = logic.detect(chess.Board(FINE70), chess.WHITE, method="exact", trace=True)
    for kind in ("exact-structure", "exact-solve", "exact-kings", "exact-move", "verdict"):
        step = next(s for s in v.steps if s.kind == kind)
        assert line_of(listing, step) is not None, kind
    a = make(home, FINE70, size=(1920, 1080), method="exact")
    until_proved(a)
    assert "code" in a.panel.panes
    for k in range(3):
        frames(a, [key(pygame.K_RIGHT)])
        got, cur, _prev = a.code.current()
        assert got is listing and cur == line_of(listing, a.state.playback.verdict.steps[k])
    # scrolled far past the end (the wheel only stopped at the top): the listing's last
    # line is the pane's last, no empty half below it
    a.code.scroll = 10**6
    frames(a, [key(pygame.K_END)], [])
    mono = a.painter.fonts.get(a.code.px, "mono")
    rows = a.code._wrapped(listing, a.code.rect.width)
    assert 0 < a.code.scroll <= len(rows) * mono.get_linesize() - a.code.rect.height // 2
    a.close()


# -- overlays -----------------------------------------------------------------------------
def _square(surface: pygame.Surface, rect: pygame.Rect, square: int) -> pygame.Rect:
    left, top, sq = board_geometry(rect)
    f, r = chess.square_file(square), chess.square_rank(square)
    return pygame.Rect(left + f * sq, top + (7 - r) * sq, sq, sq)


@pytest.mark.parametrize("holds", [True, False])
def test_king_map_squares_get_a_hatch_and_a_letter(holds: bool) -> None:
    painter = Painter()
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 w - -")
    rect = pygame.Rect(0, 0, 424, 424)
    plain, marked = pygame.Surface(rect.size), pygame.Surface(rect.size)
    painter.render_board(plain, rect, board)
    ov = Overlay(kingmap=chess.BB_D4 | chess.BB_E8, kingmap_holds=holds)
    painter.render_board(marked, rect, board, overlay=ov)
    colour = painter.colours["kingmap_holds" if holds else "kingmap_breaks"]
    letter = painter.tiles.letter_box("H" if holds else "B", colour, 50)
    for s in (chess.D4, chess.E8):
        box = _square(marked, rect, s)
        sq = box.width
        inset = max(2, sq // 14)
        lb = pygame.Rect(box.left + inset, box.bottom - letter.get_height() - inset,
                         letter.get_width(), letter.get_height())
        inside = [tuple(marked.get_at(p))[:3] for p in ((lb.left + 3, lb.top + 3),
                                                        (lb.right - 4, lb.bottom - 4))]
        assert all(c == colour for c in inside), (s, inside)  # the letter's box
        ink = {tuple(marked.get_at((x, y)))[:3] for x in range(lb.left, lb.right)
               for y in range(lb.top, lb.bottom)}
        assert (255, 255, 255) in ink  # the white letter on it
        # the hatch: rows of the square's upper half differ from the plain board
        col = box.left + sq // 2 + sq // 4
        rows = [y for y in range(box.top, box.top + sq // 2)
                if marked.get_at((col, y)) != plain.get_at((col, y))]
        assert len(rows) >= sq // 4
    other = _square(marked, rect, chess.A1)
    assert all(marked.get_at(p) == plain.get_at(p) for p in
               ((other.centerx, other.centery), (other.left + 3, other.bottom - 4)))
    # the letter and the hatch, not the colour alone: the legend says what they mean
    item = EXACT_HOLDS if holds else EXACT_BREAKS
    assert item.letter == ("H" if holds else "B") and item.style == "kingmap"
    assert item.text.startswith("H = defending king holds here" if holds else
                                "B = attacking king forces a promotion from here")


@pytest.mark.slow
def test_structure_steps_are_ghost_pawns_and_the_legend_follows_the_verdict() -> None:
    board = chess.Board(FINE70)
    v = logic.detect(board, chess.WHITE, method="exact", trace=True)
    painter = Painter()
    rect = pygame.Rect(0, 0, 424, 424)
    shown = [step_overlay(v, i) for i, s in enumerate(v.steps) if s.kind == "exact-structure"]
    assert shown and all(o.ghosts for o in shown)
    # a structure solved that lacks a pawn of the position (a capture or a push away)
    ov = next(o for o in shown if board.pawns & ~(o.ghosts[0] | o.ghosts[1]))
    wp, bp = ov.ghosts
    gone = board.pawns & ~(wp | bp)
    surf, plain = pygame.Surface(rect.size), pygame.Surface(rect.size)
    painter.render_board(surf, rect, board, overlay=ov)
    painter.render_board(plain, rect, chess.Board("8/k7/8/8/8/8/8/K7 w - -"))
    for s in chess.scan_forward(gone):  # a pawn the structure lacks is not drawn
        box = _square(surf, rect, s)
        assert surf.get_at(box.center) == plain.get_at(box.center)
    for s in chess.scan_forward(wp | bp):  # a ghost: a dashed frame in the ghost colour
        box = _square(surf, rect, s)
        edge = box.inflate(-box.width // 8, -box.width // 8)
        ink = {tuple(surf.get_at((x, edge.top)))[:3] for x in range(edge.left, edge.right)}
        assert painter.colours["ghost"] in ink
    assert live_overlay(v).arrow[2] == "Kb1"
    breaks = legend_items(logic.METHODS["exact"], code="breaks")
    proved = legend_items(logic.METHODS["exact"], code="proved")
    assert EXACT_BREAKS in breaks and EXACT_HOLDS not in breaks
    assert EXACT_HOLDS in proved and EXACT_BREAKS not in proved


# -- the analysis pane, render ----------------------------------------------------------------
def test_analysis_pane_shows_the_exact_verdicts_of_both_sides(home) -> None:
    a = make(home, WALL, search=True, engine="/nonexistent/engine")
    deadline = time.monotonic() + HANG
    while a.analysis.result is None or not a.analysis.result.done:
        assert time.monotonic() < deadline
        frames(a, [])
        time.sleep(0.05)
    frames(a, [])
    r = a.analysis.result
    assert [d["code"] for d in r.exact] == ["proved", "proved"]
    texts = [t for t, _style, _pos in a.pane._texts]
    assert any(t.startswith("½ White cannot win — proved") for t in texts), texts
    assert any(t.startswith("½ Black cannot win — proved") for t in texts)
    assert any(t.startswith("exact prover, 3 s a side") for t in texts)
    a.close()


@pytest.mark.slow
def test_render_method_exact_draws_the_king_map_and_its_legend(tmp_path) -> None:
    from viewer.cli import main

    out = tmp_path / "fine70.png"
    svg = tmp_path / "wall.svg"
    assert main(["render", FINE70, "--method", "exact", "--size", "320", "--out",
                 str(out)]) == 0
    assert main(["render", WALL, "--method", "exact", "--size", "320", "--out",
                 str(svg)]) == 0
    img = pygame.image.load(str(out))
    assert img.get_width() == 320 and img.get_height() > 320
    colours = {tuple(img.get_at((x, y)))[:3] for x in range(0, 320, 2)
               for y in range(0, img.get_height(), 2)}
    assert Painter().colours["kingmap_breaks"] in colours
    text = svg.read_text()
    assert 'data-texture="kingmap_holds"' in text and ">H<" in text
    assert "H = defending king holds here" in text and "forces a promotion from here" not in text


def test_an_unknown_verdict_says_the_budget_ran_out_not_illegal() -> None:
    """The banner of a proof out of budget gives the prover's reason (no guess), never the
    illegal position's "the detectors need a legal king-and-pawn position"."""
    board = chess.Board(SLOW)
    v = logic.METHODS["exact"].decide_board(board, chess.WHITE, ("slow",), False,
                                            max_seconds=0.05)
    head, sub, kind = banner_text(v)
    assert v.status == "unknown" and kind == "na"
    assert "budget ran out" in head and "time ran out" in sub and "legal" not in sub


@pytest.mark.slow
def test_r_after_an_unknown_proves_again_with_twice_the_time(home, monkeypatch) -> None:
    """An "unknown" banner offers R; R proves the same board again with twice the budget
    (the proof's own time says so), and a new board starts from the default again."""
    method = logic.METHODS["exact"]
    # a budget too short for a horizon of MIN_HORIZON plies, twice it too
    monkeypatch.setattr(method, "max_seconds", 0.05)
    asked: list[float | None] = []  # the budget each proof was given (None: the default)
    decide = method.decide_board

    def spy(*args, max_seconds=None, **kw):
        asked.append(max_seconds)
        return decide(*args, max_seconds=max_seconds, **kw)

    monkeypatch.setattr(method, "decide_board", spy)
    a = make(home, SLOW, method="exact")
    until_proved(a)
    assert a.state.playback.verdict.status == "unknown" and set(asked) == {None}
    assert "R: twice the time" in window_banner(a.state).blocks[1].text
    from viewer.figures.frame import frame_of
    from viewer.model.text import frame_banner

    f = frame_of(a.state)  # an export of the window has no key hint
    assert "R:" not in " ".join(b.text for b in frame_banner(f.verdict, f.other).blocks)
    frames(a, [key(pygame.K_r, unicode="r")])
    assert a.state.proof.seconds == pytest.approx(0.1) and "0.1 s a side" in \
        a.state.message.text
    until_proved(a)
    v = a.state.playback.verdict
    assert v.status == "unknown" and v.detail.result.ran_out == "time"
    assert asked[-1] == pytest.approx(0.1)
    before = a.state.position.editor.fen
    asked.clear()
    frames(a, [down(centre(a, "d2")), up(centre(a, "d2"))])  # an edit: the d2-pawn off
    assert a.state.position.editor.fen != before
    until_proved(a)
    assert a.state.proof.seconds is None and asked and set(asked) == {None}


def test_r_is_not_offered_once_the_structure_ceiling_ended_the_proof(home, monkeypatch) -> None:
    """More time buys more structures (:func:`logic.exact.structure_budget`) only up to the
    ceiling: an unknown that stopped there says so, the banner offers no R, and R says
    why it does nothing."""
    from logic.exact import budget, prover

    for mod, name in ((budget, "STRUCTURE_CEILING"), (budget, "MAX_STRUCTURES"),
                      (prover, "STRUCTURE_CEILING"), (prover, "MAX_STRUCTURES")):
        monkeypatch.setattr(mod, name, 300)
    a = make(home, SLOW, method="exact")
    until_proved(a)
    r = a.state.playback.verdict.detail.result
    assert a.state.playback.verdict.status == "unknown" and r.ran_out == "structures"
    # at most the 300 (the call stops before an expansion that would outgrow what is
    # left, so where it stops depends on which strategy the clock stepped last)
    assert 0 < r.structures <= 300 and not a.state.can_prove_longer()
    assert "R:" not in window_banner(a.state).blocks[1].text
    assert f"structure budget ran out: {r.structures:,} solves" in " ".join(
        b.text for b in window_banner(a.state).blocks)
    frames(a, [key(pygame.K_r, unicode="r")])
    assert a.state.proof.seconds is None and "most structures" in a.state.message.text


@pytest.mark.slow
def test_a_gif_from_the_dialog_is_encoded_while_the_window_goes_on(home, tmp_path) -> None:
    """Ctrl+G, a file picked: the frames are drawn at once and encoded in the background,
    so the window keeps taking keys (F flips the board meanwhile); the message says when
    it is saved, and closing the window waits for the file."""
    import pygame_gui
    from PIL import Image

    a = make(home, FINE70, method="exact")
    until_proved(a)
    frames(a, [key(pygame.K_g, mod=pygame.KMOD_CTRL)])
    assert a.file_dialog is not None and a.dialog_for == "gif"
    target = tmp_path / "trace.gif"
    frames(a, [pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(target),
                                  ui_element=a.file_dialog)])
    assert a.exporter.busy and "Saving the GIF" in a.state.message.text
    frames(a, [key(pygame.K_f, unicode="f")])
    assert a.state.options.flipped  # the window took a key while the GIF was being encoded
    deadline = time.monotonic() + HANG
    while a.exporter.busy:
        assert time.monotonic() < deadline
        frames(a, [])
        time.sleep(0.05)
    assert a.state.message.text.startswith(f"Saved {target}")
    with Image.open(target) as im:
        assert im.n_frames == len(a.state.playback.verdict.steps) + 1
    second = tmp_path / "second.gif"
    a.exporter.export("gif", second, background=True)
    a.close()  # waits for the encoding
    with Image.open(second) as im:
        assert im.n_frames > 10


def test_a_background_gif_that_cannot_be_written_says_why(home, tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("x")
    a = make(home, FINE70, method="paper")
    # a relative path: the message names it in full whatever the length of the tmp path
    monkeypatch.chdir(tmp_path)
    a.exporter.export("gif", Path("taken") / "trace.gif", background=True)
    deadline = time.monotonic() + HANG
    while a.exporter.busy:
        assert time.monotonic() < deadline
        frames(a, [])
        time.sleep(0.02)
    assert "is a file, not a folder" in a.state.message.text
    assert blocker.read_text() == "x"


def test_the_banner_says_when_the_proof_is_in_and_the_line_is_being_found() -> None:
    from viewer.model.proof import Progress
    from viewer.model.text import proving_text

    p = Progress("t", True, 934, 0, time.monotonic())
    assert proving_text(p).startswith("proving for White … 934 structures")
    assert proving_text(p._replace(line=True)).startswith(
        "White forces a promotion or mate (proved) — finding the line")


@pytest.mark.slow
def test_the_proof_job_reports_the_line_phase() -> None:
    """The background job passes the prover's "line begins" on: its progress says so."""
    logic.METHODS["exact"].clear_cache()
    job = ProofJob()
    seen = []
    job.start("fine70", chess.Board(FINE70), True, "exact")
    deadline = time.monotonic() + HANG
    while job.running:
        assert time.monotonic() < deadline
        p = job.progress
        if p is not None:
            seen.append((p.stage, p.line))
        time.sleep(0.002)
    job.close()
    assert (0, True) in seen and seen[0] == (0, False)
