"""The kings' part of a static method's decision (paper 2.3, 3.1, 3.4).

A pawn structure's analysis (:class:`~logic.records.Structure`) does not depend on
the kings; given their squares, :func:`decide` applies, in the paper's order: the
structural failures, White's king below the fence and Black's king not below it,
no zugzwang (Black's king has a vacant square), the structure's first pawn failure,
then the squares the defending king must stand on for dynamic pawns above the
fence (3.1) and for the exception (3.4).
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

import chess

from logic.bitboards import BB_NOT_A, BB_NOT_H
from logic.records import Note, StoredNotes, Structure
from logic.vocab import Code, PaperRule, Rule, SharedCode

__all__ = ["decide", "make_decide", "pawn_guard", "Decision"]

_KING = chess.BB_KING_ATTACKS

#: ``(blocked, rule, code, args)``
Decision = tuple[bool, Rule, Code, tuple[Any, ...]]


def pawn_guard(w: int, b: int) -> int:
    """The squares Black's king cannot step to because of the pawns: those they stand
    on and those White's pawns attack (for the zugzwang test of 2.3)."""
    return w | b | ((w << 7) & BB_NOT_H) | ((w << 9) & BB_NOT_A)


def decide(st: Structure, wk: int, bk: int, king_section: Rule, structural: Container[str],
           notes: Callable[[StoredNotes], tuple[Note, ...]]) -> Decision:
    """``(blocked, rule, code, args)`` from a structure analysis and the kings (oriented
    squares of a legal position: the kings are never adjacent).  ``structural`` holds
    the codes that end the analysis before the kings are looked at, ``notes`` decodes
    the structure's pawn notes (read only when a king requirement fails)."""
    return make_decide(king_section, structural, notes)(st, wk, bk)


def make_decide(king_section: Rule, structural: Container[str],
                notes: Callable[[StoredNotes], tuple[Note, ...]]) -> Callable[[Structure, int, int],
                                                                 Decision]:
    """:func:`decide` with a method's parameters bound: ``decide(st, wk, bk)`` (a closure,
    one call level fewer than a bound method on the detector's hot path)."""

    # the hot path reads locals, not enum members (an attribute of an enum class costs
    # about 0.15 us a read in Python 3.11)
    not_below, defender_below, zugzwang = (SharedCode.KING_NOT_BELOW, SharedCode.DEFENDER_BELOW,
                                           SharedCode.ZUGZWANG)
    pawn, blocked, s23 = SharedCode.PAWN, SharedCode.BLOCKED, PaperRule.S2_3

    def bound(st: Structure, wk: int, bk: int) -> Decision:
        # the detector's hot path: one positional unpack of the structure
        fail_rule, code, args, boards, stored, kmask, used, guard = st
        if code in structural:
            assert fail_rule is not None, "a structural failure names its rule"
            return False, fail_rule, code, args
        below = boards.below
        if not below >> wk & 1:
            return False, king_section, not_below, (wk,)
        if below >> bk & 1:
            return False, king_section, defender_below, (bk,)
        if not _KING[bk] & ~(guard | _KING[wk]):
            return False, s23, zugzwang, (bk,)
        if fail_rule is not None:
            return False, fail_rule, code, args
        if not kmask >> bk & 1:
            first = next(n for n in notes(stored) if n.kmask is not None and not n.kmask >> bk & 1)
            return False, first.rule, pawn, (first.square,)
        assert used is not None, "a structure without a failure names its rule"
        return True, used, blocked, ()

    return bound
