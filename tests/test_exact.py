"""The exact retrograde prover (:mod:`logic.exact`): soundness against Syzygy, known
positions, PVs against a brute-force search, agreement of its shortcuts with the full
game, the runner bound against exact tables, budgets and cancellation."""

from __future__ import annotations

import ast
import random
import re
import time
from pathlib import Path
from typing import Any

import chess
import chess.syzygy
import pytest

import logic
from logic.exact import dag as exact_dag
from logic.exact import prover as exact
from logic.exact import reach as er
from logic.exact import tables as et
from logic.exact.budget import WorkClock
from tests.strategies import random_material_board

LOGIC = Path(exact.__file__).resolve().parent


def exact_solve(board: chess.Board, color: chess.Color, **kw: Any) -> exact.ExactResult:
    """:func:`exact.solve` on a clock of its own that counts work, never wall time: the
    answer, its counts and its line are the same on any machine under any load."""
    return exact.solve(board, color, clock=WorkClock(), **kw)


@pytest.fixture(autouse=True)
def _fresh_exact_cache():
    exact.clear_cache()
    yield


def _x_wdl(tb: chess.syzygy.Tablebase, board: chess.Board, x: chess.Color) -> int:
    """Syzygy's WDL from X's point of view (the table answers for the side to move)."""
    wdl = tb.probe_wdl(board)
    return wdl if board.turn == x else -wdl


# --------------------------------------------------------------------------- Syzygy

MATERIALS = [("P", ""), ("", "p"), ("PP", ""), ("", "pp"), ("P", "p")]


@pytest.mark.slow
@pytest.mark.parametrize("white,black", MATERIALS)
def test_blocked_is_never_a_syzygy_win(white: str, black: str, syzygy_dir) -> None:
    """Thousands of random positions, either side to move, each side with pawns as X:
    ``blocked=True`` never where the table says X wins."""
    rng = random.Random(f"{white}v{black}")
    checked = blocked = 0
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        for _ in range(700):
            board = random_material_board(rng, white, black)
            for x in chess.COLORS:
                if not board.pawns & board.occupied_co[x]:
                    continue
                r = exact_solve(board, x, pv=False)
                assert r.status != "unknown", board.fen()
                checked += 1
                if r.blocked:
                    blocked += 1
                    assert _x_wdl(tb, board, x) <= 0, (board.fen(), x, r)
                else:  # X forces a promotion or mate: it may still not win the game
                    assert r.blocked is False
    assert checked >= 700 and blocked > 10


@pytest.mark.slow
@pytest.mark.parametrize("game", ["kings", "guard", "levers", "nopush"])
def test_restricted_games_never_block_a_syzygy_win(game: str, syzygy_dir) -> None:
    """A restricted game's ``blocked`` (the defender weaker than in chess) is a proof of
    its own: never where the table says X wins.  The games are nested (KINGS and GUARD
    inside LEVERS inside NOPUSH), so a blockage of a smaller one holds in the larger."""
    rng = random.Random(f"restricted {game}")
    larger = {"kings": "levers", "guard": "levers", "levers": "nopush"}.get(game)
    blocked = 0
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        for _ in range(250):
            board = random_material_board(rng, "P", "p")
            for x in chess.COLORS:
                r = exact_solve(board, x, pv=False, method=game)
                assert r.status in ("blocked", "unknown"), (board.fen(), x, r)
                if r.blocked:
                    blocked += 1
                    assert _x_wdl(tb, board, x) <= 0, (board.fen(), x, game)
                    if larger:
                        assert exact_solve(board, x, pv=False, method=larger).blocked, (
                            board.fen(), x, game, larger)
    # the defending king alone rarely holds a random KPvKP board; with its pawn's
    # captures, and then its own, ever more often; GUARD's defender must also keep the
    # attacking king from its one pawn, which it rarely can on an open board
    assert blocked >= {"kings": 1, "guard": 3, "levers": 15, "nopush": 100}[game]


@pytest.mark.slow
def test_gap_expansion_never_blocks_a_win(syzygy_dir) -> None:
    """The gap-guided expansion's ``blocked`` (an upper bound from a partial expansion
    of the full game) is never a Syzygy win and always the whole DAG's answer; it
    proves blockages only (a win is left to the other strategies: unknown)."""
    rng = random.Random("gap")
    blocked = 0
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        for i in range(300):
            board = random_material_board(rng, *(("P", "p"), ("PP", ""))[i % 2])
            for x in chess.COLORS:
                if not board.pawns & board.occupied_co[x]:
                    continue
                r = exact_solve(board, x, pv=False, method="gap")
                assert r.status in ("blocked", "unknown"), (board.fen(), x, r)
                if r.blocked:
                    blocked += 1
                    assert r.restricted == "gap" and r.king_map
                    assert _x_wdl(tb, board, x) <= 0, (board.fen(), x)
                    assert exact_solve(board, x, pv=False, method="full").blocked, board.fen()
    assert blocked >= 50, blocked


@pytest.mark.slow
def test_gap_expansion_proves_an_open_master_blockage() -> None:
    """A drawn game, six pawns against six (``lcc:571`` of the shared
    ``master-pawn-endings-drawn.epd``): White cannot force a promotion.  The gap-guided
    expansion proves it with about 23,000 structure solves, where the level-limited
    bounds are still unknown after 60,000; the king map holds
    Black's king where it stands."""
    board = chess.Board("8/pp2p3/3p4/P1pP1k2/2P2p2/1PP2P2/6K1/8 b - - 0 49")
    exact.clear_cache()
    r = exact_solve(board, chess.WHITE, method="gap", max_seconds=300, max_structures=40_000)
    assert (r.status, r.restricted) == ("blocked", "gap"), r
    assert r.king_map >> chess.F5 & 1


