"""Fences: marked squares (paper 2.2), the DFS of Figure 8 and connected-component
labelling (paper 2.3).  (The wiki's ram fence and king flood are in ``logic.flood``.)

Everything here works on a board oriented so that the side under test is White
(the caller flips the position for Black).  Functions are pure; the optional
``rec`` argument records :class:`logic.steps.Step` events and costs one ``is
None`` test per event site when absent.
"""

from __future__ import annotations

import chess

from logic.bitboards import (
    BB_ALL,
    BB_NOT_A,
    BB_NOT_H,
    flood_fill,
    pawn_attacks,
)
from logic.steps import Recorder

__all__ = [
    "black_pawn_attacks",
    "marked_squares",
    "marking",
    "dfs_fence",
    "figure8_fast",
    "file_bytes",
    "ccl_labels",
    "ccl_separates",
    "king_reach",
]

_NOT_A = BB_NOT_A
_NOT_H = BB_NOT_H


def black_pawn_attacks(b: int) -> int:
    """Squares attacked by black pawns ``b``: e5 -> d4 | f4."""
    return pawn_attacks(b, chess.BLACK)


def marked_squares(w: int, b: int) -> tuple[int, int]:
    """``(fixed, marked)``: White's fixed pawns and the squares White's king cannot
    step into -- fixed pawns plus squares attacked by black pawns (paper 2.2)."""
    return marking(w, b)[1:3]


_NOT_A2 = _NOT_A | _NOT_A << 64
_NOT_H2 = _NOT_H | _NOT_H << 64


def marking(w: int, b: int) -> tuple[int, int, int, int]:
    """Paper 2.2 for White pawns ``w`` against black pawns ``b``: ``(b_att, fixed,
    marked, files)`` -- the squares black pawns attack, White's fixed pawns (blocked
    by a black pawn or a fixed white pawn, unable to capture), the marked squares
    (the two together) and a byte of the files holding a marked square (a fence
    needs all eight).

    The upper 64 bits of ``w`` and ``b`` may hold a second position (the detector
    marks both colours' positions in one pass): no pawn stands on a back rank, so
    no shift carries a square from one position into the other; its results are in
    the upper 64 bits, its files in bits 64-71.
    """
    ahead = b >> 8  # the squares in front of the black pawns
    b_att = ((ahead >> 1) & _NOT_H2) | ((ahead << 1) & _NOT_A2)  # black_pawn_attacks
    free = w & ~b_att  # pawns that cannot capture
    fixed = free & ahead
    if fixed:
        grown = fixed | (free & (fixed >> 8))
        while grown != fixed:
            fixed = grown
            grown = fixed | (free & (fixed >> 8))
    marked = fixed | b_att
    files = marked | (marked >> 32)
    files |= files >> 16
    return b_att, fixed, marked, files | (files >> 8)


def _byte_runs() -> tuple[list[int], list[int]]:
    """``RUN_AT[col << 3 | r]``: the maximal run of set bits of byte ``col`` containing
    bit ``r`` (0 if bit ``r`` is clear); ``TOP[b]``: the highest set bit of byte ``b``."""
    run_at = [0] * 2048
    for col in range(256):
        for r in range(8):
            if col >> r & 1:
                lo = hi = r
                while lo > 0 and col >> (lo - 1) & 1:
                    lo -= 1
                while hi < 7 and col >> (hi + 1) & 1:
                    hi += 1
                run_at[col << 3 | r] = ((2 << hi) - (1 << lo))
    top = [b.bit_length() - 1 for b in range(256)]
    return run_at, top


_RUN_AT, _TOP = _byte_runs()
#: ``_RUNS[col][r]``: ``_RUN_AT[col << 3 | r]`` as nested lists (no index arithmetic on
#: the hot path)
_RUNS = [_RUN_AT[col << 3:(col + 1) << 3] for col in range(256)]
#: ``_FSEG[f][a][b]``: the squares of file ``f`` between ranks ``a`` and ``b`` inclusive
_FSEG = [[[(((2 << (8 * max(a, b))) - (1 << (8 * min(a, b)))) & chess.BB_FILE_A) << f
           for b in range(8)] for a in range(8)] for f in range(8)]
