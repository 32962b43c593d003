"""The words verdicts and reports are made of: statuses, rules, codes, categories, the default
method.

Each is a :class:`enum.StrEnum`: a member *is* its string (``Status.OK == "ok"``, it
formats, joins and serialises to JSON as ``"ok"``), so code names the value once and the
text and JSON outputs read exactly the plain strings.  This module is a leaf: it imports
nothing of ``logic``.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status", "Rule", "SharedRule", "PaperRule", "WikiRule", "ExtendedRule", "ExactRule",
           "Code", "SharedCode", "PaperCode", "WikiCode", "ExtendedCode", "ExactCode",
           "NoteCategory", "Category", "DEFAULT_METHOD"]

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
    """The rule a verdict or a pawn note rests on (``Verdict.rule``, ``Note.rule``).

    The base of the rule families: it has no members of its own.  Each family is a
    subclass whose members are ``NAME = citation, heading`` or ``NAME = citation, heading,
    letter``: the member *is* its citation (``PaperRule.S3_2 == "paper 3.2"``, what
    verdicts print and JSON holds), :attr:`heading` its title in words and :attr:`letter`
    the badge letter of a pawn this rule decided when it overrides the pawn's category
    letter (the paper's 3.4 exception: ``"E"``; ``""`` otherwise).  The families of the
    built-in methods are below; a new method defines its own family in its module (a
    subclass, or ``Rule("ToyRule", {"TOY": ("toy 1", "the toy's rule")})``) and names it
    in :attr:`logic.registry.Method.rules`.
    """

    #: the rule's title in words, e.g. "dynamic pawn on the fence (paper 3.2)"
    heading: str
    #: the badge letter of a pawn this rule decided ("" = the category's letter)
    letter: str

    def __new__(cls, value: str, heading: str = "", letter: str = "") -> Rule:
        member = str.__new__(cls, value)
        member._value_ = value
        member.heading = heading
        member.letter = letter
        return member

    @staticmethod
    def named(citation: str) -> Rule | None:
        """The rule whose citation is ``citation`` in any family defined so far (a step's
        facts read back from JSON hold plain strings), or None."""
        if isinstance(citation, Rule):
            return citation
        families = list(Rule.__subclasses__())
        while families:
            family = families.pop()
            try:
                return family(citation)
            except ValueError:
                families += family.__subclasses__()
        return None


class SharedRule(Rule):
    """The verdicts every method shares: no pawns, not a K+P position, en passant."""

    MATERIAL = "material", "no pawns: cannot win"
    NOT_APPLICABLE = "not applicable", "not a legal king-and-pawn position"
    EN_PASSANT = "en passant", "a capture en passant pending: judged without it and after it"


class PaperRule(Rule):
    """David, Felner & Netanyahu (2004): the sections a verdict cites (the kings' 2.3 and
    its zugzwang test are cited by every static method)."""

    S2_2 = "paper 2.2", "fixed pawns and marked squares (paper 2.2)"
    S2_3 = "paper 2.3", "fence and kings (paper 2.3)"
    S3 = "paper 3", "black pawns below the fence removed; no pawn may capture (paper 3)"
    S3_1 = "paper 3.1", "dynamic pawn above the fence (paper 3.1)"
    S3_2 = "paper 3.2", "dynamic pawn on the fence (paper 3.2)"
    S3_3 = "paper 3.3", "dynamic pawn below the fence (paper 3.3)"
    S3_4 = "paper 3.4", "the exception (paper 3.4)", "E"


class WikiRule(Rule):
    """The Chessprogramming wiki's king-flood fence."""

    FLOOD = "wiki flood", "ram fence and king flood (wiki)"
    DYNAMIC = "wiki dynamic", "dynamic pawns (wiki)"


class ExtendedRule(Rule):
    """The extended method's criteria (``logic.extended_rules.RULES``: x1 and x2 dropped)."""

    X1 = "x1", "the lowest fence with the paper's 3.1-3.4 (extended, x1; dropped)"
    X2 = "x2", "KPK draw whoever moves (extended, x2; dropped)"
    X3 = "x3", "KPK: the pawn cannot be forced to promote, whoever moves (extended, x3)"
    X4 = "x4", "the lowest fence, every dynamic pawn held by pawns (extended, x4)"
    X5 = ("x5", "the shut-in king: White's whole play enumerated, Black marking time "
          "(extended, x5)")


class ExactRule(Rule):
    """The exact prover."""

    EXACT = ("exact", "exact retrograde analysis: a proof either way, or unknown within its "
             "budget")


class Code(StrEnum):
    """What a verdict's ``code`` names: the case its reason words (``Verdict.code``).

    The base of the code families, without members: :class:`SharedCode` (the cases of
    every static method's kings and pawns, and of the verdicts every method shares) and
    one family per method; a new method defines its own in its module and names it in
    :attr:`logic.registry.Method.codes`.  A member *is* its string (``"no-fence"``).
    """


class SharedCode(Code):
    """The codes every method may give."""

    MATERIAL = "material"
    PIECES = "pieces"
    ILLEGAL = "illegal"
    EN_PASSANT = "en-passant"
    BLOCKED = "blocked"
    KING_NOT_BELOW = "king-not-below"
    DEFENDER_BELOW = "defender-below"
    ZUGZWANG = "zugzwang"
    CAPTURE = "capture"
    PAWN = "pawn"
    #: a structure that fails nothing whatever the kings (``Structure.code``, never a
    #: verdict's)
    NONE = ""


class PaperCode(Code):
    """The paper's own codes."""

    NO_FENCE = "no-fence"
    REMOVAL_BREAKS = "removal-breaks"


class WikiCode(Code):
    """The wiki flood's own codes."""

    RAMS = "flood-rams"
    BREAKTHROUGH = "flood-breakthrough"


class ExtendedCode(Code):
    """The extended criteria's codes."""

    KING_NEEDED = "king-needed"
    KPK_DRAW = "kpk-draw"
    KPK_STOPPED = "kpk-stopped"
    SHUT_IN = "shut-in"


class ExactCode(Code):
    """The exact prover's codes."""

    PROVED = "proved"
    BREAKS = "breaks"
    UNKNOWN = "unknown"
    HORIZON = "horizon"


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
    #: the cross-checked methods (``Method.cross_checked``: the paper and the wiki flood)
    #: disagree
    METHODS_DISAGREE = "methods-disagree"
    #: a static method calls the side blocked and the exact prover proves a win
    CLAIMS_BLOCKED_EXACT_BREAKS = "claims-blocked-exact-breaks"
    #: the exact prover proves a blockage no static method recognises
    EXACT_BLOCKED_HEURISTIC_MISSES = "exact-blocked-heuristic-misses"
    #: the exact prover proves only a horizon: no forced promotion or mate within so many
    #: plies (the whole game too big for its budget)
    EXACT_HORIZON = "exact-horizon"
