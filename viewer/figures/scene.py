"""The board as a list of drawing primitives: what every back end draws (the pygame
painter, :mod:`viewer.figures.svgboard`), built once from the
board, the overlay and keyword options (in the model of python-chess's
``chess.svg.board``: one function of plain data).  The whole figure around it (banner,
board, text, legend) is laid out once by :func:`viewer.figures.figure.layout`.

Every primitive is a frozen record whose coordinates are in *board units*: the 8x8
grid spans ``0..8`` on both axes as seen on the picture (``x`` to the right, ``y``
down, the orientation already applied), one square is ``1``; ``col`` / ``row`` name the
square whose top-left corner is ``(col, row)``.  Fractions are exact
(:class:`fractions.Fraction`), so a back end that rounds to pixels rounds every
primitive the same way.  Colours are theme roles (:data:`viewer.model.theme.COLOURS`), never
the only signal: a hatch, an outline's style, a badge's letter and shape, a king map's
letter, an arrow's label all say what the colour says.

The list is in drawing order: the board (:class:`Checker`, :class:`Coord`), the regions
under the pieces (:class:`Fill`, :class:`Hatch`, :class:`Outline` ``inset``,
:class:`Line`, :class:`Dot`), the pawn-structure tags (:class:`Tag`), the pieces and
ghost pawns (:class:`Piece`), then what lies on them (the recomputed fence's
:class:`Hatch` and :class:`Outline`, :class:`Badge`, crossed-out pawns as :class:`Line`,
the king map's :class:`LetterBox`, the move's :class:`Arrow`).  A back end draws each
primitive by its type (a dispatch table) and nothing else: a new overlay is written
here once and every picture shows it.  A square's texture (:class:`Fill`,
:class:`Hatch`, :class:`Outline`) is plain geometry too
(:func:`viewer.figures.textures.texture`).

Line widths are :class:`Pen` rules (``max(least, side // per)`` pixels for squares of
``side`` pixels), so the thin lines of a small board stay visible.

The legend is a scene too (:mod:`viewer.figures.legend`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

import chess

from logic.pawns import PawnStructure
from viewer.model.overlay import EMPTY, Overlay

__all__ = ["Pen", "Checker", "Coord", "Fill", "Hatch", "Outline", "Line", "Dot", "Piece",
           "Tag", "Badge", "LetterBox", "Arrow", "Primitive", "PRIMITIVES", "board_scene",
           "shown_board", "HATCHES", "OUTLINES", "board_grid"]

HALF = Fraction(1, 2)


class Pen(NamedTuple):
    """A line width: ``max(least, side // per)`` pixels on squares of ``side`` pixels."""

    least: int
    per: int

    def px(self, side: int) -> int:
        """The width in pixels on squares of ``side`` pixels."""
        return max(self.least, side // self.per)


class Checker(NamedTuple):
    """The 64 squares (light and dark roles ``square_light`` / ``square_dark``), a thin
    frame around them and the background behind the coordinate margin (one square to
    the left and below)."""

    flipped: bool


class Coord(NamedTuple):
    """A coordinate label: ``side`` ``below`` (centred under ``x``, ``y`` the board's
    bottom edge) or ``left`` (ending left of ``x``, centred on ``y``)."""

    x: Fraction
    y: Fraction
    text: str
    side: str


class Fill(NamedTuple):
    """A square tinted with colour ``role`` (the fence search's processed squares)."""

    col: int
    row: int
    role: str


#: the hatches: pattern -> what it looks like (each a texture, not only a colour)
HATCHES = {
    "dots": "a tint and a grid of dots (the attacking king's region)",
    "hatch": "a diagonal hatch (marked squares)",
    "fence": "a tint, a cross-hatch and a thick frame (the fence)",
    "kingmap_holds": "a tint, a horizontal hatch and a frame (the king map: holds)",
    "kingmap_breaks": "a tint, a horizontal hatch and a frame (the king map: breaks)",
    "key": "a rounded frame and the letter K (a KPK key square)",
    "joined": "plus signs and a solid double frame (joined a recomputed fence)",
    "left": "minus signs and a dashed frame (left a recomputed fence)",
}


class Hatch(NamedTuple):
    """A square covered by the texture ``pattern`` (one of :data:`HATCHES`)."""

    col: int
    row: int
    pattern: str


#: the outlines: style -> what it looks like
OUTLINES = {
    "inset": "a thin frame inset by 1/16 square (where the defending king must stand)",
    "double": "a thick frame and a black line inside it (a square the step changed)",
    "rings": "two rings (a pawn removed or drowned in this step)",
}


class Outline(NamedTuple):
    """A square outlined in colour ``role`` in ``style`` (one of :data:`OUTLINES`)."""

    col: int
    row: int
    role: str
    style: str


class Line(NamedTuple):
    """A straight line from ``(x0, y0)`` to ``(x1, y1)`` in colour ``role``."""

    x0: Fraction
    y0: Fraction
    x1: Fraction
    y1: Fraction
    role: str
    pen: Pen


class Dot(NamedTuple):
    """A filled disc at ``(x, y)`` of the radius ``pen`` gives (a joint of a path)."""

    x: Fraction
    y: Fraction
    role: str
    pen: Pen


class Piece(NamedTuple):
    """A piece (python-chess letter ``symbol``) on a square; a ``ghost`` is a pawn of a
    structure, not of the position: faded, in a dashed frame."""

    col: int
    row: int
    symbol: str
    ghost: bool = False


class Tag(NamedTuple):
    """A word of the pawn-structure layer in a pill: ``place`` ``above`` (centred on
    ``x``, standing on the board's top edge ``y``) or ``pawn`` (low on the left of the
    square at ``(x, y)``, ``stack`` pills up)."""

    x: Fraction
    y: Fraction
    text: str
    place: str
    stack: int = 0


class Badge(NamedTuple):
    """A pawn's badge at the top right of its square: ``ok`` None (fixed) a filled
    rounded square; True (holds) a filled disc with a tick; False (breaks) a hollow
    ring with a cross; ``letter`` inside."""

    col: int
    row: int
    letter: str
    ok: bool | None


class LetterBox(NamedTuple):
    """A letter in a box of colour ``role`` low on the left of a square (the king map:
    H holds, B breaks through), over the piece."""

    col: int
    row: int
    letter: str
    role: str


class Arrow(NamedTuple):
    """A move from ``(x0, y0)`` to ``(x1, y1)`` (square centres) in colour ``role``,
    drawn in ``style`` (``edged``: a black edge), with ``label`` (its SAN) low on the
    square it leaves."""

    x0: Fraction
    y0: Fraction
    x1: Fraction
    y1: Fraction
    role: str
    style: str
    label: str


Primitive = (Checker | Coord | Fill | Hatch | Outline | Line | Dot | Piece | Tag | Badge
             | LetterBox | Arrow)
#: every primitive type, in the order a scene first uses them
PRIMITIVES: tuple[type, ...] = (Checker, Coord, Fill, Hatch, Outline, Line, Dot, Tag, Piece,
                                Badge, LetterBox, Arrow)


def board_grid(x: int, y: int, w: int, h: int) -> tuple[int, int, int]:
    """``(left, top, square)`` in pixels of the 8x8 grid of a board drawn in the box
    ``(x, y, w, h)``: centred, with a margin for the coordinates on its left and below."""
    margin = max(14, h // 36)
    sq = max(8, (min(w, h) - margin) // 8)
    return x + margin + (w - margin - 8 * sq) // 2, y + (h - margin - 8 * sq) // 2, sq


@functools.lru_cache(maxsize=64)
def shown_board(fen: str) -> chess.Board | None:
    """The position of a step's ``fen`` fact (None when it is not a FEN: the board on
    show is drawn instead).  Cached; callers must not change the board."""
    try:
        return chess.Board(fen)
    except (ValueError, TypeError):
        return None


class _Grid(NamedTuple):
    flipped: bool

    def at(self, s: int) -> tuple[int, int]:
        """``(col, row)`` of square ``s`` as seen."""
        f, r = chess.square_file(s), chess.square_rank(s)
        return (7 - f, r) if self.flipped else (f, 7 - r)

    def centre(self, s: int) -> tuple[Fraction, Fraction]:
        return _centre(s, self.flipped)


@functools.lru_cache(maxsize=128)
def _centre(s: int, flipped: bool) -> tuple[Fraction, Fraction]:
    """The centre of square ``s`` as seen (cached: exact fractions are slow to make)."""
    col, row = _Grid(flipped).at(s)
    return col + HALF, row + HALF


@functools.lru_cache(maxsize=2)
def _coords(flipped: bool) -> tuple[Primitive, ...]:
    out: list[Primitive] = []
    for i in range(8):
        out.append(Coord(x=i + HALF, y=Fraction(8), side="below",
                         text=chess.FILE_NAMES[7 - i if flipped else i]))
        out.append(Coord(x=Fraction(0), y=i + HALF, side="left",
                         text=chess.RANK_NAMES[i if flipped else 7 - i]))
    return tuple(out)


def _squares(bb: int, grid: _Grid, make: Callable[[int, int], Primitive]) -> list[Primitive]:
    """``make(col, row)`` for each square of ``bb``."""
    return [make(*grid.at(s)) for s in chess.scan_forward(bb)]


def _edge(bb: int, grid: _Grid, role: str, pen: Pen) -> list[Primitive]:
    """The outline of the region ``bb``: a line on each side of a member whose
    neighbour there is not a member."""
    out: list[Primitive] = []
    sign = -1 if grid.flipped else 1
    for s in chess.scan_forward(bb):
        x, y = grid.at(s)
        f, r = s & 7, s >> 3
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nf, nr = f + df, r + dr
            if 0 <= nf < 8 and 0 <= nr < 8 and bb >> (nr * 8 + nf) & 1:
                continue
            dx, dy = df * sign, -dr * sign  # the neighbour's direction as seen
            if dx:
                ex = Fraction(x + 1 if dx > 0 else x)
                out.append(Line(x0=ex, y0=Fraction(y), x1=ex, y1=Fraction(y + 1), role=role,
                                pen=pen))
            else:
                ey = Fraction(y + 1 if dy > 0 else y)
                out.append(Line(x0=Fraction(x), y0=ey, x1=Fraction(x + 1), y1=ey, role=role,
                                pen=pen))
    return out


def _links(bb: int, grid: _Grid, role: str, pen: Pen) -> list[Primitive]:
    """A dot on each square of ``bb`` and a line to each 4-adjacent member."""
    out: list[Primitive] = []
    for s in chess.scan_forward(bb):
        x, y = grid.centre(s)
        out.append(Dot(x=x, y=y, role=role, pen=pen))
        for n in (s + 1 if s & 7 != 7 else -1, s + 8 if s < 56 else -1):
            if n >= 0 and bb >> n & 1:
                nx, ny = grid.centre(n)
                out.append(Line(x0=x, y0=y, x1=nx, y1=ny, role=role, pen=pen))
    return out


def _regions(ov: Overlay, grid: _Grid) -> list[Primitive]:
    """What lies under the pieces."""
    out: list[Primitive] = []
    out += _squares(ov.below & ~ov.fence, grid, lambda c, r: Hatch(c, r, "dots"))
    out += _squares(ov.processed, grid, lambda c, r: Fill(c, r, "processed"))
    out += _squares(ov.marked & ~ov.fence, grid, lambda c, r: Hatch(c, r, "hatch"))
    out += _squares(ov.fence, grid, lambda c, r: Hatch(c, r, "fence"))
    out += _squares(ov.king_mask, grid, lambda c, r: Outline(c, r, "ok", "inset"))
    kingmap = "kingmap_holds" if ov.kingmap_holds else "kingmap_breaks"
    out += _squares(ov.kingmap, grid, lambda c, r: Hatch(c, r, kingmap))
    out += _edge(ov.kpk_square, grid, "kpk", Pen(3, 14))
    out += _squares(ov.kpk_keys, grid, lambda c, r: Hatch(c, r, "key"))
    out += _links(ov.fence, grid, "fence", Pen(3, 9))
    out += _links(ov.path, grid, "path", Pen(3, 10))
    return out


def _structure(st: PawnStructure, flipped: bool) -> list[Primitive]:
    """The pawn-structure layer: file tags above the board, tags on pawns."""
    out: list[Primitive] = []
    grid = _Grid(flipped)
    for word, bb in (("open", st.open_files), ("½ open W", st.white.half_open_files),
                     ("½ open B", st.black.half_open_files), ("closed", st.closed_files)):
        for f in range(8):
            if bb & chess.BB_FILES[f]:
                out.append(Tag(x=(7 - f if flipped else f) + HALF, y=Fraction(0), text=word,
                               place="above"))
    for side in (st.white, st.black):
        for word, bb, stack in (("R", side.rams, 0), ("L", side.levers, 1),
                                ("bw", side.backward, 2), ("S", side.stragglers, 2)):
            for s in chess.scan_forward(bb):
                col, row = grid.at(s)
                out.append(Tag(x=Fraction(col), y=Fraction(row), text=word, place="pawn",
                               stack=stack))
    return out


def _pieces(board: chess.Board, ov: Overlay, grid: _Grid,
            hide_square: chess.Square | None) -> list[Primitive]:
    """The pieces (a structure's ghost pawns instead of the board's pawns)."""
    out: list[Primitive] = []
    for s, piece in board.piece_map().items():
        if s != hide_square and (ov.ghosts is None or piece.piece_type != chess.PAWN):
            out.append(Piece(*grid.at(s), symbol=piece.symbol()))
    if ov.ghosts is not None:
        for bb, symbol in zip(ov.ghosts, "Pp", strict=True):
            out += [Piece(*grid.at(s), symbol=symbol, ghost=True)
                    for s in chess.scan_forward(bb & chess.BB_ALL)]
    return out


def _marks(ov: Overlay, board: chess.Board, grid: _Grid) -> list[Primitive]:
    """What lies on the pieces: the recomputed fence's difference and the changed
    squares, then the badges (an outline drawn last would clip a badge's ring), the
    crossed-out pawns, the king map's letters and the move."""
    out: list[Primitive] = []
    out += _squares(ov.left, grid, lambda c, r: Hatch(c, r, "left"))
    out += _squares(ov.joined, grid, lambda c, r: Hatch(c, r, "joined"))
    out += _squares(ov.fresh, grid, lambda c, r: Outline(c, r, "removed", "rings"))
    out += _squares(ov.changed, grid, lambda c, r: Outline(c, r, "changed", "double"))
    out += _squares(ov.fixed & board.pawns, grid, lambda c, r: Badge(c, r, "F", None))
    out += [Badge(*grid.at(s), letter=letter, ok=ok) for s, (letter, ok) in ov.badges.items()]
    pen, a, b = Pen(3, 10), Fraction(1, 6), Fraction(5, 6)
    for s in chess.scan_forward(ov.removed):
        col, row = grid.at(s)
        out.append(Line(x0=col + a, y0=row + a, x1=col + b, y1=row + b, role="removed", pen=pen))
        out.append(Line(x0=col + b, y0=row + a, x1=col + a, y1=row + b, role="removed", pen=pen))
    role = "kingmap_holds" if ov.kingmap_holds else "kingmap_breaks"
    letter = "H" if ov.kingmap_holds else "B"
    out += _squares(ov.kingmap, grid, lambda c, r: LetterBox(c, r, letter, role))
    if ov.arrow is not None and all(0 <= s < 64 for s in ov.arrow[:2]):
        (x0, y0), (x1, y1) = grid.centre(ov.arrow[0]), grid.centre(ov.arrow[1])
        out.append(Arrow(x0=x0, y0=y0, x1=x1, y1=y1, role="arrow_line", style="edged",
                         label=ov.arrow[2]))
    return out


def board_scene(board: chess.Board, overlay: Overlay = EMPTY, *, flipped: bool = False,
                coordinates: bool = True, hide_square: chess.Square | None = None,
                structure: PawnStructure | None = None) -> tuple[Primitive, ...]:
    """The primitives that draw ``board`` with ``overlay``, in drawing order.

    The overlay's own position (``overlay.fen``, a move of a line) replaces ``board``;
    its ghost pawns (a structure) replace the board's pawns.  ``coordinates`` adds the
    file letters under the board and the rank numbers left of it; ``hide_square`` leaves
    one piece out (the one being dragged); ``structure`` adds the pawn-structure layer.
    """
    if overlay.fen:
        board = shown_board(overlay.fen) or board
    grid = _Grid(flipped)
    out: list[Primitive] = [Checker(flipped)]
    if coordinates:
        out += _coords(flipped)
    out += _regions(overlay, grid)
    if structure is not None:
        out += _structure(structure, flipped)
    out += _pieces(board, overlay, grid, hide_square)
    out += _marks(overlay, board, grid)
    return tuple(out)
