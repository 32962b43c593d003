"""Promotions in the exact prover's game (:mod:`logic.exact`): X's promotion whose new
piece the defending king takes at once is no breakthrough (the game goes on after the
capture), and a line that ends in the defender's forced promotion is said as such,
never "breaks through"."""

from __future__ import annotations

import random

import chess
import chess.syzygy
import pytest

import logic
from logic.exact import prover as exact
from logic.exact import tables as et

#: X's new queen is taken at once: the static "blocked" is the chess truth
QUEEN_TAKEN = [
    ("1k6/1Pp5/p1Pp1p1p/p2PpP1P/P5K1/4P3/P7/8 w - - 0 1", chess.WHITE),  # 2. b8=Q+ Kxb8
    ("7k/7p/8/1p6/1P5p/1P2p1pP/1P1pP1P1/3K4 w - - 0 1", chess.BLACK),  # 1... d1=Q+ 2. Kxd1
]
#: the defender must promote (or let X's queen stand): no win for X proved
DEFENDER_PROMOTES = [
    ("8/k7/4p1PP/2p1P3/KpP4P/pP6/P7/8 b - - 0 1", chess.BLACK),
    ("6k1/1p1p1pP1/pP1P1Pp1/P5P1/4p3/4p3/8/K7 w - - 0 1", chess.WHITE),
]


@pytest.fixture(autouse=True)
def _fresh_exact_cache():
    exact.clear_cache()
    yield


def _static_claims(board: chess.Board, x: chess.Color) -> list[str]:
    return [m for m in logic.STATIC_METHODS if logic.detect(board, x, method=m).blocked]


def _x_wdl(tb: chess.syzygy.Tablebase, board: chess.Board, x: chess.Color) -> int:
    wdl = tb.probe_wdl(board)
    return wdl if board.turn == x else -wdl


def _replay(board: chess.Board, pv: tuple[str, ...]) -> chess.Board:
    b = board.copy()
    for uci in pv:
        move = chess.Move.from_uci(uci)
        assert move in b.legal_moves, (board.fen(), pv, uci)
        b.push(move)
    return b


def _stands(board: chess.Board) -> bool:
    """After a promotion (the promoted side's opponent to move): no capture of the new
    piece is legal."""
    square = board.peek().to_square
    return not any(m.to_square == square for m in board.legal_moves)


@pytest.mark.parametrize(("fen", "x"), QUEEN_TAKEN)
def test_a_queen_taken_at_once_is_no_breakthrough(fen: str, x: chess.Color) -> None:
    board = chess.Board(fen)
    assert _static_claims(board, x)
    r = exact.solve(board, x, max_seconds=20)
    assert r.status in ("blocked", "unknown"), r
    v = logic.detect(board, x, method="exact")
    assert "breaks through" not in (v.headline or "")


@pytest.mark.parametrize(("fen", "x"), DEFENDER_PROMOTES)
def test_a_defender_forced_to_promote_is_no_breakthrough(fen: str, x: chess.Color) -> None:
    """Exact says the defender is forced to promote, or blocked: never a line where X's
    own promotion stands; the verdict never reads "breaks through"."""
    board = chess.Board(fen)
    assert _static_claims(board, x)
    r = exact.solve(board, x, max_seconds=20)
    assert r.status == "blocked" or (r.status, r.ends) == ("breaks", "defender-promotion"), r
    v = logic.detect(board, x, method="exact")
    texts = (v.headline or "") + (v.reason or "")
    assert "breaks through" not in texts
    if v.code == "breaks":
        us, them = chess.COLOR_NAMES[x].capitalize(), chess.COLOR_NAMES[not x].capitalize()
        said = f"he blockage ends: {them} is forced to promote (no win for {us} proved)"
        assert v.headline.startswith("T" + said) and said in v.reason, (v.headline, v.reason)
        end = _replay(board, r.pv)
        assert end.move_stack[-1].promotion and end.turn == x


def test_the_defenders_forced_promotion_in_the_trace() -> None:
    fen, x = DEFENDER_PROMOTES[0]
    v = logic.detect(chess.Board(fen), x, method="exact", trace=True)
    assert v.code == "breaks"
    moves = [s.text for s in v.steps if s.kind == "exact-move"]
    assert moves[-1].endswith("White is forced to promote: the blockage ends (no win for "
                              "Black proved).")
    assert not any("breaks through" in s.text for s in v.steps)
    from viewer.model.text import side_summary

    assert side_summary(v) == "Black: the blockage ends, the defender forced to promote (exact)"


