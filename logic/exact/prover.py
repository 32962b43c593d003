"""Exact blockage proofs for king-and-pawn positions by retrograde analysis.

:func:`solve` decides whether side X can force the *target* -- any promotion, by
either side, or the defender D checkmated -- against every defence.  Stalemate,
X being mated and endless play are not the target; there is no 50-move rule.  An X
promotion whose new piece D's king can take at once (the square unguarded) is no
target: D chooses between taking it (the game goes on without X's pawn) and letting it
stand (the target).  A D promotion always counts for X (X may decline to take): that
keeps "X cannot win" a proof, but it is no win for X (``ends="defender-promotion"``).

* ``blocked=True`` is a proof that X cannot win: D has a strategy that never
  promotes, never lets X promote and never gets mated, so X never has more than
  king and pawns and is never mating.
* ``blocked=False``: X forces the target; the result names who ends the blockage
  (X promotes, D is forced to promote, or mate) and gives a principal variation.
* ``"unknown"`` when the budget (time, structures, memory) runs out or ``cancel()``
  says so, or Python runs out of memory (a ``MemoryError`` is that side's "unknown",
  ``ran_out="memory"``): never a guess.  What the forward search proved meanwhile is
  kept as the ``horizon``: X cannot force the target within that many plies.

Algorithm: pawn moves never go back, so the pawn structures reachable from the
root form a DAG, solved successors first, each by a bitboard-parallel retrograde
analysis over both kings' squares and both sides to move
(:mod:`logic.exact.tables`).  Only structures play can enter are solved: a forward
pass follows the squares each king can reach (a king capture needs the pawn next
to that region); tables are then exact on every state reachable from the root.
Structures whose tables are exact everywhere are cached across calls (the
paper's "pawn hash", generalised, capped at ``CACHE_LIMIT`` entries).  Sound
shortcuts, run side by side, each with its share of the time (:data:`STRATEGIES`, the
strategy objects and their scheduler of :mod:`logic.exact.schedule`):

1. restricted games for D: KINGS (D only steps with its king), LEVERS (D also
   captures with its pawns) and NOPUSH (D also captures with its king; it never
   pushes a pawn), and GUARD (LEVERS where X's king taking a pawn ends the game as
   X's success).  If X cannot win even then, it cannot win the real game
   (``restricted="kings"`` / ``"levers"`` / ``"nopush"`` / ``"guard"``);
2. partial expansions of the full game: structures beyond a limit on each side's
   progress are not expanded but taken as all wins (upper bound) and as all
   losses except X's unstoppable runners (lower bound,
   :func:`~logic.exact.tables.runner_parts`); a non-win under the upper bound
   proves a blockage, a win under the lower bound a breakthrough
   (``restricted="bounds"``).  The upper bound deepens X's moves and cuts D's
   early, the lower bound the reverse; limits grow until they decide;
   or the upper bound expanded only where the root's doubt leads, a round at a time
   (:mod:`logic.exact.gap`, ``restricted="gap"``): the blockages of open structures;
3. the whole DAG, given up whenever it outgrows a cap that doubles with each try;
4. a forward search over boards, a ply deeper each step (:mod:`logic.exact.forward`,
   ``restricted="forward"``): short breakthroughs, with their fastest line.  It also
   finds the fastest line of a breakthrough a partial expansion proved.

X is White inside the solver; Black is White on the flipped board
(:func:`logic.exact.root.orient`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import chess

from logic.exact.budget import (
    MAX_SECONDS,
    MAX_STRUCTURES,
    SOLVE_BYTES,
    STRUCTURE_CEILING,
    Clock,
    WallClock,
    default_memory,
    memory_setting,
    structure_budget,
)
from logic.exact.dag import Budget, Call, cache_info, clear_cache
from logic.exact.forward import ForwardSearch, SearchAborted
from logic.exact.gap import GapExpansion
from logic.exact.pv import PV, DistanceError, Source, distances, walk
from logic.exact.root import Root, ep_caps, orient, oriented_board, root_states
from logic.exact.schedule import STRATEGIES, Horizon, Proof, prove, whole_dag
from logic.exact.tables import NSTATES, king_squares, legal_masks

__all__ = ["ExactResult", "ExactError", "check_board", "solve", "solve_bitboards", "clear_cache",
           "cache_info", "MAX_STRUCTURES", "MAX_SECONDS", "LINE_DAG_CAP", "STRATEGIES",
           "STRUCTURE_CEILING", "structure_budget"]

#: a breakthrough a partial expansion proved gets its line from the whole DAG when that
#: has at most this many structures (Fine #70: 2,000; its partial expansion's line is 53
#: plies, the whole DAG's 49).  Twice as many certified a few more lines for three times
#: the extra time
LINE_DAG_CAP = 8_000
#: the deepest forward search for a faster line when a partial expansion's line is missing
FORWARD_LINE_PLIES = 40
#: the most seconds the forward search may take for a faster line (a short line comes
#: in a fraction of a second: Diagram 20's 9 plies in 0.1 s)
FORWARD_LINE_SECONDS = 2.0


class ExactError(ValueError):
    """Not a legal king-and-pawn-only position (the message echoes the FEN), an unknown
    method or a time budget that is not a finite, non-negative number (echoed)."""


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
    ``fastest``: whether ``pv`` is the fastest line of the real game (from the whole
    DAG's exact distances: the whole DAG proved it, or was solved for the line when it
    had at most :data:`LINE_DAG_CAP` structures); False for a partial expansion's line,
    the fastest among the lines that expansion knows, or for no line.
    ``structures``: pawn structures solved for this call (partial expansions count
    each time); ``cached``: structures taken from the cache; ``distinct``: how many
    different structures those solves were (at most ``structures``); ``states``:
    king-placement states examined (8192 per structure solved).  ``ms``: the call's
    time by its clock (wall time unless the call was given a
    :class:`~logic.exact.budget.WorkClock`).
    ``king_map``: real squares, among the king placements the root can reach --
    blocked: D-king squares from which D holds (X's king and the side to move as in
    the root); breaks: X-king squares from which X breaks through (D's king where
    it stands).  ``restricted``: the game that gave the proof: ``""`` the whole
    DAG of the full game, ``"kings"`` / ``"levers"`` / ``"nopush"`` a game where D
    only moves its king / never pushes and captures only with pawns / never pushes,
    ``"guard"`` LEVERS where X's king taking a pawn counts as X's success,
    ``"bounds"`` a level-limited partial expansion of the full game, ``"gap"`` the
    gap-guided one (:mod:`logic.exact.gap`), ``"forward"`` the forward search for a
    short breakthrough (:mod:`logic.exact.forward`; its line is the fastest).
    ``ran_out`` (unknown only): what ended the call, ``"time"``, ``"structures"`` (its
    structure budget), ``"memory"`` (its memory budget, or a ``MemoryError``) or
    ``"cancelled"`` (``""`` when every strategy finished undecided).  ``nodes``: positions
    the forward search examined (as a strategy, for its own proof's line, and for the line
    of a breakthrough a partial expansion proved).  ``horizon`` (unknown only): the most
    plies within which the forward search proved that X cannot force the target against
    every defence (its deepest finished ply; -1 when it proved none or did not run): a
    proof, weaker than a blockage, that holds for ever after -- no promotion (by either
    side, X's counted only when its new piece is not taken at once) and no mate within
    ``horizon`` plies.  ``seconds`` (unknown only): the call's time budget.
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
    distinct: int = 0
    fastest: bool = False
    ran_out: str = ""
    nodes: int = 0
    horizon: int = -1
    seconds: float = 0.0


def _flip_uci(uci: str) -> str:
    m = chess.Move.from_uci(uci)
    return chess.Move(m.from_square ^ 0x38, m.to_square ^ 0x38, m.promotion).uci()


def _principal(r: Root, proof: Proof, seconds: float, cancel: Callable[[], bool] | None,
               budget: Budget) -> PV | None:
    """The PV of a breakthrough proof, or None if the distances take more than
    ``seconds`` by the budget's clock (a forward search's positions for the line count
    in ``budget.nodes``: the search tells the budget)."""
    dag = proof.dag
    if isinstance(dag, ForwardSearch):
        return _forward_line(dag, seconds, cancel, budget.clock)
    if isinstance(dag, GapExpansion):  # it proves blockages only: no line to walk
        return None
    src = Source(dag.lo, dag.expanded)
    try:
        dist = distances([(r.xp, r.dp), *ep_caps(r)], root_states(r), src,
                         budget.clock() + seconds, cancel, budget.clock)
        return walk(oriented_board(r), dist)
    except DistanceError:  # out of time, or the cache lost a structure
        return None


def _forward_line(search: ForwardSearch, seconds: float,
                  cancel: Callable[[], bool] | None, clock: Clock,
                  max_plies: int | None = None) -> PV | None:
    """The fastest line by ``search`` (deepened up to ``max_plies`` first, if given),
    or None if it does not come within ``seconds`` by ``clock``."""
    end = clock() + seconds
    search.poll = lambda: clock() > end or (cancel is not None and cancel())
    try:
        if max_plies is not None and search.deepen(max_plies) is None:
            return None
        return search.line()
    except SearchAborted:
        return None


def _faster_line(r: Root, proof: Proof, line: PV | None, end: float,
                 cancel: Callable[[], bool] | None, budget: Budget, use_cache: bool
                 ) -> tuple[Proof, PV | None, bool]:
    """A partial expansion's breakthrough: the real game's fastest line if one comes
    in time, from the forward search (up to the partial line's length, within half the
    time left, at most :data:`FORWARD_LINE_SECONDS`) or else the whole DAG (if it has
    at most :data:`LINE_DAG_CAP` structures, within half the time then left);
    ``(proof, line, fastest)``; ``end`` is read on the budget's clock."""
    clock = budget.clock
    left = end - clock()
    if left <= 0:
        return proof, line, False
    if FORWARD_LINE_SECONDS > 0:
        search = ForwardSearch(oriented_board(r), lambda: False, budget.searched)
        better = _forward_line(search, min(left / 2, FORWARD_LINE_SECONDS), cancel, clock,
                               line.plies if line is not None else FORWARD_LINE_PLIES)
        if better is not None:
            return proof, better, True
    left = end - clock()
    room = None if budget.max_bytes is None else max(0, budget.max_bytes - budget.held())
    whole = whole_dag(r, Call(Budget(left / 2, MAX_STRUCTURES, cancel, clock=clock,
                                     max_bytes=room), use_cache),
                      LINE_DAG_CAP) if left > 0 else None
    if whole is not None:
        whole = whole._replace(restricted=proof.restricted)  # its king map is exact
        better = _principal(r, whole, max(0.0, end - clock()), cancel, budget)
        if better is not None:
            return whole, better, True
        return whole, line, False
    return proof, line, False


