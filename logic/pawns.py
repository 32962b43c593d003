"""Set-wise pawn-structure properties: files, rams, levers, fixed and backward pawns.

Squares are python-chess's (a1 = 0, h8 = 63); every bitboard is an ``int`` in
``[0, 2**64)``.  The functions are pure and built from :mod:`logic.bitboards`
plus python-chess's shifts.

Sources
-------
* [FILES] Chessprogramming wiki, "Pawns and Files (Bitboards)": closed, open,
  half-open and semi-closed files, file sets.
* [BACKWARD] Chessprogramming wiki, "Backward Pawns (Bitboards)": ``wBackward``,
  ``wStraggler``, telestop weakness (backward square area), dynamic backwardness.
* [DFN04] David, Felner, Netanyahu (2004), "Blockage Detection in Pawn
  Endings", section 2.2: fixed and dynamic pawns.

Colour conventions
------------------
Colour-generic functions take ``own`` and ``opp`` pawn sets and the ``color``
(``chess.WHITE`` / ``chess.BLACK``) of ``own``.  For every such ``f``::

    f(own, opp, BLACK) == flip_vertical(f(flip_vertical(own), flip_vertical(opp), WHITE))

File functions that name colours (``w``, ``b``) satisfy the analogous identity
with the arguments swapped; file fills are invariant under a vertical flip.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

import chess

from logic.bitboards import (
    BB_ALL,
    attack_file_fill,
    attack_front_span,
    file_fill,
    file_set,
    front_fill,
    front_span,
    pawn_attacks,
    pawn_pushes,
    rear_span,
)

__all__ = [
    "closed_files",
    "open_files",
    "half_open_files",
    "half_open_or_open_files",
    "semi_closed_files",
    "closed_file_set",
    "open_file_set",
    "half_open_file_set",
    "semi_closed_file_set",
    "file_letters",
    "square_names",
    "rams",
    "levers",
    "passed_pawns",
    "open_pawns",
    "isolated",
    "doubled",
    "fixed_pawns",
    "dynamic_pawns",
    "backward",
    "stragglers",
    "telestop_weak",
    "dynamic_backward",
    "SidePawns",
    "PawnStructure",
    "analyse",
]

# Relative 2nd and 3rd ranks (the wiki's ``0xffff00`` for White) [BACKWARD, "Straggler"].
_STRAGGLER_RANKS = {
    chess.WHITE: chess.BB_RANK_2 | chess.BB_RANK_3,
    chess.BLACK: chess.BB_RANK_7 | chess.BB_RANK_6,
}


# --------------------------------------------------------------------------------------
# Files [FILES]
# --------------------------------------------------------------------------------------


def closed_files(w: int, b: int) -> int:
    """Files with a white and a black pawn (file fill): closed_files(e2, e7) = e-file."""
    # [FILES] closedFiles = fileFill(wpawns) & fileFill(bpawns)
    return file_fill(w) & file_fill(b)


def open_files(w: int, b: int) -> int:
    """Files holding no pawn at all (file fill): open_files(e2, d7) = all files but d and e."""
    # [FILES] openFiles = ~fileFill(wpawns | bpawns)
    return BB_ALL & ~file_fill(w | b)


def half_open_or_open_files(own: int) -> int:
    """Files without an ``own`` pawn (file fill): half_open_or_open_files(e2) = every file but e."""
    # [FILES] halfOpenOrOpenFile(gen) = ~fileFill(gen)
    return BB_ALL & ~file_fill(own)


def half_open_files(own: int, opp: int) -> int:
    """Files with no ``own`` but some ``opp`` pawn: half_open_files(e2, d7) = d-file."""
    # [FILES] wHalfOpenFile = halfOpenOrOpenFile(wpawns) ^ openFiles(wpawns, bpawns)
    return half_open_or_open_files(own) ^ open_files(own, opp)


def semi_closed_files(w: int, b: int) -> int:
    """Closed files where no pawn has an enemy pawn ahead: semi_closed_files(d5, d4) = d-file."""
    # [FILES, "Semi-closed Files"]: a closed file is "more like an eventually mutual
    # half-open file" when its pawns are *open*, i.e. no pawn is a member of an opponent
    # front span (example: white d5, black d4).  Interpretation: a closed file is
    # semi-closed iff *every* pawn on it is open.  A white pawn with a black pawn in its
    # front span implies that black pawn has the white pawn in its own front span, so
    # it suffices to remove the files of the opposed (non-open) white pawns.
    opposed_white = w & front_span(b, chess.BLACK)
    return closed_files(w, b) & ~file_fill(opposed_white)


def closed_file_set(w: int, b: int) -> int:
    """8-bit file set (bit 0 = a-file) of :func:`closed_files`: closed_file_set(e2, e7) = 0x10."""
    # [FILES, "Filesets"]
    return file_set(closed_files(w, b))


def open_file_set(w: int, b: int) -> int:
    """8-bit file set of :func:`open_files`: open_file_set(e2, d7) = 0xE7."""
    return file_set(open_files(w, b))


def half_open_file_set(own: int, opp: int) -> int:
    """8-bit file set of :func:`half_open_files`: half_open_file_set(e2, d7) = 0x08."""
    return file_set(half_open_files(own, opp))


def semi_closed_file_set(w: int, b: int) -> int:
    """8-bit file set of :func:`semi_closed_files`: semi_closed_file_set(d5, d4) = 0x08."""
    return file_set(semi_closed_files(w, b))


def file_letters(bb: int) -> list[str]:
    """Letters of the files touched by ``bb``, a to h: file_letters(e2 | a7) = ["a", "e"]."""
    fset = file_set(bb)
    return [chess.FILE_NAMES[f] for f in range(8) if fset >> f & 1]


def square_names(bb: int) -> list[str]:
    """Square names of ``bb`` in index order: square_names(e4 | a1) = ["a1", "e4"]."""
    return [chess.square_name(sq) for sq in chess.scan_forward(bb & BB_ALL)]


# --------------------------------------------------------------------------------------
# Simple pawn sets (Chessprogramming wiki "Pawn Pattern and Properties" family)
# --------------------------------------------------------------------------------------


def rams(own: int, opp: int, color: chess.Color) -> int:
    """``own`` pawns whose stop square holds an ``opp`` pawn: rams(e4, e5, WHITE) = e4."""
    # The opponent pawns "pushed" towards us land on the squares of our blocked pawns.
    return own & pawn_pushes(opp, not color)


def levers(own: int, opp: int, color: chess.Color) -> int:
    """``own`` pawns attacking at least one ``opp`` pawn: levers(e4, d5, WHITE) = e4."""
    # Pawn attacks are mutual: own attacks opp <=> opp (as the other colour) attacks own.
    return own & pawn_attacks(opp, not color)


def passed_pawns(own: int, opp: int, color: chess.Color) -> int:
    """No ``opp`` pawn ahead on own/adjacent files: passed_pawns(e4, d4, WHITE) = e4."""
    # wPassedPawns = wpawns & ~(bFrontSpans | bEastAttackFrontSpans | bWestAttackFrontSpans)
    them = not color
    return own & ~(front_span(opp, them) | attack_front_span(opp, them)) & BB_ALL


def open_pawns(own: int, opp: int, color: chess.Color) -> int:
    """``own`` pawns with no ``opp`` pawn in their front span: open_pawns(d5, d4, WHITE) = d5."""
    # A pawn has an enemy pawn ahead iff it stands in that enemy pawn's front span.
    return own & ~front_span(opp, not color) & BB_ALL


def isolated(own: int) -> int:
    """``own`` pawns with no ``own`` pawn on an adjacent file: isolated(a2 | c2) = a2 | c2."""
    return own & ~attack_file_fill(own) & BB_ALL


def doubled(own: int) -> int:
    """``own`` pawns sharing their file with another: doubled(e2 | e3 | d2) = e2 | e3."""
    # Colour-free: front_span(WHITE) | rear_span(WHITE) covers the whole file but the square.
    return own & (front_span(own, chess.WHITE) | rear_span(own, chess.WHITE))


# --------------------------------------------------------------------------------------
# Fixed and dynamic pawns [DFN04, section 2.2]
# --------------------------------------------------------------------------------------


def fixed_pawns(own: int, opp: int, color: chess.Color) -> int:
    """Blocked by opp/fixed own pawn, no capture: fixed_pawns(e4|e5, e6, WHITE) = e4|e5."""
    # [DFN04 2.2] "a fixed Pawn for White is a Pawn which is blocked by a black Pawn, or
    # by another white fixed Pawn, and cannot capture any piece".  In a pawn-only view
    # "cannot capture" means: attacks no opponent pawn (i.e. is not a lever).
    # Least fixpoint: seed with the non-lever rams, then grow backwards along files
    # through non-lever own pawns standing directly behind a fixed pawn (<= 7 rounds).
    candidates = own & ~levers(own, opp, color)
    fixed = candidates & pawn_pushes(opp, not color)
    while True:
        grown = fixed | (candidates & pawn_pushes(fixed, not color))
        if grown == fixed:
            return fixed
        fixed = grown


def dynamic_pawns(own: int, opp: int, color: chess.Color) -> int:
    """``own`` pawns that are not fixed [DFN04 2.2]: dynamic_pawns(e4 | g2, e5, WHITE) = g2."""
    return own & ~fixed_pawns(own, opp, color)


# --------------------------------------------------------------------------------------
# Backwardness [BACKWARD]
# --------------------------------------------------------------------------------------


def backward(own: int, opp: int, color: chess.Color) -> int:
    """Stop hit by ``opp``, not in own attack spans: backward(d2, e4, WHITE) = d2."""
    # [BACKWARD] wBackward:
    #   stops = wpawns << 8
    #   return (stops & bPawnAttacks(bpawns) & ~wAttackFrontSpans(wpawns)) >> 8
    # Occupancy is ignored (rams and levers may be backward too).
    stops = pawn_pushes(own, color)
    bad = stops & pawn_attacks(opp, not color) & ~attack_front_span(own, color)
    return pawn_pushes(bad, not color)


def stragglers(own: int, opp: int, color: chess.Color) -> int:
    """Backward open pawns on the relative 2nd/3rd rank: stragglers(b2, c4, WHITE) = b2."""
    # [BACKWARD] wStraggler = wBackward & wOpenPawns & 0xffff00 (ranks 2, 3).
    return backward(own, opp, color) & open_pawns(own, opp, color) & _STRAGGLER_RANKS[color]


def telestop_weak(own: int, opp: int, color: chess.Color) -> int:
    """Own pawns in the backward square area: b2 | h3 in 8/5p2/6p1/p1p3P1/P1P5/7P/1P6/8."""
    # [BACKWARD, "Telestop Weakness"]: squares attacked by opponent pawns outside own
    # front attack spans ("stop squares dominated by black"), filled down towards our
    # own side ("white backward area"), intersected with own pawns.  As in the wiki's
    # worked example the fill includes the dominated square itself.
    dominated = pawn_attacks(opp, not color) & ~attack_front_span(own, color) & BB_ALL
    return own & front_fill(dominated, not color)


def dynamic_backward(own: int, opp: int, color: chess.Color) -> int:
    """Backward vs movable pawns' spans only: + c4 in 8/8/1p6/8/p1P1p3/3pP3/1P1P4/8."""
    # [BACKWARD, "Dynamic Backwardness"]: attack spans whose pawns are backward or rammed
    # (or both) cannot be realised; a single further pass considers only the attack
    # spans of movable pawns = own & ~backward & ~rams.  Superset of :func:`backward`.
    movable = own & ~backward(own, opp, color) & ~rams(own, opp, color)
    stops = pawn_pushes(own, color)
    bad = stops & pawn_attacks(opp, not color) & ~attack_front_span(movable, color)
    return pawn_pushes(bad, not color)


