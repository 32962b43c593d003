"""The wiki's method: the Chessprogramming wiki's ``forms_fence4white`` king flood.

A ram fence (rams, the own pawns blocked behind them, every square an opposing pawn
attacks), the king flood in cycles from White's first rank, undefended black pawns
drowned and the fence recomputed, the breakthrough test, then the kings (shared with
the paper, :func:`logic.kings.decide`) and the page's rules for dynamic pawns: a
passed pawn above the fence needs the defending king in front of it; a pawn below it
must not be a lever and must end rammed; a pawn that can take a drowned pawn changes
the structure.  Everything is oriented (the side under test is White).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import chess

from logic.bitboards import BB_ALL, BB_NOT_A, BB_NOT_H, NORTH_SPAN, king_attacks_setwise
from logic.fence import black_pawn_attacks
from logic.kings import pawn_guard
from logic.listing import CodeLine, Listing
from logic.records import Boards, Note, Structure
from logic.static import StaticMethod
from logic.steps import Recorder
from logic.vocab import NoteCategory, SharedCode, WikiCode, WikiRule

__all__ = ["FLOOD", "FloodMethod", "FloodResult", "ram_fence", "king_flood", "flood_structure",
           "FLOOD_LISTING"]

_ALL = BB_ALL
_NOT_A = BB_NOT_A
_NOT_H = BB_NOT_H
_WHITE_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS[chess.WHITE]
_NORTH_SPAN = NORTH_SPAN


def ram_fence(w: int, b: int) -> int:
    """The wiki's ram fence (``forms_fence4white``): White's rams, own pawns blocked
    behind them (four times), and all black pawn attacks; 0 if fewer than three rams."""
    fence = w & (b >> 8)
    if fence.bit_count() < 3:
        return 0
    fence |= w & (fence >> 8)
    fence |= w & (fence >> 8)
    fence |= w & (fence >> 8)
    fence |= w & (fence >> 8)
    return fence | black_pawn_attacks(b)


class FloodResult(NamedTuple):
    """Outcome of :func:`king_flood`: ``closed`` is True when the flood stopped below
    the fence; ``fence``, ``flood`` and ``drowned`` are bitboards and ``why`` says why
    the flood failed ("rams" or "breakthrough") when it did."""

    closed: bool
    fence: int
    flood: int
    drowned: int
    why: str


def king_flood(w: int, b: int, rec: Recorder | None = None) -> FloodResult:
    """The wiki's ``forms_fence4white`` king flood.

    The flood starts on rank 1 plus every square below the fence's lowest square,
    grows by one king step per cycle, never enters fence squares, drowns (captures)
    the undefended black pawns it reaches and recomputes the ram fence after each
    drowning; it fails on reaching a square above the fence's highest square, or
    when fewer than three rams remain.
    """
    fence = ram_fence(w, b)
    if not fence:
        if rec is not None:
            rec.add(
                "flood-rams", WikiRule.FLOOD, "ram fence",
                f"Fewer than three rams ({rec.us} pawns blocked by {rec.them} pawns): "
                f"no ram fence.{rec.view_note}",
                rams=w & (b >> 8),
            )
        return FloodResult(False, 0, 0, 0, "rams")
    if rec is not None:
        rec.add(
            "flood-fence", WikiRule.FLOOD, "ram fence",
            f"Ram fence: rams {rec.names(w & (b >> 8))}, the {rec.us} pawns blocked behind "
            f"them, and every square a {rec.them} pawn attacks.{rec.view_note}",
            changed=fence, fence=fence, rams=w & (b >> 8),
        )
    low = fence & -fence
    flood = chess.BB_RANK_1 | (low - 1)
    flood &= ~fence
    above = BB_ALL & ~((2 << (fence.bit_length() - 1)) - 1)
    drowned = 0
    cycles = 0
    if rec is not None:
        rec.add(
            "flood-start", WikiRule.FLOOD, "flood cycle 0",
            f"The {rec.us} king's flood starts on its first rank and below the fence's "
            f"lowest square {rec.name(low.bit_length() - 1)}.",
            changed=flood, fence=fence, flood=flood, above=above,
        )
    while True:
        before = flood
        flood = king_attacks_setwise(flood) & ~fence
        if flood == before:
            if rec is not None:
                rec.add(
                    "flood-stop", WikiRule.FLOOD, "flood stopped",
                    "The flood does not grow any more: the fence holds.",
                    fence=fence, flood=flood, above=above, drowned=drowned,
                )
            return FloodResult(True, fence, flood, drowned, "")
        cycles += 1
        if rec is not None:
            rec.add(
                "flood-cycle", WikiRule.FLOOD, f"flood cycle {cycles}",
                f"Flood cycle {cycles}: the king region grows by one step "
                f"({(flood & ~before).bit_count()} new squares).",
                changed=flood & ~before, fence=fence, flood=flood, above=above,
                drowned=drowned,
            )
        if flood & above:
            if rec is not None:
                rec.add(
                    "flood-breakthrough", WikiRule.FLOOD, "breakthrough",
                    f"The flood reaches {rec.names(flood & above)}, above the fence: "
                    "the fence is penetrable.",
                    changed=flood & above, fence=fence, flood=flood, above=above,
                    drowned=drowned,
                )
            return FloodResult(False, fence, flood, drowned, "breakthrough")
        if flood & b:
            hit = flood & b
            drowned |= hit
            b &= ~hit
            old, fence = fence, ram_fence(w, b)
            if rec is not None:
                joined, left = fence & ~old, old & ~fence
                rec.add(
                    "flood-drown", WikiRule.FLOOD,
                    f"fence recomputed after {rec.names(hit)} drowned",
                    f"The flood reaches undefended {rec.them} pawn(s) {rec.names(hit)}: "
                    "they are captured and the ram fence is recomputed: "
                    + ("it comes out unchanged." if fence == old else
                       "; ".join(f"{rec.names(bb)} {verb} it" for bb, verb in
                                 ((left, "left"), (joined, "joined")) if bb) + "."),
                    changed=hit, facts=(("unchanged", fence == old),), fence=fence,
                    flood=flood, above=above, drowned=drowned, joined=joined, left=left,
                    drowned_now=hit,
                )
            if not fence:
                return FloodResult(False, 0, flood, drowned, "rams")


def flood_structure(w: int, b: int, rec: Recorder | None = None) -> Structure:
    """King-independent part of the wiki's flood detector, on an oriented position."""
    res = king_flood(w, b, rec)
    fence, flood, drowned = res.fence, res.flood, res.drowned
    if not res.closed:
        raw = Boards(fixed=0, marked=fence, fence=fence, below=flood, removed=0, flood=flood,
                     drowned=drowned, kmask=_ALL)
        code = WikiCode.RAMS if res.why == "rams" else WikiCode.BREAKTHROUGH
        return Structure(fail_rule=WikiRule.FLOOD, code=code, args=(), boards=raw, notes=(),
                         kmask=_ALL, used=None, guard=0)
    bf = b & ~drowned
    b_att = black_pawn_attacks(bf)
    chain = w & fence
    # as in paper 3: a drowned pawn is gone for the king, not for White's pawns: one that
    # can take it now changes the structure (the wiki counts only non-lever pawns)
    dr_att = black_pawn_attacks(drowned)
    if w & dr_att:
        p = (w & dr_att & -(w & dr_att)).bit_length() - 1
        hit = _WHITE_PAWN_ATTACKS[p] & drowned
        t = (hit & -hit).bit_length() - 1
        if rec is not None:
            rec.add(
                "capture", WikiRule.DYNAMIC, "a pawn can capture",
                f"{rec.name(p)} can take {rec.name(t)} (a {rec.them} pawn the flood drowned): "
                "the structure changes, no blockage (the wiki counts only non-lever pawns).",
                changed=(1 << p) | (1 << t), square=p, fence=fence, flood=flood,
                drowned=drowned,
            )
        raw = Boards(fixed=chain, marked=fence, fence=fence, below=flood, removed=0, flood=flood,
                     drowned=drowned, kmask=_ALL)
        return Structure(fail_rule=WikiRule.DYNAMIC, code=SharedCode.CAPTURE, args=(p, t),
                         boards=raw, notes=(), kmask=_ALL, used=None, guard=0)
    notes: list[Note] = [Note(square=p, category=NoteCategory.FENCE_LEVER, ok=False,
                              rule=WikiRule.DYNAMIC, code="chain-lever", target=None, kmask=None)
                         for p in chess.scan_forward(chain & b_att)]
    kmask = _ALL
    for p in chess.scan_forward(w & ~fence):
        if flood >> p & 1:  # below: must not lever and must end up rammed
            notes.append(_below_note(p, bf, b_att, chain))
        else:  # above the fence: a passed pawn with the defending king in front
            span = _NORTH_SPAN[p]
            guard = span | ((span << 1) & _NOT_A & _ALL) | ((span >> 1) & _NOT_H)
            if bf & guard:
                notes.append(Note(square=p, category=NoteCategory.ABOVE, ok=False,
                                  rule=WikiRule.DYNAMIC, code="above-not-passed", target=None,
                                  kmask=None))
            else:
                kmask &= span
                notes.append(Note(square=p, category=NoteCategory.ABOVE, ok=True,
                                  rule=WikiRule.DYNAMIC, code="above", target=None, kmask=span))
    fail = next((note for note in notes if not note.ok), None)
    raw = Boards(fixed=chain, marked=fence, fence=fence, below=flood, removed=0, flood=flood,
                 drowned=drowned, kmask=kmask)
    used = WikiRule.DYNAMIC if notes else WikiRule.FLOOD
    if fail is not None:
        return Structure(fail_rule=fail.rule, code=SharedCode.PAWN, args=(fail.square,), boards=raw,
                         notes=tuple(notes), kmask=kmask, used=used, guard=pawn_guard(w, b))
    return Structure(fail_rule=None, code=SharedCode.NONE, args=(), boards=raw, notes=tuple(notes),
                     kmask=kmask, used=used, guard=pawn_guard(w, b))


