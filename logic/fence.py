"""Fences: marked squares (paper 2.2), the DFS of Figure 8 and connected-component
labelling (paper 2.3), and the wiki's ram fence with its king flood.

Everything here works on a board oriented so that the side under test is White
(the caller flips the position for Black).  Functions are pure; the optional
``rec`` argument records :class:`logic.steps.Step` events and costs one ``is
None`` test per event site when absent.
"""

from __future__ import annotations

import chess

from logic.bitboards import BB_ALL, king_attacks_setwise, south_fill
from logic.steps import Recorder

__all__ = [
    "black_pawn_attacks",
    "fixed_white_pawns",
    "marked_squares",
    "dfs_fence",
    "fence_regions",
    "ccl_labels",
    "ccl_separates",
    "ram_fence",
    "king_flood",
    "FloodResult",
]

_NOT_A = BB_ALL & ~chess.BB_FILE_A
_NOT_H = BB_ALL & ~chess.BB_FILE_H
_ALL_FILES = 0xFF


def black_pawn_attacks(b: int) -> int:
    """Squares attacked by black pawns ``b``: e5 -> d4 | f4."""
    return ((b >> 9) & _NOT_H) | ((b >> 7) & _NOT_A)


def fixed_white_pawns(w: int, b: int) -> int:
    """White's fixed pawns (paper 2.2): blocked by a black pawn or a fixed white pawn,
    and unable to capture (no black pawn diagonally in front)."""
    free = w & ~black_pawn_attacks(b)  # pawns that cannot capture
    fixed = free & (b >> 8)
    while fixed:
        grown = fixed | (free & (fixed >> 8))
        if grown == fixed:
            break
        fixed = grown
    return fixed


def marked_squares(w: int, b: int) -> tuple[int, int]:
    """``(fixed, marked)``: White's fixed pawns and the squares White's king cannot
    step into -- fixed pawns plus squares attacked by black pawns (paper 2.2)."""
    fixed = fixed_white_pawns(w, b)
    return fixed, fixed | black_pawn_attacks(b)


# Figure 8 visits neighbours in the order north, east, south (never west).  An
# h-file square ends the search, so it needs no neighbours.
_DFS_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    ()
    if sq & 7 == 7
    else tuple(
        n
        for n, ok in ((sq + 8, sq < 56), (sq + 1, True), (sq - 8, sq >= 8))
        if ok
    )
    for sq in range(64)
)
_DFS_DIRECTION = {8: "north", 1: "east", -8: "south"}
# Figure 8's blockage(): a-file start squares from rank 7 down to rank 2.
_DFS_STARTS = tuple(chess.square(0, r) for r in range(6, 0, -1))


def dfs_fence(marked: int, rec: Recorder | None = None) -> int:
    """The fence Figure 8 finds in ``marked``, as a bitboard, or 0 if none.

    Starts at the topmost marked a-file square (ranks 7..2), advances to a marked,
    unprocessed neighbour in the order north, east, south, backtracks when stuck,
    and succeeds on reaching the h-file; the squares on the DFS stack form the
    fence (paper 2.3, Figure 8).  ``processed`` is shared by all start squares,
    as in the figure.
    """
    # A 4-connected a-to-h path needs a marked square on every file.
    m = marked | (marked >> 32)
    m |= m >> 16
    m |= m >> 8
    if m & 0xFF != _ALL_FILES:
        if rec is not None:
            rec.add(
                "dfs-none", "paper 2.3", "fence search",
                "No fence: some file has no marked square, so no path of marked squares "
                "can run from the a-file to the h-file.",
                marked=marked,
            )
        return 0
    processed = 0
    for start in _DFS_STARTS:
        sbit = 1 << start
        if not marked & sbit or processed & sbit:
            continue
        processed |= sbit
        stack = [start]
        path = sbit
        if rec is not None:
            rec.add(
                "dfs-start", "paper 2.3", "fence search",
                f"Start the DFS at {rec.name(start)}, the topmost unprocessed marked "
                "square on the a-file.",
                changed=sbit, square=start, marked=marked, processed=processed, path=path,
            )
        while stack:
            sq = stack[-1]
            if sq & 7 == 7:
                if rec is not None:
                    rec.add(
                        "dfs-found", "paper 2.3", "fence found",
                        f"Reached the h-file at {rec.name(sq)}: the marked squares "
                        f"{rec.names(path)} form a fence.",
                        changed=path, square=sq, marked=marked, processed=processed,
                        path=path, fence=path,
                    )
                return path
            avail = marked & ~processed
            for n in _DFS_NEIGHBOURS[sq]:
                if avail >> n & 1:
                    nbit = 1 << n
                    processed |= nbit
                    path |= nbit
                    stack.append(n)
                    if rec is not None:
                        rec.add(
                            "dfs-advance", "paper 2.3", "fence search",
                            f"Advance {_DFS_DIRECTION[n - sq]} from {rec.name(sq)} to "
                            f"{rec.name(n)} (priority north, east, south).",
                            changed=nbit, square=n, marked=marked, processed=processed,
                            path=path,
                        )
                    break
            else:
                stack.pop()
                path &= ~(1 << sq)
                if rec is not None:
                    back = f"back to {rec.name(stack[-1])}" if stack else "out of the a-file"
                    rec.add(
                        "dfs-backtrack", "paper 2.3", "fence search",
                        f"{rec.name(sq)} has no unprocessed marked neighbour to the north, "
                        f"east or south: backtrack {back}.",
                        changed=1 << sq, square=sq, marked=marked, processed=processed,
                        path=path,
                    )
    if rec is not None:
        rec.add(
            "dfs-none", "paper 2.3", "fence search",
            "No fence: every marked a-file square was tried and none leads to the h-file.",
            marked=marked, processed=processed,
        )
    return 0


