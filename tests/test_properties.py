"""Property tests (hypothesis) of the detectors on random legal K+P boards."""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

import logic
from logic.blockage import _flip, _legal_status
from logic.fence import ccl_separates, dfs_fence, marked_squares
from tests.reference import figure8_events, figure8_fence, four_connected_crossing
from tests.strategies import kp_boards

methods = st.sampled_from(logic.METHODS)


def _pawns(board: chess.Board) -> tuple[int, int]:
    black, white = board.occupied_co
    return board.pawns & white, board.pawns & black


@settings(max_examples=400, deadline=None)
@given(kp_boards(), methods)
def test_colour_flip_symmetry(board: chess.Board, method: str) -> None:
    mirror = board.mirror()
    for color in chess.COLORS:
        a = logic.detect(board, color, method=method)
        b = logic.detect(mirror, not color, method=method)
        assert (a.blocked, a.rule, a.code, a.status) == (b.blocked, b.rule, b.code, b.status)
        assert chess.flip_vertical(a.fence) == b.fence
        assert chess.flip_vertical(a.below) == b.below
        assert [chess.square_mirror(n.square) for n in a.pawns] == [n.square for n in b.pawns]


@settings(max_examples=400, deadline=None)
@given(kp_boards())
def test_dfs_matches_figure8_verbatim_and_ccl(board: chess.Board) -> None:
    """The bitboard DFS is Figure 8; a fence it finds separates the board for connected-
    component labelling; CCL finds exactly the 4-connected a-to-h crossings; and the DFS
    finds every crossing except those Figure 8 cannot start or walk (see README)."""
    for color in chess.COLORS:
        w, b = _pawns(board if color else board.mirror())
        _fixed, marked = marked_squares(w, b)
        fence = dfs_fence(marked)
        assert fence == figure8_fence(marked)
        separated = ccl_separates(marked, chess.BB_RANK_1, chess.BB_RANK_8)
        assert separated == four_connected_crossing(marked)
        if fence:
            assert separated
        # Figure 8 finds a fence exactly when a walk of north/east/south steps from a7..a2
        # reaches the h-file (checked by a breadth-first search, a different algorithm);
        # the crossings it misses enter the a-file only on a1 or need a westward step.
        assert bool(fence) == _nes_walk_reaches_h(marked)


@settings(max_examples=300, deadline=None)
@given(kp_boards())
def test_dfs_trace_replays_figure8_square_by_square(board: chess.Board) -> None:
    """The trace's start/advance/backtrack steps are exactly Figure 8's walk."""
    from logic.steps import Recorder

    w, b = _pawns(board)
    _fixed, marked = marked_squares(w, b)
    rec = Recorder(chess.WHITE)
    fence = dfs_fence(marked, rec)
    got = []
    for s in rec.steps:
        if s.kind == "dfs-start":
            got.append(("start", s.square, None))
        elif s.kind == "dfs-advance":
            got.append(("advance", s.square - {"north": 8, "east": 1, "south": -8}[
                s.text.split()[1]], s.square))
        elif s.kind == "dfs-backtrack":
            back = s.text.rsplit("back to ", 1)
            got.append(("backtrack", s.square,
                        chess.parse_square(back[1][:2]) if len(back) == 2 else None))
    assert got == figure8_events(marked)
    path = [s for s in rec.steps if s.kind in ("dfs-found", "dfs-none")]
    assert len(path) == 1 and path[0].board("fence") == fence == figure8_fence(marked)


def _nes_walk_reaches_h(marked: int) -> bool:
    """True if an N/E/S-only walk (a BFS, not the DFS) links a2..a7 to the h-file."""
    frontier = seen = marked & chess.BB_FILE_A & ~chess.BB_A1 & ~chess.BB_A8
    while frontier:
        nxt = ((frontier << 8) | ((frontier << 1) & ~chess.BB_FILE_A) | (frontier >> 8))
        nxt &= marked & ~seen & chess.BB_ALL
        seen |= nxt
        frontier = nxt
    return bool(seen & chess.BB_FILE_H)


@settings(max_examples=300, deadline=None)
@given(kp_boards(rams=False), methods)
def test_no_exception_on_valid_kp_positions(board: chess.Board, method: str) -> None:
    for color in chess.COLORS:
        v = logic.detect(board, color, method=method, trace=True)
        assert v.status == "ok"
        assert isinstance(v.reason, str) and v.headline
        assert v.to_dict()["side"] in ("white", "black")


@settings(max_examples=300, deadline=None)
@given(kp_boards(), methods)
def test_cached_verdict_equals_fresh(board: chess.Board, method: str) -> None:
    for color in chess.COLORS:
        first = logic.detect(board, color, method=method)
        cached = logic.detect(board, color, method=method)
        logic.clear_cache()
        fresh = logic.detect(board, color, method=method)
        assert cached is first
        assert cached == fresh
        assert cached.reason == fresh.reason and cached.pawns == fresh.pawns


@settings(max_examples=500, deadline=None)
@given(
    st.sets(st.integers(0, 63), max_size=10), st.sets(st.integers(0, 63), max_size=10),
    st.integers(0, 63), st.integers(0, 63), st.booleans(),
)
def test_legal_status_is_python_chess_status(
    wp: set[int], bp: set[int], wk: int, bk: int, turn: bool
) -> None:
    board = chess.Board(None)
    for s in wp:
        board.set_piece_at(s, chess.Piece(chess.PAWN, chess.WHITE))
    for s in bp - wp:
        board.set_piece_at(s, chess.Piece(chess.PAWN, chess.BLACK))
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    if bk != wk:
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.turn = turn
    w, b = _pawns(board)
    kings = board.kings
    if board.occupied == board.pawns | board.kings:
        status = _legal_status(board, w, b, kings & board.occupied_co[True],
                               kings & board.occupied_co[False])
        assert status == board.status()
    v = logic.detect(board, chess.WHITE)
    assert (v.status == "ok") == (board.status() == chess.STATUS_VALID)


@given(st.integers(min_value=0, max_value=chess.BB_ALL))
def test_fast_flip_is_python_chess_flip_vertical(bb: int) -> None:
    assert _flip(bb) == chess.flip_vertical(bb)


@settings(max_examples=300, deadline=None)
@given(kp_boards(), methods)
def test_is_blocked_is_detect_blocked(board: chess.Board, method: str) -> None:
    from logic.blockage import is_blocked

    w, b = _pawns(board)
    wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
    for color in chess.COLORS:
        assert is_blocked(w, b, wk, bk, color, method) == logic.detect(board, color,
                                                                       method=method).blocked