def _below_note(p: int, bf: int, b_att: int, chain: int) -> Note:
    """The wiki's rule for a dynamic pawn below the fence (in the flood): it must not be a
    lever, and walking up its file it must end rammed by a black pawn or stopped by an own
    fence pawn before it meets a square a black pawn attacks."""
    if b_att >> p & 1:
        return _below(p, False, "lever", p)
    for s in range(p + 8, 64, 8):
        if bf >> s & 1:
            return _below(p, True, "ram", s)
        if b_att >> s & 1:
            return _below(p, False, "engage", s)
        if chain >> s & 1:
            return _below(p, True, "own", s)
    return _below(p, False, "runs", None)


def _below(p: int, ok: bool, code: str, target: int | None) -> Note:
    """The note of a dynamic pawn below the fence (wiki)."""
    return Note(square=p, category=NoteCategory.BELOW, ok=ok, rule=WikiRule.DYNAMIC, code=code,
                target=target, kmask=None)


_L = CodeLine
#: the pseudo-code of the wiki's flood: each line names the step kinds it stands for
FLOOD_LISTING = Listing("Chessprogramming wiki: forms_fence4white and the dynamic pawns", (
    _L(0, "forms_fence4white(wPawns, bPawns):"),
    _L(1, "fence ← rams: White pawns blocked by Black pawns"),
    _L(1, "if fewer than 3 rams: return false", ("flood-rams",)),
    _L(1, "fence += own pawns blocked behind them + Black pawn attacks",
       ("flood-fence",)),
    _L(1, "flood ← rank 1 + the squares below the fence's lowest square", ("flood-start",)),
    _L(1, "above ← squares above the fence's highest square"),
    _L(1, "loop:"),
    _L(2, "flood ← (flood + king steps from it) minus the fence", ("flood-cycle",)),
    _L(2, "if the flood did not grow: return true  # the fence holds",
       ("flood-stop",)),
    _L(2, "if flood meets above: return false  # breakthrough",
       ("flood-breakthrough",)),
    _L(2, "if flood meets bPawns: drown them; fence ← recomputed", ("flood-drown",)),
    _L(0, ""),
    _L(0, "then the page's rules:"),
    _L(1, "a White pawn can take a drowned pawn: no blockage", ("capture",)),
    _L(1, "White's king in the flood, Black's outside it", ("kings",)),
    _L(1, "Black's king has a vacant square (no zugzwang)", ("zugzwang",)),
    _L(1, "each dynamic pawn: passed above with the king in front; below: no lever, "
          "ends rammed", ("classify",)),
    _L(1, "return the verdict", ("verdict",)),
))


