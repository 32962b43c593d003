"""The two blockage detectors and :func:`detect`, their public entry point.

``paper``  -- David, Felner & Netanyahu (2004): fixed pawns and marked squares
(2.2), the Figure 8 DFS fence, kings on their sides and no zugzwang (2.3),
black pawns below the fence removed (3), dynamic pawns above (3.1), on (3.2)
and below (3.3) the fence, and the exception (3.4).

``flood`` -- the Chessprogramming wiki's ``forms_fence4white``: ram fence, king
flood in cycles, undefended pawns drowned and the fence recomputed, plus the
king conditions and the page's rules for dynamic pawns.

Both run on a board oriented so that the side under test is White; Black is
White on the flipped position.  The king-independent part of each analysis is
cached per pawn structure (paper 4: "the already visited pawn structures are
stored in a pawn hash table"), whole verdicts per position.
"""

from __future__ import annotations

from typing import Any

import chess

from logic.fence import black_pawn_attacks, dfs_fence, king_flood, marked_squares
from logic.steps import Recorder
from logic.verdict import Verdict

__all__ = ["detect", "detect_bitboards", "clear_cache", "cache_info", "METHODS", "DetectError"]

METHODS = ("paper", "flood")
_ALL = chess.BB_ALL
_NOT_A = _ALL & ~chess.BB_FILE_A
_NOT_H = _ALL & ~chess.BB_FILE_H
_FILES = chess.BB_FILES
_KING = chess.BB_KING_ATTACKS
_BACKRANKS = chess.BB_BACKRANKS
_SECTION_ORDER = {"paper 2.3": 0, "paper 3.1": 1, "paper 3.3": 2, "paper 3.2": 3, "paper 3.4": 4}
_NO_RAW = (0, 0, 0, 0, 0, 0, 0, 0)
_CACHE_LIMIT = 1 << 18


class DetectError(ValueError):
    """A malformed request (unknown method, not a chess.Board)."""


def _white_attacks(w: int) -> int:
    return ((w << 7) & _NOT_H & _ALL) | ((w << 9) & _NOT_A & _ALL)


def _north_span(bb: int) -> int:
    """Squares strictly north of ``bb`` on its files."""
    bb = (bb << 8) & _ALL
    bb |= (bb << 8) & _ALL
    bb |= (bb << 16) & _ALL
    return bb | ((bb << 32) & _ALL)


def _south_fill(bb: int) -> int:
    bb |= bb >> 8
    bb |= bb >> 16
    return bb | (bb >> 32)


# --------------------------------------------------------------------------
# paper method
# --------------------------------------------------------------------------

def _check_32(s: int, w: int, b: int, b_att: int) -> tuple[bool, bool, bool]:
    """Paper 3.2 at fence square ``s``: (black pawn two squares ahead, only white
    pawn on the file, square ahead not attacked by a black pawn)."""
    return (
        s < 48 and bool(b >> (s + 16) & 1),
        (w & _FILES[s & 7]).bit_count() == 1,
        not b_att >> (s + 8) & 1,
    )


def _code_32(prefix: str, two: bool, only: bool, front: bool) -> str:
    """Note code naming every 3.2 condition that fails, e.g. ``"on-no-two+front-attacked"``."""
    if two and only and front:
        return f"{prefix}-ok"
    failed = [c for c, ok in (("no-two", two), ("not-only", only), ("front-attacked", front))
              if not ok]
    return f"{prefix}-" + "+".join(failed)


def _check_34(s: int, w: int, fixed: int, fence: int) -> bool:
    """Paper 3.4's pawn-structure conditions for a dynamic pawn reaching ``s``:
    exactly one white pawn on each neighbouring file, both fixed, on the fence,
    on the same rank, below the sixth rank."""
    f = s & 7
    if f == 0 or f == 7:
        return False
    left = w & _FILES[f - 1]
    right = w & _FILES[f + 1]
    if left & (left - 1) or right & (right - 1) or not left or not right:
        return False
    if not (left & fixed and right & fixed and left & fence and right & fence):
        return False
    rl = (left.bit_length() - 1) >> 3
    return rl == (right.bit_length() - 1) >> 3 and rl <= 4