@pytest.mark.parametrize(("fen", "blocked", "last", "plies"), [
    ("8/3kP3/8/8/8/8/8/4K3 w - - 0 1", True, None, None),  # e8=Q+ Kxe8; else Kxe7
    ("8/3kPK2/8/8/8/8/8/8 w - - 0 1", False, "e7e8q", 1),  # f7 guards e8
    ("8/3kP3/8/8/8/8/8/4K3 b - - 0 1", True, None, None),
    pytest.param("3k4/8/P5K1/8/8/8/8/8 b - - 0 1", True, None, None,
                 marks=pytest.mark.slow),  # 1... Kc7 2. a7 Kb7 3. a8=Q+ Kxa8
    ("4k3/8/P5K1/8/8/8/8/8 b - - 0 1", False, "a7a8q", 4),  # 1... Kd7 2. a7 Kc7 3. a8=Q
    # Black is X: White's king must leave d2 (d1 and f2 are attacked), and e1=Q stands
    ("8/8/8/8/8/8/3Kp3/5k2 w - - 0 1", False, "e2e1q", 2),
])
def test_kpk_promotions(fen: str, blocked: bool, last: str | None, plies: int | None) -> None:
    """A promotion the defending king takes at once is no breakthrough, one the
    attacker's king guards is; the same in every strategy that decides it."""
    board = chess.Board(fen)
    x = chess.WHITE if board.pawns & board.occupied_co[chess.WHITE] else chess.BLACK
    for method in ("auto", "full", "forward"):
        exact.clear_cache()
        r = exact.solve(board, x, method=method, max_seconds=20)
        if method == "forward" and blocked:
            assert r.status == "unknown", r  # it never proves a blockage
            continue
        assert r.blocked is blocked, (method, r)
        if last is not None:
            assert (r.pv[-1], r.plies, r.ends) == (last, plies, "promotion"), (method, r)
            assert _stands(_replay(board, r.pv))


def test_only_the_full_games_x_promotions_can_be_taken() -> None:
    """In FULL, X's promotion onto a square no other X pawn guards leads (when D's king
    takes) to the structure without the pawn; a guarded square, D's promotions and the
    restricted games (which count every promotion for X: sound for their "blocked")
    keep no child."""
    e7, g7, d2 = (1 << chess.E7), (1 << chess.G7), (1 << chess.D2)
    full = et.moves_of(e7, d2, et.FULL)
    (promo,) = [m for m in full.x if m.kind == et.PROMO]
    assert promo.child == (0, d2) and promo.sq == chess.E8
    px, pd = et.progress(e7, d2)
    assert et.progress(*promo.child) == (px + promo.gx, pd + promo.gd)
    assert [m.child for m in full.d if m.kind == et.PROMO] == [None]
    guarded = et.moves_of(e7 | (1 << chess.F7), 0, et.FULL)  # each guards the other's
    assert [m.child for m in guarded.x if m.kind == et.PROMO] == [None, None]
    apart = et.moves_of(e7 | g7, 0, et.FULL)
    assert {m.sq: m.child for m in apart.x if m.kind == et.PROMO} == {
        chess.E8: (g7, 0), chess.G8: (e7, 0)}
    for mode in (et.KINGS, et.LEVERS, et.NOPUSH):
        assert all(m.child is None for m in et.moves_of(e7 | g7, d2, mode).x
                   if m.kind == et.PROMO)


def _forces(board: chess.Board, x: chess.Color, n: int, memo: dict) -> bool:
    """Brute force over boards: X forces a promotion that stands, a promotion of D, or
    D mated, within ``n`` plies.  After X's promotion D may take the new piece with
    any legal move onto its square (then the search goes on) or let it stand."""
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
            if mv.promotion not in (None, chess.QUEEN):
                continue
            board.push(mv)
            res = _after_promotion(board, x, n - 1, memo) if mv.promotion else \
                _forces(board, x, n - 1, memo)
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


