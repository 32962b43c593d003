"""The method registry: detector methods are objects, looked up by name.

``METHODS`` maps a name (``"paper"``, ``"flood"``, ...) to a :class:`Method`.  The
modules that define methods register them (``logic.methods`` imports every one);
``detect(..., method=name)``, the CLI's choices, the viewer's menu, its Code pane and
legend, the Compare pane, explain, classify, scan and the tests all read this one dict
and what each method object says of itself.  Adding a method is one new module and one
line in ``logic/methods.py`` (or a :func:`register` call): nothing else names it.

This module is a leaf: it imports no other module of ``logic`` that imports it, so
records (verdicts) can find their method without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from logic.legend import BOARD_LEGEND, LegendItem
from logic.listing import Listing
from logic.records import Note, NoteSeed, StoredNotes
from logic.vocab import Code, Rule

if TYPE_CHECKING:
    from logic.steps import Recorder
    from logic.verdict import Verdict

__all__ = ["Method", "METHODS", "STATIC_METHODS", "register", "unregister", "get_method",
           "get_static_method", "prover", "DetectError"]


class DetectError(ValueError):
    """A malformed request (unknown method, not a chess.Board)."""


class Method:
    """A blockage detector, and everything the tools say of it.

    What it is (class attributes; a subclass sets those it needs, the rest keep the
    defaults):

    * ``name`` -- the registry key (what verdicts, the console, settings files and scan
      results name it by); ``label`` -- its menu label; ``title`` -- source and year;
    * ``static`` -- True (the default) for a detector of oriented bitboards cheap enough
      for every search node (:meth:`pair`, :meth:`verdict`, :meth:`is_blocked`); False for
      one that decides whole boards, one side at a time (:meth:`decide_board`: the exact
      prover);
    * ``proves`` -- True when its verdicts are proofs either way: the Compare pane and
      ``explain --all`` set every other method against it (False by default);
    * ``cross_checked`` -- True for the independent methods whose disagreement a scan
      reports (category ``methods-disagree``: the paper and the wiki flood);
    * ``max_seconds`` -- the default budget per side of a method that searches (0 for a
      static one); ``boards`` -- the per-board cache of :func:`logic.detect`, board key
      -> ``(Black's verdict, White's verdict)`` (None, the default, keeps none: a method
      that wants it sets a dict of its own in ``__init__`` and empties it in
      :meth:`clear_cache`).

    What it says (the words and pictures of its verdicts):

    * ``rules`` -- the :class:`~logic.vocab.Rule` members it introduces (its family, each
      with its ``heading``); its verdicts may also cite shared rules and other families'
      (the paper's 2.3 for the kings); ``codes`` -- its own :class:`~logic.vocab.Code`
      members (the shared ones, :class:`~logic.vocab.SharedCode`, need no listing);
    * ``king_section`` -- the rule that decides the kings' sides; ``region`` -- the
      verdict property and step board naming the attacking king's region (``"below"`` or
      ``"flood"``);
    * ``listing`` -- its pseudo-code (:class:`~logic.listing.Listing`, the Code pane's;
      None: the pane shows each step's facts and boards only);
    * ``legend`` -- what the marks of its overlays mean (:class:`~logic.legend.LegendItem`;
      by default :data:`~logic.legend.BOARD_LEGEND`, the marks of a static verdict's
      boards); :meth:`legend_for` keeps the lines that apply to a verdict's code;
      ``kingmap_codes`` -- the verdict codes whose king mask holds the squares where the
      defending king holds, drawn as a king map (H) rather than as squares it must stand
      on (extended's x5).

    What it does -- on an *oriented* legal K+P position (the side under test is White;
    Black is White on the flipped board, see ``logic.bitboards.orient``):

    * :meth:`pair` -- untraced verdicts of both colours of one board ``(Black's,
      White's)``, the detector's fast path;
    * :meth:`verdict` -- one side's untraced verdict on an oriented position;
    * :meth:`full_verdict` -- the complete verdict a
      :meth:`deferred <logic.verdict.Verdict.deferred>` verdict of this method stands for (by
      default :meth:`verdict`'s; a method whose ``verdict`` returns deferred verdicts
      overrides it);
    * :meth:`analyse` -- the traced verdict, recording its steps in ``rec``;
    * :meth:`is_blocked` -- the search's interior-node test (paper 4, Figure 4);
    * :meth:`decide_board` -- for a method that is not ``static`` (the exact prover):
      one side's verdict on the ``chess.Board`` itself;
    * :meth:`headline` -- the banner, when the method words its own; :meth:`summary` --
      one side's verdict in a few words, likewise;
    * :meth:`notes` -- a verdict's pawn notes, decoded from what it stores;
    * :meth:`reason` -- the one-line reason for a code of this method (None for the
      codes shared by all methods, see ``logic.explain``);
    * :meth:`note_text` -- the explanation of one pawn note (None: the shared text);
    * :meth:`fields` -- its own JSON fields of a verdict (``classify``, ``scan``).

    A new method is a subclass (of this class, or of :class:`logic.static.StaticMethod`
    for a cached pawn-structure analysis) and its instance given to :func:`register`; its
    verdicts are :class:`~logic.verdict.Verdict` records naming it, their ``rule`` a
    :class:`~logic.vocab.Rule` and their ``code`` a :class:`~logic.vocab.Code`.
    """

    name = ""
    label = ""
    title = ""
    static = True
    proves = False
    cross_checked = False
    max_seconds = 0.0
    rules: tuple[Rule, ...] = ()
    codes: tuple[Code, ...] = ()
    kingmap_codes: frozenset[Code] = frozenset()
    king_section: Rule | None = None
    region = "below"
    listing: Listing | None = None
    legend: tuple[LegendItem, ...] = BOARD_LEGEND
    boards: dict[tuple[Any, ...], tuple[Verdict, Verdict]] | None = None

    def pair(self, w: int, b: int, wk: int, bk: int) -> tuple[Verdict, Verdict]:
        raise NotImplementedError

    def verdict(self, w: int, b: int, wk: int, bk: int, color: bool) -> Verdict:
        raise NotImplementedError

    def full_verdict(self, w: int, b: int, wk: int, bk: int, color: bool) -> Verdict:
        """The complete, never deferred, verdict on an oriented position (what a deferred
        verdict of this method computes on first read): by default :meth:`verdict`'s."""
        return self.verdict(w, b, wk, bk, color)

    def analyse(self, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder) -> Verdict:
        raise NotImplementedError

    def is_blocked(self, w: int, b: int, wk: int, bk: int, color: bool) -> bool:
        raise NotImplementedError

    def decide_board(self, board: Any, color: bool, key: tuple[Any, ...], trace: bool, *,
                     max_seconds: float | None = None,
                     cancel: Callable[[], bool] | None = None,
                     report: Callable[[int], None] | None = None,
                     on_line: Callable[[], None] | None = None) -> Verdict:
        """The verdict of a method that is not ``static``: it decides on the legal K+P
        ``board`` itself, one side at a time (``key`` names the board), within
        ``max_seconds`` (None: the method's default); ``cancel`` is polled, ``report`` and
        ``on_line`` receive progress (see :func:`logic.exact.solve`)."""
        raise NotImplementedError

    def fields(self, v: Verdict) -> dict[str, Any]:
        """This method's own JSON fields of a verdict (``classify``, ``scan``)."""
        return {}

    def headline(self, v: Verdict) -> str | None:
        """The banner for ``v`` when this method words its own, else None."""
        return None

    def summary(self, v: Verdict) -> str | None:
        """One side's verdict in a few words (the window's final verdicts, "Black cannot
        win — blockage (paper 2.3)") when this method words its own, else None."""
        return None

    def notes(self, stored: StoredNotes) -> tuple[Note, ...]:
        """The pawn notes a verdict stores (a tuple of notes by default)."""
        if isinstance(stored, NoteSeed):
            raise TypeError(f"method {self.name!r} does not decode note seeds")
        return stored

    def reason(self, v: Verdict, name: Any) -> str | None:
        """The reason for ``v.code`` when it is this method's own (``name`` maps an
        oriented square to its real name), else None."""
        return None

    def note_text(self, name: Any, note: Note, ok: bool, bk: int) -> str | None:
        """The text of a pawn note whose code is this method's own, else None."""
        return None

    def legend_for(self, code: str | None) -> tuple[LegendItem, ...]:
        """The lines of :attr:`legend` that apply to a verdict whose code is ``code`` (None:
        every line, the window's legend, whose layout stays put): by default a king map
        line only where the code is one of :attr:`kingmap_codes`."""
        if code is None or code in self.kingmap_codes:
            return self.legend
        return tuple(i for i in self.legend if i.style != "kingmap")

    def clear_cache(self) -> None:
        """Empty this method's caches."""

    def cache_info(self) -> dict[str, int]:
        """Sizes of this method's caches."""
        return {}

    def __repr__(self) -> str:
        return f"<method {self.name}>"


#: name -> method, in menu order
METHODS: dict[str, Method] = {}
#: the methods cheap enough for every search node (``static``), in menu order
STATIC_METHODS: dict[str, Method] = {}


def register(method: Method) -> Method:
    """Add ``method`` to :data:`METHODS` under its name (a second method of the same
    name replaces the first) and return it."""
    METHODS[method.name] = method
    STATIC_METHODS.pop(method.name, None)
    if method.static:
        STATIC_METHODS[method.name] = method
    return method


def unregister(method: Method) -> None:
    """Take ``method`` out of :data:`METHODS` (nothing when it is not registered)."""
    if METHODS.get(method.name) is method:
        del METHODS[method.name]
        STATIC_METHODS.pop(method.name, None)


def prover() -> Method | None:
    """The method whose verdicts are proofs (``proves``; the first in menu order), which
    the others are set against; None when none is registered."""
    return next((m for m in METHODS.values() if m.proves), None)


def get_method(name: Any) -> Method:
    """The method called ``name``; raises :class:`DetectError` naming the choices."""
    try:
        return METHODS[name]
    except (KeyError, TypeError):
        raise DetectError(f"unknown method {name!r}; choose one of {', '.join(METHODS)}"
                          ) from None


def get_static_method(name: Any) -> Method:
    """The static method called ``name`` (one that decides oriented bitboards: the search's
    and :func:`logic.detect_bitboards`'s); raises :class:`DetectError` naming the static
    methods for an unknown name or a method that decides whole boards (``"exact"``)."""
    try:
        return STATIC_METHODS[name]
    except (KeyError, TypeError):
        pass
    what = ("decides whole boards, not bitboards" if isinstance(name, str) and name in METHODS
            else "is unknown")
    raise DetectError(f"method {name!r} {what}; choose a static method: "
                      f"{', '.join(STATIC_METHODS)}")
