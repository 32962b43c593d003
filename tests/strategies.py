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
    """The wall generators of :mod:`benchmarks.make_corpus` (fortresses and their near
    misses)."""
    from benchmarks import make_corpus

    return [getattr(make_corpus, f"gen_{name}") for name in (
        "fortress", "near_gap", "near_lever", "near_passer", "near_square",
        "near_zugzwang", "near_swapped")]




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


#: kings shut in by their own pawns (x5 of the extended method holds for the side named):
#: the seeds of :func:`shut_in_case`.  The a-pawn that can only walk into its own king; a
#: g-file stack; Black's king boxed on the queenside; White stalemated
SHUT_IN_SEEDS = (
    "8/2p5/1pP5/1P6/1P6/KP6/PP6/7k w - - 0 1",
    "8/6k1/6p1/6P1/6PK/6P1/6PP/8 w - - 0 1",
    "1k6/1p6/pPp3p1/p1Pp1pP1/3PpP2/P1K1P3/8/8 w - - 0 1",
    "8/8/8/1p6/1P6/KP6/PP6/k7 w - - 0 1",
)


def _mutate(rng: random.Random, board: chess.Board) -> chess.Board:
    """``board`` with one random change: a king steps, a pawn moves one rank up or down,
    a pawn appears or disappears (possibly illegal: the caller checks)."""
    b = board.copy(stack=False)
    kind = rng.randrange(4)
    pawns = list(chess.scan_forward(b.pawns))
    if kind == 0:
        k = b.king(rng.random() < 0.5)
        assert k is not None
        to = rng.choice(list(chess.scan_forward(chess.BB_KING_ATTACKS[k] & ~b.occupied)) or [k])
        piece = b.remove_piece_at(k)
        b.set_piece_at(to, piece)
    elif kind == 1 and pawns:
        s = rng.choice(pawns)
        to = s + rng.choice((8, -8))
        if 8 <= to < 56 and not b.piece_at(to):
            b.set_piece_at(to, b.remove_piece_at(s))
    elif kind == 2:
        s = rng.randrange(8, 56)
        if not b.piece_at(s):
            b.set_piece_at(s, chess.Piece(chess.PAWN, rng.random() < 0.5))
    elif pawns:
        b.remove_piece_at(rng.choice(pawns))
    return b


def shut_in_case(rng: random.Random) -> chess.Board:
    """A random walk of one to eight :func:`_mutate` steps from one of
    :data:`SHUT_IN_SEEDS`, mirrored left-right and/or colour-flipped at random: boxed
    kings and their near misses (the sweep's family for x5)."""
    while True:
        board = chess.Board(rng.choice(SHUT_IN_SEEDS))
        for _ in range(rng.randint(1, 8)):
            board = _mutate(rng, board)
        if rng.random() < 0.5:
            board = board.transform(chess.flip_horizontal)
        if rng.random() < 0.5:
            board = board.mirror()
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board
        board.turn = not board.turn
        if board.is_valid():
            return board