_S0, _S1, _S2, _S3, _S4, _S5, _S6, _S7 = _FSEG
#: ``_LAST[e][x]``: the g-file squares from rank e to rank x and the h-file square on rank x
_LAST = [[_S6[e][x] | _S7[x][x] for x in range(8)] for e in range(8)]
_RANKS_2_TO_7 = 0b0111_1110


def _byte_run_hits() -> list[list[int]]:
    """``HITS[col][seeds]`` (seeds a subset of col): the union of the maximal runs of
    byte ``col`` that contain a bit of ``seeds``."""
    table = [[0] * 256 for _ in range(256)]
    for col in range(256):
        runs = {_RUN_AT[col << 3 | r] for r in range(8) if col >> r & 1}
        sub = col
        while True:  # every subset of col
            table[col][sub] = sum(run for run in runs if run & sub)
            if not sub:
                break
            sub = (sub - 1) & col
    return table


_HITS = _byte_run_hits()


#: ``_SPREAD[r][x]``: rank ``r``'s byte ``x`` spread into file bytes (bit ``r`` of byte
#: ``f`` for each file ``f`` in ``x``): one lookup per rank transposes a bitboard
_SPREAD = [[sum(1 << (8 * f + r) for f in range(8) if x >> f & 1) for x in range(256)]
           for r in range(8)]
_T0, _T1, _T2, _T3, _T4, _T5, _T6, _T7 = _SPREAD


def file_bytes(bb: int) -> bytes:
    """``chess.flip_diagonal(bb).to_bytes(8, "little")``: byte ``f`` holds file ``f``'s
    squares, bit ``r`` for rank ``r``.  Eight table lookups instead of python-chess's
    delta swaps (about a quarter fewer instructions on the detector's hot path; a test
    checks equality on random bitboards)."""
    r0, r1, r2, r3, r4, r5, r6, r7 = bb.to_bytes(8, "little")
    return (_T0[r0] | _T1[r1] | _T2[r2] | _T3[r3] | _T4[r4] | _T5[r5] | _T6[r6]
            | _T7[r7]).to_bytes(8, "little")


def figure8_fast(cols: bytes) -> int:
    """Figure 8's fence from the file bytes ``cols`` (:func:`file_bytes` of the marked
    squares: one byte of ranks per file), without search.

    A run (vertical segment of marked squares) is *alive* if the h-file can be
    reached from it by north, east and south steps.  Figure 8 never steps west,
    so a subtree that fails has met only dead runs and cannot block a later
    attempt: the figure's first fence takes the topmost a-file start (ranks 7..2)
    in an alive run, then on each file the topmost exit into an alive run.  One
    backward pass finds the alive runs, one forward pass the path.
    """
    # Straight-line code on purpose: one step per file, no loop, tables indexed
    # without arithmetic (this is the detector's hot path; a loop over the files
    # costs about twice as much in CPython).
    c0, c1, c2, c3, c4, c5, c6, c7 = cols
    starts = c0 & _RANKS_2_TO_7
    if not starts:
        return 0
    return _greedy(c0, c1, c2, c3, c4, c5, c6, c7, _TOP[starts]) or _alive(cols)


