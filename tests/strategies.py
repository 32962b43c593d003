"""Hypothesis strategies for legal king-and-pawn boards."""

from __future__ import annotations

import random

import chess
from hypothesis import assume
from hypothesis import strategies as st


def _board(white: set[int], black: set[int], wk: int, bk: int, turn: bool) -> chess.Board:
    board = chess.Board(None)
    for s in white:
        board.set_piece_at(s, chess.Piece(chess.PAWN, chess.WHITE))
    for s in black:
        board.set_piece_at(s, chess.Piece(chess.PAWN, chess.BLACK))
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.turn = turn
    return board


@st.composite
def kp_boards(draw: st.DrawFn, rams: bool = True) -> chess.Board:
    """A legal K+P board; with ``rams`` most files get a white pawn rammed by a black
    one (so fences are common), plus a few loose pawns of either colour."""
    white: set[int] = set()
    black: set[int] = set()
    if rams and draw(st.booleans()):
        for f in range(8):
            if draw(st.integers(0, 9)) < 7:
                r = draw(st.integers(1, 5))
                white.add(r * 8 + f)
                black.add((r + 1) * 8 + f)
    for _ in range(draw(st.integers(0, 6))):
        s = draw(st.integers(8, 55))
        if s not in white and s not in black:
            (white if draw(st.booleans()) else black).add(s)
    while len(white) > 8:
        white.pop()
    while len(black) > 8:
        black.pop()
    free = [s for s in range(64) if s not in white and s not in black]
    wk = draw(st.sampled_from(free))
    bk = draw(st.sampled_from([s for s in free if s != wk]))
    board = _board(white, black, wk, bk, draw(st.booleans()))
    assume(board.is_valid())
    return board


def random_material_board(rng: random.Random, white: str, black: str, *,
                          playable: bool = False) -> chess.Board:
    """A random legal board with two kings and the pieces ``white`` (upper-case symbols)
    and ``black`` (lower-case); with ``playable`` also not game over."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(white) + len(black))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq, sym in zip(squares[2:], white + black, strict=True):
            board.set_piece_at(sq, chess.Piece.from_symbol(sym))
        board.turn = rng.random() < 0.5
        if board.is_valid() and not (playable and board.is_game_over()):
            return board
