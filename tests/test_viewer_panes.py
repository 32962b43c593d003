"""The viewer's second round (issue 13), driven headless through the real loop with real
pygame events: presentation (wrapping, sizes, the step as headline, projector mode, a
layout without overlaps), seeing the algorithm (step list, scrubber, code panel, the
recomputed fence as a difference, badges by shape), state that stays true (the FEN
field, captions, the side of a diagram, en passant, back-rank pawns), the analysis
pane (SAN, arrows, time, lines played on the board), figures (export options, the save
dialog, render, SVG against PNG), an idle window that sleeps, and reference images of
whole windows at three sizes."""

from __future__ import annotations

import itertools
import time

import chess
import pytest

import logic

pygame = pytest.importorskip("pygame")
pygame_gui = pytest.importorskip("pygame_gui")

from logic.diagrams import get_diagram, load_diagrams  # noqa: E402
from logic.legend import BOARD_LEGEND as LEGEND  # noqa: E402
from logic.listing import line_of  # noqa: E402
from tests.test_viewer import D16, WIKI, _compare, centre, down, frames, key, up  # noqa: E402
from tests.waiting import HANG  # noqa: E402
from viewer.figures.export import compose_frame  # noqa: E402
from viewer.figures.frame import Frame, frame_px  # noqa: E402
from viewer.figures.render import Painter, banner_roles  # noqa: E402
from viewer.model import text as vtext  # noqa: E402
from viewer.model.settings import Settings  # noqa: E402
from viewer.model.state import ExportOptions  # noqa: E402
from viewer.model.theme import ARROW_LEGEND, KPK_LEGEND  # noqa: E402
from viewer.window.app import WAKE, App  # noqa: E402
from viewer.window.layout import MIN_SIZE, compute_layout, ui_scale  # noqa: E402

SIZES = [(900, 650), (1024, 768), (1920, 1080)]
D3 = get_diagram("paper-3").fen
#: a position whose paper trace recomputes the fence into a different one (found by a scan)
CHANGED = "2K5/p7/P1p5/p1P3P1/1p4k1/1P1pp1p1/3PP1P1/8 w - - 0 1"


def make(home, size=(1280, 860), **settings) -> App:
    a = App(Settings(**settings), size=size, export_dir=home.parent / "exports")
    frames(a, [])
    return a


def click(app: App, pos) -> None:
    frames(app, [down(pos), up(pos)], [])


def scroll_to(app: App, item: dict) -> None:
    """Click the library's scroll bar's down arrow (held a while) until ``item``'s row is
    wholly in the list."""
    lib = app.panel.library
    for _ in range(60):
        button = item["button_element"]
        if button is not None and lib.item_list_container.rect.contains(button.rect):
            return
        arrow = lib.scroll_bar.bottom_button.rect.center
        frames(app, [down(arrow)], *[[] for _ in range(8)], [up(arrow)], [])
        time.sleep(0.02)
    raise AssertionError(f"{item['text']!r} never scrolled into view")


def show_pane(app: App, name: str, slot: int = 0) -> None:
    """Click the tab of pane ``name`` in ``slot`` (a real click)."""
    click(app, app.panel.tabs[slot][name].rect.center)
    assert app.panel.panes[slot] == name