def _greedy(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int, c6: int, c7: int, e: int
            ) -> int:
    """Most fences need no backtracking: walk greedily from the a-file rank ``e`` (the
    topmost start, then the topmost exit on every file).  If that reaches the h-file,
    every exit it took led to the h-file, so each was the topmost *alive* exit: it is
    Figure 8's path.  Returns 0 when the walk gets stuck."""
    runs, top = _RUNS, _TOP
    x = top[runs[c0][e] & c1]
    if x < 0:
        return 0
    fence = _S0[e][x]
    e = top[runs[c1][x] & c2]
    if e < 0:
        return 0
    fence |= _S1[x][e]
    x = top[runs[c2][e] & c3]
    if x < 0:
        return 0
    fence |= _S2[e][x]
    e = top[runs[c3][x] & c4]
    if e < 0:
        return 0
    fence |= _S3[x][e]
    x = top[runs[c4][e] & c5]
    if x < 0:
        return 0
    fence |= _S4[e][x]
    e = top[runs[c5][x] & c6]
    if e < 0:
        return 0
    fence |= _S5[x][e]
    x = top[runs[c6][e] & c7]
    if x < 0:
        return 0
    return fence | _LAST[e][x]


def _alive(cols: bytes) -> int:
    """Figure 8's path when the greedy walk got stuck: one backward pass marks the runs
    from which the h-file can be reached, one forward pass takes the topmost alive start
    and, on every file, the topmost alive exit (0 when no start is alive)."""
    c0, c1, c2, c3, c4, c5, c6, c7 = cols
    runs, top, hits = _RUNS, _TOP, _HITS
    a6 = hits[c6][c6 & c7]
    if not a6:
        return 0
    a5 = hits[c5][c5 & a6]
    if not a5:
        return 0
    a4 = hits[c4][c4 & a5]
    if not a4:
        return 0
    a3 = hits[c3][c3 & a4]
    if not a3:
        return 0
    a2 = hits[c2][c2 & a3]
    if not a2:
        return 0
    a1 = hits[c1][c1 & a2]
    if not a1:
        return 0
    starts = hits[c0][c0 & a1] & _RANKS_2_TO_7
    if not starts:
        return 0
    e = top[starts]
    x = top[runs[c0][e] & a1]
    fence = _S0[e][x]
    e = top[runs[c1][x] & a2]
    fence |= _S1[x][e]
    x = top[runs[c2][e] & a3]
    fence |= _S2[e][x]
    e = top[runs[c3][x] & a4]
    fence |= _S3[x][e]
    x = top[runs[c4][e] & a5]
    fence |= _S4[e][x]
    e = top[runs[c5][x] & a6]
    fence |= _S5[x][e]
    x = top[runs[c6][e] & c7]
    return fence | _LAST[e][x]


def dfs_fence(marked: int, rec: Recorder | None = None) -> int:
    """The fence Figure 8 finds in ``marked``, as a bitboard, or 0 if none.

    Figure 8 starts at the topmost marked a-file square (ranks 7..2), advances to
    a marked, unprocessed neighbour in the order north, east, south, backtracks
    when stuck and succeeds on reaching the h-file; the squares on its stack form
    the fence (paper 2.3).  It never steps west, so on each file it walks one
    vertical run of marked squares and tries the eastward exits from the top of
    the run down.  ``chess.flip_diagonal`` turns each file into one byte, so runs
    and their top squares are table lookups.  Untraced, the fence comes from
    :func:`figure8_fast` without search; traced, the search below takes whole runs
    at a time and replays the figure's square-by-square advances and backtracks.
    Both give exactly the fence of a verbatim transcription of Figure 8 (tests).
    """
    if rec is None:
        # a 4-connected a-to-h path needs a marked square on every file
        m = marked | (marked >> 32)
        m |= m >> 16
        if (m | (m >> 8)) & 0xFF != 0xFF:
            return 0
        return figure8_fast(file_bytes(marked))
    cols = file_bytes(marked)  # cols[f]: bit r = rank r
    if 0 in cols:
        empty = ", ".join(chess.FILE_NAMES[f] for f in range(8) if not cols[f])
        rec.add(
            "dfs-note", "paper 2.3", "fence search",
            f"No marked square on the {empty}-file(s): no fence can exist; the DFS below "
            "shows how Figure 8 finds that out.",
            marked=marked,
        )
    walk = _Walk(rec, marked)
    run_at, top = _RUN_AT, _TOP
    proc = [0] * 8  # processed squares, one byte per file
    entry = [0] * 8  # the rank where the walk entered each open file
    runs = [0] * 8  # the run being walked on each open file
    cands = [0] * 8  # its untried eastward exits
    starts = cols[0] & _RANKS_2_TO_7
    while starts:
        e = top[starts]
        r = run_at[cols[0] << 3 | e]
        proc[0] |= r
        starts &= ~r
        entry[0], runs[0], cands[0] = e, r, r & cols[1] & ~proc[1]
        walk.start(e << 3, _spread(r, 0))
        f = 0
        while f >= 0:
            nxt = f + 1
            c = cands[f] & ~proc[nxt]
            if not c:
                walk.leave(entry[f] << 3 | f, _spread(runs[f], f),
                           (entry[f - 1] << 3 | (f - 1)) if f else None)
                f -= 1
                continue
            x = top[c]
            cands[f] = c & ~(1 << x)
            walk.east(entry[f] << 3 | f, _spread(runs[f], f), x << 3 | nxt)
            if nxt == 7:
                walk.arrive(x << 3 | 7)
                fence = 1 << (x << 3 | 7)
                for g in range(f, -1, -1):
                    fence |= _FSEG[g][entry[g]][x]
                    x = entry[g]
                walk.found(fence)
                return fence
            avail = cols[nxt] & ~proc[nxt]
            r = run_at[avail << 3 | x]
            proc[nxt] |= r
            entry[nxt], runs[nxt], cands[nxt] = x, r, r & cols[nxt + 1] & ~proc[nxt + 1]
            f = nxt
            walk.enter(x << 3 | f, _spread(r, f))
    walk.none()
    return 0