@pytest.mark.slow
def test_syzygy_wins_all_break_through(syzygy_dir) -> None:
    """Winning needs a promotion or a mate, so a Syzygy win is never blocked (the other
    direction of the same check, on positions the table calls won)."""
    rng = random.Random(5)
    wins = 0
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        for _ in range(300):
            board = random_material_board(rng, "P", "p")
            for x in chess.COLORS:
                if _x_wdl(tb, board, x) > 0:
                    wins += 1
                    assert exact_solve(board, x, pv=False).blocked is False, board.fen()
    assert wins > 50


# --------------------------------------------------------------------------- known

KNOWN = [
    # (FEN, X, blocked, first move of the PV)
    pytest.param("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - -", chess.WHITE, False, "a1b1",
                 marks=pytest.mark.slow),  # Fine #70 (a whole proof and its 51-ply line)
    ("4k3/8/8/p1p1p1p1/P1P1P1P1/2P5/8/4K3 w - -", chess.WHITE, True, None),  # paper 5
    ("5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - -", chess.WHITE, True, None),  # paper 16
]


@pytest.mark.parametrize("fen,x,blocked,first", KNOWN)
def test_known_positions(fen: str, x: chess.Color, blocked: bool, first: str | None) -> None:
    r = exact_solve(chess.Board(fen), x)
    assert r.blocked is blocked, r
    if first is not None:
        assert r.pv[0] == first and r.ends == "promotion"


def test_paper_diagram_14_breaks_with_h5() -> None:
    board = chess.Board("8/2k5/6p1/p1p1p1p1/P1P1P1PP/8/5K2/8 w - -")
    r = exact_solve(board, chess.WHITE, max_seconds=30)
    assert r.status == "breaks" and r.pv[0] == "h4h5" and r.ends == "promotion"


def test_black_breaks_through_only_with_b6xa5() -> None:
    fen = "k7/8/1p6/P4p1p/1p1p1P1p/1P1P3P/6K1/8 b - - 0 1"
    board = chess.Board(fen)
    r = exact_solve(board, chess.BLACK, max_seconds=30)
    assert r.status == "breaks" and r.pv[0] == "b6a5"
    # every other first move holds for White
    for mv in list(board.legal_moves):
        if mv.uci() == "b6a5":
            continue
        board.push(mv)
        assert exact_solve(board, chess.BLACK, max_seconds=30).blocked is True, mv.uci()
        board.pop()


def test_en_passant_decides() -> None:
    """Black has just played d7-d5: cxd6 e.p. makes a runner; without the e.p. square
    the same placement is held."""
    with_ep = chess.Board("8/8/8/k1Pp2K1/8/8/8/8 w - d6 0 1")
    assert with_ep.has_legal_en_passant()
    r = exact_solve(with_ep, chess.WHITE)
    assert r.status == "breaks" and r.pv[0] == "c5d6"
    without = chess.Board("8/8/8/k1Pp2K1/8/8/8/8 w - - 0 1")
    assert exact_solve(without, chess.WHITE).blocked is True
    # and from the other side: Black to move after White's c2-c4 may take e.p.
    mirror = with_ep.mirror()
    assert exact_solve(mirror, chess.BLACK).pv[0] == "c4d3"


def test_mate_and_forced_defender_promotion() -> None:
    mate = exact_solve(chess.Board("7k/5K1p/6P1/8/8/8/8/8 w - - 0 1"), chess.WHITE)
    assert (mate.status, mate.ends, mate.plies, mate.pv) == ("breaks", "mate", 1, ("g6g7",))
    forced = exact_solve(chess.Board("k7/2K5/1P6/8/8/8/1p6/8 b - - 0 1"), chess.WHITE)
    assert (forced.ends, forced.plies) == ("defender-promotion", 1)


def test_an_unknown_says_what_ran_out_and_time_buys_structures(monkeypatch) -> None:
    """``ran_out`` names the budget that ended an unknown call; a longer call gets a
    structure budget in proportion (:func:`exact.structure_budget`), up to the ceiling."""
    board = chess.Board("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")
    r = exact_solve(board, chess.WHITE, max_structures=40, pv=False, use_cache=False)
    assert (r.status, r.ran_out, r.structures) == ("unknown", "structures", 40)
    r = exact_solve(board, chess.WHITE, max_seconds=0.05, pv=False, use_cache=False)
    assert (r.status, r.ran_out) == ("unknown", "time") and r.structures < exact.MAX_STRUCTURES
    r = exact_solve(board, chess.WHITE, cancel=lambda: True, pv=False, use_cache=False)
    assert (r.status, r.ran_out) == ("unknown", "cancelled")
    assert exact.structure_budget(exact.MAX_SECONDS) == exact.MAX_STRUCTURES
    assert exact.structure_budget(1.0) == exact.MAX_STRUCTURES  # never fewer
    assert exact.structure_budget(4 * exact.MAX_SECONDS) == 4 * exact.MAX_STRUCTURES
    assert exact.structure_budget(1e6) == exact.STRUCTURE_CEILING
    kpk = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")  # no strategy decides it alone
    assert exact_solve(kpk, chess.WHITE, method="kings").ran_out == ""
    budgets: list[int] = []

    class Spy(exact.Budget):
        def __init__(self, seconds, structures, *args) -> None:
            budgets.append(structures)
            super().__init__(0.0, structures, *args)  # out at once

    monkeypatch.setattr(exact, "Budget", Spy)
    exact_solve(board, chess.WHITE, max_seconds=30, pv=False, use_cache=False)
    assert budgets == [3 * exact.MAX_STRUCTURES]
    # the batch tools prove in several processes at once: each keeps the default budget
    from logic.tools import bench_exact, judge

    budgets.clear()
    bench_exact.solve_case((bench_exact.Case("t", board.fen(), chess.WHITE, ""), 30.0))
    verdicts = {m: {"white": {"blocked": True, "rule": "x"}, "black": {"blocked": False}}
                for m in logic.STATIC_METHODS}
    judge.judge_position(board, verdicts, judge.JudgeConfig(seconds=30.0))
    assert budgets == [exact.MAX_STRUCTURES] * 2


