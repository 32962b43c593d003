"""One-line explanations of verdicts and pawn notes, in real board coordinates.

Formatting is done only when a caller reads ``Verdict.reason`` / ``Verdict.pawns``
(or when tracing), never on the detector's fast path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess

from logic.fence import dfs_fence

if TYPE_CHECKING:
    from logic.steps import Recorder
    from logic.verdict import Verdict

__all__ = ["verdict_reason", "note_reason", "note_reason_oriented", "king_reach"]


class _Names:
    """Maps oriented squares to real names for one colour (a tiny Recorder stand-in)."""

    def __init__(self, color: chess.Color) -> None:
        self.flipped = not color
        self.us = "White" if color else "Black"
        self.them = "Black" if color else "White"

    def name(self, sq: int) -> str:
        return chess.square_name(sq ^ 0x38 if self.flipped else sq)


def king_reach(marked: int, king: int) -> int:
    """Squares an (oriented) king on ``king`` reaches through unmarked squares (8-connected)."""
    from logic.bitboards import king_attacks_setwise

    region = 1 << king
    free = chess.BB_ALL & ~marked
    while True:
        grown = king_attacks_setwise(region) & free | region
        if grown == region:
            return region
        region = grown


def _pawn_text(nm: Any, n: tuple[Any, ...], ok: bool, bk: int) -> str:
    sq, category, _ok, rule, code, target, _kmask = n
    p = nm.name(sq)
    t = nm.name(target) if target is not None else ""
    them, us = nm.them, nm.us
    two = nm.name(target + 16) if target is not None and target < 48 else "?"
    front = nm.name(target + 8) if target is not None and target < 56 else "?"
    tfile = chess.FILE_NAMES[target & 7] if target is not None else "?"
    texts = {
        "above": (f"{p} is above the fence; {them}'s king on {nm.name(bk)} "
                  + ("stands in front of it and stops it" if ok else
                     "is not in front of it, so it may run")),
        "on-ok": (f"{p} is on the fence: {them}'s pawn two squares ahead ({two}), the only "
                  f"{us} pawn on its file, and {front} is not attacked: capturing or pushing "
                  "keeps the fence"),
        "lever": f"{p} is below the fence and can already capture or be captured",
        "own": f"{p} is below the fence and is stopped by the {us} pawn on {t}",
        "ram": f"{p} is below the fence and ends blocked by the {them} pawn on {t}",
        "engage": (f"{p} reaches {t}, attacked by a {them} pawn below the fence: the pawn "
                   "structure may change"),
        "reach-ok": (f"{p} can reach the fence at {t}, where the 3.2 conditions hold "
                     f"({them} pawn on {two}, only pawn on the file, {front} not attacked)"),
        "reach-34": (f"{p} can reach the fence at {t} with no {them} pawn on {two}, but the 3.4 "
                     f"exception " + ("holds: " if ok else "needs ")
                     + f"{them}'s king on the {tfile}-file, one fixed "
                     "fence pawn on each neighbouring file on the same rank below the 6th"),
        "chain-lever": f"{p} is part of the ram fence but can capture (a lever)",
        "runs": f"{p} is below the fence and is never blocked",
        "above-not-passed": f"{p} is above the fence and is not a passed pawn",
    }
    if code.startswith(("on-", "reach-")) and code not in texts:
        clauses = {
            "no-two": f"no {them} pawn two squares ahead on {two}",
            "not-only": f"not {us}'s only pawn on its file",
            "front-attacked": f"{front}, the square in front, is attacked by a {them} pawn",
        }
        head, _, conds = code.partition("-")
        where = f"{p} is on the fence" if head == "on" else f"{p} can reach the fence at {t}"
        text = where + ": " + "; ".join(clauses[c] for c in conds.split("+"))
    else:
        text = texts.get(code, code)
    if code == "above" and rule == "wiki dynamic":
        text = text.replace("above the fence", "a passed pawn above the fence")
    return f"{text} ({rule})."


def note_reason(v: Verdict, n: tuple[Any, ...], ok: bool) -> str:
    """Why pawn note ``n`` of verdict ``v`` is ok or not, in real coordinates."""
    return _pawn_text(_Names(v.color), n, ok, v.kings[1])


def note_reason_oriented(rec: Recorder, n: tuple[Any, ...], ok: bool, bk: int) -> str:
    """The same, for a trace step (``rec`` does the naming)."""
    return _pawn_text(rec, n, ok, bk)


def verdict_reason(v: Verdict) -> str:
    """Why verdict ``v`` is what it is: one line citing the rule."""
    nm = _Names(v.color)
    us, them = nm.us, nm.them
    code, args = v.code, v.args
    if code == "pieces":
        return (f"not applicable: pieces other than kings and pawns on the board "
                f"({', '.join(args)})")
    if code == "illegal":
        flags = chess.Status(args[0])
        names = ", ".join(f.name.lower().replace("_", " ") for f in chess.Status
                          if f in flags and f.name)
        return f"not applicable: illegal position ({names})"
    if code == "material":
        return f"{us} has no pawns left (material)"
    wk, bk = v.kings
    if code == "no-fence":
        marked = v.raw[1]
        reach = king_reach(marked, wk)
        top = reach.bit_length() - 1
        if v.method == "paper" and dfs_fence(marked):
            return f"no fence ({v.rule})"
        return f"no fence: {us}'s king reaches {nm.name(top)} ({v.rule})"
    if code == "removal-breaks":
        return (f"no fence once the {them} pawns below it are removed: {us}'s king can "
                f"capture them ({v.rule})")
    if code == "capture":
        return (f"{nm.name(args[0])} can take {nm.name(args[1])}: the structure changes, no "
                f"blockage ({v.rule})")
    if code == "flood-rams":
        return f"fewer than three rams, no ram fence ({v.rule})"
    if code == "flood-breakthrough":
        top = v.raw[5].bit_length() - 1
        return f"no fence: the king flood breaks through to {nm.name(top)} ({v.rule})"
    if code == "king-not-below":
        return f"{us}'s king on {nm.name(wk)} is not below the fence ({v.rule})"
    if code == "defender-below":
        return f"{them}'s king on {nm.name(bk)} is below the fence too ({v.rule})"
    if code == "zugzwang":
        return f"{them}'s king on {nm.name(bk)} has no vacant square: zugzwang ({v.rule})"
    if code == "pawn":
        for n in v.note_tuples:
            if n[0] == args[0]:
                ok = n[2] and (n[6] is None or bool(n[6] >> bk & 1))
                return _pawn_text(nm, n, ok, bk)[:-1]
    if code == "blocked":
        fence_names = ", ".join(chess.square_name(s) for s in sorted(
            chess.scan_forward(v.fence), key=lambda s: (s & 7, s >> 3)))
        return f"blockage: fence {fence_names} holds ({v.rule})"
    return code
