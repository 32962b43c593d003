"""The TikZ back end: a :class:`~viewer.figures.figure.Figure` as a TikZ picture, for
authors who typeset their figures in LaTeX and want the PNG's picture as vector
graphics (``render --out FIG.tikz``; the ``chessboard`` diagram of
:mod:`viewer.figures.latex` names squares instead).

The file is a complete LaTeX document (``standalone``: the page is the figure; TikZ,
``amssymb`` and ``fix-cm`` for text at any size) that ``pdflatex`` compiles; its
``tikzpicture`` can be copied into a paper with the colour definitions and ``\\pftext``.
One pixel of the figure is 0.75 bp (a CSS pixel: 1/96 inch), so a figure of 640 px is
480 bp (6 2/3 inches) wide; ``y`` grows downwards as in the figure.  Every part is
translated as the figure lays it out: the board's and the legend's primitives, the
textures as their shapes (:mod:`viewer.figures.textures`: the same lines, dots and
frames as the PNG), the pieces as the project's own drawings, and the text in LaTeX's
sans-serif at the figure's sizes, each line where the figure places it (a line LaTeX's
font would draw wider than the figure's font is narrowed to that width).  No pygame here.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from typing import Any

from logic.assets import asset_path
from viewer.figures.figure import BannerPart, BoardPart, Figure, LegendPart, TextPart, banner_colour
from viewer.figures.legend import BADGE_OK, Box, Mark, Pointer, Stroke, Text, Tile
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
    Tag,
)
from viewer.figures.textfit import Fitted, Metrics
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

__all__ = ["tikz_document", "tikz_kinds", "PT"]

#: big points (1/72 inch, PDF's unit) per pixel of the figure
PT = 0.75
_SPECIAL = {"\\": r"$\backslash$", "<": r"$<$", ">": r"$>$", "|": r"$|$", '"': "''",
            "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$", "%": r"\%", "&": r"\&",
            "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
            "½": r"\textonehalf{}", "…": r"\ldots{}", "·": r"\textperiodcentered{}",
            "•": r"\textbullet{}", "×": r"$\times$", "✓": r"$\checkmark$",
            "→": r"$\rightarrow$", "≥": r"$\geq$", "≤": r"$\leq$"}
#: ``\pftext{W}{T}``: ``T``, shrunk to ``W`` wide when it is wider
_PFTEXT = ("\\newsavebox\\pfbox\n\\newcommand\\pftext[2]{\\sbox\\pfbox{#2}%\n"
           "  \\ifdim\\wd\\pfbox>#1\\resizebox{#1}{!}{\\usebox\\pfbox}\\else\\usebox\\pfbox\\fi}")
_FONTS = {"regular": r"\sffamily", "bold": r"\sffamily\bfseries", "italic": r"\sffamily\itshape",
          "mono": r"\ttfamily", "plain": r"\sffamily\bfseries"}


def _n(v: float) -> str:
    """A number as TikZ reads it, to a hundredth."""
    return f"{v:.2f}".rstrip("0").rstrip(".") or "0"


def _escape(text: str) -> str:
    return "".join(_SPECIAL.get(c, c) for c in text)


class _Pic:
    """The picture being written: its lines and the colours it names."""

    def __init__(self, colours: dict[str, RGB], metrics: Metrics) -> None:
        self.colours, self.metrics = colours, metrics
        self.lines: list[str] = []
        self.named: dict[str, RGB] = {}

    def c(self, colour: str | RGB) -> str:
        """The name of colour ``colour`` (a theme role, ``black``, ``white`` or RGB)."""
        rgb = colour if isinstance(colour, tuple) else INK.get(colour) or self.colours[colour]
        name = "pf{:02x}{:02x}{:02x}".format(*rgb)
        self.named[name] = rgb
        return name

    def add(self, line: str) -> None:
        self.lines.append(line)

    def em(self, size: float, style: str) -> float:
        """The pixels per em of the figure's font ``style`` asked at ``size`` pixels."""
        file = self.metrics.file(style)
        return size * (file.em if file else 1.0)

    def text(self, x: float, y: float, text: str, size: float, style: str, colour: str | RGB,
             anchor: str = "north west") -> None:
        """``text`` at ``size`` pixels in ``style`` with its ``anchor`` at ``(x, y)``, no
        wider than the figure's font draws it (``\\pftext`` shrinks a wider line)."""
        wide = self.metrics.get(int(size), style).size(text)[0] * PT
        size = self.em(size, style)
        self.add(f"\\node[anchor={anchor}, inner sep=0, text={self.c(colour)}] at "
                 f"({_n(x)},{_n(y)}) {{\\pftext{{{_n(wide)}bp}}{{\\fontsize{{{_n(size * PT)}bp}}"
                 f"{{{_n(size * PT * 1.2)}bp}}{_FONTS.get(style, _FONTS['regular'])}\\selectfont "
                 f"{_escape(text)}}}}};")

    def box(self, x: float, y: float, w: float, h: float, *, fill: str | RGB | None = None,
            draw: str | RGB | None = None, width: float = 1, radius: float = 0,
            opacity: float = 1) -> None:
        """A rectangle filled and/or outlined (the outline ``width`` wide inside it)."""
        opts = [f"fill={self.c(fill)}"] if fill is not None else []
        if draw is not None:
            opts += [f"draw={self.c(draw)}", f"line width={_n(width * PT)}bp"]
            x, y, w, h = x + width / 2, y + width / 2, w - width, h - width
        if radius:
            opts.append(f"rounded corners={_n(radius * PT)}bp")
        if opacity < 1:
            opts.append(f"opacity={_n(opacity)}")
        self.add(f"\\path[{', '.join(opts)}] ({_n(x)},{_n(y)}) rectangle ++({_n(w)},{_n(h)});")

    def disc(self, x: float, y: float, r: float, *, fill: str | RGB | None = None,
             draw: str | RGB | None = None, width: float = 1) -> None:
        """A circle of radius ``r`` filled and/or outlined (inside the radius)."""
        opts = [f"fill={self.c(fill)}"] if fill is not None else []
        if draw is not None:
            opts += [f"draw={self.c(draw)}", f"line width={_n(width * PT)}bp"]
            r -= width / 2
        self.add(f"\\path[{', '.join(opts)}] ({_n(x)},{_n(y)}) circle[radius={_n(r)}];")

    def lines_(self, points: Iterable[tuple[float, float]], colour: str | RGB, width: float,
               opacity: float = 1, close: bool = False, fill: bool = False) -> None:
        """A polyline through ``points`` (closed and filled when asked)."""
        path = " -- ".join(f"({_n(x)},{_n(y)})" for x, y in points) + (" -- cycle" if close else "")
        kind = f"fill={self.c(colour)}" if fill else \
            f"draw={self.c(colour)}, line width={_n(width * PT)}bp"
        alpha = f", opacity={_n(opacity)}" if opacity < 1 else ""
        self.add(f"\\path[{kind}{alpha}] {path};")


