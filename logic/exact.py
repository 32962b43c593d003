"""Exact blockage proofs for king-and-pawn positions by retrograde analysis.

:func:`solve` decides whether side X can force the *target* -- any promotion, by
either side, or the defender D checkmated -- against every defence.  Stalemate,
X being mated and endless play are not the target; there is no 50-move rule.

* ``blocked=True`` is a proof that X cannot win: D has a strategy that never
  promotes, never lets X promote and never gets mated, so X never has more than
  king and pawns and is never mating.
* ``blocked=False``: X forces the target; the result names who ends the blockage
  (X promotes, D is forced to promote, or mate) and gives a principal variation.
* ``"unknown"`` when the budget (time, structures) runs out or ``cancel()`` says
  so: never a guess.

Algorithm: pawn moves never go back, so the pawn structures reachable from the
root form a DAG, solved successors first, each by a bitboard-parallel retrograde
analysis over both kings' squares and both sides to move
(:mod:`logic.exact_tables`).  Only structures play can enter are solved: a forward
pass follows the squares each king can reach (a king capture needs the pawn next
to that region); tables are then exact on every state reachable from the root.
Structures whose tables are exact everywhere are cached across calls (the
paper's "pawn hash", generalised, capped at ``CACHE_LIMIT`` entries).  Sound
shortcuts, run side by side, each with its share of the time (:data:`STRATEGIES`):

1. restricted games for D: KINGS (D only steps with its king), LEVERS (D also
   captures with its pawns) and NOPUSH (D also captures with its king; it never
   pushes a pawn).  If X cannot win even then, it cannot win the real game
   (``restricted="kings"`` / ``"levers"`` / ``"nopush"``);
2. partial expansions of the full game: structures beyond a limit on each side's
   progress are not expanded but taken as all wins (upper bound) and as all
   losses except X's unstoppable runners (lower bound,
   :func:`~logic.exact_tables.runner_parts`); a non-win under the upper bound
   proves a blockage, a win under the lower bound a breakthrough
   (``restricted="bounds"``).  The upper bound deepens X's moves and cuts D's
   early, the lower bound the reverse; limits grow until they decide;
   or the upper bound expanded only where the root's doubt leads, a round at a time
   (:mod:`logic.exact_gap`, ``restricted="gap"``): the blockages of open structures;
3. the whole DAG, given up whenever it outgrows a cap that doubles with each try.

X is White inside the solver; Black is White on the flipped board.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import chess

from logic import exact_pv
from logic import exact_reach as er
from logic import exact_tables as et
from logic.exact_dag import Budget, Call, Dag, Key, cache_info, clear_cache
from logic.exact_gap import GapExpansion
from logic.exact_tables import FULL, KINGS, LEVERS, NOPUSH, Tables

__all__ = ["ExactResult", "ExactError", "check_board", "solve", "solve_bitboards", "clear_cache",
           "cache_info", "MAX_STRUCTURES", "MAX_SECONDS", "STRATEGIES"]

MAX_SECONDS = 10.0
MAX_STRUCTURES = 200_000

class ExactError(ValueError):
    """Not a legal king-and-pawn-only position (the message echoes the FEN)."""


class ExactResult(NamedTuple):
    """The answer of :func:`solve`.

    ``status``: ``"blocked"`` (a proof that X cannot force the target), ``"breaks"``
    (a proof that it can) or ``"unknown"`` (budget exhausted or cancelled).
    ``blocked``: True / False / None for the same.  ``pv``: UCI moves from the root
    (breaks only): X's fastest way to the target against D's longest defence
    (distance in plies, like DTM), in the game that gave the proof; empty when the
    distances did not fit in the PV's own time (``pv_seconds``).  ``plies``: the
    length of ``pv``, its last move ends the blockage (None without a PV).
    ``ends``: ``"promotion"`` (by X), ``"defender-promotion"``, ``"mate"`` or ``""``.
    ``structures``: pawn structures solved for this call (partial expansions count
    each time); ``cached``: structures taken from the cache; ``states``:
    king-placement states examined (8192 per structure solved).  ``ms``: wall time.
    ``king_map``: real squares, among the king placements the root can reach --
    blocked: D-king squares from which D holds (X's king and the side to move as in
    the root); breaks: X-king squares from which X breaks through (D's king where
    it stands).  ``restricted``: the game that gave the proof: ``""`` the whole
    DAG of the full game, ``"kings"`` / ``"levers"`` / ``"nopush"`` a game where D
    only moves its king / never pushes and captures only with pawns / never pushes,
    ``"bounds"`` a level-limited partial expansion of the full game, ``"gap"`` the
    gap-guided one (:mod:`logic.exact_gap`).
    """

    status: str
    blocked: bool | None
    pv: tuple[str, ...]
    plies: int | None
    ends: str
    structures: int
    states: int
    ms: float
    king_map: int
    restricted: str
    cached: int = 0


class _Root(NamedTuple):
    """The root in the solver's orientation (X = White)."""

    xp: int
    dp: int
    xk: int
    dk: int
    x_to_move: bool
    ep: int | None  # an en-passant square the side to move can use


