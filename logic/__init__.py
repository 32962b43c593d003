"""pawnfence's logic: blockage detection in pawn endgames, pure and pygame-free.

Public API::

    import chess, logic
    v = logic.detect(chess.Board(fen), chess.WHITE, method="paper", trace=True)
    v.blocked, v.rule, v.reason, v.fence, v.pawns, v.steps

``logic.METHODS`` maps each method's name to its object (``"paper"``: David, Felner &
Netanyahu 2004; ``"flood"``: the Chessprogramming wiki's king flood; ``"exact"``: the exact
prover; ``"extended"``: the paper plus checked criteria), and each object carries what
the tools show of it (rules and their headings, pseudo-code, legend); ``logic.register``
adds a method.  See :func:`logic.blockage.detect` and :class:`logic.registry.Method`.
"""

from logic.blockage import cache_info, clear_cache, detect, detect_bitboards, is_blocked
from logic.legend import LegendItem
from logic.listing import CodeLine, Listing
from logic.position import PositionError, parse_position
from logic.registry import METHODS, STATIC_METHODS, DetectError, Method, register, unregister
from logic.steps import Step
from logic.verdict import PawnNote, Verdict
from logic.vocab import (
    DEFAULT_METHOD,
    Category,
    Code,
    NoteCategory,
    Rule,
    SharedCode,
    SharedRule,
    Status,
)

__all__ = [
    "DEFAULT_METHOD",
    "METHODS",
    "STATIC_METHODS",
    "DetectError",
    "Method",
    "PawnNote",
    "PositionError",
    "Step",
    "Verdict",
    "Category",
    "Code",
    "CodeLine",
    "LegendItem",
    "Listing",
    "NoteCategory",
    "Rule",
    "SharedCode",
    "SharedRule",
    "Status",
    "cache_info",
    "clear_cache",
    "detect",
    "detect_bitboards",
    "is_blocked",
    "parse_position",
    "register",
    "unregister",
]
__version__ = "0.1.0"
