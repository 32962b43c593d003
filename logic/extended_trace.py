"""The extended method's trace: the steps of its criteria after the paper's (x2 and x3 on
KPK, x4's lowest fence, x5's shut-in king) and the pseudo-code listing they highlight
(:data:`EXTENDED_LISTING`, the Code pane's).

:func:`trace_criteria` runs on the oriented position the paper proves no blockage on and
records each criterion's steps until one proves a blockage (its verdict) or none does
(None).  The steps are :class:`~logic.steps.Step` records with the facts and boards the
viewer draws, never text to parse.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import chess

from logic.bitboards import pawn_attacks
from logic.extended_rules import RULES, USE_X2, kpk_draw, kpk_no_promotion
from logic.fence import marking
from logic.listing import CodeLine, Listing
from logic.lowest_fence import X4, X4_STRUCTURAL, region_structure, x4_decide
from logic.shutin import REGION_LIMIT, STATE_LIMIT, shut_in
from logic.steps import Recorder
from logic.verdict import Verdict
from logic.vocab import ExtendedRule

if TYPE_CHECKING:
    from logic.extended import ExtendedMethod

__all__ = ["trace_criteria", "EXTENDED_LISTING"]

_L = CodeLine
#: the pseudo-code of the extended method: each line names the step kinds it stands for
EXTENDED_LISTING = Listing("The paper's method plus criteria checked against the exact prover", (
        _L(0, "extended(position), White to win:"),
        _L(1, "the paper's blockage(position): marking, Figure 8, removal (3)",
           ("mark-fixed", "mark-attacks", "dfs-note", "dfs-start", "dfs-advance",
            "dfs-backtrack", "dfs-found", "dfs-none", "remove-below", "fence-recomputed",
            "ccl")),
        _L(1, "... kings, zugzwang, dynamic pawns (2.3, 3.1-3.4)",
           ("capture", "kings", "zugzwang", "classify")),
        _L(1, "if the paper proves a blockage: return it", ("paper-verdict",)),
        _L(1, "(x1 and x2 were dropped: wrong against the exact prover)"),
        _L(1, "x3, KPK: the pawn cannot be forced to promote, whoever moves?",
           ("x2-kpk", "x3-kpk")),
        _L(1, "x4, the lowest fence, every dynamic pawn held by pawns:"),
        _L(2, "region ← flood from rank 1 through unmarked squares (king steps)",
           ("x4-region",)),
        _L(2, "while Black pawns stand in the region: remove them, mark, flood again",
           ("x4-remove",)),
        _L(2, "fence ← the marked squares next to the region"),
        _L(2, "if a White pawn can take a removed pawn: no blockage (as 3)", ("x4-capture",)),
        _L(2, "if a dynamic pawn needs Black's king (3.1, 3.4): x4 does not apply",
           ("x4-king-needed",)),
        _L(2, "White's king in the region, Black's outside it? (2.3)", ("x4-kings",)),
        _L(2, "Black's king has a vacant square? (no zugzwang)", ("x4-zugzwang",)),
        _L(2, "each dynamic pawn by 3.2-3.3 on that fence", ("x4-classify",)),
        _L(1, "x5, the shut-in king (Black's king marks time between two squares):"),
        _L(2, "White's king region through unattacked squares without own pawns: closed?",
           ("x5-region",)),
        _L(2, "every (king, pawns) position White reaches: none captures or promotes?",
           ("x5-search",)),
        _L(2, "Black's two squares: never reached or attacked by White?", ("x5-tempo",)),
        _L(1, "return the verdict: the first rule that proves a blockage, else the paper's",
           ("verdict",)),
    ))


def trace_criteria(m: ExtendedMethod, w: int, b: int, wk: int, bk: int, color: bool,
                   rec: Recorder, pv: Verdict) -> Verdict | None:
    """The criteria's steps on the oriented position (the paper's verdict ``pv`` proves no
    blockage), in the order the method tries them; the verdict of the first that proves a
    blockage, else None."""
    if not b and not w & (w - 1):
        return _trace_kpk(m, w, b, wk, bk, color, rec)
    if marking(w, b)[3] & 0xFF != 0xFF:
        rec.add("x4-region", ExtendedRule.X4, "x4: the king's region",
                "x4: a file without a marked square: no wall at all, so no lower fence.",
                facts=(("rule", ExtendedRule.X4), ("holds", False)))
    else:
        x = _trace_x4(m, w, b, wk, bk, color, rec, pv)
        if x is not None:
            return x
    return _trace_x5(m, w, b, wk, bk, color, rec) if b else None


def _trace_x4(m: ExtendedMethod, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder,
              pv: Verdict) -> Verdict | None:
    st = region_structure(w, b, rec, pv.boards.fence)
    if st.code in X4_STRUCTURAL:
        return None
    blocked, _rule, code, _args = x4_decide(st, wk, bk)
    first = len(rec.steps)
    X4.record_kings_and_pawns(rec, st, wk, bk, code)
    for i in range(first, len(rec.steps)):  # x4's own kinds and phases (the code pane)
        s = rec.steps[i]
        rec.steps[i] = replace(s, kind=f"x4-{s.kind}", phase=f"x4: {s.phase}")
    if blocked:
        return m.extra(w, b, wk, bk, color)
    return None


def _trace_x5(m: ExtendedMethod, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder
              ) -> Verdict | None:
    """x5's steps: the king's box now, the positions White can reach with Black marking
    time, Black's two squares; the verdict where it holds."""
    r = shut_in(w, b, wk, bk)
    b_att = pawn_attacks(b, chess.BLACK)
    us, them = rec.us, rec.them
    facts = (("rule", ExtendedRule.X5), ("holds", r.holds), ("code", r.code), ("states", r.states))
    if r.code in ("lever", "open"):
        text = (f"{us}'s pawn on {rec.name(r.square)} attacks a {them} pawn: the pawns "
                "can change, so x5 does not apply." if r.code == "lever" else
                f"{us}'s king is not shut in: its region reaches a {them} pawn or "
                f"{them}'s king, or has more than {REGION_LIMIT} squares.")
        rec.add("x5-region", ExtendedRule.X5, "x5: the king's box", text,
                changed=(1 << r.square) if r.square >= 0 else 0, marked=b_att,
                facts=facts)
        return None
    n = r.region.bit_count()
    on = rec.names(r.region) if n <= 4 else f"{n} squares"
    rec.add("x5-region", ExtendedRule.X5, "x5: the king's box",
            f"{us}'s king is shut in ({on}) by {them}'s pawn attacks and its own pawns; "
            f"{them} now only marks time with its king.",
            changed=r.region, marked=b_att, below=r.region, facts=facts)
    where = rec.name(r.square) if r.square >= 0 else ""
    failed = {
        "capture": f"A {us} pawn can reach {where}, where it attacks a {them} pawn",
        "promotion": f"A {us} pawn can reach {where} and promote",
        "king-takes": f"{us}'s king can reach {where} and take the unprotected {them} pawn",
        "too-many": f"More than {STATE_LIMIT:,} positions: x5 gives up",
        "no-tempo": f"{us}'s pieces come near {them}'s king (at {where}): {them} has no "
                    "two safe squares to step between",
    }
    moved = r.pawns & ~w
    if not r.holds:
        rec.add("x5-search", ExtendedRule.X5, "x5: every position",
                f"{failed[r.code]} ({r.states:,} positions explored): x5 does not "
                "apply.",
                changed=(1 << r.square) if r.square >= 0 else moved, marked=b_att,
                below=r.kings, facts=facts)
        return None
    rec.add("x5-search", ExtendedRule.X5, "x5: every position",
            f"While {them} marks time, {us} reaches {r.states:,} positions (king and "
            "pawns); in none can it capture or promote.",
            changed=moved | r.kings, marked=b_att, below=r.kings, facts=facts)
    rec.add("x5-tempo", ExtendedRule.X5, "x5: marking time",
            f"{them}'s king steps between "
            + " and ".join(rec.name(sq) for sq in chess.scan_forward(r.tempo))
            + f" for ever, out of {us}'s reach: {us} cannot win, whoever moves.",
            changed=r.tempo, marked=b_att, below=r.kings, kingmap=r.tempo, facts=facts)
    return m.x5(w, b, wk, bk, color)


