"""What a forced promotion leads to (:mod:`logic.exact.outcome`): every ``wins`` is a win
by Syzygy's value of the root, on random KPvK, KPPvK and KPvKP positions, either side
to move, each side with pawns as X; the other outcomes appear where they should."""

from __future__ import annotations

import random
from collections import Counter

import chess
import chess.syzygy
import pytest

from logic.exact import prover as exact
from logic.exact.outcome import OUTCOMES, Outcome, outcome
from tests.strategies import random_material_board

MATERIALS = [("P", ""), ("PP", ""), ("P", "p")]


def _x_wdl(tb: chess.syzygy.Tablebase, board: chess.Board, x: chess.Color) -> int:
    wdl = tb.probe_wdl(board)
    return wdl if board.turn == x else -wdl


def _sweep(tb, material: tuple[str, str], n: int, seed: str) -> Counter[str]:
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(n):
        board = random_material_board(rng, *material, playable=True)
        for x in chess.COLORS:
            if not board.pawns & board.occupied_co[x]:
                continue
            r = exact.solve(board, x)
            if r.status != "breaks" or not r.pv:
                continue
            o = outcome(board, x, r.pv, r.ends)
            assert o.kind in OUTCOMES
            seen[o.kind] += 1
            if o.kind == "wins":
                assert _x_wdl(tb, board, x) > 0, (board.fen(), x, r.pv, o)
    return seen


@pytest.mark.parametrize("material", MATERIALS)
def test_every_wins_is_a_table_win(material, syzygy_dir) -> None:
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        seen = _sweep(tb, material, 250, "outcome-" + "v".join(material))
    if material[1]:  # the defender has a pawn: no rule proves a win without tables
        assert seen["wins"] == 0 and seen["race"] > 5 and seen["unclear"] > 50, seen
    else:
        assert seen["wins"] > 20, seen


@pytest.mark.slow
@pytest.mark.parametrize("material", MATERIALS)
def test_every_wins_is_a_table_win_on_thousands(material, syzygy_dir) -> None:
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        seen = _sweep(tb, material, 2000, "outcome-big-" + "v".join(material))
    assert seen["wins"] > 200 or material[1], seen


def test_the_four_kinds_on_known_lines() -> None:
    # a queen against a bare king
    b = chess.Board("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1")
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion").kind == "wins"
    # the new queen is taken at once: no rule proves a win
    b = chess.Board("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1")
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion").kind == "unclear"
    # stalemate after the promotion
    b = chess.Board("k7/2P5/1K6/8/8/8/8/8 w - - 0 1")
    assert outcome(b, chess.WHITE, ["c7c8q"], "promotion").kind == "unclear"
    # Black queens at once too: a race
    b = chess.Board("8/4P3/8/8/8/8/p7/K2k4 w - - 0 1")
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion").kind == "unclear"  # Ka1 blocks
    b = chess.Board("8/4P3/8/8/8/7K/p7/3k4 w - - 0 1")
    o = outcome(b, chess.WHITE, ["e7e8q"], "promotion")
    assert o.kind == "race" and "Black queens too" in o.text
    # the defender forced to promote
    o = outcome(b, chess.WHITE, [], "defender-promotion")
    assert o == Outcome("defender", "Black is forced to promote (no win for White proved)",
                        "rule")
    assert outcome(b, chess.WHITE, ["e7e8q"], "mate").kind == "wins"


def test_tables_decide_where_they_have_the_material(syzygy_dir) -> None:
    # after 1. e8=Q the material is KQvK: not in the shared pawn tables, so the rule
    # decides; a table that has it answers instead
    class Draws:
        def probe_wdl(self, board: chess.Board) -> int:
            return 0

    class Missing:
        def probe_wdl(self, board: chess.Board) -> int:
            raise KeyError("no table")

    b = chess.Board("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1")
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion", tables=Draws()).kind == "draws"
    assert outcome(b, chess.WHITE, ["e7e8q"], "promotion", tables=Missing()).kind == "wins"
