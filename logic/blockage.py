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

import functools
from typing import Any

import chess

from logic.fence import _dfs_fast, black_pawn_attacks, ccl_labels, dfs_fence, king_flood
from logic.fence import marking as _marking
from logic.steps import Recorder
from logic.verdict import DeferredVerdict, NoteSeed, Verdict

__all__ = ["detect", "detect_bitboards", "is_blocked", "clear_cache", "cache_info", "METHODS",
           "DetectError"]

METHODS = ("paper", "flood")
_ALL = chess.BB_ALL
_NOT_A = _ALL & ~chess.BB_FILE_A
_NOT_H = _ALL & ~chess.BB_FILE_H
_FILES = chess.BB_FILES
_KING = chess.BB_KING_ATTACKS
_BACKRANKS = chess.BB_BACKRANKS
_NO_RAW = (0, 0, 0, 0, 0, 0, 0, 0)
_flip_diagonal = chess.flip_diagonal
_CACHE_LIMIT = 1 << 18


def _flip(bb: int) -> int:
    """``chess.flip_vertical`` (mirror ranks), as a byte swap: the same map, 2.5x faster
    (tests check equality on random bitboards)."""
    return int.from_bytes(bb.to_bytes(8, "little"), "big")


class DetectError(ValueError):
    """A malformed request (unknown method, not a chess.Board)."""


# --------------------------------------------------------------------------
# paper method
# --------------------------------------------------------------------------

#: note codes naming the failed 3.2 conditions, indexed by two << 2 | only << 1 | front
_CODES_32 = {
    prefix: [
        f"{prefix}-" + "+".join(name for name, bit in (("no-two", 4), ("not-only", 2),
                                                          ("front-attacked", 1)) if not i & bit)
        if i != 7 else f"{prefix}-ok"
        for i in range(8)
    ]
    for prefix in ("on", "reach")
}
_NORTH_SPAN = [chess.BB_FILES[sq & 7] & ~((2 << sq) - 1) & _ALL for sq in range(64)]


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


#: squares on a square's file strictly above it / at or below it; every square except
#: those on its file strictly below it
_FILE_ABOVE = [_FILES[s & 7] & ~((2 << s) - 1) & _ALL for s in range(64)]
_FILE_AT_OR_BELOW = [_FILES[s & 7] & ((2 << s) - 1) for s in range(64)]
_NOT_FILE_BELOW = [_ALL & ~(_FILES[s & 7] & ((1 << s) - 1)) for s in range(64)]
#: the squares a black pawn attacks a white pawn on ``s`` from
_ATTACKER_SQUARES = [tuple(chess.scan_forward(chess.BB_PAWN_ATTACKS[chess.WHITE][s]))
                     for s in range(64)]


def _cannot_hold(w: int, b: int, b_att: int, marked: int, wk: int, bk: int) -> bool:
    """True only if no fence in ``marked`` can make the side blocked: sound shortcuts
    taken before the fence search (the verdict's rule still comes from the full
    analysis, on demand).  Every fence lies in the marked squares and crosses every
    file; removing black pawns below it (paper 3) only removes marked squares, or
    adds white pawns directly behind a marked square on the same file.

    * 2.3: no marked square above White's king on its file, so the king is never
      below the fence; or none at or below Black's king, so that king always is.
    * 3.2/3.3: a white pawn attacked by a black pawn that is never removed (nothing
      marked above it on its file), without a black pawn two squares ahead or with
      the square ahead attacked by such a pawn, and Black's king not in front of
      it: on or below any fence it is a lever or fails 3.2, above it 3.1 fails.
    """
    if not marked & _FILE_ABOVE[wk] or not marked & _FILE_AT_OR_BELOW[bk]:
        return True
    levers = w & b_att & _NOT_FILE_BELOW[bk]
    if not levers:
        return False
    # the usual case, pawn by pawn: no black pawn two squares ahead (removal cannot add
    # one) and an attacker with nothing marked above it
    solid = levers & ~(b >> 16)
    while solid:
        p = solid.bit_length() - 1
        for a in _ATTACKER_SQUARES[p]:
            if b >> a & 1 and not marked & _FILE_ABOVE[a]:
                return True
        solid ^= 1 << p
    behind = marked >> 8  # squares with a marked square above them on their file
    behind |= behind >> 8
    behind |= behind >> 16
    behind |= behind >> 32
    kept = b & ~behind
    kept_att = ((kept >> 9) & _NOT_H) | ((kept >> 7) & _NOT_A)
    return bool(levers & kept_att & ~((b >> 16) & ~(kept_att >> 8)))


