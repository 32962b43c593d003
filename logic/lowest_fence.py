"""x1 and x4, the lowest fence: the edge of the region White's king reaches from its first
rank (8-connected, through unmarked squares), with only the Black pawns inside that
region removed (paper 3), and the paper's rules on that fence.

x4 (applied by :mod:`logic.extended`) needs every dynamic pawn held by the pawns alone;
x1 (dropped, measured by the sweep: :func:`x1_blocked`) also lets the defending king hold
them.  :data:`X4` is x4 as a static analysis of its own (not registered): its kings'
decision (:data:`x4_decide`) and its trace of the kings and pawns, with the section x4.
Everything is oriented (the side under test is White).
"""

from __future__ import annotations

from typing import Any

import chess

from logic.bitboards import (
    BB_ALL,
    BB_NOT_A,
    BB_NOT_H,
    flood_fill,
    king_attacks_setwise,
    north_fill_through,
)
from logic.fence import marking
from logic.paper import classify, paper_notes
from logic.paper_words import paper_note_text
from logic.records import Boards, Note, NoteSeed, StoredNotes, Structure
from logic.static import StaticMethod
from logic.steps import Recorder
from logic.vocab import Code, ExtendedCode, ExtendedRule, PaperCode, SharedCode

__all__ = ["X4_STRUCTURAL", "region_structure", "crosses", "x1_blocked", "RegionRule", "X4",
           "x4_decide"]

_ALL = BB_ALL
_NOT_A = BB_NOT_A
_NOT_H = BB_NOT_H
_RANK_1 = chess.BB_RANK_1
_RANK_8 = chess.BB_RANK_8
_PAWN_ATTACKS_W = chess.BB_PAWN_ATTACKS[chess.WHITE]

#: the failure codes of x4 decided before the kings
X4_STRUCTURAL: frozenset[Code] = frozenset((PaperCode.NO_FENCE, SharedCode.CAPTURE,
                                            ExtendedCode.KING_NEEDED))


def _flood(seed: int, free: int) -> int:
    """The squares 8-connected to ``seed`` through ``free`` (``seed & free`` grown)."""
    return flood_fill(seed & free, free)


def crosses(free: int) -> bool:
    """Whether a king walk through ``free`` leads from the first rank to the last: the
    flood of :func:`_flood` from the first rank, each step followed by a north fill
    through ``free`` (king steps too, so the region is the same), stopped as soon as it
    touches the last rank.  x4's "no wall at all", the usual miss, in a few loops
    instead of seven."""
    region = _RANK_1 & free
    while True:
        region = north_fill_through(region, free)
        if region & _RANK_8:
            return True
        g = king_attacks_setwise(region) & free
        if g == region:
            return False
        region = g


def _no_fence(fixed: int, marked: int, removed: int, region: int) -> Structure:
    raw = Boards(fixed=fixed, marked=marked, fence=0, below=region, removed=removed, flood=region,
                 drowned=0, kmask=_ALL)
    return Structure(fail_rule=ExtendedRule.X4, code=PaperCode.NO_FENCE, args=(), boards=raw,
                     notes=(), kmask=_ALL, used=None, guard=0)


