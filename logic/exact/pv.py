"""Distances to the target and the principal variation of a breakthrough (for
:mod:`logic.exact`).

Distances are plies to the target (a promotion by either side, or D mated), X
choosing the fastest way and D the longest (like DTM).  They are recomputed only
when a principal variation is asked for, on the part of the proof's DAG that
winning play can reach, one structure after its successors, by value iteration
over both kings' squares with NumPy: X to move takes the minimum over its moves,
D to move the maximum (a non-win successor is infinite; mate is 0; stalemate
infinite).  Successors beyond a partial expansion's frontier count as the runner
bound says (``2n - 1`` / ``2n`` plies) or as no win at all, so a PV from a partial
expansion is fastest within the game that gave the proof.

The PV is then walked with python-chess from the root: X plays a move of least
distance, D one of greatest.  An X promotion whose new piece D's king can take at once
(:func:`promotion_taker`) is followed by that capture, and the line goes on.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import NamedTuple

import chess
import numpy as np

from logic.exact.budget import Clock, WallClock
from logic.exact.reach import runner_parts
from logic.exact.tables import (
    DOUBLE,
    FULL,
    KCAP,
    KING_OFF,
    NSTATES,
    PROMO,
    Legal,
    Move,
    Moves,
    Tables,
    d_king_onto,
    d_pred,
    d_takes_promoted,
    index,
    legal_masks,
    move_legal,
    moves_of,
    progress,
    promo_capturable,
    x_king_onto,
    x_pred,
)
from logic.pawns import passed_pawns

__all__ = ["Dist", "DistanceError", "Source", "defence_rank", "distances",
           "solve_distances", "walk", "PV", "promotion_taker"]

INF = 30_000  # no win
_DT = np.int16
Key = tuple[int, int]


class DistanceError(RuntimeError):
    """The distance computation ran out of its budget, or met a structure that is no
    longer known (evicted from the cache during the call)."""


class Dist(NamedTuple):
    """Distances of one structure: ``w`` (X to move), ``b`` (D to move), ``stale`` the
    D-to-move stalemates (for an en-passant parent), as arrays over the 4096 king
    placements (index ``dk * 64 + xk``; :data:`INF` = no win).  ``runner``: the runner
    bound's distances of a structure the proof did not expand (:data:`INF` there means
    "not known", not "no win")."""

    w: np.ndarray
    b: np.ndarray
    stale: np.ndarray
    runner: bool = False


def _bools(x: int) -> np.ndarray:
    raw = np.frombuffer(x.to_bytes(NSTATES // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").astype(bool)


def _filter(a: np.ndarray, op: np.ufunc, pad: int) -> np.ndarray:
    """The 3x3 ``op`` filter without its centre over the first two axes of ``a`` (8, 8,
    64), padded with ``pad``: rows then columns."""
    h = np.full(a.shape, pad, dtype=_DT)
    op(h[:, 1:], a[:, :-1], out=h[:, 1:])
    op(h[:, :-1], a[:, 1:], out=h[:, :-1])
    h3 = op(h, a)
    op(h[1:], h3[:-1], out=h[1:])
    op(h[:-1], h3[1:], out=h[:-1])
    return h


def _x_step_min(db: np.ndarray) -> np.ndarray:
    """For each state, the least ``db`` one X-king step away (INF off the board)."""
    t = np.ascontiguousarray(db.reshape(64, 64).T).reshape(8, 8, 64)  # [xk rank, file, dk]
    return np.ascontiguousarray(_filter(t, np.minimum, INF).reshape(64, 64).T).reshape(-1)


def _d_step_max(dw: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """For each state, the greatest ``dw`` over legal D-king steps (``legal`` marks
    legal X-to-move states; 0 where there is none)."""
    a = np.where(legal, dw, 0).astype(_DT, copy=False).reshape(8, 8, 64)
    return _filter(a, np.maximum, 0).reshape(-1)


def _plus1(a: np.ndarray) -> np.ndarray:
    return np.minimum(a + 1, INF).astype(_DT, copy=False)


def _ep_x(c: Dist, caps: list[Dist]) -> np.ndarray:
    """D to move after X's double push, with en-passant captures into ``caps``."""
    v = np.where(c.stale, 0, c.b)
    for g in caps:
        v = np.maximum(v, _plus1(g.w))
    return v


