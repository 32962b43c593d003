"""The :class:`Verdict` a detector returns, and its per-pawn :class:`PawnNote`.

A verdict is an immutable tuple built on the detector's fast path.  It stores
the analysis in the detector's orientation (the side under test plays "White")
and exposes everything in real board coordinates through properties, so the
fast path never pays for flipping bitboards or formatting text; ``reason`` and
``pawns`` are formatted only when read.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import chess

from logic.bitboards import flip as _flip
from logic.explain import note_reason, verdict_reason
from logic.records import NO_BOARDS, Boards, Note
from logic.registry import METHODS
from logic.steps import Step

__all__ = ["Verdict", "DeferredVerdict", "PawnNote", "RULE_TITLES"]

#: Human titles of the rules a verdict can name.
RULE_TITLES: dict[str, str] = {
    "material": "no pawns: cannot win",
    "paper 2.3": "fence and kings (paper 2.3)",
    "paper 3": "black pawns below the fence removed; no pawn may capture (paper 3)",
    "paper 3.1": "dynamic pawn above the fence (paper 3.1)",
    "paper 3.2": "dynamic pawn on the fence (paper 3.2)",
    "paper 3.3": "dynamic pawn below the fence (paper 3.3)",
    "paper 3.4": "the exception (paper 3.4)",
    "wiki flood": "ram fence and king flood (wiki)",
    "wiki dynamic": "dynamic pawns (wiki)",
    "x1": "the lowest fence with the paper's 3.1-3.4 (extended, x1; dropped)",
    "x2": "KPK draw whoever moves (extended, x2; dropped)",
    "x3": "KPK: the pawn cannot be forced to promote, whoever moves (extended, x3)",
    "x4": "the lowest fence, every dynamic pawn held by pawns (extended, x4)",
    "x5": "the shut-in king: White's whole play enumerated, Black marking time (extended, x5)",
    "exact": "exact retrograde analysis: a proof either way, or unknown within its budget",
    "not applicable": "not a legal king-and-pawn position",
    "en passant": "a capture en passant pending: judged without it and after it",
}


class PawnNote(NamedTuple):
    """How one dynamic pawn of the side under test was judged.

    ``category`` is ``"above"``, ``"on"`` or ``"below"`` (the fence) or
    ``"fence-lever"`` (wiki: a fence pawn that can capture); ``ok`` is True when
    the pawn cannot break the blockage; ``rule`` the section that decided;
    ``reason`` one line in real coordinates.
    """

    square: chess.Square
    category: str
    ok: bool
    rule: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "square": chess.square_name(self.square),
            "category": self.category,
            "ok": self.ok,
            "rule": self.rule,
            "reason": self.reason,
        }


class Verdict(NamedTuple):
    """A detector's answer for one side of one position.

    ``blocked`` is True exactly when ``color`` cannot win by the method's rules.
    ``rule`` names the deciding rule (a key of :data:`RULE_TITLES`; ``"exact"`` for
    the exact prover); ``status`` is ``"ok"``, ``"pieces"`` (pieces other than kings
    and pawns), ``"illegal"`` or, for a method that searches (``"exact"``),
    ``"unknown"`` (its budget ran out: ``blocked`` is False, nothing is proved).  Raw
    fields hold oriented data; use the properties.
    """

    color: chess.Color
    method: str
    blocked: bool
    rule: str
    status: str
    code: str
    args: tuple[Any, ...]
    #: the analysis's oriented bitboards in :class:`~logic.records.Boards` order (the fast
    #: path may store a plain tuple); read them by name through :attr:`boards`
    raw: Boards | tuple[int, ...]
    #: the oriented pawn notes, or what the method decodes them from (the paper's
    #: ``NoteSeed``); read :attr:`note_tuples`
    notes: Any
    kings: tuple[int, int]
    steps: tuple[Step, ...] = ()
    #: method-specific details beyond the static methods' fields (the exact prover's
    #: line, king map and counts), or None
    detail: Any = None

    # -- real-coordinate views -------------------------------------------------
    def _bb(self, i: int) -> int:
        bb = self.raw[i] if self.raw else 0
        return bb if self.color else _flip(bb)

    def _sq(self, sq: int) -> int:
        return sq if self.color else sq ^ 0x38

    @property
    def boards(self) -> Boards:
        """The oriented bitboards by name (:class:`~logic.records.Boards`)."""
        raw = self.raw
        return raw if type(raw) is Boards else Boards._make(raw or NO_BOARDS)

    @property
    def fixed(self) -> int:
        """The side's fixed pawns (paper 2.2) after black pawns below the fence are removed."""
        return self._bb(0)

    @property
    def marked(self) -> int:
        """Squares the side's king cannot step into (paper 2.2); the ram fence for ``flood``."""
        return self._bb(1)

    @property
    def fence(self) -> int:
        """The fence squares (Figure 8 path for ``paper``; ram fence for ``flood``), or 0."""
        return self._bb(2)

    @property
    def below(self) -> int:
        """The king's side of the fence (squares under the fence / the final flood)."""
        return self._bb(3)

    @property
    def removed(self) -> int:
        """Opponent pawns below the fence, removed from the board (paper 3)."""
        return self._bb(4)

    @property
    def flood(self) -> int:
        """The king flood region (wiki method); for ``paper`` the region below the fence."""
        return self._bb(5)

    @property
    def drowned(self) -> int:
        """Opponent pawns the flood captured (wiki method)."""
        return self._bb(6)

    @property
    def king_mask(self) -> int:
        """Squares where the defending king must stand for the dynamic-pawn rules to hold."""
        return self._bb(7)

    @property
    def side(self) -> str:
        """``"White"`` or ``"Black"``."""
        return "White" if self.color else "Black"

    @property
    def pawns(self) -> tuple[PawnNote, ...]:
        """Each dynamic pawn's category and why it can or cannot break the blockage."""
        return tuple(self._note(n) for n in self.note_tuples)

    @property
    def note_tuples(self) -> tuple[Note, ...]:
        """The oriented pawn notes (:class:`~logic.records.Note`)."""
        return METHODS[self.method].notes(self.notes) if self.notes else ()

    @property
    def reason(self) -> str:
        """One line saying why the verdict is what it is, citing the rule."""
        return verdict_reason(self)

    @property
    def headline(self) -> str:
        """A banner such as "White cannot win: blockage (paper 3.2)"."""
        own = METHODS.get(self.method)
        if own is not None:
            text = own.headline(self)
            if text is not None:
                return text
        if self.status != "ok":
            return f"{self.side}: {self.reason}"
        if self.blocked:
            if self.rule == "material":
                return f"{self.side} cannot win: no pawns left"
            return f"{self.side} cannot win: blockage ({self.rule})"
        return f"{self.side}: no blockage proved ({self.reason})"

    def _note(self, n: Note) -> PawnNote:
        sq, category, ok, rule, _code, _target, kmask = n
        if kmask is not None and ok:
            ok = bool(kmask >> self.kings[1] & 1)
        return PawnNote(self._sq(sq), category, ok, rule, note_reason(self, n, ok))

    def to_dict(self, *, steps: bool = True) -> dict[str, Any]:
        """A JSON-ready dict (bitboards as ints, squares as names)."""
        names = ["fixed", "marked", "fence", "below", "removed", "flood", "drowned", "king_mask"]
        out: dict[str, Any] = {
            "side": self.side.lower(),
            "method": self.method,
            "blocked": self.blocked,
            "rule": self.rule,
            "status": self.status,
            "reason": self.reason,
            "headline": self.headline,
            "bitboards": {name: self._bb(i) if self.raw else 0 for i, name in enumerate(names)},
            "pawns": [p.to_dict() for p in self.pawns],
        }
        if steps:
            out["steps"] = [s.to_dict() for s in self.steps]
        return out


