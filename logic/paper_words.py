"""The paper's words: its pseudo-code (:data:`PAPER_LISTING`, the Code pane's), the reasons
of its own verdict codes (:func:`paper_reason`) and the texts of its own pawn notes
(:func:`paper_note_text`: 3.2 on or reaching the fence, 3.4).  The method
(:class:`logic.paper.PaperMethod`) holds them; the extended method, built on the paper,
shares them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess

from logic.fence import dfs_fence, king_reach
from logic.listing import CodeLine, Listing
from logic.records import Note
from logic.vocab import PaperCode

if TYPE_CHECKING:
    from logic.verdict import Verdict

__all__ = ["PAPER_LISTING", "paper_reason", "paper_note_text"]

_L = CodeLine
#: David, Felner & Netanyahu's procedure and Figure 8: each line names the step kinds it
#: stands for
PAPER_LISTING = Listing("David, Felner & Netanyahu (2004): blockage and Figure 8", (
    _L(0, "blockage(position), White to win:"),
    _L(1, "fixed ← White pawns blocked by a pawn or a fixed pawn, unable to capture",
       ("mark-fixed",)),
    _L(1, "marked ← fixed + the squares Black pawns attack", ("mark-attacks",)),
    _L(1, "fence ← FenceSearch(marked)  # Figure 8, below",
       ("dfs-note",)),
    _L(1, "while Black pawns stand below the fence:", ()),
    _L(2, "remove them (White's king may take them); mark again", ("remove-below",)),
    _L(2, "fence ← FenceSearch(marked); say what joined / left",
       ("fence-recomputed",)),
    _L(1, "if a White pawn can take a removed pawn: no blockage (3)", ("capture",)),
    _L(1, "cross-check: label the unmarked squares (CCL)", ("ccl",)),
    _L(1, "White's king below the fence, Black's above it? (2.3)", ("kings",)),
    _L(1, "Black's king has a vacant square? (no zugzwang)", ("zugzwang",)),
    _L(1, "for each dynamic White pawn: above (3.1), on (3.2), below (3.3, 3.4)",
       ("classify",)),
    _L(1, "return the verdict", ("verdict",)),
    _L(0, ""),
    _L(0, "FenceSearch(marked):  # Figure 8 (2.3)"),
    _L(1, "for r from 7 down to 2:"),
    _L(2, "if marked[a][r] and FormsFence(a, r): return the fence", ("dfs-start",)),
    _L(1, "return no fence", ("dfs-none",)),
    _L(0, "FormsFence(f, r):"),
    _L(1, "processed[f][r] ← true"),
    _L(1, "if f = h: fence += (f, r); return true", ("dfs-found",)),
    _L(1, "for (f', r') in north, east, south of (f, r):"),
    _L(2, "if marked and not processed and FormsFence(f', r'):", ("dfs-advance",)),
    _L(3, "fence += (f, r); return true"),
    _L(1, "return false  # backtrack", ("dfs-backtrack",)),
))


def paper_reason(v: Verdict, name: Any) -> str | None:
    """The reason of a verdict whose code is the paper's own (no fence, removal breaks it),
    else None (``name`` names oriented squares)."""
    code = v.code
    us, them = name.us, name.them
    if code == PaperCode.NO_FENCE:
        marked = v.boards.marked
        if dfs_fence(marked):
            return f"no fence ({v.rule})"
        top = king_reach(marked, v.kings[0]).bit_length() - 1
        return f"no fence: {us}'s king reaches {name.name(top)} ({v.rule})"
    if code == PaperCode.REMOVAL_BREAKS:
        return (f"no fence once the {them} pawns below it are removed: {us}'s king can "
                f"capture them ({v.rule})")
    return None


def paper_note_text(name: Any, note: Note, ok: bool) -> str | None:
    """The words of the paper's own note codes (3.2 on / reaching the fence, 3.4)."""
    code, target = note.code, note.target
    if not code.startswith(("on-", "reach-")):
        return None
    p = name.name(note.square)
    t = name.name(target) if target is not None else ""
    them, us = name.them, name.us
    two = name.name(target + 16) if target is not None and target < 48 else "?"
    front = name.name(target + 8) if target is not None and target < 56 else "?"
    if code == "on-ok":
        return (f"{p} is on the fence: {them}'s pawn two squares ahead ({two}), the only "
                f"{us} pawn on its file, and {front} is not attacked: capturing or pushing "
                "keeps the fence")
    if code == "reach-ok":
        return (f"{p} can reach the fence at {t}, where the 3.2 conditions hold "
                f"({them} pawn on {two}, only pawn on the file, {front} not attacked)")
    if code == "reach-34":
        tfile = chess.FILE_NAMES[target & 7] if target is not None else "?"
        return (f"{p} can reach the fence at {t} with no {them} pawn on {two}, but the 3.4 "
                "exception " + ("holds: " if ok else "needs ") + f"{them}'s king on the "
                f"{tfile}-file, one fixed fence pawn on each neighbouring file on the same "
                "rank below the 6th")
    clauses = {
        "no-two": f"no {them} pawn two squares ahead on {two}",
        "not-only": f"not {us}'s only pawn on its file",
        "front-attacked": f"{front}, the square in front, is attacked by a {them} pawn",
    }
    head, _, conds = code.partition("-")
    where = f"{p} is on the fence" if head == "on" else f"{p} can reach the fence at {t}"
    return where + ": " + "; ".join(clauses[c] for c in conds.split("+"))
