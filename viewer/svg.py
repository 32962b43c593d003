"""SVG export for print: the board's scene (:func:`viewer.scene.board_scene`, the
primitives the PNG draws) translated primitive by primitive (:data:`_DRAW`): the squares,
the project's own pieces, the coordinates on the PNG's two sides, the overlays as SVG
patterns (hatches, cross-hatch, dots, plus and minus signs) and shapes (frames, rings,
lines, badges, letter boxes, the move's arrow); then the banner, the explanation and the
legend as text laid out by the same fitting as the PNG (:func:`viewer.textfit.fit`, so
lines break at the same words).

The document is one ``<svg>`` of ``size`` pixels' width in pixel units; the board is
laid out as the PNG lays it out (:func:`viewer.render.board_geometry`), each primitive a
``<g data-kind="...">`` group named by its type.  :func:`board_square_box` maps a square
to its pixel box.  This module imports :mod:`viewer.render` and :mod:`viewer.scene`;
:mod:`viewer.export` imports it (never the reverse).
"""

from __future__ import annotations

import copy
import functools
import itertools
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

from logic.assets import asset_path
from viewer.overlay import EMPTY, Overlay
from viewer.render import (
    BADGE_OK,
    BANNER_ICONS,
    banner_height,
    banner_icon_radius,
    banner_roles,
    board_geometry,
    frame_px,
)
from viewer.scene import (
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
)
from viewer.state import DEFAULT_OPTIONS, ExportOptions
from viewer.textfit import Fonts
from viewer.theme import RGB, Block, LegendItem, Role

if TYPE_CHECKING:
    from viewer.frame import Frame
    from viewer.render import Painter

__all__ = ["frame_svg", "board_svg", "scene_svg", "board_square_box", "svg_scene_types",
           "svg_legend_types", "legend_svg"]

SVG_NS, XLINK_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)
FONT = "Noto Sans, DejaVu Sans, Arial, sans-serif"
MONO = "Fira Code, DejaVu Sans Mono, monospace"
#: the font of the coordinates, tags and badge letters (pygame's default, FreeSans Bold,
#: whose glyphs at size ``n`` are those of a CSS font of ``n * PLAIN_SCALE`` pixels)
PLAIN = "FreeSans, DejaVu Sans, Arial, sans-serif"
PLAIN_SCALE = 0.6875