def _paper_structure(w: int, b: int, rec: Recorder | None) -> tuple[Any, ...]:
    """King-independent part of the paper's detector.

    Returns ``(fail_rule, fail_code, fail_args, raw, notes, kmask, used)``.
    """
    fixed, marked = marked_squares(w, b)
    if rec is not None:
        att = black_pawn_attacks(b)
        rec.add(
            "mark-fixed", "paper 2.2", "marking",
            f"{rec.us}'s fixed pawns (blocked by a {rec.them} pawn or a fixed {rec.us} pawn, "
            f"unable to capture): {rec.names(fixed)}.",
            changed=fixed, fixed=fixed, marked=fixed,
        )
        rec.add(
            "mark-attacks", "paper 2.2", "marking",
            f"Squares attacked by {rec.them} pawns: {rec.names(att & ~fixed)}. Together with "
            f"the fixed pawns these are the squares {rec.us}'s king cannot step into.",
            changed=att & ~fixed, fixed=fixed, marked=marked,
        )
    fence = dfs_fence(marked, rec)
    if not fence:
        return ("paper 2.3", "no-fence", (), (fixed, marked, 0, 0, 0, 0, 0, _ALL), (), _ALL, "")
    below = _south_fill(fence) & ~fence
    removed = 0
    bk_pawns = b
    while bk_pawns & below:
        gone = bk_pawns & below
        removed |= gone
        bk_pawns &= ~gone
        fixed, marked = marked_squares(w, bk_pawns)
        if rec is not None:
            rec.add(
                "remove-below", "paper 3", "pawns below the fence removed",
                f"{rec.them} pawn(s) {rec.names(gone)} stand below the fence where {rec.us}'s "
                f"king may capture them: removed; {rec.us} pawns behind them become dynamic "
                "and the fence is recomputed.",
                changed=gone, fixed=fixed, marked=marked, fence=fence, below=below,
                removed=removed,
            )
        fence = dfs_fence(marked, rec)
        if not fence:
            raw = (fixed, marked, 0, 0, removed, 0, 0, _ALL)
            return ("paper 3", "removal-breaks", (), raw, (), _ALL, "")
        below = _south_fill(fence) & ~fence
    above = _ALL & ~(below | fence)
    # Paper 3: pawns below the fence are "removed from the board henceforward",
    # so every later test (3.1-3.4) sees the board without them.
    b_att = black_pawn_attacks(bk_pawns)
    notes: list[tuple[Any, ...]] = []
    kmask = _ALL
    fail: tuple[Any, ...] | None = None
    used = "paper 2.3"
    dyn = w & ~fixed
    while dyn:
        pbit = dyn & -dyn
        dyn ^= pbit
        p = pbit.bit_length() - 1
        if pbit & above:  # 3.1: the defending king must stand in front of the pawn
            span = _north_span(pbit)
            kmask &= span
            note = (p, "above", True, "paper 3.1", "above", None, span)
        elif pbit & fence:  # 3.2
            two, only, front = _check_32(p, w, bk_pawns, b_att)
            ok = two and only and front
            note = (p, "on", ok, "paper 3.2", _code_32("on", two, only, front), p, None)
        else:  # 3.3: scan the squares in front of the pawn
            if b_att & pbit:
                note = (p, "below", False, "paper 3.3", "lever", p, None)
            else:
                s = p + 8
                while True:
                    sbit = 1 << s
                    if w & sbit:
                        note = (p, "below", True, "paper 3.3", "own", s, None)
                        break
                    if bk_pawns & sbit:
                        note = (p, "below", True, "paper 3.3", "ram", s, None)
                        break
                    if fence & sbit:
                        two, only, front = _check_32(s, w, bk_pawns, b_att)
                        if two and only and front:
                            note = (p, "below", True, "paper 3.2", "reach-ok", s, None)
                        elif only and front and _check_34(s, w, fixed, fence):
                            fmask = _FILES[s & 7]
                            kmask &= fmask
                            note = (p, "below", True, "paper 3.4", "reach-34", s, fmask)
                        else:
                            code = _code_32("reach", two, only, front)
                            note = (p, "below", False, "paper 3.2", code, s, None)
                        break
                    if b_att & sbit:
                        note = (p, "below", False, "paper 3.3", "engage", s, None)
                        break
                    s += 8
        notes.append(note)
        if note[2]:
            if _SECTION_ORDER[note[3]] > _SECTION_ORDER[used]:
                used = note[3]
        elif fail is None:
            fail = note
    raw = (fixed, marked, fence, below, removed, below, 0, kmask)
    if fail is not None:
        return (fail[3], "pawn", (fail[0],), raw, tuple(notes), kmask, used)
    return (None, "", (), raw, tuple(notes), kmask, used)


