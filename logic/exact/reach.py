"""Reachability and a runner lower bound for :mod:`logic.exact` (X = White, D = Black).

* :func:`regions` / :func:`reach_moves`: the squares each king can ever reach in a
  structure and the structure-changing moves play can therefore make (a coarse,
  sound over-approximation: the other king is ignored); :func:`close`: the states
  reachable by king steps inside one structure.
* :func:`runner_parts`: states where X wins by simply pushing one pawn, used as the
  lower bound of structures beyond a partial expansion's frontier.
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from logic.bitboards import flood_fill, pawn_attacks
from logic.exact.tables import (
    DOUBLE,
    KCAP,
    PROMO,
    PUSH,
    Legal,
    Moves,
    bits,
    d_on,
    d_pred,
    legal_masks,
    x_on,
    x_pred,
)

__all__ = ["RunnerPart", "runner_parts", "runner", "close", "close_within", "regions",
           "reach_moves"]

_ALL64 = chess.BB_ALL
_KA = chess.BB_KING_ATTACKS
_RANK_7 = chess.BB_RANK_7
_NOT_A = _ALL64 & ~chess.BB_FILE_A
_NOT_H = _ALL64 & ~chess.BB_FILE_H


def _cheb(a: int, b: int) -> int:
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


#: squares strictly south of s on its file
_SOUTH = [sum(1 << t for t in range(s & 7, s, 8)) for s in range(64)]
_NORTH = [sum(1 << t for t in range(s + 8, 64, 8)) for s in range(64)]
#: _OUT[s][n]: squares farther than n king steps from s
_OUT = [[sum(1 << t for t in range(64) if _cheb(s, t) > n) for n in range(9)] for s in range(64)]


def _reach_steps(dp: int) -> list[int]:
    """``out[m]``: the squares black pawns of ``dp`` may stand on after ``m`` moves or
    fewer (geometric: pushes, double steps and captures allowed everywhere),
    ``m`` = 0..7; ``out[7]`` is every square they may ever reach."""
    out = [dp]
    reach = dp
    for _ in range(7):
        reach |= ((reach >> 8) | ((reach & _RANK_7) >> 16) | ((reach >> 9) & _NOT_H)
                  | ((reach >> 7) & _NOT_A))
        out.append(reach)
    return out


def _attacks_b(bb: int) -> int:
    return ((bb >> 9) & _NOT_H) | ((bb >> 7) & _NOT_A)


def _no_stalemate(xp: int, dp: int, p: int, free: int, dreach: int) -> int:
    """The X-king squares for which D, racing X's runner ``p`` and with its ``free``
    pawns (nothing below them on their file), always has a legal move: two free
    pawns on different files (the D king blocks at most one), or one whose stop
    squares the D king can only stand on with a safe square to step to.  0 if none.
    ``dreach``: the squares D's pawns may stand on during the race."""
    lower = 0
    for q in bits(free):
        lower |= _SOUTH[q]
    if free.bit_count() >= 3:
        return _ALL64
    if free.bit_count() == 2:
        return _ALL64 & ~lower
    if not free:
        return 0
    path = _NORTH[p] | 1 << p
    static = xp & ~(1 << p)
    safe = _ALL64 & ~(static | path | pawn_attacks(static | path, chess.WHITE) | dreach)
    ok = _ALL64 & ~lower
    for s in bits(lower):
        near = _KA[s] & safe
        if not near:
            return 0
        cover = _ALL64
        for t in bits(near):  # the X-king squares that take every one of them
            cover &= _KA[t] | 1 << t
        ok &= ~cover
    return ok


def runner_parts(xp: int, dp: int) -> list[RunnerPart]:
    """A sound lower bound (X / D to move) from X's runners, one part per runner.

    X wins by pushing a pawn ``p`` to promotion in ``n`` moves, never moving anything
    else, when: no pawn stands on its path and no black pawn can ever reach a square
    attacking ``p`` or its path (so none can capture or block it); X's king is off
    the path and out of reach of every black pawn's attack for the ``n`` moves D
    gets (never in check, so every push is legal and X is never mated); D's king is
    outside the square of ``p`` (so it can neither capture ``p`` nor stand on its
    path in time; with D to move one step more, and not next to ``p``, which a
    first double step would otherwise leave within reach); and D is never
    stalemated (:func:`_no_stalemate`).  D is never in check (a pawn checks only
    from inside its square, X's other pawns never move); a D promotion is the
    target anyway.
    """
    occ = xp | dp
    north = occ << 8
    north |= north << 8
    north |= north << 16
    north |= north << 32
    free = dp & ~north  # D pawns with nothing below them
    south = occ >> 8
    south |= south >> 8
    south |= south >> 16
    south |= south >> 32
    cands = xp & ~south  # X pawns with an empty path
    if not cands:
        return []
    steps = _reach_steps(dp)
    cands &= ~_attacks_b(steps[7])
    parts = []
    lg = None
    for p in bits(cands):
        r = p >> 3
        n = 5 if r == 1 else 7 - r
        wk_ok = _no_stalemate(xp, dp, p, free, steps[n])
        wk_ok &= ~_attacks_b(steps[n]) & ~occ & ~_NORTH[p]
        if not wk_ok:
            continue
        promo = 56 + (p & 7)
        xs = x_on(wk_ok)
        w = xs & d_on(_OUT[promo][n])
        b = xs & d_on(_OUT[promo][n + 1] & ~_KA[p])  # a double step needs the second part
        if w | b:
            lg = lg or legal_masks(xp, dp)
            parts.append(RunnerPart(w & lg.w, b & lg.b, n))
    return parts


