"""SVG export for print: the board's scene (:func:`viewer.figures.scene.board_scene`, the
primitives the PNG draws) translated primitive by primitive (:data:`_DRAW`): the squares,
the project's own pieces, the coordinates on the PNG's two sides, the overlays' textures
as plain shapes drawn as the PNG's tiles draw them (hatch lines, dots, plus and minus
signs, frames, rings: no SVG patterns, which some renderers paint black), badges, letter
boxes and the move's arrow; then the banner, the explanation and the legend
(:func:`viewer.figures.scene.legend_scene`) laid out by the same fitting as the PNG
(:func:`viewer.figures.textfit.fit`, so lines break at the same words).

The document is self-contained and looks the same in every renderer: its text is drawn
in the PNG's own fonts (Noto Sans, Fira Code, pygame's FreeSans), character by
character where the PNG draws it.  ``ExportOptions.svg_text`` says how: ``"paths"`` (the
default) draws each character as its glyph's outline (:mod:`viewer.figures.glyphs`; one
``<path>`` per glyph in ``<defs>``, placed by ``<use>``) under an invisible copy of the
text that keeps it searchable and selectable; ``"fonts"`` writes real ``<text>`` with
the subsets of the fonts it uses embedded as ``@font-face`` (base64 TrueType: for
editing; renderers without web fonts, such as CairoSVG and librsvg, substitute a font).

The document is one ``<svg>`` of ``size`` pixels' width in pixel units; the board is
laid out as the PNG lays it out (:func:`viewer.figures.render.board_geometry`), each primitive a
``<g data-kind="...">`` group named by its type.  :func:`board_square_box` maps a square
to its pixel box.  This module imports :mod:`viewer.figures.render` and :mod:`viewer.figures.scene`;
:mod:`viewer.figures.export` imports it (never the reverse).
"""

from __future__ import annotations

import base64
import copy
import functools
import itertools
import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

from logic.assets import asset_path
from viewer.figures.glyphs import outline, subset_ttf
from viewer.figures.render import (
    BADGE_OK,
    BANNER_ICONS,
    banner_height,
    banner_icon_radius,
    banner_roles,
    board_geometry,
    frame_px,
)
from viewer.figures.scene import (
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
from viewer.figures.textfit import Fonts, font_file
from viewer.model.overlay import EMPTY, Overlay
from viewer.model.state import DEFAULT_OPTIONS, ExportOptions
from viewer.model.theme import RGB, Block, LegendItem, Role

if TYPE_CHECKING:
    from viewer.figures.frame import Frame
    from viewer.figures.render import Painter

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
    ``top``: where the PNG draws it (:func:`viewer.figures.render.board_geometry`)."""
    left, top_, sq = board_geometry(pygame.Rect(0, top, size, size))
    f, r = chess.square_file(square), chess.square_rank(square)
    if flipped:
        f, r = 7 - f, 7 - r
    return left + f * sq, top_ + (7 - r) * sq, sq


def _el(parent: ET.Element, tag: str, **attrs: Any) -> ET.Element:
    return ET.SubElement(parent, f"{{{SVG_NS}}}{tag}",
                         {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})


class _Doc:
    """What one document's parts share: its ``<defs>`` (each glyph's outline once), the
    text mode (``paths`` or ``fonts``), the characters each font file draws (for the
    embedded subsets) and the numbering of clip paths."""

    def __init__(self, defs: ET.Element, text: str = "paths") -> None:
        self.defs, self.text = defs, text
        self._glyphs: dict[tuple[str, str], tuple[str, float] | None] = {}
        self.chars: dict[str, set[str]] = {}
        self.ids = itertools.count()

    def glyph(self, path: str, char: str) -> tuple[str, int] | None:
        """The id of ``char``'s outline from font file ``path`` in ``<defs>`` (added on
        first use) and the font's units per em; None without a glyph or ink."""
        key = (path, char)
        if key not in self._glyphs:
            got = outline(path, char)
            if got is None or not got.d:
                self._glyphs[key] = None
            else:
                # named by font and character: the same id is the same glyph in any
                # document (SVGs inlined side by side in one page share ids)
                gid = f"pf-glyph-{_stem(path)}-{ord(char):x}"
                _el(self.defs, "path", id=gid, d=got.d)
                self._glyphs[key] = (gid, got.upm)
        return self._glyphs[key]  # type: ignore[return-value]

    def finish(self) -> None:
        """In ``fonts`` mode: the ``@font-face`` rules of the fonts used, each the subset
        of the characters drawn, base64 TrueType in a ``<style>``."""
        if self.text != "fonts" or not self.chars:
            return
        rules = []
        for path, chars in sorted(self.chars.items()):
            data = base64.b64encode(subset_ttf(path, "".join(sorted(chars)))).decode()
            rules.append(f"@font-face {{ font-family: '{_family(path)}'; "
                         f"src: url(data:font/ttf;base64,{data}) format('truetype'); }}")
        _el(self.defs, "style", type="text/css").text = "\n".join(rules)


