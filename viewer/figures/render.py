"""Drawing the board, its overlays, the verdict banner, the legend and wrapped text.

``render_board`` draws the scene of :func:`viewer.figures.scene.board_scene` (a pure function of
board, overlay and keyword options, in the manner of ``chess.svg.board()``): each
primitive by its type (:data:`_DRAW`), with no state beyond the caches of pre-rendered
tiles in :class:`Painter`.  The same code draws the window, PNG/GIF exports and
``pawnfence render``; :mod:`viewer.figures.svg` draws the same scene.  Text is laid out by
:func:`viewer.figures.textfit.fit`: it wraps and shrinks to its rectangle, never "…".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

from logic.pawns import PawnStructure
from viewer.figures.frame import frame_px
from viewer.figures.pieces import PieceSet
from viewer.figures.scene import (
    ARROW_STYLES,
    Arrow,
    Badge,
    Box,
    Checker,
    Coord,
    Dot,
    Fill,
    Hatch,
    LegendPlan,
    LegendPrimitive,
    LetterBox,
    Line,
    Mark,
    Outline,
    Piece,
    Pointer,
    Primitive,
    Stroke,
    Tag,
    Text,
    Tile,
    board_scene,
    legend_scene,
    swatch_width,
)
from viewer.figures.textfit import Fitted, Fonts, fit, wrap
from viewer.model.overlay import EMPTY, Overlay
from viewer.model.theme import COLOURS, RGB, Block, LegendItem, Role

if TYPE_CHECKING:
    from viewer.model.state import ExportOptions
    from viewer.model.text import Banner

__all__ = ["Painter", "square_at", "board_geometry", "display_format", "banner_roles",
           "BANNER_ICONS", "banner_icon_radius",
           "STRUCTURE_KEY", "ARROW_STYLES", "fill_except", "board_cover", "swatch_width",
           "render_scene_types", "render_legend_types", "frame_px", "banner_height", "BADGE_OK"]

#: the pawn-structure layer's key, under the legend
STRUCTURE_KEY = ("pawn structure: R ram · L lever · bw backward · S straggler; files open / "
                 "closed / ½ open (half-open for W or B)")
#: a pawn badge's kind (:class:`viewer.figures.scene.Mark`) -> its ``ok``
#: (:class:`viewer.figures.scene.Badge`)
BADGE_OK: dict[str, bool | None] = {"fixed": None, "holds": True, "breaks": False}


def banner_roles(px: int) -> dict[str, Role]:
    """The banner's text roles for a body size of ``px`` pixels."""
    return {"head": Role(round(px * 1.6), "bold"), "sub": Role(px, least=0.85),
            "muted": Role(px, "regular", "muted", 0.85),
            "label": Role(round(px * 0.9), "regular", "muted", 0.85)}


#: the banner's icon by kind (a shape and a sign besides the bar's colour)
BANNER_ICONS = {"blocked": "½", "open": "!", "busy": "…"}