def _ep_caps(r: _Root) -> tuple[Key, ...]:
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


def _root_states(r: _Root) -> dict[Key, list[int]]:
    """The root's state (``[x_to_move, d_to_move]`` bits per structure), the root first,
    and the states after the en-passant captures it allows."""
    bit = 1 << et.index(r.xk, r.dk)
    seeds: dict[Key, list[int]] = {(r.xp, r.dp): [bit, 0] if r.x_to_move else [0, bit]}
    for c in _ep_caps(r):
        seeds[c] = [0, bit] if r.x_to_move else [bit, 0]
    return seeds


def _root_seeds(r: _Root) -> dict[Key, list[int]]:
    """The kings' squares at the root (``[X king, D king]`` per structure), the root
    first, and after the en-passant captures it allows."""
    sq = [1 << r.xk, 1 << r.dk]
    return {k: list(sq) for k in [(r.xp, r.dp), *_ep_caps(r)]}


def _root_table(r: _Root, mode: str, get: Callable[[Key], Tables]) -> int:
    """The root's side-to-move table: the king placements (kings elsewhere as in the
    root) from which X reaches the target."""
    key = (r.xp, r.dp)
    t = get(key)
    lg = et.legal_masks(r.xp, r.dp)
    caps = _ep_caps(r)
    if r.x_to_move:
        v = t.wgood & lg.w
        for c in caps:
            v |= get(c).b
    elif caps and mode != KINGS:
        v = t.b | t.bstale
        for c in caps:
            v &= get(c).wgood & et.legal_masks(*c).w
    else:
        v = t.b
    if r.ep is not None:
        v &= ~et.kings_on(1 << r.ep | (1 << (r.ep - 8) if r.x_to_move else 1 << (r.ep + 8)))
    return v


class _Proof(NamedTuple):
    """A decided root: ``table`` the side-to-move table that decided it, trustworthy on
    the states of ``mask`` (for the king map); ``restricted`` the game that proved it."""

    won: bool
    table: int
    mask: int
    restricted: str
    dag: Dag | GapExpansion


class _Strategy(NamedTuple):
    """One family of expansions: the game, the bound wanted, the X / D limits at level
    ``n``, a cap on the structures one expansion may take on (None: no cap) and its
    share of the time (``weight``)."""

    mode: str
    want: str
    limits: Callable[[int], tuple[int, int]]
    cap: Callable[[int], int | None] = lambda n: None
    weight: float = 1.0
    gap: bool = False  # the gap-guided expansion (:mod:`logic.exact_gap`), not levels


