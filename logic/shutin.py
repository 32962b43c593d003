"""x5, the shut-in king: White's whole play is enumerated while Black only marks time.

An extended criterion (:mod:`logic.extended`) for the positions the paper's fence cannot
describe: White's king boxed in by its own pawns and the squares Black's pawns attack, a
pawn that can only walk into its own king, a king that stalemates itself.  Everything is
oriented (the side under test is White).

The proof is a strategy for Black.  Black never moves a pawn and never captures: its king
steps back and forth between two squares (``tempo``) that no White piece can ever attack
or occupy.  Against that defence the Black pawns stand still, so the squares they attack
are fixed, and White's play is a one-player game over ``(White's king square, White's
pawns)``.  :func:`shut_in` explores every state of it (king steps that stay off attacked
squares, single and double pawn pushes; Black's king is never in the way because White's
pieces never come near its two squares).  The criterion holds when no reachable state
lets White

* capture: a White pawn on a square a Black pawn attacks (it attacks that pawn back), or
  the king on a Black pawn no other Black pawn protects;
* promote: a pawn pushed to the last rank;
* touch Black's king: every square White's king can reach, its neighbours, every square
  a White pawn can stand on or attack, and the Black pawns leave Black's king a square
  to step to and back from (and do not attack the square it stands on).

Then White never captures, never promotes and never gives check, so it cannot force a
promotion or a mate, whoever is to move: the exact prover's "cannot win".  A position
where White has no move at all (a stalemate of White's own making) is the smallest case.

The criterion is scoped so that it is cheap to rule out: White's king region now
(flooded through squares neither attacked by a Black pawn nor holding a White pawn) must
hold no Black pawn, stay off Black's king and have at most :data:`REGION_LIMIT` squares,
and the search stops after :data:`STATE_LIMIT` states ("too-many": not applied).
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from logic.bitboards import (
    BB_ALL,
    BB_NOT_A,
    BB_NOT_H,
    flood_fill,
    king_attacks_setwise,
    north_fill_through,
    pawn_attacks,
)

__all__ = ["ShutIn", "shut_in", "king_box", "closed_boxes", "pawn_blockers", "shut_in_squares",
           "REGION_LIMIT", "STATE_LIMIT", "CODES"]

#: the most squares White's king region may have now for x5 to be tried
REGION_LIMIT = 24
#: the most (king, pawns) states the search explores before giving up
STATE_LIMIT = 4096

_KING = chess.BB_KING_ATTACKS
_RANK_3 = chess.BB_RANK_3
_RANK_8 = chess.BB_RANK_8
_FILES = chess.BB_FILES
_ALL = BB_ALL
_NOT_A = BB_NOT_A
_NOT_H = BB_NOT_H

#: what each outcome of :func:`shut_in` means (the verdict's and the trace's words)
CODES = {
    "holds": "White's king and pawns can never capture, promote or reach Black's king",
    "lever": "a White pawn attacks a Black pawn",
    "open": "White's king region is not closed (it reaches a Black pawn or Black's king, "
            "or is too large)",
    "capture": "a White pawn can reach a square where it attacks a Black pawn",
    "king-takes": "White's king can reach a Black pawn no other Black pawn protects",
    "promotion": "a White pawn can reach the last rank",
    "no-tempo": "Black's king has no two safe squares to step between",
    "too-many": "too many positions of White's king and pawns to enumerate",
}


class ShutIn(NamedTuple):
    """The outcome of x5 on an oriented position.

    ``code`` is a key of :data:`CODES` (``"holds"`` exactly when the criterion proves the
    blockage); ``kings`` the squares White's king can reach, ``pawns`` the squares White's
    pawns can stand on (both as far as the search got), ``region`` White's king region now,
    ``tempo`` Black's two squares (when it holds), ``square`` the square where it fails
    (the pawn that captures or promotes, the Black pawn the king takes; -1 otherwise) and
    ``states`` the number of (king, pawns) states explored."""

    code: str
    kings: int
    pawns: int
    region: int
    tempo: int
    square: int
    states: int

    @property
    def holds(self) -> bool:
        """True when x5 proves that White cannot win."""
        return self.code == "holds"


def king_box(own: int, att: int, enemy: int, k: int, ek: int) -> int:
    """A king's region now, in any orientation: the squares 8-connected to ``k`` through
    squares that the enemy pawns do not attack (``att``) and ``own`` pawns do not hold;
    0 when the king stands on an attacked square, or its region reaches an ``enemy``
    pawn, a square next to the enemy king ``ek``, or more than :data:`REGION_LIMIT`
    squares (x5 is not tried).  For White on the oriented
    board: ``king_box(w, black_pawn_attacks(b), b, wk, bk)``."""
    free = _ALL & ~(att | own)
    if not free >> k & 1:
        return 0  # in check by a pawn: out of scope
    stop = enemy | _KING[ek]
    region = 1 << k
    grown = _KING[k] & free
    while True:
        if grown & stop or grown.bit_count() > REGION_LIMIT:
            return 0
        if grown | region == region:
            return region
        region |= grown
        # king_attacks_setwise(region) & free, inline (the extended method's hot path)
        g = region | ((region << 1) & _NOT_A & _ALL) | ((region >> 1) & _NOT_H)
        grown = (g | ((g << 8) & _ALL) | (g >> 8)) & free


def closed_boxes(own: int, att: int, enemy: int) -> int:
    """The squares from which :func:`king_box` may find a closed region, whatever the
    kings: the squares that ``att`` does not attack and ``own`` pawns do not hold, minus
    those 8-connected through such squares to an ``enemy`` pawn (a king there can reach
    it).  A king outside this set is never shut in: the search's per-structure test, one
    flood from the enemy pawns (the size limit and the enemy king are left to
    :func:`king_box`)."""
    free = _ALL & ~(att | own)
    return free & ~flood_fill(enemy & free, free)


def pawn_blockers(own: int, att: int, enemy: int) -> int:
    """The squares White's king must stand on for x5 to hold, from White's pawn pushes
    alone: all squares when no ``own`` pawn can walk, through squares free of pawns, onto
    a square ``att`` attacks or the last rank; when such walks exist on one file, that
    file's squares they pass (only a king standing in the way stops the walk, and
    :func:`shut_in` explores the pushes, so it fails otherwise); 0 when they exist on two
    files (one king cannot stand in both ways).  Oriented; a superset, never too small."""
    path = north_fill_through(own, _ALL & ~(own | enemy)) & ~own
    bad = path & (att | _RANK_8)
    if not bad:
        return _ALL
    file = _FILES[((bad & -bad).bit_length() - 1) & 7]
    return 0 if bad & ~file else path & file & ~bad


def shut_in_squares(own: int, att: int, enemy: int) -> int:
    """The oriented squares where White's king may be shut in (x5 may hold), whatever the
    kings: :func:`pawn_blockers` first (cheap; empty for 559 of 1,391 structures a search
    met), then the :func:`closed_boxes` among them.  The search's per-structure x5 test."""
    need = pawn_blockers(own, att, enemy)
    return need and closed_boxes(own, att, enemy) & need