# -- textures and pieces ----------------------------------------------------------------
def _shapes(pic: _Pic, shapes: Iterable[Shape], x: float, y: float, side: int) -> None:
    """The texture ``shapes`` on a square of ``side`` pixels at ``(x, y)``, clipped to it."""
    pic.add("\\begin{scope}")
    pic.add(f"\\clip ({_n(x)},{_n(y)}) rectangle ++({side},{side});")
    for s in shapes:
        _SHAPES[type(s)](pic, s, x, y, side)
    pic.add("\\end{scope}")


def _alpha(a: int | None) -> float:
    return 1.0 if a is None else a / 255


def _tint(pic: _Pic, s: Tint, x: float, y: float, side: int) -> None:
    pic.box(x, y, side, side, fill=s.role, opacity=_alpha(s.alpha))


def _strokes(pic: _Pic, s: Strokes, x: float, y: float, side: int) -> None:
    path = " ".join(f"({_n(x + px(x0, side))},{_n(y + px(y0, side))}) -- "
                    f"({_n(x + px(x1, side))},{_n(y + px(y1, side))})"
                    for x0, y0, x1, y1 in s.segments)
    alpha = f", opacity={_n(_alpha(s.alpha))}" if s.alpha is not None else ""
    pic.add(f"\\draw[{pic.c(s.role)}, line width={_n(px(s.width, side) * PT)}bp{alpha}] {path};")


