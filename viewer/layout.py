"""Where everything goes, from the window size alone (no widgets, no state).

The window is a left column (banner, board, legend) and a right panel.  The panel is
a column of rows declared as data (:data:`TOP_ROWS`, :data:`BOTTOM_ROWS`): the top
rows are anchored to the panel's top, the bottom rows to its bottom, and one row
(``library``) takes the height that is left between them.  Each row splits its width
into cells by weight.  Nothing adds up running y offsets by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import pygame

__all__ = ["Row", "Layout", "TOP_ROWS", "BOTTOM_ROWS", "MIN_SIZE", "compute_layout"]

#: the smallest window the layout is designed for
MIN_SIZE = (760, 560)


class Row(NamedTuple):
    """A panel row: ``height`` pixels, then ``gap`` pixels of space; ``cells`` name the
    widgets side by side with their width weights (``0`` = a fixed ``fixed`` width)."""

    height: int
    gap: int
    cells: tuple[tuple[str, float], ...]
    fixed: int = 0
    #: the height the row may shrink to when the window is short (scrolling text boxes)
    least: int = 0


#: rows anchored to the top of the panel, in order
TOP_ROWS: tuple[Row, ...] = (
    Row(30, 4, (("tool:K", 1), ("tool:P", 1), ("tool:k", 1), ("tool:p", 1), ("tool:x", 1))),
    Row(30, 4, (("other", 1), ("turn", 1))),
    Row(30, 4, (("flip", 1), ("clear", 1), ("help", 1))),
    Row(30, 6, (("undo", 1), ("redo", 1), ("copy", 1), ("paste", 1))),
    Row(32, 2, (("fen", 1),)),
    Row(22, 4, (("fen_status", 1),)),
    Row(30, 4, (("method", 1), ("side", 1))),
    Row(28, 8, (("structure", 1), ("search", 1))),
    Row(30, 4, (("play:first", 1), ("play:prev", 1), ("play:toggle", 1), ("play:next", 1),
                ("play:last", 1))),
    Row(22, 2, (("step", 1),)),
    Row(24, 4, (("scrubber", 1),)),
    Row(24, 6, (("speed_label", 0), ("speed", 1)), fixed=110),
    Row(104, 6, (("explain", 1),), least=52),
)
#: the row that fills the space between the top and the bottom rows
FILL = "library"
FILL_LEAST = 60
#: rows anchored to the bottom of the panel, top to bottom
BOTTOM_ROWS: tuple[Row, ...] = (
    Row(96, 4, (("caption", 1),), least=52),
    Row(30, 10, (("png", 1), ("gif", 1), ("add", 2))),
)
PAD, SPACING = 10, 4


@dataclass(frozen=True)
class Layout:
    """The rectangles of one window size: ``banner``, ``board``, ``legend``, ``panel``
    and ``cells`` (widget name -> rectangle inside the panel)."""

    size: tuple[int, int]
    banner: pygame.Rect
    board: pygame.Rect
    legend: pygame.Rect
    panel: pygame.Rect
    cells: dict[str, pygame.Rect] = field(default_factory=dict)

    def cell(self, name: str) -> pygame.Rect:
        """The rectangle of widget ``name``."""
        return self.cells[name]


def _row_cells(row: Row, x0: int, y: int, width: int) -> dict[str, pygame.Rect]:
    n = len(row.cells)
    free = width - SPACING * (n - 1) - sum(row.fixed + 2 for _name, w in row.cells if w == 0)
    total = sum(w for _name, w in row.cells)
    unit = free // n if all(w == 1 for _n, w in row.cells) else None
    out, x = {}, x0
    for name, weight in row.cells:
        if weight == 0:
            w = row.fixed
        elif unit is not None:
            w = unit
        else:
            w = int(free * weight / total)
        out[name] = pygame.Rect(x, y, w, row.height)
        x += w + SPACING if weight else w + 2
    return out


def compute_layout(size: tuple[int, int], *, structure: bool = False) -> Layout:
    """The layout of a window of ``size``; ``structure`` makes room for the pawn-structure
    layer's file tags above the board and its key under the legend."""
    w, h = size
    panel_w = max(330, min(420, w * 34 // 100))
    left_w = w - panel_w
    banner = pygame.Rect(8, 6, left_w - 16, 64)
    legend_h = 96 + (20 if structure else 0)
    tags = 22 if structure else 0
    board = pygame.Rect(4, banner.bottom + 4 + tags, left_w - 8,
                        h - banner.bottom - legend_h - 12 - tags)
    legend = pygame.Rect(12, board.bottom + 6, left_w - 24, legend_h)
    panel = pygame.Rect(left_w, 0, panel_w, h)
    x0, width = panel.left + PAD, panel.width - 2 * PAD
    top, bottom_rows = _shrink(TOP_ROWS, BOTTOM_ROWS, panel.height)
    cells: dict[str, pygame.Rect] = {}
    y = 8
    for row in top:
        cells.update(_row_cells(row, x0, y, width))
        y += row.height + row.gap
    bottom = panel.bottom
    for row in reversed(bottom_rows):
        bottom -= row.height + row.gap
        cells.update(_row_cells(row, x0, bottom, width))
    cells[FILL] = pygame.Rect(x0, y, width, max(FILL_LEAST, bottom - y - 4))
    return Layout((w, h), banner, board, legend, panel, cells)


def _shrink(top: tuple[Row, ...], bottom: tuple[Row, ...], height: int
            ) -> tuple[tuple[Row, ...], tuple[Row, ...]]:
    """The rows with the shrinkable ones made shorter (never below ``least``) when the
    fill row would get less than ``FILL_LEAST`` pixels."""
    used = 8 + sum(r.height + r.gap for r in top + bottom) + 4
    deficit = FILL_LEAST - (height - used)
    slack = sum(r.height - r.least for r in top + bottom if r.least)
    if deficit <= 0 or not slack:
        return top, bottom
    share = min(1.0, deficit / slack)

    def cut(rows: tuple[Row, ...]) -> tuple[Row, ...]:
        return tuple(r._replace(height=r.height - int(-(-(r.height - r.least) * share // 1)))
                     if r.least else r for r in rows)

    return cut(top), cut(bottom)
