"""Slow, literal reference implementations used as independent truth in tests.

``figure8_fence`` transcribes the paper's Figure 8 line by line (2-D arrays,
recursion, processed[][] shared across start squares) so the bitboard DFS in
``logic.fence`` can be checked against the text itself.
"""

from __future__ import annotations

import chess

FILE_A, FILE_H, RANK_1, RANK_7 = 0, 7, 0, 6


def figure8_fence(marked_bb: int) -> int:
    """Figure 8 verbatim: returns the fence squares as a bitboard, 0 if none."""
    marked = [[bool(marked_bb >> chess.square(f, r) & 1) for r in range(8)] for f in range(8)]
    fence = [[False] * 8 for _ in range(8)]
    processed = [[False] * 8 for _ in range(8)]

    def m(f: int, r: int) -> bool:
        return 0 <= f < 8 and 0 <= r < 8 and marked[f][r]

    def p(f: int, r: int) -> bool:
        return 0 <= f < 8 and 0 <= r < 8 and processed[f][r]

    def forms_fence(f: int, r: int) -> bool:
        processed[f][r] = True
        if f == FILE_H:
            fence[f][r] = True
            return True
        if m(f, r + 1) and not p(f, r + 1) and forms_fence(f, r + 1):
            fence[f][r] = True
            return True
        if m(f + 1, r) and not p(f + 1, r) and forms_fence(f + 1, r):
            fence[f][r] = True
            return True
        if m(f, r - 1) and not p(f, r - 1) and forms_fence(f, r - 1):
            fence[f][r] = True
            return True
        return False

    def blockage() -> bool:
        for i in range(RANK_7, RANK_1, -1):  # noqa: SIM110 (verbatim Figure 8)
            if marked[FILE_A][i] and forms_fence(FILE_A, i):
                return True
        return False

    if not blockage():
        return 0
    return sum(1 << chess.square(f, r) for f in range(8) for r in range(8) if fence[f][r])


def four_connected_crossing(marked_bb: int) -> bool:
    """True if a 4-connected path of marked squares joins the a-file to the h-file
    (moves in all four directions; the general notion Figure 8 approximates)."""
    start = [s for s in chess.scan_forward(marked_bb & chess.BB_FILE_A)]
    seen = set(start)
    stack = list(start)
    while stack:
        s = stack.pop()
        if s & 7 == 7:
            return True
        f, r = s & 7, s >> 3
        for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nf, nr = f + df, r + dr
            if 0 <= nf < 8 and 0 <= nr < 8:
                n = nr * 8 + nf
                if marked_bb >> n & 1 and n not in seen:
                    seen.add(n)
                    stack.append(n)
    return False


def figure8_events(marked_bb: int) -> list[tuple[str, int, int | None]]:
    """Figure 8 instrumented: ("start", sq, None), ("advance", from, to) and
    ("backtrack", sq, back_to or None) in the order the figure performs them.
    A start on an already processed square (which fails at once) is not logged."""
    marked = [[bool(marked_bb >> chess.square(f, r) & 1) for r in range(8)] for f in range(8)]
    processed = [[False] * 8 for _ in range(8)]
    events: list[tuple[str, int, int | None]] = []

    def ok(f: int, r: int) -> bool:
        return 0 <= f < 8 and 0 <= r < 8 and marked[f][r] and not processed[f][r]

    def forms_fence(f: int, r: int, parent: int | None) -> bool:
        processed[f][r] = True
        here = chess.square(f, r)
        if f == FILE_H:
            return True
        for nf, nr in ((f, r + 1), (f + 1, r), (f, r - 1)):
            if ok(nf, nr):
                events.append(("advance", here, chess.square(nf, nr)))
                if forms_fence(nf, nr, here):
                    return True
        events.append(("backtrack", here, parent))
        return False

    for i in range(RANK_7, RANK_1, -1):
        if marked[FILE_A][i] and not processed[FILE_A][i]:
            events.append(("start", chess.square(FILE_A, i), None))
            if forms_fence(FILE_A, i, None):
                break
    return events


_SECTION_RANK = {"paper 2.3": 0, "paper 3.1": 1, "paper 3.3": 2, "paper 3.2": 3, "paper 3.4": 4}


