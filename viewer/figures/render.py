"""The painter: the pygame back end's colours, fonts, pieces and caches, and what the
window draws with them (the board, its arrows, the verdict banner, the legend, wrapped
text).

``render_board`` draws the scene of :func:`viewer.figures.scene.board_scene` (a pure
function of board, overlay and keyword options, in the manner of ``chess.svg.board()``)
with :mod:`viewer.figures.raster`, which draws each primitive by its type; a picture is
the figure :func:`viewer.figures.figure.layout` lays out, drawn by
:func:`viewer.figures.raster.figure_surface`.  The same code draws the window, PNG/GIF
exports and ``pawnfence render``.  Text is laid out by :func:`viewer.figures.textfit.fit`:
it wraps and shrinks to its rectangle, never "…".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import chess
import pygame

from logic.pawns import PawnStructure
from viewer.figures import raster
from viewer.figures.figure import BANNER_ICONS, banner_icon_radius, banner_roles
from viewer.figures.fonts import Fonts
from viewer.figures.frame import frame_px
from viewer.figures.legend import (
    ARROW_STYLES,
    BADGE_OK,
    STRUCTURE_KEY,
    LegendPlan,
    LegendPrimitive,
    legend_scene,
    plan_legend,
    swatch_width,
)
from viewer.figures.pieces import PieceSet
from viewer.figures.scene import Primitive, board_grid, board_scene
from viewer.figures.textfit import Fitted, fit
from viewer.figures.tiles import Tiles, display_format
from viewer.model.overlay import EMPTY, Overlay
from viewer.model.theme import COLOURS, RGB, Block, LegendItem, Role

__all__ = ["Painter", "square_at", "board_geometry", "display_format", "banner_roles",
           "BANNER_ICONS", "banner_icon_radius", "STRUCTURE_KEY", "ARROW_STYLES", "fill_except",
           "board_cover", "swatch_width", "render_scene_types", "render_legend_types",
           "frame_px", "BADGE_OK"]


def fill_except(surface: pygame.Surface, area: pygame.Rect, holes: Sequence[pygame.Rect],
                colour: RGB) -> None:
    """Fill ``area`` but the ``holes`` (which something opaque covers next), each pixel
    once: holes side by side must share their top and bottom, stacked ones must not
    share rows."""
    holes = sorted((h.clip(area) for h in holes if h.colliderect(area)),
                   key=lambda r: (r.top, r.left))
    y = area.top
    i = 0
    while i < len(holes):
        band = [h for h in holes[i:] if h.top == holes[i].top and h.bottom == holes[i].bottom]
        top, bottom = band[0].top, band[0].bottom
        if top > y:
            surface.fill(colour, (area.left, y, area.width, top - y))
        x = area.left
        for h in band:
            if h.left > x:
                surface.fill(colour, (x, top, h.left - x, bottom - top))
            x = max(x, h.right)
        if x < area.right:
            surface.fill(colour, (x, top, area.right - x, bottom - top))
        y = max(y, bottom)
        i += len(band)
    if y < area.bottom:
        surface.fill(colour, (area.left, y, area.width, area.bottom - y))


def board_cover(rect: pygame.Rect) -> pygame.Rect:
    """The rectangle the board drawn in ``rect`` covers with opaque pixels (its squares,
    frame and coordinates), clipped to ``rect``."""
    left, top, sq = board_geometry(rect)
    return pygame.Rect(left - sq, top, 9 * sq + 2, 9 * sq).clip(rect)


def board_geometry(rect: pygame.Rect) -> tuple[int, int, int]:
    """``(left, top, square)`` of the 8x8 grid inside ``rect`` (a margin for coordinates:
    :func:`viewer.figures.scene.board_grid`)."""
    return board_grid(*rect)


def square_at(rect: pygame.Rect, pos: tuple[int, int], flipped: bool) -> chess.Square | None:
    """The square under pixel ``pos`` of a board drawn in ``rect``, or None."""
    left, top, sq = board_geometry(rect)
    fx, fy = (pos[0] - left) // sq, (pos[1] - top) // sq
    if not (0 <= fx < 8 and 0 <= fy < 8):
        return None
    return chess.square(7 - fx, fy) if flipped else chess.square(fx, 7 - fy)


class Painter:
    """Draws boards, text, banners and legends; holds the colours, fonts, pieces and
    pre-rendered tiles (:class:`~viewer.figures.tiles.Tiles`) per size, and a cache of
    drawings (text, legend, banner) the window blits every frame."""

    def __init__(self, colours: dict[str, RGB] | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.colours = {**COLOURS, **(colours or {})}
        self.pieces = PieceSet()
        #: the fonts of the window's own text (Noto Sans, Fira Code: pygame_gui's) and of
        #: the board's labels; every figure is laid out with their metrics
        self.fonts = Fonts()
        #: the textures, badges, letter boxes and ghosts per square size
        self.tiles = Tiles(self.colours, self.fonts, self.pieces)
        self._cache: dict[tuple[object, ...], pygame.Surface] = {}  # text, legend, banner
        self._fits: dict[tuple[object, ...], Fitted] = {}
        self._legend_fits: dict[tuple[object, ...], bool] = {}

    def set_colours(self, colours: dict[str, RGB]) -> None:
        """Draw in ``colours`` (over :data:`~viewer.model.theme.COLOURS`) from now on: the same
        dict changes (parts that hold it follow) and every cached drawing is dropped;
        nothing changes when those are the colours already."""
        merged = {**COLOURS, **colours}
        if merged == self.colours:
            return
        self.colours.clear()
        self.colours.update(merged)
        self.tiles.clear()
        self._cache.clear()
        self._legend_fits.clear()

    def cached(self, key: tuple[object, ...], make: Callable[[], pygame.Surface],
               alpha: bool = True) -> pygame.Surface:
        """The surface ``make`` draws, converted for fast blits (``alpha`` False: an
        opaque surface, the fastest) and kept under ``key`` (a pane's key starts with
        its name)."""
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) > 256:
                self._cache.clear()
            surf = self._cache[key] = display_format(make(), alpha)
        return surf

    # -- the board -------------------------------------------------------------------
    def render_board(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        board: chess.Board,
        *,
        overlay: Overlay = EMPTY,
        flipped: bool = False,
        coordinates: bool = True,
        hide_square: chess.Square | None = None,
        structure: PawnStructure | None = None,
    ) -> None:
        """Draw ``board`` with ``overlay`` into ``rect`` of ``surface``: the primitives of
        :func:`viewer.figures.scene.board_scene` (which takes the same keyword options)."""
        self.render_scene(surface, rect, board_scene(
            board, overlay, flipped=flipped, coordinates=coordinates, hide_square=hide_square,
            structure=structure))

    def render_scene(self, surface: pygame.Surface, rect: pygame.Rect,
                     scene: Sequence[Primitive]) -> None:
        """Draw the primitives of ``scene`` on a board laid out in ``rect``
        (:func:`board_geometry`), each by its type (:func:`viewer.figures.raster.draw_scene`)."""
        raster.draw_scene(self, surface, rect, scene)

    def render_arrows(self, surface: pygame.Surface, rect: pygame.Rect, moves: list[str], *,
                      flipped: bool = False, colour: RGB = (0, 114, 178),
                      style: str = "solid", offset: float = 0.0) -> None:
        """Arrows for UCI ``moves`` on a board drawn in ``rect``: ``style`` ``solid``,
        ``dashed`` (a dashed shaft), ``hollow`` (an outlined head and shaft) or ``edged``
        (solid with a black edge: a move of the exact prover's line), so the
        arrows differ by shape as well as colour; ``offset`` shifts an arrow sideways by
        that many squares (arrows of the same move stay apart)."""
        left, top, sq = board_geometry(rect)

        def centre(s: int) -> tuple[float, float]:
            f, r = chess.square_file(s), chess.square_rank(s)
            if flipped:
                f, r = 7 - f, 7 - r
            return left + f * sq + sq / 2, top + (7 - r) * sq + sq / 2

        for uci in moves:
            try:
                move = chess.Move.from_uci(uci)
            except ValueError:
                continue
            (x0, y0), (x1, y1) = centre(move.from_square), centre(move.to_square)
            dx, dy = x1 - x0, y1 - y0
            length = max(1.0, math.hypot(dx, dy))
            ux, uy = dx / length, dy / length
            ox, oy = -uy * offset * sq, ux * offset * sq
            x0, y0, x1, y1 = x0 + ox, y0 + oy, x1 + ox, y1 + oy
            raster.draw_arrow(surface, (x0, y0), (x1, y1), sq, colour, style, (ux, uy))

    def arrow_label(self, surface: pygame.Surface, rect: pygame.Rect,
                    arrow: tuple[int, int, str], *, flipped: bool = False) -> None:
        """The label of a move's arrow alone, low on the square ``arrow[0]`` of a board
        drawn in ``rect`` (the window draws it again over the analysis's arrows)."""
        a, _b, label = arrow
        if not label or not 0 <= a < 64:
            return
        left, top, sq = board_geometry(rect)
        f, r = chess.square_file(a), chess.square_rank(a)
        if flipped:
            f, r = 7 - f, 7 - r
        raster.draw_label(self, surface, rect, (left + f * sq + sq / 2, top + (7 - r) * sq
                                                 + sq / 2), sq, label)

    def arrow_swatch(self, surface: pygame.Surface, swatch: pygame.Rect, colour: RGB,
                     style: str) -> None:
        """A short arrow in ``swatch`` drawn in ``style`` (solid, dashed, hollow, edged)."""
        raster.arrow_swatch(surface, swatch, colour, style)

    # -- text ------------------------------------------------------------------------
    def fit_text(self, blocks: Sequence[Block], width: int, height: int,
                 roles: Mapping[str, Role], **kw: Any) -> Fitted:
        """:func:`viewer.figures.textfit.fit` with this painter's fonts (cached)."""
        key = ("fit", tuple(blocks), width, height, tuple(sorted(roles.items())),
               tuple(sorted(kw.items())))
        got = self._fits.get(key)
        if got is None:
            if len(self._fits) > 512:
                self._fits.clear()
            got = self._fits[key] = fit(self.fonts, blocks, width, height, roles, **kw)
        return got

    def render_text(self, surface: pygame.Surface, rect: pygame.Rect, blocks: Sequence[Block],
                    roles: Mapping[str, Role], **kw: Any) -> Fitted:
        """Draw ``blocks`` wrapped and fitted into ``rect`` (cached); returns the layout."""
        fitted = self.fit_text(blocks, rect.width, rect.height, roles, **kw)
        surface.blit(raster.text_surface(self, fitted, rect.size), rect)
        return fitted

    def render_banner(self, surface: pygame.Surface, rect: pygame.Rect, kind: str,
                      blocks: Sequence[Block], px: int, most: float = 1.0,
                      least: float = 0.45) -> Fitted:
        """The verdict banner: a bar coloured by ``kind`` (blocked / open / na / busy) with
        an icon (½, !, ?, … while a proof runs) and ``blocks`` wrapped in
        :func:`banner_roles` sizes for ``px`` (grown up to ``most`` times when there is
        room, shrunk down to ``least`` times when there is not)."""
        icon_r = banner_icon_radius(rect.height, px)
        text_rect = pygame.Rect(rect.left + 30 + 2 * icon_r, rect.top + 4,
                                rect.width - 38 - 2 * icon_r, rect.height - 8)
        surface.blit(raster.banner_surface(self, rect.size, kind, icon_r), rect)
        return self.render_text(surface, text_rect, blocks, banner_roles(px), most=most,
                                least=least)

    # -- legend ------------------------------------------------------------------------
    def render_legend(self, surface: pygame.Surface, rect: pygame.Rect,
                      items: Sequence[LegendItem], px: int, *, structure: bool = False,
                      background: RGB | None = None) -> bool:
        """The legend (cached per size and items) in ``rect``: a swatch and wrapped words
        per item in as many columns as fit, the structure layer's key under it; shrinks
        the text to fit (on ``background``, opaque, when given).  Returns whether
        everything fitted."""
        key = ("legend", rect.size, tuple(items), px, structure, background)
        surf = self._cache.get(key)
        if surf is None:
            plan = self.legend_plan(rect.size, items, px, structure)
            surf = pygame.Surface(rect.size, pygame.SRCALPHA)
            self.render_legend_scene(surf, (0, 0), legend_scene(items, plan, self.fonts)[0])
            if background is not None:
                opaque = pygame.Surface(rect.size)
                opaque.fill(background)
                opaque.blit(surf, (0, 0))
                surf = opaque
            surf = display_format(surf, alpha=background is None)
            self._cache[key] = surf
            self._legend_fits[key] = plan.fits
        surface.blit(surf, rect)
        return self._legend_fits.get(key, True)

    def legend_plan(self, size: tuple[int, int], items: Sequence[LegendItem], px: int,
                    structure: bool) -> LegendPlan:
        """The largest text size (from ``px`` down) at which ``items`` fit in ``size``,
        and the layout at that size (:func:`viewer.figures.legend.plan_legend`)."""
        return plan_legend(self.fonts, items, size, px, structure)

    def render_legend_scene(self, surface: pygame.Surface, origin: tuple[int, int],
                            scene: Sequence[LegendPrimitive]) -> None:
        """Draw the legend primitives of ``scene`` with their pixels offset by ``origin``,
        each by its type (:func:`viewer.figures.raster.draw_legend_scene`)."""
        raster.draw_legend_scene(self, surface, origin, scene)


def render_legend_types() -> frozenset[type]:
    """The legend primitive types :class:`Painter` draws (every one of
    :data:`viewer.figures.legend.LEGEND_PRIMITIVES`)."""
    return raster.legend_types()


def render_scene_types() -> frozenset[type]:
    """The primitive types :class:`Painter` draws (every one of
    :data:`viewer.figures.scene.PRIMITIVES`)."""
    return raster.scene_types()
