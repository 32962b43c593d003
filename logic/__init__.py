"""pawnfence's logic: blockage detection in pawn endgames, pure and pygame-free.

Public API::

    import chess, logic
    v = logic.detect(chess.Board(fen), chess.WHITE, method="paper", trace=True)
    v.blocked, v.rule, v.reason, v.fence, v.pawns, v.steps

``logic.METHODS`` maps each method's name to its object (``"paper"``: David, Felner &
Netanyahu 2004; ``"flood"``: the Chessprogramming wiki's king flood).  See
:func:`logic.blockage.detect`.
"""

from logic.blockage import cache_info, clear_cache, detect, detect_bitboards, is_blocked
from logic.position import PositionError, parse_position
from logic.registry import METHODS, STATIC_METHODS, DetectError, Method
from logic.steps import Step
from logic.verdict import PawnNote, Verdict
from logic.vocab import DEFAULT_METHOD, Category, NoteCategory, Rule, Status

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
    "NoteCategory",
    "Rule",
    "Status",
    "cache_info",
    "clear_cache",
    "detect",
    "detect_bitboards",
    "is_blocked",
    "parse_position",
]
__version__ = "0.1.0"