def _memory(max_bytes: int | None, use_cache: bool) -> tuple[int, int]:
    """``(memory budget, bytes held at the start)`` of a call given ``max_bytes`` (None:
    the setting :func:`~logic.exact.budget.memory_setting`, else what is held plus
    :func:`~logic.exact.budget.default_memory`).  What is held is the structure cache
    (counted like the solves that filled it) when the call uses it; a cache that would
    take more than half of a budget that is set is cleared."""
    held = cache_info()["structures"] * SOLVE_BYTES if use_cache else 0
    if max_bytes is None:
        max_bytes = memory_setting()
        if max_bytes is None:
            return held + default_memory(), held
    if held > max_bytes // 2:
        clear_cache()
        held = 0
    return max_bytes, held


def _out_of_memory(budget: Budget) -> None:
    """After a ``MemoryError``: the budget is out for memory, the cache is freed."""
    clear_cache()
    budget.out, budget.why = True, "memory"


def solve_bitboards(white_pawns: int, black_pawns: int, white_king: chess.Square,
                    black_king: chess.Square, turn: chess.Color, ep_square: chess.Square | None,
                    color: chess.Color, *, max_seconds: float = MAX_SECONDS,
                    max_structures: int | None = None,
                    cancel: Callable[[], bool] | None = None,
                    use_cache: bool = True, pv: bool = True,
                    pv_seconds: float | None = None, method: str = "auto",
                    report: Callable[[int], None] | None = None,
                    seen: list[tuple[int, int]] | None = None,
                    on_line: Callable[[], None] | None = None,
                    clock: Clock | None = None, max_bytes: int | None = None) -> ExactResult:
    """:func:`solve` on raw bitboards of a legal position (not validated).  ``ep_square``
    must be None unless the side to move can capture en passant.  Raises
    :class:`ExactError` for an unknown method, a ``max_seconds`` that is negative or
    not finite or a ``max_bytes`` that is not a whole number of at least 0."""
    try:
        finite = math.isfinite(max_seconds) and max_seconds >= 0
    except TypeError:
        finite = False
    if not finite:  # NaN never passes the deadline: the call would run unbounded
        raise ExactError(f"max_seconds must be finite and not negative, got {max_seconds!r}")
    if max_bytes is not None and (not isinstance(max_bytes, int) or max_bytes < 0):
        raise ExactError(f"max_bytes must be a whole number of at least 0, got {max_bytes!r}")
    r = orient(white_pawns, black_pawns, white_king, black_king, turn, ep_square, color)
    if max_structures is None:
        max_structures = structure_budget(max_seconds)
    limit, held = _memory(max_bytes, use_cache)
    budget = Budget(max_seconds, max_structures, cancel, report, seen,
                    WallClock() if clock is None else clock, limit, held)
    try:
        strategies = STRATEGIES[method]
    except KeyError:
        raise ExactError(f"unknown method {method!r}; choose one of {', '.join(STRATEGIES)}"
                         ) from None
    try:
        proof = prove(r, Call(budget, use_cache), strategies)
    except MemoryError:  # more than the count foresaw: this side is unknown
        _out_of_memory(budget)
        proof = Horizon(plies=-1)
    states = budget.solved * 2 * NSTATES
    if isinstance(proof, Horizon):
        ms = budget.elapsed() * 1000
        return ExactResult("unknown", None, (), None, "", budget.solved, states, ms, 0, "",
                           budget.cached, len(budget.keys), ran_out=budget.why,
                           nodes=budget.nodes, horizon=proof.plies, seconds=max_seconds)
    if not proof.won:
        legal = legal_masks(r.xp, r.dp).w if r.x_to_move else legal_masks(r.xp, r.dp).b
        sl = king_squares(legal & proof.mask & ~proof.table, xk=r.xk)
        ms = budget.elapsed() * 1000
        return ExactResult("blocked", True, (), None, "", budget.solved, states, ms,
                           sl if color else chess.flip_vertical(sl), proof.restricted,
                           budget.cached, len(budget.keys), nodes=budget.nodes)
    if pv and on_line is not None:
        on_line()
    pv_budget = max_seconds if pv_seconds is None else pv_seconds
    pv_end = budget.clock() + pv_budget
    fastest = proof.restricted in ("", "forward")
    try:
        line = _principal(r, proof, pv_budget, cancel, budget) if pv else None
        if pv and not fastest:  # a partial expansion's line: look for the fastest
            proof, line, fastest = _faster_line(r, proof, line, pv_end, cancel, budget,
                                                 use_cache)
    except MemoryError:  # the proof stands, without its line
        clear_cache()
        line = None
    sl = king_squares(proof.table, dk=r.dk)
    moves: tuple[str, ...] = ()
    plies, ends = None, ""
    if line is not None:
        moves = line.moves if color else tuple(_flip_uci(m) for m in line.moves)
        plies, ends = line.plies, line.ends
    ms = budget.elapsed() * 1000
    return ExactResult("breaks", False, moves, plies, ends, budget.solved, states, ms,
                       sl if color else chess.flip_vertical(sl), proof.restricted, budget.cached,
                       len(budget.keys), fastest and line is not None, nodes=budget.nodes)