_UNLIMITED = 1 << 20
_KINGS_GAME = _Strategy(KINGS, "hi", lambda n: (n, _UNLIMITED))
_NOPUSH_GAME = _Strategy(NOPUSH, "hi", lambda n: (n, _UNLIMITED))
_LEVERS_GAME = _Strategy(LEVERS, "hi", lambda n: (n, _UNLIMITED))
_FULL_HI = _Strategy(FULL, "hi", lambda n: (n, n // 2))
_FULL_LO = _Strategy(FULL, "lo", lambda n: (n // 2, n))
_FULL_GAME = _Strategy(FULL, "lo", lambda n: (_UNLIMITED, _UNLIMITED))
#: the whole DAG, given up when it outgrows a cap that doubles with each try
_FULL_CAPPED = _FULL_GAME._replace(cap=lambda n: 1000 << n, weight=0.5)
#: upper bounds of the full game expanded where the root's doubt leads, a round a step
_GAP = _Strategy(FULL, "hi", lambda n: (0, 0), gap=True)

#: ``method`` of :func:`solve`: the strategies it runs.  ``auto`` runs the shortcut
#: games, the gap-guided expansion (upper bounds: blockages; twice the share, it proved
#: every blockage of the master drawn samples, README "Exact proofs"), the lower-bound
#: partial expansion (breakthroughs; one and a half, so that it keeps the breakthroughs
#: of the built-in sample) and the capped whole DAG, always the one that has
#: spent the least time so far for its weight, at its next level; ``claimed`` the
#: same strategies for a side a static method calls blocked, where the restricted
#: games nearly always give the proof (on the 672 claims among the 85,007 master
#: positions, KINGS and NOPUSH proved 484 of the 492 settled within 1 s by ``auto``):
#: LEVERS gets eight times KINGS's share and NOPUSH twice, the full game's expansions
#: a quarter to a half (measured in the README, "Exact proofs"); ``kings`` /
#: ``levers`` / ``nopush`` only that restricted game (blocked or unknown); ``bounds``
#: only the level-limited partial expansions of the full game; ``gap`` only the
#: gap-guided expansion (blocked or unknown); ``full`` the whole DAG of the full game
#: at once.  The schedule changes only how soon an answer comes, never the answer.
STRATEGIES: dict[str, tuple[_Strategy, ...]] = {
    "auto": (_KINGS_GAME, _NOPUSH_GAME, _GAP._replace(weight=2.0), _FULL_LO._replace(weight=1.5),
             _FULL_CAPPED),
    "claimed": (_KINGS_GAME, _LEVERS_GAME._replace(weight=8.0), _NOPUSH_GAME._replace(weight=2.0),
                _FULL_HI._replace(weight=0.5), _FULL_LO._replace(weight=0.25),
                _FULL_CAPPED._replace(weight=0.25)),
    "kings": (_KINGS_GAME,),
    "levers": (_LEVERS_GAME,),
    "nopush": (_NOPUSH_GAME,),
    "bounds": (_FULL_HI, _FULL_LO),
    "gap": (_GAP,),
    "full": (_FULL_GAME,),
}


def _reach(r: _Root) -> int:
    """The root structure's states its king steps reach, with the root's side to move
    (the states of its side-to-move table)."""
    seed = _root_states(r)[(r.xp, r.dp)]
    return er.close(r.xp, r.dp, seed[0], seed[1])[0 if r.x_to_move else 1]


def _decide(r: _Root, st: _Strategy, dag: Dag) -> _Proof | None:
    """The proof one finished expansion gives, if any."""
    bit = et.index(r.xk, r.dk)
    how = st.mode if st.mode != FULL else ("bounds" if dag.frontier else "")
    reach = _reach(r)
    if st.want != "lo":
        hi = _root_table(r, st.mode, dag.hi)
        if not hi >> bit & 1:
            return _Proof(False, hi, reach, how, dag)
    if st.mode != FULL:
        return None
    lo = _root_table(r, st.mode, dag.lo)
    if lo >> bit & 1:
        return _Proof(True, lo & reach, reach, how, dag)
    if not dag.frontier:  # exact on the states reached from the root
        return _Proof(False, lo, reach, how, dag)
    return None


#: seconds every strategy is deemed to have spent before it starts: a strategy of
#: weight w first runs once one of weight W has spent ``_HEAD_START * (W / w - 1)``, so
#: a light strategy's first (possibly large) expansion does not delay a heavy one's
#: quick proof
_HEAD_START = 0.05


def _gap_round(r: _Root, g: GapExpansion) -> tuple[bool, _Proof | None]:
    """One round of the gap-guided expansion: ``(go on, proof)``; it proves blockages
    only (a win it cannot tell from a bound: the other strategies find those)."""
    if not g.step():
        return False, None
    hi = _root_table(r, FULL, g.hi)
    if hi >> et.index(r.xk, r.dk) & 1:
        return True, None
    return True, _Proof(False, hi, _reach(r), "gap", g)


def _prove(r: _Root, budget: Budget, use_cache: bool, strategies: tuple[_Strategy, ...]
           ) -> _Proof | None:
    """Run ``strategies``, always the one that has spent the least time so far for its
    weight, until one decides; None if out of budget or if only restricted games
    were asked for and X wins them."""
    level = [1] * len(strategies)  # the next level
    step = [1] * len(strategies)  # doubled while an expansion less than doubles the last
    last = [0] * len(strategies)  # the last expansion's work
    spent = [0.0] * len(strategies)
    active = set(range(len(strategies)))
    call = Call(budget, use_cache)
    gaps: dict[int, GapExpansion] = {}
    while active:
        i = min(active, key=lambda j: ((spent[j] + _HEAD_START) / strategies[j].weight, j))
        st = strategies[i]
        if st.gap:
            g = gaps.get(i) or gaps.setdefault(i, GapExpansion(_root_states(r), call))
            t0 = time.perf_counter()
            go_on, proof = _gap_round(r, g)
            spent[i] += time.perf_counter() - t0
            if proof is not None:
                return proof
            if budget.out:
                return None
            if not go_on:
                active.discard(i)
            continue
        dag = Dag(st.mode, *st.limits(level[i]), st.want, call, st.cap(level[i]))
        t0 = time.perf_counter()
        done = dag.expand(_root_seeds(r))
        spent[i] += time.perf_counter() - t0
        if dag.work < 2 * last[i]:
            step[i] *= 2
        last[i] = dag.work
        level[i] += step[i]
        if not done:
            if dag.capped:
                continue
            return None
        proof = _decide(r, st, dag)
        if proof is not None:
            return proof
        if not dag.frontier:  # a restricted game X wins outright
            active.discard(i)
    return None


def _orient(white_pawns: int, black_pawns: int, white_king: int, black_king: int,
            turn: chess.Color, ep_square: int | None, color: chess.Color) -> _Root:
    if color:
        return _Root(white_pawns, black_pawns, white_king, black_king, bool(turn), ep_square)
    fl = chess.flip_vertical
    return _Root(fl(black_pawns), fl(white_pawns), black_king ^ 0x38, white_king ^ 0x38,
                 not turn, None if ep_square is None else ep_square ^ 0x38)


def _oriented_board(r: _Root) -> chess.Board:
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


def _flip_uci(uci: str) -> str:
    m = chess.Move.from_uci(uci)
    return chess.Move(m.from_square ^ 0x38, m.to_square ^ 0x38, m.promotion).uci()


def _principal(r: _Root, proof: _Proof, seconds: float,
               cancel: Callable[[], bool] | None) -> exact_pv.PV | None:
    """The PV of a breakthrough proof, or None if the distances take too long."""
    dag = proof.dag
    src = exact_pv.Source(dag.lo, dag.expanded)
    try:
        dist = exact_pv.distances([(r.xp, r.dp), *_ep_caps(r)], _root_states(r), src,
                                  time.perf_counter() + seconds, cancel)
        return exact_pv.walk(_oriented_board(r), dist)
    except exact_pv.DistanceError:  # out of time, or the cache lost a structure
        return None


def solve_bitboards(white_pawns: int, black_pawns: int, white_king: chess.Square,
                    black_king: chess.Square, turn: chess.Color, ep_square: chess.Square | None,
                    color: chess.Color, *, max_seconds: float = MAX_SECONDS,
                    max_structures: int = MAX_STRUCTURES,
                    cancel: Callable[[], bool] | None = None,
                    use_cache: bool = True, pv: bool = True,
                    pv_seconds: float | None = None, method: str = "auto",
                    report: Callable[[int], None] | None = None,
                    seen: list[tuple[int, int]] | None = None) -> ExactResult:
    """:func:`solve` on raw bitboards of a legal position (not validated).  ``ep_square``
    must be None unless the side to move can capture en passant."""
    r = _orient(white_pawns, black_pawns, white_king, black_king, turn, ep_square, color)
    budget = Budget(max_seconds, max_structures, cancel, report, seen)
    try:
        strategies = STRATEGIES[method]
    except KeyError:
        raise ExactError(f"unknown method {method!r}; choose one of {', '.join(STRATEGIES)}"
                         ) from None
    proof = _prove(r, budget, use_cache, strategies)
    states = budget.solved * 2 * et.NSTATES
    if proof is None:
        ms = (time.perf_counter() - budget.start) * 1000
        return ExactResult("unknown", None, (), None, "", budget.solved, states, ms, 0, "",
                           budget.cached)
    if not proof.won:
        legal = (et.legal_masks(r.xp, r.dp).w if r.x_to_move
                 else et.legal_masks(r.xp, r.dp).b)
        sl = et.king_squares(legal & proof.mask & ~proof.table, xk=r.xk)
        ms = (time.perf_counter() - budget.start) * 1000
        return ExactResult("blocked", True, (), None, "", budget.solved, states, ms,
                           sl if color else chess.flip_vertical(sl), proof.restricted,
                           budget.cached)
    sl = et.king_squares(proof.table, dk=r.dk)
    line = _principal(r, proof, max_seconds if pv_seconds is None else pv_seconds,
                      cancel) if pv else None
    moves: tuple[str, ...] = ()
    plies, ends = None, ""
    if line is not None:
        moves = line.moves if color else tuple(_flip_uci(m) for m in line.moves)
        plies, ends = line.plies, line.ends
    ms = (time.perf_counter() - budget.start) * 1000
    return ExactResult("breaks", False, moves, plies, ends, budget.solved, states, ms,
                       sl if color else chess.flip_vertical(sl), proof.restricted, budget.cached)


def check_board(board: chess.Board) -> None:
    """Raise :class:`ExactError` (echoing the FEN) unless ``board`` is a legal position
    of kings and pawns only: what :func:`solve` accepts."""
    if board.occupied != board.pawns | board.kings:
        raise ExactError(f"pieces other than kings and pawns: {board.fen()!r}")
    status = board.status()
    if status != chess.STATUS_VALID:
        raise ExactError(f"illegal position ({status!r}): {board.fen()!r}")


def solve(board: chess.Board, color: chess.Color, *, max_seconds: float = MAX_SECONDS,
          max_structures: int = MAX_STRUCTURES, cancel: Callable[[], bool] | None = None,
          use_cache: bool = True, pv: bool = True, method: str = "auto",
          report: Callable[[int], None] | None = None,
          seen: list[tuple[int, int]] | None = None) -> ExactResult:
    """Decide whether ``color`` (X) can force a promotion (by either side) or mate in a
    legal king-and-pawn-only ``board``, against any defence.  See :class:`ExactResult`.

    The budget: at most ``max_seconds`` and ``max_structures`` structure solves for
    the proof (then ``"unknown"``), and as much time again for the PV of a
    breakthrough (``pv=False`` skips it).  ``cancel`` is polled regularly; True gives
    ``"unknown"``.  ``use_cache=False`` neither reads nor writes the structure cache.
    ``method`` picks the strategies (:data:`STRATEGIES`; ``"auto"`` by default).
    ``report(n)`` is called with the structures solved so far every 16 solves;
    ``seen`` (a list) receives each structure solved, ``(X's pawns, D's pawns)`` in
    the solver's orientation (X = White), in order.  Raises
    :class:`ExactError` (a ``ValueError``, echoing the FEN) for other pieces, an
    illegal position (``board.status()``) or an unknown method."""
    check_board(board)
    w = board.pawns & board.occupied_co[chess.WHITE]
    b = board.pawns & board.occupied_co[chess.BLACK]
    wk = board.king(chess.WHITE)
    bk = board.king(chess.BLACK)
    assert wk is not None and bk is not None
    ep = board.ep_square if board.has_legal_en_passant() else None
    return solve_bitboards(w, b, wk, bk, board.turn, ep, color, max_seconds=max_seconds,
                           max_structures=max_structures, cancel=cancel, use_cache=use_cache,
                           pv=pv, method=method, report=report, seen=seen)
