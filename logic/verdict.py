"""The :class:`Verdict` a detector returns, and its per-pawn :class:`PawnNote`.

A verdict is an immutable record built on the detector's fast path.  It stores
the analysis in the detector's orientation (the side under test plays "White")
and exposes everything in real board coordinates through properties, so the
fast path never pays for flipping bitboards or formatting text; ``reason`` and
``pawns`` are formatted only when read.  A *deferred* verdict (:meth:`Verdict.deferred`)
has its decided fields at once and computes the explanation on first read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import chess

from logic.bitboards import flip as _flip
from logic.explain import note_reason, verdict_reason
from logic.records import NO_BOARDS, Boards, Note, StoredNotes
from logic.registry import METHODS
from logic.steps import Step
from logic.vocab import Code, NoteCategory, Rule, SharedRule, Status

if TYPE_CHECKING:
    from logic.exact.method import ExactDetail

__all__ = ["Verdict", "PawnNote"]

class PawnNote(NamedTuple):
    """How one dynamic pawn of the side under test was judged.

    ``category`` is ``"above"``, ``"on"`` or ``"below"`` (the fence) or
    ``"fence-lever"`` (wiki: a fence pawn that can capture); ``ok`` is True when
    the pawn cannot break the blockage; ``rule`` the section that decided;
    ``reason`` one line in real coordinates.
    """

    square: chess.Square
    category: NoteCategory
    ok: bool
    rule: Rule
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


_FIELDS = ("color", "method", "blocked", "rule", "status", "code", "args", "raw", "notes",
           "kings", "steps", "detail")
#: the fields a deferred verdict computes on first read
_LAZY = frozenset(("rule", "code", "args", "raw", "notes"))


class Verdict:
    """A detector's answer for one side of one position.

    ``blocked`` is True exactly when ``color`` cannot win by the method's rules.
    ``rule`` names the deciding rule (a :class:`~logic.vocab.Rule` of some family, its
    title in ``rule.heading``; ``"exact"`` for the exact prover); ``code`` the case its
    reason words (a :class:`~logic.vocab.Code`: a :class:`~logic.vocab.SharedCode` or one
    of the method's own ``codes``); ``status`` is a :class:`Status`: ``"ok"``,
    ``"pieces"`` (pieces other than kings and pawns), ``"illegal"`` or, for a method that
    searches (``"exact"``), ``"unknown"`` (its budget ran out: ``blocked`` is False,
    nothing is proved) or ``"horizon"`` (its budget ran out with a horizon proved: the
    side cannot force a promotion or mate within so many plies; ``blocked`` is False).
    Raw fields hold oriented data; use the properties.

    A verdict is immutable by contract (nothing assigns its fields after construction);
    two verdicts are equal when every field is, and it hashes, pickles and copies by its
    fields.  :meth:`_replace` and :meth:`_asdict` work as a named tuple's do.

    A verdict from :meth:`deferred` has ``color``, ``method``, ``blocked`` (False),
    ``status``, ``kings``, ``steps`` and ``detail`` at once; ``rule``, ``code``, ``args``,
    ``raw`` and ``notes`` run the method's full analysis
    (:meth:`~logic.registry.Method.full_verdict`) on the first read of any of them and
    keep it, so every field, comparison, hash and pickle equals the complete verdict's.
    """

    __slots__ = (*_FIELDS, "_position")
    _fields = _FIELDS

    color: chess.Color
    method: str
    blocked: bool
    rule: Rule
    status: Status
    code: Code
    args: tuple[Any, ...]
    #: the analysis's oriented bitboards in :class:`~logic.records.Boards` order (the fast
    #: path may store a plain tuple); read them by name through :attr:`boards`
    raw: Boards | tuple[int, ...]
    #: the oriented pawn notes, or what the method decodes them from (the paper's
    #: :class:`~logic.records.NoteSeed`); read :attr:`note_tuples`
    notes: StoredNotes
    kings: tuple[int, int]
    steps: tuple[Step, ...]
    #: method-specific details beyond the static methods' fields (the exact prover's
    #: line, king map and counts), or None (the static methods)
    detail: ExactDetail | None
    #: a deferred verdict's oriented position ``(w, b, wk, bk)`` until its fields are read
    _position: tuple[int, int, int, int] | None

    def __init__(self, color: chess.Color, method: str, blocked: bool, rule: Rule,
                 status: Status, code: Code, args: tuple[Any, ...],
                 raw: Boards | tuple[int, ...], notes: StoredNotes, kings: tuple[int, int],
                 steps: tuple[Step, ...] = (), detail: ExactDetail | None = None) -> None:
        self.color = color
        self.method = method
        self.blocked = blocked
        self.rule = rule
        self.status = status
        self.code = code
        self.args = args
        self.raw = raw
        self.notes = notes
        self.kings = kings
        self.steps = steps
        self.detail = detail
        self._position = None

    @classmethod
    def deferred(cls, color: chess.Color, method: str, position: tuple[int, int, int, int]
                 ) -> Verdict:
        """A verdict whose ``blocked`` (False) is decided by a sound shortcut and whose
        explanation (``rule``, ``code``, ``args``, ``raw``, ``notes``) ``method`` computes
        on first read from the oriented ``position`` ``(w, b, wk, bk)``."""
        v = cls.__new__(cls)
        v.color = color
        v.method = method
        v.blocked = False
        v.status = Status.OK
        v.kings = (position[2], position[3])
        v.steps = ()
        v.detail = None
        v._position = position
        return v

    @property
    def is_deferred(self) -> bool:
        """True while the explanation of a :meth:`deferred` verdict is not computed yet."""
        return self._position is not None

    if not TYPE_CHECKING:  # (type checkers would take every unknown name for a field)
        def __getattr__(self, name: str) -> Any:
            # only reached for a slot never assigned: a deferred verdict's lazy fields
            position = self._position
            if position is None or name not in _LAZY:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute "
                                     f"{name!r}")
            full = METHODS[self.method].full_verdict(*position, self.color)
            self.rule, self.code, self.args = full.rule, full.code, full.args
            self.raw, self.notes = full.raw, full.notes
            self._position = None
            return getattr(self, name)

    # -- the record protocol ---------------------------------------------------
    def _astuple(self) -> tuple[Any, ...]:
        """Every field, in :attr:`_fields` order (a deferred verdict is completed)."""
        return (self.color, self.method, self.blocked, self.rule, self.status, self.code,
                self.args, self.raw, self.notes, self.kings, self.steps, self.detail)

    def _asdict(self) -> dict[str, Any]:
        """The fields by name, as a named tuple's ``_asdict``."""
        return dict(zip(_FIELDS, self._astuple(), strict=True))

    def _replace(self, **changes: Any) -> Verdict:
        """A copy with the named fields replaced, as a named tuple's ``_replace``."""
        fields = self._asdict()
        unknown = changes.keys() - fields.keys()
        if unknown:
            raise ValueError(f"Got unexpected field names: {sorted(unknown)!r}")
        fields.update(changes)
        return Verdict(**fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self._astuple() == other._astuple()

    def __hash__(self) -> int:
        return hash(self._astuple())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Verdict, self._astuple())

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in zip(_FIELDS, self._astuple(), strict=True))
        return f"Verdict({inner})"

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
        if isinstance(raw, Boards):
            return raw
        return Boards._make(raw) if raw else NO_BOARDS

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
        stored = self.notes
        return METHODS[self.method].notes(stored) if stored else ()

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
        if self.status != Status.OK:
            return f"{self.side}: {self.reason}"
        if self.blocked:
            if self.rule == SharedRule.MATERIAL:
                return f"{self.side} cannot win: no pawns left"
            return f"{self.side} cannot win: blockage ({self.rule})"
        return f"{self.side}: no blockage proved ({self.reason})"

    def _note(self, n: Note) -> PawnNote:
        ok = n.ok
        if n.kmask is not None and ok:
            ok = bool(n.kmask >> self.kings[1] & 1)
        return PawnNote(square=self._sq(n.square), category=n.category, ok=ok, rule=n.rule,
                        reason=note_reason(self, n, ok))

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