def _ep_d(c: Dist, caps: list[Dist]) -> np.ndarray:
    """X to move after D's double push, with en-passant captures into ``caps``."""
    v = c.w
    for g in caps:
        v = np.minimum(v, _plus1(g.b))
    return v


def _x_static(moves: tuple[Move, ...], get: Callable[[Key], Dist], lg: Legal
              ) -> np.ndarray:
    sx = np.full(NSTATES, INF, dtype=_DT)
    nocheck = lg.w ^ lg.xcheck
    for mv in moves:
        child = mv.child
        if mv.kind == PROMO:
            legal = _bools(nocheck & KING_OFF[mv.sq])
            if child is None:
                sx[legal] = 1
            else:
                np.minimum(sx, np.where(legal, _promo_dist(mv.sq, get(child)), INF), out=sx)
            continue
        assert child is not None, "only a promotion ends the game"
        c = get(child)
        if mv.kind == KCAP:
            grid = np.full((64, 64), INF, dtype=_DT)
            col = _plus1(c.b.reshape(64, 64)[:, mv.sq])
            for wk in chess.scan_forward(chess.BB_KING_ATTACKS[mv.sq]):
                grid[:, wk] = col
            cand = grid.reshape(-1)
        elif mv.kind == DOUBLE:
            v = _ep_x(c, [get(k) for k in mv.ep]) if mv.ep else c.b
            cand = np.where(_bools(KING_OFF[mv.mid]), _plus1(v), INF)
        else:
            cand = _plus1(c.b)
        np.minimum(sx, cand, out=sx)
    return sx


def _promo_dist(sq: int, c: Dist) -> np.ndarray:
    """Plies to the target by X's promotion on ``sq``: 1 where it stands, else 2 plus
    the child's X-to-move distance with D's king on ``sq`` (it takes the new piece)."""
    cand = np.ones(NSTATES, dtype=_DT)
    taken = _bools(promo_capturable(sq))
    lane = _plus1(_plus1(c.w.reshape(64, 64)[sq, :]))
    cand[taken] = np.broadcast_to(lane, (64, 64)).reshape(-1)[taken]
    return cand


def _d_static(moves: tuple[Move, ...], get: Callable[[Key], Dist], lg: Legal
              ) -> tuple[np.ndarray, int]:
    sd = np.zeros(NSTATES, dtype=_DT)
    nocheck = lg.b ^ lg.dcheck
    has = 0
    for mv in moves:
        legal_int = move_legal(mv, nocheck, lg.dcheck, False)
        has |= legal_int
        if mv.child is None:  # a promotion
            cand = np.ones(NSTATES, dtype=_DT)
        else:
            c = get(mv.child)
            if mv.kind == KCAP:
                row = _plus1(c.w.reshape(64, 64)[mv.sq, :])
                grid = np.full((64, 64), INF, dtype=_DT)
                for bk in chess.scan_forward(chess.BB_KING_ATTACKS[mv.sq]):
                    grid[bk, :] = row
                cand = grid.reshape(-1)
            elif mv.kind == DOUBLE:
                cand = _plus1(_ep_d(c, [get(k) for k in mv.ep]))
            else:
                cand = _plus1(c.w)
        np.maximum(sd, np.where(_bools(legal_int), cand, 0), out=sd)
    return sd, has


def solve_distances(xp: int, dp: int, moves: Moves, get: Callable[[Key], Dist]) -> Dist:
    """Distances of the FULL game in ``(xp, dp)`` given its successors' (``get``)."""
    lg = legal_masks(xp, dp)
    lw, lb = _bools(lg.w), _bools(lg.b)
    sx = _x_static(moves.x, get, lg)
    sd, has_int = _d_static(moves.d, get, lg)
    has_int |= d_pred(lg.w)
    has, check = _bools(has_int), _bools(lg.dcheck)
    stale = lb & ~check & ~has
    no_move = np.where(check, 0, INF)
    dw = np.where(lw, sx, INF)
    db = np.full(NSTATES, INF, dtype=_DT)
    while True:
        mx = np.maximum(sd, _plus1(_d_step_max(dw, lw)))
        nb = np.where(lb, np.where(has, mx, no_move), INF)
        nw = np.where(lw, np.minimum(sx, _plus1(_x_step_min(nb))), INF)
        if np.array_equal(nb, db) and np.array_equal(nw, dw):
            break
        db, dw = nb, nw
    return Dist(dw, db, stale)


