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