_RANKS_OF = [sum(1 << (8 * r) for r in range(8) if byte >> r & 1) for byte in range(256)]


def _spread(run: int, f: int) -> int:
    """The bitboard of file ``f`` whose ranks are the bits of byte ``run``."""
    return _RANKS_OF[run] << f


class _Walk:
    """Replays Figure 8's square-by-square walk for the trace, given the run-level
    decisions of :func:`dfs_fence`: the figure climbs north from the entry square to
    the top of the run, tries east from each square while coming back down, walks
    south below the entry the same way, then backtracks west."""

    __slots__ = ("rec", "marked", "shown", "path", "cur")

    def __init__(self, rec: Recorder, marked: int) -> None:
        self.rec = rec
        self.marked = marked
        self.shown = 0  # squares the figure has processed so far
        self.path = 0  # the figure's stack
        self.cur: list[int] = []  # the walker's square on each open file

    def _step(self, kind: str, sq: int, text: str) -> None:
        self.rec.add(
            kind, "paper 2.3", "fence search", text, changed=1 << sq, square=sq,
            marked=self.marked, processed=self.shown, path=self.path,
        )

    def _advance(self, frm: int | None, to: int) -> None:
        self.shown |= 1 << to
        self.path |= 1 << to
        n = self.rec.name
        if frm is None:
            self._step("dfs-start", to, f"Start the DFS at {n(to)}, the topmost unprocessed "
                       "marked square on the a-file (ranks 7 to 2).")
        else:
            way = {8: "north", 1: "east", -8: "south"}[to - frm]
            self._step("dfs-advance", to, f"Advance {way} from {n(frm)} to {n(to)} "
                       "(priority north, east, south).")

    def _back(self, frm: int, to: int | None) -> None:
        self.path &= ~(1 << frm)
        where = f"back to {self.rec.name(to)}" if to is not None else "out of the a-file"
        self._step("dfs-backtrack", frm, f"{self.rec.name(frm)} has no unprocessed marked "
                   f"neighbour to the north, east or south: backtrack {where}.")

    def _climb(self, entry: int, run: int) -> None:
        sq = entry
        while run >> (sq + 8) & 1:
            self._advance(sq, sq + 8)
            sq += 8
        self.cur.append(sq)

    def start(self, s: int, run: int) -> None:
        self._advance(None, s)
        self._climb(s, run)

    def enter(self, x: int, run: int) -> None:
        self._advance(x - 1, x)
        self._climb(x, run)

    def _walk_to(self, entry: int, run: int, target: int) -> None:
        """Move the walker on this file down to ``target`` as the figure would."""
        cur = self.cur[-1]
        while cur > target and cur > entry:
            self._back(cur, cur - 8)
            cur -= 8
        while cur > target:
            self._advance(cur, cur - 8)
            cur -= 8
        self.cur[-1] = cur

    def east(self, entry: int, run: int, x: int) -> None:
        self._walk_to(entry, run, x - 1)

    def leave(self, entry: int, run: int, west: int | None) -> None:
        bottom = (run & -run).bit_length() - 1
        self._walk_to(entry, run, bottom)
        cur = self.cur.pop()
        while cur < entry:  # unwind the southward chain
            self._back(cur, cur + 8)
            cur += 8
        self._back(entry, entry - 1 if west is not None else None)

    def arrive(self, x: int) -> None:
        self._advance(x - 1, x)

    def found(self, fence: int) -> None:
        self.rec.add(
            "dfs-found", "paper 2.3", "fence found",
            f"Reached the h-file: the marked squares {self.rec.names(fence)} form a fence.",
            changed=fence, marked=self.marked, processed=self.shown, path=fence, fence=fence,
        )

    def none(self) -> None:
        self.rec.add(
            "dfs-none", "paper 2.3", "fence search",
            "No fence: every marked a-file square was tried and none leads to the h-file.",
            marked=self.marked, processed=self.shown,
        )