def test_errors() -> None:
    with pytest.raises(ValueError, match="8/8/8/8/8/8/8/KQk5"):
        exact_solve(chess.Board("8/8/8/8/8/8/8/KQk5 w - - 0 1"), chess.WHITE)
    with pytest.raises(exact.ExactError, match="illegal"):
        exact_solve(chess.Board("8/8/8/8/8/8/8/Kk6 w - - 0 1"), chess.WHITE)
    with pytest.raises(ValueError, match="method"):
        exact_solve(chess.Board("8/8/8/8/8/8/4P3/K1k5 w - - 0 1"), chess.WHITE, method="x")
    # NaN never reaches the deadline (it ran unbounded); the search's check_seconds rejects
    # the same values
    board = chess.Board("8/2k5/6p1/p1p1p1p1/P1P1P1PP/8/5K2/8 w - -")
    for bad in (-1.0, "1", float("inf"), float("nan")):
        with pytest.raises(exact.ExactError, match="max_seconds") as info:
            exact_solve(board, chess.WHITE, max_seconds=bad)  # type: ignore[arg-type]
        assert repr(bad) in str(info.value)


# --------------------------------------------------------------------------- PV


def _forces(board: chess.Board, x: chess.Color, n: int, memo: dict) -> bool:
    """Brute force: can X force the target (a promotion by either side, or D mated)
    within ``n`` plies?  X's promotion whose new piece D's king can take at once is no
    target: D takes it (its longest defence) and the search goes on."""
    key = (board._transposition_key(), n)
    if key in memo:
        return memo[key]
    moves = list(board.legal_moves)
    if not moves:
        res = board.turn != x and board.is_check()
    elif n == 0:
        res = False
    elif board.turn == x:
        res = False
        for mv in moves:
            board.push(mv)
            if mv.promotion:
                res = _stands_or_forces(board, mv.to_square, x, n - 1, memo)
            else:
                res = _forces(board, x, n - 1, memo)
            board.pop()
            if res:
                break
    else:
        res = True
        for mv in moves:
            if mv.promotion:
                continue
            board.push(mv)
            res = _forces(board, x, n - 1, memo)
            board.pop()
            if not res:
                break
    memo[key] = res
    return res


def _stands_or_forces(board: chess.Board, square: chess.Square, x: chess.Color, n: int,
                      memo: dict) -> bool:
    """After X's promotion on ``square`` (D to move): the new piece stands, or D's king
    takes it and X still forces the target within ``n - 1`` more plies."""
    take = next((m for m in board.legal_moves if m.to_square == square), None)
    if take is None:
        return True
    if n < 1:
        return False
    board.push(take)
    res = _forces(board, x, n - 1, memo)
    board.pop()
    return res


def _replay(fen: str, r: exact.ExactResult) -> chess.Board:
    board = chess.Board(fen)
    for i, uci in enumerate(r.pv):
        mv = chess.Move.from_uci(uci)
        assert mv in board.legal_moves, (fen, r.pv, i)
        board.push(mv)
    return board


SHORT = [
    ("8/8/4P3/8/8/k7/8/4K3 b - - 0 1", chess.WHITE),
    ("k7/2K5/8/1P6/8/8/8/8 w - - 0 1", chess.WHITE),
    ("2K3k1/8/1P6/8/4p3/8/8/8 b - - 0 1", chess.WHITE),
    ("2K3k1/8/1P6/8/4p3/8/8/8 b - - 0 1", chess.BLACK),
    ("4k3/8/P5K1/8/8/8/8/8 b - - 0 1", chess.WHITE),
    ("7k/5K1p/6P1/8/8/8/8/8 w - - 0 1", chess.WHITE),
    ("k7/2K5/1P6/8/8/8/1p6/8 b - - 0 1", chess.WHITE),
]


@pytest.mark.parametrize("fen,x", SHORT)
def test_pv_is_fastest_by_brute_force(fen: str, x: chess.Color) -> None:
    """The PV is legal, ends the blockage on its last ply, and its length is the least
    number of plies in which X forces the target (brute-force AND/OR search)."""
    r = exact_solve(chess.Board(fen), x)
    assert r.status == "breaks" and r.plies == len(r.pv)
    end = _replay(fen, r)
    last = chess.Move.from_uci(r.pv[-1])
    assert last.promotion is not None or end.is_checkmate()
    assert _forces(chess.Board(fen), x, r.plies, {})
    assert not _forces(chess.Board(fen), x, r.plies - 1, {})


