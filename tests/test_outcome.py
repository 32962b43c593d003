"""What a forced promotion leads to (:mod:`logic.exact.outcome`) and why the line's moves
work (:mod:`logic.exact.why`): every ``wins`` is a win by Syzygy's value of the root on
random KPvK, KPPvK and KPvKP positions (300 here, the 5,100 of the docs' table,
``benchmarks/outcome_sweep.py``, in the slow sweep); each rule and each outcome on a
position where it holds (the bare-king rule against Gaviota's KQvK table); the verdict,
its JSON and the viewer's banner say it."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.syzygy
import pytest

import logic
from benchmarks import outcome_sweep as sweep
from logic.exact.outcome import OUTCOMES, UNCLEAR, Outcome, open_tables, outcome
from logic.exact.why import outside_square, steps_to_promote, x_move_reason

#: Debian's gaviotatb package: the three-piece Gaviota tables (KQvK, KPvK, ...)
GAVIOTA = Path("/usr/share/gaviotatb")


def _sweep(syzygy_dir: Path, material: str, n: int, seed: str,
           seconds: float = 2.0) -> sweep.Tally:
    keys = list(sweep.sides(material, n, seed))
    sides = sweep.solve_all(keys, seconds, 1, {})
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        return sweep.tally(sides, tb)


@pytest.mark.parametrize("material", [
    pytest.param(m, marks=pytest.mark.slow) if m == "KPvKP" else m for m in sweep.MATERIALS])
def test_every_wins_is_a_syzygy_win_of_the_root(material: str, syzygy_dir: Path) -> None:
    """100 random positions of each material, a work-clock budget (counts, not time):
    no ``wins`` that Syzygy does not call a win for X; the bare king gives wins, a
    defender's pawn races or leaves it unclear (no rule proves a win without tables)."""
    t = _sweep(syzygy_dir, material, 100, "test")
    assert t.exceptions == [], t.exceptions
    assert set(t.kinds) <= {"blocked", "unknown", *OUTCOMES}
    if material == "KPvKP":
        assert t.kinds["wins"] == 0 and t.kinds["race"] > 0 and t.kinds["unclear"] > 10, t
    else:
        assert t.kinds["wins"] > 40 and t.kinds["race"] == t.kinds["defender"] == 0, t


@pytest.mark.slow
def test_every_wins_is_a_syzygy_win_on_5100_positions(syzygy_dir: Path) -> None:
    """The acceptance sweep: 1,700 positions of each material (the docs' table)."""
    seen = {m: _sweep(syzygy_dir, m, 1700, "outcome", 10.0) for m in sweep.MATERIALS}
    assert all(t.exceptions == [] for t in seen.values()), seen
    assert sum(t.kinds["wins"] for t in seen.values()) > 1000, seen


def test_a_queen_against_a_bare_king_wins() -> None:
    b = chess.Board("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1")
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion") == Outcome(
        "wins", "then a queen against a bare king: wins", "rule")
    # Black promotes: the same rule, mirrored
    b = chess.Board("4k3/8/2K5/8/8/8/4p3/8 b - - 0 1")
    assert outcome(b, chess.BLACK, ["e2e1q"], "promotion").kind == "wins"


def test_no_win_where_the_queen_falls_or_stalemates_or_the_defender_has_a_pawn() -> None:
    # the new queen can be taken at once
    b = chess.Board("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1")
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion") == UNCLEAR
    # g8=Q stalemates the king on a1
    b = chess.Board("8/6P1/8/8/8/8/2K5/k7 w - - 0 1")
    assert outcome(b, chess.WHITE, ["g7g8q"], "promotion") == UNCLEAR
    # the defender has a pawn (blocked by its king: no race either)
    b = chess.Board("8/4P3/8/8/8/8/p7/K2k4 w - - 0 1")
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion") == UNCLEAR
    # an illegal line or a line that ends with X to move says nothing
    assert outcome(b, chess.WHITE, ["e7e6"], "promotion") == UNCLEAR
    assert outcome(b, chess.WHITE, [], "promotion") == UNCLEAR