def _fail(code: str, kings: int, pawns: int, region: int, square: int, states: int) -> ShutIn:
    return ShutIn(code, kings, pawns, region, 0, square, states)


def shut_in(w: int, b: int, wk: int, bk: int, limit: int = STATE_LIMIT, region: int = 0
            ) -> ShutIn:
    """x5 on the oriented position: see the module docstring for the proof; ``limit``
    caps the states explored.  ``region``: :func:`king_box`'s region when the caller has
    already run the scope tests (no lever, the king's region closed)."""
    b_att = pawn_attacks(b, chess.BLACK)
    if not region:
        if w & b_att:
            lever = w & b_att
            return _fail("lever", 0, w, 0, (lever & -lever).bit_length() - 1, 0)
        region = king_box(w, b_att, b, wk, bk)
        if not region:
            return _fail("open", 0, w, 0, -1, 0)
    near = _KING[bk] | (1 << bk)
    seen = {w << 6 | wk}
    todo = [(wk, w)]
    kings = pawns = 0
    while todo:
        k, p = todo.pop()
        kings |= 1 << k
        pawns |= p
        blocked = p | b | (1 << k)
        for t in chess.scan_forward(_KING[k] & ~(p | b_att)):
            if b >> t & 1:
                return _fail("king-takes", kings, pawns, region, t, len(seen))
            if near >> t & 1:
                return _fail("no-tempo", kings | (1 << t), pawns, region, t, len(seen))
            key = p << 6 | t
            if key not in seen:
                seen.add(key)
                todo.append((t, p))
        one = (p << 8) & ~blocked & _ALL
        for t in chess.scan_forward(one | (((one & _RANK_3) << 8) & ~blocked)):
            if t >= 56:
                return _fail("promotion", kings, pawns | (1 << t), region, t, len(seen))
            if b_att >> t & 1:
                return _fail("capture", kings, pawns | (1 << t), region, t, len(seen))
            q = p ^ (1 << t) ^ (1 << (t - 8) if one >> t & 1 else 1 << (t - 16))
            key = q << 6 | k
            if key not in seen:
                seen.add(key)
                todo.append((k, q))
        if len(seen) > limit:
            return _fail("too-many", kings, pawns, region, -1, len(seen))
    attacks = ((pawns << 9) & _NOT_A | (pawns << 7) & _NOT_H) & _ALL
    danger = king_attacks_setwise(kings) | attacks | pawns | b
    spare = _KING[bk] & ~danger
    if danger >> bk & 1 or not spare:
        return _fail("no-tempo", kings, pawns, region, bk, len(seen))
    return ShutIn("holds", kings, pawns, region, (1 << bk) | (spare & -spare), -1, len(seen))