def _paper_structure(
    w: int, b: int, rec: Recorder | None, marking: tuple[int, int, int, int] | None = None
) -> tuple[Any, ...]:
    """King-independent part of the paper's detector, on an oriented position.

    Returns ``(fail_rule, fail_code, fail_args, raw, notes, kmask, used, guard)``:
    the first king-independent failure (or None), the oriented bitboards, the pawn
    notes (a :class:`NoteSeed`), the squares the defending king must stand on, the
    most specific section a successful blockage relied on and, once a fence is
    found, :func:`_pawn_guard`.  ``marking`` is :func:`~logic.fence.marking`'s result
    when the caller has it.
    """
    # 2.2: fixed pawns (blocked by a black pawn or a fixed white pawn, unable to
    # capture) and the marked squares (fixed pawns and black pawn attacks).
    b_att, fixed, marked, files = marking or _marking(w, b)
    if rec is not None:
        rec.add(
            "mark-fixed", "paper 2.2", "marking",
            f"{rec.us}'s fixed pawns (blocked by a {rec.them} pawn or a fixed {rec.us} pawn, "
            f"unable to capture): {rec.names(fixed)}.",
            changed=fixed, fixed=fixed, marked=fixed,
        )
        rec.add(
            "mark-attacks", "paper 2.2", "marking",
            f"Squares attacked by {rec.them} pawns: {rec.names(b_att & ~fixed)}. Together "
            f"with the fixed pawns these are the squares {rec.us}'s king cannot step into.",
            changed=b_att & ~fixed, fixed=fixed, marked=marked,
        )
    # 2.3: the fence (Figure 8).
    if rec is not None:
        fence = dfs_fence(marked, rec)
    elif files & 0xFF != 0xFF:  # the fence crosses every file: it needs a marked square on each
        fence = 0
    else:
        fence = _dfs_fast(_flip_diagonal(marked).to_bytes(8, "little"))
    if not fence:
        return ("paper 2.3", "no-fence", (), (fixed, marked, 0, 0, 0, 0, 0, _ALL), (), _ALL, "")
    sf = fence | (fence >> 8)
    sf |= sf >> 16
    sf |= sf >> 32
    below = sf ^ fence
    # 3: black pawns below the fence are removed; recompute until none is left below.
    removed = 0
    bp = b
    while bp & below:
        gone = bp & below
        removed |= gone
        bp ^= gone
        b_att, fixed, marked, files = _marking(w, bp)
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
        sf = fence | (fence >> 8)
        sf |= sf >> 16
        sf |= sf >> 32
        below = sf ^ fence
    # 3: "no white Pawn should be able to capture a black Pawn, as this will change the
    # pawn structure": the removed pawns are gone as obstacles and fence markers (the king
    # may take them), not as targets of White's pawns.  Levers against the pawns left are
    # 3.2's and 3.3's business.
    rm_att = ((removed >> 9) & _NOT_H) | ((removed >> 7) & _NOT_A)
    if w & rm_att:
        p, t = _capture_args(w & rm_att, removed)
        if rec is not None:
            rec.add(
                "capture", "paper 3", "a pawn can capture",
                f"{rec.name(p)} can take {rec.name(t)}: the structure changes, no blockage "
                f"(paper 3: no {rec.us} pawn may be able to capture a {rec.them} pawn).",
                changed=(1 << p) | (1 << t), square=p, fence=fence, below=below,
                removed=removed,
            )
        raw = (fixed, marked, fence, below, removed, below, 0, _ALL)
        return ("paper 3", "capture", (p, t), raw, (), _ALL, "")
    guard = _pawn_guard(w, b)
    if not w & ~fixed:
        return (None, "", (), (fixed, marked, fence, below, removed, below, 0, _ALL), (), _ALL,
                "paper 2.3", guard)
    # 3.1-3.4: every dynamic white pawn, on the board without the removed pawns.
    fail, fail_32, kmask, used, _above, _on, _lever, _stops, _s34 = _classify(
        w, bp, fixed, b_att, fence, sf)
    raw = (fixed, marked, fence, below, removed, below, 0, kmask)
    seed = _new_seed(NoteSeed, (w, bp, fixed, b_att, fence, sf))
    if fail >= 0:
        return ("paper 3.2" if fail_32 >> fail & 1 else "paper 3.3", "pawn", (fail,), raw, seed,
                kmask, _SECTIONS[used], guard)
    return (None, "", (), raw, seed, kmask, _SECTIONS[used], guard)


