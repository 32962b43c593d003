"""What the board shows on top of the pieces, built from ``logic``'s records.

:func:`live_overlay` reads a verdict (the final state); :func:`step_overlay`
replays a trace up to step ``k``: each board name keeps the value of the last
step that carried it (the standing state), classified pawns accumulate, and the
squares step ``k`` changed are drawn distinctly, with a recomputed fence drawn as a
difference (the step's ``joined`` and ``left`` boards, the pawns it removed or drowned:
``removed_now`` / ``drowned_now``).  Nothing here decides about
fences; it only reads what the detector recorded: the region board a method names
(:attr:`logic.registry.Method.region`), the pawn notes' and classify steps' facts
(category, ok, rule), never a step's text.

A static verdict whose code is one of its method's ``kingmap_codes`` (extended's x5)
draws its king mask as a king map of holding squares (H), not as squares the defending
king must stand on.  The exact prover's records draw the same way: its king map
(``Verdict.king_mask`` of a method that is not ``static``, the ``kingmap`` board and
``holds`` fact of its ``exact-kings`` step) with a letter, H where the defending king
holds or B where the attacking king breaks through; an ``exact-structure`` step's
``structure_white`` / ``structure_black`` boards as ghost pawns instead of the board's
pawns; an ``exact-move`` step's position after the move (fact ``fen``) and an arrow from
``from`` to ``to`` labelled with its ``san``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from logic.registry import METHODS
from logic.verdict import Verdict
from logic.vocab import Rule, Status
from viewer.model.theme import CATEGORY_LETTER, LegendItem

__all__ = ["Overlay", "live_overlay", "step_overlay", "badge_letter", "EMPTY", "legend_drawn"]


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
    #: a recomputed fence as a difference: squares that joined it, squares that left it,
    #: and the pawns removed or drowned in this very step
    joined: int = 0
    left: int = 0
    fresh: int = 0
    #: the exact prover's king map (hatch and letter: H the defending king holds there,
    #: B the attacking king breaks through from there, as ``kingmap_holds`` says)
    kingmap: int = 0
    kingmap_holds: bool = True
    #: a pawn structure to draw as ghost pawns instead of the board's pawns
    #: ``(white pawns, black pawns)``, or None
    ghosts: tuple[int, int] | None = None
    #: a position to draw instead of the board's (a FEN from a step's facts), or ""
    fen: str = ""
    #: a move drawn as an arrow ``(from square, to square, its label)``, or None
    arrow: tuple[int, int, str] | None = None


EMPTY = Overlay()


def badge_letter(category: str, rule: str) -> str:
    """The letter of a dynamic pawn's badge: the letter of the rule that decided it where
    the rule has one (:attr:`logic.vocab.Rule.letter`: E for the paper's 3.4 exception),
    else its category's (A above, O on, B below, L a fence lever)."""
    found = Rule.named(rule)
    return (found.letter if found is not None else "") or CATEGORY_LETTER.get(category, "?")


def _badges(v: Verdict) -> dict[int, tuple[str, bool]]:
    return {note.square: (badge_letter(note.category, note.rule), note.ok) for note in v.pawns}


def _region(v: Verdict) -> str:
    """The name of the attacking king's region for ``v``'s method (a step board name
    and a verdict property: ``below``, ``flood``; see :attr:`logic.registry.Method.region`)."""
    method = METHODS.get(v.method)
    return method.region if method is not None else "below"


def _proves(v: Verdict) -> bool:
    """Whether ``v`` is a prover's (a method that is not ``static``: its king mask is a
    king map)."""
    method = METHODS.get(v.method)
    return method is not None and not method.static


def _arrow(step: object) -> tuple[int, int, str] | None:
    """The move a step's facts name (``from``, ``to``, ``san``), or None."""
    fact = getattr(step, "fact", None)
    if fact is None:
        return None
    a, b = fact("from"), fact("to")
    if not (isinstance(a, int) and isinstance(b, int) and 0 <= a < 64 and 0 <= b < 64):
        return None
    return a, b, str(fact("san", "") or "")


def _proof_overlay(v: Verdict) -> Overlay:
    """A prover's final state: its king map and the first move of its line."""
    if v.status != Status.OK:
        return EMPTY
    first = next((s for s in v.steps if _arrow(s) is not None), None)
    return Overlay(kingmap=v.king_mask, kingmap_holds=v.blocked,
                   arrow=_arrow(first) if first is not None else None)


def live_overlay(v: Verdict | None) -> Overlay:
    """The verdict's final state: marked squares, fence, king side, categories (a
    prover's: the king map and the first move of its line)."""
    if v is None or not v.raw:
        return EMPTY
    if _proves(v):
        return _proof_overlay(v)
    km = v.king_mask
    method = METHODS.get(v.method)
    as_map = method is not None and v.code in method.kingmap_codes  # x5: H, not outlines
    return Overlay(
        marked=v.marked,
        fence=v.fence,
        below=getattr(v, _region(v), v.below),
        removed=v.removed | v.drowned,
        fixed=v.fixed,
        badges=_badges(v),
        # where the defending king may stand for the verdict: never below the fence
        king_mask=0 if as_map or km == chess.BB_ALL else km & ~v.below,
        kingmap=km if as_map else 0,
    )


def step_overlay(v: Verdict, k: int) -> Overlay:
    """The standing state after step ``k`` of ``v.steps`` (0-based)."""
    steps = v.steps[: k + 1]
    boards: dict[str, int] = {}
    badges: dict[int, tuple[str, bool]] = {}
    holds = True
    for s in steps:
        for name, bb in s.boards:
            boards[name] = bb
        category = s.fact("category")
        if category is not None and s.square is not None:
            badges[s.square] = (badge_letter(category, s.fact("rule", "")), bool(s.fact("ok")))
        if s.fact("holds") is not None:
            holds = bool(s.fact("holds"))
    current = steps[-1] if steps else None
    if current is not None and current.board("structure_white", -1) != -1:
        ghosts: tuple[int, int] | None = (current.board("structure_white"),
                                          current.board("structure_black"))
    else:
        ghosts = None
    fen = current.fact("fen", "") if current is not None else ""
    fen = fen if isinstance(fen, str) else ""
    below = boards.get(_region(v), 0)
    joined = current.board("joined") if current is not None else 0
    left = current.board("left") if current is not None else 0
    fresh = (current.board("removed_now") | current.board("drowned_now")
             if current is not None else 0)
    return Overlay(
        marked=boards.get("marked", 0),
        fence=boards.get("fence", 0),
        below=below,
        path=boards.get("path", 0) if not boards.get("fence") else 0,
        processed=boards.get("processed", 0) if not boards.get("fence") else 0,
        removed=boards.get("removed", 0) | boards.get("drowned", 0),
        fixed=boards.get("fixed", 0),
        # a king map is drawn as itself, not also as "changed"
        changed=((current.changed & ~current.board("kingmap") if current is not None else 0)
                 | joined | left),
        # a dynamic pawn's step: where the defending king must stand for it (3.1, 3.4)
        king_mask=current.board("kmask") if current is not None else 0,
        badges=badges,
        joined=joined,
        left=left,
        fresh=fresh,
        # the king map is about the position itself: not over a structure or a line
        kingmap=0 if ghosts is not None or fen else boards.get("kingmap", 0),
        kingmap_holds=holds,
        ghosts=ghosts,
        fen=fen,
        arrow=_arrow(current) if current is not None else None,
    )


def _drawn_styles(ov: Overlay) -> set[str]:
    """The legend styles ``ov`` draws something of."""
    oks = {ok for _letter, ok in ov.badges.values()}
    drawn = {style for style, bits in (
        ("hatch", ov.marked), ("fence", ov.fence), ("dots", ov.below), ("fixed", ov.fixed),
        ("dfs", ov.processed | (ov.path & ~ov.fence)),
        ("cross", ov.removed), ("recompute", ov.joined | ov.left | ov.fresh),
        ("outline", ov.changed), ("thin", ov.king_mask), ("edge", ov.kpk_square),
        ("key", ov.kpk_keys)) if bits}
    drawn |= {"letters"} if ov.badges else set()
    drawn |= {"holds"} if True in oks else set()
    drawn |= {"breaks"} if False in oks else set()
    drawn |= {"ghost"} if ov.ghosts is not None else set()
    drawn |= {"move"} if ov.arrow is not None else set()
    return drawn


def legend_drawn(items: tuple[LegendItem, ...], ov: Overlay) -> tuple[LegendItem, ...]:
    """The lines of ``items`` that ``ov`` draws something for (a figure's legend lists what
    is in the figure; the window keeps every line so that its layout stays put).  A king
    map line needs a king map of its kind (H holds / B breaks); arrows of the analysis are
    kept (an overlay does not hold them)."""
    drawn = _drawn_styles(ov)
    kind = "kingmap_holds" if ov.kingmap_holds else "kingmap_breaks"
    return tuple(i for i in items if i.style in drawn or i.style == "arrows"
                 or (i.style == "kingmap" and ov.kingmap and i.colour == kind))
