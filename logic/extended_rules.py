"""The extended method's criteria: the table of :data:`RULES` (each criterion's statement,
the explanation of why it should be sound, whether the sweep kept it, and the
counterexample of a dropped one), and the KPK tests of x2 and x3.

The criteria are those of :mod:`logic.extended` (which applies the ones in :data:`USED`):
x1 and x4 analyse the lowest fence (:mod:`logic.lowest_fence`), x2 and x3 one pawn
against the bare king (:func:`kpk_draw`, :func:`kpk_no_promotion`), x5 the shut-in king
(:mod:`logic.shutin`).  Everything is oriented (the side under test is White).
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from logic import kpk
from logic.vocab import ExtendedRule

__all__ = ["Criterion", "RULES", "USED", "USE_X2", "kpk_draw", "kpk_no_promotion"]

_PAWN_ATTACKS_W = chess.BB_PAWN_ATTACKS[chess.WHITE]


class Criterion(NamedTuple):
    """A criterion of the extended method: its ``id`` (the verdict's ``rule``), a one-line
    ``statement``, the ``explanation`` of why it should be sound, and ``used``: False for
    a criterion the sweep found wrong at least once against the exact prover (kept here
    with its counterexample, never applied)."""

    id: ExtendedRule
    statement: str
    explanation: str
    used: bool = True
    counterexample: str = ""


#: the criteria, in the order they are measured (a dropped one is never applied)
RULES: dict[ExtendedRule, Criterion] = {
    ExtendedRule.X1: Criterion(
        ExtendedRule.X1,
        "the lowest fence: the edge of the region White's king reaches from its first rank, "
        "removing only the Black pawns inside it, then the paper's 2.3 and 3.1-3.4",
        "Figure 8 walks the topmost fence and the paper removes every Black pawn below it, "
        "even one behind a lower wall the king can never pass. x1 floods White's king region "
        "from the first rank through unmarked squares (8-connected, as the king moves), takes "
        "only the Black pawns inside it, and uses the region's edge as the fence: any wall "
        "counts, also one Figure 8 cannot walk. The kings, the zugzwang test and the dynamic "
        "pawns are then judged by the paper's own rules on that fence. DROPPED: on a lower "
        "fence the paper's 3.1 (the defending king in front of a pawn above the fence) lets a "
        "protected pawn above it push the king out of the way by zugzwang.",
        used=False,
        counterexample="5k2/8/8/8/p1p1p2p/PpPpPppP/1P1P1P2/6K1 w - - 0 1 (Black: 1...g2 and "
                       "White's king, in front of the pawn on g1, must step aside)",
    ),
    ExtendedRule.X2: Criterion(
        ExtendedRule.X2,
        "KPK draw: one pawn against the bare king, a draw by the bitbase whoever moves",
        "With one pawn against the bare king the exact KPK bitbase decides (built by "
        "retrograde analysis and checked against Syzygy on every position); a static "
        "verdict does not know the side to move, so x2 needs a draw with either side "
        "to move (a side-to-move that would be illegal is skipped). DROPPED: the exact "
        "prover's 'cannot win' is 'cannot force a promotion or mate', and a KPK draw may "
        "still let the pawn promote before the defender takes the new queen.",
        used=False,
        counterexample="8/8/2P1k3/8/8/8/2K5/8 b - - 0 1 (White: 1...Kd6 2.c7 Kxc7 is a draw, "
                       "but with White to move 1.c7 promotes)",
    ),
    ExtendedRule.X3: Criterion(
        ExtendedRule.X3,
        "KPK, the pawn never promotes: one pawn against the bare king that cannot be forced "
        "to promote, whoever moves",
        "x2's corrected twin. The KPK retrograde analysis is run again with any promotion as "
        "the target, safe or not (assets/kpk-promote.bin, kpk.build(safe=False)): where the "
        "strong side cannot force its pawn to the last rank with either side to move, it "
        "never gets more than king and pawn, and a king and a pawn cannot mate.",
    ),
    ExtendedRule.X4: Criterion(
        ExtendedRule.X4,
        "the lowest fence with every dynamic pawn held by the pawns alone: x1 without the "
        "defending king's duties of 3.1 and 3.4",
        "x1's corrected twin: the same region, removal and fence, and the paper's 2.3 and "
        "3.2-3.3 on it, but no dynamic pawn may need the defending king (a pawn above the "
        "fence, 3.1, or the 3.4 exception): the king then only has to keep a vacant square "
        "beyond a wall White's king cannot cross, and no pawn move can take its place away.",
    ),
    ExtendedRule.X5: Criterion(
        ExtendedRule.X5,
        "the shut-in king: with Black's king marking time between two squares, no position "
        "White's king and pawns can reach captures, promotes or comes near Black's king",
        "A strategy for Black proves it: never move a pawn, never capture, step the king back "
        "and forth between two squares no White piece can ever reach or attack. Against it "
        "the Black pawns stand still, so White plays alone; x5 enumerates every position of "
        "White's king and pawns (king steps off attacked squares, pawn pushes) from a king "
        "region that is closed now (at most 24 squares, at most 4,096 positions). If none "
        "lets a pawn attack a Black pawn, the king take an unprotected one, a pawn promote, "
        "or a White piece reach Black's two squares, White never changes the pawns, never "
        "promotes and never gives check: it cannot win, whoever is to move. It sees the "
        "kings boxed in by their own pawns that no fence describes, and self-stalemates.",
    ),
}

#: whether x2 is applied (dropped: False; the sweep still measures it)
USE_X2 = RULES[ExtendedRule.X2].used
#: the criteria the method applies
USED = tuple(r.id for r in RULES.values() if r.used)


def kpk_draw(w: int, b: int, wk: int, bk: int) -> bool:
    """x2 on an oriented position: one White pawn, no Black pawn, and the KPK bitbase
    gives a draw with either side to move (an illegal side to move is skipped: with White
    to move the pawn must not give check)."""
    if b or w & (w - 1) or not w:
        return False
    p = w.bit_length() - 1
    for turn in (chess.WHITE, chess.BLACK):
        if turn and _PAWN_ATTACKS_W[p] >> bk & 1:
            continue  # Black in check with White to move: not a position
        if kpk.probe(*kpk.normalise_squares(chess.WHITE, turn, wk, bk, p)):
            return False
    return True


def kpk_no_promotion(w: int, b: int, wk: int, bk: int) -> bool:
    """x3 on an oriented position: one White pawn, no Black pawn, and the promotion table
    (:func:`logic.kpk.promotes`) says White cannot force the pawn to promote with either
    side to move (an illegal side to move is skipped)."""
    if b or w & (w - 1) or not w:
        return False
    p = w.bit_length() - 1
    for turn in (chess.WHITE, chess.BLACK):
        if turn and _PAWN_ATTACKS_W[p] >> bk & 1:
            continue
        if kpk.promotes(*kpk.normalise_squares(chess.WHITE, turn, wk, bk, p)):
            return False
    return True