def _capture_args(takers: int, targets: int) -> tuple[int, int]:
    """``(pawn, target)``: the lowest white pawn of ``takers`` and the lowest black pawn of
    ``targets`` it can capture (oriented squares)."""
    p = (takers & -takers).bit_length() - 1
    hit = _WHITE_PAWN_ATTACKS[p] & targets
    return p, (hit & -hit).bit_length() - 1


def _pawn_guard(w: int, b: int) -> int:
    """The squares Black's king cannot step to because of the pawns: those they stand
    on and those White's pawns attack (for the zugzwang test of 2.3)."""
    return w | b | ((w << 7) & _NOT_H) | ((w << 9) & _NOT_A)


#: the sections a blockage can rest on, least to most specific (``used`` indexes this)
_SECTIONS = ("paper 2.3", "paper 3.1", "paper 3.3", "paper 3.2", "paper 3.4")


def _alone_files(w: int) -> int:
    """Every square of the files that hold exactly one white pawn."""
    rear = w >> 8
    rear |= rear >> 8
    rear |= rear >> 16
    rear |= rear >> 32
    front = w << 8
    front |= front << 8
    front |= front << 16
    front |= front << 32
    alone = w & ~(front | rear)
    alone |= (alone << 8) | (alone >> 8)
    alone |= (alone << 16) | (alone >> 16)
    alone |= (alone << 32) | (alone >> 32)
    return alone & _ALL


def _classify(w: int, bp: int, fixed: int, b_att: int, fence: int, sf: int) -> tuple[int, ...]:
    """Paper 3.1-3.4 for every dynamic white pawn at once, set-wise, on the board
    without the removed pawns (``b_att``: their attacks; ``sf``: the fence and every
    square below it).

    Returns ``(fail, fail_32, kmask, used, above, on, lever, stops, s34)``: the lowest
    dynamic pawn that can break the blockage (-1 if none); the pawns condemned by
    3.2 (the others by 3.3); the squares the defending king must stand on (3.1,
    3.4); the most specific section a holding pawn relied on (an index into
    :data:`_SECTIONS`); and the bitboards :func:`paper_notes` reads each note from
    (``stops``: the square each pushing pawn is stopped on; ``s34``: fence squares
    the 3.4 exception saves).
    """
    dyn = w & ~fixed
    above = dyn & ~sf  # 3.1: passed the fence; the defending king must be in front
    on = dyn & fence  # 3.2
    low = dyn ^ above ^ on  # below the fence
    lever = low & b_att  # 3.3: a capture below the fence changes the structure
    run = low ^ lever  # 3.3: pushes until something stops it
    # 3.2 at a square: a black pawn two squares ahead, the square ahead not attacked
    # by a black pawn (``good``), and the only white pawn on its file (checked last).
    good = (bp >> 16) & ~(b_att >> 8)
    fail_32 = on & ~good
    if on & good:
        fail_32 |= on & good & ~_alone_files(w)
    fails = lever | fail_32
    used = 3 if on & ~fail_32 else 1 if above else 0
    kmask = _ALL
    if above:  # the north spans of pawns on two files never meet
        top = above.bit_length() - 1
        kmask = 0 if above & ~_FILES[top & 7] else _NORTH_SPAN[top]
    stops = s34 = 0
    if run:
        # each pushing pawn's first square ahead holding a pawn, the fence or an attack
        stoppers = w | bp | fence | b_att
        pro = stoppers ^ _ALL
        gen = run | (pro & (run << 8))
        pro &= pro << 8
        gen |= pro & (gen << 16)
        pro &= pro << 16
        gen |= pro & (gen << 32)
        stops = (gen << 8) & stoppers
        held = stops & (w | bp)  # 3.3: stopped by an own pawn, or rammed
        if held and used < 2:
            used = 2
        reach = stops & fence & good & ~held
        if reach:  # reaches the fence where 3.2 holds
            reach &= _alone_files(w)
            if reach:
                held |= reach
                used = 3
        bad = stops ^ held
        while bad:  # engaged by an attack, or reaching the fence where 3.2 fails
            sbit = bad & -bad
            bad ^= sbit
            s = sbit.bit_length() - 1
            pawn = 1 << ((run & _FILES[s & 7] & (sbit - 1)).bit_length() - 1)
            if sbit & fence:
                if (not bp >> (s + 16) & 1 and not b_att >> (s + 8) & 1
                        and (w & _FILES[s & 7]).bit_count() == 1
                        and _check_34(s, w, fixed, fence)):
                    s34 |= sbit
                    kmask &= _FILES[s & 7]
                    used = 4
                    continue
                fail_32 |= pawn
            fails |= pawn
    fail = (fails & -fails).bit_length() - 1
    return (fail, fail_32, kmask, used, above, on, lever, stops, s34)