def _discs(pic: _Pic, s: Discs, x: float, y: float, side: int) -> None:
    r, colour = px(s.radius, side), pic.c(s.role)
    circles = " ".join(f"({_n(x + px(cx, side))},{_n(y + px(cy, side))}) circle[radius={r}]"
                       for cx, cy in s.centres)
    pic.add(f"\\fill[{colour}, opacity={_n(_alpha(s.alpha))}] {circles};")


def _band(pic: _Pic, s: Band, x: float, y: float, side: int) -> None:
    pic.box(x + px(s.x, side), y + px(s.y, side), px(s.w, side), px(s.h, side), draw=s.role,
            width=px(s.width, side), radius=px(s.radius, side), opacity=_alpha(s.alpha))


def _ring(pic: _Pic, s: Ring, x: float, y: float, side: int) -> None:
    pic.disc(x + px(s.cx, side), y + px(s.cy, side), px(s.r, side), draw=s.role,
             width=px(s.width, side))


def _letter(pic: _Pic, s: Letter, x: float, y: float, side: int) -> None:
    pic.text(x + px(s.x, side), y + px(s.y, side), s.text, px(s.size, side), s.style, s.role)


_CMD = re.compile(r"([MLHVCZ])([^MLHVCZ]*)")


def _path(d: str) -> str:
    """SVG path data of the absolute commands M, L, H, V, C, Z as a TikZ path."""
    out, cx, cy = [], 0.0, 0.0
    for cmd, args in _CMD.findall(d):
        v = [float(a) for a in args.replace(",", " ").split()]
        if cmd == "M":
            cx, cy = v
            out.append(f"({_n(cx)},{_n(cy)})")
        elif cmd in "LHV":
            cx, cy = (v[0], v[1]) if cmd == "L" else (v[0], cy) if cmd == "H" else (cx, v[0])
            out.append(f"-- ({_n(cx)},{_n(cy)})")
        elif cmd == "C":
            cx, cy = v[4], v[5]
            out.append(f".. controls ({_n(v[0])},{_n(v[1])}) and ({_n(v[2])},{_n(v[3])}) .. "
                       f"({_n(cx)},{_n(cy)})")
        else:
            out.append("-- cycle")
    return " ".join(out)


def _svg_colour(value: str | None) -> RGB | None:
    if not value or value == "none":
        return None
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def _art_shape(tag: str, a: dict[str, str]) -> str | None:
    """One shape of a piece drawing (its attributes ``a``) as TikZ path geometry."""
    if tag == "path":
        return _path(a["d"])
    if tag == "rect":
        return (f"[rounded corners={_n(float(a.get('rx', 0)))}] ({a['x']},{a['y']}) rectangle "
                f"++({a['width']},{a['height']})")
    if tag in ("circle", "ellipse"):
        rx, ry = a.get("rx", a.get("r")), a.get("ry", a.get("r"))
        return f"({a['cx']},{a['cy']}) ellipse[x radius={rx}, y radius={ry}]"
    return None


@functools.lru_cache(maxsize=16)
def _art_parts(symbol: str) -> tuple[tuple[str, RGB | None, RGB | None, float], ...]:
    """The piece drawing of ``symbol`` as ``(tikz path, fill, stroke, stroke width)`` in
    its 45-unit box (its file's shapes, each with the attributes its groups give it)."""
    colour = "w" if symbol.isupper() else "b"
    try:
        root = ET.parse(asset_path(f"pieces/{colour}{symbol.upper()}.svg")).getroot()
    except (OSError, ET.ParseError):
        return ()
    out = []

    def visit(node: ET.Element, inherited: dict[str, str]) -> None:
        for child in node:
            a = {**inherited, **child.attrib}
            geo = _art_shape(child.tag.rsplit("}", 1)[-1], a)
            if geo is not None:
                out.append((geo, _svg_colour(a.get("fill")), _svg_colour(a.get("stroke")),
                            float(a.get("stroke-width", 1))))
            visit(child, a)

    visit(root, {})
    return tuple(out)