def check_board(board: chess.Board) -> None:
    """Raise :class:`ExactError` (echoing the FEN) unless ``board`` is a legal position
    of kings and pawns only: what :func:`solve` accepts."""
    if board.occupied != board.pawns | board.kings:
        raise ExactError(f"pieces other than kings and pawns: {board.fen()!r}")
    status = board.status()
    if status != chess.STATUS_VALID:
        raise ExactError(f"illegal position ({status!r}): {board.fen()!r}")


def solve(board: chess.Board, color: chess.Color, *, max_seconds: float = MAX_SECONDS,
          max_structures: int | None = None, cancel: Callable[[], bool] | None = None,
          use_cache: bool = True, pv: bool = True, method: str = "auto",
          report: Callable[[int], None] | None = None,
          seen: list[tuple[int, int]] | None = None,
          on_line: Callable[[], None] | None = None,
          clock: Clock | None = None, max_bytes: int | None = None) -> ExactResult:
    """Decide whether ``color`` (X) can force a promotion (by either side) or mate in a
    legal king-and-pawn-only ``board``, against any defence.  See :class:`ExactResult`.

    The budget: at most ``max_seconds`` and ``max_structures`` structure solves
    (by default :func:`structure_budget` of ``max_seconds``) for the proof (then
    ``"unknown"``, saying which ran out), and as much time again for the PV of a
    breakthrough (``pv=False`` skips it).  ``max_bytes``: the memory the call may hold, by
    its count (:class:`~logic.exact.dag.Budget`; None: the setting
    :data:`~logic.exact.budget.MEMORY_ENV`, else a share of the machine's free memory,
    :func:`~logic.exact.budget.default_memory`); past it, or on a ``MemoryError``, the call
    is ``"unknown"`` with ``ran_out="memory"`` (a ``MemoryError`` while the line of a proved
    breakthrough is computed leaves the proof without its line).  ``cancel`` is polled
    regularly; True gives ``"unknown"``.  ``use_cache=False`` neither reads nor writes the
    structure cache.
    ``method`` picks the strategies (:data:`STRATEGIES`; ``"auto"`` by default).
    ``report(n)`` is called with the distinct structures solved so far every 16 solves;
    ``seen`` (a list) receives each structure solved, ``(X's pawns, D's pawns)`` in
    the solver's orientation (X = White), in order; ``on_line()`` is called once when a
    breakthrough is proved and its line is being computed (progress).  ``clock``: what
    the call reads its time from (:class:`~logic.exact.budget.WallClock` by default; a
    :class:`~logic.exact.budget.WorkClock`, one per call, makes the answer and its
    counts independent of the machine's speed and load).  Raises
    :class:`ExactError` (a ``ValueError``, echoing the FEN) for other pieces, an
    illegal position (``board.status()``), an unknown method, a ``max_seconds`` that is
    negative or not finite (NaN, infinity: echoed) or a ``max_bytes`` below 0; a bad
    :data:`~logic.exact.budget.MEMORY_ENV` raises
    :class:`~logic.exact.budget.MemoryBudgetError` (a ``ValueError``, echoing it)."""
    check_board(board)
    w = board.pawns & board.occupied_co[chess.WHITE]
    b = board.pawns & board.occupied_co[chess.BLACK]
    wk = board.king(chess.WHITE)
    bk = board.king(chess.BLACK)
    assert wk is not None and bk is not None
    ep = board.ep_square if board.has_legal_en_passant() else None
    return solve_bitboards(w, b, wk, bk, board.turn, ep, color, max_seconds=max_seconds,
                           max_structures=max_structures, cancel=cancel, use_cache=use_cache,
                           pv=pv, method=method, report=report, seen=seen, on_line=on_line,
                           clock=clock, max_bytes=max_bytes)