def _trace_kpk(m: ExtendedMethod, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder
               ) -> Verdict | None:
    p = w.bit_length() - 1
    if USE_X2:
        draw = kpk_draw(w, b, wk, bk)
        rec.add("x2-kpk", ExtendedRule.X2, "x2: KPK",
                f"x2: one {rec.us} pawn ({rec.name(p)}) against the bare king; the KPK "
                "bitbase gives " + ("a draw whoever moves: blockage." if draw else
                                    "a win with at least one side to move."),
                changed=1 << p, square=p, facts=(("rule", ExtendedRule.X2), ("holds", draw),
                                                 ("statement", RULES[ExtendedRule.X2].statement)))
    stopped = kpk_no_promotion(w, b, wk, bk)
    rec.add("x3-kpk", ExtendedRule.X3, "x3: KPK promotion",
            f"x3: one {rec.us} pawn ({rec.name(p)}) against the bare king; the promotion "
            "table says " + (f"{rec.us} cannot force it to promote, whoever moves: "
                             "blockage." if stopped else
                             f"{rec.us} can force it to promote with at least one side "
                             "to move."),
            changed=1 << p, square=p, facts=(("rule", ExtendedRule.X3), ("holds", stopped),
                                             ("statement", RULES[ExtendedRule.X3].statement)))
    return m.extra(w, b, wk, bk, color)
