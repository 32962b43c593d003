"""Lessons as PGN (``pawnfence export --pgn``, ``logic.pgn_export``): the diagram library
as one Lichess study, read back by python-chess with the same shapes, the fence circles
equal to ``logic.detect(...).fence`` on every diagram, the exact line as the main line,
every game within Lichess's limits, and files that are not ours never replaced."""

from __future__ import annotations

import re
from pathlib import Path

import chess
import chess.pgn
import chess.svg
import pytest

import logic
from logic.diagrams import load_diagrams
from logic.lessons import LessonPosition, diagram_focus, lesson_positions
from logic.pgn_export import (
    LICHESS,
    Chapter,
    chapter_game,
    lesson_pgn,
    lichess_problems,
    verdict_shapes,
)
from tests.test_cli import run


def _read(path: Path) -> list[chess.pgn.Game]:
    with open(path, encoding="utf-8") as fh:
        out = []
        while (g := chess.pgn.read_game(fh)) is not None:
            out.append(g)
    return out


def _circles(node: chess.pgn.GameNode, colour: str) -> int:
    return sum(1 << a.tail for a in node.arrows() if a.tail == a.head and a.color == colour)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lesson") / "library.pgn"
    code, text = run("export", "--pgn", str(path), "--no-exact")
    assert code == 0 and text.startswith(f"wrote {path}: 17 chapters")
    return path


def test_the_library_is_one_study_within_lichess_limits(library: Path) -> None:
    games = _read(library)
    diagrams = load_diagrams()
    assert len(games) == len(diagrams) <= LICHESS.chapters
    for g, d in zip(games, diagrams, strict=True):
        assert not g.errors and lichess_problems(g) == []
        assert g.headers["FEN"] == d.fen and g.headers["SetUp"] == "1"
        assert g.headers["ChapterName"].startswith(d.id)
        assert len(g.headers["ChapterName"]) <= LICHESS.name
        assert g.headers["Event"] == f"pawnfence: {g.headers['ChapterName']}"
        assert g.headers["Orientation"] == ("white" if diagram_focus(d) else "black")
        assert d.caption.split(".")[0] in g.comment
    # Lichess splits a paste at a blank line before a tag: exactly one chapter per game
    chunks = re.split(r"\n\n(?=\[)", library.read_text(encoding="utf-8").strip())
    assert len(chunks) == len(games)


def test_every_diagrams_fence_is_its_red_circles(library: Path) -> None:
    """The red circles are ``logic.detect(...).fence`` (the side and method of the
    chapter), the yellow ones the marked squares off the fence, blue the dynamic pawns,
    green the rest of the king's side; each square once."""
    games = _read(library)
    fences = 0
    for g, d in zip(games, load_diagrams(), strict=True):
        v = logic.detect(d.board(), diagram_focus(d), method=logic.DEFAULT_METHOD)
        red, yellow = _circles(g, "red"), _circles(g, "yellow")
        blue, green = _circles(g, "blue"), _circles(g, "green")
        if v.status != logic.Status.OK:
            assert red == yellow == blue == green == 0
            continue
        assert red == v.fence, d.id
        assert yellow == v.marked & ~v.fence, d.id
        pawns = sum(1 << n.square for n in v.pawns)
        assert blue == pawns & ~(v.fence | v.marked), d.id
        assert green == v.below & ~(v.fence | v.marked | pawns), d.id
        fences += bool(v.fence)
    assert fences >= 10  # the library's fences are drawn, not skipped


def test_shapes_round_trip_through_python_chess() -> None:
    """What is written is what python-chess reads back: the computed circles, the line's
    arrows and the teacher's own marks (a circle of theirs wins over a computed one)."""
    pos = lesson_positions(diagrams=["paper-9"])[0]
    marks = (chess.svg.Arrow(chess.A4, chess.A4, color="blue"),
             chess.svg.Arrow(chess.D1, chess.D3, color="yellow"))
    game = chapter_game(Chapter(pos, marks=marks, exact=False))
    back = chess.pgn.read_game(__import__("io").StringIO(str(game)))
    assert back is not None
    v = logic.detect(pos.board(), pos.side)
    want = [(m.tail, m.head, m.color) for m in marks] + \
        [(a.tail, a.head, a.color) for a in verdict_shapes(v) if a.tail != chess.A4]
    got = [(a.tail, a.head, a.color) for a in back.arrows()]
    circles = [w for w in want if w[0] == w[1]]  # [%csl] first, then [%cal], each in order
    assert got == circles + [w for w in want if w[0] != w[1]]
    assert got == [(a.tail, a.head, a.color) for a in game.arrows()]
    plain = chapter_game(Chapter(pos, marks=marks, computed=False, exact=False))
    assert [(a.tail, a.head, a.color) for a in plain.arrows()] == \
        [(m.tail, m.head, m.color) for m in marks]


