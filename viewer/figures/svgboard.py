"""The SVG back end's board and legend: the primitives of a board's scene
(:func:`viewer.figures.scene.board_scene`) and of a legend
(:func:`viewer.figures.legend.legend_scene`) translated one by one (:data:`_DRAW`,
:data:`_LEGEND_DRAW`), each a ``<g data-kind="...">`` group named by its type.

The squares' textures are :mod:`viewer.figures.textures`' shapes (the PNG's tiles draw
the same): hatch lines, dots, plus and minus signs, frames and rings as plain SVG shapes
(no SVG patterns, which some renderers paint black), each texture a group
``data-texture`` names.  The board is laid out as the PNG lays it out
(:func:`viewer.figures.scene.board_grid`), board units rounded down to pixels as the PNG
rounds them.  No pygame here.
"""

from __future__ import annotations

import copy
import functools
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from logic.assets import asset_path
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
)
from viewer.figures.svgtext import PLAIN, Doc, el, hexc, run, run_centred
from viewer.figures.textures import (
    INK,
    OUTLINE_TEXTURES,
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

__all__ = ["draw_scene", "draw_legend", "scene_kinds", "legend_kinds", "shape_kinds",
           "draw_texture"]


class _At(NamedTuple):
    """Where a scene is drawn: the group, the colours, the document and the board's
    grid; board units to pixels, rounded down as the PNG rounds them."""

    g: ET.Element
    c: dict[str, RGB]
    doc: Doc
    left: int
    top: int
    sq: int

    def x(self, u: Fraction) -> int:
        return self.left + math.floor(u * self.sq)

    def y(self, u: Fraction) -> int:
        return self.top + math.floor(u * self.sq)

    def corner(self, col: int, row: int) -> tuple[int, int]:
        return self.left + col * self.sq, self.top + row * self.sq


def _paint(c: dict[str, RGB], role: str) -> str:
    """The colour ``role`` (or :data:`~viewer.figures.textures.INK`) as SVG writes it."""
    if role in INK:
        return "#000" if role == "black" else "#fff"
    return hexc(c[role])


def _alpha(a: int | None) -> str:
    return "1" if a is None else f"{a / 255:.3f}"


# -- textures: the shapes of :mod:`viewer.figures.textures` ---------------------------
class _Sq(NamedTuple):
    """A square of ``side`` pixels at ``(x, y)`` in group ``g``."""

    g: ET.Element
    c: dict[str, RGB]
    doc: Doc
    x: float
    y: float
    side: int

    def px(self, u: Fraction) -> int:
        return px(u, self.side)


def _clipped(x0: float, y0: float, x1: float, y1: float,
             side: float) -> tuple[float, float, float, float] | None:
    """The part of the segment inside the square ``[0, side]``² (Liang-Barsky)."""
    t0, t1, dx, dy = 0.0, 1.0, x1 - x0, y1 - y0
    for p, q in ((-dx, x0), (dx, side - x0), (-dy, y0), (dy, side - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 > t1:
        return None
    return x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy


def _tint(s: _Sq, t: Tint) -> None:
    el(s.g, "rect", x=s.x, y=s.y, width=s.side, height=s.side, fill=_paint(s.c, t.role),
       fill_opacity=_alpha(t.alpha))


def _strokes(s: _Sq, t: Strokes) -> None:
    """The segments (cut to the square) as one path."""
    d = []
    for x0, y0, x1, y1 in t.segments:
        cut = _clipped(s.px(x0), s.px(y0), s.px(x1), s.px(y1), s.side)
        if cut is not None:
            a, b, c, e = cut
            d.append(f"M{s.x + a:.2f} {s.y + b:.2f}L{s.x + c:.2f} {s.y + e:.2f}")
    if d:
        el(s.g, "path", d="".join(d), stroke=_paint(s.c, t.role), stroke_width=s.px(t.width),
           stroke_opacity=_alpha(t.alpha), fill="none")


def _discs(s: _Sq, t: Discs) -> None:
    r = s.px(t.radius)
    d = "".join(f"M{s.x + s.px(cx) - r} {s.y + s.px(cy)}a{r} {r} 0 1 0 {2 * r} 0"
                f"a{r} {r} 0 1 0 {-2 * r} 0" for cx, cy in t.centres)
    el(s.g, "path", d=d, fill=_paint(s.c, t.role), fill_opacity=_alpha(t.alpha))


def _band(s: _Sq, t: Band) -> None:
    """The outline pygame draws of a rectangle: ``width`` pixels inside it."""
    w = s.px(t.width)
    rounded = {"rx": s.px(t.radius)} if t.radius else {}
    el(s.g, "rect", x=s.x + s.px(t.x) + w / 2, y=s.y + s.px(t.y) + w / 2, width=s.px(t.w) - w,
       height=s.px(t.h) - w, fill="none", stroke=_paint(s.c, t.role), stroke_width=w,
       stroke_opacity=_alpha(t.alpha), **rounded)


def _ring(s: _Sq, t: Ring) -> None:
    w = s.px(t.width)
    el(s.g, "circle", cx=s.x + s.px(t.cx), cy=s.y + s.px(t.cy), r=s.px(t.r) - w / 2,
       fill="none", stroke=_paint(s.c, t.role), stroke_width=w)


def _letter(s: _Sq, t: Letter) -> None:
    run(s.doc, s.g, t.text, s.doc.face(s.px(t.size), t.style), s.x + s.px(t.x),
        s.y + s.px(t.y), _paint(s.c, t.role))


@functools.lru_cache(maxsize=16)
def _piece_art(symbol: str) -> ET.Element | None:
    """The project's own piece drawing (the PNG's), as an ``<svg>`` element."""
    colour = "w" if symbol.isupper() else "b"
    try:
        return ET.parse(asset_path(f"pieces/{colour}{symbol.upper()}.svg")).getroot()
    except (OSError, ET.ParseError):
        return None


def _art(s: _Sq, t: Art) -> None:
    art = _piece_art(t.symbol)
    x, y, sq = s.x, s.y, s.side
    if art is not None:
        nested = copy.deepcopy(art)
        nested.attrib.update({"x": str(x), "y": str(y), "width": str(sq), "height": str(sq)})
        if t.alpha < 255:
            nested.set("opacity", _alpha(t.alpha))
        s.g.append(nested)
        return
    # the PNG's fallback: a disc with the letter
    el(s.g, "circle", cx=x + sq / 2, cy=y + sq / 2, r=sq * 0.4,
       fill="#fff" if t.symbol.isupper() else "#000", stroke="#000")
    text = el(s.g, "text", x=x + sq / 2, y=y + sq * 0.62, font_size=sq // 2,
              text_anchor="middle", font_family=PLAIN,
              fill="#000" if t.symbol.isupper() else "#fff")
    text.text = t.symbol.upper()


#: how the SVG draws each shape of a texture
_SHAPES: dict[type, Callable[[_Sq, Any], None]] = {
    Tint: _tint, Strokes: _strokes, Discs: _discs, Band: _band, Ring: _ring, Letter: _letter,
    Art: _art,
}


def shape_kinds() -> frozenset[type]:
    """The texture shape types the SVG draws (every one of
    :data:`viewer.figures.textures.SHAPES`)."""
    return frozenset(_SHAPES)


def draw_texture(g: ET.Element, c: dict[str, RGB], doc: Doc, shapes: Iterable[Shape],
                 x: float, y: float, side: int) -> None:
    """The texture ``shapes`` on a square of ``side`` pixels at ``(x, y)`` in ``g``."""
    sq = _Sq(g, c, doc, x, y, side)
    for shape in shapes:
        _SHAPES[type(shape)](sq, shape)


def _texture(at: _At, kind: str, col: int, row: int) -> None:
    x, y = at.corner(col, row)
    draw_texture(el(at.g, "g", data_texture=kind), at.c, at.doc, texture(kind, at.sq), x, y,
                 at.sq)


# -- the board's primitives ------------------------------------------------------------
def _checker(at: _At, p: Checker) -> None:
    sq, c = at.sq, at.c
    el(at.g, "rect", x=at.left - sq, y=at.top, width=9 * sq + 2, height=9 * sq,
       fill=hexc(c["background"]))
    for f in range(8):
        for r in range(8):
            x, y = at.corner(7 - f if p.flipped else f, r if p.flipped else 7 - r)
            el(at.g, "rect", x=x, y=y, width=sq, height=sq,
               fill=hexc(c["square_light"] if (f + r) % 2 else c["square_dark"]))
    el(at.g, "rect", x=at.left - 0.5, y=at.top + 0.5, width=8 * sq + 1, height=8 * sq,
       fill="none", stroke="#141414", stroke_width=1)


def _coord(at: _At, p: Coord) -> None:
    face = at.doc.face(max(12, at.sq // 4), "plain")
    w, h = face.font.size(p.text)
    x, y = at.x(p.x), at.y(p.y)
    left, top = (x - w // 2, y + 1) if p.side == "below" else (x - 3 - w, y - h // 2)
    run(at.doc, at.g, p.text, face, left, top, hexc(at.c["coord"]))


def _fill(at: _At, p: Fill) -> None:
    _texture(at, p.role, p.col, p.row)


def _hatch(at: _At, p: Hatch) -> None:
    _texture(at, p.pattern, p.col, p.row)


def _outline(at: _At, p: Outline) -> None:
    _texture(at, OUTLINE_TEXTURES[p.style], p.col, p.row)


def _line(at: _At, p: Line) -> None:
    el(at.g, "path", d=f"M{at.x(p.x0):.1f} {at.y(p.y0):.1f} L{at.x(p.x1):.1f} "
       f"{at.y(p.y1):.1f}", stroke=hexc(at.c[p.role]), stroke_width=p.pen.px(at.sq),
       fill="none")


def _dot(at: _At, p: Dot) -> None:
    el(at.g, "circle", cx=f"{at.x(p.x):.1f}", cy=f"{at.y(p.y):.1f}", r=p.pen.px(at.sq),
       fill=hexc(at.c[p.role]))


def _tag(at: _At, p: Tag) -> None:
    face = at.doc.face(max(13, at.sq // 4), "plain")
    tw, th = face.font.size(p.text)
    w, h = tw + 8, th + 2
    x, y = at.x(p.x), at.y(p.y)
    bx, by = (x - w // 2, y - 2 - h) if p.place == "above" else \
        (x + 1, y + at.sq - (p.stack + 1) * h - 1)
    el(at.g, "rect", x=bx + 0.5, y=by + 0.5, width=w - 1, height=h - 1, rx=5,
       fill=hexc(at.c["structure"]), stroke="#000", stroke_width=1)
    run(at.doc, at.g, p.text, face, bx + 4, by + 1, "#fff")


def _piece(at: _At, p: Piece) -> None:
    x, y = at.corner(p.col, p.row)
    shapes = ghost(p.symbol, at.sq) if p.ghost else (Art(p.symbol, 255),)
    draw_texture(at.g, at.c, at.doc, shapes, x, y, at.sq)


def _badge_at(g: ET.Element, doc: Doc, bx: float, by: float, side: int, letter: str,
              ok: bool | None, c: dict[str, RGB]) -> None:
    """A pawn's badge for squares of ``side`` pixels with its box's top left at
    ``(bx, by)``, as the PNG's tile draws it (:meth:`viewer.figures.tiles.Tiles.badge`)."""
    d = max(14, side * 2 // 5)
    mark = max(7, d * 11 // 20)
    cx, cy = bx + mark // 2 + d // 2, by + d // 2
    ink, sw = "#fff", max(1, d // 12)  # strokes inside the shape, as pygame draws them
    if ok is None:
        el(g, "rect", x=bx + mark // 2 + sw / 2, y=by + sw / 2, width=d - sw,
           height=d - sw, rx=max(2, d // 5), fill=hexc(c["fixed"]), stroke="#000",
           stroke_width=sw)
    elif ok:
        el(g, "circle", cx=cx, cy=cy, r=d / 2 - sw / 2, fill=hexc(c["ok"]), stroke="#000",
           stroke_width=sw)
    else:
        ring = max(2, d // 7)
        el(g, "circle", cx=cx, cy=cy, r=d / 2 - ring / 2, fill="#fff",
           stroke=hexc(c["breaks"]), stroke_width=ring)
        ink = hexc(c["breaks"])
    run_centred(doc, g, letter, doc.face(int(d * 0.85), "plain"), cx, cy + 1, ink)
    if ok is not None:
        m = mark
        mx, my = bx, by + d - m // 2
        if ok:
            el(g, "circle", cx=mx + m / 2, cy=my + m / 2, r=m / 2, fill="#000")
            el(g, "path", d=f"M{mx + m * .22:.1f} {my + m * .52:.1f} L{mx + m * .43:.1f} "
               f"{my + m * .74:.1f} L{mx + m * .8:.1f} {my + m * .28:.1f}",
               stroke=hexc(c["ok"]) if sum(c["ok"]) > 150 else "#fff",
               stroke_width=max(2, m // 5), fill="none")
        else:
            el(g, "rect", x=mx, y=my, width=m, height=m, fill="#000")
            el(g, "path", d=f"M{mx + m / 4:.1f} {my + m / 4:.1f} l{m / 2:.1f} {m / 2:.1f} "
               f"M{mx + 3 * m / 4:.1f} {my + m / 4:.1f} l{-m / 2:.1f} {m / 2:.1f}",
               stroke="#fff", stroke_width=max(2, m // 5))


def _badge_width(side: int) -> int:
    d = max(14, side * 2 // 5)
    return d + max(7, d * 11 // 20) // 2


def _badge(at: _At, p: Badge) -> None:
    x, y = at.corner(p.col, p.row)
    _badge_at(at.g, at.doc, x + at.sq - _badge_width(at.sq) - 1, y + 1, at.sq, p.letter, p.ok,
              at.c)


def _letter_box_side(side: int) -> int:
    """The side of a king map's letter box on squares of ``side`` pixels."""
    return max(11, side * 3 // 10)


def _letter_box_at(g: ET.Element, doc: Doc, bx: float, by: float, d: int, letter: str,
                   colour: str) -> None:
    """A letter in a ``d``-pixel box of ``colour`` with a black frame, its top left at
    ``(bx, by)``, as the PNG's tile draws it."""
    sw = max(1, d // 12)
    el(g, "rect", x=bx + sw / 2, y=by + sw / 2, width=d - sw, height=d - sw,
       rx=max(2, d // 5), fill=colour, stroke="#000", stroke_width=sw)
    run_centred(doc, g, letter, doc.face(max(8, d * 3 // 4), "bold"), bx + d // 2, by + d // 2,
                "#fff")


def _letter_box(at: _At, p: LetterBox) -> None:
    x, y = at.corner(p.col, p.row)
    d, inset = _letter_box_side(at.sq), max(2, at.sq // 14)
    _letter_box_at(at.g, at.doc, x + inset, y + at.sq - d - inset, d, p.letter,
                   hexc(at.c[p.role]))


def _arrow(at: _At, p: Arrow) -> None:
    """A move: an arrow with a black edge and its label low on the square it leaves, as
    the PNG draws it (:func:`viewer.figures.raster.draw_arrow`, ``edged``)."""
    (x0, y0), (x1, y1) = (at.x(p.x0), at.y(p.y0)), (at.x(p.x1), at.y(p.y1))
    sq, g = at.sq, at.g
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head, width = sq * 0.35, max(4, sq // 9)
    bx, by = x1 - ux * head, y1 - uy * head
    px_, py_ = -uy * head * 0.6, ux * head * 0.6
    colour = hexc(at.c[p.role])
    for stroke, w in (("#000", width + 4), (colour, width)):
        el(g, "path", d=f"M{x0:.1f} {y0:.1f} L{bx:.1f} {by:.1f}", stroke=stroke,
           stroke_width=w, fill="none")
    el(g, "path", d=f"M{x1:.1f} {y1:.1f} L{bx + px_:.1f} {by + py_:.1f} "
       f"L{bx - px_:.1f} {by - py_:.1f} Z", fill=colour, stroke="#000", stroke_width=2)
    if p.label:
        face = at.doc.face(max(11, sq // 4), "bold")
        tw, th = face.font.size(p.label)
        w, h = tw + 10, th + 2
        lx = min(max(round(x0) - w // 2, at.left - sq), at.left - sq + 9 * sq + 2 - w)
        ly = round(y0 + sq / 2) - 2 - h
        el(g, "rect", x=lx + 1, y=ly + 1, width=w - 2, height=h - 2, rx=5, fill=colour,
           stroke="#000", stroke_width=2)
        run(at.doc, g, p.label, face, lx + 5, ly + 1, "#fff")


#: how the SVG draws each primitive type
_DRAW: dict[type, Callable[[_At, Any], None]] = {
    Checker: _checker, Coord: _coord, Fill: _fill, Hatch: _hatch, Outline: _outline,
    Line: _line, Dot: _dot, Tag: _tag, Piece: _piece, Badge: _badge, LetterBox: _letter_box,
    Arrow: _arrow,
}


def scene_kinds() -> frozenset[type]:
    """The primitive types the SVG draws (every one of
    :data:`viewer.figures.scene.PRIMITIVES`)."""
    return frozenset(_DRAW)


def draw_scene(parent: ET.Element, scene: Sequence[Primitive], colours: dict[str, RGB],
               doc: Doc, grid: tuple[int, int, int]) -> ET.Element:
    """The primitives of ``scene`` as a group of ``parent`` on the board whose grid's
    ``(left, top, square)`` is ``grid``; each primitive is a ``<g data-kind="...">``."""
    board = el(parent, "g", id="pawnfence-board")
    for p in scene:
        g = el(board, "g", data_kind=type(p).__name__)
        _DRAW[type(p)](_At(g, colours, doc, *grid), p)
    return board


# -- the legend's primitives (pixels from an origin) --------------------------------
class _Px(NamedTuple):
    """Where legend primitives are drawn: the group, the colours, the document and the
    origin their pixels count from."""

    g: ET.Element
    c: dict[str, RGB]
    doc: Doc
    x: float
    y: float


def _box(at: _Px, p: Box) -> None:
    x, y, colour = at.x + p.x, at.y + p.y, hexc(at.c[p.role])
    if p.width:  # inside the box, as pygame draws a rectangle's outline
        el(at.g, "rect", x=x + p.width / 2, y=y + p.width / 2, width=p.w - p.width,
           height=p.h - p.width, fill="none", stroke=colour, stroke_width=p.width)
    else:
        el(at.g, "rect", x=x, y=y, width=p.w, height=p.h, fill=colour)


def _tile(at: _Px, p: Tile) -> None:
    """A square's texture as the board draws it, cut to the box (a clip path)."""
    x, y = at.x + p.x, at.y + p.y
    cid = f"pf-clip-{next(at.doc.ids)}"
    el(el(at.g, "clipPath", id=cid), "rect", x=x, y=y, width=p.w, height=p.h)
    g = el(at.g, "g", clip_path=f"url(#{cid})")
    draw_texture(g if p.kind == "ghost" else el(g, "g", data_texture=p.kind), at.c, at.doc,
                 texture(p.kind, p.side), x, y, p.side)


def _stroke(at: _Px, p: Stroke) -> None:
    el(at.g, "path", d=f"M{at.x + p.x0:.1f} {at.y + p.y0:.1f} L{at.x + p.x1:.1f} "
       f"{at.y + p.y1:.1f}", stroke=hexc(at.c[p.role]), stroke_width=p.width, fill="none")


def _mark(at: _Px, p: Mark) -> None:
    """A badge or a king map's letter box centred where the PNG centres it."""
    cx, cy = at.x + p.cx, at.y + p.cy
    if p.kind in BADGE_OK:
        w = _badge_width(p.side)
        _badge_at(at.g, at.doc, cx - w // 2, cy - w // 2, p.side, p.letter, BADGE_OK[p.kind],
                  at.c)
    else:
        d = _letter_box_side(p.side)
        _letter_box_at(at.g, at.doc, cx - d // 2, cy - d // 2, d, p.letter,
                       hexc(at.c[p.kind]))


def _pointer(at: _Px, p: Pointer) -> None:
    """A short arrow as the PNG's :func:`viewer.figures.raster.arrow_swatch` draws it."""
    x0, x1, y, h = at.x + p.x, at.x + p.x + p.w, at.y + p.y + p.h // 2, p.h
    w, colour, g = max(2, h // 5), hexc(at.c[p.role]), at.g
    shaft = f"M{x0:.1f} {y:.1f} H{x1 - h // 2:.1f}"
    tip = f"M{x1:.1f} {y:.1f} L{x1 - h // 2:.1f} {y - h // 2 + 1:.1f} " \
          f"L{x1 - h // 2:.1f} {y + h // 2 - 1:.1f} Z"
    if p.style == "dashed":
        el(g, "path", d=shaft, stroke=colour, stroke_width=w, stroke_dasharray="3 3")
        el(g, "path", d=tip, fill=colour)
    elif p.style == "hollow":
        el(g, "path", d=shaft, stroke=colour, stroke_width=w)
        el(g, "path", d=tip, fill="none", stroke=colour, stroke_width=2)
    elif p.style == "edged":
        el(g, "path", d=shaft, stroke="#000", stroke_width=w + 4)
        el(g, "path", d=shaft, stroke=colour, stroke_width=w)
        el(g, "path", d=tip, fill=colour, stroke="#000", stroke_width=1)
    else:
        el(g, "path", d=shaft, stroke=colour, stroke_width=w)
        el(g, "path", d=tip, fill=colour)


def _text_run(at: _Px, p: Text) -> None:
    run(at.doc, at.g, p.text, at.doc.face(p.px, p.style), at.x + p.x, at.y + p.y,
        hexc(at.c[p.role]))


#: how the SVG draws each legend primitive type
_LEGEND_DRAW: dict[type, Callable[[_Px, Any], None]] = {
    Box: _box, Tile: _tile, Stroke: _stroke, Mark: _mark, Pointer: _pointer, Text: _text_run,
}


def legend_kinds() -> frozenset[type]:
    """The legend primitive types the SVG draws (every one of
    :data:`viewer.figures.legend.LEGEND_PRIMITIVES`)."""
    return frozenset(_LEGEND_DRAW)


def draw_legend(g: ET.Element, scene: Sequence[LegendPrimitive], colours: dict[str, RGB],
                origin: tuple[float, float], doc: Doc) -> None:
    """The legend primitives of ``scene`` in group ``g``, their pixels counted from
    ``origin`` (each primitive a ``<g data-kind="...">``)."""
    for p in scene:
        _LEGEND_DRAW[type(p)](_Px(el(g, "g", data_kind=type(p).__name__), colours, doc,
                                 origin[0], origin[1]), p)