def ccl_labels(marked: int) -> list[int]:
    """Connected-component labels of the unmarked squares (paper 2.3), 0 for marked.

    The paper scans the 8x8 "image" from top to bottom and left to right and
    propagates labels to neighbours.  We label with 8-connectivity because the
    king moves diagonally: a 4-connected line of marked squares (the Figure 8
    fence) is exactly what separates 8-connected regions.  Two passes with
    union-find; labels are renumbered 1..k in scan order.
    """
    parent = [0]
    label = [0] * 64

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for rank in range(7, -1, -1):  # top to bottom
        for file in range(8):  # left to right
            sq = rank * 8 + file
            if marked >> sq & 1:
                continue
            neighbours = []
            if file > 0:
                neighbours.append(label[sq - 1])  # west
            if rank < 7:
                neighbours.append(label[sq + 8])  # north
                if file > 0:
                    neighbours.append(label[sq + 7])  # north-west
                if file < 7:
                    neighbours.append(label[sq + 9])  # north-east
            roots = {find(n) for n in neighbours if n}
            if not roots:
                parent.append(len(parent))
                label[sq] = len(parent) - 1
                continue
            root = min(roots)
            for r in roots:
                parent[r] = root
            label[sq] = root
    renumber: dict[int, int] = {}
    out = [0] * 64
    for rank in range(7, -1, -1):
        for file in range(8):
            sq = rank * 8 + file
            if label[sq]:
                out[sq] = renumber.setdefault(find(label[sq]), len(renumber) + 1)
    return out


def ccl_separates(marked: int, low: int, high: int) -> bool:
    """True if no 8-connected region of unmarked squares meets both ``low`` and ``high``.

    With ``low`` = rank 1 and ``high`` = rank 8 this asks whether the marked squares
    cut the board from side to side; with the kings' squares it is the paper's test
    "the two Kings have different labels".
    """
    labels = ccl_labels(marked)
    lows = {labels[s] for s in chess.scan_forward(low & ~marked)}
    highs = {labels[s] for s in chess.scan_forward(high & ~marked)}
    return not (lows & highs)


def king_reach(marked: int, king: int) -> int:
    """Squares a king on ``king`` reaches through unmarked squares (8-connected)."""
    return flood_fill(1 << king, BB_ALL & ~marked)