# --------------------------------------------------------------------------
# wiki flood method
# --------------------------------------------------------------------------

def _flood_structure(w: int, b: int, rec: Recorder | None) -> tuple[Any, ...]:
    """King-independent part of the wiki's flood detector (same tuple as paper)."""
    res = king_flood(w, b, rec)
    fence, flood, drowned = res.fence, res.flood, res.drowned
    if not res.closed:
        raw = (0, fence, fence, flood, 0, flood, drowned, _ALL)
        code = "flood-rams" if res.why == "rams" else "flood-breakthrough"
        return ("wiki flood", code, (), raw, (), _ALL, "")
    bf = b & ~drowned
    b_att = black_pawn_attacks(bf)
    chain = w & fence
    notes: list[tuple[Any, ...]] = []
    kmask = _ALL
    fail: tuple[Any, ...] | None = None
    levers = chain & b_att
    while levers:
        pbit = levers & -levers
        levers ^= pbit
        notes.append((pbit.bit_length() - 1, "fence-lever", False, "wiki dynamic", "chain-lever",
                      None, None))
    dyn = w & ~fence
    while dyn:
        pbit = dyn & -dyn
        dyn ^= pbit
        p = pbit.bit_length() - 1
        if pbit & flood:  # below: must not lever and must end up rammed
            if b_att & pbit:
                note = (p, "below", False, "wiki dynamic", "lever", p, None)
            else:
                s = p + 8
                note = (p, "below", False, "wiki dynamic", "runs", None, None)
                while s < 64:
                    sbit = 1 << s
                    if bf & sbit:
                        note = (p, "below", True, "wiki dynamic", "ram", s, None)
                        break
                    if b_att & sbit:
                        note = (p, "below", False, "wiki dynamic", "engage", s, None)
                        break
                    if chain & sbit:
                        note = (p, "below", True, "wiki dynamic", "own", s, None)
                        break
                    s += 8
        else:  # above the fence: a passed pawn with the defending king in front
            span = _north_span(pbit)
            guard = span | ((span << 1) & _NOT_A & _ALL) | ((span >> 1) & _NOT_H)
            if bf & guard:
                note = (p, "above", False, "wiki dynamic", "above-not-passed", None, None)
            else:
                kmask &= span
                note = (p, "above", True, "wiki dynamic", "above", None, span)
        notes.append(note)
    for note in notes:
        if not note[2]:
            fail = note
            break
    raw = (chain, fence, fence, flood, 0, flood, drowned, kmask)
    used = "wiki dynamic" if notes else "wiki flood"
    if fail is not None:
        return (fail[3], "pawn", (fail[0],), raw, tuple(notes), kmask, used)
    return (None, "", (), raw, tuple(notes), kmask, used)


_STRUCTURES = {"paper": _paper_structure, "flood": _flood_structure}


# --------------------------------------------------------------------------
# kings, verdict, cache
# --------------------------------------------------------------------------

_struct_cache: dict[tuple[int, int, str], tuple[Any, ...]] = {}
_verdict_cache: dict[tuple[Any, ...], Verdict] = {}
_stats = {"hits": 0, "misses": 0, "structure_hits": 0}


def clear_cache() -> None:
    """Empty the pawn-structure and verdict caches."""
    _struct_cache.clear()
    _verdict_cache.clear()
    for k in _stats:
        _stats[k] = 0


def cache_info() -> dict[str, int]:
    """Sizes of the caches and hit counts since the last :func:`clear_cache`."""
    return {"structures": len(_struct_cache), "verdicts": len(_verdict_cache), **_stats}