class RunnerPart(NamedTuple):
    """The states ``w`` (X to move) and ``b`` (D to move) where X wins by pushing one
    runner that needs ``n`` moves: the target comes on ply ``2n - 1`` resp. ``2n``."""

    w: int
    b: int
    n: int


def runner(xp: int, dp: int) -> tuple[int, int] | None:
    """:func:`runner_parts` joined: ``(w, b)``, or None when there are none."""
    parts = runner_parts(xp, dp)
    if not parts:
        return None
    w = b = 0
    for part in parts:
        w |= part.w
        b |= part.b
    return w, b


def close(xp: int, dp: int, rw: int, rb: int, lg: Legal | None = None) -> tuple[int, int]:
    """The states reachable from ``rw`` (X to move) and ``rb`` (D to move) by king steps
    of either side inside ``(xp, dp)``."""
    lg = lg or legal_masks(xp, dp)
    return close_within(rw, rb, lg.w, lg.b)


def close_within(rw: int, rb: int, w: int, b: int) -> tuple[int, int]:
    """The states of ``w`` (X to move) and ``b`` (D to move) reachable from ``rw`` /
    ``rb`` by king steps of either side that never leave them."""
    rw &= w
    rb &= b
    while True:
        nb = rb | (x_pred(rw) & b)
        nw = rw | (d_pred(nb) & w)
        if nw == rw and nb == rb:
            return rw, rb
        rw, rb = nw, nb


def regions(xp: int, dp: int, xs: int, ds: int) -> tuple[int, int]:
    """The squares each king can ever reach in ``(xp, dp)`` from the squares ``xs``
    (X's king) and ``ds`` (D's king), ignoring the other king: a coarse, sound
    reachability."""
    occ = xp | dp
    return (flood_fill(xs, _ALL64 & ~occ & ~pawn_attacks(dp, chess.BLACK)),
            flood_fill(ds, _ALL64 & ~occ & ~pawn_attacks(xp, chess.WHITE)))


def _promo_seed(sq: int, xr: int, dr: int) -> tuple[int, int] | None:
    """The kings' squares after D's king takes a piece X promoted on ``sq`` (X's king in
    ``xr``, not next to ``sq``; D's king from ``dr`` next to ``sq``), or None if it
    cannot."""
    xs = xr & ~(_KA[sq] | 1 << sq)
    if not xs or not _KA[sq] & dr:
        return None
    return xs, 1 << sq


def reach_moves(moves: Moves, xr: int, dr: int
                ) -> list[tuple[tuple[int, int], int, int, int, int]]:
    """The structure-changing moves possible with the kings somewhere in ``xr`` / ``dr``:
    ``(child, X-king squares, D-king squares, gx, gd)`` (``gx`` = -1 for an en-passant
    capture: ask :func:`progress`).  King captures need the captured pawn next to the
    capturing king's region; a push needs both kings off the squares it enters or
    passes (a king whose region is only such squares blocks it), and the child is
    seeded without them.  X's promotion with a child (FULL) leads there when D's king can
    stand next to the square: D's king takes on it, X's king stays in its region."""
    out: list[tuple[tuple[int, int], int, int, int, int]] = []
    for side, side_moves in ((0, moves.x), (1, moves.d)):
        for mv in side_moves:
            if mv.child is None:
                continue
            kind = mv.kind
            if kind == PROMO:
                seed = _promo_seed(mv.sq, xr, dr)
                if seed is not None:
                    out.append((mv.child, seed[0], seed[1], mv.gx, mv.gd))
                continue
            if kind == KCAP:  # the capturing king (D's if ``side``) ends on the square
                if _KA[mv.sq] & (dr if side else xr):
                    at = 1 << mv.sq
                    out.append((mv.child, xr if side else xr | at, dr | at if side else dr,
                                mv.gx, mv.gd))
                continue
            xs, ds = xr, dr
            if kind in (PUSH, DOUBLE):
                # a push needs both kings off the squares the pawn enters or passes: a
                # king whose whole region is such a square blocks it for ever, and after
                # it no king stands there
                block = 1 << mv.sq | (1 << mv.mid if kind == DOUBLE else 0)
                xs, ds = xr & ~block, dr & ~block
                if not xs or not ds:
                    continue
            out.append((mv.child, xs, ds, mv.gx, mv.gd))
            out.extend((k, xs, ds, -1, -1) for k in mv.ep)
    return out