def note_tuples(notes: NoteSeed | tuple[tuple[Any, ...], ...]) -> tuple[tuple[Any, ...], ...]:
    """A verdict's oriented pawn notes: decoded from a paper :class:`NoteSeed`, else as is."""
    return paper_notes(notes) if type(notes) is NoteSeed else notes


@functools.lru_cache(maxsize=1024)
def paper_notes(seed: NoteSeed) -> tuple[tuple[Any, ...], ...]:
    """Each dynamic pawn's note ``(square, category, ok, rule, code, target, kmask)``,
    in square order, read off :func:`_classify`'s bitboards for a paper verdict."""
    w, bp, fixed, b_att, fence, sf = seed
    _f, _f32, _k, _u, above, on, lever, stops, s34 = _classify(w, bp, fixed, b_att, fence, sf)
    alone = _alone_files(w)
    notes = []
    for p in chess.scan_forward(w & ~fixed):
        if above >> p & 1:
            notes.append((p, "above", True, "paper 3.1", "above", None, _NORTH_SPAN[p]))
        elif on >> p & 1:
            i = _code_32(p, bp, alone, b_att)
            notes.append((p, "on", i == 7, "paper 3.2", _CODES_32["on"][i], p, None))
        elif lever >> p & 1:
            notes.append((p, "below", False, "paper 3.3", "lever", p, None))
        else:
            ahead = stops & _NORTH_SPAN[p]
            sbit = ahead & -ahead
            s = sbit.bit_length() - 1
            if w & sbit:
                notes.append((p, "below", True, "paper 3.3", "own", s, None))
            elif bp & sbit:
                notes.append((p, "below", True, "paper 3.3", "ram", s, None))
            elif s34 & sbit:
                notes.append((p, "below", True, "paper 3.4", "reach-34", s, _FILES[s & 7]))
            elif fence & sbit:
                i = _code_32(s, bp, alone, b_att)
                notes.append((p, "below", i == 7, "paper 3.2", _CODES_32["reach"][i], s, None))
            else:
                notes.append((p, "below", False, "paper 3.3", "engage", s, None))
    return tuple(notes)


def _code_32(s: int, bp: int, alone: int, b_att: int) -> int:
    """Which of 3.2's conditions hold at ``s``: two << 2 | only << 1 | front."""
    return ((s < 48 and bp >> (s + 16) & 1) << 2 | (alone >> s & 1) << 1
            | (not b_att >> (s + 8) & 1))


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
    # as in paper 3: a drowned pawn is gone for the king, not for White's pawns: one that
    # can take it now changes the structure (the wiki counts only non-lever pawns)
    dr_att = black_pawn_attacks(drowned)
    if w & dr_att:
        p, t = _capture_args(w & dr_att, drowned)
        if rec is not None:
            rec.add(
                "capture", "wiki dynamic", "a pawn can capture",
                f"{rec.name(p)} can take {rec.name(t)} (a {rec.them} pawn the flood drowned): "
                "the structure changes, no blockage (the wiki counts only non-lever pawns).",
                changed=(1 << p) | (1 << t), square=p, fence=fence, flood=flood,
                drowned=drowned,
            )
        raw = (chain, fence, fence, flood, 0, flood, drowned, _ALL)
        return ("wiki dynamic", "capture", (p, t), raw, (), _ALL, "")
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
            span = _NORTH_SPAN[p]
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
        return (fail[3], "pawn", (fail[0],), raw, tuple(notes), kmask, used, _pawn_guard(w, b))
    return (None, "", (), raw, tuple(notes), kmask, used, _pawn_guard(w, b))