def _runner_dist(key: Key) -> Dist:
    w = np.full(NSTATES, INF, dtype=_DT)
    b = np.full(NSTATES, INF, dtype=_DT)
    for part in runner_parts(*key):
        w[_bools(part.w)] = np.minimum(w[_bools(part.w)], 2 * part.n - 1)
        b[_bools(part.b)] = np.minimum(b[_bools(part.b)], 2 * part.n)
    return Dist(w, b, np.zeros(NSTATES, dtype=bool), runner=True)


class Source(NamedTuple):
    """What the distance pass needs from a proof: ``lower(key)`` the lower bound of a
    structure (exact, partial, or the frontier's runner bound) and ``expanded(key)``
    whether it was expanded."""

    lower: Callable[[Key], Tables]
    expanded: Callable[[Key], bool]


def _add(seeds: dict[Key, list[int]], key: Key, side: int, bits: int) -> None:
    if bits:
        e = seeds.setdefault(key, [0, 0])
        e[side] |= bits


def _seed_x(mv: Move, rw: int, src: Source, seeds: dict[Key, list[int]]) -> None:
    """Propagate X's structure move ``mv`` from the reachable X-to-move wins ``rw`` (a
    promotion that stands leads nowhere: the game ends; one D's king takes leads to the
    structure without the pawn, X to move)."""
    child = mv.child
    if child is None:
        return
    c = src.lower(child)
    if mv.kind == PROMO:  # D's king takes the new piece: X to move
        _add(seeds, child, 0, d_takes_promoted(rw, mv.sq) & c.wgood)
        return
    if mv.kind == KCAP:
        _add(seeds, child, 1, x_king_onto(rw, mv.sq) & c.b)
        return
    if mv.kind == DOUBLE:
        rw &= KING_OFF[mv.mid]
        if mv.ep:
            _add(seeds, child, 1, rw & (c.b | c.bstale))
            for k in mv.ep:
                _add(seeds, k, 0, rw & src.lower(k).wgood)
            return
    _add(seeds, child, 1, rw & c.b)


def _seed_d(mv: Move, rb: int, lg: Legal, src: Source, seeds: dict[Key, list[int]]
            ) -> None:
    """Propagate D's structure move ``mv`` from the reachable D-to-move wins ``rb``."""
    rb &= move_legal(mv, lg.b ^ lg.dcheck, lg.dcheck, False)
    if not rb or mv.child is None:
        return
    if mv.kind == KCAP:
        _add(seeds, mv.child, 0, d_king_onto(rb, mv.sq))
        return
    _add(seeds, mv.child, 0, rb)
    for k in mv.ep:
        _add(seeds, k, 1, rb & src.lower(k).b)


def reachable(roots: list[Key], seeds: dict[Key, list[int]], src: Source
              ) -> tuple[dict[Key, tuple[int, int]], dict[Key, Moves]]:
    """The states winning play reaches from the seeded ones (``seeds[key] = [x_to_move,
    d_to_move]``, consumed), X making any move into a win, D any move: ``(x, d)``
    state sets per structure reached, and the moves of the expanded ones.
    Structures are taken in order of total progress, which every move raises, so
    each is closed after all its parents."""
    out: dict[Key, tuple[int, int]] = {}
    moves: dict[Key, Moves] = {}
    heap = [(sum(progress(*k)), k) for k in set(roots) | set(seeds)]
    heapq.heapify(heap)
    queued = {k for _, k in heap}
    while heap:
        _, key = heapq.heappop(heap)
        seed = seeds.pop(key, None)
        if seed is None:
            continue
        t = src.lower(key)
        lg = legal_masks(*key)
        rw, rb, bwin = seed[0] & lg.w, seed[1] & lg.b, t.b
        while True:  # close under king steps
            nb = rb | (x_pred(rw & t.wgood) & bwin)
            nw = rw | (d_pred(nb & bwin) & lg.w)
            if nb == rb and nw == rw:
                break
            rw, rb = nw, nb
        out[key] = (rw, rb)
        if not src.expanded(key):
            continue
        mv = moves[key] = moves_of(key[0], key[1], FULL)
        wwin, bw = rw & t.wgood, rb & bwin
        if wwin:
            for m in mv.x:
                if m.child is not None:
                    _seed_x(m, wwin, src, seeds)
        if bw:
            for m in mv.d:
                _seed_d(m, bw, lg, src, seeds)
        # queue the children just seeded (not a scan of every pending seed, which made
        # this quadratic: 23 s of a 40 s line on Diagram 20, 100,000 structures)
        for m in (mv.x if wwin else ()) + (mv.d if bw else ()):
            for k in ((m.child,) if m.child is not None else ()) + m.ep:
                if k not in queued and k in seeds:
                    queued.add(k)
                    heapq.heappush(heap, (sum(progress(*k)), k))
    return out, moves