@pytest.mark.slow
def test_pvs_replay_on_random_breakthroughs(syzygy_dir) -> None:
    rng = random.Random(8)
    seen = 0
    for _ in range(120):
        board = random_material_board(rng, "PP", "p")
        for x in chess.COLORS:
            r = exact_solve(board, x)
            if r.status != "breaks":
                continue
            seen += 1
            end = _replay(board.fen(), r)
            mover = not end.turn  # who made the last move
            last = chess.Move.from_uci(r.pv[-1])
            if r.ends == "mate":
                assert end.is_checkmate() and mover == x
            else:
                assert last.promotion is not None
                assert (mover == x) == (r.ends == "promotion")
    assert seen > 60


@pytest.mark.parametrize(("fen", "x", "plies", "double"), [
    ("8/8/3K4/8/2p5/8/1P3k2/8 w - - 0 1", chess.WHITE, 19, "b2b4"),
    pytest.param("2k5/6p1/8/5P2/8/8/8/2K5 b - - 0 1", chess.BLACK, 33, "g7g5",
                 marks=pytest.mark.slow),
])
def test_the_line_never_walks_into_an_en_passant_refutation(fen: str, x: chess.Color,
                                                             plies: int, double: str) -> None:
    """X's double push past a defending pawn is answered by the capture en passant,
    which leaves X without a pawn: no win.  The line walked into it (a 9-ply "fastest"
    line, the defender's reply not counted); it is now the real distance, the forward
    search's (another algorithm: a depth-limited search over boards)."""
    board = chess.Board(fen)
    after = board.copy()
    after.push_uci(double)
    assert after.has_legal_en_passant()
    after.push(next(m for m in after.legal_moves if after.is_en_passant(m)))
    assert not after.pawns & after.occupied_co[x]  # no pawn left to promote
    r = exact_solve(board, x, method="full")
    assert r.status == "breaks" and r.fastest and r.pv[0] != double
    assert r.plies == len(r.pv) == plies
    exact.clear_cache()
    # the forward search's longest of these lines takes some 789,000 positions: a budget
    # of work that holds them
    assert exact_solve(board, x, method="forward", max_seconds=120).plies == plies


@pytest.mark.parametrize("method", ["full", pytest.param("forward", marks=pytest.mark.slow)])
def test_among_equal_defences_the_kings_line_goes_for_the_passed_pawn(method: str) -> None:
    """Once 2. Kxc4 has passed White's b-pawn, all of Black's king moves lose in as
    many plies; the line's king walked off to h8 (whole DAG: "5. b4 Kh7 6. b5 Kh8") or
    away from b8 (forward: "7. Kc6 Kd8 8. b7 Ke8").  Among equally long defences it now
    heads for the promotion square: no step takes it farther from b8 unless it ends
    beside b8, and the line is still the fastest (19 plies: a queen Black's king would
    take on b8 at once is no promotion)."""
    fen = "8/8/3K4/8/2p5/8/1P3k2/8 w - - 0 1"
    r = exact_solve(chess.Board(fen), chess.WHITE, method=method, max_seconds=120)
    assert (r.status, r.plies, len(r.pv)) == ("breaks", 19, 19)
    b, steps = chess.Board(fen), 0
    for uci in r.pv:
        m = chess.Move.from_uci(uci)
        if b.turn == chess.BLACK and not b.pawns & b.occupied_co[chess.BLACK]:
            before = chess.square_distance(m.from_square, chess.B8)
            after = chess.square_distance(m.to_square, chess.B8)
            assert after <= before or after <= 1, (b.san(m), b.fen())
            steps += 1
        b.push(m)
    assert steps == 8


# --------------------------------------------------------------------------- cross-checks


def _near_fortress(rng: random.Random) -> chess.Board:
    """Rams on most files of a wing or the board, a loose pawn maybe, 3-7 pawns a side."""
    while True:
        board = chess.Board(None)
        base = rng.randint(2, 4)
        files = rng.choice([range(8), range(5), range(3, 8), range(2, 7)])
        for f in files:
            if rng.random() < 0.8:
                r = min(5, max(1, base + rng.randint(-1, 1)))
                board.set_piece_at(chess.square(f, r), chess.Piece(chess.PAWN, chess.WHITE))
                board.set_piece_at(chess.square(f, r + 1), chess.Piece(chess.PAWN, chess.BLACK))
        for _ in range(rng.randint(0, 1)):
            s = rng.randint(8, 55)
            if board.piece_at(s) is None:
                board.set_piece_at(s, chess.Piece(chess.PAWN, rng.random() < 0.5))
        free = [s for s in range(64) if board.piece_at(s) is None]
        wk, bk = rng.sample(free, 2)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        board.turn = rng.random() < 0.5
        counts = [chess.popcount(board.pawns & board.occupied_co[c]) for c in chess.COLORS]
        if board.is_valid() and all(3 <= n <= 7 for n in counts):
            return board