_STRUCTURES = {"paper": _paper_structure, "flood": _flood_structure}


# --------------------------------------------------------------------------
# kings, verdict, cache
# --------------------------------------------------------------------------

#: pawn-structure cache per method (paper 4's pawn hash table): (w, b) -> analysis
_struct_caches: dict[str, dict[tuple[int, int], tuple[Any, ...]]] = {m: {} for m in METHODS}
_paper_cache = _struct_caches["paper"]
#: the same analyses for :func:`is_blocked`, keyed by the unoriented position and colour
#: (the search asks for both colours of the same pawns without flipping them each time)
_side_caches: dict[str, dict[tuple[int, int, bool], tuple[Any, ...]]] = {m: {} for m in METHODS}
#: per-board verdict cache per method: board key -> (Black's verdict, White's verdict),
#: for legal K+P boards only (the key does not tell other pieces apart)
_board_caches: dict[str, dict[tuple[Any, ...], tuple[Verdict, Verdict]]] = {
    m: {} for m in METHODS}
_stats = {"structure_hits": 0}


def clear_cache() -> None:
    """Empty the pawn-structure and verdict caches."""
    for cache in (*_struct_caches.values(), *_side_caches.values(), *_board_caches.values()):
        cache.clear()
    for k in _stats:
        _stats[k] = 0


def cache_info() -> dict[str, int]:
    """Cache sizes (pawn structures, board verdicts) and pawn-structure cache hits since
    the last :func:`clear_cache`."""
    return {
        "structures": sum(len(c) for c in _struct_caches.values()),
        "verdicts": 2 * sum(len(c) for c in _board_caches.values()),
        **_stats,
    }


_new_verdict = _new_seed = tuple.__new__
_STRUCT_FAILS = frozenset(("no-fence", "removal-breaks", "capture", "flood-rams",
                           "flood-breakthrough"))


def _structure(
    w: int, b: int, method: str, wk: int = -1, bk: int = -1,
    marking: tuple[int, int, int, int] | None = None,
) -> tuple[Any, ...] | None:
    """The king-independent analysis of ``(w, b)``, from the pawn-structure cache.

    Given the kings, a paper analysis that is not cached yet may return None instead:
    :func:`_cannot_hold` proved the side is not blocked (nothing is cached then).
    ``marking`` is :func:`~logic.fence.marking`'s result when the caller has it.
    """
    cache = _struct_caches[method]
    st = cache.get((w, b))
    if st is not None:
        _stats["structure_hits"] += 1
        return st
    if method == "paper":
        if marking is None:
            marking = _marking(w, b)
        if wk >= 0 and marking[3] & 0xFF == 0xFF and _cannot_hold(w, b, marking[0], marking[2],
                                                                   wk, bk):
            return None
        st = _paper_structure(w, b, None, marking)
    else:
        st = _flood_structure(w, b, None)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[(w, b)] = st
    return st


def _decide(
    st: tuple[Any, ...], method: str, wk: int, bk: int
) -> tuple[bool, str, str, tuple[Any, ...]]:
    """``(blocked, rule, code, args)`` from a structure analysis and the kings: the
    fence's failures, kings on their sides and no zugzwang (2.3), then the dynamic
    pawns' king requirements (3.1, 3.4)."""
    fail_rule, code = st[0], st[1]
    if code in _STRUCT_FAILS:
        return False, fail_rule, code, st[2]
    below = st[3][3]
    if not below >> wk & 1:
        return False, _KING_SECTION[method], "king-not-below", (wk,)
    if below >> bk & 1:
        return False, _KING_SECTION[method], "defender-below", (bk,)
    # (the kings of a legal position are never adjacent: wk is not next to bk)
    if not _KING[bk] & ~(st[7] | _KING[wk]):
        return False, "paper 2.3", "zugzwang", (bk,)
    if fail_rule is not None:
        return False, fail_rule, code, st[2]
    if not st[5] >> bk & 1:
        # the first note whose king requirement the defending king misses
        first = next(n for n in note_tuples(st[4]) if n[6] is not None and not n[6] >> bk & 1)
        return False, first[3], "pawn", (first[0],)
    return True, st[6], "blocked", ()


