"""One-line explanations of verdicts and pawn notes, in real board coordinates.

The words shared by every method live here (not applicable, material, the kings of
2.3, the blockage itself, and the pawn cases several methods share: above the fence,
a lever, stopped by an own pawn, rammed, engaging an attack); a method's own codes
are worded by the method (:meth:`logic.registry.Method.reason` and ``note_text``).
Formatting is done only when a caller reads ``Verdict.reason`` / ``Verdict.pawns``
(or when tracing), never on the detector's fast path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess

from logic.records import Note
from logic.registry import METHODS, Method
from logic.vocab import SharedCode

if TYPE_CHECKING:
    from logic.steps import Recorder
    from logic.verdict import Verdict

__all__ = ["verdict_reason", "note_reason", "note_reason_oriented", "Names", "status_names"]


class Names:
    """Maps oriented squares to real names for one colour (a tiny Recorder stand-in):
    ``name(square)``, ``us`` and ``them``."""

    __slots__ = ("flipped", "us", "them")

    def __init__(self, color: chess.Color) -> None:
        self.flipped = not color
        self.us = "White" if color else "Black"
        self.them = "Black" if color else "White"

    def name(self, sq: int) -> str:
        return chess.square_name(sq ^ 0x38 if self.flipped else sq)


def _shared_note_text(nm: Any, n: Note, ok: bool, bk: int) -> str:
    p = nm.name(n.square)
    t = nm.name(n.target) if n.target is not None else ""
    texts = {
        "above": (f"{p} is above the fence; {nm.them}'s king on {nm.name(bk)} "
                  + ("stands in front of it and stops it" if ok else
                     "is not in front of it, so it may run")),
        "lever": f"{p} is below the fence and can already capture or be captured",
        "own": f"{p} is below the fence and is stopped by the {nm.us} pawn on {t}",
        "ram": f"{p} is below the fence and ends blocked by the {nm.them} pawn on {t}",
        "engage": (f"{p} is below the fence and reaches {t}, a square a {nm.them} pawn "
                   "attacks: the pawn structure may change"),
    }
    return texts.get(n.code, n.code)


def _pawn_text(nm: Any, n: Note, ok: bool, bk: int, method: Method | None) -> str:
    text = method.note_text(nm, n, ok, bk) if method is not None else None
    if text is None:
        text = _shared_note_text(nm, n, ok, bk)
    return f"{text} ({n.rule})."


def note_reason(v: Verdict, n: Note, ok: bool) -> str:
    """Why pawn note ``n`` of verdict ``v`` is ok or not, in real coordinates."""
    return _pawn_text(Names(v.color), n, ok, v.kings[1], METHODS.get(v.method))


def note_reason_oriented(rec: Recorder, n: Note, ok: bool, bk: int, method: Method) -> str:
    """The same, for a trace step (``rec`` does the naming)."""
    return _pawn_text(rec, n, ok, bk, method)


def _not_applicable(code: str, args: tuple[Any, ...]) -> str:
    if code == SharedCode.PIECES:
        return (f"not applicable: pieces other than kings and pawns on the board "
                f"({', '.join(args)})")
    return f"not applicable: illegal position ({status_names(args[0])})"


def status_names(status: int) -> str:
    """The flags of a ``chess.Board.status()`` in words: "bad castling rights, ..."."""
    flags = chess.Status(status)
    return ", ".join(f.name.lower().replace("_", " ") for f in chess.Status
                     if f in flags and f.name)


def verdict_reason(v: Verdict) -> str:
    """Why verdict ``v`` is what it is: one line citing the rule."""
    nm = Names(v.color)
    code, args = v.code, v.args
    if code in (SharedCode.PIECES, SharedCode.ILLEGAL):
        return _not_applicable(code, args)
    if code == SharedCode.MATERIAL:
        return f"{nm.us} has no pawns left (material)"
    if code == SharedCode.EN_PASSANT:
        return (f"{nm.us} can capture en passant ({args[0]}), and the position after it is "
                f"not proved blocked ({v.rule})")
    method = METHODS.get(v.method)
    own = method.reason(v, nm) if method is not None else None
    if own is not None:
        return own
    wk, bk = v.kings
    if code == SharedCode.KING_NOT_BELOW:
        return f"{nm.us}'s king on {nm.name(wk)} is not below the fence ({v.rule})"
    if code == SharedCode.DEFENDER_BELOW:
        return f"{nm.them}'s king on {nm.name(bk)} is below the fence too ({v.rule})"
    if code == SharedCode.CAPTURE:  # paper 3 (and the flood's drowned pawns)
        return (f"{nm.name(args[0])} can take {nm.name(args[1])}: the structure changes, no "
                f"blockage ({v.rule})")
    if code == SharedCode.ZUGZWANG:
        return f"{nm.them}'s king on {nm.name(bk)} has no vacant square: zugzwang ({v.rule})"
    if code == SharedCode.PAWN:
        for n in v.note_tuples:
            if n.square == args[0]:
                ok = n.ok and (n.kmask is None or bool(n.kmask >> bk & 1))
                return _pawn_text(nm, n, ok, bk, method)[:-1]
    if code == SharedCode.BLOCKED:
        fence_names = ", ".join(chess.square_name(s) for s in sorted(
            chess.scan_forward(v.fence), key=lambda s: (s & 7, s >> 3)))
        return f"blockage: fence {fence_names} holds ({v.rule})"
    return code