class FloodMethod(StaticMethod):
    """The Chessprogramming wiki's king flood (``forms_fence4white``) and its rules for
    dynamic pawns."""

    name = "flood"
    label = "wiki flood"
    title = "Chessprogramming wiki, Blockage Detection: forms_fence4white"
    cross_checked = True
    rules = tuple(WikiRule)
    codes = tuple(WikiCode)
    king_section = WikiRule.FLOOD
    region = "flood"
    structural = frozenset((SharedCode.CAPTURE, WikiCode.RAMS, WikiCode.BREAKTHROUGH))
    listing = FLOOD_LISTING

    def structure(self, w: int, b: int, rec: Recorder | None = None) -> Structure:
        return flood_structure(w, b, rec)

    def reason(self, v: Any, name: Any) -> str | None:
        code = v.code
        if code == WikiCode.RAMS:
            return f"fewer than three rams, no ram fence ({v.rule})"
        if code == WikiCode.BREAKTHROUGH:
            top = v.boards.flood.bit_length() - 1
            return f"no fence: the king flood breaks through to {name.name(top)} ({v.rule})"
        return None

    def note_text(self, name: Any, note: Note, ok: bool, bk: int) -> str | None:
        p = name.name(note.square)
        if note.code == "chain-lever":
            return f"{p} is part of the ram fence but can capture (a lever)"
        if note.code == "runs":
            return f"{p} is below the fence and is never blocked"
        if note.code == "above-not-passed":
            return f"{p} is above the fence and is not a passed pawn"
        if note.code == "above":
            return (f"{p} is a passed pawn above the fence; {name.them}'s king on "
                    f"{name.name(bk)} " + ("stands in front of it and stops it" if ok else
                                           "is not in front of it, so it may run"))
        return None


FLOOD = FloodMethod()