def _paper_pair(w: int, b: int, wk: int, bk: int) -> tuple[Verdict, Verdict]:
    """Black's and White's paper verdicts for one legal K+P board: White's on
    ``(w, b, wk, bk)``, Black's as White on the flipped board.  Both positions are
    marked (2.2) in one :func:`~logic.fence.marking` pass."""
    # both flips (_flip) at once: the byte-reversed 128-bit w:b is flip(b):flip(w)
    flipped = int.from_bytes((w << 64 | b).to_bytes(16, "little"), "big")
    fw, fb = flipped >> 64, flipped & _ALL
    b_att, fixed, marked, files = _marking(w | fw << 64, b | fb << 64)
    return (_paper_side(fw, fb, bk ^ 0x38, wk ^ 0x38, False, b_att >> 64, fixed >> 64,
                        marked >> 64, files >> 64),
            _paper_side(w, b, wk, bk, True, b_att & _ALL, fixed & _ALL, marked & _ALL, files))


def _flood_pair(w: int, b: int, wk: int, bk: int) -> tuple[Verdict, Verdict]:
    """Black's and White's flood verdicts for one legal K+P board."""
    return (_verdict(_flip(b), _flip(w), bk ^ 0x38, wk ^ 0x38, False, "flood"),
            _verdict(w, b, wk, bk, True, "flood"))


def _paper_side(
    w: int, b: int, wk: int, bk: int, color: bool, b_att: int, fixed: int, marked: int,
    files: int,
) -> Verdict:
    """:func:`_verdict` for the paper method given :func:`~logic.fence.marking`'s
    result, in the order that is cheapest on average: a side without a marked square
    on every file has no fence (2.3) and is decided at once; then the pawn-structure
    cache; then, for a structure not seen yet, :func:`_cannot_hold` before the full
    analysis."""
    if not w:
        return _verdict(w, b, wk, bk, color, "paper")
    if files & 0xFF != 0xFF:
        return _new_verdict(Verdict, (color, "paper", False, "paper 2.3", "ok", "no-fence", (),
                                      (fixed, marked, 0, 0, 0, 0, 0, _ALL), (), (wk, bk), ()))
    key = (w, b)
    st = _paper_cache.get(key)
    if st is None:
        if _cannot_hold(w, b, b_att, marked, wk, bk):
            return _new_verdict(DeferredVerdict, (color, "paper", False, [w, b, wk, bk], "ok",
                                                  None, None, None, None, (wk, bk), ()))
        st = _paper_structure(w, b, None, (b_att, fixed, marked, files))
        if len(_paper_cache) >= _CACHE_LIMIT:
            _paper_cache.clear()
        _paper_cache[key] = st
    else:
        _stats["structure_hits"] += 1
    return _from_structure(st, wk, bk, color, "paper")


def _verdict(
    w: int, b: int, wk: int, bk: int, color: chess.Color, method: str, shortcuts: bool = True
) -> Verdict:
    """Untraced verdict on an oriented position (side under test = White), through the
    pawn-structure cache.  With ``shortcuts``, a side that :func:`_cannot_hold` rules
    out gets a :class:`DeferredVerdict`."""
    if not w:
        return _new_verdict(Verdict, (color, method, True, "material", "ok", "material", (),
                                      _NO_RAW, (), (wk, bk), ()))
    st = _structure(w, b, method, wk if shortcuts else -1, bk)
    if st is None:
        return _new_verdict(DeferredVerdict, (color, method, False, [w, b, wk, bk], "ok", None,
                                              None, None, None, (wk, bk), ()))
    return _from_structure(st, wk, bk, color, method)


def _from_structure(
    st: tuple[Any, ...], wk: int, bk: int, color: chess.Color, method: str
) -> Verdict:
    """The verdict from a structure analysis and the kings (:func:`_decide`)."""
    blocked, rule, code, args = _decide(st, method, wk, bk)
    return _new_verdict(Verdict, (color, method, blocked, rule, "ok", code, args, st[3], st[4],
                                  (wk, bk), ()))