def test_a_race_names_the_defenders_promotion() -> None:
    b = chess.Board("8/4P3/8/8/8/7K/p7/3k4 w - - 0 1")
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion") == Outcome(
        "race", "Black queens too (1... a1=Q): a race", "search")
    # Black attacks and White, the defender, queens at once
    b = chess.Board("3K4/1P6/8/8/8/8/4p3/k7 b - - 0 1")
    assert outcome(b, chess.BLACK, ["e2e1q"], "promotion") == Outcome(
        "race", "White queens too (2. b8=Q): a race", "search")


def test_a_race_within_two_moves_is_searched_over_every_reply() -> None:
    """After 1. a8=Q the new queen is shut in by its own king and pawns (a7 its only
    square) and White's king is far: Black's h-pawn queens on its second move whatever
    White replies; with the h-pawn a square further back it does not."""
    b = chess.Board("1K6/PP6/P7/8/4k3/7p/8/8 w - - 0 1")
    assert outcome(b, chess.WHITE, ["a7a8q"], "promotion") == Outcome(
        "race", "Black queens too (by move 2): a race", "search")
    b = chess.Board("1K6/PP6/P7/8/4k2p/8/8/8 w - - 0 1")
    assert outcome(b, chess.WHITE, ["a7a8q"], "promotion") == UNCLEAR


def test_the_defenders_promotion_and_mate() -> None:
    b = chess.Board("8/4P3/8/8/8/7K/p7/3k4 w - - 0 1")
    assert outcome(b, chess.WHITE, ["h3g3", "a2a1q"], "defender-promotion") == Outcome(
        "defender", "Black is forced to promote (no win for White proved)", "rule")
    # mate with the defender bare: a win; with a defender's pawn: not proved
    b = chess.Board("k7/2P5/1K6/8/8/8/8/8 w - - 0 1")
    assert outcome(b, chess.WHITE, ["c7c8q"], "mate").kind == "wins"
    # a promotion that mates (the line ends as a promotion)
    b = chess.Board("k7/2P4P/1K6/8/8/8/8/8 w - - 0 1")
    assert outcome(b, chess.WHITE, ["h7h8q"], "promotion") == Outcome(
        "wins", "then mate: wins", "rule")
    b = chess.Board("k7/2P5/1K6/8/8/8/7p/8 w - - 0 1")
    o = outcome(b, chess.WHITE, ["c7c8q"], "mate")
    assert o.kind == "unclear" and "Black's promotion" in o.text


class _Fixed:
    """Tables that give every position one value for the side to move (None: no table)."""

    def __init__(self, value: int | None) -> None:
        self._value = value

    def value(self, board: chess.Board) -> int | None:
        return self._value


def test_tables_decide_where_they_hold_the_material() -> None:
    b = chess.Board("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1")
    line = ["e7e8q"]
    assert outcome(b, chess.WHITE, line, "promotion", tables=_Fixed(0)) == Outcome(
        "draws", "the endgame table says: a draw", "table")
    assert outcome(b, chess.WHITE, line, "promotion", tables=_Fixed(-1)) == Outcome(
        "loses", "the endgame table says: Black wins", "table")
    assert outcome(b, chess.WHITE, line, "promotion", tables=_Fixed(None)).by == "rule"
    # the value is the side to move's: Black to move and losing is White's win
    b = chess.Board("8/4P3/8/8/8/2k5/8/4K3 b - - 0 1")
    assert outcome(b, chess.WHITE, ["c3d4", "e7e8q"], "promotion",
                   tables=_Fixed(-1)).kind == "wins"
    # a defender's forced promotion stays what it is
    assert outcome(b, chess.WHITE, [], "defender-promotion", tables=_Fixed(1)).kind == \
        "defender"


def test_syzygy_tables_of_the_root(syzygy_dir: Path) -> None:
    """The shared Syzygy tables hold the root's material (KPvKP): a race without them
    is the table's value with them (a draw here: Black's king holds)."""
    with open_tables(str(syzygy_dir)) as tb:
        assert tb.kind == "syzygy"
        b = chess.Board("8/4P3/8/8/8/7K/p7/3k4 w - - 0 1")
        assert tb.value(b) is not None
        o = outcome(b, chess.WHITE, ["e7e8q"], "promotion", tables=tb)
        wdl = chess.syzygy.open_tablebase(str(syzygy_dir)).probe_wdl(b)
        assert o.by == "table" and o.kind == {2: "wins", -2: "loses"}.get(wdl, "draws")
        # no table for the material: None
        assert tb.value(chess.Board("8/8/8/8/8/2k5/8/Q3K3 b - - 0 1")) is None