def _analyse(
    w: int, b: int, wk: int, bk: int, color: chess.Color, method: str, rec: Recorder | None
) -> Verdict:
    """Full verdict on an oriented position (side under test = White)."""
    if not w:
        if rec is not None:
            rec.add("verdict", "material", "verdict",
                    f"{rec.us} has no pawns and cannot win.")
        return Verdict(color, method, True, "material", "ok", "material", (), _NO_RAW, (),
                       (wk, bk), tuple(rec.steps) if rec is not None else ())
    if rec is None:
        key = (w, b, method)
        st = _struct_cache.get(key)
        if st is None:
            st = _STRUCTURES[method](w, b, None)
            if len(_struct_cache) >= _CACHE_LIMIT:
                _struct_cache.clear()
            _struct_cache[key] = st
        else:
            _stats["structure_hits"] += 1
    else:
        st = _STRUCTURES[method](w, b, rec)
    fail_rule, code, args, raw, notes, kmask, used = st
    section = "paper 2.3" if method == "paper" else "wiki flood"
    blocked = False
    if code in ("no-fence", "removal-breaks", "flood-rams", "flood-breakthrough"):
        rule = fail_rule
    elif not raw[3] >> wk & 1:
        rule, code, args = section, "king-not-below", (wk,)
    elif raw[3] >> bk & 1:
        rule, code, args = section, "defender-below", (bk,)
    elif not (_KING[bk] & ~(w | b | (1 << wk) | _KING[wk] | _white_attacks(w))):
        rule, code, args = "paper 2.3", "zugzwang", (bk,)
    elif fail_rule is not None:
        rule = fail_rule
    elif not kmask >> bk & 1:
        # the first note whose king requirement the defending king misses
        first = next(n for n in notes if n[6] is not None and not n[6] >> bk & 1)
        rule, code, args = first[3], "pawn", (first[0],)
    else:
        blocked, rule, code = True, used, "blocked"
    if rec is not None:
        _record_kings_and_pawns(rec, raw, notes, wk, bk, code, st)
        v = Verdict(color, method, blocked, rule, "ok", code, args, raw, notes, (wk, bk))
        rec.add("verdict", rule, "verdict", v.headline + ".", fence=raw[2], below=raw[3],
                marked=raw[1])
        return v._replace(steps=tuple(rec.steps))
    return Verdict(color, method, blocked, rule, "ok", code, args, raw, notes, (wk, bk))


def _record_kings_and_pawns(
    rec: Recorder, raw: tuple[int, ...], notes: tuple[Any, ...], wk: int, bk: int, code: str,
    st: tuple[Any, ...],
) -> None:
    from logic.explain import note_reason_oriented

    if st[1] in ("no-fence", "removal-breaks", "flood-rams", "flood-breakthrough"):
        return
    fence, below = raw[2], raw[3]
    rec.add(
        "kings", "paper 2.3", "kings",
        f"{rec.us}'s king on {rec.name(wk)} is "
        f"{'below' if below >> wk & 1 else 'NOT below'} the fence; {rec.them}'s king on "
        f"{rec.name(bk)} is {'below it too' if below >> bk & 1 else 'not below it'}.",
        changed=(1 << wk) | (1 << bk), fence=fence, below=below,
    )
    if code in ("king-not-below", "defender-below"):
        return
    has = "no vacant square: zugzwang" if code == "zugzwang" else "a vacant square to step into"
    rec.add(
        "zugzwang", "paper 2.3", "zugzwang",
        f"{rec.them}'s king has {has}.",
        changed=1 << bk, fence=fence, below=below,
    )
    for n in notes:
        ok = n[2] and (n[6] is None or bool(n[6] >> bk & 1))
        tgt = 1 << n[0] if n[5] is None else (1 << n[0]) | (1 << n[5])
        rec.add(
            "classify", n[3], f"dynamic pawn {rec.name(n[0])} {n[1]} the fence"
            if n[1] in ("above", "below") else f"dynamic pawn {rec.name(n[0])} on the fence",
            note_reason_oriented(rec, n, ok, bk),
            changed=tgt, square=n[0], fence=fence, below=below, fixed=raw[0],
            ok=(1 << n[0]) if ok else 0,
        )


def _not_applicable(
    color: chess.Color, method: str, status: str, code: str, args: tuple[Any, ...]
) -> Verdict:
    return Verdict(color, method, False, "not applicable", status, code, args, (), (), (0, 0))