@pytest.mark.slow
def test_shortcuts_agree_with_the_full_game() -> None:
    """The restricted games, the partial expansions and the whole DAG never contradict
    each other wherever two of them decide; the cache and the colour-flipped mirror
    change nothing.  (Small structure budgets: many stay unknown.)"""
    rng = random.Random(3)
    pairs = {m: 0 for m in ("kings", "guard", "levers", "nopush", "bounds", "gap", "full",
                            "claimed")}
    for _ in range(150):
        board = _near_fortress(rng)
        x = rng.choice(chess.COLORS)
        auto = exact_solve(board, x, max_structures=1500, pv=False)
        if auto.status == "unknown":
            continue
        for method in pairs:
            r = exact_solve(board, x, method=method, pv=False,
                            max_structures={"full": 3000, "claimed": 1500}.get(method, 800))
            if r.status != "unknown":
                pairs[method] += 1
                assert r.blocked == auto.blocked, (board.fen(), x, method)
        exact.clear_cache()
        fresh = exact_solve(board, x, use_cache=False, max_structures=1500, pv=False)
        assert fresh.status in ("unknown", auto.status), board.fen()
        mirror = exact_solve(board.mirror(), not x, max_structures=1500, pv=False)
        assert mirror.status in ("unknown", auto.status), board.fen()
    assert min(pairs.values()) >= 5 and pairs["bounds"] >= 20, pairs


@pytest.mark.slow
def test_runner_bound_is_below_the_exact_tables() -> None:
    """Every state the runner bound claims is an exact win."""
    rng = random.Random(12)
    tested = tries = 0
    while tested < 40 and tries < 4000:
        tries += 1
        sq = rng.sample(range(8, 56), 5)
        xp = sum(1 << s for s in sq[:2])
        dp = sum(1 << s for s in sq[2:])
        run = er.runner(xp, dp)
        if run is None:
            continue
        res = exact.solve_bitboards(xp, dp, 0, 63, chess.WHITE, None, chess.WHITE,
                                    method="full", pv=False, clock=WorkClock())
        assert res.status != "unknown"
        t = exact_dag.cached_tables(et.FULL, (xp, dp))
        if t is None:  # not exact on every state: only the reached ones were solved
            continue
        assert run[0] & ~(t.wgood & et.legal_masks(xp, dp).w) == 0, (xp, dp)
        assert run[1] & ~t.b == 0, (xp, dp)
        tested += 1
    assert tested == 40, (tested, tries)


@pytest.mark.slow
def test_king_maps() -> None:
    board = chess.Board("4k3/8/8/p1p1p1p1/P1P1P1P1/2P5/8/4K3 w - -")
    r = exact_solve(board, chess.WHITE)
    assert r.blocked and r.king_map >> chess.E8 & 1
    fine = chess.Board("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - -")
    r = exact_solve(fine, chess.WHITE)
    assert r.king_map >> chess.A1 & 1  # from where White's king stands


# --------------------------------------------------------------------------- budget


def test_tiny_budget_is_unknown_never_wrong() -> None:
    board = chess.Board("8/2k5/6p1/p1p1p1p1/P1P1P1PP/8/5K2/8 w - -")
    r = exact_solve(board, chess.WHITE, max_structures=5)
    assert (r.status, r.blocked, r.pv) == ("unknown", None, ())
    assert exact_solve(board, chess.WHITE, max_seconds=0.0).status == "unknown"


def test_cancel_gives_unknown() -> None:
    board = chess.Board("6k1/pp3pp1/7p/4p3/8/P1P1P2P/5PP1/6K1 b - - 0 32")
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 2

    r = exact_solve(board, chess.WHITE, cancel=cancel)
    assert r.status == "unknown" and len(calls) == 3


def test_under_a_work_clock_the_answer_does_not_depend_on_the_machines_speed() -> None:
    """A :class:`WorkClock` advances with the work done, so a time budget is a count of
    work: the same call on a machine slowed down (a cancel poll that sleeps, 2 ms every
    16 solves) gives the same answer, counts and time (the work it was worth, within the
    budget); the budget still runs out, after as many solves as it buys."""
    board = chess.Board("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")

    def slow() -> bool:
        time.sleep(0.002)
        return False

    runs = [exact.solve(board, chess.WHITE, max_seconds=0.05, pv=False, use_cache=False,
                        cancel=cancel, clock=WorkClock()) for cancel in (None, slow)]
    assert (runs[0].status, runs[0].ran_out) == ("unknown", "time")
    assert runs[0] == runs[1] and 40 < runs[0].ms <= 50
    # the strategies that solve structures have the first half of an auto call's time,
    # the forward search (here 1 ms a position) the rest: as many solves as 3.5 s buy
    clock = WorkClock({"solve": 1.0, "move": 0.0, "visit": 0.0, "node": 1e-3, "distance": 0.0})
    r = exact.solve(board, chess.WHITE, max_seconds=7, pv=False, use_cache=False, clock=clock)
    assert r.structures == clock.done["solve"] == 4 and 6.5 < clock() <= 7.0


def test_cache_is_capped_and_clearable() -> None:
    exact_solve(chess.Board("8/8/8/8/8/2k5/4P3/4K3 w - - 0 1"), chess.WHITE)
    info = exact.cache_info()
    assert 0 < info["structures"] <= info["limit"]
    exact.clear_cache()
    assert exact.cache_info()["structures"] == 0


