"""SVG export for print: a :class:`~viewer.figures.figure.Figure` (the banner, the board,
the explanation and the legend, laid out once for every back end) translated part by
part: the board's and the legend's primitives by :mod:`viewer.figures.svgboard`, the
text by :mod:`viewer.figures.svgtext` (in the PNG's own fonts, each character where the
PNG draws it, from the font metrics the figure was laid out with).

The document is self-contained and looks the same in every renderer.  Its text is drawn
as ``ExportOptions.svg_text`` says: ``"paths"`` (the default) draws each character as
its glyph's outline under an invisible copy of the text that keeps it searchable and
selectable; ``"fonts"`` writes real ``<text>`` with the subsets of the fonts it uses
embedded (for editing).

The document is one ``<svg>`` as wide as the figure, in pixel units; each part is a
group (``banner``, ``pawnfence-board``, ``legend``), each primitive a
``<g data-kind="...">``.  :func:`board_square_box` maps a square to its pixel box.  This
back end needs no pygame: the font metrics come through
:class:`viewer.figures.textfit.Metrics` (a PNG's figure: SDL_ttf's, from the pygame
back end's fonts).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from typing import Any

import chess

from viewer.figures.figure import BannerPart, BoardPart, Figure, LegendPart, TextPart, banner_colour
from viewer.figures.legend import LegendPrimitive
from viewer.figures.scene import Primitive, board_grid, board_scene
from viewer.figures.svgboard import draw_legend, draw_scene, legend_kinds, scene_kinds
from viewer.figures.svgtext import SVG_NS, Doc, el, hexc, run, run_centred
from viewer.figures.textfit import Fitted, Metrics
from viewer.model.overlay import Overlay
from viewer.model.theme import RGB

__all__ = ["figure_svg", "board_svg", "scene_svg", "legend_svg", "board_square_box",
           "svg_scene_types", "svg_legend_types"]


def board_square_box(size: int, square: chess.Square, flipped: bool,
                     top: int = 0) -> tuple[float, float, float]:
    """``(x, y, side)`` in pixels of ``square`` on a board of ``size`` pixels drawn at
    ``top``: where the PNG draws it (:func:`viewer.figures.scene.board_grid`)."""
    left, top_, sq = board_grid(0, top, size, size)
    f, r = chess.square_file(square), chess.square_rank(square)
    if flipped:
        f, r = 7 - f, 7 - r
    return left + f * sq, top_ + (7 - r) * sq, sq


def svg_scene_types() -> frozenset[type]:
    """The primitive types the SVG draws (every one of :data:`viewer.figures.scene.PRIMITIVES`)."""
    return scene_kinds()


def svg_legend_types() -> frozenset[type]:
    """The legend primitive types the SVG draws (every one of
    :data:`viewer.figures.legend.LEGEND_PRIMITIVES`)."""
    return legend_kinds()


def scene_svg(parent: ET.Element, scene: Sequence[Primitive], colours: dict[str, RGB],
              metrics: Metrics, size: int, top: int = 0, doc: Doc | None = None) -> ET.Element:
    """The primitives of ``scene`` as a group of ``parent``, on a board of ``size`` pixels
    drawn at ``top`` where the PNG draws it; each primitive is one element or a few
    (``data-kind`` names its type).  ``doc``: the document's shared parts (by default
    a ``<defs>`` of ``parent``'s own, text as outlines)."""
    if doc is None:
        doc = Doc(el(parent, "defs"), metrics)
    return draw_scene(parent, scene, colours, doc, board_grid(0, top, size, size))


def legend_svg(g: ET.Element, scene: Sequence[LegendPrimitive], colours: dict[str, RGB],
               metrics: Metrics, origin: tuple[float, float], doc: Doc | None = None) -> None:
    """The legend primitives of ``scene`` in group ``g``, their pixels counted from
    ``origin`` (each primitive a ``<g data-kind="...">``); ``doc`` as in
    :func:`scene_svg`."""
    draw_legend(g, scene, colours, origin, doc or Doc(el(g, "defs"), metrics))


