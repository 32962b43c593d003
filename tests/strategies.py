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


def random_near_fortress(rng: random.Random, *, p_lever: float = 0.5) -> chess.Board:
    """A random legal near-fortress: rams on most files along a random walk of ranks,
    each king on its own side of them, a few loose pawns and, with probability
    ``p_lever``, a white pawn diagonally behind a black pawn at or below the rams (the
    shape of issue #17's false blockage); half of the boards are colour-mirrored."""
    while True:
        white: set[int] = set()
        black: set[int] = set()
        r = rng.randint(2, 4)
        ranks = []
        for f in range(8):
            r = min(5, max(1, r + rng.choice((-1, 0, 0, 1))))
            ranks.append(r)
            if rng.random() < 0.85:
                white.add(r * 8 + f)
                black.add((r + 1) * 8 + f)
        for _ in range(rng.randint(0, 3)):
            s = rng.randint(8, 55)
            if s not in white and s not in black:
                (white if rng.random() < 0.55 else black).add(s)
        f = rng.randint(0, 7)
        g = f + rng.choice((-1, 1))
        if rng.random() < p_lever and 0 <= g < 8:
            rb = rng.randint(2, max(2, ranks[g]))
            sb, sw = rb * 8 + g, (rb - 1) * 8 + f
            if not {sb, sw} & (white | black):
                black.add(sb)
                white.add(sw)
        if len(white) > 8 or len(black) > 8:
            continue
        taken = white | black
        low = [s for s in range(64) if s not in taken and (s >> 3) < ranks[s & 7]]
        high = [s for s in range(64) if s not in taken and (s >> 3) > ranks[s & 7] + 1]
        if not low or not high:
            continue
        board = _board(white, black, rng.choice(low), rng.choice(high), rng.random() < 0.5)
        if rng.random() < 0.5:
            board = board.mirror()
        if board.is_valid():
            return board


#: hypothesis strategy over :func:`random_near_fortress`
near_fortress_boards = st.builds(random_near_fortress, st.randoms(use_true_random=False))


def _wall_families() -> list:
    """The wall generators of ``tests/data/make_corpus.py`` (fortresses and their
    near misses), loaded by path."""
    import importlib.util
    from pathlib import Path

    global _WALLS
    if _WALLS is None:
        path = Path(__file__).resolve().parent / "data" / "make_corpus.py"
        spec = importlib.util.spec_from_file_location("_make_corpus", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _WALLS = [getattr(mod, f"gen_{name}") for name in (
            "fortress", "near_gap", "near_lever", "near_passer", "near_square",
            "near_zugzwang", "near_swapped")]
    return _WALLS


_WALLS: list | None = None


def extended_case(rng: random.Random, i: int) -> chess.Board:
    """The ``i``-th position of the extended method's sweep (a near-fortress): by ``i``
    modulo 10, :func:`random_near_fortress` (twice, once with a lever always), one of
    ``make_corpus``'s seven wall families (a fortress and its near misses), or a KPK
    board; the wall families' boards colour-mirrored half of the time."""
    kind = i % 10
    if kind < 2:
        return random_near_fortress(rng, p_lever=1.0 if kind else 0.5)
    if kind == 9:
        return random_material_board(rng, "P", "")
    gen = _wall_families()[kind - 2]
    while True:
        try:
            board = gen(rng)
        except RuntimeError:  # no wall found in its tries
            continue
        if board is not None and board.is_valid():
            return board.mirror() if rng.random() < 0.5 else board
