"""The extended method: the paper's rules plus new criteria, each proved sound by the data.

``method="extended"`` decides as the paper does (:mod:`logic.paper`); where the paper
proves no blockage it tries, in order, the criteria of :data:`RULES` ("x1", "x2", ...),
each a named rule with a one-line statement, an explanation, its own trace steps and the
boards the viewer draws.  A criterion is kept only if it has no error against the exact
prover (``method="exact"``) on at least 200,000 generated near-fortress positions and
every corpus (``benchmarks/extended_sweep.py``; the README's rule table): *sound or
silent*.  Where no criterion applies the verdict is the paper's, field for field (only
``method`` differs), so extended never takes a paper blockage away.

* **x1, the lowest fence** (dropped): the fence is the edge of the region White's king
  can reach from its first rank (8-connected, through unmarked squares), not the topmost
  path Figure 8 walks; only the Black pawns inside that region are removed (paper 3), so a
  pawn behind a lower wall keeps fixing the White pawn under it, and any a-to-h wall is
  found, also one Figure 8 cannot walk.  Then the paper's kings (2.3) and dynamic-pawn
  rules (3.1-3.4) on that fence.  Wrong against exact: the paper's 3.1 (the defending king
  in front of a pawn above the fence) fails by zugzwang on such a fence.
* **x2, KPK draw** (dropped): one pawn against the bare king, and the KPK bitbase
  (:mod:`logic.kpk`) gives a draw with either side to move.  Wrong against exact, whose
  "cannot win" is "cannot force a promotion or mate": a KPK draw may still let the pawn
  promote before the queen is taken.
* **x3, KPK, the pawn never promotes** (x2's corrected twin): the same, with a table whose
  target is any promotion, safe or not (:func:`logic.kpk.promotes`).
* **x4, the lowest fence, pawns held by pawns** (x1's corrected twin): x1 where no dynamic
  pawn needs the defending king (no 3.1 pawn above the fence, no 3.4 exception).
* **x5, the shut-in king** (:mod:`logic.shutin`): with Black only stepping its king
  between two squares, every position White's king and pawns can reach is enumerated;
  none captures, promotes or comes near Black's king.

A dropped rule's code stays (the sweep measures it: :func:`x1_blocked`, ``_USE_X2``) but
the method never applies it.

Everything is oriented (the side under test is White), as in the paper's module.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

import chess

from logic import kpk
from logic.bitboards import (
    BB_ALL,
    BB_NOT_A,
    BB_NOT_H,
    flip,
    flood_fill,
    king_attacks_setwise,
    north_fill_through,
    orient,
    pawn_attacks,
)
from logic.fence import marking
from logic.paper import PAPER, classify, paper_note_text, paper_notes
from logic.records import Boards, Note, NoteSeed, StoredNotes, Structure
from logic.shutin import (
    REGION_LIMIT,
    STATE_LIMIT,
    ShutIn,
    king_box,
    shut_in,
    shut_in_squares,
)
from logic.static import CACHE_LIMIT, StaticMethod
from logic.steps import Recorder
from logic.verdict import Verdict
from logic.vocab import Rule, Status

__all__ = ["EXTENDED", "ExtendedMethod", "Criterion", "RULES", "region_structure", "kpk_draw",
           "X4_STRUCTURAL", "USED", "kpk_no_promotion", "x1_blocked"]

_ALL = BB_ALL
_NOT_A = BB_NOT_A
_NOT_H = BB_NOT_H
_RANK_1 = chess.BB_RANK_1
_RANK_8 = chess.BB_RANK_8
_PAWN_ATTACKS_W = chess.BB_PAWN_ATTACKS[chess.WHITE]


class Criterion(NamedTuple):
    """A criterion of the extended method: its ``id`` (the verdict's ``rule``), a one-line
    ``statement``, the ``explanation`` of why it should be sound, and ``used``: False for
    a criterion the sweep found wrong at least once against the exact prover (kept here
    with its counterexample, never applied)."""

    id: Rule
    statement: str
    explanation: str
    used: bool = True
    counterexample: str = ""


#: the criteria, in the order they are measured (a dropped one is never applied)
RULES: dict[str, Criterion] = {
    Rule.X1: Criterion(
        Rule.X1,
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
    Rule.X2: Criterion(
        Rule.X2,
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
    Rule.X3: Criterion(
        Rule.X3,
        "KPK, the pawn never promotes: one pawn against the bare king that cannot be forced "
        "to promote, whoever moves",
        "x2's corrected twin. The KPK retrograde analysis is run again with any promotion as "
        "the target, safe or not (assets/kpk-promote.bin, kpk.build(safe=False)): where the "
        "strong side cannot force its pawn to the last rank with either side to move, it "
        "never gets more than king and pawn, and a king and a pawn cannot mate.",
    ),
    Rule.X4: Criterion(
        Rule.X4,
        "the lowest fence with every dynamic pawn held by the pawns alone: x1 without the "
        "defending king's duties of 3.1 and 3.4",
        "x1's corrected twin: the same region, removal and fence, and the paper's 2.3 and "
        "3.2-3.3 on it, but no dynamic pawn may need the defending king (a pawn above the "
        "fence, 3.1, or the 3.4 exception): the king then only has to keep a vacant square "
        "beyond a wall White's king cannot cross, and no pawn move can take its place away.",
    ),
    Rule.X5: Criterion(
        Rule.X5,
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

_USE_X2 = RULES[Rule.X2].used
#: the criteria the method applies
USED = tuple(r.id for r in RULES.values() if r.used)

#: the failure codes of x4 decided before the kings
X4_STRUCTURAL = frozenset(("no-fence", "capture", "king-needed"))


def _flood(seed: int, free: int) -> int:
    """The squares 8-connected to ``seed`` through ``free`` (``seed & free`` grown)."""
    return flood_fill(seed & free, free)


def _crosses(free: int) -> bool:
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
    return Structure(fail_rule=Rule.X4, code="no-fence", args=(), boards=raw, notes=(),
                     kmask=_ALL, used="", guard=0)


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
                rec.add("x4-region", Rule.X4, "x4: the king's region",
                        f"x4: {rec.us}'s king region from its first rank reaches the last "
                        "rank: no wall at all, so no lower fence either.",
                        changed=region & _RANK_8, fixed=fixed, marked=marked, removed=removed,
                        below=region, facts=(("rule", Rule.X4), ("holds", False)))
            return _no_fence(fixed, marked, removed, region)
        gone = bp & region
        if not gone:
            break
        removed |= gone
        bp ^= gone
        if rec is not None:
            rec.add("x4-remove", Rule.X4, "x4: pawns in the region removed",
                    f"x4: {rec.them} pawn(s) {rec.names(gone)} stand inside {rec.us}'s king "
                    "region, where the king may take them: removed, and the region is "
                    "flooded again.",
                    changed=gone, fixed=fixed, marked=marked, below=region, removed=removed,
                    removed_now=gone, facts=(("rule", Rule.X4),))
        b_att, fixed, marked, files = marking(w, bp)
    fence = king_attacks_setwise(region) & marked
    above = _flood(_RANK_8, _ALL & ~(region | fence))
    sf = _ALL & ~above
    if rec is not None:
        joined, left = fence & ~paper_fence, paper_fence & ~fence
        diff = "; ".join(f"{rec.names(bb)} {verb} it" for bb, verb in
                         ((left, "left"), (joined, "joined")) if bb)
        rec.add("x4-region", Rule.X4, "x4: the king's region",
                f"x4: {rec.us}'s king region from its first rank is closed ({region.bit_count()}"
                f" squares); its edge is the lowest fence: {rec.names(fence)}"
                + (f" (against the paper's fence: {diff})." if paper_fence and diff else "."),
                changed=joined | left, fixed=fixed, marked=marked, fence=fence, below=region,
                removed=removed, joined=joined if paper_fence else 0,
                left=left if paper_fence else 0, facts=(("rule", Rule.X4), ("holds", True)))
    rm_att = ((removed >> 9) & _NOT_H) | ((removed >> 7) & _NOT_A)
    if w & rm_att:
        takers = w & rm_att
        p = (takers & -takers).bit_length() - 1
        hit = _PAWN_ATTACKS_W[p] & removed
        t = (hit & -hit).bit_length() - 1
        if rec is not None:
            rec.add("x4-capture", Rule.X4, "x4: a pawn can capture",
                    f"{rec.name(p)} can take {rec.name(t)}: the structure changes, no blockage "
                    f"(x4, as paper 3).", changed=(1 << p) | (1 << t), square=p, fence=fence,
                    below=region, removed=removed)
        raw = Boards(fixed=fixed, marked=marked, fence=fence, below=region, removed=removed,
                     flood=region, drowned=0, kmask=_ALL)
        return Structure(fail_rule=Rule.X4, code="capture", args=(p, t), boards=raw, notes=(),
                         kmask=_ALL, used="", guard=0)
    guard = w | b | ((w << 7) & _NOT_H) | ((w << 9) & _NOT_A)  # kings.pawn_guard
    if not w & ~fixed:
        raw = Boards(fixed=fixed, marked=marked, fence=fence, below=region, removed=removed,
                     flood=region, drowned=0, kmask=_ALL)
        return Structure(fail_rule=None, code="", args=(), boards=raw, notes=(), kmask=_ALL,
                         used=Rule.X4, guard=guard)
    c = classify(w, bp, fixed, b_att, fence, sf)
    fail, kmask = c.fail, c.kmask
    raw = Boards(fixed=fixed, marked=marked, fence=fence, below=region, removed=removed,
                 flood=region, drowned=0, kmask=kmask)
    seed = NoteSeed(w=w, bp=bp, fixed=fixed, b_att=b_att, fence=fence, sf=sf)
    if strict and fail < 0 and kmask != _ALL:
        if rec is not None:
            rec.add("x4-king-needed", Rule.X4, "x4: a pawn needs the king",
                    f"x4: a dynamic {rec.us} pawn is held only by {rec.them}'s king (3.1 or "
                    "3.4): on a lower fence the king may be pushed aside by zugzwang, so x4 "
                    "does not apply.", changed=kmask ^ _ALL if kmask else 0, fence=fence,
                    below=region, facts=(("rule", Rule.X4), ("holds", False)))
        return Structure(fail_rule=Rule.X4, code="king-needed", args=(), boards=raw, notes=seed,
                         kmask=kmask, used="", guard=guard)
    if fail >= 0:
        return Structure(fail_rule=Rule.X4, code="pawn", args=(fail,), boards=raw, notes=seed,
                         kmask=kmask, used=Rule.X4, guard=guard)
    return Structure(fail_rule=None, code="", args=(), boards=raw, notes=seed, kmask=kmask,
                     used=Rule.X4, guard=guard)


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


def x1_blocked(w: int, b: int, wk: int, bk: int) -> bool:
    """The dropped x1 on an oriented position (the sweep measures it): the lowest fence
    with the paper's rules, the defending king's duties (3.1, 3.4) included."""
    st = region_structure(w, b, strict=False)
    return st.fail_rule is None and _x4_decide(st, wk, bk)[0]


class _RegionRule(StaticMethod):
    """x4 as a static analysis of its own (not registered): its ``decide`` and trace of the
    kings and pawns, with the section "x4"."""

    name = "extended"
    king_section = Rule.X4
    structural = X4_STRUCTURAL

    def structure(self, w: int, b: int, rec: Recorder | None = None) -> Structure:
        return region_structure(w, b, rec)

    def notes(self, stored: StoredNotes) -> tuple[Note, ...]:
        return paper_notes(stored) if isinstance(stored, NoteSeed) else stored

    def note_text(self, name: Any, note: Note, ok: bool, bk: int) -> str | None:
        return paper_note_text(name, note, ok)


class SearchEntry(NamedTuple):
    """The search cache's entry for a pawn structure and a colour (oriented squares):
    the paper's structure and x4's (None where it fails whatever the kings), the KPK
    pawn's square (-1: not KPK) and the squares where White's king can be shut in (x5,
    :func:`~logic.shutin.shut_in_squares`; 0: nowhere)."""

    paper: Structure | None
    x4: Structure | None
    kpk_pawn: int
    x5: int


#: an entry of the search cache: a :class:`SearchEntry`; only the x5 squares (an ``int``)
#: when nothing else can hold; ``_HOPELESS`` or ``_MATERIAL``
_Entry = SearchEntry | int | tuple[str]

_X4 = _RegionRule()
_x4_decide = _X4.decide
_KPK_RAW = Boards(0, 0, 0, 0, 0, 0, 0, _ALL)


class ExtendedMethod(StaticMethod):
    """The paper's method plus the criteria of :data:`RULES` (sound against the exact
    prover on the sweep of ``benchmarks/extended_sweep.py``)."""

    name = "extended"
    label = "extended (paper + x3-x5)"
    title = "David, Felner & Netanyahu (2004) plus criteria checked against the exact prover"
    king_section = Rule.PAPER_2_3
    region = "below"
    structural = PAPER.structural
    rules = RULES
    #: x5's king mask: the two squares the defending king marks time on
    kingmap_codes = frozenset(("shut-in",))

    def __init__(self) -> None:
        super().__init__()
        #: (w, b) oriented -> x4's Structure, or None where x4 cannot apply
        self.regions: dict[tuple[int, int], Structure | None] = {}
        #: (w, b, wk, bk) oriented -> x5's outcome, where its scope tests pass
        self.boxes: dict[tuple[int, int, int, int], ShutIn] = {}
        #: the search's cache: (w, b, colour) unoriented -> what :meth:`_entry` says
        self.entries: dict[tuple[int, int, bool], _Entry] = {}

    # -- the untraced verdicts -----------------------------------------------------
    def structure(self, w: int, b: int, rec: Recorder | None = None) -> Structure:
        return PAPER.structure(w, b, rec)

    def region_of(self, w: int, b: int) -> Structure | None:
        """x4's structure for the oriented pawns, cached; None when there is no wall at
        all."""
        key = (w, b)
        try:
            return self.regions[key]
        except KeyError:
            pass
        marked = marking(w, b)[2]
        if _crosses(_ALL & ~marked):
            st = None  # no wall at all (nothing removed): the usual miss, kept small
        else:
            st = region_structure(w, b)
            if st.fail_rule is not None and st.code == "no-fence" and not st.boards.removed:
                st = None
        if len(self.regions) >= CACHE_LIMIT:
            self.regions.clear()
        self.regions[key] = st
        return st

    def extra(self, w: int, b: int, wk: int, bk: int, color: bool, x5: bool = True
              ) -> Verdict | None:
        """The first criterion that proves a blockage, as a verdict, or None (``x5``
        False: the caller knows that a pawn attacks an enemy pawn, so x5 cannot apply)."""
        if not b:
            if _USE_X2 and kpk_draw(w, b, wk, bk):
                return _blocked(color, Rule.X2, "kpk-draw", (w.bit_length() - 1,), _KPK_RAW,
                                (), (wk, bk))
            if kpk_no_promotion(w, b, wk, bk):
                return _blocked(color, Rule.X3, "kpk-stopped", (w.bit_length() - 1,), _KPK_RAW,
                                (), (wk, bk))
            return None
        st = self.region_of(w, b)
        if st is not None and st.fail_rule is None and _x4_decide(st, wk, bk)[0]:
            return _blocked(color, Rule.X4, "blocked", (), st.boards, st.notes, (wk, bk))
        return self.x5(w, b, wk, bk, color) if x5 else None

    def shut_in(self, w: int, b: int, wk: int, bk: int, region: int = 0) -> ShutIn:
        """:func:`logic.shutin.shut_in` on the oriented position, cached."""
        key = (w, b, wk, bk)
        r = self.boxes.get(key)
        if r is None:
            if len(self.boxes) >= CACHE_LIMIT:
                self.boxes.clear()
            r = self.boxes[key] = shut_in(w, b, wk, bk, region=region)
        return r

    def x5(self, w: int, b: int, wk: int, bk: int, color: bool, region: int = 0
           ) -> Verdict | None:
        """x5's verdict on the oriented position where it proves a blockage, else None;
        ``region``: White's king region when the caller has run the scope tests."""
        b_att = pawn_attacks(b, chess.BLACK)
        if not region:
            if not b or w & b_att:
                return None
            region = king_box(w, b_att, b, wk, bk)
            if not region:
                return None
        r = self.shut_in(w, b, wk, bk, region)
        if not r.holds:
            return None
        walls = king_attacks_setwise(r.kings) & ~r.kings
        raw = Boards(fixed=marking(w, b)[1], marked=b_att, fence=walls, below=r.kings,
                     removed=0, flood=r.kings, drowned=0, kmask=r.tempo)
        return _blocked(color, Rule.X5, "shut-in", (r.states,), raw, (), (wk, bk))

    def x5_unoriented(self, w: int, b: int, wk: int, bk: int, color: bool) -> Verdict | None:
        """:meth:`x5` for ``color`` on the board's own bitboards, the king-region scope test
        before orienting.  The caller has checked that no pawn attacks an enemy pawn.  (The
        detector's hot path: the pawn attacks are written out, as in :meth:`pair`.)"""
        if color:
            if not b:
                return None
            region = king_box(w, ((b >> 9) & _NOT_H) | ((b >> 7) & _NOT_A), b, wk, bk)
            return self.x5(w, b, wk, bk, True, region) if region else None
        if not w:
            return None
        region = king_box(b, ((w << 9) & _NOT_A | (w << 7) & _NOT_H) & _ALL, w, bk, wk)
        return (self.x5(flip(b), flip(w), bk ^ 0x38, wk ^ 0x38, False, flip(region))
                if region else None)

    def verdict(self, w: int, b: int, wk: int, bk: int, color: bool, shortcuts: bool = True
                ) -> Verdict:
        pv = PAPER.verdict(w, b, wk, bk, color, shortcuts)
        return self._extend(pv, w, b, wk, bk, color)

    def _extend(self, pv: Verdict, w: int, b: int, wk: int, bk: int, color: bool) -> Verdict:
        if pv.is_deferred:
            # the paper's cannot_hold: its conditions (a king on the wrong side of every
            # marked square of its file, a lever whose attacker is never removed) rule out
            # x4's fence too, which also lies in the marked squares and only loses marked
            # squares by removal; and a KPK board never gets here (no marked squares).
            # x5 has no fence: it is tried
            x = self.x5(w, b, wk, bk, color)
            if x is not None:
                return x
            return Verdict.deferred(color, "extended", (w, b, wk, bk))
        if not pv.blocked:
            x = self.extra(w, b, wk, bk, color)
            if x is not None:
                return x
        return _relabel(pv)

    def pair(self, w: int, b: int, wk: int, bk: int) -> tuple[Verdict, Verdict]:
        """Black's and White's verdicts: the paper's fast pair, then the criteria for a
        side the paper does not block, oriented only when a criterion can apply."""
        black, white = _paper_pair(w, b, wk, bk)
        # x5 needs no pawn attacking an enemy pawn: one test for both colours
        x5 = not w & (((b >> 9) & _NOT_H) | ((b >> 7) & _NOT_A))
        return (self._side(black, w, b, wk, bk, False, x5),
                self._side(white, w, b, wk, bk, True, x5))

    def _side(self, pv: Verdict, w: int, b: int, wk: int, bk: int, color: bool, x5: bool
              ) -> Verdict:
        """One side of :meth:`pair`: ``pv`` is the paper's verdict, already named
        "extended" (:meth:`~logic.paper.PaperMethod.labelled_pair`), kept unless a
        criterion proves a blockage the paper does not."""
        if pv.is_deferred:  # see _extend
            x = self.x5_unoriented(w, b, wk, bk, color) if x5 else None
            return pv if x is None else x
        if not pv.blocked:
            # the detector's hot path: the fast pair may store a plain tuple of boards
            # (marked squares at 1, removed pawns at 4, the order of logic.records.Boards)
            raw = pv.raw
            # x4 needs a marked square on every file of the first marking (removal only
            # takes marked squares away, so the paper's marking says it when it removed
            # nothing); x3 needs no pawn of the defender
            m = raw[1] | raw[1] >> 32
            m |= m >> 16
            if (m | m >> 8) & 0xFF == 0xFF or raw[4] or not (b if color else w):
                x = self.extra(*orient(w, b, wk, bk, color), color, x5)
            else:
                x = self.x5_unoriented(w, b, wk, bk, color) if x5 else None
            if x is not None:
                return x
        return pv

    def is_blocked(self, w: int, b: int, wk: int, bk: int, color: bool) -> bool:
        """The search's interior-node test: the paper's structure, x4's and the squares
        where x5 can shut a king in, cached together per pawn structure and colour (one
        lookup a node), then the kings (x5's walk only for a king inside such a box)."""
        e = self.entries.get((w, b, color))
        if e is None:
            e = self._entry(w, b, bool(color))
        if e is _HOPELESS:
            return False
        if e is _MATERIAL:
            return True
        if isinstance(e, int):  # only x5 can hold: the squares where a king is shut in
            return (e >> (wk if color else bk ^ 0x38) & 1 == 1
                    and self.x5_unoriented(w, b, wk, bk, color) is not None)
        assert isinstance(e, SearchEntry)
        pst, xst, kpk_pawn, x5 = e  # the search's interior-node test: one positional unpack
        owk, obk = (wk, bk) if color else (bk ^ 0x38, wk ^ 0x38)
        # each decide only where White's king stands below its fence (its first test)
        if (pst is not None and pst.boards.below >> owk & 1
                and _paper_decide(pst, owk, obk)[0]):
            return True
        if xst is not None and xst.boards.below >> owk & 1 and _x4_decide(xst, owk, obk)[0]:
            return True
        if kpk_pawn >= 0:
            return ((_USE_X2 and kpk_draw(1 << kpk_pawn, 0, owk, obk))
                    or kpk_no_promotion(1 << kpk_pawn, 0, owk, obk))
        # x5: the structure's closed boxes, then the king's own region and the search
        return x5 >> owk & 1 == 1 and self.x5_unoriented(w, b, wk, bk, color) is not None

    def _entry(self, w: int, b: int, color: bool) -> _Entry:
        """The search cache's entry for the unoriented pawns and a colour: the paper's
        structure (None if it fails whatever the kings), x4's (likewise), the KPK
        pawn's oriented square (-1: not KPK) and the oriented squares where White's king
        can be shut in (x5, :func:`~logic.shutin.shut_in_squares`; 0: nowhere); only those
        squares (an ``int``) when nothing else can hold; :data:`_HOPELESS` when nothing
        can hold at all,
        :data:`_MATERIAL` when the side has no pawns."""
        ow, ob = (w, b) if color else (chess.flip_vertical(b), chess.flip_vertical(w))
        e: _Entry
        if not ow:
            e = _MATERIAL
        else:
            pst = PAPER.cached_structure(ow, ob)
            marked, removed = pst.boards.marked, pst.boards.removed
            m = marked | marked >> 32
            m |= m >> 16
            # x4 needs a marked square on every file (the paper's marking is the first
            # one when it removed nothing)
            xst = self.region_of(ow, ob) if removed or (m | m >> 8) & 0xFF == 0xFF else None
            kpk_pawn = ow.bit_length() - 1 if not ob and not ow & (ow - 1) else -1
            # x5 needs a defender's pawn, no pawn attacking an enemy pawn, and White's king
            # in a closed box (the oriented squares where that can be)
            ob_att = pawn_attacks(ob, chess.BLACK)
            x5 = shut_in_squares(ow, ob_att, ob) if ob and not ow & ob_att else 0
            entry = SearchEntry(paper=pst if pst.fail_rule is None else None,
                                x4=xst if xst is not None and xst.fail_rule is None else None,
                                kpk_pawn=kpk_pawn, x5=x5)
            if entry.paper is None and entry.x4 is None and kpk_pawn < 0:
                e = x5 or _HOPELESS
            else:
                e = entry
        if len(self.entries) >= CACHE_LIMIT:
            self.entries.clear()
        self.entries[(w, b, color)] = e
        return e

    # -- the trace -----------------------------------------------------------------
    def analyse(self, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder) -> Verdict:
        """The paper's traced analysis, its verdict as a step, then each criterion's steps
        until one proves a blockage, then the verdict."""
        pv = PAPER.analyse(w, b, wk, bk, color, rec)
        if rec.steps and rec.steps[-1].kind == "verdict":
            last = rec.steps[-1]
            text = (f"The paper's rules prove the blockage ({pv.rule}): nothing to add."
                    if pv.blocked else f"The paper's rules prove no blockage ({pv.rule}): "
                    "the extended criteria are tried next.")
            rec.steps[-1] = replace(last, kind="paper-verdict", phase="the paper's verdict",
                                    text=text,
                                    facts=(("blocked", pv.blocked), ("rule", pv.rule)))
        v = _relabel(pv)
        if w and not pv.blocked:
            v = self._trace_rules(w, b, wk, bk, color, rec, pv) or v
        boards = v.boards
        rec.add("verdict", v.rule, "verdict", v.headline + ".", fence=boards.fence,
                below=boards.below, marked=boards.marked)
        return v._replace(steps=tuple(rec.steps))

    def _trace_rules(self, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder,
                     pv: Verdict) -> Verdict | None:
        if not b and not w & (w - 1):
            return self._trace_kpk(w, b, wk, bk, color, rec)
        if marking(w, b)[3] & 0xFF != 0xFF:
            rec.add("x4-region", Rule.X4, "x4: the king's region",
                    "x4: a file without a marked square: no wall at all, so no lower fence.",
                    facts=(("rule", Rule.X4), ("holds", False)))
        else:
            x = self._trace_x4(w, b, wk, bk, color, rec, pv)
            if x is not None:
                return x
        return self._trace_x5(w, b, wk, bk, color, rec) if b else None

    def _trace_x4(self, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder,
                  pv: Verdict) -> Verdict | None:
        st = region_structure(w, b, rec, pv.boards.fence)
        if st.code in X4_STRUCTURAL:
            return None
        blocked, _rule, code, _args = _x4_decide(st, wk, bk)
        first = len(rec.steps)
        _X4._record_kings_and_pawns(rec, st, wk, bk, code)
        for i in range(first, len(rec.steps)):  # x4's own kinds and phases (the code pane)
            s = rec.steps[i]
            rec.steps[i] = replace(s, kind=f"x4-{s.kind}", phase=f"x4: {s.phase}")
        if blocked:
            return self.extra(w, b, wk, bk, color)
        return None

    def _trace_x5(self, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder
                  ) -> Verdict | None:
        """x5's steps: the king's box now, the positions White can reach with Black marking
        time, Black's two squares; the verdict where it holds."""
        r = shut_in(w, b, wk, bk)
        b_att = pawn_attacks(b, chess.BLACK)
        us, them = rec.us, rec.them
        facts = (("rule", Rule.X5), ("holds", r.holds), ("code", r.code), ("states", r.states))
        if r.code in ("lever", "open"):
            text = (f"{us}'s pawn on {rec.name(r.square)} attacks a {them} pawn: the pawns "
                    "can change, so x5 does not apply." if r.code == "lever" else
                    f"{us}'s king is not shut in: its region reaches a {them} pawn or "
                    f"{them}'s king, or has more than {REGION_LIMIT} squares.")
            rec.add("x5-region", Rule.X5, "x5: the king's box", text,
                    changed=(1 << r.square) if r.square >= 0 else 0, marked=b_att,
                    facts=facts)
            return None
        n = r.region.bit_count()
        on = rec.names(r.region) if n <= 4 else f"{n} squares"
        rec.add("x5-region", Rule.X5, "x5: the king's box",
                f"{us}'s king is shut in ({on}) by {them}'s pawn attacks and its own pawns; "
                f"{them} now only marks time with its king.",
                changed=r.region, marked=b_att, below=r.region, facts=facts)
        where = rec.name(r.square) if r.square >= 0 else ""
        failed = {
            "capture": f"A {us} pawn can reach {where}, where it attacks a {them} pawn",
            "promotion": f"A {us} pawn can reach {where} and promote",
            "king-takes": f"{us}'s king can reach {where} and take the unprotected {them} pawn",
            "too-many": f"More than {STATE_LIMIT:,} positions: x5 gives up",
            "no-tempo": f"{us}'s pieces come near {them}'s king (at {where}): {them} has no "
                        "two safe squares to step between",
        }
        moved = r.pawns & ~w
        if not r.holds:
            rec.add("x5-search", Rule.X5, "x5: every position",
                    f"{failed[r.code]} ({r.states:,} positions explored): x5 does not "
                    "apply.",
                    changed=(1 << r.square) if r.square >= 0 else moved, marked=b_att,
                    below=r.kings, facts=facts)
            return None
        rec.add("x5-search", Rule.X5, "x5: every position",
                f"While {them} marks time, {us} reaches {r.states:,} positions (king and "
                "pawns); in none can it capture or promote.",
                changed=moved | r.kings, marked=b_att, below=r.kings, facts=facts)
        rec.add("x5-tempo", Rule.X5, "x5: marking time",
                f"{them}'s king steps between "
                + " and ".join(rec.name(sq) for sq in chess.scan_forward(r.tempo))
                + f" for ever, out of {us}'s reach: {us} cannot win, whoever moves.",
                changed=r.tempo, marked=b_att, below=r.kings, kingmap=r.tempo, facts=facts)
        return self.x5(w, b, wk, bk, color)

    def _trace_kpk(self, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder
                   ) -> Verdict | None:
        p = w.bit_length() - 1
        if _USE_X2:
            draw = kpk_draw(w, b, wk, bk)
            rec.add("x2-kpk", Rule.X2, "x2: KPK",
                    f"x2: one {rec.us} pawn ({rec.name(p)}) against the bare king; the KPK "
                    "bitbase gives " + ("a draw whoever moves: blockage." if draw else
                                        "a win with at least one side to move."),
                    changed=1 << p, square=p, facts=(("rule", Rule.X2), ("holds", draw),
                                                     ("statement", RULES[Rule.X2].statement)))
        stopped = kpk_no_promotion(w, b, wk, bk)
        rec.add("x3-kpk", Rule.X3, "x3: KPK promotion",
                f"x3: one {rec.us} pawn ({rec.name(p)}) against the bare king; the promotion "
                "table says " + (f"{rec.us} cannot force it to promote, whoever moves: "
                                 "blockage." if stopped else
                                 f"{rec.us} can force it to promote with at least one side "
                                 "to move."),
                changed=1 << p, square=p, facts=(("rule", Rule.X3), ("holds", stopped),
                                                 ("statement", RULES[Rule.X3].statement)))
        return self.extra(w, b, wk, bk, color)

    # -- words ---------------------------------------------------------------------
    def notes(self, stored: StoredNotes) -> tuple[Note, ...]:
        return paper_notes(stored) if isinstance(stored, NoteSeed) else stored

    def reason(self, v: Verdict, name: Any) -> str | None:
        if v.code == "shut-in":
            return (f"{name.us}'s king is shut in: with {name.them}'s king stepping between two "
                    f"squares, none of the {v.args[0]:,} positions {name.us}'s king and pawns "
                    f"can reach captures, promotes or comes near it ({v.rule})")
        if v.code == "kpk-draw":
            return (f"one {name.us} pawn against the bare king: the KPK bitbase gives a draw "
                    f"whoever moves ({v.rule})")
        if v.code == "kpk-stopped":
            return (f"one {name.us} pawn against the bare king that cannot be forced to "
                    f"promote, whoever moves ({v.rule})")
        return PAPER.reason(v, name)

    def headline(self, v: Verdict) -> str | None:
        if v.code == "shut-in":
            return f"{v.side} cannot win: the king is shut in ({v.rule})"
        if v.code == "kpk-draw":
            return f"{v.side} cannot win: KPK draw ({v.rule})"
        if v.code == "kpk-stopped":
            return f"{v.side} cannot win: the pawn never promotes ({v.rule})"
        return None

    def note_text(self, name: Any, note: Note, ok: bool, bk: int) -> str | None:
        return paper_note_text(name, note, ok)

    def shortcut(self, w: int, b: int, wk: int, bk: int) -> bool:
        return PAPER.shortcut(w, b, wk, bk)

    def clear_cache(self) -> None:
        super().clear_cache()
        self.regions.clear()
        self.boxes.clear()
        self.entries.clear()

    def cache_info(self) -> dict[str, int]:
        return {"structures": len(self.regions), "verdicts": 2 * len(self.boards),
                "structure_hits": 0}


#: the search cache's entries: nothing can hold whatever the kings; the side has no pawns
_HOPELESS = ("hopeless",)
_MATERIAL = ("material",)
#: the paper's fast pair, its verdicts named "extended"
_paper_pair = PAPER.labelled_pair("extended")
_paper_decide = PAPER.decide


def _relabel(pv: Verdict) -> Verdict:
    """The paper's verdict ``pv`` as an extended verdict (every field but ``method``)."""
    return pv._replace(method="extended")


def _blocked(color: bool, rule: Rule, code: str, args: tuple[Any, ...],
             raw: Boards | tuple[int, ...], notes: StoredNotes, kings: tuple[int, int]
             ) -> Verdict:
    """An extended verdict proving a blockage by the criterion ``rule``."""
    return Verdict(color=color, method="extended", blocked=True, rule=rule, status=Status.OK,
                   code=code, args=args, raw=raw, notes=notes, kings=kings)


EXTENDED = ExtendedMethod()
