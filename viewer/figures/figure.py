"""The whole figure laid out once: the verdict banner, the board, the explanation under it
and the legend, each a placed part with its pixel box (:class:`Figure`), from a frame
(:class:`viewer.figures.frame.Frame`), the user's :class:`~viewer.model.state.ExportOptions`
and the back end's font metrics (:class:`viewer.figures.textfit.Metrics`).

Every back end only translates a :class:`Figure`: the pygame painter (PNG, GIF), the
SVG (:mod:`viewer.figures.svg`).  Text is laid out here
(:func:`viewer.figures.textfit.fit`: lines placed in their boxes), the board is its scene
(:func:`viewer.figures.scene.board_scene`) on the grid :func:`viewer.figures.scene.board_grid`
lays out, the legend its primitives (:func:`viewer.figures.legend.legend_scene`).

The figure is ``options.size`` pixels wide; its parts are stacked with a pad of
``max(4, size // 80)`` around each, and it is as tall as they need: text and legend
scale with the size and wrap, nothing is cut.  A GIF's frames share a banner height, a
legend and an explanation height (:func:`trace_layouts`), so the board and the legend
stay in place from frame to frame.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

import chess

from viewer.figures.frame import Frame, frame_px
from viewer.figures.legend import LegendPlan, LegendPrimitive, legend_scene, plan_legend
from viewer.figures.scene import Primitive, board_grid, board_scene
from viewer.figures.textfit import Fitted, Metrics, fit
from viewer.model.overlay import EMPTY, Overlay
from viewer.model.theme import Block, LegendItem, Role

if TYPE_CHECKING:
    from viewer.model.state import ExportOptions
    from viewer.model.text import Banner

__all__ = ["Figure", "BannerPart", "BoardPart", "TextPart", "LegendPart", "Part", "PARTS",
           "layout", "trace_layouts", "banner_roles", "BANNER_ICONS", "banner_icon_radius",
           "banner_height", "gif_banner_height", "explanation_height", "GIF_TEXT", "fitted",
           "banner_colour"]

#: the banner's icon by kind (a shape and a sign besides the bar's colour)
BANNER_ICONS = {"blocked": "½", "open": "!", "busy": "…"}
#: the ratios a GIF's banner text is drawn at, of its size in a picture of its own: at
#: least the first (the banner is as tall as the tallest text needs at that ratio) and at
#: most the second (a short text grows into the room, so no banner ends in an empty band)
GIF_TEXT = (0.75, 1.3)


def banner_roles(px: int) -> dict[str, Role]:
    """The banner's text roles for a body size of ``px`` pixels."""
    return {"head": Role(round(px * 1.6), "bold"), "sub": Role(px, least=0.85),
            "muted": Role(px, "regular", "muted", 0.85),
            "label": Role(round(px * 0.9), "regular", "muted", 0.85)}


