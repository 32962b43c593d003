"""The pygame back end: a scene's primitives drawn on a surface, each by its type
(:data:`_DRAW` for the board's, :data:`_LEGEND_DRAW` for the legend's), and a whole
:class:`~viewer.figures.figure.Figure` drawn as a picture (:func:`figure_surface`).  It
only translates: what is drawn where is the scene's and the layout's, the textures are
:mod:`viewer.figures.textures`' shapes (pre-rendered per size by
:class:`~viewer.figures.tiles.Tiles`).  The painter (:class:`viewer.figures.render.Painter`)
holds the colours, fonts, pieces and caches these functions draw with."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

import pygame

from viewer.figures.figure import (
    BANNER_ICONS,
    BannerPart,
    BoardPart,
    Figure,
    LegendPart,
    TextPart,
    banner_colour,
)
from viewer.figures.legend import BADGE_OK, Box, LegendPrimitive, Mark, Pointer, Stroke, Text, Tile
from viewer.figures.scene import (
    Arrow,
    Badge,
    Checker,
    Coord,
    Dot,
    Fill,
    Hatch,
    LetterBox,
    Line,
    Outline,
    Piece,
    Primitive,
    Tag,
    board_grid,
)
from viewer.figures.textfit import Fitted
from viewer.figures.textures import OUTLINE_TEXTURES
from viewer.figures.tiles import display_format
from viewer.model.theme import RGB

if TYPE_CHECKING:
    from viewer.figures.render import Painter

__all__ = ["draw_scene", "draw_legend_scene", "figure_surface", "draw_arrow", "arrow_swatch",
           "draw_label", "text_surface", "banner_surface", "scene_types", "legend_types"]


class _At(NamedTuple):
    """Where a scene is drawn: the painter, the surface, the board's rectangle and its
    grid (:func:`viewer.figures.scene.board_grid`); board units to pixels (a pixel boundary
    rounds down, so every primitive on a square rounds as the square does)."""

    painter: Painter
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


def draw_scene(painter: Painter, surface: pygame.Surface, rect: pygame.Rect,
               scene: Sequence[Primitive]) -> None:
    """Draw the primitives of ``scene`` on a board laid out in ``rect``, each by its
    type (:data:`_DRAW`)."""
    at = _At(painter, surface, rect, *board_grid(*rect))
    for p in scene:
        _DRAW[type(p)](at, p)


# -- the board's primitives -----------------------------------------------------------
def _checker(at: _At, p: Checker) -> None:
    at.surface.blit(_squares(at.painter, at.sq, p.flipped), (at.left - at.sq, at.top))


def _squares(painter: Painter, sq: int, flipped: bool) -> pygame.Surface:
    """The empty board with its frame on the background of the coordinates' margin (one
    square left and below), cached."""

    def make() -> pygame.Surface:
        c = painter.colours
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

    return painter.cached(("squares", sq, flipped), make, alpha=False)


def _coord(at: _At, p: Coord) -> None:
    font = at.painter.fonts.get(max(12, at.sq // 4), "plain")
    colour = at.painter.colours["coord"]
    t = at.painter.cached(("coord", p.text, font.get_height(), colour),
                          lambda: font.render(p.text, True, colour))
    x, y = at.x(p.x), at.y(p.y)
    box = t.get_rect(midtop=(x, y + 1)) if p.side == "below" else \
        t.get_rect(midright=(x - 3, y))
    at.surface.blit(t, box)


def _fill(at: _At, p: Fill) -> None:
    at.surface.blit(at.painter.tiles.texture(p.role, at.sq), at.corner(p.col, p.row))


def _hatch(at: _At, p: Hatch) -> None:
    at.surface.blit(at.painter.tiles.texture(p.pattern, at.sq), at.corner(p.col, p.row))


def _outline(at: _At, p: Outline) -> None:
    tile = at.painter.tiles.texture(OUTLINE_TEXTURES[p.style], at.sq)
    at.surface.blit(tile, at.corner(p.col, p.row))


def _line(at: _At, p: Line) -> None:
    pygame.draw.line(at.surface, at.painter.colours[p.role], (at.x(p.x0), at.y(p.y0)),
                     (at.x(p.x1), at.y(p.y1)), p.pen.px(at.sq))


def _dot(at: _At, p: Dot) -> None:
    pygame.draw.circle(at.surface, at.painter.colours[p.role], (at.x(p.x), at.y(p.y)),
                       p.pen.px(at.sq))


def _pill(painter: Painter, word: str, font: pygame.font.Font, role: str, pad: int,
          edge: int) -> pygame.Surface:
    """White bold ``word`` on a rounded box of colour ``role`` framed in black."""
    text = font.render(word, True, (255, 255, 255))
    pill = pygame.Surface((text.get_width() + 2 * pad, text.get_height() + 2), pygame.SRCALPHA)
    pygame.draw.rect(pill, painter.colours[role], pill.get_rect(), border_radius=5)
    pygame.draw.rect(pill, (0, 0, 0), pill.get_rect(), edge, border_radius=5)
    pill.blit(text, (pad, 1))
    return pill


def _tag(at: _At, p: Tag) -> None:
    font = at.painter.fonts.get(max(13, at.sq // 4), "plain")
    t = at.painter.cached(("pill", p.text, font.get_height()),
                          lambda: _pill(at.painter, p.text, font, "structure", 4, 1))
    x, y = at.x(p.x), at.y(p.y)
    if p.place == "above":
        at.surface.blit(t, t.get_rect(midbottom=(x, y - 2)))
    else:
        at.surface.blit(t, (x + 1, y + at.sq - (p.stack + 1) * t.get_height() - 1))


def _piece(at: _At, p: Piece) -> None:
    img = at.painter.tiles.ghost(p.symbol, at.sq) if p.ghost else \
        at.painter.pieces.get(p.symbol, at.sq)
    at.surface.blit(img, at.corner(p.col, p.row))


def _badge(at: _At, p: Badge) -> None:
    x, y = at.corner(p.col, p.row)
    b = at.painter.tiles.badge(p.letter, p.ok, at.sq)
    at.surface.blit(b, (x + at.sq - b.get_width() - 1, y + 1))


def _letter_box(at: _At, p: LetterBox) -> None:
    x, y = at.corner(p.col, p.row)
    letter = at.painter.tiles.letter_box(p.letter, at.painter.colours[p.role], at.sq)
    inset = max(2, at.sq // 14)
    at.surface.blit(letter, (x + inset, y + at.sq - letter.get_height() - inset))


def _arrow(at: _At, p: Arrow) -> None:
    start = (at.left + float(p.x0) * at.sq, at.top + float(p.y0) * at.sq)
    end = (at.left + float(p.x1) * at.sq, at.top + float(p.y1) * at.sq)
    draw_arrow(at.surface, start, end, at.sq, at.painter.colours[p.role], p.style)
    if p.label:
        draw_label(at.painter, at.surface, at.rect, start, at.sq, p.label)


def draw_arrow(surface: pygame.Surface, start: tuple[float, float], end: tuple[float, float],
               sq: int, colour: RGB, style: str,
               unit: tuple[float, float] | None = None) -> None:
    """One arrow from ``start`` to ``end`` (pixels) on squares of ``sq`` pixels, in
    ``style`` (solid, ``dashed``, ``hollow``, ``edged``); ``unit`` is its direction when
    the caller has it."""
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


def draw_label(painter: Painter, surface: pygame.Surface, rect: pygame.Rect,
               centre: tuple[float, float], sq: int, label: str) -> None:
    """A move's label in a pill low on the square centred at ``centre`` (empty after
    the move; before it, the label covers only the piece's base), kept in ``rect``."""
    font = painter.fonts.get(max(11, sq // 4), "bold")
    pill = painter.cached(("sanpill", label, font.get_height()),
                          lambda: _pill(painter, label, font, "arrow_line", 5, 2))
    cx, cy = centre
    box = pill.get_rect(midbottom=(round(cx), round(cy + sq / 2) - 2))
    surface.blit(pill, box.clamp(rect))


#: how the pygame back end draws each primitive type
_DRAW: dict[type, Callable[[_At, Any], None]] = {
    Checker: _checker, Coord: _coord, Fill: _fill, Hatch: _hatch, Outline: _outline,
    Line: _line, Dot: _dot, Tag: _tag, Piece: _piece, Badge: _badge, LetterBox: _letter_box,
    Arrow: _arrow,
}


# -- the legend's primitives (pixels from an origin) ---------------------------------
class _Px(NamedTuple):
    painter: Painter
    surface: pygame.Surface
    x: int
    y: int


def draw_legend_scene(painter: Painter, surface: pygame.Surface, origin: tuple[int, int],
                      scene: Sequence[LegendPrimitive]) -> None:
    """Draw the legend primitives of ``scene`` with their pixels offset by ``origin``,
    each by its type (:data:`_LEGEND_DRAW`)."""
    at = _Px(painter, surface, *origin)
    for p in scene:
        _LEGEND_DRAW[type(p)](at, p)


def _box(at: _Px, p: Box) -> None:
    rect = pygame.Rect(at.x + p.x, at.y + p.y, p.w, p.h)
    if p.width:
        pygame.draw.rect(at.surface, at.painter.colours[p.role], rect, p.width)
    else:
        at.surface.fill(at.painter.colours[p.role], rect)


def _tile(at: _Px, p: Tile) -> None:
    at.surface.blit(at.painter.tiles.texture(p.kind, p.side), (at.x + p.x, at.y + p.y),
                    (0, 0, p.w, p.h))


def _stroke(at: _Px, p: Stroke) -> None:
    pygame.draw.line(at.surface, at.painter.colours[p.role], (at.x + p.x0, at.y + p.y0),
                     (at.x + p.x1, at.y + p.y1), p.width)


def _mark(at: _Px, p: Mark) -> None:
    tiles = at.painter.tiles
    if p.kind in BADGE_OK:
        img = tiles.badge(p.letter, BADGE_OK[p.kind], p.side)
    else:
        img = tiles.letter_box(p.letter, at.painter.colours[p.kind], p.side)
    at.surface.blit(img, img.get_rect(center=(at.x + p.cx, at.y + p.cy)))


def _pointer(at: _Px, p: Pointer) -> None:
    arrow_swatch(at.surface, pygame.Rect(at.x + p.x, at.y + p.y, p.w, p.h),
                 at.painter.colours[p.role], p.style)


def _text(at: _Px, p: Text) -> None:
    img = at.painter.fonts.get(p.px, p.style).render(p.text, True, at.painter.colours[p.role])
    at.surface.blit(img, (at.x + p.x, at.y + p.y))


def arrow_swatch(surface: pygame.Surface, swatch: pygame.Rect, colour: RGB,
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


#: how the pygame back end draws each legend primitive type (pixels from an origin)
_LEGEND_DRAW: dict[type, Callable[[_Px, Any], None]] = {
    Box: _box, Tile: _tile, Stroke: _stroke, Mark: _mark, Pointer: _pointer, Text: _text,
}


def scene_types() -> frozenset[type]:
    """The primitive types the pygame back end draws."""
    return frozenset(_DRAW)


def legend_types() -> frozenset[type]:
    """The legend primitive types the pygame back end draws."""
    return frozenset(_LEGEND_DRAW)


# -- text, banner and the whole figure ------------------------------------------------
def text_surface(painter: Painter, text: Fitted, size: tuple[int, int]) -> pygame.Surface:
    """The lines of ``text`` on a transparent surface of ``size`` (cached)."""

    def make() -> pygame.Surface:
        surf = pygame.Surface(size, pygame.SRCALPHA)
        for line in text.lines:
            if line.text:
                img = painter.fonts.get(line.px, line.style).render(
                    line.text, True, painter.colours[line.colour])
                surf.blit(img, (line.x, line.y))
        return surf

    return painter.cached(("text", text, size), make)


def banner_surface(painter: Painter, size: tuple[int, int], kind: str,
                   r: int) -> pygame.Surface:
    """A banner's bar of ``size`` for ``kind``: the panel's colour, a stripe and a disc of
    radius ``r`` with the kind's icon (cached)."""

    def make() -> pygame.Surface:
        c = painter.colours
        rect = pygame.Rect((0, 0), size)
        surface = pygame.Surface(size, pygame.SRCALPHA)
        colour = c[banner_colour(kind)]
        pygame.draw.rect(surface, c["panel"], rect, border_radius=6)
        pygame.draw.rect(surface, colour, (rect.left, rect.top, 10, rect.height),
                         border_top_left_radius=6, border_bottom_left_radius=6)
        centre = (rect.left + 18 + r, rect.top + 6 + r)
        pygame.draw.circle(surface, colour, centre, r)
        t = painter.fonts.get(max(14, r * 5 // 4), "bold").render(
            BANNER_ICONS.get(kind, "?"), True, (0, 0, 0))
        surface.blit(t, t.get_rect(center=(centre[0], centre[1])))
        return surface

    return painter.cached(("banner", kind, size, r), make)


def _banner_part(painter: Painter, surface: pygame.Surface, p: BannerPart) -> None:
    surface.blit(banner_surface(painter, (p.w, p.h), p.kind, p.radius), (p.x, p.y))
    x, y, w, h = p.text_box
    surface.blit(text_surface(painter, p.text, (w, h)), (x, y))


def _board_part(painter: Painter, surface: pygame.Surface, p: BoardPart) -> None:
    painter.render_scene(surface, pygame.Rect(p.x, p.y, p.size, p.size), p.scene)


def _text_part(painter: Painter, surface: pygame.Surface, p: TextPart) -> None:
    surface.blit(text_surface(painter, p.text, (p.w, p.h)), (p.x, p.y))


def _legend_part(painter: Painter, surface: pygame.Surface, p: LegendPart) -> None:
    legend = pygame.Surface((p.w, p.h), pygame.SRCALPHA)
    painter.render_legend_scene(legend, (0, 0), p.scene)
    surface.blit(display_format(legend), (p.x, p.y))


#: how the pygame back end draws each part of a figure
_PARTS: dict[type, Callable[[Painter, pygame.Surface, Any], None]] = {
    BannerPart: _banner_part, BoardPart: _board_part, TextPart: _text_part,
    LegendPart: _legend_part,
}


def figure_surface(painter: Painter, figure: Figure) -> pygame.Surface:
    """The picture of ``figure``: its parts on the theme's background."""
    surface = pygame.Surface((figure.width, figure.height))
    surface.fill(painter.colours["background"])
    for part in figure.parts:
        _PARTS[type(part)](painter, surface, part)
    return surface
