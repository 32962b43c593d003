"""The window for the programmer and the teacher (issue 38), driven headless through the
real loop with real pygame events: the Compare pane (every method at once, exact in the
background, marks where a method disagrees with exact, a click opens the trace), the
exact prover while it works (a budget bar, the structures solved in the Steps pane, the
message line that never covers the banner), the Analysis pane's line bar and one arrow
for two searches on one move, text sizes at three window sizes and a legend that folds
in a small window, the reason of the square under the mouse, and small things (the Play
button after playback, a headline that names its phase once)."""

from __future__ import annotations

import time
from dataclasses import replace

import chess
import pytest

import logic

pygame = pytest.importorskip("pygame")
pytest.importorskip("pygame_gui")

from logic.compare import compare  # noqa: E402
from logic.legend import BOARD_LEGEND as LEGEND  # noqa: E402
from tests.test_viewer import D16, WIKI, centre, frames, key, motion  # noqa: E402
from tests.test_viewer_exact import SLOW  # noqa: E402
from tests.test_viewer_panes import click, make  # noqa: E402
from tests.waiting import HANG  # noqa: E402
from viewer.figures.fonts import Fonts  # noqa: E402
from viewer.figures.render import board_geometry  # noqa: E402
from viewer.model import text as vtext  # noqa: E402
from viewer.window.app import App  # noqa: E402
from viewer.window.compare_pane import MARKS, PENDING, cell_words, method_rows  # noqa: E402
from viewer.window.hover import note_line, square_reason  # noqa: E402
from viewer.window.layout import compute_layout  # noqa: E402
from viewer.window.view import MERGED, arrow_marks  # noqa: E402

#: both sides blocked by three rams: every static method misses it, exact proves it
RAMS = "8/8/3k4/1p1p1p2/1P1P1P2/8/3K4/8 w - - 0 1"
#: both searches of the analysis choose Kb1 here
KB1 = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"


def show_pane(app: App, name: str, slot: int = 0) -> None:
    """Click the tab of pane ``name`` in ``slot`` (a real click)."""
    click(app, app.panel.tabs[slot][name].rect.center)
    assert app.panel.panes[slot] == name


def until(app: App, done, timeout: float = HANG) -> bool:
    """Run frames until ``done()`` (a background job's result; the wait is bounded)."""
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        frames(app, [])
        time.sleep(0.02)
    return bool(done())


# -- 6. the Compare pane ----------------------------------------------------------------------
def test_compare_pane_shows_every_method_with_marks_where_exact_disagrees(home) -> None:
    """Paper, flood, extended and exact for White and Black; exact's cells come from the
    background and, once in, every static cell that exact's proof contradicts carries the
    letter of ``pawnfence explain --all`` (the same data)."""
    a = make(home, fen=RAMS)
    show_pane(a, "compare")
    assert method_rows() == ("paper", "flood", "extended", "exact")
    assert until(a, lambda: all(a.compare.cells()["exact"].values()))
    frames(a, [])
    want = compare(chess.Board(RAMS)).cells
    shown = a.compare.cells()
    for method in method_rows():
        for color in chess.COLORS:
            cell, ref = shown[method][color], want[method][color]
            assert (cell.blocked, cell.status, cell.rule, cell.disagrees) == \
                (ref.blocked, ref.status, ref.rule, ref.disagrees), (method, color)
            words = cell_words(cell)
            assert ref.text in words
            assert words.startswith(MARKS[ref.disagrees]) if ref.disagrees else \
                words[0] not in MARKS.values()
    assert shown["exact"][chess.WHITE].blocked and shown["paper"][chess.WHITE].disagrees
    assert cell_words(shown["exact"][chess.WHITE]).endswith(" ms") or \
        cell_words(shown["exact"][chess.WHITE]).endswith(" s")  # exact's time
    for rect in a.compare.cell_rects.values():  # every cell drawn inside the pane
        assert a.compare.rect.contains(rect)
    a.close()


def test_compare_pane_says_pending_until_exact_is_in_and_follows_the_board(home) -> None:
    a = make(home, fen=SLOW)
    show_pane(a, "compare")
    cells = a.compare.cells()
    assert cells["exact"][chess.WHITE] is None and cell_words(None) == PENDING
    assert all(cells[m][c] is not None for m in ("paper", "flood", "extended")
               for c in chess.COLORS)  # the static methods at once
    assert a.compare.job.running
    a.state.load_fen(D16)  # a new board: the proof of the old one is dropped
    frames(a, [])
    assert until(a, lambda: all(a.compare.cells()["exact"].values()))
    got = a.compare.cells()["paper"][chess.WHITE]
    want = compare(chess.Board(D16), methods=("paper",)).cells["paper"][chess.WHITE]
    assert replace(got, ms=0) == replace(want, ms=0)  # the new board's
    a.close()
    assert not a.compare.job.alive()


