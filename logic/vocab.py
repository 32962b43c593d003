"""The words verdicts and reports are made of: statuses, rules, categories, the default method.

Each is a :class:`enum.StrEnum`: a member *is* its string (``Status.OK == "ok"``, it
formats, joins and serialises to JSON as ``"ok"``), so code names the value once and the
text and JSON outputs read exactly the plain strings.  This module is a leaf: it imports
nothing of ``logic``.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status", "Rule", "NoteCategory", "Category", "DEFAULT_METHOD"]

#: the method :func:`logic.detect`, the console, the viewer and the tools use when none is named
DEFAULT_METHOD = "paper"


class Status(StrEnum):
    """Whether a method applied to a position (``Verdict.status``)."""

    #: a legal king-and-pawn position, decided
    OK = "ok"
    #: pieces other than kings and pawns on the board
    PIECES = "pieces"
    #: a position ``chess.Board.status()`` rejects
    ILLEGAL = "illegal"
    #: a method that searches ran out of budget: nothing is proved
    UNKNOWN = "unknown"
    #: the exact prover ran out of budget with a horizon proved: the side cannot force a
    #: promotion or mate within so many plies (not a blockage: ``blocked`` is False)
    HORIZON = "horizon"


class Rule(StrEnum):
    """The rule a verdict or a pawn note rests on (``Verdict.rule``, ``Note.rule``): the
    paper's sections, the wiki's rules, the extended criteria, the exact prover, and the
    verdicts every method shares."""

    MATERIAL = "material"
    PAPER_2_2 = "paper 2.2"
    PAPER_2_3 = "paper 2.3"
    PAPER_3 = "paper 3"
    PAPER_3_1 = "paper 3.1"
    PAPER_3_2 = "paper 3.2"
    PAPER_3_3 = "paper 3.3"
    PAPER_3_4 = "paper 3.4"
    WIKI_FLOOD = "wiki flood"
    WIKI_DYNAMIC = "wiki dynamic"
    X1 = "x1"
    X2 = "x2"
    X3 = "x3"
    X4 = "x4"
    X5 = "x5"
    EXACT = "exact"
    NOT_APPLICABLE = "not applicable"
    EN_PASSANT = "en passant"


class NoteCategory(StrEnum):
    """Where a dynamic pawn stands (``Note.category``, ``PawnNote.category``): above, on or
    below the fence, or (wiki) a fence pawn that can capture."""

    ABOVE = "above"
    ON = "on"
    BELOW = "below"
    FENCE_LEVER = "fence-lever"


class Category(StrEnum):
    """The suspect categories of a scan result (``logic.tools.scan``, ``logic.tools.judge``)."""

    #: a static method calls the side blocked and the engine says it wins
    CLAIMS_BLOCKED_ENGINE_WINS = "claims-blocked-engine-wins"
    #: a drawish engine score, a side with more pawns, and no static method sees a blockage
    DRAWISH_WITH_EDGE_NOT_DETECTED = "drawish-with-edge-not-detected"
    #: the paper and the wiki flood disagree
    METHODS_DISAGREE = "methods-disagree"
    #: a static method calls the side blocked and the exact prover proves a win
    CLAIMS_BLOCKED_EXACT_BREAKS = "claims-blocked-exact-breaks"
    #: the exact prover proves a blockage no static method recognises
    EXACT_BLOCKED_HEURISTIC_MISSES = "exact-blocked-heuristic-misses"
    #: the exact prover proves only a horizon: no forced promotion or mate within so many
    #: plies (the whole game too big for its budget)
    EXACT_HORIZON = "exact-horizon"