def _art(pic: _Pic, s: Art, x: float, y: float, side: int) -> None:
    k = side / 45
    opacity = f", opacity={_n(s.alpha / 255)}" if s.alpha < 255 else ""
    pic.add(f"\\begin{{scope}}[shift={{({_n(x)},{_n(y)})}}, scale={k:.4f}, line join=round, "
            f"line cap=round{opacity}]")
    for geo, fill, stroke, width in _art_parts(s.symbol):
        opts = ([f"fill={pic.c(fill)}"] if fill else []) + \
            ([f"draw={pic.c(stroke)}", f"line width={_n(width * k * PT)}bp"] if stroke else [])
        pic.add(f"\\path[{', '.join(opts) or 'draw=none'}] {geo};")
    pic.add("\\end{scope}")


#: how TikZ draws each shape of a texture
_SHAPES: dict[type, Callable[[_Pic, Any, float, float, int], None]] = {
    Tint: _tint, Strokes: _strokes, Discs: _discs, Band: _band, Ring: _ring, Letter: _letter,
    Art: _art,
}


# -- marks: badges, letter boxes, pills, arrows ------------------------------------------
def _badge(pic: _Pic, bx: float, by: float, side: int, letter: str, ok: bool | None) -> None:
    """A pawn's badge (the PNG's shapes) with its box's top left at ``(bx, by)``."""
    d = max(14, side * 2 // 5)
    mark = max(7, d * 11 // 20)
    cx, cy = bx + mark // 2 + d / 2, by + d / 2
    if ok is None:
        pic.box(bx + mark // 2, by, d, d, fill="fixed", draw="black", width=max(1, d // 12),
                radius=max(2, d // 5))
    elif ok:
        pic.disc(cx, cy, d / 2, fill="ok", draw="black", width=max(1, d // 12))
    else:
        pic.disc(cx, cy, d / 2, fill="white", draw="breaks", width=max(2, d // 7))
    pic.text(cx, cy + 1, letter, int(d * 0.85), "plain", "breaks" if ok is False else "white",
             "center")
    if ok is not None:
        mx, my, w = bx, by + d - mark // 2, max(2, mark // 5)
        if ok:
            pic.disc(mx + mark / 2, my + mark / 2, mark / 2, fill="black")
            pic.lines_(((mx + mark * .22, my + mark * .52), (mx + mark * .43, my + mark * .74),
                        (mx + mark * .8, my + mark * .28)), "ok", w)
        else:
            pic.box(mx, my, mark, mark, fill="black")
            q = mark / 4
            pic.lines_(((mx + q, my + q), (mx + 3 * q, my + 3 * q)), "white", w)
            pic.lines_(((mx + 3 * q, my + q), (mx + q, my + 3 * q)), "white", w)


def _badge_width(side: int) -> int:
    d = max(14, side * 2 // 5)
    return d + max(7, d * 11 // 20) // 2


def _letter_box(pic: _Pic, bx: float, by: float, d: int, letter: str, role: str) -> None:
    pic.box(bx, by, d, d, fill=role, draw="black", width=max(1, d // 12), radius=max(2, d // 5))
    pic.text(bx + d / 2, by + d / 2, letter, max(8, d * 3 // 4), "bold", "white", "center")


def _pill(pic: _Pic, x: float, y: float, anchor: str, text: str, size: int, style: str,
          role: str, edge: int) -> None:
    """White ``text`` in a rounded box of colour ``role`` framed in black, its ``anchor``
    at ``(x, y)``."""
    em = pic.em(size, style)
    pic.add(f"\\node[anchor={anchor}, fill={pic.c(role)}, draw=black, "
            f"line width={_n(edge * PT)}bp, rounded corners={_n(5 * PT)}bp, "
            f"inner xsep={_n(4 * PT)}bp, inner ysep={_n(PT)}bp, text=white] at ({_n(x)},{_n(y)}) "
            f"{{\\fontsize{{{_n(em * PT)}bp}}{{{_n(em * PT)}bp}}{_FONTS[style]}\\selectfont "
            f"{_escape(text)}}};")


def _arrow_head(pic: _Pic, x0: float, y0: float, x1: float, y1: float, sq: int, role: str,
                width: int) -> None:
    """A move's arrow (edged in black) from ``(x0, y0)`` to ``(x1, y1)``."""
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = sq * 0.35
    bx, by = x1 - ux * head, y1 - uy * head
    px_, py_ = -uy * head * 0.6, ux * head * 0.6
    pic.lines_(((x0, y0), (bx, by)), "black", width + 4)
    pic.lines_(((x0, y0), (bx, by)), role, width)
    tip = ((x1, y1), (bx + px_, by + py_), (bx - px_, by - py_))
    pic.lines_(tip, role, 0, close=True, fill=True)
    pic.lines_(tip, "black", 2, close=True)


# -- the board's primitives ------------------------------------------------------------
class _At:
    """The board being drawn: the picture and its grid."""

    def __init__(self, pic: _Pic, part: BoardPart) -> None:
        self.pic, self.left, self.top, self.sq = pic, part.left, part.top, part.sq

    def xy(self, x: Any, y: Any) -> tuple[float, float]:
        return self.left + px(x, self.sq), self.top + px(y, self.sq)

    def corner(self, col: int, row: int) -> tuple[int, int]:
        return self.left + col * self.sq, self.top + row * self.sq


def _checker(at: _At, p: Checker) -> None:
    sq, pic = at.sq, at.pic
    pic.box(at.left - sq, at.top, 9 * sq + 2, 9 * sq, fill="background")
    for f in range(8):
        for r in range(8):
            x, y = at.corner(7 - f if p.flipped else f, r if p.flipped else 7 - r)
            pic.box(x, y, sq, sq, fill="square_light" if (f + r) % 2 else "square_dark")
    pic.box(at.left - 1, at.top, 8 * sq + 2, 8 * sq + 1, draw=(20, 20, 20))


def _coord(at: _At, p: Coord) -> None:
    x, y = at.xy(p.x, p.y)
    size = max(12, at.sq // 4)
    if p.side == "below":
        at.pic.text(x, y + 1, p.text, size, "plain", "coord", "north")
    else:
        at.pic.text(x - 3, y, p.text, size, "plain", "coord", "east")


def _texture(at: _At, kind: str, col: int, row: int) -> None:
    _shapes(at.pic, texture(kind, at.sq), *at.corner(col, row), at.sq)


def _piece(at: _At, p: Piece) -> None:
    shapes = ghost(p.symbol, at.sq) if p.ghost else (Art(p.symbol, 255),)
    _shapes(at.pic, shapes, *at.corner(p.col, p.row), at.sq)


def _line(at: _At, p: Line) -> None:
    at.pic.lines_((at.xy(p.x0, p.y0), at.xy(p.x1, p.y1)), p.role, p.pen.px(at.sq))


def _dot(at: _At, p: Dot) -> None:
    at.pic.disc(*at.xy(p.x, p.y), p.pen.px(at.sq), fill=p.role)


def _tag(at: _At, p: Tag) -> None:
    x, y = at.xy(p.x, p.y)
    size = max(13, at.sq // 4)
    if p.place == "above":
        _pill(at.pic, x, y - 2, "south", p.text, size, "plain", "structure", 1)
    else:
        _pill(at.pic, x + 1, y + at.sq - 1 - p.stack * (size + 2), "south west", p.text, size,
              "plain", "structure", 1)


def _badge_p(at: _At, p: Badge) -> None:
    x, y = at.corner(p.col, p.row)
    _badge(at.pic, x + at.sq - _badge_width(at.sq) - 1, y + 1, at.sq, p.letter, p.ok)


def _letter_box_p(at: _At, p: LetterBox) -> None:
    x, y = at.corner(p.col, p.row)
    d, inset = max(11, at.sq * 3 // 10), max(2, at.sq // 14)
    _letter_box(at.pic, x + inset, y + at.sq - d - inset, d, p.letter, p.role)


def _arrow(at: _At, p: Arrow) -> None:
    (x0, y0), (x1, y1) = at.xy(p.x0, p.y0), at.xy(p.x1, p.y1)
    _arrow_head(at.pic, x0, y0, x1, y1, at.sq, p.role, max(4, at.sq // 9))
    if p.label:
        _pill(at.pic, x0, y0 + at.sq / 2 - 2, "south", p.label, max(11, at.sq // 4), "bold",
              p.role, 2)


#: how TikZ draws each primitive type of a board
_DRAW: dict[type, Callable[[_At, Any], None]] = {
    Checker: _checker, Coord: _coord, Fill: lambda at, p: _texture(at, p.role, p.col, p.row),
    Hatch: lambda at, p: _texture(at, p.pattern, p.col, p.row),
    Outline: lambda at, p: _texture(at, OUTLINE_TEXTURES[p.style], p.col, p.row),
    Line: _line, Dot: _dot, Tag: _tag, Piece: _piece, Badge: _badge_p, LetterBox: _letter_box_p,
    Arrow: _arrow,
}


# -- the legend's primitives (pixels from the legend's top left) --------------------------
def _box(pic: _Pic, x: int, y: int, p: Box) -> None:
    if p.width:
        pic.box(x + p.x, y + p.y, p.w, p.h, draw=p.role, width=p.width)
    else:
        pic.box(x + p.x, y + p.y, p.w, p.h, fill=p.role)


def _tile(pic: _Pic, x: int, y: int, p: Tile) -> None:
    pic.add("\\begin{scope}")
    pic.add(f"\\clip ({x + p.x},{y + p.y}) rectangle ++({p.w},{p.h});")
    _shapes(pic, texture(p.kind, p.side), x + p.x, y + p.y, p.side)
    pic.add("\\end{scope}")


def _stroke(pic: _Pic, x: int, y: int, p: Stroke) -> None:
    pic.lines_(((x + p.x0, y + p.y0), (x + p.x1, y + p.y1)), p.role, p.width)


def _mark(pic: _Pic, x: int, y: int, p: Mark) -> None:
    cx, cy = x + p.cx, y + p.cy
    if p.kind in BADGE_OK:
        w = _badge_width(p.side)
        _badge(pic, cx - w // 2, cy - w // 2, p.side, p.letter, BADGE_OK[p.kind])
    else:
        d = max(11, p.side * 3 // 10)
        _letter_box(pic, cx - d // 2, cy - d // 2, d, p.letter, p.kind)


def _pointer(pic: _Pic, x: int, y: int, p: Pointer) -> None:
    x0, x1, yy, h = x + p.x, x + p.x + p.w, y + p.y + p.h // 2, p.h
    w, base = max(2, h // 5), x1 - h // 2
    tip = ((x1, yy), (base, yy - h // 2 + 1), (base, yy + h // 2 - 1))
    if p.style == "edged":
        pic.lines_(((x0, yy), (base, yy)), "black", w + 4)
    if p.style == "dashed":
        for d in range(x0, base, 6):
            pic.lines_(((d, yy), (min(d + 3, x1), yy)), p.role, w)
    else:
        pic.lines_(((x0, yy), (base, yy)), p.role, w)
    if p.style == "hollow":
        pic.lines_(tip, p.role, 2, close=True)
    else:
        pic.lines_(tip, p.role, 0, close=True, fill=True)
    if p.style == "edged":
        pic.lines_(tip, "black", 1, close=True)


def _text(pic: _Pic, x: int, y: int, p: Text) -> None:
    pic.text(x + p.x, y + p.y, p.text, p.px, p.style, p.role)


#: how TikZ draws each legend primitive type
_LEGEND_DRAW: dict[type, Callable[[_Pic, int, int, Any], None]] = {
    Box: _box, Tile: _tile, Stroke: _stroke, Mark: _mark, Pointer: _pointer, Text: _text,
}


def tikz_kinds() -> tuple[frozenset[type], frozenset[type], frozenset[type]]:
    """The primitive types TikZ draws: the board's, the legend's and the textures' shapes."""
    return frozenset(_DRAW), frozenset(_LEGEND_DRAW), frozenset(_SHAPES)


# -- the parts ----------------------------------------------------------------------------
def _lines(pic: _Pic, text: Fitted, x: int, y: int) -> None:
    for line in text.lines:
        if line.text:
            pic.text(x + line.x, y + line.y, line.text, line.px, line.style, line.colour)


def _banner(pic: _Pic, p: BannerPart) -> None:
    colour = banner_colour(p.kind)
    pic.box(p.x, p.y, p.w, p.h, fill="panel", radius=6)
    pic.add("\\begin{scope}")
    pic.add(f"\\clip ({p.x},{p.y}) rectangle ++(10,{p.h});")
    pic.box(p.x, p.y, 20, p.h, fill=colour, radius=6)
    pic.add("\\end{scope}")
    cx, cy = p.x + 18 + p.radius, p.y + 6 + p.radius
    pic.disc(cx, cy, p.radius, fill=colour)
    pic.text(cx, cy, p.icon, max(14, p.radius * 5 // 4), "bold", "black", "center")
    _lines(pic, p.text, p.text_box[0], p.text_box[1])


def _board(pic: _Pic, p: BoardPart) -> None:
    at = _At(pic, p)
    for prim in p.scene:
        _DRAW[type(prim)](at, prim)


def _legend(pic: _Pic, p: LegendPart) -> None:
    for prim in p.scene:
        _LEGEND_DRAW[type(prim)](pic, p.x, p.y, prim)


#: how TikZ draws each part of a figure
_PARTS: dict[type, Callable[[_Pic, Any], None]] = {
    BannerPart: _banner, BoardPart: _board, TextPart: lambda pic, p: _lines(pic, p.text, p.x, p.y),
    LegendPart: _legend,
}


def tikz_document(figure: Figure, colours: dict[str, RGB], metrics: Metrics) -> str:
    """``figure`` as a LaTeX document holding one ``tikzpicture`` (see the module's
    docstring); ``metrics``: the fonts' it was laid out with (no line of LaTeX's font is
    drawn wider than the figure's font draws it)."""
    pic = _Pic(colours, metrics)
    # the page is the figure (a clipped texture's lines would widen it)
    pic.add(f"\\useasboundingbox (0,0) rectangle ({figure.width},{figure.height});")
    pic.box(0, 0, figure.width, figure.height, fill="background")
    for part in figure.parts:
        _PARTS[type(part)](pic, part)
    board = next((p.board.fen() for p in figure.parts if isinstance(p, BoardPart)), "")
    defs = "\n".join(f"\\definecolor{{{name}}}{{RGB}}{{{r},{g},{b}}}"
                     for name, (r, g, b) in sorted(pic.named.items()))
    return (f"% pawnfence figure: {board}\n"
            "\\RequirePackage{fix-cm}\n\\documentclass[border=0pt]{standalone}\n"
            "\\usepackage{amssymb}\n\\usepackage{tikz}\n"
            f"{_PFTEXT}\n{defs}\n\\begin{{document}}\n"
            f"\\begin{{tikzpicture}}[x={PT}bp, y=-{PT}bp, line cap=butt]\n"
            + "\n".join(pic.lines) + "\n\\end{tikzpicture}\n\\end{document}\n")