def _stem(path: str) -> str:
    """A font file's name without its folder and suffix ("NotoSans-Bold")."""
    return os.path.splitext(os.path.basename(path))[0]


def _family(path: str) -> str:
    """The family name an embedded font is declared under (one per file)."""
    return "pawnfence-" + _stem(path)


class _At(NamedTuple):
    """Where a scene is drawn: the group, the colours, the document and the board's
    geometry (as :func:`viewer.figures.render.board_geometry` lays it out); board units to
    pixels, rounded down as the PNG rounds them."""

    g: ET.Element
    c: dict[str, RGB]
    doc: _Doc
    left: int
    top: int
    sq: int

    def x(self, u: Fraction) -> int:
        return self.left + math.floor(u * self.sq)

    def y(self, u: Fraction) -> int:
        return self.top + math.floor(u * self.sq)

    def corner(self, col: int, row: int) -> tuple[int, int]:
        return self.left + col * self.sq, self.top + row * self.sq


# -- textures: what the PNG's tiles draw, as plain shapes ----------------------------
def _alpha(a: int) -> str:
    return f"{a / 255:.3f}"


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


def _lines(g: ET.Element, x: float, y: float, side: int,
           segments: list[tuple[float, float, float, float]], colour: str, width: float,
           opacity: str = "1") -> None:
    """Segments (square-relative, cut to the square) as one path."""
    d = []
    for seg in segments:
        cut = _clipped(*seg, side)
        if cut is not None:
            a, b, c, e = cut
            d.append(f"M{x + a:.2f} {y + b:.2f}L{x + c:.2f} {y + e:.2f}")
    if d:
        _el(g, "path", d="".join(d), stroke=colour, stroke_width=width, stroke_opacity=opacity,
            fill="none")


def _band(g: ET.Element, x: float, y: float, w: float, h: float, width: float, colour: str,
          opacity: str = "1", **attrs: Any) -> None:
    """The outline pygame draws of the rectangle ``(x, y, w, h)``: ``width`` pixels
    inside it."""
    _el(g, "rect", x=x + width / 2, y=y + width / 2, width=w - width, height=h - width,
        fill="none", stroke=colour, stroke_width=width, stroke_opacity=opacity, **attrs)


def _tint(g: ET.Element, x: float, y: float, side: int, colour: str, a: int) -> None:
    _el(g, "rect", x=x, y=y, width=side, height=side, fill=colour, fill_opacity=_alpha(a))