def _analyse(
    w: int, b: int, wk: int, bk: int, color: chess.Color, method: str, rec: Recorder
) -> Verdict:
    """Traced verdict on an oriented position (side under test = White): the same
    analysis as :func:`_verdict`, recording its steps, without caches or shortcuts."""
    if not w:
        rec.add("verdict", "material", "verdict", f"{rec.us} has no pawns and cannot win.")
        return _new_verdict(Verdict, (color, method, True, "material", "ok", "material", (),
                                      _NO_RAW, (), (wk, bk), tuple(rec.steps)))
    st = _STRUCTURES[method](w, b, rec)
    blocked, rule, code, args = _decide(st, method, wk, bk)
    raw, notes = st[3], st[4]
    v = _new_verdict(Verdict, (color, method, blocked, rule, "ok", code, args, raw, notes,
                               (wk, bk), ()))
    if method == "paper" and raw[1]:
        _record_ccl(rec, raw[1], wk, bk)
    _record_kings_and_pawns(rec, raw, notes, wk, bk, code, st)
    rec.add("verdict", rule, "verdict", v.headline + ".", fence=raw[2], below=raw[3],
            marked=raw[1])
    return v._replace(steps=tuple(rec.steps))


def materialise(w: int, b: int, wk: int, bk: int, color: chess.Color, method: str) -> Verdict:
    """The complete verdict a :class:`DeferredVerdict` stands for."""
    return _verdict(w, b, wk, bk, color, method, shortcuts=False)


def is_blocked(w: int, b: int, wk: int, bk: int, color: chess.Color, method: str = "paper"
               ) -> bool:
    """``detect_bitboards(...).blocked`` without building a verdict: the search's
    interior-node test (paper 4).  A search meets each pawn structure with many king
    placements, so the whole king-independent analysis is cached at once (no
    :func:`_cannot_hold` shortcuts) and each placement costs only :func:`_decide`."""
    cache = _side_caches[method]
    st = cache.get((w, b, color))
    if st is None:
        if not (w if color else b):
            return True  # no pawns: cannot win
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        ow, ob = (w, b) if color else (_flip(b), _flip(w))
        st = cache[(w, b, bool(color))] = _struct_caches[method].get((ow, ob)) or \
            _structure(ow, ob, method)
    if st[0] is not None:  # a failure whatever the kings (no fence, a pawn breaks it, ...)
        return False
    if not color:
        wk, bk = bk ^ 0x38, wk ^ 0x38
    return _decide(st, method, wk, bk)[0]


_KING_SECTION = {"paper": "paper 2.3", "flood": "wiki flood"}


def _record_kings_and_pawns(
    rec: Recorder, raw: tuple[int, ...], notes: tuple[Any, ...], wk: int, bk: int, code: str,
    st: tuple[Any, ...],
) -> None:
    from logic.explain import note_reason_oriented

    if st[1] in _STRUCT_FAILS:
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
    for n in note_tuples(notes):
        ok = n[2] and (n[6] is None or bool(n[6] >> bk & 1))
        tgt = 1 << n[0] if n[5] is None else (1 << n[0]) | (1 << n[5])
        rec.add(
            "classify", n[3], f"dynamic pawn {rec.name(n[0])} {n[1]} the fence"
            if n[1] in ("above", "below") else f"dynamic pawn {rec.name(n[0])} on the fence",
            note_reason_oriented(rec, n, ok, bk),
            changed=tgt, square=n[0], fence=fence, below=below, fixed=raw[0],
            ok=(1 << n[0]) if ok else 0,
        )


def _record_ccl(rec: Recorder, marked: int, wk: int, bk: int) -> None:
    """The paper's cross-check (2.3): connected-component labelling of the unmarked
    squares; the kings must get different labels."""
    labels = ccl_labels(marked)
    lw, lb = labels[wk], labels[bk]
    region = sum(1 << s for s in range(64) if lw and labels[s] == lw)
    same = lw and lw == lb
    rec.add(
        "ccl", "paper 2.3", "cross-check",
        f"Connected-component labelling of the unmarked squares: {rec.us}'s king is in region "
        f"{lw or '-'}, {rec.them}'s king in region {lb or '-'}: "
        + ("the same region, so the marked squares do not separate them."
           if same else "different regions, as the fence says."),
        changed=region, region=region, marked=marked,
    )


def _not_applicable(
    color: chess.Color, method: str, status: str, code: str, args: tuple[Any, ...]
) -> Verdict:
    return Verdict(color, method, False, "not applicable", status, code, args, (), (), (0, 0))


_WHITE_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS[chess.WHITE]
_BLACK_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS[chess.BLACK]