def fence_regions(fence: int) -> tuple[int, int]:
    """``(below, above)`` for a Figure 8 fence.

    A Figure 8 path never steps west, so on each file it is one vertical run;
    "below" is every square under that run and "above" every square over it.
    """
    return south_fill(fence) & ~fence, (south_fill(fence) | fence) ^ BB_ALL


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


class FloodResult:
    """Outcome of :func:`king_flood`: ``closed`` is True when the flood stopped
    below the fence; ``fence``, ``flood`` and ``drowned`` are bitboards and
    ``why`` says why the flood failed ("rams" or "breakthrough") when it did."""

    __slots__ = ("closed", "fence", "flood", "drowned", "why", "cycles")

    def __init__(
        self, closed: bool, fence: int, flood: int, drowned: int, why: str, cycles: int
    ) -> None:
        self.closed = closed
        self.fence = fence
        self.flood = flood
        self.drowned = drowned
        self.why = why
        self.cycles = cycles


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
                "flood-rams", "wiki flood", "ram fence",
                f"Fewer than three rams ({rec.us} pawns blocked by {rec.them} pawns): "
                "no ram fence.",
                rams=w & (b >> 8),
            )
        return FloodResult(False, 0, 0, 0, "rams", 0)
    if rec is not None:
        rec.add(
            "flood-fence", "wiki flood", "ram fence",
            f"Ram fence: rams {rec.names(w & (b >> 8))}, the {rec.us} pawns blocked behind "
            f"them, and every square a {rec.them} pawn attacks.",
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
            "flood-start", "wiki flood", "flood cycle 0",
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
                    "flood-stop", "wiki flood", "flood stopped",
                    "The flood does not grow any more: the fence holds.",
                    fence=fence, flood=flood, above=above, drowned=drowned,
                )
            return FloodResult(True, fence, flood, drowned, "", cycles)
        cycles += 1
        if rec is not None:
            rec.add(
                "flood-cycle", "wiki flood", f"flood cycle {cycles}",
                f"Flood cycle {cycles}: the king region grows by one step "
                f"({(flood & ~before).bit_count()} new squares).",
                changed=flood & ~before, fence=fence, flood=flood, above=above,
                drowned=drowned,
            )
        if flood & above:
            if rec is not None:
                rec.add(
                    "flood-breakthrough", "wiki flood", "breakthrough",
                    f"The flood reaches {rec.names(flood & above)}, above the fence: "
                    "the fence is penetrable.",
                    changed=flood & above, fence=fence, flood=flood, above=above,
                    drowned=drowned,
                )
            return FloodResult(False, fence, flood, drowned, "breakthrough", cycles)
        if flood & b:
            hit = flood & b
            drowned |= hit
            b &= ~hit
            fence = ram_fence(w, b)
            if rec is not None:
                rec.add(
                    "flood-drown", "wiki flood", f"fence recomputed after {rec.names(hit)} drowned",
                    f"The flood reaches undefended {rec.them} pawn(s) {rec.names(hit)}: "
                    "they are captured and the ram fence is recomputed.",
                    changed=hit, fence=fence, flood=flood, above=above, drowned=drowned,
                )
            if not fence:
                return FloodResult(False, 0, flood, drowned, "rams", cycles)