def banner_icon_radius(height: int, px: int) -> int:
    """The radius of the banner's icon in a banner ``height`` pixels tall whose body text
    is ``px``; the text starts ``30 + 2 * radius`` pixels from the banner's left edge and
    ends 8 pixels before its right."""
    return max(9, min(height * 3 // 10, px * 3 // 2))


def banner_colour(kind: str) -> str:
    """The colour role of a banner's bar and icon of ``kind``."""
    return {"blocked": "banner_blocked", "open": "banner_open"}.get(kind, "banner_na")


@functools.lru_cache(maxsize=512)
def _fit(metrics: Metrics, blocks: tuple[Block, ...], width: int, height: int,
         roles: tuple[tuple[str, Role], ...], least: float, most: float) -> Fitted:
    return fit(metrics, blocks, width, height, dict(roles), least=least, most=most)


def fitted(metrics: Metrics, blocks: Sequence[Block], width: int, height: int,
           roles: Mapping[str, Role], *, least: float = 0.45, most: float = 1.0) -> Fitted:
    """:func:`viewer.figures.textfit.fit` (cached: a GIF asks for each text twice)."""
    return _fit(metrics, tuple(blocks), width, height, tuple(sorted(roles.items())), least,
                most)


def _pad(size: int) -> int:
    """The pad around each part of a figure whose board is ``size`` pixels."""
    return max(4, size // 80)


def banner_height(metrics: Metrics, b: Banner, options: ExportOptions) -> int:
    """The height banner ``b`` takes in a picture made with ``options``."""
    size, px = options.size, frame_px(options.size)
    width = size - 2 * _pad(size)
    icon = max(9, min(px * 3 // 2, 60))
    text = fitted(metrics, b.blocks, width - 38 - 2 * icon, 100_000, banner_roles(px))
    return max(text.height + 8, 2 * icon + 12)


def gif_banner_height(metrics: Metrics, banners: list[Banner], options: ExportOptions) -> int:
    """The height every banner of a GIF shares: the tallest its text needs at
    ``GIF_TEXT[0]`` of its size (never less than the icon needs)."""
    size, px = options.size, frame_px(options.size)
    width = size - 2 * _pad(size)
    icon = max(9, min(px * 3 // 2, 60))
    least = GIF_TEXT[0]
    need = max(fitted(metrics, b.blocks, width - 38 - 2 * icon, 100_000, banner_roles(px),
                      least=least, most=least).height for b in banners)
    return max(need + 8, 2 * icon + 12)


def explanation_height(metrics: Metrics, frame: Frame, options: ExportOptions) -> int:
    """The height of ``frame``'s explanation in a picture made with ``options``."""
    size, px = options.size, frame_px(options.size)
    return fitted(metrics, [Block(frame.explanation(), "sub")], size - 2 * _pad(size),
                  100_000, {"sub": Role(px)}).height


class BannerPart(NamedTuple):
    """The verdict banner in the box ``(x, y, w, h)``: a bar coloured by ``kind``
    (:func:`banner_colour`) with a stripe on its left, a disc of ``radius`` with the
    sign ``icon``, and the words laid out (``text``) in the box ``text_box``."""

    x: int
    y: int
    w: int
    h: int
    kind: str
    icon: str
    radius: int
    text_box: tuple[int, int, int, int]
    text: Fitted


class BoardPart(NamedTuple):
    """The board in the square ``(x, y, size, size)``: its grid's top left
    ``(left, top)`` and square ``sq`` (:func:`viewer.figures.scene.board_grid`), its
    primitives (``scene``) and what they were drawn from (the ``board``, the ``overlay``
    on show, the orientation): a back end that names squares rather than drawing them
    (LaTeX's ``chessboard``) reads those."""

    x: int
    y: int
    size: int
    left: int
    top: int
    sq: int
    scene: tuple[Primitive, ...]
    board: chess.Board
    overlay: Overlay
    flipped: bool


class TextPart(NamedTuple):
    """Words laid out (``text``) in the box ``(x, y, w, h)``."""

    x: int
    y: int
    w: int
    h: int
    text: Fitted


class LegendPart(NamedTuple):
    """The legend in the box ``(x, y, w, h)``: its layout and its primitives (pixels
    from the box's top left)."""

    x: int
    y: int
    w: int
    h: int
    plan: LegendPlan
    scene: tuple[LegendPrimitive, ...]


Part = BannerPart | BoardPart | TextPart | LegendPart
#: every part type
PARTS: tuple[type, ...] = (BannerPart, BoardPart, TextPart, LegendPart)


class Figure(NamedTuple):
    """A figure ``width`` x ``height`` pixels on the theme's ``background``: its parts
    from top to bottom."""

    width: int
    height: int
    parts: tuple[Part, ...]


def _banner(metrics: Metrics, b: Banner, box: tuple[int, int, int, int], px: int,
            fixed: bool) -> BannerPart:
    x, y, w, h = box
    r = banner_icon_radius(h, px)
    text_box = (x + 30 + 2 * r, y + 4, w - 38 - 2 * r, h - 8)
    least, most = GIF_TEXT if fixed else (0.45, 1.0)
    text = fitted(metrics, b.blocks, text_box[2], text_box[3], banner_roles(px), least=least,
                  most=most)
    return BannerPart(x, y, w, h, b.kind, BANNER_ICONS.get(b.kind, "?"), r, text_box, text)


def _board(frame: Frame, overlay: Overlay, y: int, size: int) -> BoardPart:
    left, top, sq = board_grid(0, y, size, size)
    scene = board_scene(frame.board, overlay, flipped=frame.flipped)
    return BoardPart(0, y, size, left, top, sq, scene, frame.board, overlay, frame.flipped)


def layout(frame: Frame, options: ExportOptions, metrics: Metrics, *,
           overlay: Overlay | None = None, banner_fixed: int = 0,
           legend: tuple[LegendItem, ...] | None = None,
           explanation_at_least: int = 0) -> Figure:
    """The figure of ``frame``: the banner, the board (with its overlay), the explanation
    and the legend, each as ``options`` says.  A ``banner_fixed`` height (a GIF's frames
    share one, :func:`gif_banner_height`) makes the banner that tall, its text grown or
    shrunk to fill it (:data:`GIF_TEXT`); ``overlay`` replaces the frame's own,
    ``legend`` its lines, and the explanation takes at least ``explanation_at_least``
    pixels (a GIF's frames share those)."""
    size, px, pad = options.size, frame_px(options.size), _pad(options.size)
    width = size - 2 * pad
    parts: list[Part] = []
    y = pad
    if options.banner:
        b = frame.banner()
        h = banner_fixed or banner_height(metrics, b, options)
        parts.append(_banner(metrics, b, (pad, y, width, h), px, bool(banner_fixed)))
        y += h + pad
    ov = (overlay if overlay is not None else frame.overlay()) if options.overlays else EMPTY
    parts.append(_board(frame, ov, y, size))
    y += size + pad
    if options.explanation:
        h = max(explanation_at_least, explanation_height(metrics, frame, options)) + pad
        text = fitted(metrics, [Block(frame.explanation(), "sub")], width, h, {"sub": Role(px)})
        parts.append(TextPart(pad, y, width, h, text))
        y += h + pad
    items = (frame.legend(ov) if legend is None else legend) if options.legend else ()
    if items:
        plan = plan_legend(metrics, items, (width, 100_000), px)
        h = plan.height + pad
        # the box's own plan: the same size and lines (the legend fits its height)
        plan = plan_legend(metrics, items, (width, h), px)
        scene, _used = legend_scene(items, plan, metrics)
        parts.append(LegendPart(pad, y, width, h, plan, scene))
        y += h + pad
    return Figure(size, y, tuple(parts))


def trace_layouts(frame: Frame, options: ExportOptions, metrics: Metrics) -> Iterator[Figure]:
    """One figure per step of the frame's verdict, then the live verdict; every banner of
    one height (:func:`gif_banner_height`) that its text fills, so the board does not jump
    from frame to frame and no banner ends in an empty band, and one legend for all under
    explanations padded to the longest: the lines of anything some frame draws, in the
    method's order (a legend that changed with every frame jumped under the board)."""
    v = frame.verdict
    frames = [frame.at(k) for k in range(len(v.steps) if v is not None else 0)]
    frames.append(frame.at(None))
    fixed = gif_banner_height(metrics, [f.banner() for f in frames], options) \
        if options.banner else 0
    overlays = [f.overlay() if options.overlays else EMPTY for f in frames]
    drawn = {item for f, ov in zip(frames, overlays, strict=True) for item in f.legend(ov)}
    legend = tuple(i for i in frame.legend_lines() if i in drawn)
    longest = max(explanation_height(metrics, f, options) for f in frames) \
        if options.explanation else 0
    for f, ov in zip(frames, overlays, strict=True):
        yield layout(f, options, metrics, overlay=ov, banner_fixed=fixed, legend=legend,
                     explanation_at_least=longest)