def distances(roots: list[Key], seeds: dict[Key, list[int]], src: Source, deadline: float,
              cancel: Callable[[], bool] | None = None, clock: Clock | None = None
              ) -> dict[Key, Dist]:
    """Distances of every structure winning play reaches from the ``seeds`` (see
    :func:`reachable`), in the game whose lower bounds ``src`` gives.  Raises
    :class:`DistanceError` at the ``deadline`` of ``clock`` (the wall clock by default;
    each structure's distances are told to it as work) or on cancel."""
    clock = WallClock() if clock is None else clock
    reach, moves = reachable(roots, seeds, src)
    order = sorted(reach, key=lambda k: -sum(progress(*k)))  # children first
    out: dict[Key, Dist] = {}
    zero = Dist(np.full(NSTATES, INF, dtype=_DT), np.full(NSTATES, INF, _DT),
                np.zeros(NSTATES, bool))
    n = 0
    for key in order:
        if not src.expanded(key):
            out[key] = _runner_dist(key)
            continue
        n += 1
        if clock() > deadline or (cancel is not None and n % 8 == 0 and cancel()):
            raise DistanceError("out of budget")
        out[key] = solve_distances(key[0], key[1], moves[key],
                                   lambda k: out.get(k, zero))
        clock.work("distance")
    return out


class PV(NamedTuple):
    """A principal variation in the solver's orientation: UCI moves, plies, who ends."""

    moves: tuple[str, ...]
    plies: int
    ends: str


def _key(board: chess.Board) -> Key:
    return (board.pawns & board.occupied_co[chess.WHITE],
            board.pawns & board.occupied_co[chess.BLACK])


def _dist(board: chess.Board, dist: dict[Key, Dist]) -> Dist:
    """The distances of ``board``'s structure (the runner bound's if not computed)."""
    key = _key(board)
    d = dist.get(key)
    if d is None:
        d = dist[key] = _runner_dist(key)
    return d


def _lookup(board: chess.Board, dist: dict[Key, Dist], depth: int = 0) -> int:
    """Distance of an oriented position (X = White), INF when not a win."""
    if board.turn == chess.BLACK and board.is_checkmate():
        return 0
    # a position with a capture en passant is valued by its moves, not by the tables
    # (which fold the capture into the double push's parent); a chain of them needs a
    # double push each, so the depth stays small (the cap is a guard, not a cut)
    if board.has_legal_en_passant() and depth < 32:
        return _expand(board, dist, depth)[0]
    d = _dist(board, dist)
    wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
    assert wk is not None and bk is not None
    return int((d.w if board.turn == chess.WHITE else d.b)[index(wk, bk)])


def promotion_taker(board: chess.Board, move: chess.Move) -> chess.Move | None:
    """The capture of the piece ``move`` (a promotion by the side to move, White = X in
    the solver's orientation) promotes by the other side's king at once, or None when
    the new piece stands: the other king is not next to the square, or the square is
    guarded (by the promoting side's king or another of its pawns)."""
    t = move.to_square
    king = board.king(not board.turn)
    if king is None or not chess.BB_KING_ATTACKS[king] >> t & 1:
        return None
    if board.attackers_mask(board.turn, t) & ~chess.BB_SQUARES[move.from_square]:
        return None
    return chess.Move(king, t)