def region_structure(w: int, b: int, rec: Recorder | None = None, paper_fence: int = 0,
                     strict: bool = True) -> Structure:
    """x4's king-independent analysis of the oriented pawns ``(w, b)``: the region White's
    king reaches from its first rank, the Black pawns inside it removed (repeatedly), the
    capture rule (paper 3), and 3.1-3.4 on the region's edge (a paper
    :class:`~logic.records.Structure`, its notes a :class:`~logic.paper.NoteSeed`).
    ``paper_fence`` is the paper's fence, for the trace's difference.  ``strict`` (x4):
    a dynamic pawn that needs the defending king (3.1, 3.4) ends the analysis ("king-needed");
    without it (x1, dropped, measured by the sweep) the kings decide as in the paper."""
    b_att, fixed, marked, files = marking(w, b)
    removed = 0
    bp = b
    while True:
        region = _flood(_RANK_1, _ALL & ~marked) if files & 0xFF == 0xFF else _ALL
        if region & _RANK_8:
            if rec is not None:
                rec.add("x4-region", ExtendedRule.X4, "x4: the king's region",
                        f"x4: {rec.us}'s king region from its first rank reaches the last "
                        "rank: no wall at all, so no lower fence either.",
                        changed=region & _RANK_8, fixed=fixed, marked=marked, removed=removed,
                        below=region, facts=(("rule", ExtendedRule.X4), ("holds", False)))
            return _no_fence(fixed, marked, removed, region)
        gone = bp & region
        if not gone:
            break
        removed |= gone
        bp ^= gone
        if rec is not None:
            rec.add("x4-remove", ExtendedRule.X4, "x4: pawns in the region removed",
                    f"x4: {rec.them} pawn(s) {rec.names(gone)} stand inside {rec.us}'s king "
                    "region, where the king may take them: removed, and the region is "
                    "flooded again.",
                    changed=gone, fixed=fixed, marked=marked, below=region, removed=removed,
                    removed_now=gone, facts=(("rule", ExtendedRule.X4),))
        b_att, fixed, marked, files = marking(w, bp)
    fence = king_attacks_setwise(region) & marked
    above = _flood(_RANK_8, _ALL & ~(region | fence))
    sf = _ALL & ~above
    if rec is not None:
        joined, left = fence & ~paper_fence, paper_fence & ~fence
        diff = "; ".join(f"{rec.names(bb)} {verb} it" for bb, verb in
                         ((left, "left"), (joined, "joined")) if bb)
        rec.add("x4-region", ExtendedRule.X4, "x4: the king's region",
                f"x4: {rec.us}'s king region from its first rank is closed ({region.bit_count()}"
                f" squares); its edge is the lowest fence: {rec.names(fence)}"
                + (f" (against the paper's fence: {diff})." if paper_fence and diff else "."),
                changed=joined | left, fixed=fixed, marked=marked, fence=fence, below=region,
                removed=removed, joined=joined if paper_fence else 0,
                left=left if paper_fence else 0, facts=(("rule", ExtendedRule.X4), ("holds", True)))
    rm_att = ((removed >> 9) & _NOT_H) | ((removed >> 7) & _NOT_A)
    if w & rm_att:
        takers = w & rm_att
        p = (takers & -takers).bit_length() - 1
        hit = _PAWN_ATTACKS_W[p] & removed
        t = (hit & -hit).bit_length() - 1
        if rec is not None:
            rec.add("x4-capture", ExtendedRule.X4, "x4: a pawn can capture",
                    f"{rec.name(p)} can take {rec.name(t)}: the structure changes, no blockage "
                    f"(x4, as paper 3).", changed=(1 << p) | (1 << t), square=p, fence=fence,
                    below=region, removed=removed)
        raw = Boards(fixed=fixed, marked=marked, fence=fence, below=region, removed=removed,
                     flood=region, drowned=0, kmask=_ALL)
        return Structure(fail_rule=ExtendedRule.X4, code=SharedCode.CAPTURE, args=(p, t),
                         boards=raw, notes=(), kmask=_ALL, used=None, guard=0)
    guard = w | b | ((w << 7) & _NOT_H) | ((w << 9) & _NOT_A)  # kings.pawn_guard
    if not w & ~fixed:
        raw = Boards(fixed=fixed, marked=marked, fence=fence, below=region, removed=removed,
                     flood=region, drowned=0, kmask=_ALL)
        return Structure(fail_rule=None, code=SharedCode.NONE, args=(), boards=raw, notes=(),
                         kmask=_ALL, used=ExtendedRule.X4, guard=guard)
    c = classify(w, bp, fixed, b_att, fence, sf)
    fail, kmask = c.fail, c.kmask
    raw = Boards(fixed=fixed, marked=marked, fence=fence, below=region, removed=removed,
                 flood=region, drowned=0, kmask=kmask)
    seed = NoteSeed(w=w, bp=bp, fixed=fixed, b_att=b_att, fence=fence, sf=sf)
    if strict and fail < 0 and kmask != _ALL:
        if rec is not None:
            rec.add("x4-king-needed", ExtendedRule.X4, "x4: a pawn needs the king",
                    f"x4: a dynamic {rec.us} pawn is held only by {rec.them}'s king (3.1 or "
                    "3.4): on a lower fence the king may be pushed aside by zugzwang, so x4 "
                    "does not apply.", changed=kmask ^ _ALL if kmask else 0, fence=fence,
                    below=region, facts=(("rule", ExtendedRule.X4), ("holds", False)))
        return Structure(fail_rule=ExtendedRule.X4, code=ExtendedCode.KING_NEEDED, args=(),
                         boards=raw, notes=seed, kmask=kmask, used=None, guard=guard)
    if fail >= 0:
        return Structure(fail_rule=ExtendedRule.X4, code=SharedCode.PAWN, args=(fail,), boards=raw,
                         notes=seed, kmask=kmask, used=ExtendedRule.X4, guard=guard)
    return Structure(fail_rule=None, code=SharedCode.NONE, args=(), boards=raw, notes=seed,
                     kmask=kmask, used=ExtendedRule.X4, guard=guard)


class RegionRule(StaticMethod):
    """x4 as a static analysis of its own (not registered): its ``decide`` and trace of the
    kings and pawns, with the section "x4"."""

    name = "extended"
    king_section = ExtendedRule.X4
    structural = X4_STRUCTURAL

    def structure(self, w: int, b: int, rec: Recorder | None = None) -> Structure:
        return region_structure(w, b, rec)

    def notes(self, stored: StoredNotes) -> tuple[Note, ...]:
        return paper_notes(stored) if isinstance(stored, NoteSeed) else stored

    def note_text(self, name: Any, note: Note, ok: bool, bk: int) -> str | None:
        return paper_note_text(name, note, ok)


def x1_blocked(w: int, b: int, wk: int, bk: int) -> bool:
    """The dropped x1 on an oriented position (the sweep measures it): the lowest fence
    with the paper's rules, the defending king's duties (3.1, 3.4) included."""
    st = region_structure(w, b, strict=False)
    return st.fail_rule is None and x4_decide(st, wk, bk)[0]


#: x4 as a static analysis
X4 = RegionRule()
#: x4's kings' decision: ``(blocked, rule, code, args)`` (:func:`logic.kings.make_decide`)
x4_decide = X4.decide