def _after_promotion(board: chess.Board, x: chess.Color, n: int, memo: dict) -> bool:
    """D to move after X's promotion: X wins within ``n`` plies whatever D does."""
    square = board.peek().to_square
    for take in [m for m in board.legal_moves if m.to_square == square]:
        if n < 1:
            return False
        board.push(take)
        res = _forces(board, x, n - 1, memo)
        board.pop()
        if not res:
            return False
    return True


#: lines that pass through X's queen taken at once and win with the other pawn
THROUGH = [
    ("8/7P/6Pk/5K2/8/8/8/8 b - - 0 1", chess.WHITE),
    ("8/Pk6/8/1KP5/8/8/8/8 w - - 0 1", chess.WHITE),
    ("8/8/8/8/1kp5/8/pK6/8 b - - 0 1", chess.BLACK),  # the second, colour-mirrored
]


@pytest.mark.parametrize(("fen", "x"), THROUGH)
def test_a_line_goes_on_after_a_queen_is_taken(fen: str, x: chess.Color) -> None:
    """Every X promotion of the line before its last is taken at once by D's king; the
    last stands; the line is as long as the forward search's and a brute force's."""
    board = chess.Board(fen)
    r = exact.solve(board, x, method="full", max_seconds=30)
    assert r.status == "breaks" and r.ends == "promotion" and r.fastest, r
    b = board.copy()
    for i, uci in enumerate(r.pv):
        move = chess.Move.from_uci(uci)
        b.push(move)
        if move.promotion:
            if i == len(r.pv) - 1:
                assert _stands(b)
            else:
                assert chess.Move.from_uci(r.pv[i + 1]).to_square == move.to_square
                assert b.is_capture(chess.Move.from_uci(r.pv[i + 1]))
    exact.clear_cache()
    assert exact.solve(board, x, method="forward", max_seconds=60).plies == r.plies
    brute = board.copy()
    assert _forces(brute, x, r.plies, {}) and not _forces(brute, x, r.plies - 1, {})


def _near_promotion(rng: random.Random) -> tuple[chess.Board, chess.Color]:
    """KPvK or KPPvK with a pawn on the sixth or seventh rank and both kings near its
    promotion square; half of them colour-mirrored (X is the side with pawns)."""
    while True:
        b = chess.Board(None)
        f = rng.randrange(8)
        p, t = chess.square(f, rng.choice((5, 6, 6))), chess.square(f, 7)
        taken = {p}
        if rng.random() < 0.5:
            q = rng.randrange(8, 56)
            taken.add(q)
            b.set_piece_at(q, chess.Piece(chess.PAWN, chess.WHITE))
        b.set_piece_at(p, chess.Piece(chess.PAWN, chess.WHITE))
        dk = rng.choice([s for s in range(64) if chess.square_distance(s, t) <= 2])
        xk = rng.choice([s for s in range(64) if chess.square_distance(s, t) <= 3])
        if {dk, xk} & taken or dk == xk:
            continue
        b.set_piece_at(dk, chess.Piece(chess.KING, chess.BLACK))
        b.set_piece_at(xk, chess.Piece(chess.KING, chess.WHITE))
        b.turn = rng.random() < 0.5
        if b.is_valid():
            return (b.mirror(), chess.BLACK) if rng.random() < 0.5 else (b, chess.WHITE)


@pytest.mark.slow
def test_promotions_that_stand_are_syzygy_wins(syzygy_dir) -> None:
    """KPvK and KPPvK near the promotion square: with no defending pawn, a promotion that
    stands wins unless it stalemates, so every breakthrough whose line ends in X's own
    promotion is a table win (no stalemate exception met), and every blockage is a table
    non-win; queens taken at once are among them."""
    rng = random.Random("promotion")
    counts = {"blocked": 0, "promotes": 0, "taken": 0}
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        for _ in range(240):
            board, x = _near_promotion(rng)
            r = exact.solve(board, x, max_seconds=20)
            assert r.status != "unknown", board.fen()
            wdl = _x_wdl(tb, board, x)
            if r.blocked:
                counts["blocked"] += 1
                assert wdl <= 0, (board.fen(), x)
                continue
            assert r.ends == "promotion", (board.fen(), x, r)
            counts["promotes"] += 1
            assert wdl > 0, (board.fen(), x, r.pv)
            assert _stands(_replay(board, r.pv))
            counts["taken"] += any(len(u) == 5 for u in r.pv[:-1])
    assert counts["blocked"] >= 40 and counts["promotes"] >= 100 and counts["taken"], counts