def _x_promotion(board: chess.Board, mv: chess.Move, dist: dict[Key, Dist], depth: int
                 ) -> int:
    """Plies to the target by X's promotion ``mv``: 1 if the new piece stands, else 2
    plus the distance after D's king takes it (D's longest defence)."""
    take = promotion_taker(board, mv)
    if take is None:
        return 1
    board.push(mv)
    board.push(take)
    v = _lookup(board, dist, depth + 2)
    board.pop()
    board.pop()
    return min(v + 2, INF)


def _expand(board: chess.Board, dist: dict[Key, Dist], depth: int = 0
            ) -> tuple[int, chess.Move | None]:
    """Best distance and move: least for X (White), greatest for D.

    In a structure the proof expanded, D's greatest distance counts a move to no win
    (:data:`INF`) too: the tables' own distances do (an X double push that D answers
    by an en-passant capture out of the win is no win, though the push's structure
    is).  Below a structure only the runner bound decided, whose children the proof
    never looked at, D prefers its greatest *finite* distance: there the runner's
    lines are the PV.  Among D's equal moves, :func:`defence_rank` decides."""
    x = board.turn == chess.WHITE
    strict = not x and not _dist(board, dist).runner
    best, best_move, rank = (INF if x else -1), None, 99
    for mv in board.legal_moves:
        if mv.promotion is not None and mv.promotion != chess.QUEEN:
            continue
        if mv.promotion is not None:
            v = _x_promotion(board, mv, dist, depth) if x else 1
        else:
            board.push(mv)
            v = min(_lookup(board, dist, depth + 1) + 1, INF)
            board.pop()
        if x:
            if v < best:
                best, best_move = v, mv
        elif best_move is None or (v > best if strict else
                                   v < INF and (best >= INF or v > best)):
            best, best_move, rank = v, mv, defence_rank(board, mv)
        elif v == best and (r := defence_rank(board, mv)) < rank:
            best_move, rank = mv, r
    if best_move is None:  # no legal move: mate (0, for D) or no win
        return (0 if not x and board.is_check() else INF), None
    return best, best_move


def defence_rank(board: chess.Board, move: chess.Move) -> int:
    """The defender's preference among equally long defences (lower first), in the
    solver's orientation (D = Black to move in ``board``; ``move`` legal): captures,
    then king moves, nearest first to the square where X's most advanced passed pawn
    (else its most advanced pawn) promotes, then pawn pushes.

    Only a tie-break: a line's distances are the same whichever equal defence is
    played, but a king that runs to the far corner while the pawn queens reads as
    nonsense to a class (``8/8/3K4/8/2p5/8/1P3k2/8 w``: "5. b4 Kh7 6. b5 Kh8")."""
    if board.is_capture(move):
        return 0
    if not board.kings >> move.from_square & 1:
        return 10
    own = board.pawns & board.occupied_co[chess.WHITE]
    lead = passed_pawns(own, board.pawns & ~own, chess.WHITE) or own
    if not lead:
        return 1
    goal = chess.square(chess.square_file(chess.msb(lead)), 7)
    return 1 + chess.square_distance(move.to_square, goal)


def walk(board: chess.Board, dist: dict[Key, Dist], max_plies: int = 2000) -> PV:
    """Play the PV from the oriented ``board`` (X = White), which must be a win."""
    b = board.copy(stack=False)
    moves: list[str] = []
    ends = ""
    while len(moves) < max_plies:
        if b.turn == chess.BLACK and b.is_checkmate():
            ends = "mate"
            break
        v, mv = _expand(b, dist)
        if mv is None or (v >= INF and b.turn == chess.WHITE):
            raise DistanceError(f"the PV left the winning region at {b.fen()}")
        moves.append(mv.uci())
        take = promotion_taker(b, mv) if mv.promotion is not None and b.turn else None
        if take is not None:  # X's new piece falls at once: the line goes on
            b.push(mv)
            b.push(take)
            moves.append(take.uci())
            continue
        if mv.promotion is not None:
            ends = "promotion" if b.turn == chess.WHITE else "defender-promotion"
            b.push(mv)
            break
        b.push(mv)
    return PV(tuple(moves), len(moves), ends)
