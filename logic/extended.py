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

A dropped rule's code stays (the sweep measures it: :func:`x1_blocked`, ``USE_X2``) but
the method never applies it.

The method's parts: the criteria's table and KPK tests (:mod:`logic.extended_rules`), the
lowest fence of x1 and x4 (:mod:`logic.lowest_fence`), the shut-in king of x5
(:mod:`logic.shutin`), the trace and its pseudo-code (:mod:`logic.extended_trace`); this
module holds the method object: its verdicts, fast pair, search test and words.
Everything is oriented (the side under test is White), as in the paper's module.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

import chess

from logic.bitboards import (
    BB_ALL,
    BB_NOT_A,
    BB_NOT_H,
    flip,
    king_attacks_setwise,
    orient,
    pawn_attacks,
)
from logic.extended_rules import RULES, USE_X2, USED, Criterion, kpk_draw, kpk_no_promotion
from logic.extended_trace import EXTENDED_LISTING, trace_criteria
from logic.fence import marking
from logic.legend import BOARD_LEGEND, LegendItem
from logic.lowest_fence import X4_STRUCTURAL, crosses, region_structure, x1_blocked, x4_decide
from logic.paper import PAPER, paper_notes
from logic.paper_words import paper_note_text
from logic.records import Boards, Note, NoteSeed, StoredNotes, Structure
from logic.shutin import ShutIn, king_box, shut_in, shut_in_squares
from logic.static import CACHE_LIMIT, StaticMethod
from logic.steps import Recorder
from logic.verdict import Verdict
from logic.vocab import Code, ExtendedCode, ExtendedRule, PaperCode, PaperRule, SharedCode, Status

__all__ = ["EXTENDED", "ExtendedMethod", "Criterion", "RULES", "region_structure", "kpk_draw",
           "X4_STRUCTURAL", "USED", "kpk_no_promotion", "x1_blocked", "X5_TEMPO"]

_ALL = BB_ALL
_NOT_A = BB_NOT_A
_NOT_H = BB_NOT_H

#: x5's mark: the two squares the defending king marks time on
X5_TEMPO = LegendItem("kingmap", "kingmap_holds", "H",
                      "H = the defending king marks time here (x5)")


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

_KPK_RAW = Boards(0, 0, 0, 0, 0, 0, 0, _ALL)


class ExtendedMethod(StaticMethod):
    """The paper's method plus the criteria of :data:`RULES` (sound against the exact
    prover on the sweep of ``benchmarks/extended_sweep.py``)."""

    name = "extended"
    label = "extended (paper + x3-x5)"
    title = "David, Felner & Netanyahu (2004) plus criteria checked against the exact prover"
    rules = tuple(ExtendedRule)
    codes = tuple(ExtendedCode)
    king_section = PaperRule.S2_3
    region = "below"
    structural = PAPER.structural
    #: the criteria (:data:`logic.extended_rules.RULES`), applied and dropped
    criteria = RULES
    #: x5's king mask: the two squares the defending king marks time on
    kingmap_codes = frozenset((ExtendedCode.SHUT_IN,))
    listing = EXTENDED_LISTING
    legend = BOARD_LEGEND + (X5_TEMPO,)

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
        if crosses(_ALL & ~marked):
            st = None  # no wall at all (nothing removed): the usual miss, kept small
        else:
            st = region_structure(w, b)
            if st.fail_rule is not None and st.code == PaperCode.NO_FENCE and not st.boards.removed:
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
            if USE_X2 and kpk_draw(w, b, wk, bk):
                return _blocked(color, ExtendedRule.X2, ExtendedCode.KPK_DRAW,
                                (w.bit_length() - 1,), _KPK_RAW, (), (wk, bk))
            if kpk_no_promotion(w, b, wk, bk):
                return _blocked(color, ExtendedRule.X3, ExtendedCode.KPK_STOPPED,
                                (w.bit_length() - 1,), _KPK_RAW, (), (wk, bk))
            return None
        st = self.region_of(w, b)
        if st is not None and st.fail_rule is None and x4_decide(st, wk, bk)[0]:
            return _blocked(color, ExtendedRule.X4, SharedCode.BLOCKED, (), st.boards, st.notes,
                            (wk, bk))
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
        return _blocked(color, ExtendedRule.X5, ExtendedCode.SHUT_IN, (r.states,), raw, (), (wk,
                        bk))

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
            return Verdict.deferred(color, self.name, (w, b, wk, bk))
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
        if xst is not None and xst.boards.below >> owk & 1 and x4_decide(xst, owk, obk)[0]:
            return True
        if kpk_pawn >= 0:
            return ((USE_X2 and kpk_draw(1 << kpk_pawn, 0, owk, obk))
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
            v = trace_criteria(self, w, b, wk, bk, color, rec, pv) or v
        boards = v.boards
        rec.add("verdict", v.rule, "verdict", v.headline + ".", fence=boards.fence,
                below=boards.below, marked=boards.marked)
        return v._replace(steps=tuple(rec.steps))

    # -- words ---------------------------------------------------------------------
    def notes(self, stored: StoredNotes) -> tuple[Note, ...]:
        return paper_notes(stored) if isinstance(stored, NoteSeed) else stored

    def reason(self, v: Verdict, name: Any) -> str | None:
        if v.code == ExtendedCode.SHUT_IN:
            return (f"{name.us}'s king is shut in: with {name.them}'s king stepping between two "
                    f"squares, none of the {v.args[0]:,} positions {name.us}'s king and pawns "
                    f"can reach captures, promotes or comes near it ({v.rule})")
        if v.code == ExtendedCode.KPK_DRAW:
            return (f"one {name.us} pawn against the bare king: the KPK bitbase gives a draw "
                    f"whoever moves ({v.rule})")
        if v.code == ExtendedCode.KPK_STOPPED:
            return (f"one {name.us} pawn against the bare king that cannot be forced to "
                    f"promote, whoever moves ({v.rule})")
        return PAPER.reason(v, name)

    def headline(self, v: Verdict) -> str | None:
        if v.code == ExtendedCode.SHUT_IN:
            return f"{v.side} cannot win: the king is shut in ({v.rule})"
        if v.code == ExtendedCode.KPK_DRAW:
            return f"{v.side} cannot win: KPK draw ({v.rule})"
        if v.code == ExtendedCode.KPK_STOPPED:
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
_paper_pair = PAPER.labelled_pair(ExtendedMethod.name)
_paper_decide = PAPER.decide


def _relabel(pv: Verdict) -> Verdict:
    """The paper's verdict ``pv`` as an extended verdict (every field but ``method``)."""
    return pv._replace(method=ExtendedMethod.name)


def _blocked(color: bool, rule: ExtendedRule, code: Code, args: tuple[Any, ...],
             raw: Boards | tuple[int, ...], notes: StoredNotes, kings: tuple[int, int]
             ) -> Verdict:
    """An extended verdict proving a blockage by the criterion ``rule``."""
    return Verdict(color=color, method=ExtendedMethod.name, blocked=True, rule=rule,
                   status=Status.OK, code=code, args=args, raw=raw, notes=notes, kings=kings)


EXTENDED = ExtendedMethod()
