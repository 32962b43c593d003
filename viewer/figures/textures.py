"""The squares' textures as plain geometry: what a hatched, dotted, framed or ringed
square looks like, written once for every back end (the PNG's tiles, the SVG's shapes,
TikZ's paths).

:func:`texture` gives a texture as a tuple of shapes in drawing order, in *square units*
(a square spans ``0..1`` on both axes, ``x`` to the right, ``y`` down), for a square of
``side`` pixels: line widths, steps and insets follow pixel rules (``max(2, side // 14)``
…) so that the thin lines of a small board stay visible, and every coordinate is an
exact fraction of whole pixels (:class:`fractions.Fraction` with denominator ``side``):
a raster back end at that size hits whole pixels (:func:`px`), a vector one scales the
same numbers.  Colours are theme roles (:data:`viewer.model.theme.COLOURS`) or
:data:`INK` (black and white edges).

Shapes: :class:`Tint` (the square filled, translucent), :class:`Strokes` (line segments
of one width and colour), :class:`Discs`, :class:`Band` (a rectangle's outline drawn
inside it, as ``pygame.draw.rect`` draws a width), :class:`Ring` (a circle's outline,
inside its radius), :class:`Letter` (a character whose line box's top left is given) and
:class:`Art` (a piece drawing of the back end's piece set, faded).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import NamedTuple

__all__ = ["Tint", "Strokes", "Discs", "Band", "Ring", "Letter", "Art", "Shape", "SHAPES",
           "texture", "TEXTURES", "ghost", "px", "INK", "OUTLINE_TEXTURES"]

#: the fixed colours of edges and letters, besides the theme's roles
INK = {"black": (0, 0, 0), "white": (255, 255, 255)}

#: an :class:`viewer.figures.scene.Outline`'s style -> the texture that draws it
OUTLINE_TEXTURES = {"inset": "kingmask", "double": "changed", "rings": "fresh"}

Segment = tuple[Fraction, Fraction, Fraction, Fraction]


class Tint(NamedTuple):
    """The whole square filled with colour ``role`` at opacity ``alpha`` (0-255)."""

    role: str
    alpha: int


class Strokes(NamedTuple):
    """Straight segments ``(x0, y0, x1, y1)``, ``width`` wide, in colour ``role`` at
    opacity ``alpha`` (None: opaque), cut to the square."""

    segments: tuple[Segment, ...]
    width: Fraction
    role: str
    alpha: int | None = None


class Discs(NamedTuple):
    """Filled discs of ``radius`` at ``centres`` in colour ``role`` at opacity ``alpha``."""

    centres: tuple[tuple[Fraction, Fraction], ...]
    radius: Fraction
    role: str
    alpha: int


class Band(NamedTuple):
    """The outline of the rectangle ``(x, y, w, h)``, ``width`` wide inside it, in colour
    ``role`` at opacity ``alpha`` (None: opaque), its corners rounded by ``radius``."""

    x: Fraction
    y: Fraction
    w: Fraction
    h: Fraction
    width: Fraction
    role: str
    alpha: int | None = None
    radius: Fraction = Fraction(0)


class Ring(NamedTuple):
    """A circle's outline of outer radius ``r`` about ``(cx, cy)``, ``width`` wide
    inside it, in colour ``role``."""

    cx: Fraction
    cy: Fraction
    r: Fraction
    width: Fraction
    role: str


class Letter(NamedTuple):
    """``text`` at ``size`` (the font's pixel size, in square units) in font ``style``
    and colour ``role``, its line box's top left at ``(x, y)``."""

    x: Fraction
    y: Fraction
    text: str
    size: Fraction
    style: str
    role: str


class Art(NamedTuple):
    """The piece ``symbol`` (python-chess letter) as the back end draws pieces, over the
    whole square, at opacity ``alpha``."""

    symbol: str
    alpha: int


Shape = Tint | Strokes | Discs | Band | Ring | Letter | Art
#: every shape type
SHAPES: tuple[type, ...] = (Tint, Strokes, Discs, Band, Ring, Letter, Art)


def px(u: Fraction, side: int) -> int:
    """A length or coordinate in square units as whole pixels of a square of ``side``
    pixels (exact for this module's numbers at that size), rounded down."""
    return u.numerator * side // u.denominator  # floor(u * side) without a new Fraction


def _texture_hatch(side: int) -> list[Shape]:
    """Marked squares: a diagonal hatch."""
    u = functools.partial(Fraction, denominator=side)
    w, step = max(1, side // 28) + 1, max(5, side // 6)
    return [Strokes(tuple((u(i), u(side), u(i + side), u(0)) for i in range(-side, side, step)),
                    u(w), "marked", 230)]


def _texture_dots(side: int) -> list[Shape]:
    """The attacking king's side, the flood: a tint and a grid of dots."""
    u = functools.partial(Fraction, denominator=side)
    step = max(6, side // 5)
    grid = range(step // 2, side, step)
    return [Tint("below", 70),
            Discs(tuple((u(x), u(y)) for y in grid for x in grid), u(max(1, side // 36)),
                  "below", 220)]


def _texture_fence(side: int) -> list[Shape]:
    """Fence squares: a tint, a cross-hatch and a thick frame."""
    u = functools.partial(Fraction, denominator=side)
    w, step = max(1, side // 28), max(6, side // 4)
    return [Tint("fence", 60),
            Strokes(tuple((u(i), u(0), u(i + side), u(side)) for i in range(-side, side, step)),
                    u(w), "fence", 200),
            Band(u(0), u(0), u(side), u(side), u(max(2, side // 14)), "fence")]


def _texture_processed(side: int) -> list[Shape]:
    """A square the fence search has done: a grey tint."""
    return [Tint("processed", 90)]


def _texture_changed(side: int) -> list[Shape]:
    """A square the step changed: a thick frame and a black line inside it."""
    u = functools.partial(Fraction, denominator=side)
    w = max(3, side // 10)
    return [Band(u(0), u(0), u(side), u(side), u(w), "changed"),
            Band(u(w), u(w), u(side - 2 * w), u(side - 2 * w), u(1), "black")]


def _texture_key(side: int) -> list[Shape]:
    """A KPK key square: a rounded frame and the letter K."""
    u = functools.partial(Fraction, denominator=side)
    k = -(-side // 10)  # the frame: a tenth (rounded up) less wide, centred
    return [Band(u(k // 2), u(k // 2), u(side - k), u(side - k), u(max(2, side // 20)), "kpk",
                 radius=u(side // 8)),
            Letter(u(side // 10 + 3), u(side // 10 + 1), "K", u(max(12, side // 3)), "plain",
                   "kpk")]


def _texture_kingmask(side: int) -> list[Shape]:
    """Where the defending king must stand: a thin frame an eighth (rounded up) less
    wide than the square, centred."""
    u = functools.partial(Fraction, denominator=side)
    k = -(-side // 8)
    return [Band(u(k // 2), u(k // 2), u(side - k), u(side - k), u(max(1, side // 28)), "ok",
                 200)]


def _kingmap(side: int, role: str) -> list[Shape]:
    """The exact prover's king map: a light tint, a horizontal hatch (the marked squares'
    is diagonal) and a frame."""
    u = functools.partial(Fraction, denominator=side)
    w, step = max(1, side // 30) + 1, max(5, side // 6)
    return [Tint(role, 55),
            Strokes(tuple((u(0), u(y), u(side), u(y)) for y in range(step // 2, side, step)),
                    u(w), role, 235),
            Band(u(0), u(0), u(side), u(side), u(max(1, side // 24)), role)]


def _texture_kingmap_holds(side: int) -> list[Shape]:
    """A square from which the defending king holds (the letter H lies on the piece)."""
    return _kingmap(side, "kingmap_holds")


def _texture_kingmap_breaks(side: int) -> list[Shape]:
    """A square from which the attacking king breaks through (B on the piece)."""
    return _kingmap(side, "kingmap_breaks")


def _signs(side: int, plus: bool) -> list[Shape]:
    """A grid of plus (joined) or minus (left) signs in the fence colour, each arm edged
    in black."""
    u = functools.partial(Fraction, denominator=side)
    step, arm, w = max(8, side // 3), max(3, side // 12), max(2, side // 22)
    out: list[Shape] = []
    for y in range(step // 2, side, step):
        for x in range(step // 2, side, step):
            arms = [(x - arm, y, x + arm, y)] + ([(x, y - arm, x, y + arm)] if plus else [])
            for x0, y0, x1, y1 in arms:
                dx, dy = int(x1 > x0), int(y1 > y0)
                out.append(Strokes(((u(x0 - dx), u(y0 - dy), u(x1 + dx), u(y1 + dy)),),
                                   u(w + 2), "black"))
                out.append(Strokes(((u(x0), u(y0), u(x1), u(y1)),), u(w), "fence"))
    return out


def _texture_joined(side: int) -> list[Shape]:
    """A square that joined a recomputed fence: plus signs and a solid double frame."""
    u = functools.partial(Fraction, denominator=side)
    w = max(2, side // 16)
    return [*_signs(side, True), Band(u(0), u(0), u(side), u(side), u(w), "fence"),
            Band(u(w), u(w), u(side - 2 * w), u(side - 2 * w), u(1), "black")]


def _texture_left(side: int) -> list[Shape]:
    """A square that left a recomputed fence: minus signs and a dashed frame."""
    u = functools.partial(Fraction, denominator=side)
    w, dash = max(2, side // 16), max(4, side // 8)
    segments = []
    for i in range(0, side, 2 * dash):
        segments += [(u(i), u(0), u(i + dash), u(0)),
                     (u(i), u(side - 1), u(i + dash), u(side - 1)),
                     (u(0), u(i), u(0), u(i + dash)),
                     (u(side - 1), u(i), u(side - 1), u(i + dash))]
    return [*_signs(side, False), Strokes(tuple(segments), u(w), "fence")]


def _texture_fresh(side: int) -> list[Shape]:
    """A pawn removed or drowned in this step: two rings (a splash)."""
    u = functools.partial(Fraction, denominator=side)
    w = max(2, side // 18)
    c = u(side // 2)
    return [Ring(c, c, u(side // 2 - w), u(w), "removed"),
            Ring(c, c, u(side // 3), u(max(1, w // 2)), "removed")]


def ghost(symbol: str, side: int) -> tuple[Shape, ...]:
    """A ghost pawn (``symbol`` "P" or "p": a pawn of a structure, not of the position)
    on a square of ``side`` pixels: the piece faded, in a dashed frame edged in black."""
    u = functools.partial(Fraction, denominator=side)
    k = -(-side // 8)  # the frame: an eighth (rounded up) less wide than the square, centred
    left = top = k // 2
    right = bottom = k // 2 + side - k
    w, dash = max(2, side // 22), max(3, side // 10)
    out: list[Shape] = [Art(symbol, 150)]

    def dashes(at: tuple[int, int], vertical: bool) -> None:
        for i in range(0, at[1] - at[0], 2 * dash):
            a, b = at[0] + i, min(at[1] - 1, at[0] + i + dash)
            for edge in ((left, right - 1) if vertical else (top, bottom - 1)):
                seg = (u(edge), u(a), u(edge), u(b)) if vertical else \
                    (u(a), u(edge), u(b), u(edge))
                out.append(Strokes((seg,), u(w + 2), "black"))
                out.append(Strokes((seg,), u(w), "ghost"))

    dashes((left, right), False)
    dashes((top, bottom), True)
    return tuple(out)


def _texture_ghost(side: int) -> list[Shape]:
    """A ghost pawn of White's (the legend's swatch)."""
    return list(ghost("P", side))


#: every texture by name, with the function that lays it out for a square's side
_TEXTURES = {
    "hatch": _texture_hatch, "dots": _texture_dots, "fence": _texture_fence,
    "processed": _texture_processed, "changed": _texture_changed, "key": _texture_key,
    "kingmask": _texture_kingmask, "kingmap_holds": _texture_kingmap_holds,
    "kingmap_breaks": _texture_kingmap_breaks, "joined": _texture_joined,
    "left": _texture_left, "fresh": _texture_fresh, "ghost": _texture_ghost,
}
#: the names of the textures
TEXTURES = tuple(_TEXTURES)


@functools.lru_cache(maxsize=512)
def texture(kind: str, side: int) -> tuple[Shape, ...]:
    """The shapes of texture ``kind`` (one of :data:`TEXTURES`) on a square of ``side``
    pixels, in drawing order (cached: a pure function of its arguments)."""
    return tuple(_TEXTURES[kind](side))
