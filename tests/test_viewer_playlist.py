"""Playlists and the library, driven headless through the window's real loop with real
pygame events: a big playlist opens at once and parses a case only when it is shown, a
background check says how far it is and which lines are not positions, a scan's suspect
opens on the side and method it was found on with its category, engine score and note,
and the library's entries are told apart and keep their place."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

import logic
from logic.diagrams import load_diagrams
from logic.position import CaseError, Playlist, read_playlist
from logic.vocab import Category

pygame = pytest.importorskip("pygame")

from tests.test_viewer import D16, WIKI, down, frames, key, up  # noqa: E402
from tests.test_viewer_panes import make, scroll_to, show_pane  # noqa: E402
from tests.waiting import HANG  # noqa: E402
from viewer.figures.fonts import Fonts  # noqa: E402
from viewer.model import text as vtext  # noqa: E402
from viewer.model.library import first_sentence, library_entries  # noqa: E402
from viewer.model.playlist import CheckProgress, case_focus, progress_text  # noqa: E402
from viewer.model.settings import Settings  # noqa: E402
from viewer.window.app import App  # noqa: E402

#: the parses a window may make before its first frame (the first case, nothing more)
FIRST_FRAME_PARSES = 2
#: a few boards to fill a generated playlist with
BOARDS = [D16, WIKI, "4k3/8/5p2/p1p1p1p1/P1P1PPP1/2P5/8/3K4 w - - 0 1",
          "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"]


def _epd(n: int) -> str:
    """Line ``n`` (from 1) of a generated playlist: one of :data:`BOARDS` with an id."""
    return f'{BOARDS[n % len(BOARDS)].rsplit(" ", 2)[0]} id "case {n}";'


def _big(tmp_path: Path, lines: int, bad: dict[int, str]) -> Path:
    """A playlist of ``lines`` lines, each a position but those in ``bad`` (line number
    -> text)."""
    path = tmp_path / "big.epd"
    path.write_text("".join((bad.get(n) or _epd(n)) + "\n" for n in range(1, lines + 1)))
    return path


# -- the lazy playlist (logic) --------------------------------------------------------------

def test_a_playlist_is_read_without_parsing_and_names_a_bad_line() -> None:
    data = ("\ufeff# my cases\n\n" + _epd(3) + "\r\nnot a position at all\n   \n" + _epd(6)
            + "\n# the end").encode()
    p = Playlist(data, "cases.epd")
    assert len(p) == 3 and p.lines == 7 and p.parsed == 0
    assert [p.line_of(i) for i in range(3)] == [3, 4, 6]
    assert p[0].name == "case 3" and p[0].line == 3 and p[0].fen == chess.Board(
        BOARDS[3]).fen() and p[-1].name == "case 6"
    with pytest.raises(CaseError, match="cases.epd line 4: not a FEN or EPD position") as err:
        p[1]
    assert isinstance(err.value, ValueError) and err.value.line == 4
    with pytest.raises(IndexError):
        p[3]
    assert p.parsed == 3
    p[0], p[2]  # kept: not parsed again
    assert p.parsed == 3
    assert p.check(1) is not None and p.check(0) is None and p.checked == 2


def test_read_playlist_refuses_a_file_without_positions(tmp_path) -> None:
    empty = tmp_path / "empty.epd"
    empty.write_text("# nothing\n\n")
    with pytest.raises(ValueError, match="no positions"):
        read_playlist(empty)
    with pytest.raises(OSError):
        read_playlist(tmp_path)


# -- 1. a big playlist opens at once ---------------------------------------------------------

def test_a_200000_line_playlist_draws_its_first_frame_before_parsing_it(home, tmp_path,
                                                                         monkeypatch) -> None:
    lines = 200_000
    bad = 150_001
    playlist = read_playlist(_big(tmp_path, lines, {bad: "garbage; c0 \"broken\";"}))
    assert len(playlist) == lines and playlist.parsed == 0
    a = App(Settings(fen=WIKI), size=(1280, 860), playlist=playlist, save=False)
    seen: list[tuple[int, int]] = []
    draw = a.draw

    def counted() -> None:
        seen.append((playlist.parsed, playlist.checked))
        draw()

    monkeypatch.setattr(a, "draw", counted)
    frames(a, [])
    assert seen[0][0] <= FIRST_FRAME_PARSES and seen[0][1] == 0  # the first frame waited
    assert a.state.position.editor.fen == playlist[0].fen  # for case 1 alone
    frames(a, [key(pygame.K_n)], [])
    assert a.state.position.playlist_index == 1
    assert a.state.position.editor.fen == chess.Board(BOARDS[2]).fen()  # line 2, parsed
    shown = playlist.parsed
    a.state.load_playlist(123_456)  # --case 123457: that line parsed when it is shown
    frames(a, [])
    assert a.state.position.editor.fen == chess.Board(BOARDS[123_457 % 4]).fen()
    assert playlist.parsed == shown + 1
    frames(a, [key(pygame.K_PAGEUP)], [])
    assert a.state.position.playlist_index == 123_455
    a.state.load_playlist(bad - 1)  # a line that is not a position: said, never a crash
    frames(a, [], [])
    assert f"big.epd line {bad:,}: not a FEN or EPD position" in a.state.message.text
    assert a.state.position.editor.fen == chess.Board(BOARDS[123_456 % 4]).fen()
    html = vtext.caption_html(a.state)
    assert f"Case {bad:,}/{lines:,} is not a position" in html and "garbage" in html
    frames(a, [key(pygame.K_n)], [])  # and the next case shows again
    assert a.state.position.playlist_index == bad and \
        a.state.position.editor.fen == chess.Board(BOARDS[(bad + 1) % 4]).fen()
    a.close()


def test_the_background_check_shows_progress_and_names_bad_lines(home, tmp_path) -> None:
    path = _big(tmp_path, 1_500, {7: "x y z", 1_200: "8/8/8 w"})
    a = App(Settings(fen=WIKI), size=(900, 650), playlist=read_playlist(path), save=False)
    assert not a.state.check.running()  # nothing reads before the first frame
    frames(a, [])
    check = a.state.check
    assert check.job.wait(HANG)
    frames(a, [])
    done = check.progress()
    assert done == CheckProgress(1_500, 1_500, (7, 1_200), finished=True)
    assert a.state.message.text == "big.epd: 1,500 cases; 2 lines are not a position (7, 1,200)"
    assert progress_text(CheckProgress(12_000, 85_007), "big.epd") == \
        "Loading big.epd 12,000 / 85,007"
    a.close()


def test_the_check_reports_how_far_it_is_while_it_reads(tmp_path) -> None:
    from viewer.model.playlist import CHECK_CHUNK, PlaylistCheck

    playlist = read_playlist(_big(tmp_path, 3 * CHECK_CHUNK, {}))
    seen: list[CheckProgress] = []
    check = PlaylistCheck()
    report = check.job.report

    def keep(ticket, progress) -> bool:  # every progress the worker reports, in order
        seen.append(progress)
        return report(ticket, progress)

    check.job.report = keep  # type: ignore[method-assign]
    check.start(playlist)
    assert check.job.wait(HANG)
    assert [p.done for p in seen] == [0, CHECK_CHUNK, 2 * CHECK_CHUNK]
    assert check.progress().finished and playlist.checked == 3 * CHECK_CHUNK
    check.close()


# -- 2. a scan's suspects open as they were found ---------------------------------------------

@pytest.fixture(scope="module")
def suspects(tmp_path_factory) -> Path:
    from logic.tools.scan import scan

    out = tmp_path_factory.mktemp("scan")
    scan([str(Path(__file__).parent / "data" / "scan" / "games.pgn")], out / "scan", jobs=1,
         progress=None)
    return out / "scan" / "suspects.epd"


def test_scan_names_the_side_and_method_of_each_suspect(suspects) -> None:
    """Each suspect's ``c3`` / ``c4`` are a side and method its category is about: for
    methods-disagree, the method that claims the blockage where the other does not."""
    cases = read_playlist(suspects)
    assert len(cases) > 3 and {c.info["c3"] for c in cases} == {"white", "black"}
    for case in cases:
        assert case.info["c0"] == Category.METHODS_DISAGREE
        board, color = chess.Board(case.fen), case.info["c3"] == "white"
        assert logic.detect(board, color, method=case.info["c4"]).blocked
        other = "flood" if case.info["c4"] == "paper" else "paper"
        assert not logic.detect(board, color, method=other).blocked


def test_a_suspect_opens_on_its_side_and_method_with_its_facts(home, suspects) -> None:
    cases = read_playlist(suspects)
    black = next(i for i in range(len(cases)) if cases[i].info["c3"] == "black")
    a = App(Settings(fen=WIKI, method="flood", side="black"), size=(1280, 860),
            playlist=cases, save=False)
    frames(a, [])
    o = a.state.options
    assert (o.side, o.method.name) == ("white", "paper")  # case 1: found on White, paper
    banner = vtext.window_banner(a.state)
    assert banner.blocks[-1].text == f"case 1/{len(cases)} · methods-disagree · engine -"
    story = vtext.explanation_html(a.state)
    assert "category: <b>methods-disagree</b>" in story and "side: <b>white</b>" in story
    frames(a, [key(pygame.K_m)], [key(pygame.K_s)])  # the user's own choice, then N
    assert (o.side, o.method.name) == ("black", "flood")
    frames(a, *[[key(pygame.K_n)] for _ in range(black)], [])
    assert a.state.position.playlist_index == black
    assert (o.side, o.method.name) == ("black", "paper")  # the case's own side and method
    assert a.state.playback.verdict.color == chess.BLACK and a.state.playback.verdict.blocked
    frames(a, [key(pygame.K_SPACE)], [], [])
    assert vtext.window_banner(a.state).blocks[-1].text.startswith("Final verdict")  # steps
    a.close()


def test_a_suspect_with_an_engine_score_and_a_note_shows_them(home, tmp_path) -> None:
    epd = tmp_path / "suspects.epd"
    black = "exact blocked; paper no (paper 2.3), flood no (wiki flood)"
    note = f"white: exact unknown; paper no (paper 2.3) | black: {black}"
    epd.write_text(f'{D16.rsplit(" ", 2)[0]} id "games.pgn game 4 ply 9"; '
                   f'c0 "{Category.EXACT_BLOCKED_HEURISTIC_MISSES}"; c1 "engine +0.35"; '
                   f'c2 "{note}"; c3 "black"; c4 "flood";\n'
                   f'{WIKI.rsplit(" ", 2)[0]} id "plain"; c0 "1-0"; c3 "black"; c4 "exact";\n')
    a = App(Settings(fen=WIKI), size=(900, 650), save=False)
    frames(a, [])
    assert a.open_playlist(str(epd))
    frames(a, [])
    assert (a.state.options.side, a.state.options.method.name) == ("black", "flood")
    third = vtext.window_banner(a.state).blocks[-1].text
    assert third == f"case 1/2 · exact-blocked-heuristic-misses · engine +0.35 · {black}"
    story = vtext.explanation_html(a.state)
    assert "engine: <b>+0.35</b>" in story and f"note: {note}" in story
    frames(a, [key(pygame.K_n)], [])  # not a scan's suspect: side and method stay
    assert (a.state.options.side, a.state.options.method.name) == ("black", "flood")
    assert "c0: <b>1-0</b>" in vtext.explanation_html(a.state)
    assert vtext.window_banner(a.state).blocks[-1].text.startswith("Other side")
    assert case_focus({"c0": "1-0", "c3": "black", "c4": "exact"}) == (None, None)
    a.close()


# -- 3. the library ----------------------------------------------------------------------------

def test_library_entries_that_share_a_first_sentence_are_told_apart() -> None:
    entries = library_entries(load_diagrams(), [("mine", D16), ("mine 2", WIKI)])
    fence = [e for e in entries if e.title.split(": ", 1)[1].startswith("The fence line is")]
    assert len(fence) >= 5
    notes = [e.note for e in fence]
    assert len(set(notes)) == len(notes)
    head = first_sentence(fence[0].title.split(": ", 1)[1])
    assert all(not n.startswith(head) and " v " in n for n in notes)
    mine = [e for e in entries if e.target[0] == "mine"]
    assert mine[0].note == "4 v 3 pawns · White to move · kings d1, f8"
    assert mine[1].note == "6 v 4 pawns · White to move · kings d2, e8"


def test_library_rows_are_two_lines_told_apart_on_screen(home) -> None:
    """At 900x650 the five "The fence line is …" rows, as drawn, differ in their second
    line; the row is tall enough for both lines."""
    a = make(home, size=(900, 650), fen=WIKI)
    show_pane(a, "library")
    panel = a.panel
    font = Fonts().get(panel.px)
    assert panel.library.list_item_height >= 2 * font.get_linesize()
    fence = [i for i in panel.library.item_list if ": The fence line is" in i["text"]]
    shown = [panel.library_notes[i["text"]] for i in fence]
    assert len(fence) >= 5 and len(set(shown)) == len(shown)
    scroll_to(a, fence[0])
    before = a.screen.copy()
    rect = fence[0]["button_element"].rect
    lower = pygame.Rect(rect.left, rect.centery + 2, rect.width, rect.bottom - rect.centery - 2)
    panel.library_notes[fence[0]["text"]] = ""  # the same frame without the second line
    frames(a, [])
    assert pygame.image.tobytes(before.subsurface(lower), "RGB") != \
        pygame.image.tobytes(a.screen.subsurface(lower), "RGB")
    a.close()


def test_the_library_keeps_its_scroll_when_the_method_changes(home) -> None:
    a = make(home, fen=D16)
    show_pane(a, "library")
    items = a.panel.library.item_list
    scroll_to(a, items[-1])  # the last entry: scrolled to the end
    bar = a.panel.library.scroll_bar
    kept = bar.start_percentage
    assert kept > 0.3
    for k in (pygame.K_m, pygame.K_s):  # the method, then the side: the panel is rebuilt
        old = a.panel.library
        frames(a, [key(k)], [])
        assert a.panel.library is not old
        assert a.panel.library.scroll_bar.start_percentage == pytest.approx(kept, abs=0.02)
        button = items[-1]["button_element"]
        last = a.panel.library.item_list[-1]["button_element"]
        assert last is not None and a.panel.library.item_list_container.rect.contains(last.rect)
        assert button is None or button is not last
    pos = a.panel.library.item_list[-1]["button_element"].rect.center
    frames(a, [down(pos), up(pos)], [], [])
    assert a.state.position.editor.fen == load_diagrams()[-1].fen
    a.close()


def test_a_large_list_of_my_own_loads_after_the_first_frame(home) -> None:
    """A user list larger than the foreground's share is read in the background once the
    window shows a frame; the library lists its newest entries and one that opens them
    all as a playlist; adding a position reads the list again in the background."""
    from viewer.model import settings as vsettings
    from viewer.model.library import MINE_LISTED

    lines = 2_000
    home.mkdir(parents=True)
    path = home / "my-positions.epd"
    path.write_text("# pawnfence: my positions\n" + "".join(
        _epd(n).replace('"case ', '"mine ') + "\n" for n in range(1, lines + 1)))
    assert path.stat().st_size > vsettings.USER_LIST_AT_ONCE
    a = App(Settings(fen=WIKI), size=(1280, 860), save=False)
    load = a.state.user_list.job
    assert a.state.position.user_positions == [] and load.generation == 0  # not read yet
    show_pane(a, "library")
    assert load.generation == 1 and load.wait(HANG)  # read once a frame was shown
    frames(a, [], [])
    mine = a.state.position.user_positions
    assert len(mine) == lines and mine[-1][0] == f"mine {lines}"
    texts = [i["text"] for i in a.panel.library.item_list]
    assert f"mine: all {lines:,} as a playlist …" in texts
    assert sum(t.startswith("mine: mine ") for t in texts) == MINE_LISTED
    assert texts[-1] == f"mine: mine {lines}"
    item = next(i for i in a.panel.library.item_list if i["text"].startswith("mine: all"))
    scroll_to(a, item)
    pos = item["button_element"].rect.center
    frames(a, [down(pos), up(pos)], [], [])
    assert len(a.state.position.playlist) == lines
    assert a.state.position.playlist[0].name == "mine 1"
    add = a.panel.buttons["add"].rect.center
    frames(a, [down(add), up(add)], [])
    assert a.state.user_list.job.wait(HANG)
    frames(a, [], [])
    assert len(a.state.position.user_positions) == lines + 1
    a.close()
