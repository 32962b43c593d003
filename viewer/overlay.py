"""What the board shows on top of the pieces, built from ``logic``'s records.

:func:`live_overlay` reads a verdict (the final state); :func:`step_overlay`
replays a trace up to step ``k``: each board name keeps the value of the last
step that carried it (the standing state), classified pawns accumulate, and the
squares step ``k`` changed are drawn distinctly.  Nothing here decides about
fences; it only reads what the detector recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from logic.verdict import Verdict
from viewer.theme import CATEGORY_LETTER

__all__ = ["Overlay", "live_overlay", "step_overlay", "EMPTY"]


@dataclass(frozen=True)
class Overlay:
    """Bitboards and badges to draw (real board coordinates)."""

    marked: int = 0
    fence: int = 0
    below: int = 0
    path: int = 0
    processed: int = 0
    removed: int = 0
    fixed: int = 0
    changed: int = 0
    #: square -> (letter, ok) for dynamic pawns already classified
    badges: dict[int, tuple[str, bool]] = field(default_factory=dict)
    #: squares the defending king must stand on (3.1 / 3.4), drawn as a thin outline
    king_mask: int = 0
    #: KPK: the square of the pawn and the key squares
    kpk_square: int = 0
    kpk_keys: int = 0


EMPTY = Overlay()


def _badges(v: Verdict) -> dict[int, tuple[str, bool]]:
    out = {}
    for note in v.pawns:
        letter = CATEGORY_LETTER.get(note.category, "?")
        if note.rule == "paper 3.4":
            letter = "E"
        out[note.square] = (letter, note.ok)
    return out


def live_overlay(v: Verdict | None) -> Overlay:
    """The verdict's final state: marked squares, fence, king side, categories."""
    if v is None or not v.raw:
        return EMPTY
    km = v.king_mask
    return Overlay(
        marked=v.marked,
        fence=v.fence,
        below=v.below if v.fence or v.method == "flood" else 0,
        removed=v.removed | v.drowned,
        fixed=v.fixed,
        badges=_badges(v),
        king_mask=0 if km == chess.BB_ALL else km,
    )


def step_overlay(v: Verdict, k: int) -> Overlay:
    """The standing state after step ``k`` of ``v.steps`` (0-based)."""
    steps = v.steps[: k + 1]
    boards: dict[str, int] = {}
    badges: dict[int, tuple[str, bool]] = {}
    for s in steps:
        for name, bb in s.boards:
            boards[name] = bb
        if s.kind == "classify" and s.square is not None:
            letter = "E" if s.section == "paper 3.4" else (
                "A" if "above" in s.phase else "B" if "below" in s.phase else "O")
            if s.section == "wiki dynamic" and "part of the ram fence" in s.text:
                letter = "L"
            badges[s.square] = (letter, bool(s.board("ok")))
    current = steps[-1] if steps else None
    is_flood = v.method == "flood"
    below = boards.get("flood" if is_flood else "below", 0)
    return Overlay(
        marked=boards.get("marked", 0),
        fence=boards.get("fence", 0),
        below=below,
        path=boards.get("path", 0) if not boards.get("fence") else 0,
        processed=boards.get("processed", 0) if not boards.get("fence") else 0,
        removed=boards.get("removed", 0) | boards.get("drowned", 0),
        fixed=boards.get("fixed", 0),
        changed=current.changed if current is not None else 0,
        badges=badges,
    )