def test_a_click_on_a_compare_cell_opens_that_method_and_side_with_its_trace(home) -> None:
    a = make(home, fen=WIKI)  # two slots at 1280x860? one: the trace replaces the table
    show_pane(a, "compare")
    frames(a, [])
    rect = a.compare.cell_rects[("flood", chess.BLACK)]
    click(a, rect.center)
    s = a.state
    assert (s.options.method.name, s.options.side) == ("flood", "black")
    assert s.playback.verdict.method == "flood" and s.playback.verdict.color == chess.BLACK
    assert s.playback.verdict.steps and "steps" in a.panel.panes
    a.close()


# -- 8. the exact prover while it works ---------------------------------------------------------
def test_a_running_proof_has_a_budget_bar_and_the_steps_pane_counts_structures(home, monkeypatch
                                                                             ) -> None:
    a = make(home, fen=SLOW, method="exact")
    show_pane(a, "steps")
    assert until(a, lambda: (a.state.proof.proving() or [0, 0, 0])[2] > 0)
    p = a.state.proof.proving()
    budget = a.state.proof_budget()
    assert budget == logic.METHODS["exact"].max_seconds
    since = max(p.started, p.stage_started)
    assert p.stage == 0 and since >= p.started
    assert a.state.proof_share(since + budget / 2) == pytest.approx(0.5)
    assert a.state.proof_share(since + budget * 3) == 1.0
    n0 = a.state.proof.proving().structures
    frames(a, [])
    lines = a.steps.proving_lines()
    white = next(ln for ln in lines if "White: " in ln and "pawn structures solved" in ln)
    assert int(white.split("White: ")[1].split()[0].replace(",", "")) >= n0 > 0
    assert any("Black: next" in ln for ln in lines)
    bar = a.view.budget_bar(a.layout)
    assert a.layout.banner.contains(bar)
    monkeypatch.setattr(a.state, "proof_share", lambda now=None: 0.5)  # half the time used
    frames(a, [])
    blue = a.painter.colours["path"]
    for screen_bar in (bar, a.steps.bar):
        y = screen_bar.centery
        assert a.screen.get_at((screen_bar.left + screen_bar.width // 4, y))[:3] == blue
        assert a.screen.get_at((screen_bar.left + screen_bar.width * 3 // 4, y))[:3] != blue
    assert a.steps.bar.width > 0 and a.steps.rect.contains(a.steps.bar)
    a.close()


def test_proof_cancelled_goes_when_a_new_proof_starts(home) -> None:
    a = make(home, fen=SLOW, method="exact")
    frames(a, [key(pygame.K_ESCAPE)])
    assert "Proof cancelled" in a.state.message.text
    frames(a, [key(pygame.K_r, unicode="r")])  # R proves again
    assert a.state.proof.proving() is not None
    assert "Proof cancelled" not in a.state.message.text
    frames(a, [key(pygame.K_ESCAPE)])
    assert "Proof cancelled" in a.state.message.text
    frames(a, [key(pygame.K_s, unicode="s")])  # the other side: a new proof
    assert a.state.proof.proving() is not None
    assert "Proof cancelled" not in a.state.message.text
    a.close()


@pytest.mark.parametrize("size", [(900, 650), (1280, 860), (1920, 1080)])
def test_a_message_never_covers_the_banner_or_the_board(home, size) -> None:
    from viewer.figures.render import board_cover

    a = make(home, size, fen=WIKI)

    def grab(rect):
        frames(a, [])
        return pygame.image.tobytes(a.screen.subsurface(rect), "RGB")

    banner, board, status = (grab(a.layout.banner), grab(board_cover(a.layout.board)),
                             grab(a.layout.status))
    a.state.say("Not loaded: " + "a long reason that has to be cut " * 12)
    assert grab(a.layout.banner) == banner and grab(board_cover(a.layout.board)) == board
    assert grab(a.layout.status) != status
    assert a.view.message_px >= round(a.layout.px * 0.8)
    for name, rect in a.layout.leaves().items():
        if name != "status":
            assert not rect.colliderect(a.layout.status), name
    a.close()


# -- 9. the Analysis pane ----------------------------------------------------------------------
@pytest.mark.slow
def test_back_to_the_position_fits_in_the_analysis_pane(home) -> None:
    for size in ((1280, 860), (900, 650), (1920, 1080)):
        a = make(home, size, fen=KB1, engine="/nonexistent/engine", search=True,
                 search_seconds=0.3)
        a.analysis.wait(HANG)
        frames(a, [])
        a.pane._build()
        play = next(b for b in a.pane.buttons if b.action == "line:with")
        click(a, play.rect.center)
        assert a.state.position.line is not None
        back = next(b for b in a.pane.buttons if b.action == "line:stop")
        assert a.pane.rect.contains(back.rect), size
        font = a.painter.fonts.get(a.pane.px)
        assert font.size(back.label)[0] <= back.rect.width - 6, size  # one line, not cut
        click(a, back.rect.center)
        assert a.state.position.line is None
        a.close()


@pytest.mark.slow
def test_two_searches_on_one_move_are_one_arrow_with_both_marks(home, monkeypatch) -> None:
    marks = arrow_marks([("arrow_with", "a1b1"), ("arrow_without", "a1b1"),
                         ("arrow_engine", "a1b1")])
    assert [m.roles for m in marks] == [MERGED, ("arrow_engine",)]
    assert marks[0].offset == -marks[1].offset != 0
    assert [m.roles for m in arrow_marks([("arrow_with", "a1b1"),
                                          ("arrow_without", "a1b2")])] == \
        [("arrow_with",), ("arrow_without",)]
    a = make(home, fen=KB1, engine="/nonexistent/engine", search=True, search_seconds=0.3)
    a.analysis.wait(HANG)
    frames(a, [])
    r = a.analysis.result
    assert r.with_detection["pv"][0] == r.without_detection["pv"][0] == "a1b1"
    singles = []
    monkeypatch.setattr(a.painter, "render_arrows",
                        lambda *args, **kw: singles.append(args[2]))
    frames(a, [])
    assert singles == []  # no separate solid and dashed arrows for a1b1
    monkeypatch.undo()
    frames(a, [])
    left, top, sq = board_geometry(a.layout.board)
    y = top + 7 * sq + sq // 2  # the first rank: the shaft from a1 to b1
    row = [a.screen.get_at((x, y))[:3] for x in range(left + sq // 2, left + sq + sq // 3)]
    c = a.painter.colours
    assert c["arrow_with"] in row and c["arrow_without"] in row  # one arrow, both marks
    a.close()


# -- 10. text sizes ----------------------------------------------------------------------------
def _glyph_height(surface, rect, colour) -> int:
    rows = [y for y in range(rect.top, rect.bottom)
            if any(sum(abs(a - b) for a, b in zip(surface.get_at((x, y))[:3], colour,
                                                   strict=True)) < 60
                   for x in range(rect.left, rect.right))]
    return max(rows) - min(rows) + 1 if rows else 0


def test_text_is_large_enough_at_1280x860(home) -> None:
    """Legend and panes at least 15 px, the coordinates' glyphs at least as tall as a
    13 px label's."""
    a = make(home, (1280, 860), fen=D16)
    lay = a.layout
    assert lay.px >= 15 and a.view.legend_px(lay) >= 15
    assert a.panel.px >= 15 and a.steps.px >= 15 and a.code.px >= 15 and a.compare.px >= 15
    left, top, sq = board_geometry(lay.board)
    label = pygame.Rect(lay.board.left, top, left - lay.board.left, sq)  # the "8"
    ink = _glyph_height(a.screen, label, a.painter.colours["coord"])
    eight = Fonts().get(13).render("8", True, (255, 255, 255)).get_bounding_rect().height
    assert ink >= eight
    a.close()


def test_the_banners_reason_is_never_smaller_than_the_legend_at_1920x1080(home) -> None:
    a = make(home, (1920, 1080), fen=D16)
    legend = a.view.legend_px(a.layout)
    for k in range(a.state.playback.timeline.count + 1):
        fit = a.view.banner_fit
        subs = [ln.px for ln in fit.lines if ln.role in ("sub", "muted")]
        assert subs and min(subs) >= legend, k
        frames(a, [key(pygame.K_RIGHT)])
    a.close()


def test_a_small_window_gives_the_board_the_space_and_folds_the_legend(home) -> None:
    a = make(home, (900, 650), fen=D16)
    lay = a.layout
    assert lay.folded and lay.foldable and lay.legend.top > lay.board.bottom
    _left, _top, sq = board_geometry(lay.board)
    assert 8 * sq >= 440  # 330 px beside a full-height legend before
    frames(a, [key(pygame.K_g, unicode="g")])
    assert not a.layout.folded and a.view.legend_px(a.layout) >= a.layout.px - 1
    click(a, a.layout.legend.center)  # a click on the legend folds it again
    assert a.layout.folded
    click(a, a.layout.legend.center)
    assert not a.layout.folded
    a.close()
    for size in ((1280, 860), (1920, 1080)):
        big = compute_layout(size, legend=LEGEND, fold=True)
        assert not big.foldable and not big.folded


# -- 11. hover -----------------------------------------------------------------------------------
def test_the_square_under_the_mouse_shows_its_reason(home) -> None:
    a = make(home, fen=D16)
    v = a.state.playback.verdict
    note = next(n for n in v.pawns)
    frames(a, [motion(centre(a, chess.square_name(note.square)))])
    want = note_line(note.square, str(note.category), note.ok, note.reason)
    assert a.view.hover_text == want and note.reason in a.view.hover_text
    box = a.view.hover_box
    assert box.width and a.layout.board.contains(box)
    frames(a, [key(pygame.K_RIGHT)] * 1, *[[key(pygame.K_RIGHT)] for _ in range(4)])
    k = a.state.playback.timeline.index
    step = next(s for s in reversed(v.steps[:k + 1]) if s.square is not None)
    frames(a, [motion(centre(a, chess.square_name(step.square)))])
    assert a.view.hover_text == square_reason(v, k, step.square)
    assert step.text in a.view.hover_text
    frames(a, [motion((a.layout.panel.centerx, 5))])  # off the board: nothing
    assert a.view.hover_text == "" and not a.view.hover_box.width
    a.close()


def test_square_reason_reads_records_not_text() -> None:
    board = chess.Board(D16)
    v = logic.detect(board, chess.WHITE, trace=True)
    empty = next(s for s in chess.SQUARES if not any(
        st.square == s or st.changed & chess.BB_SQUARES[s] for st in v.steps)
        and board.piece_at(s) is None)
    assert square_reason(v, None, empty) == ""
    assert square_reason(None, None, chess.E4) == ""
    for note in v.pawns:
        assert square_reason(v, None, note.square).startswith(chess.square_name(note.square))


# -- 13. small things ----------------------------------------------------------------------------
def test_the_play_button_reads_play_again_when_playback_ends(home) -> None:
    """Played to its end in the real loop (an idle window draws only what changed): the
    frame on screen shows "Play", the same as a fresh drawing."""
    a = make(home, fen=D16)
    a.state.playback.timeline.set_speed(20.0)
    frames(a, [key(pygame.K_SPACE, unicode=" ")])
    assert a.state.playback.timeline.playing
    assert a.panel.buttons["play:toggle"].text == "Pause"
    deadline = time.monotonic() + HANG
    while a.state.playback.timeline.playing and time.monotonic() < deadline:
        a.run(seconds=0.3)
    a.run(seconds=0.8)  # the half second of redrawing after input is over
    assert not a.state.playback.timeline.playing
    assert a.panel.buttons["play:toggle"].text == "Play"
    rect = a.panel.buttons["play:toggle"].rect
    shown = pygame.image.tobytes(a.screen.subsurface(rect), "RGB")
    a.draw()
    assert pygame.image.tobytes(a.screen.subsurface(rect), "RGB") == shown
    a.close()


def test_the_headline_names_its_phase_once(home) -> None:
    a = make(home, fen=WIKI, method="flood")
    tl = a.state.playback.timeline
    seen = 0
    for _ in range(tl.count):
        frames(a, [key(pygame.K_RIGHT)])
        step = a.state.playback.verdict.steps[tl.index]
        head = vtext.window_banner(a.state).head
        assert not head.casefold().startswith(f"{step.phase}: {step.phase}".casefold()), head
        assert step.text in head
        seen += step.text.casefold().startswith(step.phase.casefold())
    assert seen  # the flood's steps that open with their phase were among them
    a.close()


def test_the_budget_bar_of_the_second_side_starts_from_its_own_start() -> None:
    """Each side has its own budget: the other side's bar counts from when its proof
    started, the banner's seconds from the job's start."""
    from viewer.model.proof import Progress

    p = Progress("t", False, 10, 1, 100.0, stage_started=108.0)
    assert p.seconds(113.0) == 13.0 and p.stage_seconds(113.0) == 5.0
    assert Progress("t", True, 0, 0, 100.0).stage_seconds(104.0) == 4.0
