"""What every static method shares: caches, the untraced and traced verdicts, and the
search's interior-node test.

A static method (paper, flood) analyses a pawn structure once, whatever the kings
(:meth:`StaticMethod.structure`, paper 4's pawn hash), and decides a position from
that analysis and the kings' squares (:func:`logic.kings.decide`).  Subclasses supply
the analysis, their structural failure codes and their words; this class supplies
the caches, :meth:`verdict`, :meth:`analyse` (the trace story: kings, zugzwang, each
dynamic pawn, the verdict) and :meth:`is_blocked`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from logic.bitboards import flip, orient
from logic.explain import note_reason_oriented
from logic.kings import Decision, make_decide
from logic.records import NO_BOARDS, Structure
from logic.registry import Method
from logic.steps import Recorder
from logic.verdict import Verdict
from logic.vocab import Code, NoteCategory, PaperRule, Rule, SharedCode, SharedRule, Status

__all__ = ["StaticMethod", "CACHE_LIMIT"]

#: entries per cache before it is emptied
CACHE_LIMIT = 1 << 18


class StaticMethod(Method):
    """A method whose verdict is a cached structure analysis plus the kings.

    Subclasses set ``name``, ``label``, ``title``, ``region``, ``structural`` (the failure
    codes decided before the kings) and ``king_section`` (the rule the kings' failures
    cite; the paper's 2.3 by default) and implement :meth:`structure`; they may override
    :meth:`shortcut` (a sound test that the side cannot be blocked, taken before a
    structure is analysed) and :meth:`pair`.
    """

    king_section: Rule = PaperRule.S2_3
    structural: frozenset[Code] = frozenset()
    #: ``(blocked, rule, code, args)`` for one king placement (:func:`logic.kings.decide`
    #: with this method's parameters bound, built in ``__init__``: a closure, one call
    #: level fewer than a bound method on the detector's hot path)
    decide: Callable[[Structure, int, int], Decision]

    def __init__(self) -> None:
        #: (w, b) -> Structure, oriented (paper 4's pawn hash table)
        self.structures: dict[tuple[int, int], Structure] = {}
        #: the same analyses keyed by the unoriented pawns and the colour (the search)
        self.sides: dict[tuple[int, int, bool], Structure] = {}
        #: board key -> (Black's verdict, White's verdict), legal K+P boards only
        self.boards: dict[tuple[Any, ...], tuple[Verdict, Verdict]] = {}
        self.structure_hits = 0
        self.decide = make_decide(self.king_section, self.structural, self.notes)

    # -- to implement --------------------------------------------------------------
    def structure(self, w: int, b: int, rec: Recorder | None = None) -> Structure:
        """The king-independent analysis of the oriented pawns ``(w, b)``."""
        raise NotImplementedError

    def shortcut(self, w: int, b: int, wk: int, bk: int) -> bool:
        """True only if the side certainly cannot be blocked (no fence search needed)."""
        return False

    def record_extra(self, rec: Recorder, st: Structure, wk: int, bk: int) -> None:
        """Method-specific trace steps between the structure and the kings."""

    # -- shared --------------------------------------------------------------------
    def cached_structure(self, w: int, b: int) -> Structure:
        """:meth:`structure` through the pawn-structure cache."""
        st = self.structures.get((w, b))
        if st is not None:
            self.structure_hits += 1
            return st
        st = self.structure(w, b)
        if len(self.structures) >= CACHE_LIMIT:
            self.structures.clear()
        self.structures[(w, b)] = st
        return st

    def from_structure(self, st: Structure, wk: int, bk: int, color: bool) -> Verdict:
        """The verdict from a structure analysis and the kings."""
        blocked, rule, code, args = self.decide(st, wk, bk)
        # positional: the detector's hot path (measured: see logic.paper._fast_pair)
        return Verdict(color, self.name, blocked, rule, Status.OK, code, args, st.boards,
                       st.notes, (wk, bk))

    def verdict(self, w: int, b: int, wk: int, bk: int, color: bool, shortcuts: bool = True
                ) -> Verdict:
        """Untraced verdict on an oriented position, through the structure cache.  With
        ``shortcuts``, a structure not analysed yet that :meth:`shortcut` rules out gets
        a deferred verdict (:meth:`~logic.verdict.Verdict.deferred`)."""
        if not w:
            return self.material(wk, bk, color)
        st = self.structures.get((w, b))
        if st is None:
            if shortcuts and self.shortcut(w, b, wk, bk):
                return Verdict.deferred(color, self.name, (w, b, wk, bk))
            st = self.cached_structure(w, b)
        else:
            self.structure_hits += 1
        return self.from_structure(st, wk, bk, color)

    def material(self, wk: int, bk: int, color: bool, steps: tuple[Any, ...] = ()) -> Verdict:
        """The verdict of a side without pawns: it cannot win (material)."""
        return Verdict(color=color, method=self.name, blocked=True, rule=SharedRule.MATERIAL,
                       status=Status.OK, code=SharedCode.MATERIAL, args=(), raw=NO_BOARDS, notes=(),
                       kings=(wk, bk), steps=steps)

    def full_verdict(self, w: int, b: int, wk: int, bk: int, color: bool) -> Verdict:
        """The complete verdict a deferred verdict (:meth:`~logic.verdict.Verdict.deferred`)
        stands for."""
        return self.verdict(w, b, wk, bk, color, shortcuts=False)

    def pair(self, w: int, b: int, wk: int, bk: int) -> tuple[Verdict, Verdict]:
        """Black's and White's verdicts for one legal K+P board."""
        return (self.verdict(*orient(w, b, wk, bk, False), False),
                self.verdict(w, b, wk, bk, True))

    def is_blocked(self, w: int, b: int, wk: int, bk: int, color: bool) -> bool:
        """``verdict(...).blocked`` for the unoriented position, without a verdict: the
        search's interior-node test (paper 4).  A search meets each pawn structure with
        many king placements, so the whole analysis is cached per colour at once (no
        shortcuts) and each placement costs only :meth:`decide`."""
        st = self.sides.get((w, b, color))
        if st is None:
            if not (w if color else b):
                return True  # no pawns: cannot win
            if len(self.sides) >= CACHE_LIMIT:
                self.sides.clear()
            ow, ob = (w, b) if color else (flip(b), flip(w))
            st = self.sides[(w, b, bool(color))] = self.cached_structure(ow, ob)
        if st.fail_rule is not None:  # a failure whatever the kings (no fence, a pawn breaks it...)
            return False
        if not color:
            wk, bk = bk ^ 0x38, wk ^ 0x38
        return self.decide(st, wk, bk)[0]

    def analyse(self, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder) -> Verdict:
        """The traced verdict: the same analysis as :meth:`verdict`, recording its steps,
        without caches or shortcuts."""
        if not w:
            rec.add("verdict", SharedRule.MATERIAL, "verdict",
                    f"{rec.us} has no pawns and cannot win.")
            return self.material(wk, bk, color, tuple(rec.steps))
        st = self.structure(w, b, rec)
        blocked, rule, code, args = self.decide(st, wk, bk)
        boards = st.boards
        v = Verdict(color=color, method=self.name, blocked=blocked, rule=rule, status=Status.OK,
                    code=code, args=args, raw=boards, notes=st.notes, kings=(wk, bk))
        self.record_extra(rec, st, wk, bk)
        if st.code not in self.structural:
            self.record_kings_and_pawns(rec, st, wk, bk, code, w | b)
        rec.add("verdict", rule, "verdict", v.headline + ".", fence=boards.fence,
                below=boards.below, marked=boards.marked)
        return v._replace(steps=tuple(rec.steps))

    def record_kings_and_pawns(self, rec: Recorder, st: Structure, wk: int, bk: int,
                               code: Code, pawns: int = 0) -> None:
        """The kings' step and one step per dynamic pawn; a pawn whose verdict needs the
        defending king on certain squares (3.1, 3.4) carries them (``kmask``: where it
        may stand, not below the fence, not on a pawn of ``pawns``)."""
        fence, below = st.boards.fence, st.boards.below
        rec.add(
            "kings", self.king_section, "kings",
            f"{rec.us}'s king on {rec.name(wk)} is "
            f"{'below' if below >> wk & 1 else 'NOT below'} the fence; {rec.them}'s king on "
            f"{rec.name(bk)} is {'below it too' if below >> bk & 1 else 'not below it'}.",
            changed=(1 << wk) | (1 << bk), fence=fence, below=below,
        )
        if code in (SharedCode.KING_NOT_BELOW, SharedCode.DEFENDER_BELOW):
            return
        has = ("no vacant square: zugzwang" if code == SharedCode.ZUGZWANG
               else "a vacant square to step into")
        rec.add("zugzwang", PaperRule.S2_3, "zugzwang", f"{rec.them}'s king has {has}.",
                changed=1 << bk, fence=fence, below=below)
        for n in self.notes(st.notes):
            ok = n.ok and (n.kmask is None or bool(n.kmask >> bk & 1))
            tgt = 1 << n.square if n.target is None else (1 << n.square) | (1 << n.target)
            where = (f"{n.category} the fence"
                     if n.category in (NoteCategory.ABOVE, NoteCategory.BELOW)
                     else "on the fence")
            rec.add(
                "classify", n.rule, f"dynamic pawn {rec.name(n.square)} {where}",
                note_reason_oriented(rec, n, ok, bk, self),
                changed=tgt, square=n.square, facts=(("category", n.category), ("ok", ok),
                                                     ("rule", n.rule), ("code", n.code)),
                fence=fence, below=below, fixed=st.boards.fixed,
                ok=(1 << n.square) if ok else 0,
                kmask=n.kmask & ~below & ~pawns if n.kmask is not None else 0,
            )

    def clear_cache(self) -> None:
        for cache in (self.structures, self.sides, self.boards):
            cache.clear()
        self.structure_hits = 0

    def cache_info(self) -> dict[str, int]:
        return {"structures": len(self.structures), "verdicts": 2 * len(self.boards),
                "structure_hits": self.structure_hits}