def _bit(bb: int, sq: int) -> bool:
    return 0 <= sq < 64 and bool(bb >> sq & 1)


def _condition_32(sq: int, w: int, bp: int, b_att: int) -> int:
    """Paper 3.2's three conditions at ``sq``, read square by square:
    two << 2 | only << 1 | front."""
    file_pawns = sum(_bit(w, chess.square(chess.square_file(sq), r)) for r in range(8))
    two = _bit(bp, sq + 16)
    only = file_pawns == 1
    front = not _bit(b_att, sq + 8)
    return two << 2 | only << 1 | front


def _exception_34(sq: int, w: int, fixed: int, fence: int) -> bool:
    """Paper 3.4: exactly one white pawn on each neighbouring file, both fixed, both on
    the fence, on the same rank, below the sixth rank."""
    f = chess.square_file(sq)
    if f in (0, 7):
        return False
    sides = []
    for nf in (f - 1, f + 1):
        pawns = [s for s in (chess.square(nf, r) for r in range(8)) if _bit(w, s)]
        if len(pawns) != 1 or not _bit(fixed, pawns[0]) or not _bit(fence, pawns[0]):
            return False
        sides.append(chess.square_rank(pawns[0]))
    return sides[0] == sides[1] and sides[0] <= 4


def _walk_up(p: int, w: int, bp: int, fixed: int, b_att: int, fence: int) -> tuple:
    """3.3 for a pawn below the fence that is no lever: the first square up its file
    that holds a pawn, is on the fence (3.2 / 3.4 there) or is attacked."""
    from logic.paper import CODES_32  # only the code names

    s = p + 8
    while True:
        if _bit(w, s):
            return (p, "below", True, "paper 3.3", "own", s, None)
        if _bit(bp, s):
            return (p, "below", True, "paper 3.3", "ram", s, None)
        if _bit(fence, s):
            i = _condition_32(s, w, bp, b_att)
            if i == 7:
                return (p, "below", True, "paper 3.2", "reach-ok", s, None)
            if i == 3 and _exception_34(s, w, fixed, fence):
                fmask = int(chess.BB_FILES[chess.square_file(s)])
                return (p, "below", True, "paper 3.4", "reach-34", s, fmask)
            return (p, "below", False, "paper 3.2", CODES_32["reach"][i], s, None)
        if _bit(b_att, s):
            return (p, "below", False, "paper 3.3", "engage", s, None)
        s += 8


def paper_pawn_notes(w: int, bp: int, fixed: int, b_att: int, fence: int, sf: int
                     ) -> tuple[list[tuple], int, str, tuple[str, int] | None]:
    """Paper 3.1-3.4 read pawn by pawn and square by square (the detector does it
    set-wise): ``(notes, kmask, used, fail)`` with notes as the detector's tuples
    ``(square, category, ok, rule, code, target, kmask)``, the defending king's
    allowed squares, the most specific section a holding pawn used and the first
    failing pawn ``(rule, square)`` or None."""
    from logic.paper import CODES_32  # only the code names

    notes: list[tuple] = []
    for p in sorted(chess.SquareSet(w & ~fixed)):
        f = chess.square_file(p)
        if not _bit(sf, p):  # 3.1: above the fence
            span = sum(1 << chess.square(f, r) for r in range(chess.square_rank(p) + 1, 8))
            notes.append((p, "above", True, "paper 3.1", "above", None, span))
        elif _bit(fence, p):  # 3.2: on the fence
            i = _condition_32(p, w, bp, b_att)
            notes.append((p, "on", i == 7, "paper 3.2", CODES_32["on"][i], p, None))
        elif _bit(b_att, p):  # 3.3: a lever below the fence
            notes.append((p, "below", False, "paper 3.3", "lever", p, None))
        else:  # 3.3: walk up the file
            notes.append(_walk_up(p, w, bp, fixed, b_att, fence))
    kmask = chess.BB_ALL
    used = "paper 2.3"
    fail = None
    for n in notes:
        if n[6] is not None:
            kmask &= n[6]
        if n[2]:
            used = max(used, n[3], key=_SECTION_RANK.__getitem__)
        elif fail is None:
            fail = (n[3], n[0])
    return notes, kmask, used, fail