def detect(
    board: chess.Board, color: chess.Color, *, method: str = "paper", trace: bool = False
) -> Verdict:
    """Decide whether ``color`` cannot win ``board`` by ``method``'s rules.

    ``method`` is ``"paper"`` or ``"flood"``.  ``Verdict.blocked`` is True exactly
    when the method proves ``color``'s upper bound is a draw.  Positions with
    pieces other than kings and pawns, or that ``board.status()`` rejects, get a
    verdict with ``status`` ``"pieces"`` / ``"illegal"`` and ``blocked=False``.
    With ``trace=True`` the verdict carries the ordered step records (and the
    caches are bypassed).  Untraced, both colours are decided on the first call
    for a board and kept in the per-board cache; a verdict may be a
    :class:`~logic.verdict.DeferredVerdict` (see there).  Raises
    :class:`DetectError` for an unknown method or a ``board`` that is not a
    ``chess.Board``.
    """
    try:
        occ_b, occ_w = board.occupied_co  # indexed by colour: [BLACK, WHITE]
        key = (occ_w, occ_b, board.pawns, board.kings, board.turn, board.castling_rights,
               board.ep_square)
    except AttributeError:
        raise DetectError(f"detect() needs a chess.Board, got {board!r}") from None
    try:
        cache = _board_caches[method]
    except (KeyError, TypeError):
        raise DetectError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}"
                          ) from None
    if not trace:
        pair = cache.get(key)
        if pair is not None:
            return pair[1] if color else pair[0]
    prep = _prepare(board, key)
    if len(prep) == 2:
        return _not_applicable(bool(color), method, prep[0], prep[0], prep[1])
    w, b, wk, bk = prep
    if trace:
        rec = Recorder(bool(color))
        if color:
            return _analyse(w, b, wk, bk, True, method, rec)
        return _analyse(_flip(b), _flip(w), bk ^ 0x38, wk ^ 0x38, False, method, rec)
    # decide both colours at once: callers nearly always ask for both
    pair = (_paper_pair if method == "paper" else _flood_pair)(w, b, wk, bk)
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = pair
    return pair[1] if color else pair[0]


def _prepare(board: chess.Board, board_key: tuple[Any, ...]) -> tuple[Any, ...]:
    """``(w, b, wk, bk)`` for a legal K+P board, or ``(status, args)`` for a board the
    detectors do not apply to: ``("pieces", names)`` or ``("illegal", (board.status(),))``.

    ``board.status()`` is called only when a few bitboard tests do not already prove
    the position valid: one king each, no pawn on a back rank, at most 8 pawns each,
    no castling rights or en-passant square, kings apart, the side not to move not
    in check, at most one pawn checker.
    """
    occ_w, occ_b, pawns, kings, turn, castling, ep = board_key
    if (occ_w | occ_b) != pawns | kings:
        others = (occ_w | occ_b) & ~(pawns | kings)
        names = sorted({board.piece_at(s).symbol() for s in chess.scan_forward(others)})
        return ("pieces", tuple(names))
    w = pawns & occ_w
    b = pawns & occ_b
    wk = (kings & occ_w).bit_length() - 1
    bk = (kings & occ_b).bit_length() - 1
    if (wk < 0 or bk < 0 or kings.bit_count() != 2 or pawns & _BACKRANKS
            or _KING[wk] & kings or castling or ep is not None
            or (pawns.bit_count() > 8 and (w.bit_count() > 8 or b.bit_count() > 8))
            # the side not to move must not be in check; the side to move may be, by one pawn
            or (_BLACK_PAWN_ATTACKS[bk] & w or (_WHITE_PAWN_ATTACKS[wk] & b).bit_count() > 1
                if turn else
                _WHITE_PAWN_ATTACKS[wk] & b or (_BLACK_PAWN_ATTACKS[bk] & w).bit_count() > 1)):
        status = int(board.status())
        if status:
            return ("illegal", (status,))
    return (w, b, wk, bk)


def detect_bitboards(
    white_pawns: int, black_pawns: int, white_king: int, black_king: int, color: chess.Color,
    *, method: str = "paper",
) -> Verdict:
    """:func:`detect` on raw bitboards of a legal K+P position (no validation, cached per
    pawn structure): the entry point for searches that already hold bitboards."""
    if color:
        return _verdict(white_pawns, black_pawns, white_king, black_king, True, method)
    return _verdict(_flip(black_pawns), _flip(white_pawns), black_king ^ 0x38, white_king ^ 0x38,
                    False, method)