# -- 1. presentation ---------------------------------------------------------------------
def _banner_text_rect(layout):
    rect = layout.banner
    icon_r = max(9, min(rect.height * 3 // 10, layout.px * 3 // 2))
    return rect.width - 38 - 2 * icon_r, rect.height - 8


@pytest.mark.slow
def test_banner_wraps_and_fits_without_ellipsis_at_three_sizes() -> None:
    """Every banner of the library (both methods, both sides, live and every step) fits
    its rectangle at the three sizes, wrapped at spaces: the lines put together give the
    text back, and none is cut with "…"."""
    painter = Painter()
    for size in SIZES:
        layout = compute_layout(size, legend=LEGEND)
        width, height = _banner_text_rect(layout)
        for d in load_diagrams():
            board = d.board()
            for method, color in itertools.product(logic.STATIC_METHODS, chess.COLORS):
                v = logic.detect(board, color, method=method, trace=True)
                other = logic.detect(board, not color, method=method)
                for index in (None, *range(len(v.steps))):
                    b = vtext.frame_banner(v, other, index)
                    fitted = painter.fit_text(b.blocks, width, height, banner_roles(layout.px),
                                              most=1.4)
                    where = (size, d.id, method, color, index)
                    assert fitted.fits, where
                    for block in b.blocks:
                        lines = [ln.text for ln in fitted.lines if ln.role == block.role]
                        assert " ".join(lines).split() == block.text.split(), where
                        assert not any(ln.endswith("…") for ln in lines), where


@pytest.mark.parametrize("size", SIZES)
def test_legend_and_window_text_fit_at_three_sizes(home, size) -> None:
    """The legend with every item it can have fits at each size (no text shrunk away),
    and the window draws without a "…" anywhere in its own text."""
    a = make(home, size, fen=D16)
    painter, layout = a.painter, a.layout
    for items in (LEGEND, LEGEND + KPK_LEGEND, LEGEND + ARROW_LEGEND):
        for structure in (False, True):
            lay = compute_layout(size, structure=structure, legend=items)
            surf = pygame.Surface(size)
            assert painter.render_legend(surf, lay.legend, items, lay.px, structure=structure)
    assert "…" not in "".join(b.text for b in vtext.window_banner(a.state).blocks)
    assert layout.px >= 12
    pygame.display.quit()


def test_font_sizes_follow_the_window(home) -> None:
    a = make(home, (900, 650))
    small = a.layout.px
    assert a.panel.px == small
    a.screen = pygame.display.set_mode((1920, 1080), pygame.RESIZABLE)
    frames(a, [pygame.event.Event(pygame.VIDEORESIZE, size=(1920, 1080), w=1920, h=1080)])
    assert a.layout.px > small and a.panel.px == a.layout.px  # the widgets' text too
    assert compute_layout((3840, 2160)).px > a.layout.px
    assert ui_scale(MIN_SIZE) == 0.8 and ui_scale((3840, 2160)) > 2.4
    pygame.display.quit()


def test_headline_is_the_current_step_during_playback(home) -> None:
    a = make(home, fen=D16)
    v = a.state.playback.verdict
    live = vtext.window_banner(a.state)
    assert live.head == "White cannot win — blockage (paper 3.4)"
    assert any("Black cannot win" in b.text for b in live.blocks)  # both sides
    a.state.playback.timeline.set_speed(6.0)
    frames(a, [key(pygame.K_SPACE)], *[[] for _ in range(40)])
    k = a.state.playback.timeline.index
    assert a.state.playback.timeline.playing and k is not None and k > 2
    b = vtext.window_banner(a.state)
    assert b.head == f"{v.steps[k].phase}: {v.steps[k].text}"
    finals = [x.text for x in b.blocks if x.role == "sub"][0]
    assert finals.startswith("Final verdict") and "White cannot win" in finals \
        and "Black cannot win" in finals
    assert b.blocks[0].text.startswith(f"step {k + 1} of {len(v.steps)}")
    pygame.display.quit()


def test_projector_mode_is_board_sentence_and_legend(home) -> None:
    a = make(home, (1024, 768), fen=D16)
    frames(a, [key(pygame.K_RIGHT)], [key(pygame.K_RIGHT)], [key(pygame.K_p, unicode="p")])
    assert a.state.options.projector and a.layout.projector
    assert not a.layout.cells and not a.layout.slots and a.layout.sentence.width > 200
    assert a.panel.fen_entry is None and not a.panel.buttons  # no widgets at all
    step = a.state.playback.verdict.steps[1]
    assert [b.text for b in vtext.projector_blocks(a.state) if b.role == "head"] == [step.text]
    frames(a, [key(pygame.K_RIGHT)])  # the keys still work
    assert vtext.projector_blocks(a.state)[1].text == a.state.playback.verdict.steps[2].text
    frames(a, [key(pygame.K_ESCAPE)])
    assert not a.state.options.projector and a.panel.fen_entry is not None
    pygame.display.quit()


def _leaf_overlaps(layout) -> list[tuple[str, str]]:
    leaves = layout.leaves()
    w, h = layout.size
    bad = [(n, "window") for n, r in leaves.items()
           if r.left < 0 or r.top < 0 or r.right > w or r.bottom > h or r.width <= 0
           or r.height <= 0]
    return bad + [(a, b) for (a, ra), (b, rb) in itertools.combinations(leaves.items(), 2)
                  if ra.colliderect(rb)]


def test_layout_never_overlaps_from_the_minimum_to_4k() -> None:
    """No two rectangles of the layout overlap, and all lie in the window, at every size
    from the stated minimum to 4K (a grid of sizes, every mode and legend)."""
    widths = range(MIN_SIZE[0], 3841, 97)
    heights = range(MIN_SIZE[1], 2161, 83)
    for w, h in itertools.product(widths, heights):
        for structure, projector in ((False, False), (True, False), (False, True)):
            for items in (LEGEND, LEGEND + ARROW_LEGEND + KPK_LEGEND):
                layout = compute_layout((w, h), structure=structure, legend=items,
                                        projector=projector)
                assert not _leaf_overlaps(layout), ((w, h), structure, projector)


@pytest.mark.parametrize("size", [*SIZES, (1366, 768), (2560, 1440), (3840, 2160)])
def test_real_widgets_do_not_overlap(home, size) -> None:
    """The widgets pygame_gui built (every slot on every pane) lie in the window and do not
    overlap each other or the left column."""
    a = make(home, size, fen=D16)
    for pane in ("story", "library", "export"):
        show_pane(a, pane)
        rects = [b.rect for b in a.panel.buttons.values()]
        rects += [b.rect for tabs in a.panel.tabs for b in tabs.values()]
        rects += [b.rect for b in a.panel.checks.values()]
        rects += [e.rect for e in (a.panel.fen_entry, a.panel.method_menu, a.panel.side_menu,
                                   a.panel.other_menu, a.panel.ep_menu, a.panel.speed_slider,
                                   a.panel.library, a.panel.caption_box, a.panel.explain_box,
                                   a.panel.size_menu) if e is not None]
        for r in rects:
            assert pygame.Rect((0, 0), size).contains(r), (pane, r)
            assert not r.colliderect(a.layout.board) and not r.colliderect(a.layout.banner)
        for r1, r2 in itertools.combinations(rects, 2):
            assert not r1.colliderect(r2), (pane, r1, r2)
    pygame.display.quit()


# -- 2. seeing the algorithm --------------------------------------------------------------
def test_step_list_click_goes_there_and_groups_phases(home) -> None:
    a = make(home, (1920, 1080), fen=D16)
    assert "steps" in a.panel.panes
    groups = a.state.playback.timeline.groups
    rows, _h = a.steps.rows()
    assert [r.target for r in rows if r.kind == "group"] == [g.start for g in groups]

    def row_y(row) -> int:
        return a.steps.rect.top + a.steps._title_h() + row.y - a.steps.scroll + 2

    fence = next(g for g in groups if g.end - g.start > 2)  # the fence search's phase
    head = next(r for r in rows if r.kind == "group" and r.target == fence.start)
    click(a, (a.steps.rect.left + 40, row_y(head)))  # a phase: its first step
    assert a.state.playback.timeline.index == fence.start
    rows, _h = a.steps.rows()  # the current phase is unfolded
    target = next(r for r in rows if r.kind == "step" and r.target == fence.start + 2)
    click(a, (a.steps.rect.left + 40, row_y(target)))
    assert a.state.playback.timeline.index == fence.start + 2
    current = [r for r in a.steps.rows()[0] if r.current]
    assert [r.target for r in current] == [fence.start + 2]
    pygame.display.quit()


def test_up_and_down_keys_jump_between_phases(home) -> None:
    a = make(home, fen=D16)
    groups = a.state.playback.timeline.groups
    frames(a, [key(pygame.K_DOWN)])
    assert a.state.playback.timeline.index == 0
    frames(a, [key(pygame.K_DOWN)], [key(pygame.K_DOWN)])
    assert a.state.playback.timeline.index == groups[2].start
    frames(a, [key(pygame.K_RIGHT)], [key(pygame.K_UP)])  # back to this phase's start
    assert a.state.playback.timeline.index == groups[2].start
    frames(a, [key(pygame.K_UP)])
    assert a.state.playback.timeline.index == groups[1].start
    pygame.display.quit()


def test_clicking_the_scrubber_track_seeks(home) -> None:
    a = make(home, fen=D16)
    n, s = a.state.playback.timeline.count, a.scrubber
    click(a, (s.x_of(n - 1), s.rect.centery))
    assert a.state.playback.timeline.index == n - 1
    click(a, (s.x_of(3), s.rect.centery))
    assert a.state.playback.timeline.index == 3
    frames(a, [down((s.x_of(5), s.rect.centery))], [pygame.event.Event(
        pygame.MOUSEMOTION, pos=(s.x_of(9), s.rect.centery), rel=(1, 0), buttons=(1, 0, 0))],
        [up((s.x_of(9), s.rect.centery))])
    assert a.state.playback.timeline.index == 9  # dragged
    pygame.display.quit()


def test_code_panel_highlights_the_line_of_each_step(home) -> None:
    a = make(home, (1920, 1080), fen=D16)
    assert "code" in a.panel.panes
    paper = logic.METHODS["paper"].listing
    seen = set()
    for k, step in enumerate(a.state.playback.verdict.steps):
        frames(a, [key(pygame.K_RIGHT)])
        listing, cur, prev = a.code.current()
        assert listing is paper and cur == line_of(paper, step), step.kind
        assert step.kind in paper.lines[cur].kinds
        if k:
            assert prev == line_of(paper, a.state.playback.verdict.steps[k - 1])
        seen.add(cur)
    assert len(seen) >= 6  # the highlight moves through the listing
    frames(a, [key(pygame.K_m)])  # the flood: its own listing
    flood = a.state.playback.verdict.steps
    for k, step in enumerate(flood):
        a.state.playback.seek(k)
        assert logic.METHODS["flood"].listing.lines[a.code.current()[1]].kinds[0] == step.kind or \
            step.kind in logic.METHODS["flood"].listing.lines[a.code.current()[1]].kinds
    pygame.display.quit()


@pytest.mark.parametrize("method", ["paper", "flood"])
def test_the_current_code_line_stays_in_view_when_the_facts_below_grow(home, method) -> None:
    """Diagram 20 at 1920x1080: at some steps the facts under the listing take more
    room; the listing followed the current line in two thirds of the pane, so the line
    fell out of view (flood, steps 7 and 8).  Every step's line is now inside the
    listing's own height."""
    a = make(home, (1920, 1080), fen=get_diagram("paper-20").fen)
    if method == "flood":
        frames(a, [key(pygame.K_m)])
    assert a.state.options.method.name == method and "code" in a.panel.panes
    mono = a.code.painter.fonts.get(a.code.px, "mono")
    line_h = mono.get_linesize()
    for k, step in enumerate(a.state.playback.verdict.steps):
        a.state.playback.seek(k)
        frames(a, [])
        listing, cur, _prev = a.code.current()
        rows = a.code._wrapped(listing, a.code.rect.width)
        n = next(i for i, r in enumerate(rows) if r[0] == cur)
        _top, code_h = a.code._code_area(listing, step)
        y = n * line_h - a.code.scroll
        assert 0 <= y <= code_h - line_h, (k, step.kind, y, code_h)
    pygame.display.quit()


def test_recomputed_fence_is_drawn_as_a_difference() -> None:
    from viewer.model.overlay import step_overlay

    board = chess.Board(D3)
    flood = logic.detect(board, chess.WHITE, method="flood", trace=True)
    k, step = next((i, s) for i, s in enumerate(flood.steps) if s.kind == "flood-drown")
    ov = step_overlay(flood, k)
    assert ov.left == chess.BB_F3 | chess.BB_H3 and ov.joined == 0
    assert ov.fresh == chess.BB_G4 and ov.changed & (chess.BB_F3 | chess.BB_H3 | chess.BB_G4) \
        == chess.BB_F3 | chess.BB_H3 | chess.BB_G4
    assert step.fact("unchanged") is False and "f3, h3 left it" in step.text
    paper = logic.detect(board, chess.WHITE, trace=True)
    k = next(i for i, s in enumerate(paper.steps) if s.kind == "fence-recomputed")
    assert paper.steps[k].fact("unchanged") is True and "unchanged" in paper.steps[k].text
    assert paper.steps[k - 1].kind == "remove-below"  # no replay of an identical search
    assert step_overlay(paper, k - 1).fresh == chess.BB_G4
    changed = logic.detect(chess.Board(CHANGED), chess.WHITE, trace=True)
    step = next(s for s in changed.steps if s.kind == "fence-recomputed")
    assert step.fact("unchanged") is False
    assert step.board("left") == chess.BB_A6 | chess.BB_B4 | chess.BB_B5 | chess.BB_B6
    assert step.board("joined") == chess.BB_A3


def test_badges_differ_in_shape_and_every_letter_is_in_the_legend() -> None:
    painter = Painter()
    holds, breaks, fixed = (painter.tiles.badge("B", ok, 100) for ok in (True, False, None))
    d, mark = 40, 22  # the disc's diameter and the tick's size at a 100-pixel square
    centre = (mark // 2 + d // 2 - 13, d // 2)  # inside the disc, left of the letter

    def ink(surf, pos):
        return tuple(surf.get_at(pos))[:3]

    # holds: a filled disc; breaks: a hollow (white) disc with a ring: the same point of
    # the disc differs in fill, not only in colour of the border
    assert ink(holds, centre) != (255, 255, 255) and ink(breaks, centre) == (255, 255, 255)
    assert ink(fixed, (mark // 2 + 6, 8)) == painter.colours["fixed"]  # a square: its corner
    words = " ".join(item.text for item in LEGEND)
    for letter, meaning in (("A", "above"), ("O", "on"), ("B", "below"), ("E", "3.4"),
                            ("L", "fence lever")):
        assert f"{letter} {meaning}" in words
    assert any(item.letter == "F" for item in LEGEND) and any(item.letter == "X"
                                                               for item in LEGEND)
    assert {item.style for item in LEGEND} >= {"holds", "breaks", "fixed", "recompute"}


# -- 3. state that stays true ---------------------------------------------------------------
def _type(app: App, text: str) -> None:
    field = app.panel.fen_entry.rect.center
    frames(app, [down(field), up(field)])
    assert app.panel.fen_entry.is_focused
    app.panel.fen_entry.set_text("")
    frames(app, [pygame.event.Event(pygame.TEXTINPUT, text=text)])


def test_fen_field_stays_in_sync_after_enter_esc_and_a_library_click(home) -> None:
    a = make(home, fen=WIKI)
    _type(a, D16)
    frames(a, [key(pygame.K_RETURN)], [])
    assert a.state.position.editor.fen == D16 and not a.panel.typing()  # Enter gives the keys back
    frames(a, [key(pygame.K_SPACE)])
    assert a.state.playback.timeline.playing  # Space is a shortcut again, not typed
    assert a.panel.fen_entry.get_text() == a.state.position.editor.fen
    frames(a, [key(pygame.K_SPACE)], [key(pygame.K_f, unicode="f")])
    assert a.state.options.flipped
    _type(a, "garbage")
    frames(a, [key(pygame.K_ESCAPE)], [])
    assert not a.panel.typing() and a.panel.fen_entry.get_text() == a.state.position.editor.fen
    frames(a, [key(pygame.K_f, unicode="f")])
    assert not a.state.options.flipped  # F flips back: the field does not have the keys
    show_pane(a, "library")
    item = next(i for i in a.panel.library.item_list if i["text"].startswith("paper-12:"))
    scroll_to(a, item)
    frames(a, [down(item["button_element"].rect.center), up(item["button_element"].rect.center)],
           [], [])
    assert a.state.position.editor.fen == get_diagram("paper-12").fen
    assert a.panel.fen_entry.get_text() == a.state.position.editor.fen and not a.panel.typing()
    pygame.display.quit()


def test_caption_clears_when_the_board_changes(home, tmp_path) -> None:
    from logic.position import read_playlist

    a = make(home, fen=WIKI)
    a.state.load_diagram(get_diagram("paper-12"))
    frames(a, [])
    assert "paper-12" in vtext.caption_html(a.state)
    frames(a, [key(pygame.K_2, unicode="2")], [down(centre(a, "a3")), up(centre(a, "a3"))])
    assert a.state.position.current_diagram is None \
        and "paper-12" not in vtext.caption_html(a.state)
    frames(a, [key(pygame.K_z, mod=pygame.KMOD_CTRL)])  # back to the diagram's position:
    assert "paper-12" not in vtext.caption_html(a.state)  # the caption stays cleared
    epd = tmp_path / "cases.epd"
    epd.write_text(f'{D16.rsplit(" ", 2)[0]} id "case one"; c0 "methods-disagree";\n')
    a.state.set_playlist(read_playlist(str(epd)))
    frames(a, [])
    assert "case one" in vtext.caption_html(a.state)
    frames(a, [down(centre(a, "h3")), up(centre(a, "h3"))])
    html = vtext.caption_html(a.state)
    assert "case one" not in html and "no longer shows case 1/1" in html
    pygame.display.quit()


def test_a_library_diagram_opens_on_the_side_its_caption_is_about(home) -> None:
    a = make(home, fen=WIKI)
    a.state.load_diagram(get_diagram("paper-3"))
    frames(a, [])
    # White's false advantage (paper, section 4), though Black has the extra pawn: the
    # static rules see the blockage only once Black's king reaches the f-file (3.4)
    assert a.state.options.side == "white"
    assert vtext.window_banner(a.state).head == "White: no blockage proved"
    a.state.load_diagram(get_diagram("paper-16"))
    assert a.state.options.side == "white"
    a.state.load_diagram(get_diagram("paper-15"))  # White's dynamic pawns b2, e2, g2
    assert a.state.options.side == "white"
    pygame.display.quit()


def test_en_passant_square_survives_edits_and_the_editor_sets_it(home) -> None:
    a = make(home, fen="4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1")
    assert a.panel.ep_menu.selected_option[0] == "e.p.: none"
    event = pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="e.p.: d6",
                               ui_element=a.panel.ep_menu)
    frames(a, [event], [])
    editor = a.state.position.editor
    assert editor.board.ep_square == chess.D6 and " d6 " in editor.fen
    assert a.panel.fen_entry.get_text() == a.state.position.editor.fen
    frames(a, [key(pygame.K_2, unicode="2")], [down(centre(a, "a3")), up(centre(a, "a3"))])
    assert a.state.position.editor.board.ep_square == chess.D6  # still valid: kept
    frames(a, [down(centre(a, "d5"), button=3), up(centre(a, "d5"), button=3)])
    assert a.state.position.editor.board.ep_square is None  # the pawn that double-stepped is gone
    pygame.display.quit()


def test_a_pawn_dropped_on_the_first_or_eighth_rank_gets_a_message(home) -> None:
    a = make(home, fen=WIKI)
    frames(a, [key(pygame.K_2, unicode="2")], [down(centre(a, "a8")), up(centre(a, "a8"))])
    assert a.state.position.editor.board.piece_at(chess.A8) is None
    assert "cannot stand on a8" in a.state.message.text
    frames(a, [down(centre(a, "b4"))], [pygame.event.Event(
        pygame.MOUSEMOTION, pos=centre(a, "b1"), rel=(1, 1), buttons=(1, 0, 0))],
        [up(centre(a, "b1"))])
    assert a.state.position.editor.board.piece_at(chess.B4) is not None  # stayed
    assert "cannot stand on b1" in a.state.message.text
    pygame.display.quit()


# -- 4. analysis ---------------------------------------------------------------------------
@pytest.mark.slow
def test_analysis_pane_lines_in_san_arrows_with_a_legend_and_time(home) -> None:
    a = make(home, fen="8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1", engine="/nonexistent/engine")
    frames(a, [key(pygame.K_e, unicode="e")])
    assert a.state.options.search_on and "analysis" in a.panel.panes
    assert ARROW_LEGEND[0] in a.state.legend()
    a.analysis.wait(HANG)
    frames(a, [])
    r = a.analysis.result
    assert r.seconds == 1.0 and r.with_detection["pv"][0] == "a1b1"
    html = vtext.search_html(r)
    assert "with detection" in html and "1. Kb1" in html and "a1b1" not in html
    frames(a, [key(pygame.K_EQUALS, unicode="=")])  # more time per search: restarted
    assert a.state.options.search_seconds == 2.0 and a.analysis.result.seconds == 2.0
    frames(a, [key(pygame.K_MINUS, unicode="-")], [key(pygame.K_MINUS, unicode="-")])
    assert a.state.options.search_seconds == 0.5
    frames(a, [key(pygame.K_KP_PLUS, unicode="+")])  # a key that types '+' (the keypad's)
    assert a.state.options.search_seconds == 1.0
    a.close()


@pytest.mark.slow
def test_a_line_is_played_move_by_move_with_the_detector_at_each_position(home) -> None:
    a = make(home, (1920, 1080), fen="8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
             engine="/nonexistent/engine", search=True, search_seconds=0.3)
    a.analysis.wait(HANG)
    frames(a, [])
    root, rev = a.state.position.editor.fen, a.state.position.position_revision
    a.pane._build()
    play = next(b for b in a.pane.buttons if b.action == "line:with")
    assert play.enabled
    click(a, play.rect.center)
    assert a.state.position.line is not None and a.state.position.line.index == 0
    moves = a.state.position.line.moves
    before = a.state.playback.board_revision
    frames(a, [key(pygame.K_RIGHTBRACKET, unicode="]")], [key(pygame.K_RIGHTBRACKET,
                                                                unicode="]")])
    board = chess.Board(root)
    board.push_uci(moves[0])
    board.push_uci(moves[1])
    assert a.state.position.editor.board.board_fen() == board.board_fen()
    assert a.state.playback.board_revision == before + 2  # the detector ran at each position
    assert a.state.playback.verdict == logic.detect(board, chess.WHITE, trace=True)
    assert a.panel.fen_entry.get_text() == a.state.position.editor.fen
    assert a.state.position.position_revision == rev  # the analysis is of the line's root
    frames(a, [key(pygame.K_LEFTBRACKET, unicode="[")])
    assert a.state.position.line.index == 1
    frames(a, [key(pygame.K_ESCAPE)])
    assert a.state.position.line is None and a.state.position.editor.fen == root
    a.close()


# -- 5. figures -------------------------------------------------------------------------------
def test_export_options_size_parts_and_scaling() -> None:
    painter = Painter()
    board = chess.Board(D16)
    v = logic.detect(board, chess.WHITE, trace=True)
    frame = Frame(board, v, logic.detect(board, chess.BLACK))
    only = compose_frame(painter, frame, ExportOptions(480, False, False, False, False))
    assert only.get_size() == (480, 480 + 2 * max(4, 480 // 80))
    full = compose_frame(painter, frame, ExportOptions(480))
    assert full.get_height() > only.get_height() + 200
    big = compose_frame(painter, frame, ExportOptions(1600))
    assert big.get_width() == 1600 and big.get_height() > 3 * full.get_height() * 0.9
    assert frame_px(1600) > 2 * frame_px(480)  # text and legend scale with the size
    plan_small = painter.legend_plan((470, 100_000), LEGEND, frame_px(480), False)
    plan_big = painter.legend_plan((1580, 100_000), LEGEND, frame_px(1600), False)
    assert plan_big[0] > 2 * plan_small[0]
    no_legend = compose_frame(painter, frame, ExportOptions(480, True, True, False, True))
    assert no_legend.get_height() < full.get_height()


def test_enter_in_the_save_dialog_saves_like_ok(home, tmp_path) -> None:
    """Ctrl+S, type a path, Enter: the file is written and the dialog closes (pygame_gui
    alone only lists the folder on Enter)."""
    a = make(home, fen=D16)
    frames(a, [key(pygame.K_s, mod=pygame.KMOD_CTRL)])
    d = a.file_dialog
    assert d is not None and d.alive()
    field = d.file_path_text_line
    frames(a, [down(field.rect.center), up(field.rect.center)])
    field.set_text("")
    target = tmp_path / "by-enter.png"
    frames(a, [pygame.event.Event(pygame.TEXTINPUT, text=str(target))],
           [key(pygame.K_RETURN)], [], [])
    assert target.is_file() and not d.alive() and "Saved" in a.state.message.text
    assert not a.panel.typing()


def test_a_bad_fen_typed_with_enter_stays_in_the_field_to_be_mended(home) -> None:
    """Enter on a FEN with a typo says why and keeps the text and the keyboard, so one
    character is mended instead of the whole FEN retyped; the board is unchanged."""
    a = make(home, fen=WIKI)
    typo = D16.replace("/", "/9", 1)
    _type(a, typo)
    frames(a, [key(pygame.K_RETURN)], [])
    assert a.state.position.editor.fen == WIKI and "Not loaded" in a.state.message.text
    assert a.panel.typing() and a.panel.fen_entry.get_text() == typo
    frames(a, [key(pygame.K_ESCAPE)], [])
    assert not a.panel.typing() and a.panel.fen_entry.get_text() == WIKI


def test_save_dialog_writes_the_chosen_file_and_gif_follows_the_speed(home, tmp_path) -> None:
    from PIL import Image

    a = make(home, fen=D16)
    frames(a, [key(pygame.K_s, mod=pygame.KMOD_CTRL)])
    assert a.file_dialog is not None and a.file_dialog.alive() and a.dialog_for == "png"
    chosen = tmp_path / "figures" / "my-figure"  # no suffix: .png is added
    chosen.parent.mkdir()
    frames(a, [pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(chosen),
                                  ui_element=a.file_dialog)])
    png = chosen.with_suffix(".png")
    assert png.is_file() and "Saved" in a.state.message.text
    assert Image.open(png).size[0] == 720
    show_pane(a, "export")
    click(a, a.panel.checks["legend"].rect.center)
    assert not a.state.options.export.legend
    a.state.options.set_export(size=480)
    a.state.playback.timeline.set_speed(5.0)
    gif = a.export_gif(tmp_path / "trace.gif")
    with Image.open(gif) as im:
        assert im.n_frames == a.state.playback.timeline.count + 1 and im.size[0] == 480
        assert im.info["duration"] == 200  # 5 steps per second
    pygame.display.quit()


def test_render_command_options(tmp_path) -> None:
    from PIL import Image

    from viewer.cli import main

    out = tmp_path / "b.png"
    assert main(["render", D16, "--size", "400", "--board-only", "--out", str(out)]) == 0
    assert Image.open(out).size == (400, 400 + 2 * 5)
    assert main(["render", D16, "--size", "400", "--no-legend", "--out", str(out)]) == 0
    no_legend = Image.open(out).size[1]
    assert main(["render", D16, "--size", "400", "--out", str(out)]) == 0
    assert Image.open(out).size[1] > no_legend
    gif = tmp_path / "t.gif"
    assert main(["render", D16, "--size", "200", "--speed", "4", "--out", str(gif)]) == 0
    with Image.open(gif) as im:
        assert im.info["duration"] == 250
    svg = tmp_path / "b.svg"
    assert main(["render", "--diagram", "paper-12", "--out", str(svg)]) == 0
    assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()
    assert main(["render", D16, "--speed", "0", "--out", str(gif)]) == 2


def test_svg_export_matches_the_png_square_by_square(tmp_path) -> None:
    """The SVG, rasterised by a real SVG renderer (CairoSVG), shows what the PNG shows:
    square by square, the average colour of each square's corner (where the overlays lie
    and the pieces do not) agrees."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
        pytest.skip(f"no SVG renderer: CairoSVG cannot be imported ({exc}); pip install "
                    "'.[test]' installs it, and it needs Debian's libcairo2")
    from PIL import Image, ImageStat

    from viewer.figures.export import frame_svg
    from viewer.figures.render import board_geometry
    from viewer.figures.svg import board_square_box

    painter = Painter()
    size = 640
    opts = ExportOptions(size, True, False, False, False)

    def rasterised(frame: Frame, options: ExportOptions):
        svg = tmp_path / "f.svg"
        svg.write_text(frame_svg(painter, frame, options))
        cairosvg.svg2png(url=str(svg), write_to=str(tmp_path / "f.png"))
        return Image.open(tmp_path / "f.png").convert("RGB")

    def worst(board: chess.Board, ours, raster) -> tuple[float, str]:
        pad = max(4, size // 80)
        left, top, sq = board_geometry(pygame.Rect(0, pad, size, size))
        out = (0.0, "")
        for s in chess.SQUARES:
            f, r = chess.square_file(s), chess.square_rank(s)
            # an empty square whole; an occupied one by its top-left corner, where neither
            # the piece (the two piece sets differ) nor a badge is
            box = (0.06, 0.06, 0.94, 0.94) if board.piece_at(s) is None else \
                (0.04, 0.04, 0.2, 0.18)
            x0, y0 = left + f * sq, top + (7 - r) * sq
            x1, y1, side = board_square_box(size, s, False, pad)
            mine = ours.crop(tuple(int(v) for v in (x0 + box[0] * sq, y0 + box[1] * sq,
                                                    x0 + box[2] * sq, y0 + box[3] * sq)))
            theirs = raster.crop(tuple(int(v) for v in (
                x1 + box[0] * side, y1 + box[1] * side, x1 + box[2] * side,
                y1 + box[3] * side)))
            a, b = ImageStat.Stat(mine).mean, ImageStat.Stat(theirs).mean
            out = max(out, (max(abs(p - q) for p, q in zip(a, b, strict=True)),
                            chess.square_name(s)))
        return out

    for fen, method, index in ((D16, "paper", None), (D3, "flood", 4), (WIKI, "paper", 6),
                               (CHANGED, "paper", 40)):
        board = chess.Board(fen)
        v = logic.detect(board, chess.WHITE, method=method, trace=True)
        frame = Frame(board, v, None, index)
        png = compose_frame(painter, frame, opts)
        ours = Image.frombytes("RGB", png.get_size(), pygame.image.tobytes(png, "RGB"))
        raster = rasterised(frame, opts)
        assert raster.size[0] == size
        assert worst(board, ours, raster)[0] < 40, (fen, worst(board, ours, raster))
        # the check has teeth: the SVG without its overlays is far from the PNG with them
        bare = rasterised(frame, ExportOptions(size, False, False, False, False))
        assert worst(board, ours, bare)[0] > 60, fen


def test_svg_characters_stand_where_the_png_draws_them() -> None:
    """The x of each character in the SVG (:func:`viewer.figures.svgtext.pens`) is where pygame
    draws it in a whole line: the line drawn character by character at those x (each
    glyph at its pen position, less its own reach left of the origin) matches the line
    drawn at once, up to a few antialiased pixels (an "f" overhangs its advance:
    measuring ``text[:i]`` put the next character 1 to 5 pixels too far right)."""
    import numpy as np

    from viewer.figures.fonts import Fonts
    from viewer.figures.svgtext import pens

    for px, style in ((11, "regular"), (18, "bold"), (60, "regular")):
        font = Fonts().get(px, style)
        for text in ("fixed pawns of a fence", "no fence: f-file", "Kf7 ff fi"):
            whole = font.render(text, True, (255, 255, 255), (0, 0, 0))
            pieces = pygame.Surface(whole.get_size())
            pieces.fill((0, 0, 0))
            for ch, x in zip(text, pens(font, text), strict=False):
                left = min(0, font.metrics(ch)[0][0])
                pieces.blit(font.render(ch, True, (255, 255, 255), (0, 0, 0)),
                            (round(x) + left, 0), special_flags=pygame.BLEND_RGB_MAX)
            a = pygame.surfarray.array3d(whole).astype(int)
            b = pygame.surfarray.array3d(pieces).astype(int)
            off = int((np.abs(a - b).max(axis=2) > 128).sum())
            assert off < len(text) * px / 4, (px, style, text, off)


def test_svg_text_stays_where_the_png_puts_it(tmp_path) -> None:
    """The SVG's text is placed character by character where the PNG draws it, so a real
    renderer that substitutes another font (CairoSVG ignores ``textLength``; here it
    falls back to DejaVu Sans, wider than the PNG's Noto Sans) still keeps every line in
    its column: the rasterised SVG is as tall as the PNG, and the picture's right margin,
    where no text of the PNG reaches, stays background."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:
        pytest.skip(f"no SVG renderer: CairoSVG cannot be imported ({exc})")
    import numpy as np
    from PIL import Image

    from viewer.figures.export import frame_svg

    painter = Painter()
    for fen, method, size in ((D3, "flood", 480), (WIKI, "paper", 900), (D16, "paper", 320)):
        board = chess.Board(fen)
        v = logic.detect(board, chess.WHITE, method=method, trace=True)
        frame = Frame(board, v, None, None, caption="A caption long enough to fill a "
                      "whole line of the explanation under the board, and then some more")
        opts = ExportOptions(size, True, True, True, True)
        png = compose_frame(painter, frame, opts)
        svg = tmp_path / "t.svg"
        svg.write_text(frame_svg(painter, frame, opts))
        cairosvg.svg2png(url=str(svg), write_to=str(tmp_path / "t.png"))
        raster = Image.open(tmp_path / "t.png").convert("RGB")
        pad = max(4, size // 80)
        strip = np.asarray(raster.crop((size - pad // 2, 0, size, raster.size[1])), int)
        # background wherever the PNG's strip is (beside the text; the board, drawn
        # where the PNG draws it, reaches into the strip)
        assert raster.size == png.get_size(), (fen, raster.size, png.get_size())
        ours = pygame.surfarray.array3d(png).transpose(1, 0, 2)[:, size - pad // 2:size]
        bg = np.array(painter.colours["background"])
        margin = np.abs(ours - bg).max(axis=2) <= 4
        stray = int(((np.abs(strip - bg).max(axis=2) > 40) & margin).sum())
        assert margin[:pad].all() and margin[-pad:].all()  # the check covers text rows
        assert not stray, (fen, size, stray)
        assert raster.size == png.get_size(), (fen, raster.size, png.get_size())


# -- 6. an idle window sleeps -------------------------------------------------------------------
def test_an_idle_window_draws_nothing_until_something_happens(home) -> None:
    a = make(home, fen=D16)
    a.run(seconds=0.8)  # the half second of redrawing after input ends
    before = a.draws
    a.run(seconds=1.2)
    assert a.draws == before  # nothing drawn while nothing happens
    pygame.event.post(pygame.event.Event(WAKE))  # a background job reports
    a.run(seconds=0.2)
    assert a.draws > before
    before = a.draws
    pygame.event.post(key(pygame.K_RIGHT))
    a.run(seconds=0.2)
    assert a.draws > before and a.state.playback.timeline.index == 0
    pygame.display.quit()


# -- reference images ----------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_windows_match_reference_images_at_three_sizes(home, size, regen_refs) -> None:
    """The whole window, live and at step 6 of Diagram 16, against reference images."""
    a = make(home, size, fen=D16)
    a.state.load_diagram(get_diagram("paper-16"))
    frames(a, [])
    _compare(a.screen.copy(), f"window-{size[0]}x{size[1]}-live.png", regen_refs)
    frames(a, *[[key(pygame.K_RIGHT)] for _ in range(6)])
    _compare(a.screen.copy(), f"window-{size[0]}x{size[1]}-step6.png", regen_refs)
    pygame.display.quit()


def test_library_lines_fit_cut_at_a_word_and_a_long_name_still_opens(home) -> None:
    """Every library line fits its list (a cut one ends in "…" after a whole word), and a
    click is looked up, not parsed back: a user position whose name is longer than its line
    (or holds a colon) opens.  The FEN field's status label fits too."""
    from viewer.figures.fonts import Fonts
    from viewer.model.settings import add_user_position

    long_name = "endgame: " + "a very long name of a position " * 4
    add_user_position(long_name, D16)
    a = make(home, fen=WIKI, size=(900, 650))
    show_pane(a, "library")
    font = Fonts().get(a.panel.px)
    items = a.panel.library.item_list
    width = a.panel.library.rect.width
    for item in items:
        assert font.size(item["text"])[0] <= width, item["text"]
    cut = [i["text"] for i in items if i["text"].endswith(" …")]
    assert cut and all(not t[:-2].endswith(" ") for t in cut)
    mine = next(i for i in items if i["text"].startswith("mine: endgame:"))
    assert mine["text"].endswith(" …")
    scroll_to(a, mine)  # the scroll bar's down arrow, clicked until the line shows
    pos = mine["button_element"].rect.center
    frames(a, [down(pos), up(pos)], [], [])
    assert a.state.position.editor.fen == D16
    _type(a, "8/8/8/8/8/8/8/8 w - - 0 1 with a long tail of words that cannot fit the label")
    label = a.panel.fen_status
    assert font.size(label.text)[0] <= label.rect.width, label.text
    pygame.display.quit()


def test_library_rows_are_as_tall_as_their_text_in_a_large_window(home) -> None:
    """pygame_gui's rows are 20 px: at 1920x1080 the text is larger and its descenders
    were cut ("g4" read as "a4"); a row is now at least a line of text tall."""
    from viewer.figures.fonts import Fonts

    a = make(home, fen=WIKI, size=(1920, 1080))
    show_pane(a, "library")
    font = Fonts().get(a.panel.px)
    assert font.get_linesize() > 20
    assert a.panel.library.list_item_height >= font.get_linesize()
    pygame.display.quit()


def test_a_dashed_arrow_under_a_solid_one_of_the_same_move_stays_visible() -> None:
    """Both searches' best move is the same one-square king step: drawn side by side as the
    window does, most of the dashed arrow's pixels are still seen."""
    from viewer.figures.render import ARROW_STYLES, Painter
    from viewer.window.view import ARROW_SPREAD

    painter = Painter()
    rect = pygame.Rect(0, 0, 400, 400)
    grey = painter.colours["arrow_without"]

    def seen(roles: tuple[str, ...]) -> int:
        surf = pygame.Surface(rect.size)
        painter.render_board(surf, rect, chess.Board("8/8/8/8/8/8/8/K6k w - - 0 1"))
        for i, role in enumerate(roles):
            offset = (i - (len(roles) - 1) / 2) * ARROW_SPREAD
            painter.render_arrows(surf, rect, ["a1b1"], colour=painter.colours[role],
                                  style=ARROW_STYLES[role], offset=offset)
        return sum(surf.get_at((x, y))[:3] == grey for x in range(0, 200) for y in range(250, 400))

    alone = seen(("arrow_without",))
    assert alone > 50 and seen(("arrow_without", "arrow_with")) > alone * 0.6


def test_a_word_too_long_for_its_line_breaks_after_a_hyphen() -> None:
    """"Connected-component" in a narrow line: "Connected-" / "component", not
    "Connected-compone" / "nt"; a word without a hyphen still breaks between characters;
    nothing is lost and every line fits."""
    from viewer.figures.fonts import Fonts
    from viewer.figures.textfit import wrap

    font = Fonts().get(20)
    width = font.size("Connected-compo")[0]
    assert wrap(font, "the Connected-component labelling", width) == [
        "the", "Connected-", "component", "labelling"]
    long = "abcdefghijklmnopqrstuvwxyz"
    lines = wrap(font, long, 60)
    assert "".join(lines) == long and all(font.size(ln)[0] <= 60 for ln in lines)


def test_a_gifs_board_stays_in_place_from_frame_to_frame() -> None:
    """Diagram 16's steps have headlines of one to four lines: every frame's banner is as
    tall as the tallest, so the board's first rank of squares is on the same row in all."""
    from viewer.figures.export import trace_frames
    from viewer.figures.render import Painter
    from viewer.model.state import ExportOptions

    board = get_diagram("paper-16").board()
    v = logic.detect(board, chess.WHITE, method="paper", trace=True)
    frame = Frame(board, v, logic.detect(board, chess.BLACK), None, "", None, False)
    painter = Painter()
    light = painter.colours["square_light"]
    tops = set()
    for surf in trace_frames(painter, frame, ExportOptions(480)):
        x = surf.get_width() // 2 - 30  # inside d8, a light square
        tops.add(next(y for y in range(surf.get_height()) if surf.get_at((x, y))[:3] == light))
    assert len(tops) == 1, tops


def test_a_gif_keeps_one_legend_for_all_its_frames() -> None:
    """A GIF's frames draw different things (marks, then the fence, then the pawns): one
    legend, the lines of anything some frame draws in the method's order, under every
    frame, so nothing jumps under the board (every frame as tall, the legend's pixels the
    same)."""
    from viewer.figures.export import trace_frames
    from viewer.figures.render import Painter
    from viewer.model.state import ExportOptions

    board = get_diagram("paper-16").board()
    v = logic.detect(board, chess.WHITE, method="paper", trace=True)
    frame = Frame(board, v, logic.detect(board, chess.BLACK), None, "", None, False)
    frames = list(trace_frames(Painter(), frame, ExportOptions(480)))
    own = {len(Frame(board, v, None, k).legend()) for k in range(len(v.steps))}
    assert len(own) > 1  # the steps alone would have legends of different lengths
    assert len({f.get_size() for f in frames}) == 1
    bottoms = {pygame.surfarray.array3d(f)[:, -120:].tobytes() for f in frames}
    assert len(bottoms) == 1


def test_projector_mode_gives_the_legend_larger_type() -> None:
    """Read from the back of a room: projector mode lays the legend out for 1.5 times the
    window's text size (up to half the column), not the desk's."""
    from viewer.window.layout import compute_layout, legend_height

    for size in ((1280, 720), (1920, 1080)):
        lay = compute_layout(size, legend=LEGEND, projector=True)
        desk_type = legend_height(lay.legend.width, LEGEND, lay.px, False)
        assert lay.legend.height >= desk_type * 1.3, (size, lay.legend, desk_type)


def test_a_figures_legend_lists_what_the_figure_draws() -> None:
    """Diagram 16's final verdict draws fixed pawns, the fence, the marked squares, a holding
    pawn and the king's must-stand squares, but removes no pawn and recomputes no fence:
    its picture's legend says so; a picture without overlays has no legend lines; the
    window keeps every line."""

    board = get_diagram("paper-16").board()
    v = logic.detect(board, chess.WHITE, method="paper", trace=True)
    frame = Frame(board, v, logic.detect(board, chess.BLACK), None, "", None, False)
    texts = [i.text for i in frame.legend()]
    assert any(t.startswith("fixed pawn") for t in texts)
    assert any(t.startswith("the defending king must stand here") for t in texts)
    assert not any(t.startswith(("removed", "fence recomputed", "changed in this step",
                                 "dynamic pawn that breaks")) for t in texts)
    from viewer.model.overlay import EMPTY

    assert frame.legend(EMPTY) == ()
    assert len(LEGEND) > len(texts)


def test_the_fence_searchs_path_and_done_squares_have_a_legend_line() -> None:
    """A fence-search step (paper 2.3) draws its path and the squares it has done (a grey
    wash): the figure's legend says what they are, in a line of its own with a swatch
    drawn as the board draws them (they had none); the final verdict, which draws the
    fence instead, leaves the line out."""
    from viewer.model.overlay import step_overlay

    board = get_diagram("paper-16").board()
    v = logic.detect(board, chess.WHITE, method="paper", trace=True)
    k = next(i for i, s in enumerate(v.steps) if s.kind == "dfs-advance")
    ov = step_overlay(v, k)
    assert ov.processed and ov.path & ~ov.fence
    line = next(i for i in LEGEND if i.style == "dfs")
    assert "2.3" in line.text and "path" in line.text
    assert line in Frame(board, v, None, k).legend()
    final = Frame(board, v, logic.detect(board, chess.BLACK), None, "", None, False)
    assert line not in final.legend()
    painter = Painter()
    surface = pygame.Surface((360, 60))
    surface.fill((0, 0, 0))
    painter.render_legend(surface, surface.get_rect(), (line,), 14)
    pixels = {tuple(c) for c in pygame.surfarray.array3d(surface)[:40].reshape(-1, 3)}
    assert tuple(painter.colours["path"]) in pixels  # the swatch draws the path's line


def test_a_changed_squares_outline_never_covers_the_badge_on_it() -> None:
    """The outline of a changed square was drawn after the badges and clipped a badge's
    ring (Diagram 20, the 3.4 step's E): every pixel the badge paints is now the same with
    the outline as without it."""
    from viewer.figures.render import Painter
    from viewer.model.overlay import Overlay

    painter = Painter()
    board = chess.Board(get_diagram("paper-20").fen)
    rect = pygame.Rect(0, 0, 480, 480)

    def draw(**kw) -> pygame.Surface:
        s = pygame.Surface((480, 480))
        painter.render_board(s, rect, board, overlay=Overlay(**kw))
        return s

    plain = draw()
    badge = draw(badges={chess.F4: ("E", False)})
    both = draw(badges={chess.F4: ("E", False)}, changed=chess.BB_F4)
    painted = [(x, y) for x in range(480) for y in range(480)
               if badge.get_at((x, y)) != plain.get_at((x, y))]
    assert len(painted) > 50
    assert all(both.get_at(p) == badge.get_at(p) for p in painted)


def test_the_defending_kings_squares_are_shown_at_the_34_step_and_never_below_the_fence(
) -> None:
    """Diagram 20: f4 holds only with Black's king on the f-file (3.4).  The outline
    covered the whole f-file, f1-f4 on White's side of the fence included, and vanished
    at the 3.4 step itself; it is f5-f8, in the live view and at that step."""
    from viewer.model.overlay import live_overlay, step_overlay

    board = chess.Board(get_diagram("paper-20").fen)
    v = logic.detect(board, chess.WHITE, trace=True)
    k = next(i for i, s in enumerate(v.steps) if s.kind == "classify" and "3.4" in s.text)
    want = chess.BB_F5 | chess.BB_F6 | chess.BB_F7 | chess.BB_F8
    assert step_overlay(v, k).king_mask == want
    assert step_overlay(v, k - 1).king_mask == 0  # b3's step needs no king
    assert live_overlay(logic.detect(board, chess.WHITE)).king_mask == want


def test_the_wheel_scrolls_the_code_pane_and_the_next_frame_keeps_it(home, monkeypatch
                                                                      ) -> None:
    """A wheel over the code pane scrolls it; the follow of the current line must not
    snap it back on the next frame (it did once its key gained the listing's height)."""
    a = make(home, (1920, 1080), fen=get_diagram("paper-20").fen)
    a.state.playback.seek(2)
    frames(a, [])
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: a.code.rect.center)
    before = a.code.scroll
    for notches in (8, -8):  # up to the top, then down
        wheel = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False,
                                   precise_x=0.0, precise_y=float(notches))
        frames(a, [wheel])
        scrolled = a.code.scroll
        frames(a, [], [])
        assert a.code.scroll == scrolled
    assert a.code.scroll != before or before == 0
    pygame.display.quit()


def test_a_gifs_banners_have_no_empty_band() -> None:
    """A GIF's banners share one height (the board stays in place) that its texts fill:
    the tallest text shrinks a little and a short one grows, so below the lowest line of
    any frame's banner text at most four body lines stay empty (padding every banner to
    the tallest text left about 200 pixels empty at 720); and the frame is shorter than
    with banners as tall as the tallest text at its own size."""
    import numpy as np

    from viewer.figures.export import trace_frames
    from viewer.figures.figure import banner_height, banner_icon_radius, gif_banner_height
    from viewer.figures.frame import frame_px
    from viewer.figures.render import Painter
    from viewer.model.state import ExportOptions

    painter, size = Painter(), 720
    options, px, pad = ExportOptions(size), frame_px(size), max(4, size // 80)
    board = get_diagram("paper-16").board()
    v = logic.detect(board, chess.WHITE, method="paper", trace=True)
    frame = Frame(board, v, logic.detect(board, chess.BLACK), None, "", None, False)
    banners = [frame.at(k).banner() for k in (*range(len(v.steps)), None)]
    height = gif_banner_height(painter.fonts, banners, options)
    tallest = max(banner_height(painter.fonts, b, options) for b in banners)
    assert height < tallest - 60, (height, tallest)
    x0 = pad + 30 + 2 * banner_icon_radius(height, px)
    panel = np.array(painter.colours["panel"])
    gaps = []
    for surf in trace_frames(painter, frame, options):
        band = pygame.surfarray.array3d(surf).transpose(1, 0, 2).astype(int)[
            pad:pad + height, x0:size - pad - 8]
        rows = np.where((np.abs(band - panel).max(axis=2) > 60).any(axis=1))[0]
        gaps.append(height - 1 - int(rows.max()))
    assert len(gaps) == len(banners) and max(gaps) <= 4 * px, gaps
