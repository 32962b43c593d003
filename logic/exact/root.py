"""The root of an exact proof in the solver's orientation (X = White), and what the
strategies of :mod:`logic.exact.schedule` need of it: its states, its kings' squares,
its side-to-move table, with the en-passant captures it allows.

Black is White on the flipped board: :func:`orient` is the one place that flips the
input (:mod:`logic.exact` flips the answers back).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import chess

from logic.exact.dag import Key
from logic.exact.reach import close
from logic.exact.tables import KINGS, Tables, index, kings_on, legal_masks

__all__ = ["Root", "orient", "ep_caps", "root_states", "root_seeds", "root_table", "reach",
           "oriented_board"]


class Root(NamedTuple):
    """The root in the solver's orientation (X = White)."""

    xp: int
    dp: int
    xk: int
    dk: int
    x_to_move: bool
    ep: int | None  # an en-passant square the side to move can use


def orient(white_pawns: int, black_pawns: int, white_king: int, black_king: int,
           turn: chess.Color, ep_square: int | None, color: chess.Color) -> Root:
    """The position with ``color`` as X, X playing up the board (White)."""
    if color:
        return Root(white_pawns, black_pawns, white_king, black_king, bool(turn), ep_square)
    fl = chess.flip_vertical
    return Root(fl(black_pawns), fl(white_pawns), black_king ^ 0x38, white_king ^ 0x38,
                not turn, None if ep_square is None else ep_square ^ 0x38)


def ep_caps(r: Root) -> tuple[Key, ...]:
    """The structures after the en-passant captures available at the root."""
    if r.ep is None:
        return ()
    e = r.ep
    if r.x_to_move:  # D's pawn passed e (rank 6) to e - 8
        caps = chess.BB_PAWN_ATTACKS[chess.BLACK][e] & r.xp
        return tuple((r.xp & ~(1 << p) | 1 << e, r.dp & ~(1 << (e - 8)))
                     for p in chess.scan_forward(caps))
    caps = chess.BB_PAWN_ATTACKS[chess.WHITE][e] & r.dp
    return tuple((r.xp & ~(1 << (e + 8)), r.dp & ~(1 << q) | 1 << e)
                 for q in chess.scan_forward(caps))


def root_states(r: Root) -> dict[Key, list[int]]:
    """The root's state (``[x_to_move, d_to_move]`` bits per structure), the root first,
    and the states after the en-passant captures it allows."""
    bit = 1 << index(r.xk, r.dk)
    seeds: dict[Key, list[int]] = {(r.xp, r.dp): [bit, 0] if r.x_to_move else [0, bit]}
    for c in ep_caps(r):
        seeds[c] = [0, bit] if r.x_to_move else [bit, 0]
    return seeds


def root_seeds(r: Root) -> dict[Key, list[int]]:
    """The kings' squares at the root (``[X king, D king]`` per structure), the root
    first, and after the en-passant captures it allows."""
    sq = [1 << r.xk, 1 << r.dk]
    return {k: list(sq) for k in [(r.xp, r.dp), *ep_caps(r)]}


def root_table(r: Root, mode: str, get: Callable[[Key], Tables]) -> int:
    """The root's side-to-move table: the king placements (kings elsewhere as in the
    root) from which X reaches the target, given the tables ``get`` (a bound or exact)."""
    key = (r.xp, r.dp)
    t = get(key)
    lg = legal_masks(r.xp, r.dp)
    caps = ep_caps(r)
    if r.x_to_move:
        v = t.wgood & lg.w
        for c in caps:
            v |= get(c).b
    elif caps and mode != KINGS:
        v = t.b | t.bstale
        for c in caps:
            v &= get(c).wgood & legal_masks(*c).w
    else:
        v = t.b
    if r.ep is not None:
        v &= ~kings_on(1 << r.ep | (1 << (r.ep - 8) if r.x_to_move else 1 << (r.ep + 8)))
    return v


def reach(r: Root) -> int:
    """The root structure's states its king steps reach, with the root's side to move
    (the states of its side-to-move table)."""
    seed = root_states(r)[(r.xp, r.dp)]
    return close(r.xp, r.dp, seed[0], seed[1])[0 if r.x_to_move else 1]


def oriented_board(r: Root) -> chess.Board:
    """The root as a board in the solver's orientation (X = White)."""
    b = chess.Board(None)
    for sq in chess.scan_forward(r.xp):
        b.set_piece_at(sq, chess.Piece(chess.PAWN, chess.WHITE))
    for sq in chess.scan_forward(r.dp):
        b.set_piece_at(sq, chess.Piece(chess.PAWN, chess.BLACK))
    b.set_piece_at(r.xk, chess.Piece(chess.KING, chess.WHITE))
    b.set_piece_at(r.dk, chess.Piece(chess.KING, chess.BLACK))
    b.turn = chess.WHITE if r.x_to_move else chess.BLACK
    b.ep_square = r.ep
    return b