def banner_icon_radius(height: int, px: int) -> int:
    """The radius of the banner's icon in a banner ``height`` pixels tall whose body text
    is ``px``; the text starts ``30 + 2 * radius`` pixels from the banner's left edge and
    ends 8 pixels before its right."""
    return max(9, min(height * 3 // 10, px * 3 // 2))




def banner_height(painter: Painter, b: Banner, options: ExportOptions) -> int:
    """The height banner ``b`` takes in a picture made with ``options``."""
    size, px = options.size, frame_px(options.size)
    width = size - 2 * max(4, size // 80)
    icon = max(9, min(px * 3 // 2, 60))
    fitted = painter.fit_text(b.blocks, width - 38 - 2 * icon, 100_000, banner_roles(px))
    return max(fitted.height + 8, 2 * icon + 12)


def display_format(surface: pygame.Surface, alpha: bool = True) -> pygame.Surface:
    """``surface`` converted to the window's pixel format when a window exists (alpha
    blits of converted surfaces are several times faster); unchanged otherwise."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha() if alpha else surface.convert()
    return surface


def fill_except(surface: pygame.Surface, area: pygame.Rect, holes: Sequence[pygame.Rect],
                colour: RGB) -> None:
    """Fill ``area`` but the ``holes`` (which something opaque covers next), each pixel
    once: holes side by side must share their top and bottom, stacked ones must not
    share rows."""
    holes = sorted((h.clip(area) for h in holes if h.colliderect(area)),
                   key=lambda r: (r.top, r.left))
    y = area.top
    i = 0
    while i < len(holes):
        band = [h for h in holes[i:] if h.top == holes[i].top and h.bottom == holes[i].bottom]
        top, bottom = band[0].top, band[0].bottom
        if top > y:
            surface.fill(colour, (area.left, y, area.width, top - y))
        x = area.left
        for h in band:
            if h.left > x:
                surface.fill(colour, (x, top, h.left - x, bottom - top))
            x = max(x, h.right)
        if x < area.right:
            surface.fill(colour, (x, top, area.right - x, bottom - top))
        y = max(y, bottom)
        i += len(band)
    if y < area.bottom:
        surface.fill(colour, (area.left, y, area.width, area.bottom - y))


def board_cover(rect: pygame.Rect) -> pygame.Rect:
    """The rectangle the board drawn in ``rect`` covers with opaque pixels (its squares,
    frame and coordinates), clipped to ``rect``."""
    left, top, sq = board_geometry(rect)
    return pygame.Rect(left - sq, top, 9 * sq + 2, 9 * sq).clip(rect)


def board_geometry(rect: pygame.Rect) -> tuple[int, int, int]:
    """``(left, top, square)`` of the 8x8 grid inside ``rect`` (a margin for coordinates)."""
    margin = max(14, rect.height // 36)
    sq = max(8, (min(rect.width, rect.height) - margin) // 8)
    left = rect.left + margin + (rect.width - margin - 8 * sq) // 2
    top = rect.top + (rect.height - margin - 8 * sq) // 2
    return left, top, sq


def square_at(rect: pygame.Rect, pos: tuple[int, int], flipped: bool) -> chess.Square | None:
    """The square under pixel ``pos`` of a board drawn in ``rect``, or None."""
    left, top, sq = board_geometry(rect)
    fx, fy = (pos[0] - left) // sq, (pos[1] - top) // sq
    if not (0 <= fx < 8 and 0 <= fy < 8):
        return None
    return chess.square(7 - fx, fy) if flipped else chess.square(fx, 7 - fy)


class Painter:
    """Draws boards; holds fonts, pieces and pre-rendered overlay tiles per size."""

    def __init__(self, colours: dict[str, RGB] | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.colours = {**COLOURS, **(colours or {})}
        self.pieces = PieceSet()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._tiles: dict[tuple[str, int], pygame.Surface] = {}
        self._cache: dict[tuple[object, ...], pygame.Surface] = {}  # text, legend, banner
        self._fits: dict[tuple[object, ...], Fitted] = {}
        self._legend_fits: dict[tuple[object, ...], bool] = {}
        #: the fonts of the window's own text (Noto Sans, Fira Code: pygame_gui's)
        self.fonts = Fonts()

    def set_colours(self, colours: dict[str, RGB]) -> None:
        """Draw in ``colours`` (over :data:`~viewer.model.theme.COLOURS`) from now on: the same
        dict changes (parts that hold it follow) and every cached drawing is dropped;
        nothing changes when those are the colours already."""
        merged = {**COLOURS, **colours}
        if merged == self.colours:
            return
        self.colours.clear()
        self.colours.update(merged)
        self._tiles.clear()
        self._cache.clear()
        self._legend_fits.clear()

    def _cached(self, key: tuple[object, ...], make: Callable[[], pygame.Surface],
                alpha: bool = True) -> pygame.Surface:
        """The surface ``make`` draws, converted for fast blits (``alpha`` False: an
        opaque surface, the fastest) and kept under ``key``."""
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) > 256:
                self._cache.clear()
            surf = self._cache[key] = display_format(make(), alpha)
        return surf

    def cached(self, key: tuple[object, ...], make: Callable[[], pygame.Surface],
               alpha: bool = True) -> pygame.Surface:
        """:meth:`_cached` for the panes (a pane's key starts with its name)."""
        return self._cached(key, make, alpha)

    # -- resources ---------------------------------------------------------
    def font(self, size: int) -> pygame.font.Font:
        """The default font at ``size`` pixels (cached)."""
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = pygame.font.Font(None, size)
        return f

    def _tile(self, kind: str, size: int) -> pygame.Surface:
        """The pre-rendered overlay tile ``kind`` for squares of ``size`` pixels (cached)."""
        key = (kind, size)
        t = self._tiles.get(key)
        if t is None:
            t = pygame.Surface((size, size), pygame.SRCALPHA)
            getattr(self, f"_tile_{kind}")(t, size)
            t = self._tiles[key] = display_format(t)
        return t

    def _tile_hatch(self, t: pygame.Surface, size: int) -> None:
        """Marked squares: a diagonal hatch."""
        w, step = max(1, size // 28) + 1, max(5, size // 6)
        for i in range(-size, size, step):
            pygame.draw.line(t, (*self.colours["marked"], 230), (i, size), (i + size, 0), w)

    def _tile_dots(self, t: pygame.Surface, size: int) -> None:
        """The king's side / the flood: a tint and dots."""
        c = self.colours["below"]
        t.fill((*c, 70))
        step = max(6, size // 5)
        for y in range(step // 2, size, step):
            for x in range(step // 2, size, step):
                pygame.draw.circle(t, (*c, 220), (x, y), max(1, size // 36))

    def _tile_fence(self, t: pygame.Surface, size: int) -> None:
        """Fence squares: a cross-hatch and a thick border."""
        c = self.colours["fence"]
        t.fill((*c, 60))
        w, step = max(1, size // 28), max(6, size // 4)
        for i in range(-size, size, step):
            pygame.draw.line(t, (*c, 200), (i, 0), (i + size, size), w)
        pygame.draw.rect(t, c, t.get_rect(), max(2, size // 14))

    def _tile_processed(self, t: pygame.Surface, size: int) -> None:
        t.fill((*self.colours["processed"], 90))

    def _tile_changed(self, t: pygame.Surface, size: int) -> None:
        w = max(3, size // 10)
        pygame.draw.rect(t, self.colours["changed"], t.get_rect(), w)
        pygame.draw.rect(t, (0, 0, 0), t.get_rect().inflate(-2 * w, -2 * w), 1)

    def _tile_key(self, t: pygame.Surface, size: int) -> None:
        """KPK key squares: a purple frame and a K."""
        c = self.colours["kpk"]
        pygame.draw.rect(t, c, t.get_rect().inflate(-size // 10, -size // 10),
                         max(2, size // 20), border_radius=size // 8)
        t.blit(self.font(max(12, size // 3)).render("K", True, c), (size // 10 + 3, size // 10 + 1))

    def _tile_kingmask(self, t: pygame.Surface, size: int) -> None:
        inner = t.get_rect().inflate(-size // 8, -size // 8)
        pygame.draw.rect(t, (*self.colours["ok"], 200), inner, max(1, size // 28))

    def _kingmap_hatch(self, t: pygame.Surface, size: int, colour: RGB) -> None:
        """The exact prover's king map: a light tint and a horizontal hatch (the marked
        squares' hatch is diagonal), with a frame."""
        t.fill((*colour, 55))
        w, step = max(1, size // 30) + 1, max(5, size // 6)
        for y in range(step // 2, size, step):
            pygame.draw.line(t, (*colour, 235), (0, y), (size, y), w)
        pygame.draw.rect(t, (*colour, 255), t.get_rect(), max(1, size // 24))

    def _tile_kingmap_holds(self, t: pygame.Surface, size: int) -> None:
        """A square from which the defending king holds (the hatch; H in :meth:`_marks`)."""
        self._kingmap_hatch(t, size, self.colours["kingmap_holds"])

    def _tile_kingmap_breaks(self, t: pygame.Surface, size: int) -> None:
        """A square from which the attacking king breaks through (the hatch; B on top)."""
        self._kingmap_hatch(t, size, self.colours["kingmap_breaks"])

    def kingmap_letter(self, letter: str, colour: RGB, size: int) -> pygame.Surface:
        """The king map's letter for squares of ``size`` pixels: white on a box of
        ``colour`` with a black frame (drawn over the pieces, in the square's lower left
        corner, so a king standing there does not hide it)."""
        key = (f"kmletter:{letter}:{colour}", size)
        t = self._tiles.get(key)
        if t is None:
            d = max(11, size * 3 // 10)
            t = pygame.Surface((d, d), pygame.SRCALPHA)
            pygame.draw.rect(t, colour, t.get_rect(), border_radius=max(2, d // 5))
            pygame.draw.rect(t, (0, 0, 0), t.get_rect(), max(1, d // 12),
                             border_radius=max(2, d // 5))
            font = self.fonts.get(max(8, d * 3 // 4), "bold")
            text = font.render(letter, True, (255, 255, 255))
            t.blit(text, text.get_rect(center=(d // 2, d // 2)))
            t = self._tiles[key] = display_format(t)
        return t

    def ghost(self, symbol: str, size: int) -> pygame.Surface:
        """A ghost pawn of ``symbol`` ("P"/"p") for squares of ``size`` pixels: the piece
        faded, in a dashed rounded frame (a structure, not the position)."""
        key = (f"ghost:{symbol}", size)
        t = self._tiles.get(key)
        if t is None:
            t = pygame.Surface((size, size), pygame.SRCALPHA)
            piece = self.pieces.get(symbol, size).copy()
            piece.set_alpha(150)
            t.blit(piece, (0, 0))
            c, w = self.colours["ghost"], max(2, size // 22)
            box = t.get_rect().inflate(-size // 8, -size // 8)
            dash = max(3, size // 10)
            for i in range(0, box.width, 2 * dash):
                a, b = box.left + i, min(box.right - 1, box.left + i + dash)
                for y in (box.top, box.bottom - 1):
                    pygame.draw.line(t, (0, 0, 0), (a, y), (b, y), w + 2)
                    pygame.draw.line(t, c, (a, y), (b, y), w)
            for i in range(0, box.height, 2 * dash):
                a, b = box.top + i, min(box.bottom - 1, box.top + i + dash)
                for x in (box.left, box.right - 1):
                    pygame.draw.line(t, (0, 0, 0), (x, a), (x, b), w + 2)
                    pygame.draw.line(t, c, (x, a), (x, b), w)
            t = self._tiles[key] = display_format(t)
        return t

    def _plus_minus(self, t: pygame.Surface, size: int, plus: bool) -> None:
        """A grid of small plus (joined) or minus (left) signs in the fence colour."""
        c = self.colours["fence"]
        step, arm, w = max(8, size // 3), max(3, size // 12), max(2, size // 22)
        for y in range(step // 2, size, step):
            for x in range(step // 2, size, step):
                pygame.draw.line(t, (0, 0, 0), (x - arm - 1, y), (x + arm + 1, y), w + 2)
                pygame.draw.line(t, c, (x - arm, y), (x + arm, y), w)
                if plus:
                    pygame.draw.line(t, (0, 0, 0), (x, y - arm - 1), (x, y + arm + 1), w + 2)
                    pygame.draw.line(t, c, (x, y - arm), (x, y + arm), w)

    def _tile_joined(self, t: pygame.Surface, size: int) -> None:
        """A square that joined a recomputed fence: plus signs and a solid double frame."""
        self._plus_minus(t, size, True)
        w = max(2, size // 16)
        pygame.draw.rect(t, self.colours["fence"], t.get_rect(), w)
        pygame.draw.rect(t, (0, 0, 0), t.get_rect().inflate(-2 * w, -2 * w), 1)

    def _tile_left(self, t: pygame.Surface, size: int) -> None:
        """A square that left a recomputed fence: minus signs and a dashed frame."""
        self._plus_minus(t, size, False)
        c, w = self.colours["fence"], max(2, size // 16)
        dash = max(4, size // 8)
        for i in range(0, size, 2 * dash):
            for a, b in (((i, 0), (i + dash, 0)), ((i, size - 1), (i + dash, size - 1)),
                         ((0, i), (0, i + dash)), ((size - 1, i), (size - 1, i + dash))):
                pygame.draw.line(t, c, a, b, w)

    def _tile_fresh(self, t: pygame.Surface, size: int) -> None:
        """A pawn removed or drowned in this step: two purple rings (a splash)."""
        c, w = self.colours["removed"], max(2, size // 18)
        centre = (size // 2, size // 2)
        pygame.draw.circle(t, c, centre, size // 2 - w, w)
        pygame.draw.circle(t, c, centre, size // 3, max(1, w // 2))

    def _badge(self, letter: str, ok: bool | None, size: int) -> pygame.Surface:
        """A pawn's badge: fixed (``ok`` None) a filled rounded square; holds a filled disc
        with a tick; breaks a hollow ring with a cross.  Shape, not only colour."""
        key = (f"badge:{letter}:{ok}", size)
        t = self._tiles.get(key)
        if t is not None:
            return t
        c = self.colours
        d = max(14, size * 2 // 5)
        mark = max(7, d * 11 // 20)  # the tick or cross, overlapping the disc's lower left
        t = pygame.Surface((d + mark // 2, d + mark // 2), pygame.SRCALPHA)
        centre = (mark // 2 + d // 2, d // 2)
        ring = max(2, d // 7)
        if ok is None:
            box = pygame.Rect(mark // 2, 0, d, d)
            pygame.draw.rect(t, c["fixed"], box, border_radius=max(2, d // 5))
            pygame.draw.rect(t, (0, 0, 0), box, max(1, d // 12), border_radius=max(2, d // 5))
            ink = (255, 255, 255)
        elif ok:
            pygame.draw.circle(t, c["ok"], centre, d // 2)
            pygame.draw.circle(t, (0, 0, 0), centre, d // 2, max(1, d // 12))
            ink = (255, 255, 255)
        else:
            pygame.draw.circle(t, (255, 255, 255), centre, d // 2)
            pygame.draw.circle(t, c["breaks"], centre, d // 2, ring)
            pygame.draw.circle(t, (0, 0, 0), centre, d // 2, 1)
            ink = c["breaks"]
        text = self.font(int(d * 0.85)).render(letter, True, ink)
        t.blit(text, text.get_rect(center=(centre[0], centre[1] + 1)))
        if ok is not None:
            self._tick_or_cross(t, pygame.Rect(0, d - mark // 2, mark, mark), ok)
        t = self._tiles[key] = display_format(t)
        return t

    def _tick_or_cross(self, t: pygame.Surface, box: pygame.Rect, ok: bool) -> None:
        """A small disc with a tick (``ok``) or a square with a cross (not ``ok``)."""
        c = self.colours
        w = max(2, box.width // 5)
        if ok:
            pygame.draw.circle(t, (0, 0, 0), box.center, box.width // 2)
            pts = [(box.left + box.width * 0.22, box.top + box.height * 0.52),
                   (box.left + box.width * 0.43, box.top + box.height * 0.74),
                   (box.left + box.width * 0.8, box.top + box.height * 0.28)]
            pygame.draw.lines(t, c["ok"] if sum(c["ok"]) > 150 else (255, 255, 255), False,
                              pts, w)
        else:
            pygame.draw.rect(t, (0, 0, 0), box)
            inner = box.inflate(-box.width // 2, -box.height // 2)
            pygame.draw.line(t, (255, 255, 255), inner.topleft, inner.bottomright, w)
            pygame.draw.line(t, (255, 255, 255), inner.topright, inner.bottomleft, w)

    # -- drawing -----------------------------------------------------------
    def render_board(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        board: chess.Board,
        *,
        overlay: Overlay = EMPTY,
        flipped: bool = False,
        coordinates: bool = True,
        hide_square: chess.Square | None = None,
        structure: PawnStructure | None = None,
    ) -> None:
        """Draw ``board`` with ``overlay`` into ``rect`` of ``surface``: the primitives of
        :func:`viewer.figures.scene.board_scene` (which takes the same keyword options)."""
        self.render_scene(surface, rect, board_scene(
            board, overlay, flipped=flipped, coordinates=coordinates, hide_square=hide_square,
            structure=structure))

    def render_scene(self, surface: pygame.Surface, rect: pygame.Rect,
                     scene: Sequence[Primitive]) -> None:
        """Draw the primitives of ``scene`` on a board laid out in ``rect``
        (:func:`board_geometry`), each by its type (:data:`_DRAW`)."""
        left, top, sq = board_geometry(rect)
        at = _At(surface, rect, left, top, sq)
        for p in scene:
            _DRAW[type(p)](self, at, p)

    # -- the primitives (board units to pixels: :class:`_At`) ---------------
    def _draw_checker(self, at: _At, p: Checker) -> None:
        at.surface.blit(self._squares(at.sq, p.flipped), (at.left - at.sq, at.top))

    def _draw_coord(self, at: _At, p: Coord) -> None:
        font = self.font(max(12, at.sq // 4))
        colour = self.colours["coord"]
        t = self._cached(("coord", p.text, font.get_height(), colour),
                         lambda: font.render(p.text, True, colour))
        x, y = at.x(p.x), at.y(p.y)
        box = t.get_rect(midtop=(x, y + 1)) if p.side == "below" else \
            t.get_rect(midright=(x - 3, y))
        at.surface.blit(t, box)

    def _draw_fill(self, at: _At, p: Fill) -> None:
        at.surface.blit(self._tile(p.role, at.sq), at.corner(p.col, p.row))

    def _draw_hatch(self, at: _At, p: Hatch) -> None:
        at.surface.blit(self._tile(p.pattern, at.sq), at.corner(p.col, p.row))

    def _draw_outline(self, at: _At, p: Outline) -> None:
        tile = {"inset": "kingmask", "double": "changed", "rings": "fresh"}[p.style]
        at.surface.blit(self._tile(tile, at.sq), at.corner(p.col, p.row))

    def _draw_line(self, at: _At, p: Line) -> None:
        pygame.draw.line(at.surface, self.colours[p.role], (at.x(p.x0), at.y(p.y0)),
                         (at.x(p.x1), at.y(p.y1)), p.pen.px(at.sq))

    def _draw_dot(self, at: _At, p: Dot) -> None:
        pygame.draw.circle(at.surface, self.colours[p.role], (at.x(p.x), at.y(p.y)),
                           p.pen.px(at.sq))

    def _draw_tag(self, at: _At, p: Tag) -> None:
        font = self.font(max(13, at.sq // 4))
        t = self._cached(("pill", p.text, font.get_height()), lambda: self._pill(p.text, font))
        x, y = at.x(p.x), at.y(p.y)
        if p.place == "above":
            at.surface.blit(t, t.get_rect(midbottom=(x, y - 2)))
        else:
            at.surface.blit(t, (x + 1, y + at.sq - (p.stack + 1) * t.get_height() - 1))

    def _draw_piece(self, at: _At, p: Piece) -> None:
        img = self.ghost(p.symbol, at.sq) if p.ghost else self.pieces.get(p.symbol, at.sq)
        at.surface.blit(img, at.corner(p.col, p.row))

    def _draw_badge(self, at: _At, p: Badge) -> None:
        x, y = at.corner(p.col, p.row)
        b = self._badge(p.letter, p.ok, at.sq)
        at.surface.blit(b, (x + at.sq - b.get_width() - 1, y + 1))

    def _draw_letter_box(self, at: _At, p: LetterBox) -> None:
        x, y = at.corner(p.col, p.row)
        letter = self.kingmap_letter(p.letter, self.colours[p.role], at.sq)
        inset = max(2, at.sq // 14)
        at.surface.blit(letter, (x + inset, y + at.sq - letter.get_height() - inset))

    def _draw_arrow(self, at: _At, p: Arrow) -> None:
        start = (at.left + float(p.x0) * at.sq, at.top + float(p.y0) * at.sq)
        end = (at.left + float(p.x1) * at.sq, at.top + float(p.y1) * at.sq)
        self._arrow(at.surface, start, end, at.sq, self.colours[p.role], p.style)
        if p.label:
            self._label(at.surface, at.rect, start, at.sq, p.label)

    def _squares(self, sq: int, flipped: bool) -> pygame.Surface:
        """The empty board with its frame on the background of the coordinates'
        margin (one square left and below), cached."""

        def make() -> pygame.Surface:
            c = self.colours
            surf = pygame.Surface((9 * sq + 2, 8 * sq + sq))
            surf.fill(c["background"])
            for f in range(8):
                for r in range(8):
                    colour = c["square_light"] if (f + r) % 2 else c["square_dark"]
                    x = (7 - f if flipped else f) + 1
                    y = r if flipped else 7 - r
                    surf.fill(colour, (x * sq, y * sq, sq, sq))
            pygame.draw.rect(surf, (20, 20, 20), (sq - 1, 0, 8 * sq + 2, 8 * sq + 1), 1)
            return surf

        key = ("squares", sq, flipped)
        surf = self._cache.get(key)
        if surf is None:
            surf = self._cache[key] = display_format(make(), alpha=False)
        return surf

    def render_arrows(self, surface: pygame.Surface, rect: pygame.Rect, moves: list[str], *,
                      flipped: bool = False, colour: RGB = (0, 114, 178),
                      style: str = "solid", offset: float = 0.0) -> None:
        """Arrows for UCI ``moves`` on a board drawn in ``rect``: ``style`` ``solid``,
        ``dashed`` (a dashed shaft), ``hollow`` (an outlined head and shaft) or ``edged``
        (solid with a black edge: a move of the exact prover's line), so the
        arrows differ by shape as well as colour; ``offset`` shifts an arrow sideways by
        that many squares (arrows of the same move stay apart)."""
        left, top, sq = board_geometry(rect)

        def centre(s: int) -> tuple[float, float]:
            f, r = chess.square_file(s), chess.square_rank(s)
            if flipped:
                f, r = 7 - f, 7 - r
            return left + f * sq + sq / 2, top + (7 - r) * sq + sq / 2

        for uci in moves:
            try:
                move = chess.Move.from_uci(uci)
            except ValueError:
                continue
            (x0, y0), (x1, y1) = centre(move.from_square), centre(move.to_square)
            dx, dy = x1 - x0, y1 - y0
            length = max(1.0, math.hypot(dx, dy))
            ux, uy = dx / length, dy / length
            ox, oy = -uy * offset * sq, ux * offset * sq
            x0, y0, x1, y1 = x0 + ox, y0 + oy, x1 + ox, y1 + oy
            self._arrow(surface, (x0, y0), (x1, y1), sq, colour, style, (ux, uy))

    @staticmethod
    def _arrow(surface: pygame.Surface, start: tuple[float, float], end: tuple[float, float],
               sq: int, colour: RGB, style: str,
               unit: tuple[float, float] | None = None) -> None:
        """One arrow from ``start`` to ``end`` (pixels) on squares of ``sq`` pixels, in
        ``style`` (see :meth:`render_arrows`); ``unit`` is its direction when the caller
        has it."""
        (x0, y0), (x1, y1) = start, end
        if unit is None:
            length = max(1.0, math.hypot(x1 - x0, y1 - y0))
            unit = (x1 - x0) / length, (y1 - y0) / length
        ux, uy = unit
        width = max(4, sq // 9)
        head = sq * 0.35
        bx, by = x1 - ux * head, y1 - uy * head
        px, py = -uy * head * 0.6, ux * head * 0.6
        tip = [(x1, y1), (bx + px, by + py), (bx - px, by - py)]
        if style == "dashed":
            n = max(2, int(math.hypot(bx - x0, by - y0) // (sq * 0.25)))
            for i in range(0, n, 2):  # each dash edged in black: seen on any square
                a, b = i / n, min(1.0, (i + 1) / n)
                ends = ((x0 + (bx - x0) * a, y0 + (by - y0) * a),
                        (x0 + (bx - x0) * b, y0 + (by - y0) * b))
                pygame.draw.line(surface, (0, 0, 0), *ends, width + 4)
                pygame.draw.line(surface, colour, *ends, width)
            pygame.draw.polygon(surface, colour, tip)
            pygame.draw.polygon(surface, (0, 0, 0), tip, 2)
        elif style == "edged":
            pygame.draw.line(surface, (0, 0, 0), (x0, y0), (bx, by), width + 4)
            pygame.draw.line(surface, colour, (x0, y0), (bx, by), width)
            pygame.draw.polygon(surface, colour, tip)
            pygame.draw.polygon(surface, (0, 0, 0), tip, 2)
        elif style == "hollow":
            pygame.draw.line(surface, (0, 0, 0), (x0, y0), (bx, by), width + 4)
            pygame.draw.line(surface, colour, (x0, y0), (bx, by), width)
            pygame.draw.polygon(surface, (0, 0, 0), tip)
            pygame.draw.polygon(surface, colour, tip, max(2, width // 2))
        else:
            pygame.draw.line(surface, colour, (x0, y0), (bx, by), width)
            pygame.draw.polygon(surface, colour, tip)

    def arrow_label(self, surface: pygame.Surface, rect: pygame.Rect,
                    arrow: tuple[int, int, str], *, flipped: bool = False) -> None:
        """The label of a move's arrow alone, low on the square ``arrow[0]`` of a board
        drawn in ``rect`` (the window draws it again over the analysis's arrows)."""
        a, _b, label = arrow
        if not label or not 0 <= a < 64:
            return
        left, top, sq = board_geometry(rect)
        f, r = chess.square_file(a), chess.square_rank(a)
        if flipped:
            f, r = 7 - f, 7 - r
        self._label(surface, rect, (left + f * sq + sq / 2, top + (7 - r) * sq + sq / 2), sq,
                    label)

    def _label(self, surface: pygame.Surface, rect: pygame.Rect, centre: tuple[float, float],
               sq: int, label: str) -> None:
        """A move's label in a pill low on the square centred at ``centre`` (empty after
        the move; before it, the label covers only the piece's base), kept in ``rect``."""
        font = self.fonts.get(max(11, sq // 4), "bold")
        pill = self._cached(("sanpill", label, font.get_height()),
                            lambda: self._san_pill(label, font))
        cx, cy = centre
        box = pill.get_rect(midbottom=(round(cx), round(cy + sq / 2) - 2))
        surface.blit(pill, box.clamp(rect))

    def _san_pill(self, label: str, font: pygame.font.Font) -> pygame.Surface:
        """The label of a move arrow: white bold text on the arrow's colour, framed."""
        text = font.render(label, True, (255, 255, 255))
        pill = pygame.Surface((text.get_width() + 10, text.get_height() + 2), pygame.SRCALPHA)
        pygame.draw.rect(pill, self.colours["arrow_line"], pill.get_rect(), border_radius=5)
        pygame.draw.rect(pill, (0, 0, 0), pill.get_rect(), 2, border_radius=5)
        pill.blit(text, (5, 1))
        return pill

    def _pill(self, word: str, font: pygame.font.Font) -> pygame.Surface:
        text = font.render(word, True, (255, 255, 255))
        pill = pygame.Surface((text.get_width() + 8, text.get_height() + 2), pygame.SRCALPHA)
        pygame.draw.rect(pill, self.colours["structure"], pill.get_rect(), border_radius=5)
        pygame.draw.rect(pill, (0, 0, 0), pill.get_rect(), 1, border_radius=5)
        pill.blit(text, (4, 1))
        return pill

    # -- text ------------------------------------------------------------------------
    def fit_text(self, blocks: Sequence[Block], width: int, height: int,
                 roles: Mapping[str, Role], **kw: Any) -> Fitted:
        """:func:`viewer.figures.textfit.fit` with this painter's fonts (cached)."""
        key = ("fit", tuple(blocks), width, height, tuple(sorted(roles.items())),
               tuple(sorted(kw.items())))
        got = self._fits.get(key)
        if got is None:
            if len(self._fits) > 512:
                self._fits.clear()
            got = self._fits[key] = fit(self.fonts, blocks, width, height, roles, **kw)
        return got

    def render_text(self, surface: pygame.Surface, rect: pygame.Rect, blocks: Sequence[Block],
                    roles: Mapping[str, Role], **kw: Any) -> Fitted:
        """Draw ``blocks`` wrapped and fitted into ``rect`` (cached); returns the layout."""
        fitted = self.fit_text(blocks, rect.width, rect.height, roles, **kw)
        surf = self._cached(("text", fitted, rect.size),
                            lambda: self._make_text(fitted, rect.size))
        surface.blit(surf, rect)
        return fitted

    def _make_text(self, fitted: Fitted, size: tuple[int, int]) -> pygame.Surface:
        surf = pygame.Surface(size, pygame.SRCALPHA)
        for line in fitted.lines:
            if line.text:
                img = self.fonts.get(line.px, line.style).render(line.text, True,
                                                                  self.colours[line.colour])
                surf.blit(img, (line.x, line.y))
        return surf

    def render_banner(self, surface: pygame.Surface, rect: pygame.Rect, kind: str,
                      blocks: Sequence[Block], px: int, most: float = 1.0,
                      least: float = 0.45) -> Fitted:
        """The verdict banner: a bar coloured by ``kind`` (blocked / open / na / busy) with
        an icon (½, !, ?, … while a proof runs) and ``blocks`` wrapped in
        :func:`banner_roles` sizes for ``px`` (grown up to ``most`` times when there is
        room, shrunk down to ``least`` times when there is not)."""
        icon_r = banner_icon_radius(rect.height, px)
        text_rect = pygame.Rect(rect.left + 30 + 2 * icon_r, rect.top + 4,
                                rect.width - 38 - 2 * icon_r, rect.height - 8)
        surf = self._cached(("banner", kind, rect.size, icon_r),
                            lambda: self._make_banner(rect.size, kind, icon_r))
        surface.blit(surf, rect)
        return self.render_text(surface, text_rect, blocks, banner_roles(px), most=most,
                                least=least)

    def _make_banner(self, size: tuple[int, int], kind: str, r: int) -> pygame.Surface:
        c = self.colours
        rect = pygame.Rect((0, 0), size)
        surface = pygame.Surface(size, pygame.SRCALPHA)
        colour = {"blocked": c["banner_blocked"], "open": c["banner_open"]}.get(kind,
                                                                              c["banner_na"])
        pygame.draw.rect(surface, c["panel"], rect, border_radius=6)
        pygame.draw.rect(surface, colour, (rect.left, rect.top, 10, rect.height),
                         border_top_left_radius=6, border_bottom_left_radius=6)
        icon = BANNER_ICONS.get(kind, "?")
        centre = (rect.left + 18 + r, rect.top + 6 + r)
        pygame.draw.circle(surface, colour, centre, r)
        t = self.fonts.get(max(14, r * 5 // 4), "bold").render(icon, True, (0, 0, 0))
        surface.blit(t, t.get_rect(center=(centre[0], centre[1])))
        return surface

    # -- legend ------------------------------------------------------------------------
    def render_legend(self, surface: pygame.Surface, rect: pygame.Rect,
                      items: Sequence[LegendItem], px: int, *, structure: bool = False,
                      background: RGB | None = None) -> bool:
        """The legend (cached per size and items) in ``rect``: a swatch and wrapped words
        per item in as many columns as fit, the structure layer's key under it; shrinks
        the text to fit (on ``background``, opaque, when given).  Returns whether
        everything fitted."""
        key = ("legend", rect.size, tuple(items), px, structure, background)
        surf = self._cache.get(key)
        if surf is None:
            surf, fits = self._make_legend(rect.size, tuple(items), px, structure)
            if background is not None:
                opaque = pygame.Surface(rect.size)
                opaque.fill(background)
                opaque.blit(surf, (0, 0))
                surf = opaque
            surf = display_format(surf, alpha=background is None)
            self._cache[key] = surf
            self._legend_fits[key] = fits
        surface.blit(surf, rect)
        return self._legend_fits.get(key, True)

    def legend_plan(self, size: tuple[int, int], items: Sequence[LegendItem], px: int,
                    structure: bool) -> tuple[int, int, list[list[str]], int, bool]:
        """``(px, columns, wrapped labels, height, fits)``: the largest text size (from
        ``px`` down) at which ``items`` fit in ``size``."""
        w, h = size
        size_px = px
        while True:
            font = self.fonts.get(size_px)
            sw, line = size_px + 6, font.get_linesize()
            cols = max(1, min(4, w // max(1, size_px * 17)))
            col_w = w // cols
            labels = [wrap(font, item.text, col_w - swatch_width(item, sw) - 14) for item in items]
            rows = [labels[i:i + cols] for i in range(0, len(labels), cols)]
            height = sum(max(max(len(lb) * line for lb in row), sw) + 4 for row in rows)
            if structure:
                height += len(wrap(font, STRUCTURE_KEY, w)) * line + 4
            if height <= h or size_px <= 9:
                return size_px, cols, labels, height, height <= h
            size_px -= 1

    def _make_legend(self, size: tuple[int, int], items: tuple[LegendItem, ...], px: int,
                     structure: bool) -> tuple[pygame.Surface, bool]:
        surface = pygame.Surface(size, pygame.SRCALPHA)
        size_px, cols, labels, _h, fits = self.legend_plan(size, items, px, structure)
        font = self.fonts.get(size_px)
        key = tuple(wrap(font, STRUCTURE_KEY, size[0])) if structure else ()
        plan = LegendPlan(px=size_px, columns=cols, width=size[0],
                          labels=tuple(tuple(lb) for lb in labels), line=font.get_linesize(),
                          key=key)
        scene, _height = legend_scene(items, plan, self.measure)
        self.render_legend_scene(surface, (0, 0), scene)
        return surface, fits

    def measure(self, text: str, px: int, style: str) -> tuple[int, int]:
        """The size of ``text`` at ``px`` pixels in font ``style`` (a :data:`Measure`)."""
        return self.fonts.get(px, style).size(text)

    def render_legend_scene(self, surface: pygame.Surface, origin: tuple[int, int],
                            scene: Sequence[LegendPrimitive]) -> None:
        """Draw the legend primitives of ``scene`` with their pixels offset by ``origin``,
        each by its type (:data:`_LEGEND_DRAW`)."""
        for p in scene:
            _LEGEND_DRAW[type(p)](self, surface, origin, p)

    # -- the legend's primitives (pixels from ``origin``) ---------------------------
    def _draw_box(self, surface: pygame.Surface, o: tuple[int, int], p: Box) -> None:
        rect = pygame.Rect(o[0] + p.x, o[1] + p.y, p.w, p.h)
        if p.width:
            pygame.draw.rect(surface, self.colours[p.role], rect, p.width)
        else:
            surface.fill(self.colours[p.role], rect)

    def _draw_tile(self, surface: pygame.Surface, o: tuple[int, int], p: Tile) -> None:
        tile = self.ghost("P", p.side) if p.kind == "ghost" else self._tile(p.kind, p.side)
        surface.blit(tile, (o[0] + p.x, o[1] + p.y), (0, 0, p.w, p.h))

    def _draw_stroke(self, surface: pygame.Surface, o: tuple[int, int], p: Stroke) -> None:
        pygame.draw.line(surface, self.colours[p.role], (o[0] + p.x0, o[1] + p.y0),
                         (o[0] + p.x1, o[1] + p.y1), p.width)

    def _draw_mark(self, surface: pygame.Surface, o: tuple[int, int], p: Mark) -> None:
        if p.kind in BADGE_OK:
            img = self._badge(p.letter, BADGE_OK[p.kind], p.side)
        else:
            img = self.kingmap_letter(p.letter, self.colours[p.kind], p.side)
        surface.blit(img, img.get_rect(center=(o[0] + p.cx, o[1] + p.cy)))

    def _draw_pointer(self, surface: pygame.Surface, o: tuple[int, int], p: Pointer) -> None:
        self.arrow_swatch(surface, pygame.Rect(o[0] + p.x, o[1] + p.y, p.w, p.h),
                          self.colours[p.role], p.style)

    def _draw_text(self, surface: pygame.Surface, o: tuple[int, int], p: Text) -> None:
        img = self.fonts.get(p.px, p.style).render(p.text, True, self.colours[p.role])
        surface.blit(img, (o[0] + p.x, o[1] + p.y))

    def arrow_swatch(self, surface: pygame.Surface, swatch: pygame.Rect, colour: RGB,
                     style: str) -> None:
        """A short arrow in ``swatch`` drawn in ``style`` (solid, dashed, hollow, edged)."""
        y, w = swatch.centery, max(2, swatch.height // 5)
        x0, x1 = swatch.left, swatch.right
        tip = [(x1, y), (x1 - swatch.height // 2, y - swatch.height // 2 + 1),
               (x1 - swatch.height // 2, y + swatch.height // 2 - 1)]
        if style == "dashed":
            for x in range(x0, x1 - swatch.height // 2, 6):
                pygame.draw.line(surface, colour, (x, y), (min(x + 3, x1), y), w)
            pygame.draw.polygon(surface, colour, tip)
        elif style == "hollow":
            pygame.draw.line(surface, colour, (x0, y), (x1 - swatch.height // 2, y), w)
            pygame.draw.polygon(surface, colour, tip, 2)
        elif style == "edged":
            pygame.draw.line(surface, (0, 0, 0), (x0, y), (x1 - swatch.height // 2, y), w + 4)
            pygame.draw.line(surface, colour, (x0, y), (x1 - swatch.height // 2, y), w)
            pygame.draw.polygon(surface, colour, tip)
            pygame.draw.polygon(surface, (0, 0, 0), tip, 1)
        else:
            pygame.draw.line(surface, colour, (x0, y), (x1 - swatch.height // 2, y), w)
            pygame.draw.polygon(surface, colour, tip)


class _At(NamedTuple):
    """Where a scene is drawn: the surface, the board's rectangle and its geometry
    (:func:`board_geometry`); board units to pixels (a pixel boundary rounds down, so
    every primitive on a square rounds as the square does)."""

    surface: pygame.Surface
    rect: pygame.Rect
    left: int
    top: int
    sq: int

    def x(self, u: Fraction) -> int:
        return self.left + math.floor(u * self.sq)

    def y(self, u: Fraction) -> int:
        return self.top + math.floor(u * self.sq)

    def corner(self, col: int, row: int) -> tuple[int, int]:
        return self.left + col * self.sq, self.top + row * self.sq


#: how :class:`Painter` draws each primitive type
_DRAW: dict[type, Callable[[Painter, _At, Any], None]] = {
    Checker: Painter._draw_checker, Coord: Painter._draw_coord, Fill: Painter._draw_fill,
    Hatch: Painter._draw_hatch, Outline: Painter._draw_outline, Line: Painter._draw_line,
    Dot: Painter._draw_dot, Tag: Painter._draw_tag, Piece: Painter._draw_piece,
    Badge: Painter._draw_badge, LetterBox: Painter._draw_letter_box, Arrow: Painter._draw_arrow,
}


#: how :class:`Painter` draws each legend primitive type (pixels from an origin)
_LEGEND_DRAW: dict[type, Callable[[Painter, pygame.Surface, tuple[int, int], Any], None]] = {
    Box: Painter._draw_box, Tile: Painter._draw_tile, Stroke: Painter._draw_stroke,
    Mark: Painter._draw_mark, Pointer: Painter._draw_pointer, Text: Painter._draw_text,
}


def render_legend_types() -> frozenset[type]:
    """The legend primitive types :class:`Painter` draws (every one of
    :data:`viewer.figures.scene.LEGEND_PRIMITIVES`)."""
    return frozenset(_LEGEND_DRAW)


def render_scene_types() -> frozenset[type]:
    """The primitive types :class:`Painter` draws (every one of
    :data:`viewer.figures.scene.PRIMITIVES`)."""
    return frozenset(_DRAW)