# --------------------------------------------------------------------------------------
# Aggregate
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SidePawns:
    """Per-colour pawn sets (bitboards); see the functions of the same names."""

    pawns: int
    half_open_files: int
    rams: int
    levers: int
    passed: int
    open: int
    isolated: int
    doubled: int
    fixed: int
    dynamic: int
    backward: int
    stragglers: int
    telestop_weak: int
    dynamic_backward: int

    @classmethod
    def build(cls, own: int, opp: int, color: chess.Color) -> SidePawns:
        """Per-colour sets of ``own`` vs ``opp``: SidePawns.build(e4, e5, WHITE).rams = e4."""
        fixed = fixed_pawns(own, opp, color)
        return cls(
            pawns=own,
            half_open_files=half_open_files(own, opp),
            rams=rams(own, opp, color),
            levers=levers(own, opp, color),
            passed=passed_pawns(own, opp, color),
            open=open_pawns(own, opp, color),
            isolated=isolated(own),
            doubled=doubled(own),
            fixed=fixed,
            dynamic=own & ~fixed,
            backward=backward(own, opp, color),
            stragglers=stragglers(own, opp, color),
            telestop_weak=telestop_weak(own, opp, color),
            dynamic_backward=dynamic_backward(own, opp, color),
        )

    def to_dict(self) -> dict[str, list[str]]:
        """Field name -> sorted square names: {"rams": ["e4"], ...}."""
        return {f.name: square_names(getattr(self, f.name)) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class PawnStructure:
    """Pawn structure of a position: per-colour :class:`SidePawns` plus shared file sets."""

    white: SidePawns
    black: SidePawns
    closed_files: int
    open_files: int
    semi_closed_files: int

    def side(self, color: chess.Color) -> SidePawns:
        """The :class:`SidePawns` of ``color``: ps.side(chess.WHITE) is ps.white."""
        return self.white if color else self.black

    @classmethod
    def analyse(cls, position: chess.BaseBoard | tuple[int, int] | Iterable[int]) -> PawnStructure:
        """Analyse a board or ``(w, b)`` pawn pair: analyse(chess.Board()).open_files = 0."""
        if isinstance(position, chess.BaseBoard):
            w = position.pieces_mask(chess.PAWN, chess.WHITE)
            b = position.pieces_mask(chess.PAWN, chess.BLACK)
        else:
            w, b = (int(x) & BB_ALL for x in position)
            if w & b:
                raise ValueError("white and black pawn sets overlap")
        return cls(
            white=SidePawns.build(w, b, chess.WHITE),
            black=SidePawns.build(b, w, chess.BLACK),
            closed_files=closed_files(w, b),
            open_files=open_files(w, b),
            semi_closed_files=semi_closed_files(w, b),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly overlay data: {"white": {...}, "black": {...}, "files": {...}}."""
        file_sets = {
            "closed": self.closed_files,
            "open": self.open_files,
            "semi_closed": self.semi_closed_files,
            "white_half_open": self.white.half_open_files,
            "black_half_open": self.black.half_open_files,
        }
        return {
            "white": self.white.to_dict(),
            "black": self.black.to_dict(),
            "files": {name: file_letters(bb) for name, bb in file_sets.items()},
            "file_squares": {name: square_names(bb) for name, bb in file_sets.items()},
        }


def analyse(position: chess.BaseBoard | tuple[int, int] | Iterable[int]) -> PawnStructure:
    """Module-level alias of :meth:`PawnStructure.analyse`: analyse(board).white.fixed."""
    return PawnStructure.analyse(position)