def _hex(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def board_square_box(size: int, square: chess.Square, flipped: bool,
                     top: int = 0) -> tuple[float, float, float]:
    """``(x, y, side)`` in pixels of ``square`` on a board of ``size`` pixels drawn at
    ``top``: where the PNG draws it (:func:`viewer.render.board_geometry`)."""
    left, top_, sq = board_geometry(pygame.Rect(0, top, size, size))
    f, r = chess.square_file(square), chess.square_rank(square)
    if flipped:
        f, r = 7 - f, 7 - r
    return left + f * sq, top_ + (7 - r) * sq, sq


def _el(parent: ET.Element, tag: str, **attrs: Any) -> ET.Element:
    return ET.SubElement(parent, f"{{{SVG_NS}}}{tag}",
                         {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})


def _patterns(defs: ET.Element, c: dict[str, RGB], k: float) -> None:
    """The overlay patterns, one per texture the PNG's tiles draw, scaled by ``k``
    (``k`` 1: squares of 45 pixels)."""
    def pattern(pid: str, w: float, rotate: float = 0) -> ET.Element:
        return _el(defs, "pattern", id=pid, patternUnits="userSpaceOnUse", width=w * k,
                   height=w * k, patternTransform=f"rotate({rotate})")

    p = pattern("pf-hatch", 7.5, -45)
    _el(p, "line", x1=0, y1=0, x2=0, y2=7.5 * k, stroke=_hex(c["marked"]), stroke_width=2.2 * k,
        stroke_opacity=0.9)
    p = pattern("pf-fence", 11, 45)
    _el(p, "rect", width=11 * k, height=11 * k, fill=_hex(c["fence"]), fill_opacity=0.24)
    _el(p, "line", x1=0, y1=0, x2=0, y2=11 * k, stroke=_hex(c["fence"]), stroke_width=1.6 * k,
        stroke_opacity=0.78)
    p = pattern("pf-dots", 9)
    _el(p, "rect", width=9 * k, height=9 * k, fill=_hex(c["below"]), fill_opacity=0.27)
    _el(p, "circle", cx=4.5 * k, cy=4.5 * k, r=1.3 * k, fill=_hex(c["below"]),
        fill_opacity=0.86)
    for role in ("kingmap_holds", "kingmap_breaks"):  # the exact prover's king map
        p = pattern(f"pf-{role}", 7.5)
        _el(p, "rect", width=7.5 * k, height=7.5 * k, fill=_hex(c[role]), fill_opacity=0.22)
        _el(p, "line", x1=0, y1=3.75 * k, x2=7.5 * k, y2=3.75 * k, stroke=_hex(c[role]),
            stroke_width=1.6 * k)
    for pid, plus in (("pf-joined", True), ("pf-left", False)):
        p = pattern(pid, 15)
        d = f"M{3.5 * k:.2f} {7.5 * k:.2f} H{11.5 * k:.2f}" + (
            f" M{7.5 * k:.2f} {3.5 * k:.2f} V{11.5 * k:.2f}" if plus else "")
        _el(p, "path", d=d, stroke="#000", stroke_width=4 * k)
        _el(p, "path", d=d, stroke=_hex(c["fence"]), stroke_width=2.2 * k)


class _At(NamedTuple):
    """Where a scene is drawn: the group, the colours and the board's geometry (as
    :func:`viewer.render.board_geometry` lays it out); board units to pixels."""

    g: ET.Element
    c: dict[str, RGB]
    left: int
    top: int
    sq: int

    def x(self, u: Fraction) -> float:
        return self.left + float(u) * self.sq

    def y(self, u: Fraction) -> float:
        return self.top + float(u) * self.sq

    def corner(self, col: int, row: int) -> tuple[int, int]:
        return self.left + col * self.sq, self.top + row * self.sq


def _checker(at: _At, p: Checker) -> None:
    sq, c = at.sq, at.c
    _el(at.g, "rect", x=at.left - sq, y=at.top, width=9 * sq + 2, height=9 * sq,
        fill=_hex(c["background"]))
    for f in range(8):
        for r in range(8):
            x, y = at.corner(7 - f if p.flipped else f, r if p.flipped else 7 - r)
            _el(at.g, "rect", x=x, y=y, width=sq, height=sq,
                fill=_hex(c["square_light"] if (f + r) % 2 else c["square_dark"]))
    _el(at.g, "rect", x=at.left - 0.5, y=at.top + 0.5, width=8 * sq + 1, height=8 * sq,
        fill="none", stroke="#141414", stroke_width=1)


def _coord(at: _At, p: Coord) -> None:
    px = max(12, at.sq // 4)
    font = _plain(px)
    x, y = at.x(p.x), at.y(p.y)
    if p.side == "below":
        attrs = {"x": f"{x:.1f}", "y": f"{y + 1 + font.get_ascent():.1f}", "text_anchor": "middle"}
    else:
        attrs = {"x": f"{x - 3:.1f}", "y": f"{y - font.get_height() / 2 + font.get_ascent():.1f}",
                 "text_anchor": "end"}
    t = _el(at.g, "text", font_size=px * PLAIN_SCALE, font_family=PLAIN, font_weight="bold",
            fill=_hex(at.c["coord"]), **attrs)
    t.text = p.text


def _fill(at: _At, p: Fill) -> None:
    x, y = at.corner(p.col, p.row)
    _el(at.g, "rect", x=x, y=y, width=at.sq, height=at.sq, fill=_hex(at.c[p.role]),
        fill_opacity=0.35)


def _hatch(at: _At, p: Hatch) -> None:
    """A texture and, as the PNG's tile has it, its frame (and K on a key square)."""
    x, y = at.corner(p.col, p.row)
    sq, c, g = at.sq, at.c, at.g
    if p.pattern != "key":
        _el(g, "rect", x=x, y=y, width=sq, height=sq, fill=f"url(#pf-{p.pattern})")
    if p.pattern == "fence":
        w = max(2, sq // 14)
        _frame(g, x, y, sq, w, _hex(c["fence"]))
    elif p.pattern.startswith("kingmap"):
        _frame(g, x, y, sq, max(1, sq // 24), _hex(c[p.pattern]))
    elif p.pattern in ("joined", "left"):
        w = max(2, sq // 16)
        dash = {"stroke_dasharray": f"{max(4, sq // 8)} {max(4, sq // 8)}"} \
            if p.pattern == "left" else {}
        _frame(g, x, y, sq, w, _hex(c["fence"]), **dash)
        if p.pattern == "joined":
            _frame(g, x + w, y + w, sq - 2 * w, 1, "#000")
    elif p.pattern == "key":
        m = sq // 20
        _el(g, "rect", x=x + m, y=y + m, width=sq - 2 * m, height=sq - 2 * m, rx=sq // 8,
            fill="none", stroke=_hex(c["kpk"]), stroke_width=max(2, sq // 20))
        t = _el(g, "text", x=x + sq // 10 + 3, y=y + sq // 10 + 1 + max(12, sq // 3) * 0.75,
                font_size=max(12, sq // 3) * PLAIN_SCALE, font_family=PLAIN, font_weight="bold",
                fill=_hex(c["kpk"]))
        t.text = "K"


def _frame(g: ET.Element, x: float, y: float, side: float, w: float, colour: str,
           **attrs: Any) -> None:
    """A frame of width ``w`` inside the square box at ``(x, y)``."""
    _el(g, "rect", x=x + w / 2, y=y + w / 2, width=side - w, height=side - w, fill="none",
        stroke=colour, stroke_width=w, **attrs)


def _outline(at: _At, p: Outline) -> None:
    x, y = at.corner(p.col, p.row)
    sq, colour = at.sq, _hex(at.c[p.role])
    if p.style == "inset":
        w = max(1, sq // 28)
        _frame(at.g, x + sq / 16, y + sq / 16, sq * 7 / 8, w, colour, stroke_opacity=0.78)
    elif p.style == "double":
        w = max(3, sq // 10)
        _frame(at.g, x, y, sq, w, colour)
        _frame(at.g, x + w, y + w, sq - 2 * w, 1, "#000")
    else:  # rings
        w = max(2, sq // 18)
        for r, width in ((sq / 2 - w, w), (sq / 3, max(1, w // 2))):
            _el(at.g, "circle", cx=x + sq / 2, cy=y + sq / 2, r=r - width / 2, fill="none",
                stroke=colour, stroke_width=width)


def _line(at: _At, p: Line) -> None:
    _el(at.g, "path", d=f"M{at.x(p.x0):.1f} {at.y(p.y0):.1f} L{at.x(p.x1):.1f} "
        f"{at.y(p.y1):.1f}", stroke=_hex(at.c[p.role]), stroke_width=p.pen.px(at.sq),
        fill="none")


def _dot(at: _At, p: Dot) -> None:
    _el(at.g, "circle", cx=f"{at.x(p.x):.1f}", cy=f"{at.y(p.y):.1f}", r=p.pen.px(at.sq),
        fill=_hex(at.c[p.role]))


def _tag(at: _At, p: Tag) -> None:
    px = max(13, at.sq // 4)
    font = _plain(px)
    w, h = font.size(p.text)[0] + 8, font.get_height() + 2
    x, y = at.x(p.x), at.y(p.y)
    bx, by = (x - w / 2, y - 2 - h) if p.place == "above" else \
        (x + 1, y + at.sq - (p.stack + 1) * h - 1)
    _el(at.g, "rect", x=f"{bx:.1f}", y=f"{by:.1f}", width=w, height=h, rx=5,
        fill=_hex(at.c["structure"]), stroke="#000", stroke_width=1)
    t = _el(at.g, "text", x=f"{bx + 4:.1f}", y=f"{by + 1 + font.get_ascent():.1f}",
            font_size=px * PLAIN_SCALE, font_family=PLAIN, font_weight="bold", fill="#fff")
    t.text = p.text


@functools.lru_cache(maxsize=16)
def _piece_art(symbol: str) -> ET.Element | None:
    """The project's own piece drawing (the PNG's), as an ``<svg>`` element."""
    colour = "w" if symbol.isupper() else "b"
    try:
        return ET.parse(asset_path(f"pieces/{colour}{symbol.upper()}.svg")).getroot()
    except (OSError, ET.ParseError):
        return None


def _piece(at: _At, p: Piece) -> None:
    x, y = at.corner(p.col, p.row)
    sq = at.sq
    art = _piece_art(p.symbol)
    if art is not None:
        nested = copy.deepcopy(art)
        nested.attrib.update({"x": str(x), "y": str(y), "width": str(sq), "height": str(sq)})
        if p.ghost:
            nested.set("opacity", "0.6")
        at.g.append(nested)
    else:  # the PNG's fallback: a disc with the letter
        _el(at.g, "circle", cx=x + sq / 2, cy=y + sq / 2, r=sq * 0.4,
            fill="#fff" if p.symbol.isupper() else "#000", stroke="#000")
        t = _el(at.g, "text", x=x + sq / 2, y=y + sq * 0.62, font_size=sq // 2,
                text_anchor="middle", font_family=PLAIN,
                fill="#000" if p.symbol.isupper() else "#fff")
        t.text = p.symbol.upper()
    if p.ghost:
        w, m = max(2, sq // 22), sq / 16
        dash = max(3, sq // 10)
        for colour, width in (("#000", w + 2), (_hex(at.c["ghost"]), w)):
            _el(at.g, "rect", x=x + m, y=y + m, width=sq - 2 * m, height=sq - 2 * m,
                fill="none", stroke=colour, stroke_width=width,
                stroke_dasharray=f"{dash} {dash}")


def _badge_at(g: ET.Element, bx: float, by: float, side: int, letter: str, ok: bool | None,
              c: dict[str, RGB]) -> float:
    """A pawn's badge for squares of ``side`` pixels with its box's top left at
    ``(bx, by)``, as :meth:`Painter._badge` draws it; returns the box's width."""
    d = max(14, side * 2 // 5)
    mark = max(7, d * 11 // 20)
    cx, cy = bx + mark // 2 + d / 2, by + d / 2
    ink, sw = "#fff", max(1, d // 12)  # strokes inside the shape, as pygame draws them
    if ok is None:
        _el(g, "rect", x=cx - d / 2 + sw / 2, y=cy - d / 2 + sw / 2, width=d - sw,
            height=d - sw, rx=max(2, d // 5), fill=_hex(c["fixed"]), stroke="#000",
            stroke_width=sw)
    elif ok:
        _el(g, "circle", cx=cx, cy=cy, r=d / 2 - sw / 2, fill=_hex(c["ok"]), stroke="#000",
            stroke_width=sw)
    else:
        ring = max(2, d // 7)
        _el(g, "circle", cx=cx, cy=cy, r=d / 2 - ring / 2, fill="#fff",
            stroke=_hex(c["breaks"]), stroke_width=ring)
        ink = _hex(c["breaks"])
    t = _el(g, "text", x=f"{cx:.1f}", y=f"{cy + d * 0.3:.1f}",
            font_size=int(d * 0.85) * PLAIN_SCALE, font_family=PLAIN, font_weight="bold",
            text_anchor="middle", fill=ink)
    t.text = letter
    if ok is not None:
        m = mark
        mx, my = bx, by + d - m // 2
        if ok:
            _el(g, "circle", cx=mx + m / 2, cy=my + m / 2, r=m / 2, fill="#000")
            _el(g, "path", d=f"M{mx + m * .22:.1f} {my + m * .52:.1f} L{mx + m * .43:.1f} "
                f"{my + m * .74:.1f} L{mx + m * .8:.1f} {my + m * .28:.1f}",
                stroke=_hex(c["ok"]) if sum(c["ok"]) > 150 else "#fff",
                stroke_width=max(2, m // 5), fill="none")
        else:
            _el(g, "rect", x=mx, y=my, width=m, height=m, fill="#000")
            _el(g, "path", d=f"M{mx + m / 4:.1f} {my + m / 4:.1f} l{m / 2:.1f} {m / 2:.1f} "
                f"M{mx + 3 * m / 4:.1f} {my + m / 4:.1f} l{-m / 2:.1f} {m / 2:.1f}",
                stroke="#fff", stroke_width=max(2, m // 5))
    return d + mark // 2


def _badge_width(side: int) -> int:
    d = max(14, side * 2 // 5)
    return d + max(7, d * 11 // 20) // 2


def _badge(at: _At, p: Badge) -> None:
    x, y = at.corner(p.col, p.row)
    _badge_at(at.g, x + at.sq - _badge_width(at.sq) - 1, y + 1, at.sq, p.letter, p.ok, at.c)


def _letter_box_side(side: int) -> int:
    """The side of a king map's letter box on squares of ``side`` pixels."""
    return max(11, side * 3 // 10)


def _letter_box_at(g: ET.Element, bx: float, by: float, d: int, letter: str,
                   colour: str) -> None:
    """A letter in a ``d``-pixel box of ``colour`` with a black frame, its top left at
    ``(bx, by)``, as :meth:`Painter.kingmap_letter` draws it."""
    sw = max(1, d // 12)
    _el(g, "rect", x=bx + sw / 2, y=by + sw / 2, width=d - sw, height=d - sw,
        rx=max(2, d // 5), fill=colour, stroke="#000", stroke_width=sw)
    t = _el(g, "text", x=bx + d / 2, y=f"{by + d * 0.78:.1f}", font_size=max(8, d * 3 // 4),
            font_family=FONT, font_weight="bold", text_anchor="middle", fill="#fff")
    t.text = letter


def _letter_box(at: _At, p: LetterBox) -> None:
    x, y = at.corner(p.col, p.row)
    d, inset = _letter_box_side(at.sq), max(2, at.sq // 14)
    _letter_box_at(at.g, x + inset, y + at.sq - d - inset, d, p.letter, _hex(at.c[p.role]))


def _arrow(at: _At, p: Arrow) -> None:
    """A move: an arrow with a black edge and its label low on the square it leaves, as
    :meth:`Painter.render_arrows` (``edged``) draws it."""
    (x0, y0), (x1, y1) = (at.x(p.x0), at.y(p.y0)), (at.x(p.x1), at.y(p.y1))
    sq, g = at.sq, at.g
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head, width = sq * 0.35, max(4, sq // 9)
    bx, by = x1 - ux * head, y1 - uy * head
    px, py = -uy * head * 0.6, ux * head * 0.6
    colour = _hex(at.c[p.role])
    for stroke, w in (("#000", width + 4), (colour, width)):
        _el(g, "path", d=f"M{x0:.1f} {y0:.1f} L{bx:.1f} {by:.1f}", stroke=stroke,
            stroke_width=w, fill="none")
    _el(g, "path", d=f"M{x1:.1f} {y1:.1f} L{bx + px:.1f} {by + py:.1f} "
        f"L{bx - px:.1f} {by - py:.1f} Z", fill=colour, stroke="#000", stroke_width=2)
    if p.label:
        lpx = max(11, sq // 4)
        xs = _advances(p.label, lpx, "bold")
        h, w = _font(lpx, "bold").get_height() + 2, xs[-1] + 10
        lx, ly = x0 - w / 2, y0 + sq / 2 - 2 - h
        _el(g, "rect", x=f"{lx:.1f}", y=f"{ly:.1f}", width=w, height=h, rx=5, fill=colour,
            stroke="#000", stroke_width=2)
        _placed(g, p.label, lx + 5, ly + 1 + _font(lpx, "bold").get_ascent(), lpx, xs, "#fff",
                "bold")


#: how the SVG draws each primitive type
_DRAW: dict[type, Callable[[_At, Any], None]] = {
    Checker: _checker, Coord: _coord, Fill: _fill, Hatch: _hatch, Outline: _outline,
    Line: _line, Dot: _dot, Tag: _tag, Piece: _piece, Badge: _badge, LetterBox: _letter_box,
    Arrow: _arrow,
}


def svg_scene_types() -> frozenset[type]:
    """The primitive types the SVG draws (every one of :data:`viewer.scene.PRIMITIVES`)."""
    return frozenset(_DRAW)


def scene_svg(parent: ET.Element, scene: Sequence[Primitive], colours: dict[str, RGB],
              size: int, top: int = 0) -> ET.Element:
    """The primitives of ``scene`` as a group of ``parent``, on a board of ``size`` pixels
    drawn at ``top`` where the PNG draws it; each primitive is one element or a few
    (``data-kind`` names its type)."""
    left, top_, sq = board_geometry(pygame.Rect(0, top, size, size))
    board = _el(parent, "g", id="pawnfence-board")
    for p in scene:
        g = _el(board, "g", data_kind=type(p).__name__)
        _DRAW[type(p)](_At(g, colours, left, top_, sq), p)
    return board


def board_svg(board: chess.Board, overlay: Overlay, colours: dict[str, RGB],
              flipped: bool = False, size: int = 400) -> ET.Element:
    """A stand-alone ``<svg>`` of ``size`` pixels: the board, pieces and coordinates with
    ``overlay`` (:func:`viewer.scene.board_scene`)."""
    root = ET.Element(f"{{{SVG_NS}}}svg", {"version": "1.1", "width": str(size),
                                            "height": str(size),
                                            "viewBox": f"0 0 {size} {size}"})
    _patterns(_el(root, "defs"), colours, board_geometry(pygame.Rect(0, 0, size, size))[2] / 45)
    scene_svg(root, board_scene(board, overlay, flipped=flipped), colours, size)
    return root


_PLAIN: dict[int, pygame.font.Font] = {}


def _plain(px: int) -> pygame.font.Font:
    """pygame's default font at ``px`` (the PNG's coordinates and tags), for metrics."""
    if not pygame.font.get_init():
        pygame.font.init()
    f = _PLAIN.get(px)
    if f is None:
        f = _PLAIN[px] = pygame.font.Font(None, px)
    return f


def _text(parent: ET.Element, painter: Painter, blocks: list[Block], roles: dict[str, Role],
          x: float, y: float, width: int) -> int:
    """The blocks wrapped as the PNG wraps them; returns the height used."""
    fitted = painter.fit_text(blocks, width, 100_000, roles)
    for line in fitted.lines:
        if line.text:
            font = painter.fonts.get(line.px, line.style)
            _words(parent, line.text, x + line.x, y + line.y + font.get_ascent(), line.px,
                   painter.colours[line.colour], line.style)
    return fitted.height


_FONTS: list[Fonts] = []  # the PNG's fonts, loaded on first use


def _font(px: int, style: str) -> pygame.font.Font:
    if not _FONTS:
        _FONTS.append(Fonts())
    return _FONTS[0].get(px, style)


def _advances(text: str, px: float, style: str = "regular") -> list[float]:
    """Where each character of ``text`` starts, and (last) where the text ends, in
    pixels from its start, in the font the PNG draws ``style`` with at ``px`` pixels
    (an integer size is measured as is, so hinting matches the PNG; another is scaled
    from 100 pixels)."""
    size = px if float(px).is_integer() else 100
    font = _font(int(size), style)
    k = px / size
    # the pen position before character i as the PNG draws the line: the width of
    # text[:i] runs to its last glyph's ink (an "f" overhangs its advance), so it is
    # measured followed by a sentinel; a first glyph reaching left of its origin (minx
    # < 0) shifts the whole line right by as much
    if not text:
        return [0.0]
    sentinel = font.size("x")[0]
    first = font.metrics(text[0])[0]
    pens = [-min(0, first[0]) if first else 0]
    pens += [font.size(text[:i] + "x")[0] - sentinel for i in range(1, len(text))]
    return [p * k for p in pens] + [font.size(text)[0] * k]


def _placed(parent: ET.Element, text: str, x: float, y: float, px: float,
            xs: list[float], fill: str, style: str = "regular") -> None:
    """``text`` with each character at ``x + xs[i]`` (SVG's list of x positions, which
    every renderer honours, CairoSVG too): whatever font the reader substitutes, the
    characters stand where the PNG draws them and the line ends where the PNG's does."""
    t = _el(parent, "text", x=" ".join(f"{x + d:.1f}" for d in xs[:len(text)]), y=f"{y:.1f}",
            font_size=f"{px:g}", font_family=MONO if style == "mono" else FONT, fill=fill,
            font_weight="bold" if style == "bold" else "normal",
            font_style="italic" if style == "italic" else "normal")
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    t.text = text


def _words(parent: ET.Element, text: str, x: float, y: float, px: int, colour: RGB,
           style: str = "regular") -> None:
    """A line of text in ``style`` placed character by character where the PNG draws it."""
    _placed(parent, text, x, y, px, _advances(text, px, style), _hex(colour), style)


def _legend(parent: ET.Element, painter: Painter, items: tuple[LegendItem, ...], px: int,
            x: float, y: float, width: int) -> int:
    """The legend as the PNG lays it out (:meth:`Painter.legend_plan`) and draws it (the
    primitives of :func:`viewer.scene.legend_scene`); returns its height."""
    size_px, cols, labels, height, _fits = painter.legend_plan((width, 100_000), items, px,
                                                               False)
    plan = LegendPlan(px=size_px, columns=cols, width=width,
                      labels=tuple(tuple(lb) for lb in labels),
                      line=painter.fonts.get(size_px).get_linesize())
    scene, used = legend_scene(items, plan, painter.measure)
    legend_svg(_el(parent, "g", id="legend"), scene, painter.colours, (x, y))
    return max(height, used)


class _Px(NamedTuple):
    """Where legend primitives are drawn: the group, the colours, the origin their
    pixels count from, and the numbering of clip paths."""

    g: ET.Element
    c: dict[str, RGB]
    x: float
    y: float
    ids: Iterator[int]


def _box(at: _Px, p: Box) -> None:
    x, y, colour = at.x + p.x, at.y + p.y, _hex(at.c[p.role])
    if p.width:  # inside the box, as pygame draws a rectangle's outline
        _el(at.g, "rect", x=x + p.width / 2, y=y + p.width / 2, width=p.w - p.width,
            height=p.h - p.width, fill="none", stroke=colour, stroke_width=p.width)
    else:
        _el(at.g, "rect", x=x, y=y, width=p.w, height=p.h, fill=colour)


def _tile(at: _Px, p: Tile) -> None:
    """A square's texture as the board draws it, cut to the box (a clip path)."""
    x, y = at.x + p.x, at.y + p.y
    cid = f"pf-clip-{next(at.ids)}"
    _el(_el(at.g, "clipPath", id=cid), "rect", x=x, y=y, width=p.w, height=p.h)
    g = _el(at.g, "g", clip_path=f"url(#{cid})")
    square = _At(g, at.c, x, y, p.side)
    if p.kind == "processed":
        _fill(square, Fill(col=0, row=0, role="processed"))
    elif p.kind == "fresh":
        _outline(square, Outline(col=0, row=0, role="removed", style="rings"))
    elif p.kind == "ghost":
        _piece(square, Piece(col=0, row=0, symbol="P", ghost=True))
    else:
        _hatch(square, Hatch(col=0, row=0, pattern=p.kind))


def _stroke(at: _Px, p: Stroke) -> None:
    _el(at.g, "path", d=f"M{at.x + p.x0:.1f} {at.y + p.y0:.1f} L{at.x + p.x1:.1f} "
        f"{at.y + p.y1:.1f}", stroke=_hex(at.c[p.role]), stroke_width=p.width, fill="none")


def _mark(at: _Px, p: Mark) -> None:
    """A badge or a king map's letter box centred where the PNG centres it."""
    cx, cy = at.x + p.cx, at.y + p.cy
    if p.kind in BADGE_OK:
        w = _badge_width(p.side)
        _badge_at(at.g, cx - w // 2, cy - w // 2, p.side, p.letter, BADGE_OK[p.kind], at.c)
    else:
        d = _letter_box_side(p.side)
        _letter_box_at(at.g, cx - d // 2, cy - d // 2, d, p.letter, _hex(at.c[p.kind]))


def _pointer(at: _Px, p: Pointer) -> None:
    """A short arrow as :meth:`Painter.arrow_swatch` draws it."""
    x0, x1, y, h = at.x + p.x, at.x + p.x + p.w, at.y + p.y + p.h // 2, p.h
    w, colour, g = max(2, h // 5), _hex(at.c[p.role]), at.g
    shaft = f"M{x0:.1f} {y:.1f} H{x1 - h // 2:.1f}"
    tip = f"M{x1:.1f} {y:.1f} L{x1 - h // 2:.1f} {y - h // 2 + 1:.1f} " \
          f"L{x1 - h // 2:.1f} {y + h // 2 - 1:.1f} Z"
    if p.style == "dashed":
        _el(g, "path", d=shaft, stroke=colour, stroke_width=w, stroke_dasharray="3 3")
        _el(g, "path", d=tip, fill=colour)
    elif p.style == "hollow":
        _el(g, "path", d=shaft, stroke=colour, stroke_width=w)
        _el(g, "path", d=tip, fill="none", stroke=colour, stroke_width=2)
    elif p.style == "edged":
        _el(g, "path", d=shaft, stroke="#000", stroke_width=w + 4)
        _el(g, "path", d=shaft, stroke=colour, stroke_width=w)
        _el(g, "path", d=tip, fill=colour, stroke="#000", stroke_width=1)
    else:
        _el(g, "path", d=shaft, stroke=colour, stroke_width=w)
        _el(g, "path", d=tip, fill=colour)


def _text_run(at: _Px, p: Text) -> None:
    font = _font(p.px, p.style)
    _words(at.g, p.text, at.x + p.x, at.y + p.y + font.get_ascent(), p.px, at.c[p.role],
           p.style)


#: how the SVG draws each legend primitive type
_LEGEND_DRAW: dict[type, Callable[[_Px, Any], None]] = {
    Box: _box, Tile: _tile, Stroke: _stroke, Mark: _mark, Pointer: _pointer, Text: _text_run,
}


def svg_legend_types() -> frozenset[type]:
    """The legend primitive types the SVG draws (every one of
    :data:`viewer.scene.LEGEND_PRIMITIVES`)."""
    return frozenset(_LEGEND_DRAW)


def legend_svg(g: ET.Element, scene: Sequence[LegendPrimitive], colours: dict[str, RGB],
               origin: tuple[float, float]) -> None:
    """The legend primitives of ``scene`` in group ``g``, their pixels counted from
    ``origin`` (each primitive a ``<g data-kind="...">``)."""
    ids = itertools.count()
    for p in scene:
        _LEGEND_DRAW[type(p)](_Px(_el(g, "g", data_kind=type(p).__name__), colours,
                                 origin[0], origin[1], ids), p)


def _banner(root: ET.Element, painter: Painter, frame: Frame, options: ExportOptions,
            x: float, y: float, width: int) -> int:
    """The verdict banner as :meth:`Painter.render_banner` draws it in a picture (bar,
    coloured stripe, icon, text at the same place and size); returns its height."""
    px = frame_px(options.size)
    b = frame.banner()
    h = banner_height(painter, b, options)
    r = banner_icon_radius(h, px)
    c = painter.colours
    colour = _hex(c[{"blocked": "banner_blocked", "open": "banner_open"}.get(b.kind,
                                                                          "banner_na")])
    g = _el(root, "g", id="banner")
    _el(g, "rect", x=x, y=y, width=width, height=h, rx=6, fill=_hex(c["panel"]))
    _el(g, "path", d=f"M{x + 6} {y} h4 v{h} h-4 a6 6 0 0 1 -6 -6 v{-(h - 12)} "
        f"a6 6 0 0 1 6 -6 Z", fill=colour)
    cx, cy = x + 18 + r, y + 6 + r
    _el(g, "circle", cx=cx, cy=cy, r=r, fill=colour)
    icon, ipx = BANNER_ICONS.get(b.kind, "?"), max(14, r * 5 // 4)
    font = _font(ipx, "bold")
    t = _el(g, "text", x=f"{cx:.1f}", y=f"{cy - font.get_height() / 2 + font.get_ascent():.1f}",
            font_size=ipx, font_family=FONT, font_weight="bold", text_anchor="middle",
            fill="#000")  # one glyph, centred whatever the reader's font
    t.text = icon
    _text(g, painter, list(b.blocks), banner_roles(px), x + 30 + 2 * r, y + 4,
          width - 38 - 2 * r)
    return h


def frame_svg(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS) -> str:
    """The frame as an SVG document: what :func:`viewer.export.compose_frame` draws."""
    size, px = options.size, frame_px(options.size)
    pad = max(4, size // 80)
    width = size - 2 * pad
    c = painter.colours
    root = ET.Element(f"{{{SVG_NS}}}svg", {"version": "1.1", "width": str(size)})
    bg = _el(root, "rect", x=0, y=0, width=size, fill=_hex(c["background"]))
    k = board_geometry(pygame.Rect(0, 0, size, size))[2] / 45
    _patterns(_el(root, "defs"), c, k)
    y = pad
    if options.banner:
        y += _banner(root, painter, frame, options, pad, y, width) + pad
    ov = frame.overlay() if options.overlays else EMPTY
    scene_svg(root, board_scene(frame.board, ov, flipped=frame.flipped), c, size, y)
    y += size + pad
    if options.explanation:
        y += _text(root, painter, [Block(frame.explanation(), "sub")], {"sub": Role(px)}, pad,
                   y, width)
        y += 2 * pad  # as compose_frame: the text's height and a pad, then a pad
    items = frame.legend(ov) if options.legend else ()
    if items:
        y += _legend(root, painter, items, px, pad, y, width) + 2 * pad
    root.set("height", str(y))
    root.set("viewBox", f"0 0 {size} {y}")
    bg.set("height", str(y))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