def test_open_tables_says_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no Syzygy"):
        open_tables(str(tmp_path))
    with pytest.raises(ValueError, match="--tables"):
        open_tables(str(tmp_path / "missing"))


needs_gaviota = pytest.mark.skipif(not (GAVIOTA / "gtb4" / "kqk.gtb.cp4").is_file(),
                                   reason="Debian's gaviotatb package is not installed")


def _kqk_rule_positions(placements: Iterator[tuple[int, int, int]]) -> Iterator[chess.Board]:
    """The KQvK boards, Black (the bare king) to move, of ``placements`` (White's king,
    Black's king, the queen) where the rule applies: legal, Black has a move and none
    takes the queen."""
    for wk, bk, q in placements:
        if len({wk, bk, q}) < 3:
            continue
        board = chess.Board(None)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(q, chess.Piece(chess.QUEEN, chess.WHITE))
        board.turn = chess.BLACK
        moves = list(board.legal_moves) if board.is_valid() else []
        if moves and not any(m.to_square == q for m in moves):
            yield board


@needs_gaviota
def test_gaviota_tables_and_the_bare_king_rule_against_kqk() -> None:
    """Debian's layout opens (the gtb4 folder); the rule's end position (a queen the
    bare king can neither take nor is stalemated by, the king to move) is a loss for the
    king in 2,000 random KQvK placements of the table."""
    rng = random.Random("kqk")
    with open_tables(str(GAVIOTA)) as tb:
        assert tb.kind == "gaviota" and tb.path.endswith("gtb4")
        assert tb.value(chess.Board("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1")) == 1
        placements = ((rng.choice(chess.SQUARES), rng.choice(chess.SQUARES),
                       rng.choice(chess.SQUARES)) for _ in itertools.count())
        for k, board in enumerate(_kqk_rule_positions(placements)):
            assert tb.value(board) == -1, board.fen()
            if k == 2000:
                break


@pytest.mark.slow
@needs_gaviota
def test_the_bare_king_rule_is_proved_against_the_whole_kqk_table() -> None:
    """Every KQvK position the rule applies to, White's king on the a1-d1-d4 triangle
    (the others are its mirror images), is a loss for the bare king."""
    triangle = [chess.A1, chess.B1, chess.C1, chess.D1, chess.B2, chess.C2, chess.D2,
                chess.C3, chess.D3, chess.D4]
    placements = itertools.product(triangle, chess.SQUARES, chess.SQUARES)
    with open_tables(str(GAVIOTA)) as tb:
        n = 0
        for board in _kqk_rule_positions(placements):
            assert tb.value(board) == -1, board.fen()
            n += 1
    assert n > 20_000


# ---------------------------------------------------------------- why a move works


def test_the_rule_of_the_square() -> None:
    assert steps_to_promote(chess.D5, chess.WHITE) == 3
    assert steps_to_promote(chess.D2, chess.WHITE) == 5  # the double step
    assert steps_to_promote(chess.D2, chess.BLACK) == 1
    b = chess.Board("8/8/8/3P4/7k/8/8/5K2 b - - 0 1")  # d5: 3 moves; Kh4 4 steps from d8
    assert outside_square(b, chess.D5) is False
    b = chess.Board("8/8/8/3P4/8/7k/8/5K2 b - - 0 1")  # Kh3: 5 steps
    assert outside_square(b, chess.D5) is True


def _reason(fen: str, uci: str) -> tuple[str, str]:
    board = chess.Board(fen)
    mover = board.turn
    move = chess.Move.from_uci(uci)
    board.push(move)
    return x_move_reason(board, move, mover)


def test_each_reason_where_it_holds() -> None:
    # outside the square: after d6 the pawn needs 2 moves, the king on h4 4 steps
    assert _reason("8/8/8/3P4/7k/8/8/5K2 w - - 0 1", "d5d6") == (
        "outside", "Black's king is outside the square of the d-pawn: it cannot catch it.")
    # the passed pawn moves on inside the king's reach
    assert _reason("8/8/5k2/8/3P4/8/8/3K4 w - - 0 1", "d4d5") == (
        "passed", "the passed d-pawn moves on (no black pawn ahead on its file or the "
                  "files beside it).")
    # White's king moves while Black's king must stay in the d-pawn's square
    assert _reason("8/8/5k2/8/3P4/8/8/3K4 w - - 0 1", "d1e2") == (
        "tied", "Black's king is tied to the d-pawn: it must stay in the pawn's square.")
    # Black attacks: the same, mirrored
    assert _reason("3k4/8/8/3p4/8/5K2/8/8 b - - 0 1", "d5d4").kind == "passed"
    # no passed pawn: no reason
    assert _reason("8/3p4/8/3P4/7k/8/8/5K2 w - - 0 1", "f1e2").kind == ""