def _texture(g: ET.Element, c: dict[str, RGB], doc: _Doc, kind: str, x: float, y: float,
             side: int) -> None:
    """The texture ``kind`` on a square of ``side`` pixels at ``(x, y)``, as the PNG's
    tile of that kind draws it (:class:`viewer.figures.render.Painter`'s ``_tile_*``), in a
    group ``data-texture`` names."""
    g = _el(g, "g", data_texture=kind)
    if kind == "hatch":  # marked: diagonal lines
        w, step = max(1, side // 28) + 1, max(5, side // 6)
        _lines(g, x, y, side, [(i, side, i + side, 0) for i in range(-side, side, step)],
               _hex(c["marked"]), w, _alpha(230))
    elif kind == "dots":
        colour, step, r = _hex(c["below"]), max(6, side // 5), max(1, side // 36)
        _tint(g, x, y, side, colour, 70)
        d = "".join(f"M{x + cx - r} {y + cy}a{r} {r} 0 1 0 {2 * r} 0a{r} {r} 0 1 0 {-2 * r} 0"
                    for cy in range(step // 2, side, step) for cx in range(step // 2, side, step))
        _el(g, "path", d=d, fill=colour, fill_opacity=_alpha(220))
    elif kind == "fence":
        colour = _hex(c["fence"])
        _tint(g, x, y, side, colour, 60)
        w, step = max(1, side // 28), max(6, side // 4)
        _lines(g, x, y, side, [(i, 0, i + side, side) for i in range(-side, side, step)],
               colour, w, _alpha(200))
        _band(g, x, y, side, side, max(2, side // 14), colour)
    elif kind == "processed":
        _tint(g, x, y, side, _hex(c["processed"]), 90)
    elif kind.startswith("kingmap"):
        colour = _hex(c[kind])
        _tint(g, x, y, side, colour, 55)
        w, step = max(1, side // 30) + 1, max(5, side // 6)
        _lines(g, x, y, side, [(0, yy, side, yy) for yy in range(step // 2, side, step)],
               colour, w, _alpha(235))
        _band(g, x, y, side, side, max(1, side // 24), colour)
    elif kind in ("joined", "left"):
        _plus_minus(g, c, x, y, side, kind)
    else:
        _marks_texture(g, c, doc, kind, x, y, side)


def _plus_minus(g: ET.Element, c: dict[str, RGB], x: float, y: float, side: int,
                kind: str) -> None:
    """Plus (joined) or minus (left) signs edged in black, and the frame: solid and
    double (joined) or dashed (left)."""
    colour = _hex(c["fence"])
    step, arm, w = max(8, side // 3), max(3, side // 12), max(2, side // 22)
    under, over = [], []
    for cy in range(step // 2, side, step):
        for cx in range(step // 2, side, step):
            under.append((cx - arm - 1, cy, cx + arm + 1, cy))
            over.append((cx - arm, cy, cx + arm, cy))
            if kind == "joined":
                under.append((cx, cy - arm - 1, cx, cy + arm + 1))
                over.append((cx, cy - arm, cx, cy + arm))
    _lines(g, x, y, side, under, "#000", w + 2)
    _lines(g, x, y, side, over, colour, w)
    fw = max(2, side // 16)
    if kind == "joined":
        _band(g, x, y, side, side, fw, colour)
        _band(g, x + fw, y + fw, side - 2 * fw, side - 2 * fw, 1, "#000")
    else:
        dash = max(4, side // 8)
        segments = []
        for i in range(0, side, 2 * dash):
            segments += [(i, 0, i + dash, 0), (i, side - 1, i + dash, side - 1),
                         (0, i, 0, i + dash), (side - 1, i, side - 1, i + dash)]
        _lines(g, x, y, side, segments, colour, fw)


def _marks_texture(g: ET.Element, c: dict[str, RGB], doc: _Doc, kind: str, x: float,
                   y: float, side: int) -> None:
    """The tiles with shapes rather than a texture: a key square, the king's squares,
    a changed square, a removed pawn's rings."""
    if kind == "key":  # a rounded frame and K
        colour, m, w = _hex(c["kpk"]), side // 20, max(2, side // 20)
        _el(g, "rect", x=x + m + w / 2, y=y + m + w / 2, width=side - 2 * m - w,
            height=side - 2 * m - w, rx=side // 8, fill="none", stroke=colour, stroke_width=w)
        _run(doc, g, "K", _face(max(12, side // 3), "plain"), x + side // 10 + 3,
             y + side // 10 + 1, colour)
    elif kind == "kingmask":
        m = side // 16
        _band(g, x + m, y + m, side - 2 * m, side - 2 * m, max(1, side // 28), _hex(c["ok"]),
              _alpha(200))
    elif kind == "changed":
        w = max(3, side // 10)
        _band(g, x, y, side, side, w, _hex(c["changed"]))
        _band(g, x + w, y + w, side - 2 * w, side - 2 * w, 1, "#000")
    elif kind == "fresh":
        colour, w = _hex(c["removed"]), max(2, side // 18)
        for r, width in ((side // 2 - w, w), (side // 3, max(1, w // 2))):
            _el(g, "circle", cx=x + side // 2, cy=y + side // 2, r=r - width / 2, fill="none",
                stroke=colour, stroke_width=width)


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
    face = _face(max(12, at.sq // 4), "plain")
    w, h = face.font.size(p.text)
    x, y = at.x(p.x), at.y(p.y)
    left, top = (x - w // 2, y + 1) if p.side == "below" else (x - 3 - w, y - h // 2)
    _run(at.doc, at.g, p.text, face, left, top, _hex(at.c["coord"]))


def _fill(at: _At, p: Fill) -> None:
    x, y = at.corner(p.col, p.row)
    _tint(at.g, x, y, at.sq, _hex(at.c[p.role]), 90)


def _hatch(at: _At, p: Hatch) -> None:
    x, y = at.corner(p.col, p.row)
    _texture(at.g, at.c, at.doc, p.pattern, x, y, at.sq)


def _outline(at: _At, p: Outline) -> None:
    x, y = at.corner(p.col, p.row)
    kind = {"inset": "kingmask", "double": "changed", "rings": "fresh"}[p.style]
    _texture(at.g, at.c, at.doc, kind, x, y, at.sq)


def _line(at: _At, p: Line) -> None:
    _el(at.g, "path", d=f"M{at.x(p.x0):.1f} {at.y(p.y0):.1f} L{at.x(p.x1):.1f} "
        f"{at.y(p.y1):.1f}", stroke=_hex(at.c[p.role]), stroke_width=p.pen.px(at.sq),
        fill="none")


def _dot(at: _At, p: Dot) -> None:
    _el(at.g, "circle", cx=f"{at.x(p.x):.1f}", cy=f"{at.y(p.y):.1f}", r=p.pen.px(at.sq),
        fill=_hex(at.c[p.role]))


def _tag(at: _At, p: Tag) -> None:
    face = _face(max(13, at.sq // 4), "plain")
    tw, th = face.font.size(p.text)
    w, h = tw + 8, th + 2
    x, y = at.x(p.x), at.y(p.y)
    bx, by = (x - w // 2, y - 2 - h) if p.place == "above" else \
        (x + 1, y + at.sq - (p.stack + 1) * h - 1)
    _el(at.g, "rect", x=bx + 0.5, y=by + 0.5, width=w - 1, height=h - 1, rx=5,
        fill=_hex(at.c["structure"]), stroke="#000", stroke_width=1)
    _run(at.doc, at.g, p.text, face, bx + 4, by + 1, "#fff")


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


def _badge_at(g: ET.Element, doc: _Doc, bx: float, by: float, side: int, letter: str,
              ok: bool | None, c: dict[str, RGB]) -> float:
    """A pawn's badge for squares of ``side`` pixels with its box's top left at
    ``(bx, by)``, as :meth:`Painter._badge` draws it; returns the box's width."""
    d = max(14, side * 2 // 5)
    mark = max(7, d * 11 // 20)
    cx, cy = bx + mark // 2 + d // 2, by + d // 2
    ink, sw = "#fff", max(1, d // 12)  # strokes inside the shape, as pygame draws them
    if ok is None:
        _el(g, "rect", x=bx + mark // 2 + sw / 2, y=by + sw / 2, width=d - sw,
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
    _run_centred(doc, g, letter, _face(int(d * 0.85), "plain"), cx, cy + 1, ink)
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
    _badge_at(at.g, at.doc, x + at.sq - _badge_width(at.sq) - 1, y + 1, at.sq, p.letter, p.ok,
              at.c)


def _letter_box_side(side: int) -> int:
    """The side of a king map's letter box on squares of ``side`` pixels."""
    return max(11, side * 3 // 10)


def _letter_box_at(g: ET.Element, doc: _Doc, bx: float, by: float, d: int, letter: str,
                   colour: str) -> None:
    """A letter in a ``d``-pixel box of ``colour`` with a black frame, its top left at
    ``(bx, by)``, as :meth:`Painter.kingmap_letter` draws it."""
    sw = max(1, d // 12)
    _el(g, "rect", x=bx + sw / 2, y=by + sw / 2, width=d - sw, height=d - sw,
        rx=max(2, d // 5), fill=colour, stroke="#000", stroke_width=sw)
    _run_centred(doc, g, letter, _face(max(8, d * 3 // 4), "bold"), bx + d // 2, by + d // 2,
                 "#fff")


def _letter_box(at: _At, p: LetterBox) -> None:
    x, y = at.corner(p.col, p.row)
    d, inset = _letter_box_side(at.sq), max(2, at.sq // 14)
    _letter_box_at(at.g, at.doc, x + inset, y + at.sq - d - inset, d, p.letter,
                   _hex(at.c[p.role]))


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
        face = _face(max(11, sq // 4), "bold")
        tw, th = face.font.size(p.label)
        w, h = tw + 10, th + 2
        lx = min(max(round(x0) - w // 2, at.left - sq), at.left - sq + 9 * sq + 2 - w)
        ly = round(y0 + sq / 2) - 2 - h
        _el(g, "rect", x=lx + 1, y=ly + 1, width=w - 2, height=h - 2, rx=5, fill=colour,
            stroke="#000", stroke_width=2)
        _run(at.doc, g, p.label, face, lx + 5, ly + 1, "#fff")


#: how the SVG draws each primitive type
_DRAW: dict[type, Callable[[_At, Any], None]] = {
    Checker: _checker, Coord: _coord, Fill: _fill, Hatch: _hatch, Outline: _outline,
    Line: _line, Dot: _dot, Tag: _tag, Piece: _piece, Badge: _badge, LetterBox: _letter_box,
    Arrow: _arrow,
}


def svg_scene_types() -> frozenset[type]:
    """The primitive types the SVG draws (every one of :data:`viewer.figures.scene.PRIMITIVES`)."""
    return frozenset(_DRAW)


def scene_svg(parent: ET.Element, scene: Sequence[Primitive], colours: dict[str, RGB],
              size: int, top: int = 0, doc: _Doc | None = None) -> ET.Element:
    """The primitives of ``scene`` as a group of ``parent``, on a board of ``size`` pixels
    drawn at ``top`` where the PNG draws it; each primitive is one element or a few
    (``data-kind`` names its type).  ``doc``: the document's shared parts (by default
    a ``<defs>`` of ``parent``'s own, text as outlines)."""
    if doc is None:
        doc = _Doc(_el(parent, "defs"))
    left, top_, sq = board_geometry(pygame.Rect(0, top, size, size))
    board = _el(parent, "g", id="pawnfence-board")
    for p in scene:
        g = _el(board, "g", data_kind=type(p).__name__)
        _DRAW[type(p)](_At(g, colours, doc, left, top_, sq), p)
    return board


def board_svg(board: chess.Board, overlay: Overlay, colours: dict[str, RGB],
              flipped: bool = False, size: int = 400, text: str = "paths") -> ET.Element:
    """A stand-alone ``<svg>`` of ``size`` pixels: the board, pieces and coordinates with
    ``overlay`` (:func:`viewer.figures.scene.board_scene`); ``text`` as in :func:`frame_svg`."""
    root = ET.Element(f"{{{SVG_NS}}}svg", {"version": "1.1", "width": str(size),
                                            "height": str(size),
                                            "viewBox": f"0 0 {size} {size}"})
    doc = _Doc(_el(root, "defs"), text)
    scene_svg(root, board_scene(board, overlay, flipped=flipped), colours, size, doc=doc)
    doc.finish()
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


def _text(doc: _Doc, parent: ET.Element, painter: Painter, blocks: list[Block],
          roles: dict[str, Role], x: float, y: float, width: int) -> int:
    """The blocks wrapped as the PNG wraps them; returns the height used."""
    fitted = painter.fit_text(blocks, width, 100_000, roles)
    for line in fitted.lines:
        if line.text:
            _run(doc, parent, line.text, _face(line.px, line.style), x + line.x, y + line.y,
                 _hex(painter.colours[line.colour]))
    return fitted.height


_FONTS: list[Fonts] = []  # the PNG's fonts, loaded on first use


def _font(px: int, style: str) -> pygame.font.Font:
    if not _FONTS:
        _FONTS.append(Fonts())
    return _FONTS[0].get(px, style)


class _Face(NamedTuple):
    """A font as the PNG draws it: the pygame ``font`` (metrics, pen positions), its
    TrueType file (None: not found, the text stays text), its pixels per em and its
    CSS family, weight and style."""

    font: pygame.font.Font
    path: str | None
    em: int
    family: str
    weight: str
    slant: str


_FACES: dict[tuple[int, str], _Face] = {}


def _face(px: int, style: str) -> _Face:
    """The face the PNG draws ``style`` (regular, bold, italic, mono; ``plain``: pygame's
    default font, the coordinates', tags' and badges') with at ``px`` pixels."""
    key = (px, style)
    face = _FACES.get(key)
    if face is None:
        if style == "plain":  # pygame sizes its default font at 0.6875 of the size asked
            face = _Face(_plain(px), font_file("plain"), max(1, int(px * PLAIN_SCALE)),
                         PLAIN, "bold", "normal")
        else:
            face = _Face(_font(px, style), font_file(style), px,
                         MONO if style == "mono" else FONT,
                         "bold" if style == "bold" else "normal",
                         "italic" if style == "italic" else "normal")
        _FACES[key] = face
    return face


def _pens(font: pygame.font.Font, text: str) -> list[float]:
    """Where each character of ``text`` starts, and (last) where the text ends, in
    pixels from its start, as ``font`` draws the line."""
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
    return [float(p) for p in pens] + [float(font.size(text)[0])]


def _advances(text: str, px: float, style: str = "regular") -> list[float]:
    """:func:`_pens` of ``text`` in the font the PNG draws ``style`` with at ``px``
    pixels (an integer size is measured as is, so hinting matches the PNG; another is
    scaled from 100 pixels)."""
    size = px if float(px).is_integer() else 100
    k = px / size
    return [p * k for p in _pens(_font(int(size), style), text)]


def _run(doc: _Doc, parent: ET.Element, text: str, face: _Face, left: float, top: float,
         fill: str) -> None:
    """``text`` in ``face`` with its line box's top left at ``(left, top)`` (where the PNG
    blits it), each character at its pen position: as glyph outlines under an invisible
    copy of the text (``paths``), or as text in the embedded font (``fonts``)."""
    baseline = top + face.font.get_ascent()
    xs = _pens(face.font, text)
    if doc.text == "paths" and face.path is not None:
        g = _el(parent, "g", fill=fill)
        for ch, dx in zip(text, xs, strict=False):
            got = doc.glyph(face.path, ch)
            if got is not None:
                k = face.em / got[1]
                _el(g, "use", **{f"{{{XLINK_NS}}}href": f"#{got[0]}"},
                    transform=f"translate({left + dx:.2f} {baseline:.2f}) "
                              f"scale({k:.6g} {-k:.6g})")
        _text_element(parent, text, face, left, baseline, xs, fill, face.family, "0")
        return
    family = face.family
    if doc.text == "fonts" and face.path is not None:
        doc.chars.setdefault(face.path, set()).update(text)
        family = f"{_family(face.path)}, {family}"
    _text_element(parent, text, face, left, baseline, xs, fill, family, "1")


def _text_element(parent: ET.Element, text: str, face: _Face, left: float, baseline: float,
                  xs: list[float], fill: str, family: str, opacity: str) -> None:
    """A ``<text>`` with each character at ``left + xs[i]`` (SVG's list of x positions,
    which most renderers honour)."""
    t = _el(parent, "text", x=" ".join(f"{left + d:.1f}" for d in xs[:len(text)]),
            y=f"{baseline:.1f}", font_size=face.em, font_family=family, fill=fill,
            font_weight=face.weight, font_style=face.slant)
    if opacity != "1":
        t.set("fill-opacity", opacity)
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    t.text = text


def _run_centred(doc: _Doc, parent: ET.Element, text: str, face: _Face, cx: float, cy: float,
                 fill: str) -> None:
    """``text`` centred on ``(cx, cy)`` as a pygame ``Rect``'s centre places it."""
    w, h = face.font.size(text)
    _run(doc, parent, text, face, cx - w // 2, cy - h // 2, fill)


def _legend(doc: _Doc, parent: ET.Element, painter: Painter, items: tuple[LegendItem, ...],
            px: int, x: float, y: float, width: int) -> int:
    """The legend as the PNG lays it out (:meth:`Painter.legend_plan`) and draws it (the
    primitives of :func:`viewer.figures.scene.legend_scene`); returns its height."""
    size_px, cols, labels, height, _fits = painter.legend_plan((width, 100_000), items, px,
                                                               False)
    plan = LegendPlan(px=size_px, columns=cols, width=width,
                      labels=tuple(tuple(lb) for lb in labels),
                      line=painter.fonts.get(size_px).get_linesize())
    scene, used = legend_scene(items, plan, painter.measure)
    legend_svg(_el(parent, "g", id="legend"), scene, painter.colours, (x, y), doc)
    return max(height, used)


class _Px(NamedTuple):
    """Where legend primitives are drawn: the group, the colours, the document and the
    origin their pixels count from."""

    g: ET.Element
    c: dict[str, RGB]
    doc: _Doc
    x: float
    y: float


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
    cid = f"pf-clip-{next(at.doc.ids)}"
    _el(_el(at.g, "clipPath", id=cid), "rect", x=x, y=y, width=p.w, height=p.h)
    g = _el(at.g, "g", clip_path=f"url(#{cid})")
    if p.kind == "ghost":
        _piece(_At(g, at.c, at.doc, int(x), int(y), p.side),
               Piece(col=0, row=0, symbol="P", ghost=True))
    else:
        _texture(g, at.c, at.doc, p.kind, x, y, p.side)


def _stroke(at: _Px, p: Stroke) -> None:
    _el(at.g, "path", d=f"M{at.x + p.x0:.1f} {at.y + p.y0:.1f} L{at.x + p.x1:.1f} "
        f"{at.y + p.y1:.1f}", stroke=_hex(at.c[p.role]), stroke_width=p.width, fill="none")


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
                       _hex(at.c[p.kind]))


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
    _run(at.doc, at.g, p.text, _face(p.px, p.style), at.x + p.x, at.y + p.y,
         _hex(at.c[p.role]))


#: how the SVG draws each legend primitive type
_LEGEND_DRAW: dict[type, Callable[[_Px, Any], None]] = {
    Box: _box, Tile: _tile, Stroke: _stroke, Mark: _mark, Pointer: _pointer, Text: _text_run,
}


def svg_legend_types() -> frozenset[type]:
    """The legend primitive types the SVG draws (every one of
    :data:`viewer.figures.scene.LEGEND_PRIMITIVES`)."""
    return frozenset(_LEGEND_DRAW)


def legend_svg(g: ET.Element, scene: Sequence[LegendPrimitive], colours: dict[str, RGB],
               origin: tuple[float, float], doc: _Doc | None = None) -> None:
    """The legend primitives of ``scene`` in group ``g``, their pixels counted from
    ``origin`` (each primitive a ``<g data-kind="...">``); ``doc`` as in
    :func:`scene_svg`."""
    if doc is None:
        doc = _Doc(_el(g, "defs"))
    for p in scene:
        _LEGEND_DRAW[type(p)](_Px(_el(g, "g", data_kind=type(p).__name__), colours, doc,
                                 origin[0], origin[1]), p)


def _banner(doc: _Doc, root: ET.Element, painter: Painter, frame: Frame,
            options: ExportOptions, x: float, y: float, width: int) -> int:
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
    icon = BANNER_ICONS.get(b.kind, "?")
    _run_centred(doc, g, icon, _face(max(14, r * 5 // 4), "bold"), cx, cy, "#000")
    _text(doc, g, painter, list(b.blocks), banner_roles(px), x + 30 + 2 * r, y + 4,
          width - 38 - 2 * r)
    return h


def frame_svg(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS) -> str:
    """The frame as an SVG document: what :func:`viewer.figures.export.compose_frame` draws, its
    text as ``options.svg_text`` says (see the module's docstring)."""
    size, px = options.size, frame_px(options.size)
    pad = max(4, size // 80)
    width = size - 2 * pad
    c = painter.colours
    root = ET.Element(f"{{{SVG_NS}}}svg", {"version": "1.1", "width": str(size)})
    doc = _Doc(_el(root, "defs"), options.svg_text)
    bg = _el(root, "rect", x=0, y=0, width=size, fill=_hex(c["background"]))
    y = pad
    if options.banner:
        y += _banner(doc, root, painter, frame, options, pad, y, width) + pad
    ov = frame.overlay() if options.overlays else EMPTY
    scene_svg(root, board_scene(frame.board, ov, flipped=frame.flipped), c, size, y, doc)
    y += size + pad
    if options.explanation:
        y += _text(doc, root, painter, [Block(frame.explanation(), "sub")], {"sub": Role(px)},
                   pad, y, width)
        y += 2 * pad  # as compose_frame: the text's height and a pad, then a pad
    items = frame.legend(ov) if options.legend else ()
    if items:
        y += _legend(doc, root, painter, items, px, pad, y, width) + 2 * pad
    doc.finish()
    root.set("height", str(y))
    root.set("viewBox", f"0 0 {size} {y}")
    bg.set("height", str(y))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
