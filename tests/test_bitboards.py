"""Exhaustive checks of logic.bitboards over all 64 squares against square-by-square truth."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from logic import bitboards as bbs

SQUARES = list(range(64))
bitboards = st.integers(min_value=0, max_value=chess.BB_ALL)


def squares_where(pred) -> int:
    return sum(1 << s for s in SQUARES if pred(s))


def f(s: int) -> int:
    return chess.square_file(s)


def r(s: int) -> int:
    return chess.square_rank(s)


@pytest.mark.parametrize("sq", SQUARES)
def test_fills_and_spans_single_square(sq: int) -> None:
    b = 1 << sq
    assert bbs.north_fill(b) == squares_where(lambda t: f(t) == f(sq) and r(t) >= r(sq))
    assert bbs.south_fill(b) == squares_where(lambda t: f(t) == f(sq) and r(t) <= r(sq))
    assert bbs.file_fill(b) == chess.BB_FILES[f(sq)]
    assert bbs.front_span(b, chess.WHITE) == squares_where(lambda t: f(t) == f(sq) and r(t) > r(sq))
    assert bbs.front_span(b, chess.BLACK) == squares_where(lambda t: f(t) == f(sq) and r(t) < r(sq))
    assert bbs.rear_span(b, chess.WHITE) == bbs.front_span(b, chess.BLACK)
    assert bbs.front_fill(b, chess.BLACK) == squares_where(
        lambda t: f(t) == f(sq) and r(t) <= r(sq))
    fronts = ((chess.WHITE, lambda t: r(t) > r(sq)), (chess.BLACK, lambda t: r(t) < r(sq)))
    for color, ahead in fronts:
        assert bbs.east_attack_front_span(b, color) == squares_where(
            lambda t, ahead=ahead: f(t) == f(sq) + 1 and ahead(t))
        assert bbs.west_attack_front_span(b, color) == squares_where(
            lambda t, ahead=ahead: f(t) == f(sq) - 1 and ahead(t))
        assert bbs.attack_front_span(b, color) == (
            bbs.east_attack_front_span(b, color) | bbs.west_attack_front_span(b, color))
    assert bbs.attack_file_fill(b) == squares_where(lambda t: abs(f(t) - f(sq)) == 1)


@pytest.mark.parametrize("sq", SQUARES)
def test_pawn_attacks_and_pushes_match_python_chess(sq: int) -> None:
    b = 1 << sq
    for color in chess.COLORS:
        assert bbs.pawn_attacks(b, color) == chess.BB_PAWN_ATTACKS[color][sq]
    assert bbs.pawn_pushes(b, chess.WHITE) == (1 << (sq + 8) if sq < 56 else 0)
    assert bbs.pawn_pushes(b, chess.BLACK) == (1 << (sq - 8) if sq >= 8 else 0)
    assert bbs.king_attacks_setwise(b) == chess.BB_KING_ATTACKS[sq] | b
    assert bbs.squares_below(sq) == squares_where(lambda t: t < sq)
    assert bbs.squares_above(sq) == squares_where(lambda t: t > sq)
    assert bbs.file_set(b) == 1 << f(sq)
    assert bbs.file_fill_from_set(bbs.file_set(b)) == chess.BB_FILES[f(sq)]


@given(bitboards)
def test_setwise_helpers_are_unions_of_single_squares(b: int) -> None:
    """Every helper is set-wise: its value on a set is the union over its squares."""
    sqs = list(chess.scan_forward(b))

    def union(fn) -> int:
        out = 0
        for s in sqs:
            out |= fn(1 << s)
        return out

    for fn in (bbs.north_fill, bbs.south_fill, bbs.file_fill, bbs.attack_file_fill,
               bbs.king_attacks_setwise):
        assert fn(b) == union(fn)
        assert 0 <= fn(b) <= chess.BB_ALL
    for color in chess.COLORS:
        for fn in (bbs.front_span, bbs.rear_span, bbs.attack_front_span, bbs.pawn_attacks,
                   bbs.pawn_pushes):
            assert fn(b, color) == union(lambda x, fn=fn, color=color: fn(x, color))
            assert 0 <= fn(b, color) <= chess.BB_ALL


@given(bitboards)
def test_colour_flip_symmetry(b: int) -> None:
    flip = chess.flip_vertical
    for fn in (bbs.front_span, bbs.rear_span, bbs.attack_front_span, bbs.pawn_attacks,
               bbs.pawn_pushes, bbs.front_fill):
        assert flip(fn(b, chess.WHITE)) == fn(flip(b), chess.BLACK)


def test_bb_of() -> None:
    assert bbs.bb_of(chess.E4, chess.D5) == chess.BB_E4 | chess.BB_D5
    assert bbs.bb_of() == 0


@given(bitboards, bitboards)
def test_north_fill_through_walks_each_file_to_the_first_blocker(b: int, empty: int) -> None:
    """Square by square: each square of ``b`` and the ``empty`` squares above it up to
    the first square that is not empty."""
    want = 0
    for s in chess.scan_forward(b):
        want |= 1 << s
        t = s + 8
        while t < 64 and empty >> t & 1:
            want |= 1 << t
            t += 8
    assert bbs.north_fill_through(b, empty) == want
    assert bbs.north_fill_through(chess.BB_E2, chess.BB_ALL & ~chess.BB_E6) == bbs.bb_of(
        chess.E2, chess.E3, chess.E4, chess.E5)


@given(bitboards, bitboards)
def test_flood_fill_is_the_closure_under_king_steps(seed: int, passable: int) -> None:
    """Square by square: the seed, then every passable square a king step from what is
    already in, until nothing is added."""
    want = seed
    while True:
        grown = want
        for s in chess.scan_forward(want):
            grown |= chess.BB_KING_ATTACKS[s] & passable
        if grown == want:
            break
        want = grown
    assert bbs.flood_fill(seed, passable) == want