def test_the_lines_steps_say_why() -> None:
    """The exact line of a runner says at each of White's pawn moves that the king is
    outside the square (instead of "a pawn moves on"), and its last step the outcome."""
    v = logic.detect(chess.Board("8/8/8/3P4/7k/8/8/5K2 w - - 0 1"), chess.WHITE,
                     method="exact", trace=True)
    texts = [s.text for s in v.steps if s.kind == "exact-move"]
    assert texts[0] == ("1. d6: Black's king is outside the square of the d-pawn: it "
                        "cannot catch it.")
    assert not any("a pawn moves on" in t for t in texts)
    assert texts[-1].endswith("White promotes: the blockage is over — then a queen "
                              "against a bare king: wins.")


# ---------------------------------------------------------------- the verdict says it


def test_the_headline_reason_and_json_say_the_outcome(tmp_path: Path, capsys) -> None:
    from viewer.cli import main
    from viewer.model.text import frame_banner, side_summary

    board = chess.Board("8/8/8/3P4/7k/8/8/5K2 w - - 0 1")
    v = logic.detect(board, chess.WHITE, method="exact")
    assert v.headline == ("White forces a promotion: 1. d6! … 3. d8=Q+ — then a queen "
                          "against a bare king: wins")
    assert v.reason.endswith("1. d6 Kg5 2. d7 Kf6 3. d8=Q+ — then a queen against a "
                             "bare king: wins")
    assert "breaks through" not in v.headline + v.reason
    assert side_summary(v) == "White forces a promotion: wins — proved (exact)"
    banner = frame_banner(v)
    assert banner.kind == "open" and banner.head.endswith("wins")
    fields = logic.METHODS["exact"].fields(v)
    assert fields["outcome"] == {"kind": "wins", "by": "rule",
                                 "text": "then a queen against a bare king: wins"}
    bare = logic.detect(board, chess.BLACK, method="exact")  # no pawn: nothing to force
    assert bare.blocked and logic.METHODS["exact"].fields(bare)["outcome"] is None
    race = logic.detect(chess.Board("8/4P3/8/8/8/7K/p7/3k4 w - - 0 1"), chess.WHITE,
                        method="exact")
    assert race.headline == ("White forces a promotion: 1. e8=Q! — Black queens too "
                             "(1... a1=Q): a race")
    assert side_summary(race) == "White forces a promotion: a race — proved (exact)"
    f = tmp_path / "f.epd"
    f.write_text("8/4P3/8/8/8/7K/p7/3k4 w - - 0 1\n")
    assert main(["classify", str(f), "--method", "exact"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["white"]["outcome"]["kind"] == row["black"]["outcome"]["kind"] == "race"
    assert row["black"]["outcome"]["text"] == "White queens too (2. e8=Q): a race"


def test_tables_option_of_explain_and_classify(tmp_path: Path, capsys,
                                               syzygy_dir: Path) -> None:
    """``--tables DIR``: the root's value decides (the shared Syzygy tables hold KPvKP);
    a folder without tables and a static method are refused."""
    from viewer.cli import main

    fen = "8/4P3/8/8/8/7K/p7/3k4 w - - 0 1"
    assert main(["explain", fen, "--method", "exact", "--side", "white", "--json",
                 "--tables", str(syzygy_dir)]) == 0
    told = json.loads(capsys.readouterr().out)["verdicts"][0]["outcome"]
    assert told["by"] == "table"
    # the tables are used by that command only
    assert logic.METHODS["exact"].tables is None
    assert main(["explain", fen, "--method", "exact", "--tables", str(tmp_path)]) == 2
    assert "no Syzygy" in capsys.readouterr().err
    f = tmp_path / "f.epd"
    f.write_text(fen + "\n")
    assert main(["classify", str(f), "--tables", str(syzygy_dir)]) == 2
    assert "only with --method exact" in capsys.readouterr().err
