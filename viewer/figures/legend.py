"""The legend as a scene: each item's swatch drawn as the board draws what it names
(:class:`Tile`: a square's texture; :class:`Mark`: a badge or a king map's letter box;
:class:`Pointer`: a short arrow; :class:`Box`, :class:`Stroke`) and its words
(:class:`Text`), laid out in columns by :func:`plan_legend` (the largest text size at
which the items fit, the words wrapped in each column) and placed by :func:`legend_scene`.

Coordinates are whole *pixels* from the legend's top left: the layout follows the fonts'
metrics, which every back end reads through :class:`viewer.figures.textfit.Metrics`, so
the PNG and the SVG place every swatch and word at the same pixel.  Which items a legend
holds is the frame's choice (:meth:`viewer.figures.frame.Frame.legend`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from viewer.figures.scene import HATCHES
from viewer.figures.textfit import Metrics, wrap
from viewer.model.theme import LegendItem

__all__ = ["TILES", "ARROW_STYLES", "Box", "Tile", "Stroke", "Mark", "Pointer", "Text",
           "LegendPrimitive", "LEGEND_PRIMITIVES", "LegendPlan", "plan_legend", "legend_scene",
           "swatch_scene", "swatch_width", "STRUCTURE_KEY", "BADGE_OK"]

#: the pawn-structure layer's key, under the legend
STRUCTURE_KEY = ("pawn structure: R ram · L lever · bw backward · S straggler; files open / "
                 "closed / ½ open (half-open for W or B)")
#: a pawn badge's kind (:class:`Mark`) -> its ``ok`` (:class:`viewer.figures.scene.Badge`)
BADGE_OK: dict[str, bool | None] = {"fixed": None, "holds": True, "breaks": False}


#: the textures a :class:`Tile` shows: the board's hatches, a processed square's tint, a
#: removed pawn's rings and a ghost pawn
TILES = (*HATCHES, "processed", "fresh", "ghost")
#: the analysis pane's arrows: colour role -> style (solid, dashed, hollow head)
ARROW_STYLES = {"arrow_with": "solid", "arrow_without": "dashed", "arrow_engine": "hollow"}


class Box(NamedTuple):
    """A rectangle of ``w`` x ``h`` pixels at ``(x, y)``: filled with colour ``role``
    (``width`` 0) or its outline, ``width`` pixels wide inside the rectangle."""

    x: int
    y: int
    w: int
    h: int
    role: str
    width: int = 0


class Tile(NamedTuple):
    """The texture ``kind`` (one of :data:`TILES`) as the board draws it on a square of
    ``side`` pixels whose top left is ``(x, y)``, cut to ``w`` x ``h`` pixels."""

    x: int
    y: int
    w: int
    h: int
    kind: str
    side: int


class Stroke(NamedTuple):
    """A line from ``(x0, y0)`` to ``(x1, y1)`` (pixels), ``width`` pixels wide, in
    colour ``role``."""

    x0: int
    y0: int
    x1: int
    y1: int
    role: str
    width: int


class Mark(NamedTuple):
    """A board mark drawn for squares of ``side`` pixels and centred on ``(cx, cy)``:
    ``kind`` ``fixed`` / ``holds`` / ``breaks`` a pawn's badge (:class:`Badge` with ``ok``
    None / True / False), ``kingmap_holds`` / ``kingmap_breaks`` the king map's
    :class:`LetterBox`; ``letter`` inside."""

    cx: int
    cy: int
    kind: str
    letter: str
    side: int


class Pointer(NamedTuple):
    """A short arrow across the box ``(x, y, w, h)`` pointing right, in colour ``role``
    and ``style`` (``solid``, ``dashed``, ``hollow``, ``edged``: the board's move)."""

    x: int
    y: int
    w: int
    h: int
    role: str
    style: str


class Text(NamedTuple):
    """A run of text whose line box's top left is ``(x, y)``, at ``px`` pixels in font
    ``style`` (regular, bold, …) and colour ``role``."""

    x: int
    y: int
    text: str
    px: int
    style: str
    role: str


LegendPrimitive = Box | Tile | Stroke | Mark | Pointer | Text
#: every legend primitive type
LEGEND_PRIMITIVES: tuple[type, ...] = (Box, Tile, Stroke, Mark, Pointer, Text)

def swatch_width(item: LegendItem, sw: int) -> int:
    """The width of a legend item's swatch for swatches of ``sw`` pixels: three squares
    for the composite ones, two for a move."""
    if item.style == "move":
        return 2 * sw
    return 3 * sw + 4 if item.style in ("recompute", "arrows", "letters") else sw


def _centre_of(x: int, y: int, w: int, h: int) -> tuple[int, int]:
    """The centre pixel of a box (rounded down, as a pygame ``Rect``'s)."""
    return x + w // 2, y + h // 2


def _letters(item: LegendItem, x: int, y: int, w: int, h: int,
             metrics: Metrics) -> list[LegendPrimitive]:
    """The item's letters, as large as fit the swatch, centred on its height."""
    px = max(8, h * 3 // 4)
    while metrics.get(px, "bold").size(item.letter)[0] > w and px > 8:
        px -= 1
    th = metrics.get(px, "bold").size(item.letter)[1]
    return [Text(x=x, y=y + h // 2 - th // 2, text=item.letter, px=px, style="bold",
                 role=item.colour)]


def _swatch_square(item: LegendItem, x: int, y: int, w: int,
                   h: int) -> list[LegendPrimitive] | None:
    """The swatches on a light square (None for the others)."""
    style, light = item.style, Box(x, y, w, h, "square_light")
    if style in ("hatch", "fence", "dots", "key", "joined", "left", "fresh", "ghost"):
        return [light, Tile(x, y, w, h, style, w)]
    if style in ("outline", "edge"):
        return [light, Box(x, y, w, h, item.colour, 3)]
    if style == "thin":
        return [light, Box(x + 2, y + 2, w - 4, h - 4, item.colour, 2)]
    if style == "cross":
        return [light, Stroke(x, y, x + w, y + h, item.colour, 3),
                Stroke(x + w, y, x, y + h, item.colour, 3)]
    if style == "kingmap":
        cx, cy = _centre_of(x, y, w, h)
        return [light, Tile(x, y, w, h, item.colour, w),
                Mark(cx, cy, item.colour, item.letter, w * 5 // 3)]
    if style == "dfs":  # a square done (left half) and the path across, as on the board
        pen = max(3, h // 5)
        return [light, Tile(x, y, w // 2, h, "processed", w),
                Stroke(x + pen, y + h // 2, x + w - pen, y + h // 2, item.colour, pen)]
    return None


def swatch_scene(item: LegendItem, x: int, y: int, w: int, h: int,
                 metrics: Metrics) -> list[LegendPrimitive]:
    """The primitives of ``item``'s swatch in the box ``(x, y, w, h)`` (pixels), drawn as
    the board draws the item."""
    square = _swatch_square(item, x, y, w, h)
    if square is not None:
        return square
    style = item.style
    if style in ("fixed", "holds", "breaks"):
        cx, cy = _centre_of(x, y, w, h)
        return [Mark(cx, cy, style, item.letter, w * 5 // 2)]
    if style == "letters":
        return _letters(item, x, y, w, h, metrics)
    if style == "recompute":  # joined, left, taken now: three squares
        out: list[LegendPrimitive] = []
        for k, kind in enumerate(("joined", "left", "fresh")):
            bx = x + k * (h + 2)
            out += [Box(bx, y, h, h, "square_light"), Tile(bx, y, h, h, kind, h)]
        return out
    if style == "move":
        return [Pointer(x, y, w, h, item.colour, "edged")]
    if style == "arrows":
        third = w // 3
        return [Pointer(x + k * third + 1, y, third - 2, h, role, kind)
                for k, (role, kind) in enumerate(ARROW_STYLES.items())]
    return []


class LegendPlan(NamedTuple):
    """A legend's layout (:func:`plan_legend`): the text size ``px``, ``columns`` of
    ``width`` pixels in all, each item's wrapped ``labels``, the font's ``line`` height,
    the structure key's wrapped lines (``key``, empty when there is none), the
    ``height`` it takes and whether that ``fits`` the height asked for."""

    px: int
    columns: int
    width: int
    labels: tuple[tuple[str, ...], ...]
    line: int
    key: tuple[str, ...]
    height: int
    fits: bool


def plan_legend(metrics: Metrics, items: Sequence[LegendItem], size: tuple[int, int], px: int,
                structure: bool = False) -> LegendPlan:
    """The layout of ``items`` (and the structure layer's key under them when
    ``structure``) in ``size`` pixels: the largest text size from ``px`` down (to 9) at
    which they fit, in up to four columns."""
    w, h = size
    size_px = px
    while True:
        font = metrics.get(size_px)
        sw, line = size_px + 6, font.get_linesize()
        cols = max(1, min(4, w // max(1, size_px * 17)))
        col_w = w // cols
        labels = [wrap(font, item.text, col_w - swatch_width(item, sw) - 14) for item in items]
        rows = [labels[i:i + cols] for i in range(0, len(labels), cols)]
        height = sum(max(max(len(lb) * line for lb in row), sw) + 4 for row in rows)
        key = wrap(font, STRUCTURE_KEY, w) if structure else []
        if structure:
            height += len(key) * line + 4
        if height <= h or size_px <= 9:
            return LegendPlan(size_px, cols, w, tuple(tuple(lb) for lb in labels), line,
                              tuple(key), height, height <= h)
        size_px -= 1


def legend_scene(items: Sequence[LegendItem], plan: LegendPlan,
                 metrics: Metrics) -> tuple[tuple[LegendPrimitive, ...], int]:
    """The primitives of the legend laid out by ``plan`` (pixels from its top left) and
    its height: row by row, in each column a swatch (:func:`swatch_scene`) and the item's
    wrapped words, then the structure key."""
    sw, col_w = plan.px + 6, plan.width // plan.columns
    out: list[LegendPrimitive] = []
    y = 0
    for r0 in range(0, len(items), plan.columns):
        row_h = sw
        for i in range(r0, min(r0 + plan.columns, len(items))):
            x = (i - r0) * col_w
            w = swatch_width(items[i], sw)
            out += swatch_scene(items[i], x, y + 1, w, sw - 2, metrics)
            out += [Text(x=x + w + 8, y=y + k * plan.line, text=words, px=plan.px,
                         style="regular", role="text")
                    for k, words in enumerate(plan.labels[i])]
            row_h = max(row_h, len(plan.labels[i]) * plan.line)
        y += row_h + 4
    for words in plan.key:
        out.append(Text(x=0, y=y, text=words, px=plan.px, style="regular", role="structure"))
        y += plan.line
    return tuple(out), y
