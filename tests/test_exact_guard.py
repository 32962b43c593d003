"""GUARD, the restricted game where X's king taking a pawn ends the game as X's success
(``logic.exact.tables``): its moves, its tables, its nesting inside LEVERS, and the
claims it proves with a tenth of LEVERS's structures.  Every answer is counted on a
:class:`~logic.exact.budget.WorkClock`: the same on any machine under any load."""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from logic.exact import prover as exact
from logic.exact import tables as et
from logic.exact.budget import WorkClock
from logic.tools.bench_exact import read_boards
from tests.conftest import ROOT
from tests.strategies import random_near_fortress

#: a master-game claim (paper and flood call Black blocked) that LEVERS proves only
#: after some 12,000 structure solves: Black's king could eat its way into White's
#: pawns if White's king let it, and LEVERS solves every structure that would make
CLAIM = "8/7p/1p2k1p1/p1p2pP1/P1P2P1P/1P6/5K2/8 w - - 3 43"


@pytest.fixture(autouse=True)
def _fresh_exact_cache():
    exact.clear_cache()
    yield


def _solve(board: chess.Board, color: chess.Color, **kw: Any) -> exact.ExactResult:
    return exact.solve(board, color, clock=WorkClock(), pv=False, **kw)


def test_guard_moves_are_levers_moves_with_x_king_captures_ending_the_game() -> None:
    """Every LEVERS move, the same; X's king captures have no child (the game ends)."""
    rng = random.Random("guard moves")
    kcaps = 0
    for _ in range(200):
        b = random_near_fortress(rng)
        xp, dp = b.pieces_mask(chess.PAWN, chess.WHITE), b.pieces_mask(chess.PAWN, chess.BLACK)
        levers, guard = et.moves_of(xp, dp, et.LEVERS), et.moves_of(xp, dp, et.GUARD)
        assert guard.d == levers.d
        assert len(guard.x) == len(levers.x)
        for g, lv in zip(guard.x, levers.x, strict=True):
            if lv.kind == et.KCAP:
                kcaps += 1
                assert g.child is None and g._replace(child=lv.child) == lv
            else:
                assert g == lv
    assert kcaps > 100


def test_an_x_king_capture_is_a_win_at_once_in_guard_only() -> None:
    """White's king next to an unprotected h5 pawn, Black's king far: White to move wins
    GUARD at once; in LEVERS the same capture leads on to a structure (here given as
    lost), so nothing is won there."""
    xp, dp = chess.BB_A2, chess.BB_H5
    at = et.index(chess.G4, chess.A8)
    guarded = et.index(chess.G4, chess.G6)  # Black's king guards h5: no capture
    lg = et.legal_masks(xp, dp)

    def lost(_child: tuple[int, int]) -> et.Tables:
        return et.LOW

    guard = et.solve_structure(xp, dp, et.GUARD, et.moves_of(xp, dp, et.GUARD), lost)
    levers = et.solve_structure(xp, dp, et.LEVERS, et.moves_of(xp, dp, et.LEVERS), lost)
    assert (guard.wgood & lg.w) >> at & 1
    assert not (levers.wgood & lg.w) >> at & 1
    kcap = next(m for m in et.moves_of(xp, dp, et.GUARD).x if m.kind == et.KCAP)
    assert lg.w >> guarded & 1 and not et.move_legal(kcap, lg.w, 0, True) >> guarded & 1


def test_guard_proves_a_master_claim_with_a_tenth_of_the_structures() -> None:
    """The claim of :data:`CLAIM`: GUARD proves it, LEVERS too but with far more
    structure solves, and the ``claimed`` schedule takes GUARD's proof."""
    board = chess.Board(CLAIM)
    guard = _solve(board, chess.BLACK, method="guard")
    exact.clear_cache()
    levers = _solve(board, chess.BLACK, method="levers")
    exact.clear_cache()
    claimed = _solve(board, chess.BLACK, method="claimed")
    assert guard.status == levers.status == claimed.status == "blocked"
    assert guard.restricted == "guard" and claimed.restricted == "guard"
    assert guard.structures * 5 < levers.structures, (guard.structures, levers.structures)
    assert claimed.structures < levers.structures // 2


def _guard_against_full(step: int, full_structures: int) -> tuple[int, int]:
    """Every ``step``-th board of the library and our corpus, both sides: where GUARD
    says blocked, LEVERS (a larger game) says blocked too and the whole DAG of the full
    game never proves a breakthrough.  (GUARD blockages, of them confirmed by the whole
    DAG within ``full_structures``.)"""
    boards = read_boards(ROOT / "assets" / "diagrams.epd")
    boards += read_boards(ROOT / "tests" / "data" / "sf_corpus.jsonl")
    blocked = confirmed = 0
    for b in boards[::step]:
        for x in chess.COLORS:
            exact.clear_cache()
            g = _solve(b, x, method="guard", max_structures=3000)
            assert g.status in ("blocked", "unknown"), (b.fen(), x, g)
            if not g.blocked:
                continue
            blocked += 1
            exact.clear_cache()
            assert _solve(b, x, method="levers", max_structures=3000).blocked, (b.fen(), x)
            exact.clear_cache()
            full = _solve(b, x, method="full", max_structures=full_structures)
            assert full.status != "breaks", (b.fen(), x, full.pv)
            confirmed += full.blocked is True
    return blocked, confirmed


def test_guard_blocks_only_where_levers_and_the_full_game_do() -> None:
    """GUARD is LEVERS with more X wins, so its blockage holds in LEVERS and the real
    game: checked on a sample of the library and our corpus against LEVERS and the whole
    DAG of the full game (the independent exact truth where it fits its budget)."""
    blocked, confirmed = _guard_against_full(8, 2000)
    assert blocked >= 40 and confirmed >= 25, (blocked, confirmed)


@pytest.mark.slow
def test_guard_blocks_only_where_the_full_game_does_on_every_board() -> None:
    """The same on every board of the library and our corpus, with a larger whole DAG."""
    blocked, confirmed = _guard_against_full(1, 4000)
    assert blocked >= 350 and confirmed >= 280, (blocked, confirmed)
