"""A king-and-pawn search with the blockage detector as an interior-node recognizer.

Negamax alpha-beta with iterative deepening, a transposition table, move
ordering (hash move, captures and promotions, pawn pushes, king moves),
repetition and fifty-move draws, a capture/promotion quiescence search, the
KPK bitbase at KPK nodes, and at every node paper Figure 4::

    if beta > DRAW and blockage():      # the side to move cannot win
        if alpha >= DRAW: return DRAW
        beta = DRAW

Positions are tuples of bitboards (``w, b, wk, bk, white_to_move, ep, halfmove``);
moves are ints ``from | to << 6 | flag << 12`` (flag 1 double push, 2 en passant,
3 promotion to a queen).  A promotion ends the line: it scores as decisive when
the new queen cannot be taken and no opposing pawn has passed its 4th rank,
otherwise by material.  Scores are centipawns from the side to move's view;
``WIN`` - ply marks a decisive line.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NamedTuple

import chess

import logic.methods  # noqa: F401  (registers the methods)
from logic import kpk
from logic.bitboards import BB_NOT_A, BB_NOT_H, front_span
from logic.explain import status_names
from logic.registry import get_static_method
from logic.uci import check_seconds
from logic.vocab import DEFAULT_METHOD

__all__ = ["SearchResult", "Searcher", "search_board", "WIN", "DECISIVE", "MAX_DEPTH",
           "from_board", "Pos", "TTEntry", "SearchError"]

WIN = 10_000
DECISIVE = 5_000  # |score| above this means a forced win (promotion or KPK)
DRAW = 0
#: the deepest search (plies): the iterative deepening's limit and ``--depth``'s range
MAX_DEPTH = 64
_ALL = chess.BB_ALL
_NOT_A = BB_NOT_A
_NOT_H = BB_NOT_H
_KING = chess.BB_KING_ATTACKS
_PATK = chess.BB_PAWN_ATTACKS  # [color][square]
_RANK = [s >> 3 for s in range(64)]
_PASSED_BONUS = (0, 5, 10, 20, 40, 70, 120, 0)
_EXACT, _LOWER, _UPPER = 0, 1, 2

#: a position: ``(w, b, wk, bk, white_to_move, ep, halfmove)`` -- white and black pawns,
#: the kings' squares, the side to move, the en-passant square (-1: none) and the
#: halfmove clock; a plain tuple built once per node (its first six fields are the
#: transposition-table key)
Pos = tuple[int, int, int, int, bool, int, int]


class SearchError(ValueError):
    """A board the search does not take (other material, an illegal position); the
    message echoes its FEN."""


class TTEntry(NamedTuple):
    """A transposition-table entry: the ``depth`` searched (-1: an entry that only
    remembers the detector's answer, no score yet), the ``score`` and whether it is an
    exact value or a lower/upper ``bound``, the best ``move`` and the detector's answer
    ``blocked`` (None: not asked yet)."""

    depth: int
    score: int
    bound: int
    move: int
    blocked: bool | None


def from_board(board: chess.Board) -> Pos:
    """The search's position tuple of a K+P ``chess.Board``."""
    w = board.pawns & board.occupied_co[chess.WHITE]
    b = board.pawns & board.occupied_co[chess.BLACK]
    wk = board.king(chess.WHITE)
    bk = board.king(chess.BLACK)
    if wk is None or bk is None or board.occupied != board.pawns | board.kings:
        raise SearchError(f"the search needs kings and pawns only: {board.fen()!r}")
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else -1
    return (w, b, wk, bk, board.turn, ep, board.halfmove_clock)


_FRONT = {c: [front_span(1 << s, c) for s in range(64)] for c in (True, False)}
_PASS_MASK = {c: [(_FRONT[c][s] | ((_FRONT[c][s] << 1) & _NOT_A & _ALL)
                   | ((_FRONT[c][s] >> 1) & _NOT_H)) for s in range(64)] for c in (True, False)}


@dataclass
class SearchResult:
    """What a search found: score (side to move's view, centipawns), depth, nodes,
    nodes per second, blockages detected, principal variation (UCI) and time."""

    score: int
    depth: int
    nodes: int
    nps: int
    blockages: int
    pv: list[str] = field(default_factory=list)
    seconds: float = 0.0
    score_white: int = 0

    def to_dict(self) -> dict[str, object]:
        """The ``pawnfence search --json`` object."""
        return {"score_cp": self.score, "mate": None, "depth": self.depth,
                "nodes": self.nodes, "nps": self.nps, "blockages": self.blockages,
                "pv": self.pv, "decisive": abs(self.score) >= DECISIVE,
                "seconds": round(self.seconds, 3)}


class Searcher:
    """One search context: its transposition table survives between iterations."""

    def __init__(self, *, blockage: bool = True, tt_size: int = 1 << 20,
                 method: str = DEFAULT_METHOD) -> None:
        """``blockage``: ask the detector at interior nodes (paper Figure 4), with the
        static method called ``method`` (a key of ``logic.STATIC_METHODS``; raises
        :class:`~logic.registry.DetectError`, a ``ValueError``, naming them otherwise)."""
        self.use_blockage = blockage
        self._is_blocked = get_static_method(method).is_blocked
        #: position key (its first six fields) -> :class:`TTEntry`
        self.tt: dict[tuple[int, ...], TTEntry] = {}
        self.tt_size = tt_size
        self.nodes = 0
        self.blockages = 0
        self.deadline = float("inf")
        self.stopped = False
        self.path: list[tuple[int, ...]] = []

    # -- moves ----------------------------------------------------------------------
    @staticmethod
    def moves(pos: Pos) -> list[int]:
        """Legal moves of the side to move."""
        w, b, wk, bk, white, ep, _hm = pos
        if white:
            own, opp, k, ok, up = w, b, wk, bk, 8
            opp_att = ((b >> 9) & _NOT_H) | ((b >> 7) & _NOT_A)
            checkers = _PATK[True][k] & b
        else:
            own, opp, k, ok, up = b, w, bk, wk, -8
            opp_att = ((w << 7) & _NOT_H & _ALL) | ((w << 9) & _NOT_A & _ALL)
            checkers = _PATK[False][k] & w
        occ = w | b | (1 << wk) | (1 << bk)
        out = []
        kt = _KING[k] & ~own & ~opp_att & ~_KING[ok]
        while kt:
            t = kt & -kt
            kt ^= t
            out.append(k | (t.bit_length() - 1) << 6)
        if checkers & (checkers - 1):
            return out  # double check: the king must move
        last = 7 if white else 0
        second = 1 if white else 6
        pawns = own
        while pawns:
            fbit = pawns & -pawns
            pawns ^= fbit
            f = fbit.bit_length() - 1
            caps = _PATK[white][f] & opp
            if checkers:
                caps &= checkers
            while caps:
                t = caps & -caps
                caps ^= t
                to = t.bit_length() - 1
                out.append(f | to << 6 | (3 << 12 if _RANK[to] == last else 0))
            if ep >= 0 and _PATK[white][f] >> ep & 1:
                victim = ep - up
                if not checkers or checkers >> victim & 1:
                    out.append(f | ep << 6 | 2 << 12)
            if checkers:
                continue
            to = f + up
            if not occ >> to & 1:
                out.append(f | to << 6 | (3 << 12 if _RANK[to] == last else 0))
                if _RANK[f] == second and not occ >> (to + up) & 1:
                    out.append(f | (to + up) << 6 | 1 << 12)
        return out

    @staticmethod
    def make(pos: Pos, m: int) -> Pos:
        """The position after move ``m`` (no legality check)."""
        w, b, wk, bk, white, _ep, hm = pos
        f, t, flag = m & 63, (m >> 6) & 63, m >> 12
        fb, tb = 1 << f, 1 << t
        ep = -1
        if white:
            if f == wk:
                return (w, b & ~tb, t, bk, False, -1, 0 if b & tb else hm + 1)
            w = (w ^ fb) | tb
            if flag == 2:
                b &= ~(1 << (t - 8))
            else:
                b &= ~tb
            if flag == 1:
                ep = f + 8
        else:
            if f == bk:
                return (w & ~tb, b, wk, t, True, -1, 0 if w & tb else hm + 1)
            b = (b ^ fb) | tb
            if flag == 2:
                w &= ~(1 << (t + 8))
            else:
                w &= ~tb
            if flag == 1:
                ep = f - 8
        return (w, b, wk, bk, not white, ep, 0)

    # -- evaluation ------------------------------------------------------------------------
    @staticmethod
    def evaluate(pos: Pos) -> int:
        """Static score from the side to move's view: material, passed pawns, kings
        near the passers."""
        w, b, wk, bk, white, _ep, _hm = pos
        score = 100 * (w.bit_count() - b.bit_count())
        x = w
        while x:
            s = (x & -x).bit_length() - 1
            x &= x - 1
            if not _PASS_MASK[True][s] & b:
                r = _RANK[s]
                score += _PASSED_BONUS[r] + 4 * (chess.square_distance(bk, s + 8) -
                                                chess.square_distance(wk, s + 8))
        x = b
        while x:
            s = (x & -x).bit_length() - 1
            x &= x - 1
            if not _PASS_MASK[False][s] & w:
                r = 7 - _RANK[s]
                score -= _PASSED_BONUS[r] + 4 * (chess.square_distance(wk, s - 8) -
                                                chess.square_distance(bk, s - 8))
        return score if white else -score

    @staticmethod
    def _promotion_score(pos: Pos, ply: int, q: int) -> int:
        """Score (for the side to move) of a position right after the opponent promoted
        on ``q`` (the new queen is still a "pawn" in the bitboards)."""
        w, b, wk, bk, white, _ep, _hm = pos
        promoted_white = not white  # the side that just moved
        mover_k, other_k = (wk, bk) if promoted_white else (bk, wk)
        own, other = (w, b) if promoted_white else (b, w)
        takeable = _KING[other_k] >> q & 1 and not _KING[mover_k] >> q & 1
        # A queen against a pawn that reaches its 7th rank with the king's help may only
        # draw (rook and bishop pawns): decisive only if no opposing pawn has passed its
        # 4th rank (checked against Syzygy in the tests).
        advanced = (chess.BB_RANK_2 | chess.BB_RANK_3 | chess.BB_RANK_4 if promoted_white
                    else chess.BB_RANK_5 | chess.BB_RANK_6 | chess.BB_RANK_7)
        if not takeable and not other & advanced:
            return -(WIN - ply)
        material = 100 * ((own & ~(1 << q)).bit_count() - other.bit_count())
        if not takeable:
            material += 900
        return -material

    # -- search --------------------------------------------------------------------------
    def _kpk(self, pos: Pos, ply: int) -> int | None:
        w, b, wk, bk, white = pos[:5]
        if (w | b).bit_count() != 1:
            return None
        strong_white = bool(w)
        if not kpk.probe(*kpk.normalise_squares(strong_white, white, wk, bk,
                                                 (w | b).bit_length() - 1)):
            return DRAW
        strong_to_move = white == strong_white
        v = WIN - 100 - ply
        return v if strong_to_move else -v

    def _terminal(self, pos: Pos, key: tuple[int, ...], ply: int) -> int | None:
        """The score of a node decided before any search: no pawns, a repetition or the
        fifty-move rule (draws), a KPK bitbase hit; else None."""
        if not (pos[0] | pos[1]):
            return DRAW
        if ply and (pos[6] >= 100 or key in self.path):
            return DRAW
        return self._kpk(pos, ply)

    def _root_move(self, pos: Pos, key: tuple[int, ...]) -> None:
        """Store a best move for a root decided before any search (no pawns, or a KPK
        bitbase hit), so that the principal variation starts with a move when there is
        one: the move after which the same terminal tests score best for the side to move
        (every child of such a root is decided by them, or is a promotion)."""
        best, best_move = -WIN - 1, -1
        for m in self.moves(pos):
            child = self.make(pos, m)
            if m >> 12 == 3:
                score = -self._promotion_score(child, 1, (m >> 6) & 63)
            else:
                early = self._terminal(child, child[:6], 1)
                score = -(self.evaluate(child) if early is None else early)
            if score > best:
                best, best_move = score, m
        if best_move >= 0:
            self.tt[key] = TTEntry(depth=0, score=best, bound=_EXACT, move=best_move, blocked=None)

    @staticmethod
    def _tt_cut(entry: TTEntry, depth: int, alpha: int, beta: int) -> int | None:
        """The entry's score when it is deep enough and its bound decides the node."""
        e_depth, e_score, e_flag = entry[0], entry[1], entry[2]
        if e_depth < depth:
            return None
        if (e_flag == _EXACT or (e_flag == _LOWER and e_score >= beta)
                or (e_flag == _UPPER and e_score <= alpha)):
            return e_score
        return None

    @staticmethod
    def _no_moves(pos: Pos, ply: int) -> int:
        """Checkmate (lost) or stalemate (draw) for the side to move."""
        white = pos[4]
        k_sq = pos[2] if white else pos[3]
        opp = pos[1] if white else pos[0]
        return -(WIN - ply) if _PATK[white][k_sq] & opp else DRAW

    def negamax(self, pos: Pos, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Alpha-beta score of ``pos`` (side to move's view) to ``depth`` plies, with paper
        Figure 4 at every node: if the side to move could score above a draw (``beta >
        0``) but is blocked, the node returns 0 when ``alpha >= 0`` and otherwise
        searches with ``beta = 0``."""
        self.nodes += 1
        if self.nodes & 2047 == 0 and time.perf_counter() > self.deadline:
            self.stopped = True
        if self.stopped:
            return 0
        key = pos[:6]
        early = self._terminal(pos, key, ply)
        if early is not None:
            if not ply:
                self._root_move(pos, key)
            return early
        entry = self.tt.get(key)
        blocked = entry[4] if entry is not None else None
        if blocked is None and self.use_blockage and beta > DRAW and pos[5] < 0:
            # paper Figure 4's question, asked the first time a node is met: when the
            # answer ends the node here (alpha >= 0) it is stored at once in a
            # score-less entry; otherwise it travels with the node's entry.  Not where
            # the side to move may capture en passant: the detectors judge the pawn
            # structure without that move (a "blocked" there was refuted by exact)
            blocked = self._is_blocked(pos[0], pos[1], pos[2], pos[3], pos[4])
            if blocked and alpha >= DRAW:
                self.tt[key] = (entry._replace(blocked=True) if entry is not None
                                else TTEntry(depth=-1, score=0, bound=_UPPER, move=0, blocked=True))
        if blocked and beta > DRAW:
            self.blockages += 1
            if alpha >= DRAW:
                return DRAW
            beta = DRAW
        hash_move = 0
        if entry is not None:
            if ply:
                cut = self._tt_cut(entry, depth, alpha, beta)
                if cut is not None:
                    return cut
            hash_move = entry[3]
        if depth <= 0:
            return self.quiesce(pos, alpha, beta, ply)
        return self._expand(pos, key, depth, alpha, beta, ply, hash_move, blocked)

    def _expand(self, pos: Pos, key: tuple[int, ...], depth: int, alpha: int, beta: int,
                ply: int, hash_move: int, blocked: bool | None) -> int:
        """Search the moves of ``pos`` (hash move and promotions and captures first) and
        store the result with the detector's answer in the transposition table."""
        moves = self.moves(pos)
        if not moves:
            return self._no_moves(pos, ply)
        moves.sort(key=lambda m: self._order(pos, m, hash_move), reverse=True)
        alpha0 = alpha
        best, best_move = -WIN - 1, moves[0]
        self.path.append(key)
        for m in moves:
            if m >> 12 == 3:
                score = -self._promotion_score(self.make(pos, m), ply + 1, (m >> 6) & 63)
            else:
                score = -self.negamax(self.make(pos, m), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        self.path.pop()
        if self.stopped:
            return best
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        if len(self.tt) >= self.tt_size:
            self.tt.clear()
        self.tt[key] = TTEntry(depth=depth, score=best, bound=flag, move=best_move, blocked=blocked)
        return best

    def quiesce(self, pos: Pos, alpha: int, beta: int, ply: int) -> int:
        """Captures and promotions only, with stand-pat (the deadline is checked here too:
        long capture sequences must not outlive ``--time``)."""
        self.nodes += 1
        if self.nodes & 2047 == 0 and time.perf_counter() > self.deadline:
            self.stopped = True
        if self.stopped:
            return 0
        stand = self.evaluate(pos)
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        w, b = pos[0], pos[1]
        opp = b if pos[4] else w
        for m in self.moves(pos):
            to = (m >> 6) & 63
            if m >> 12 == 3:
                score = -self._promotion_score(self.make(pos, m), ply + 1, to)
            elif opp >> to & 1 or m >> 12 == 2:
                score = -self.quiesce(self.make(pos, m), -beta, -alpha, ply + 1)
            else:
                continue
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    @staticmethod
    def _order(pos: Pos, m: int, hash_move: int) -> int:
        if m == hash_move:
            return 1 << 20
        flag = m >> 12
        to = (m >> 6) & 63
        opp = pos[1] if pos[4] else pos[0]
        score = 0
        if flag == 3:
            score += 1 << 18
        if opp >> to & 1 or flag == 2:
            score += 1 << 16
        f = m & 63
        if f != (pos[2] if pos[4] else pos[3]):
            score += 1 << 10  # pawn moves before king moves
        return score

    def pv(self, pos: Pos, limit: int = 24) -> list[str]:
        """The principal variation from the transposition table (UCI moves)."""
        out = []
        seen = set()
        for _ in range(limit):
            key = pos[:6]
            entry = self.tt.get(key)
            if entry is None or key in seen:
                break
            seen.add(key)
            m = entry.move
            if m not in self.moves(pos):
                break
            f, t = m & 63, (m >> 6) & 63
            out.append(chess.square_name(f) + chess.square_name(t) + ("q" if m >> 12 == 3 else ""))
            if m >> 12 == 3:
                break
            pos = self.make(pos, m)
        return out

    def search(self, pos: Pos, *, depth: int | None = None, seconds: float | None = None,
               history: Sequence[tuple[int, ...]] | None = None) -> SearchResult:
        """Iterative deepening to ``depth`` plies (at least 1) or for about ``seconds``
        (the first iteration always completes).  Raises ``ValueError`` for a depth below
        1 or a time that is not finite and positive.  Python's cyclic garbage collector
        is paused meanwhile (:func:`collector_paused`)."""
        with collector_paused():
            return self._search(pos, depth, seconds, history)

    def _search(self, pos: Pos, depth: int | None, seconds: float | None,
                history: Sequence[tuple[int, ...]] | None) -> SearchResult:
        if depth is not None and not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth must be from 1 to {MAX_DEPTH}, got {depth}")
        if seconds is not None:
            seconds = check_seconds(seconds, "search time")
        start = time.perf_counter()
        self.deadline = start + seconds if seconds else float("inf")
        self.stopped = False
        self.nodes = self.blockages = 0
        self.path = list(history or [])
        max_depth = depth if depth is not None else MAX_DEPTH
        result = SearchResult(0, 0, 0, 0, 0)
        before = -1
        deadline = self.deadline
        for d in range(1, max_depth + 1):
            # depth 1 always completes: a stopped iteration's score means nothing
            self.deadline = deadline if d > 1 else float("inf")
            at_start = self.nodes
            score = self.negamax(pos, d, -WIN - 1, WIN + 1, 0)
            grew = self.nodes - at_start
            if depth is None and grew == before and grew <= 2:
                break  # the root is decided (a blockage or a bitbase hit): deeper adds nothing
            before = grew
            if self.stopped and d > 1:
                break
            elapsed = time.perf_counter() - start
            result = SearchResult(score, d, self.nodes, int(self.nodes / max(elapsed, 1e-9)),
                                  self.blockages, self.pv(pos), elapsed,
                                  score if pos[4] else -score)
            if seconds and elapsed > seconds * 0.6:
                break
        return result


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block, then restore its state.

    The search makes no reference cycles (positions, moves and table entries are
    tuples of ints), but it allocates a tuple a node, and every few hundred
    allocations the collector walks the young objects, now and then the whole
    transposition table.  Paused, the search ran about 6 % faster (one in-process A/B
    of ``bench --search``'s positions, detection off; the detectors' overheads were
    the same either way).  Reference counting still frees everything at once."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def search_board(board: chess.Board, *, depth: int | None = None, seconds: float | None = None,
                 blockage: bool = True, method: str = DEFAULT_METHOD) -> SearchResult:
    """Search a legal K+P ``chess.Board``; raises :class:`SearchError` (a ValueError) for
    other material or a board ``board.status()`` rejects (kings adjacent, a pawn on a
    back rank, ...)."""
    pos = from_board(board)
    status = board.status()
    if status != chess.STATUS_VALID:
        raise SearchError(f"illegal position ({status_names(status)}): {board.fen()!r}")
    history = []
    replay = board.copy()
    while replay.move_stack:
        replay.pop()
        if replay.occupied == replay.pawns | replay.kings:
            history.append(from_board(replay)[:6])
    return Searcher(blockage=blockage, method=method).search(pos, depth=depth, seconds=seconds,
                                                              history=history)