def board_svg(board: chess.Board, overlay: Overlay, colours: dict[str, RGB],
              flipped: bool = False, size: int = 400, text: str = "paths", *,
              metrics: Metrics) -> ET.Element:
    """A stand-alone ``<svg>`` of ``size`` pixels: the board, pieces and coordinates with
    ``overlay`` (:func:`viewer.figures.scene.board_scene`), its labels measured with
    ``metrics``; ``text`` as in :func:`figure_svg`."""
    root = ET.Element(f"{{{SVG_NS}}}svg", {"version": "1.1", "width": str(size),
                                            "height": str(size),
                                            "viewBox": f"0 0 {size} {size}"})
    doc = Doc(el(root, "defs"), metrics, text)
    scene_svg(root, board_scene(board, overlay, flipped=flipped), colours, metrics, size,
              doc=doc)
    doc.finish()
    return root


def _lines(doc: Doc, parent: ET.Element, text: Fitted, x: float, y: float,
           colours: dict[str, RGB]) -> None:
    """The lines of ``text`` laid out in a box whose top left is ``(x, y)``."""
    for line in text.lines:
        if line.text:
            run(doc, parent, line.text, doc.face(line.px, line.style), x + line.x, y + line.y,
                hexc(colours[line.colour]))


def _banner(doc: Doc, root: ET.Element, p: BannerPart, c: dict[str, RGB]) -> None:
    """The verdict banner as the PNG draws it: the bar, its coloured stripe, the icon and
    the words at the same place and size."""
    x, y, h, r = p.x, p.y, p.h, p.radius
    colour = hexc(c[banner_colour(p.kind)])
    g = el(root, "g", id="banner")
    el(g, "rect", x=x, y=y, width=p.w, height=h, rx=6, fill=hexc(c["panel"]))
    el(g, "path", d=f"M{x + 6} {y} h4 v{h} h-4 a6 6 0 0 1 -6 -6 v{-(h - 12)} "
       f"a6 6 0 0 1 6 -6 Z", fill=colour)
    cx, cy = x + 18 + r, y + 6 + r
    el(g, "circle", cx=cx, cy=cy, r=r, fill=colour)
    run_centred(doc, g, p.icon, doc.face(max(14, r * 5 // 4), "bold"), cx, cy, "#000")
    _lines(doc, g, p.text, p.text_box[0], p.text_box[1], c)


def _board(doc: Doc, root: ET.Element, p: BoardPart, c: dict[str, RGB]) -> None:
    draw_scene(root, p.scene, c, doc, (p.left, p.top, p.sq))


def _text(doc: Doc, root: ET.Element, p: TextPart, c: dict[str, RGB]) -> None:
    _lines(doc, root, p.text, p.x, p.y, c)


def _legend(doc: Doc, root: ET.Element, p: LegendPart, c: dict[str, RGB]) -> None:
    draw_legend(el(root, "g", id="legend"), p.scene, c, (p.x, p.y), doc)


#: how the SVG draws each part of a figure
_PARTS: dict[type, Callable[[Doc, ET.Element, Any, dict[str, RGB]], None]] = {
    BannerPart: _banner, BoardPart: _board, TextPart: _text, LegendPart: _legend,
}


def figure_svg(figure: Figure, colours: dict[str, RGB], metrics: Metrics,
               text: str = "paths") -> str:
    """``figure`` as an SVG document (its text as ``text`` says: see the module's
    docstring); ``metrics`` are the fonts' metrics it was laid out with."""
    root = ET.Element(f"{{{SVG_NS}}}svg", {"version": "1.1", "width": str(figure.width)})
    doc = Doc(el(root, "defs"), metrics, text)
    bg = el(root, "rect", x=0, y=0, width=figure.width, fill=hexc(colours["background"]))
    for part in figure.parts:
        _PARTS[type(part)](doc, root, part, colours)
    doc.finish()
    root.set("height", str(figure.height))
    root.set("viewBox", f"0 0 {figure.width} {figure.height}")
    bg.set("height", str(figure.height))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