def _quick_valid(
    board: chess.Board, w: int, b: int, wkb: int, bkb: int
) -> bool:
    """A sufficient condition for ``board.status() == STATUS_VALID`` on a K+P board."""
    if (not wkb or wkb & (wkb - 1) or not bkb or bkb & (bkb - 1) or (w | b) & _BACKRANKS
            or w.bit_count() > 8 or b.bit_count() > 8 or board.castling_rights
            or board.ep_square is not None):
        return False
    wk = wkb.bit_length() - 1
    bk = bkb.bit_length() - 1
    if _KING[wk] & bkb:
        return False
    if board.turn:  # Black must not be in check; White has at most one checker
        if _white_attacks(w) & bkb:
            return False
        checkers = black_pawn_attacks(b) & wkb and chess.BB_PAWN_ATTACKS[True][wk] & b
    else:
        if black_pawn_attacks(b) & wkb:
            return False
        checkers = _white_attacks(w) & bkb and chess.BB_PAWN_ATTACKS[False][bk] & w
    return not (checkers and checkers & (checkers - 1))


def detect(
    board: chess.Board, color: chess.Color, *, method: str = "paper", trace: bool = False
) -> Verdict:
    """Decide whether ``color`` cannot win ``board`` by ``method``'s rules.

    ``method`` is ``"paper"`` or ``"flood"``.  ``Verdict.blocked`` is True exactly
    when the method proves ``color``'s upper bound is a draw.  Positions with
    pieces other than kings and pawns, or that ``board.status()`` rejects, get a
    verdict with ``status`` ``"pieces"`` / ``"illegal"`` and ``blocked=False``.
    With ``trace=True`` the verdict carries the ordered step records (and the
    caches are bypassed).  Raises :class:`DetectError` for an unknown method or
    a ``board`` that is not a ``chess.Board``.
    """
    try:
        occ_b, occ_w = board.occupied_co  # indexed by colour: [BLACK, WHITE]
        pawns = board.pawns
        kings = board.kings
        key = (occ_w, occ_b, pawns, kings, board.turn, board.castling_rights, board.ep_square,
               color, method)
    except AttributeError:
        raise DetectError(f"detect() needs a chess.Board, got {board!r}") from None
    if not trace:
        v = _verdict_cache.get(key)
        if v is not None:
            _stats["hits"] += 1
            return v
        _stats["misses"] += 1
    if method not in _STRUCTURES:
        raise DetectError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    color = bool(color)
    others = (occ_w | occ_b) & ~(pawns | kings)
    if others:
        names = sorted({board.piece_at(s).symbol() for s in chess.scan_forward(others)})
        v = _not_applicable(color, method, "pieces", "pieces", tuple(names))
    else:
        w = pawns & occ_w
        b = pawns & occ_b
        wkb = kings & occ_w
        bkb = kings & occ_b
        status = 0 if _quick_valid(board, w, b, wkb, bkb) else int(board.status())
        if status:
            v = _not_applicable(color, method, "illegal", "illegal", (status,))
        else:
            wk = wkb.bit_length() - 1
            bk = bkb.bit_length() - 1
            rec = Recorder(color) if trace else None
            if color:
                v = _analyse(w, b, wk, bk, True, method, rec)
            else:
                v = _analyse(chess.flip_vertical(b), chess.flip_vertical(w), bk ^ 0x38, wk ^ 0x38,
                             False, method, rec)
    if not trace:
        if len(_verdict_cache) >= _CACHE_LIMIT:
            _verdict_cache.clear()
        _verdict_cache[key] = v
    return v


def detect_bitboards(
    white_pawns: int, black_pawns: int, white_king: int, black_king: int, color: chess.Color,
    *, method: str = "paper",
) -> Verdict:
    """:func:`detect` on raw bitboards of a legal K+P position (no validation, cached per
    pawn structure): the entry point for searches that already hold bitboards."""
    if color:
        return _analyse(white_pawns, black_pawns, white_king, black_king, True, method, None)
    return _analyse(chess.flip_vertical(black_pawns), chess.flip_vertical(white_pawns),
                    black_king ^ 0x38, white_king ^ 0x38, False, method, None)
