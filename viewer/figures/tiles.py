"""The pygame back end's pre-rendered pieces of a board, per square size: the textures
(:func:`viewer.figures.textures.texture`'s shapes drawn on a transparent square), a
pawn's badge, the king map's letter box, a structure's ghost pawn, the pills of tags
and move labels.  Each is drawn once per size and kept (:class:`Tiles`); every colour is
read from the colours dict shared with the painter, so a theme change drops them all
(:meth:`Tiles.clear`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pygame

from viewer.figures.fonts import Fonts
from viewer.figures.pieces import PieceSet
from viewer.figures.textures import (
    INK,
    Art,
    Band,
    Discs,
    Letter,
    Ring,
    Shape,
    Strokes,
    Tint,
    ghost,
    px,
    texture,
)
from viewer.model.theme import RGB

__all__ = ["Tiles", "display_format", "draw_shapes", "shape_types"]


def display_format(surface: pygame.Surface, alpha: bool = True) -> pygame.Surface:
    """``surface`` converted to the window's pixel format when a window exists (alpha
    blits of converted surfaces are several times faster); unchanged otherwise."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha() if alpha else surface.convert()
    return surface


class _Pen:
    """What drawing shapes on a square of ``side`` pixels needs: the surface, the
    colours, the fonts and the pieces."""

    def __init__(self, t: pygame.Surface, side: int, colours: dict[str, RGB], fonts: Fonts,
                 pieces: PieceSet) -> None:
        self.t, self.side, self.colours, self.fonts, self.pieces = t, side, colours, fonts, \
            pieces

    def px(self, u: Any) -> int:
        return px(u, self.side)

    def colour(self, role: str, alpha: int | None = None) -> tuple[int, ...]:
        rgb = INK.get(role) or self.colours[role]
        return rgb if alpha is None else (*rgb, alpha)


def _tint(p: _Pen, s: Tint) -> None:
    p.t.fill(p.colour(s.role, s.alpha))


def _strokes(p: _Pen, s: Strokes) -> None:
    colour, width = p.colour(s.role, s.alpha), p.px(s.width)
    for x0, y0, x1, y1 in s.segments:
        pygame.draw.line(p.t, colour, (p.px(x0), p.px(y0)), (p.px(x1), p.px(y1)), width)


def _discs(p: _Pen, s: Discs) -> None:
    colour, r = p.colour(s.role, s.alpha), p.px(s.radius)
    for x, y in s.centres:
        pygame.draw.circle(p.t, colour, (p.px(x), p.px(y)), r)


def _band(p: _Pen, s: Band) -> None:
    pygame.draw.rect(p.t, p.colour(s.role, s.alpha),
                     pygame.Rect(p.px(s.x), p.px(s.y), p.px(s.w), p.px(s.h)), p.px(s.width),
                     border_radius=p.px(s.radius))


def _ring(p: _Pen, s: Ring) -> None:
    pygame.draw.circle(p.t, p.colour(s.role), (p.px(s.cx), p.px(s.cy)), p.px(s.r),
                       p.px(s.width))


def _letter(p: _Pen, s: Letter) -> None:
    img = p.fonts.get(p.px(s.size), s.style).render(s.text, True, p.colour(s.role))
    p.t.blit(img, (p.px(s.x), p.px(s.y)))


def _art(p: _Pen, s: Art) -> None:
    piece = p.pieces.get(s.symbol, p.side).copy()
    piece.set_alpha(s.alpha)
    p.t.blit(piece, (0, 0))


#: how the pygame back end draws each shape of a texture
_DRAW: dict[type, Callable[[_Pen, Any], None]] = {
    Tint: _tint, Strokes: _strokes, Discs: _discs, Band: _band, Ring: _ring, Letter: _letter,
    Art: _art,
}


def shape_types() -> frozenset[type]:
    """The texture shape types the pygame back end draws (every one of
    :data:`viewer.figures.textures.SHAPES`)."""
    return frozenset(_DRAW)


def draw_shapes(t: pygame.Surface, shapes: Iterable[Shape], side: int,
                colours: dict[str, RGB], fonts: Fonts, pieces: PieceSet) -> None:
    """Draw ``shapes`` (square units) on ``t``, a square of ``side`` pixels."""
    pen = _Pen(t, side, colours, fonts, pieces)
    for s in shapes:
        _DRAW[type(s)](pen, s)


class Tiles:
    """The drawings of one painter, by kind and square size (cached)."""

    def __init__(self, colours: dict[str, RGB], fonts: Fonts, pieces: PieceSet) -> None:
        self.colours, self.fonts, self.pieces = colours, fonts, pieces
        self._tiles: dict[tuple[str, int], pygame.Surface] = {}

    def clear(self) -> None:
        """Drop every drawing (the colours changed)."""
        self._tiles.clear()

    def _kept(self, key: tuple[str, int], make: Callable[[], pygame.Surface]) -> pygame.Surface:
        t = self._tiles.get(key)
        if t is None:
            t = self._tiles[key] = display_format(make())
        return t

    def _shapes(self, shapes: tuple[Shape, ...], size: int) -> pygame.Surface:
        t = pygame.Surface((size, size), pygame.SRCALPHA)
        draw_shapes(t, shapes, size, self.colours, self.fonts, self.pieces)
        return t

    def texture(self, kind: str, size: int) -> pygame.Surface:
        """Texture ``kind`` (:func:`viewer.figures.textures.texture`) on a transparent
        square of ``size`` pixels."""
        return self._kept((kind, size), lambda: self._shapes(texture(kind, size), size))

    def ghost(self, symbol: str, size: int) -> pygame.Surface:
        """A ghost pawn of ``symbol`` ("P"/"p") for squares of ``size`` pixels."""
        return self._kept((f"ghost:{symbol}", size), lambda: self._shapes(ghost(symbol, size),
                                                                          size))

    def letter_box(self, letter: str, colour: RGB, size: int) -> pygame.Surface:
        """The king map's letter for squares of ``size`` pixels: white on a box of
        ``colour`` with a black frame (drawn over the pieces, in the square's lower left
        corner, so a king standing there does not hide it)."""
        def make() -> pygame.Surface:
            d = max(11, size * 3 // 10)
            t = pygame.Surface((d, d), pygame.SRCALPHA)
            pygame.draw.rect(t, colour, t.get_rect(), border_radius=max(2, d // 5))
            pygame.draw.rect(t, (0, 0, 0), t.get_rect(), max(1, d // 12),
                             border_radius=max(2, d // 5))
            text = self.fonts.get(max(8, d * 3 // 4), "bold").render(letter, True,
                                                                     (255, 255, 255))
            t.blit(text, text.get_rect(center=(d // 2, d // 2)))
            return t

        return self._kept((f"kmletter:{letter}:{colour}", size), make)

    def badge(self, letter: str, ok: bool | None, size: int) -> pygame.Surface:
        """A pawn's badge: fixed (``ok`` None) a filled rounded square; holds a filled disc
        with a tick; breaks a hollow ring with a cross.  Shape, not only colour."""
        return self._kept((f"badge:{letter}:{ok}", size),
                          lambda: self._make_badge(letter, ok, size))

    def _make_badge(self, letter: str, ok: bool | None, size: int) -> pygame.Surface:
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
        text = self.fonts.get(int(d * 0.85), "plain").render(letter, True, ink)
        t.blit(text, text.get_rect(center=(centre[0], centre[1] + 1)))
        if ok is not None:
            self._tick_or_cross(t, pygame.Rect(0, d - mark // 2, mark, mark), ok)
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