@pytest.mark.parametrize("diagram", ["paper-9", "paper-11"])
def test_the_exact_line_is_the_main_line(diagram: str) -> None:
    """Where the exact prover forces a promotion, its line is the main line (move for
    move), its first moves are arrows (the side under test's green, the defender's red),
    and the moves carry its explanations."""
    pos = lesson_positions(diagrams=[diagram])[0]
    game = chapter_game(Chapter(pos, exact_seconds=5.0))
    exact = logic.detect(pos.board(), pos.side, method="exact", seconds=5.0)
    assert exact.code == "breaks"
    pv = list(exact.detail.result.pv)
    assert [m.uci() for m in game.mainline_moves()] == pv
    arrows = [a for a in game.arrows() if a.tail != a.head]
    board = pos.board()
    for arrow, uci in zip(arrows, pv, strict=False):
        move = chess.Move.from_uci(uci)
        assert (arrow.tail, arrow.head) == (move.from_square, move.to_square)
        assert arrow.color == ("green" if board.turn == pos.side else "red")
        board.push(move)
    assert len(arrows) == min(4, len(pv))
    nodes = list(game.mainline())
    assert "cannot catch it" in nodes[0].comment
    assert nodes[-1].move.promotion and "promotes" in nodes[-1].comment
    assert "Exact prover: White forces a promotion" in game.comment


def test_export_command_is_deterministic_and_takes_every_source(tmp_path: Path) -> None:
    suspects = tmp_path / "suspects.epd"
    fen = "8/8/3k4/1p1p1p2/1P1P1P2/8/3K4/8 w - -"
    suspects.write_text(f'{fen} id "rams"; c0 "methods-disagree"; c3 "black"; c4 "flood";\n',
                        encoding="utf-8")
    args = ["8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "--diagram", "paper-16", "--playlist",
            str(suspects), "--exact-seconds", "0.5"]
    one, two = tmp_path / "one.pgn", tmp_path / "two.pgn"
    assert run("export", "--pgn", str(one), *args)[0] == 0
    assert run("export", "--pgn", str(two), *args)[0] == 0
    assert one.read_bytes() == two.read_bytes()  # a clock of work: the same file anywhere
    games = _read(one)
    assert [g.headers["ChapterName"] for g in games] == [
        "position 1 (White)", "paper-16 · paper Diagram 16, section 3.4", "rams (Black)"]
    rams = games[2]
    assert rams.headers["Orientation"] == "black"
    assert "Black: no blockage proved" not in rams.comment or "wiki" in rams.comment
    assert all(lichess_problems(g) == [] for g in games)


def test_what_is_not_ours_is_never_replaced(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    epd = tmp_path / "in.pgn"
    epd.write_text("4k3/8/8/8/8/8/4P3/4K3 w - -\n", encoding="utf-8")
    assert run("export", "--pgn", str(epd), "--playlist", str(epd), "--no-exact")[0] == 2
    assert "is an input of this command: not replaced" in capsys.readouterr().err
    folder = tmp_path / "x.pgn"
    folder.mkdir()
    assert run("export", "--pgn", str(folder), "--no-exact")[0] == 2
    assert "is not a regular file: not replaced" in capsys.readouterr().err
    assert run("export", "--pgn", "/dev/null", "--no-exact")[0] == 2
    assert "--pgn must name a .pgn file" in capsys.readouterr().err
    assert run("export", "--pgn", str(tmp_path / "a.pgn"), "--diagram", "nope")[0] == 2
    assert "no diagram 'nope'" in capsys.readouterr().err
    assert run("export", "--pgn", str(tmp_path / "a.pgn"), "not a fen")[0] == 2
    assert "not a FEN or EPD position" in capsys.readouterr().err


def test_lichess_problems_are_found() -> None:
    pos = LessonPosition(chess.STARTING_FEN, "x" * 81, True, "paper")
    game = chapter_game(Chapter(pos, exact=False))
    node = game
    board = chess.Board()
    for _ in range(401):
        move = next(iter(board.legal_moves))
        node = node.add_variation(move)
        board.push(move)
    node.comment = "{"
    problems = lichess_problems(game)
    assert any("chapter name of 81 characters" in p for p in problems)
    assert any("main line longer than 400 plies" in p for p in problems)
    assert any("with a brace" in p for p in problems)
    assert lesson_pgn([Chapter(lesson_positions(diagrams=["paper-5"])[0], exact=False)]) \
        .count("[Event ") == 1


@pytest.mark.slow
def test_the_whole_library_with_exact_lines_fits_one_study(tmp_path: Path) -> None:
    path = tmp_path / "library.pgn"
    assert run("export", "--pgn", str(path))[0] == 0
    games = _read(path)
    assert len(games) == 17
    for g in games:
        assert not g.errors and lichess_problems(g) == []
        board = g.board()
        for move in g.mainline_moves():
            assert board.is_legal(move)
            board.push(move)
    assert sum(1 for g in games if g.next() is not None) >= 4  # lines where exact breaks