def test_logic_never_imports_the_viewer() -> None:
    for path in LOGIC.glob("exact*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert not name.startswith(("pygame", "viewer")), (path.name, name)


@pytest.mark.slow
def test_schedule_follows_the_static_claims() -> None:
    """The exact method tries the restricted games first ("claimed") exactly where a
    static method calls the side blocked; the schedule changes how soon, never what,
    the prover answers."""
    import logic

    method = logic.METHODS["exact"]
    fortress = chess.Board("8/8/1p1k2p1/p1p2p1p/P1P2P1P/1P4P1/4K3/8 w - - 0 72")
    assert logic.detect(fortress, chess.BLACK).blocked
    assert method.schedule(fortress, chess.BLACK) == "claimed"
    kpk_win = chess.Board("8/8/8/4k3/8/8/2KP4/8 w - - 0 1")
    assert not any(logic.detect(kpk_win, chess.WHITE, method=m).blocked
                   for m in logic.STATIC_METHODS)
    assert method.schedule(kpk_win, chess.WHITE) == "auto"
    for bad in ("8/8/8/8/8/8/8/KQk5 w - - 0 1", "8/8/8/8/8/8/8/Kk6 w - - 0 1"):
        assert method.schedule(chess.Board(bad), chess.WHITE) == "auto"
    r = method.solve(fortress, chess.BLACK, pv=False)
    assert r.status == "blocked" and r.restricted in ("kings", "guard", "levers", "nopush")
    exact.clear_cache()
    assert exact_solve(fortress, chess.BLACK, pv=False, method="auto",
                       max_seconds=3).status in ("blocked", "unknown")


def test_trace_shows_each_structure_once_and_counts_solves_apart() -> None:
    """The gap rounds re-solve a structure whose successors' bounds changed: ``structures``
    counts solves, ``distinct`` the structures, which the trace shows once each, in the
    order they were first solved (checked against the raw ``seen`` list)."""
    board = chess.Board("8/8/8/3k4/8/6pK/7P/8 b - - 0 1")
    exact.clear_cache()
    seen: list[tuple[int, int]] = []
    r = exact_solve(board, chess.WHITE, pv=False, seen=seen)
    assert r.structures == len(seen) and r.distinct == len(set(seen)) < r.structures
    exact.clear_cache()
    v = logic.detect(board, chess.WHITE, method="exact", trace=True)
    r = v.detail.result  # this run's own counts (the schedule follows the clock)
    steps = [s for s in v.steps if s.kind == "exact-structure"]
    shown = [(s.board("structure_white"), s.board("structure_black")) for s in steps]
    assert len(shown) == len(set(shown)) == min(r.distinct, 12)
    assert shown[0] == (board.pawns & board.occupied_co[chess.WHITE],
                        board.pawns & board.occupied_co[chess.BLACK])
    solve = next(s for s in v.steps if s.kind == "exact-solve")
    again = f" in {r.structures:,} solves" if r.structures > r.distinct else ","
    assert f"{r.distinct:,} solved{again}" in solve.text


@pytest.mark.parametrize("fen", ["7k/ppp5/8/PPP5/8/8/8/K7 w - - 0 1",
                                 pytest.param("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
                                              marks=pytest.mark.slow)])
def test_the_lines_sentences_name_a_pawn_that_has_passed(fen: str) -> None:
    """Each "White's g-pawn and Black's f-pawn have passed." of the line names, for
    each side, exactly the files on which that side now has a passed pawn and did not
    before the move (checked square by square here; two pawns on one file once read as
    the next file, and a defender's capture that passed the attacker's pawn named only
    the defender's new passer), the attacker first; a move that passes a pawn says so."""
    exact.clear_cache()
    v = logic.detect(chess.Board(fen), chess.WHITE, method="exact", trace=True)
    moves = [s for s in v.steps if s.kind == "exact-move"]
    assert moves
    board = chess.Board(fen)
    named = 0
    for k, step in enumerate(moves):
        before = {c: _passed_file_names(board, c) for c in chess.COLORS}
        board.push_uci(step.fact("uci"))
        new = {c: _passed_file_names(board, c) - before[c] for c in chess.COLORS}
        said = _named_passers(step.text)
        if k < len(moves) - 1:  # the last move's sentence is the end of the blockage
            assert said == {c: f for c, f in new.items() if f}, (step.text, board.fen())
        if said:
            assert list(said)[0] == chess.WHITE or chess.WHITE not in said
            named += 1
        if "best play" in step.text:  # fastest only within a partial expansion's lines
            partial = not v.detail.result.fastest
            assert ("within the proof's partial expansion" in step.text) == partial
    assert named


def _named_passers(text: str) -> dict[bool, set[str]]:
    """The files each side's pawns are said to have passed on, in the order named:
    "3... gxf5: White's g-pawn and Black's e- and f-pawns have passed." gives
    {True: {"g"}, False: {"e", "f"}}."""
    if not text.endswith(" passed."):
        return {}
    out: dict[bool, set[str]] = {}
    body = text.split(": ", 1)[1].rsplit(" ha", 1)[0]
    for color, files in re.findall(r"(White|Black)'s ((?:[a-h]-(?:, | and |pawns?)?)+)", body):
        out[color == "White"] = set(re.findall(r"([a-h])-", files))
    return out


def _passed_file_names(board: chess.Board, color: chess.Color) -> set[str]:
    """Files of ``color``'s passed pawns: no enemy pawn ahead on the file or next to it."""
    out = set()
    for s in board.pieces(chess.PAWN, color):
        f, r = chess.square_file(s), chess.square_rank(s)
        ahead = [t for t in board.pieces(chess.PAWN, not color)
                 if abs(chess.square_file(t) - f) <= 1
                 and (chess.square_rank(t) > r if color else chess.square_rank(t) < r)]
        if not ahead:
            out.add(chess.FILE_NAMES[f])
    return out


@pytest.mark.parametrize("cap", [1, 5, 40])
@pytest.mark.parametrize("method", ["gap", "bounds"])
def test_counts_are_the_solves_made_when_the_budget_runs_out(method: str, cap: int) -> None:
    """Out of structures: ``distinct`` is the different structures the ``seen`` trace
    received, and ``structures`` the solves made, at most the cap (the gap rounds solve
    one bound a structure: exactly the cap, one trace entry each; a bounds expansion
    solving both bounds counts two solves for one entry; the whole DAG stops before it
    starts when it cannot fit)."""
    exact.clear_cache()
    seen: list[tuple[int, int]] = []
    r = exact_solve(chess.Board("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"), chess.WHITE,
                    max_structures=cap, seen=seen, pv=False, method=method)
    assert r.status == "unknown"
    assert r.distinct == len(set(seen)) and len(seen) <= r.structures <= cap
    if method == "gap":
        assert r.structures == len(seen) == cap


FINE70 = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"


@pytest.mark.slow
def test_a_partial_expansions_breakthrough_gets_the_whole_dags_fastest_line() -> None:
    """The level-limited lower bound proves Fine #70 with a 53-ply line; the whole DAG
    (2,000 structures, within ``LINE_DAG_CAP``) is then solved for the line: the
    fastest (51 plies), as long as the whole DAG's own proof gives, with its king map."""
    board = chess.Board(FINE70)
    exact.clear_cache()
    full = exact_solve(board, chess.WHITE, method="full")
    exact.clear_cache()
    r = exact_solve(board, chess.WHITE, method="bounds")
    assert (r.status, r.restricted, full.restricted) == ("breaks", "bounds", "")
    assert r.fastest and full.fastest and r.plies == full.plies == 51
    assert r.king_map == full.king_map and r.pv[0] == "a1b1"


def test_without_the_whole_dag_the_line_says_it_is_the_partial_expansions(monkeypatch) -> None:
    """When the whole DAG does not fit, the line is the partial expansion's, a legal
    winning line but not the fastest (53 plies against 51), and says so."""
    monkeypatch.setattr(exact, "LINE_DAG_CAP", 100)
    monkeypatch.setattr(exact, "FORWARD_LINE_SECONDS", 0.0)  # nor the forward search's
    board = chess.Board(FINE70)
    exact.clear_cache()
    r = exact_solve(board, chess.WHITE, method="bounds")
    assert r.status == "breaks" and not r.fastest and r.plies == len(r.pv) == 53
    for uci in r.pv:
        board.push_uci(uci)
    assert board.move_stack[-1].promotion
    # the verdict's steps say so (the method made to use the partial expansion only)
    monkeypatch.setattr(type(logic.METHODS["exact"]), "schedule",
                        staticmethod(lambda board, color: "bounds"))
    logic.METHODS["exact"].clear_cache()
    try:
        v = logic.detect(chess.Board(FINE70), chess.WHITE, method="exact", trace=True)
    finally:  # no verdict of this schedule stays in the method's cache
        logic.METHODS["exact"].clear_cache()
    assert not v.detail.result.fastest and v.detail.result.plies == 53
    texts = [s.text for s in v.steps if s.kind == "exact-move"]
    assert any("within the proof's partial expansion" in t for t in texts)
    assert not any("best play (the attacker fastest" in t for t in texts)


@pytest.mark.parametrize(("fen", "color", "start"), [
    pytest.param("7k/ppp5/8/PPP5/8/8/8/K7 w - - 0 1", chess.WHITE,
                 "White forces a promotion: 1. b6! ", marks=pytest.mark.slow),
    # the defender is to move: its reply comes first, unmarked, then the attacker's "!"
    ("8/8/8/1p1p1p1p/1P1P1P1P/8/8/K6k w - - 0 1", chess.BLACK,
     "Black forces a promotion: 1. K"),
])
def test_the_headline_marks_the_attackers_first_move(fen: str, color: chess.Color,
                                                     start: str) -> None:
    board = chess.Board(fen)
    v = logic.detect(board, color, method="exact")
    head = v.headline
    assert v.code == "breaks" and head.startswith(start), head
    d = v.detail
    marked = head.split(": ", 1)[1].split("!")[0].split()[-1]
    mover = board.copy()
    moves = [chess.Move.from_uci(u) for u in d.result.pv]
    for k, move in enumerate(moves):  # the marked move is the attacker's first
        if mover.turn == color:
            assert mover.san(move) == marked and k <= 1, (head, k)
            break
        mover.push(move)


@pytest.mark.slow
def test_on_line_is_called_once_when_a_breakthrough_is_proved_and_its_line_begins() -> None:
    """The progress hook the viewer shows "finding the line" by: once for a breakthrough
    with its line, never for a blockage or without a line."""
    calls: list[int] = []
    fine70 = chess.Board("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1")
    r = exact_solve(fine70, chess.WHITE, on_line=lambda: calls.append(1))
    assert r.status == "breaks" and r.pv and calls == [1]
    exact_solve(fine70, chess.BLACK, on_line=lambda: calls.append(2))
    exact_solve(fine70, chess.WHITE, pv=False, on_line=lambda: calls.append(3))
    assert calls == [1]


# --------------------------------------------------------------------------- forward search

PAPER_20 = "8/2p5/kp2p1p1/p1p1P1P1/P1P2P2/1P4K1/8/8 w - - 0 1"


@pytest.mark.slow
def test_diagram_20_breaks_with_the_papers_f5_within_the_default_budget() -> None:
    """The paper's Diagram 20 ("1. f5 wins"): the retrograde expansions need about
    20 s; the forward search proves it at the default budget, with the paper's move
    and the fastest line (9 plies: 7 do not suffice, by brute force), and the trace
    says so in a step the code listing shows."""
    from logic.explain import verdict_reason
    from logic.listing import line_of

    board = chess.Board(PAPER_20)
    r = exact_solve(board, chess.WHITE)
    assert (r.status, r.restricted, r.fastest) == ("breaks", "forward", True)
    assert r.pv[0] == "f4f5" and r.plies == len(r.pv) == 9 and r.nodes > 0
    _replay(PAPER_20, r)
    assert not _forces(chess.Board(PAPER_20), chess.WHITE, 8, {})
    logic.METHODS["exact"].clear_cache()
    v = logic.detect(board, chess.WHITE, method="exact", trace=True)
    step = next(s for s in v.steps if s.kind == "exact-forward")
    listing = logic.METHODS["exact"].listing
    assert "within 9 plies" in step.text and listing and line_of(listing, step) is not None
    assert "by a forward search of" in verdict_reason(v)


@pytest.mark.slow
def test_forward_search_agrees_with_the_whole_dag() -> None:
    """Wherever the forward search proves a breakthrough, the whole DAG proves one
    too, as fast (the same plies), and the forward line replays to its end; it never
    says blocked."""
    rng = random.Random(21)
    agree = 0
    for i in range(30):
        board = random_material_board(rng, "PP", "p") if i % 2 else _near_fortress(rng)
        for x in chess.COLORS:
            exact.clear_cache()
            f = exact_solve(board, x, method="forward", max_seconds=0.25)
            assert f.status in ("breaks", "unknown"), (board.fen(), x)
            if f.plies is None:  # unknown, or the line did not come in time
                continue
            end = _replay(board.fen(), f)
            assert end.move_stack[-1].promotion or end.is_checkmate()
            exact.clear_cache()
            full = exact_solve(board, x, method="full", max_seconds=2)
            if full.plies is None:  # out of budget (or no line in time)
                continue
            assert (full.status, full.plies) == ("breaks", f.plies), (board.fen(), x)
            agree += 1
    assert agree >= 12


@pytest.mark.parametrize(("fen", "x"), [
    ("8/2P5/3p4/5p2/1P6/8/2k5/6K1 b - - 0 1", chess.BLACK),
    ("8/4p1p1/k1ppP1P1/2PP4/8/K7/1P6/8 w - - 0 1", chess.WHITE),
])
def test_a_partial_expansions_line_is_shortened_by_the_forward_search(
        fen: str, x: chess.Color, monkeypatch) -> None:
    """Without the whole DAG (cap 0), the level-limited lower bound's own line is
    longer than the fastest; the forward search, run for the line, finds the fastest
    (its distance) and the line says it is."""
    monkeypatch.setattr(exact, "LINE_DAG_CAP", 0)
    board = chess.Board(fen)
    fastest = exact_solve(board, x, method="forward").plies
    exact.clear_cache()
    monkeypatch.setattr(exact, "FORWARD_LINE_SECONDS", 0.0)
    partial = exact_solve(board, x, method="bounds")
    assert partial.status == "breaks" and not partial.fastest and partial.plies > fastest
    exact.clear_cache()
    monkeypatch.setattr(exact, "FORWARD_LINE_SECONDS", 2.0)
    r = exact_solve(board, x, method="bounds")
    assert (r.restricted, r.fastest, r.plies) == ("bounds", True, fastest)
    _replay(fen, r)


def test_forward_search_runs_out_as_unknown() -> None:
    """A deep position within a tiny budget: unknown, time named, positions counted."""
    r = exact_solve(chess.Board(PAPER_20), chess.BLACK, method="forward", max_seconds=0.05)
    assert (r.status, r.ran_out) == ("unknown", "time") and r.nodes > 0


def test_forward_search_on_a_root_where_the_defender_is_already_mated() -> None:
    """Distance 0: the search began at 1 ply, claimed 1, and its line found no move."""
    board = chess.Board("k7/1PK5/1P6/8/8/8/8/8 b - - 0 1")
    assert board.is_checkmate()
    r = exact_solve(board, chess.WHITE, method="forward")
    assert (r.status, r.plies, r.pv, r.ends) == ("breaks", 0, (), "mate")


def test_a_forward_proofs_positions_count_its_line_too(monkeypatch) -> None:
    """``nodes`` is every position the forward search examined: after its proof it
    searches on for the line (D's longest replies), and those positions were left out
    of the count ("by a forward search of N positions")."""
    from logic.exact.forward import ForwardSearch

    totals: list[int] = []
    line = ForwardSearch.line

    def counted(self: ForwardSearch, max_plies: int = 2000):  # type: ignore[no-untyped-def]
        out = line(self, max_plies)
        totals.append(self.nodes)
        return out

    monkeypatch.setattr(ForwardSearch, "line", counted)
    r = exact_solve(chess.Board(PAPER_20), chess.WHITE, method="forward")
    assert (r.status, r.plies) == ("breaks", 9)
    assert len(totals) == 1 and r.nodes == totals[0]