class DeferredVerdict(Verdict):
    """A :class:`Verdict` whose ``blocked`` (False) is decided and whose explanation
    is not computed yet.

    The detector returns one when a sound shortcut (``logic.paper.cannot_hold``) shows
    that the side cannot be blocked before any fence search.  ``rule``, ``code``,
    ``args``, ``raw`` and ``notes`` run the full analysis on first read (through the
    pawn-structure cache) and keep it, so every field, comparison (``==``, ``<``, ...,
    ``hash``), iteration, indexing, ``in``, ``count``, ``index``, ``+``, ``*`` and pickle
    equals the complete verdict's.  The tuple slot of ``rule`` holds the oriented position
    ``[w, b, wk, bk]``, replaced by ``[verdict]`` once computed (the detector's own code
    reads the decided slots with ``tuple.__getitem__``, never the memo).
    """

    __slots__ = ()

    def full(self) -> Verdict:
        """The complete verdict (computed once, by the method's ``full_verdict``)."""
        memo = tuple.__getitem__(self, 3)
        if len(memo) != 1:
            memo[:] = [METHODS[self.method].full_verdict(*memo, self.color)]
        return memo[0]

    @property
    def rule(self) -> str:  # type: ignore[override]
        return self.full().rule

    @property
    def code(self) -> str:  # type: ignore[override]
        return self.full().code

    @property
    def args(self) -> tuple[Any, ...]:  # type: ignore[override]
        return self.full().args

    @property
    def raw(self) -> Boards:  # type: ignore[override]
        return self.full().raw

    @property
    def notes(self) -> Any:  # type: ignore[override]
        return self.full().notes

    def __iter__(self) -> Any:
        return iter(tuple.__iter__(self.full()))

    def __getitem__(self, index: Any) -> Any:
        return tuple.__getitem__(self.full(), index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DeferredVerdict):
            other = other.full()
        return tuple.__eq__(self.full(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __lt__(self, other: object) -> bool:
        return self.full() < _full(other)  # type: ignore[operator]

    def __le__(self, other: object) -> bool:
        return self.full() <= _full(other)  # type: ignore[operator]

    def __gt__(self, other: object) -> bool:
        return self.full() > _full(other)  # type: ignore[operator]

    def __ge__(self, other: object) -> bool:
        return self.full() >= _full(other)  # type: ignore[operator]

    def __hash__(self) -> int:
        return tuple.__hash__(self.full())

    def __contains__(self, item: object) -> bool:
        return item in self.full()

    def count(self, value: Any) -> int:
        return self.full().count(value)

    def index(self, value: Any, *bounds: Any) -> int:
        return self.full().index(value, *bounds)

    def __add__(self, other: Any) -> Any:
        return self.full() + _full(other)

    def __radd__(self, other: Any) -> Any:
        return other + self.full()

    def __mul__(self, n: Any) -> Any:
        return self.full() * n

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return repr(self.full())

    def __reduce__(self) -> Any:
        return self.full().__reduce__()

    def _replace(self, **changes: Any) -> Verdict:  # type: ignore[override]
        return self.full()._replace(**changes)

    def _asdict(self) -> dict[str, Any]:  # type: ignore[override]
        return self.full()._asdict()


def _full(x: Any) -> Any:
    """``x``, or the complete verdict when ``x`` is a deferred one."""
    return x.full() if isinstance(x, DeferredVerdict) else x
