"""Where everything goes, from the window size alone (no widgets, no state).

Sizes follow the window: :func:`ui_scale` turns the window size into one factor
(1.0 at 1280x860, at least 0.8, at most 3.0) that scales every row, gap and font.
The window is made of

* a left column: the banner, the board (as large as the height allows), the status
  line (messages: they never cover the banner or the board) and the legend;
* the controls: a column of rows declared as data (:data:`CONTROL_ROWS`), each split
  into cells by weight;
* the dock: one or two *slots*, each a tab bar (the panes :data:`PANES`) over a body.

When the window is wide enough the dock is a third column of the full height (two
slots stacked when it is tall enough); otherwise it sits under the controls (two slots
side by side when it is wide enough).  Where the legend would cost the board more than a
fifth of its side (small windows), it folds into one line under the board (``fold``; the
window unfolds it on request).  Projector mode is the board, the sentence and the
legend only.  :data:`MIN_SIZE` is the smallest window the layout is designed for: from
there up to 4K no two rectangles overlap (tests check every size in between).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import pygame

from viewer.model.theme import PANE_LABELS, PANES, LegendItem

__all__ = ["Row", "Layout", "Slot", "CONTROL_ROWS", "MIN_SIZE", "PROJECTOR_LEGEND", "PANES",
           "PANE_LABELS", "compute_layout", "ui_scale", "legend_height", "status_height",
           "BODY_PX", "FOLD_BELOW", "strip_height", "STRIP_PX"]

#: the smallest window the layout is designed for (the window cannot be made smaller)
MIN_SIZE = (900, 650)
#: projector mode's legend type, relative to the window's text size
PROJECTOR_LEGEND = 1.5
#: the body text at scale 1 (1280x860: 15 px) and its floor in the smallest window
BODY_PX, LEAST_PX = 15, 12
#: the game strip's height under the board, in body text sizes
STRIP_PX = 9.0
#: the legend folds when, unfolded, the board's side would be less than this share of
#: the side it has without the legend
FOLD_BELOW = 0.8


class Row(NamedTuple):
    """A row of the controls: ``height`` pixels (at scale 1), then ``gap`` pixels of
    space; ``cells`` name the widgets side by side with their width weights (``0``: a
    fixed width of ``fixed`` pixels)."""

    height: int
    gap: int
    cells: tuple[tuple[str, float], ...]
    fixed: int = 0


#: the controls, top to bottom
CONTROL_ROWS: tuple[Row, ...] = (
    Row(30, 4, (("tool:K", 1), ("tool:P", 1), ("tool:k", 1), ("tool:p", 1), ("tool:x", 1))),
    Row(30, 4, (("other", 1), ("turn", 1))),
    Row(30, 4, (("flip", 1), ("clear", 1), ("undo", 1), ("redo", 1))),
    Row(30, 6, (("copy", 1), ("paste", 1), ("help", 1), ("projector", 1))),
    Row(32, 2, (("fen", 1),)),
    Row(26, 4, (("fen_status", 1.5), ("ep", 1))),
    Row(30, 4, (("method", 1.4), ("side", 0.8))),
    Row(28, 8, (("structure", 1), ("search", 1))),
    Row(30, 4, (("play:first", 1), ("play:prev-phase", 1), ("play:prev", 1),
                ("play:toggle", 1.5), ("play:next", 1), ("play:next-phase", 1),
                ("play:last", 1))),
    Row(22, 2, (("step", 1),)),
    Row(26, 4, (("scrubber", 1),)),
    Row(24, 6, (("speed_label", 0), ("speed", 1)), fixed=110),
)
TAB_H, TAB_GAP, SPACING = 28, 4, 4
#: the tabs' widths by their labels' lengths
TAB_WEIGHTS = {"story": 0.9, "steps": 0.9, "code": 0.8, "analysis": 1.35, "library": 1.1,
               "export": 1.0, "compare": 1.25}


def ui_scale(size: tuple[int, int]) -> float:
    """The factor every size is multiplied by for a window of ``size``."""
    w, h = size
    return max(0.8, min(3.0, min(w / 1280, h / 860)))


@dataclass(frozen=True)
class Slot:
    """A dock slot: a tab per pane (name -> rectangle) above the ``body``."""

    tabs: dict[str, pygame.Rect]
    body: pygame.Rect


@dataclass(frozen=True)
class Layout:
    """The rectangles of one window size.

    ``banner``, ``board``, ``legend``: the left column; ``cells``: the controls' widgets
    by name; ``slots``: the dock; ``sentence``: projector mode's text.  ``scale`` is
    :func:`ui_scale` and ``px`` the body text size in pixels.  Rectangles that a mode
    does not use are empty.
    """

    size: tuple[int, int]
    scale: float
    px: int
    banner: pygame.Rect
    board: pygame.Rect
    legend: pygame.Rect
    panel: pygame.Rect
    cells: dict[str, pygame.Rect] = field(default_factory=dict)
    slots: tuple[Slot, ...] = ()
    projector: bool = False
    sentence: pygame.Rect = field(default_factory=pygame.Rect)
    #: the message line (empty in projector mode, where a message lies on the board)
    status: pygame.Rect = field(default_factory=pygame.Rect)
    #: the legend is folded into one line (``legend`` is that line)
    folded: bool = False
    #: the legend folds at this size (a click on it or G folds and unfolds it)
    foldable: bool = False
    #: the strip of a game walked move by move, under the board (empty: no game)
    strip: pygame.Rect = field(default_factory=pygame.Rect)

    def cell(self, name: str) -> pygame.Rect:
        """The rectangle of control ``name``."""
        return self.cells[name]

    def leaves(self) -> dict[str, pygame.Rect]:
        """Every rectangle something is drawn in, by name (none may overlap another)."""
        out = {name: r for name, r in (("banner", self.banner), ("board", self.board),
                                       ("legend", self.legend), ("sentence", self.sentence),
                                       ("status", self.status), ("strip", self.strip))
               if r.width and r.height}
        out.update(self.cells)
        for i, slot in enumerate(self.slots):
            out.update({f"slot{i}:tab:{n}": r for n, r in slot.tabs.items()})
            out[f"slot{i}:body"] = slot.body
        return out


def _row_cells(row: Row, x0: int, y: int, width: int, scale: float) -> dict[str, pygame.Rect]:
    """The cells of ``row`` at ``(x0, y)`` in ``width`` pixels, nothing wider than that."""
    n = len(row.cells)
    gap = max(2, round(SPACING * scale))
    fixed = round(row.fixed * scale)
    free = width - gap * (n - 1) - sum(fixed for _name, w in row.cells if w == 0)
    total = sum(w for _name, w in row.cells)
    out, x = {}, x0
    height = round(row.height * scale)
    for name, weight in row.cells:
        w = fixed if weight == 0 else int(free * weight / total)
        out[name] = pygame.Rect(x, y, w, height)
        x += w + gap
    return out


def _legend_lines(text: str, width: int, px: int) -> int:
    """An estimate (generous) of the lines ``text`` takes in ``width`` pixels at ``px``."""
    per_line = max(6, int(width / (0.56 * px)))
    return max(1, math.ceil(len(text) / per_line))


def legend_height(width: int, items: Sequence[LegendItem], px: int, structure: bool) -> int:
    """The height the legend needs in ``width`` pixels at ``px`` (the renderer shrinks
    its text when the estimate falls short)."""
    cols = max(1, min(4, width // max(1, px * 17)))
    col_w = width // cols
    line = round(px * 1.4)
    rows = [items[i:i + cols] for i in range(0, len(items), cols)]
    height = sum(max(max(_legend_lines(it.text, col_w - px - 20, px) * line for it in row),
                     px + 6) + 4 for row in rows)
    if structure:
        height += _legend_lines("x" * 110, width, px) * line + 4
    return height + 2


def _tab_rows(width: int, px: int) -> tuple[tuple[str, ...], ...]:
    """The dock's tabs in one row, or two when their labels at ``px`` do not fit in
    ``width`` pixels side by side."""
    least = sum(len(PANE_LABELS[p]) * 0.62 * px + 14 for p in PANES)
    if least <= width:
        return (PANES,)
    half = (len(PANES) + 1) // 2
    return PANES[:half], PANES[half:]


def _slots(dock: pygame.Rect, n: int, stacked: bool, scale: float, px: int
           ) -> tuple[Slot, ...]:
    gap = round(8 * scale)
    out = []
    for i in range(n):
        if stacked:
            h = (dock.height - gap * (n - 1)) // n
            r = pygame.Rect(dock.left, dock.top + i * (h + gap), dock.width, h)
        else:
            w = (dock.width - gap * (n - 1)) // n
            r = pygame.Rect(dock.left + i * (w + gap), dock.top, w, dock.height)
        tab_h, tab_gap = round(TAB_H * scale), round(TAB_GAP * scale)
        tabs: dict[str, pygame.Rect] = {}
        y = r.top
        for names in _tab_rows(r.width, px):
            tabs.update(_row_cells(Row(TAB_H, TAB_GAP, tuple((p, TAB_WEIGHTS.get(p, 1.0))
                                                             for p in names)),
                                   r.left, y, r.width, scale))
            y += tab_h + tab_gap
        out.append(Slot(tabs, pygame.Rect(r.left, y, r.width, r.bottom - y)))
    return tuple(out)


def strip_height(px: int) -> int:
    """The game strip's height for body text of ``px`` pixels."""
    return round(px * STRIP_PX)


def status_height(px: int) -> int:
    """The message line's height for body text of ``px`` pixels."""
    return round(px * 1.75)


def compute_layout(size: tuple[int, int], *, structure: bool = False,
                   legend: Sequence[LegendItem] = (), projector: bool = False,
                   fold: bool = False, strip: bool = False) -> Layout:
    """The layout of a window of ``size``: ``structure`` makes room for the pawn-structure
    layer's file tags above the board and its key under the legend; ``legend`` is the
    legend's items; ``projector`` lays out projector mode; ``fold`` folds the legend
    into one line under the board where it is ``foldable`` (it would cost the board more
    than :data:`FOLD_BELOW` of its side); ``strip`` makes room under the board for the
    strip of a game walked move by move (not in projector mode).

    Of the arrangements that fit, the one with the largest board wins: three columns
    (the legend under the controls, the dock on the right), or two columns with the
    legend under the board or beside it (or folded)."""
    w, h = size
    s = ui_scale(size)
    px = max(LEAST_PX, round(BODY_PX * s))
    if projector:
        return _projector(size, s, px, legend, structure)
    pad = round(8 * s)
    ctrl_w = max(320, round(340 * s))
    banner_h = max(112, round(118 * s))
    tags = round(22 * s) if structure else 0
    st_h = status_height(px)
    strip_h = strip_height(px) if strip else 0
    sh = strip_h + pad // 2 if strip else 0  # the strip and the gap above it
    controls_h = pad + sum(round(r.height * s) + round(r.gap * s) for r in CONTROL_ROWS)
    # the board's side if only the banner, the strip and the message line are above and
    # below it
    high = h - banner_h - tags - st_h - 3 * pad - sh
    # three columns: the legend under the controls, its text as large as fits there (down
    # to four fifths of the body text; the renderer shrinks it to the height given)
    lh3 = next((lh for lh in (legend_height(ctrl_w - 2 * pad, legend, lpx, structure)
                              for lpx in range(px, max(LEAST_PX, round(px * 0.8)) - 1, -1))
                if controls_h + round(6 * s) + lh + pad <= h), 0)
    if w - high - pad - ctrl_w >= round(380 * s) and lh3:
        return _three_columns(size, s, px, pad, (banner_h, tags, st_h, strip_h), high + pad,
                              ctrl_w, lh3, controls_h)
    left_w = w - ctrl_w
    lh_a = legend_height(left_w - 2 * pad, legend, px, structure)
    side_a = min(left_w - pad, high - lh_a)
    lw = next((x for x in (round(px * f) for f in (15, 19, 24, 30))
               if legend_height(x, legend, px, structure) <= high + pad), 0)
    side_b = min(left_w - lw - 2 * pad, high + pad) if lw else 0
    fold_h = round(px * 1.9)
    foldable = max(side_a, side_b) < FOLD_BELOW * min(left_w - pad, high)
    folded = fold and foldable
    beside = not folded and side_b > side_a
    # the controls and the dock get what the board does not need (up to a limit)
    if folded:
        need = min(left_w - pad, high - fold_h) + pad
    else:
        need = side_b + lw + 2 * pad if beside else side_a + pad
    left_w = w - max(ctrl_w, min(round(460 * s), w - need))
    banner = pygame.Rect(pad, pad, left_w - 2 * pad, banner_h)
    top = banner.bottom + pad // 2 + tags
    if beside:
        legend_r = pygame.Rect(left_w - pad - lw, top + pad, lw, h - top - 2 * pad)
        bw = legend_r.left - pad - pad // 2
        board = pygame.Rect(pad // 2, top, bw, min(h - pad - top - st_h - pad // 2 - sh, bw))
        strip_r = pygame.Rect(pad // 2, board.bottom + pad // 2, bw, strip_h)
        status = pygame.Rect(pad // 2, board.bottom + pad // 2 + sh, bw, st_h)
    else:
        lh = fold_h if folded else legend_height(left_w - 2 * pad, legend, px, structure)
        legend_r = pygame.Rect(pad, h - pad - lh, left_w - 2 * pad, lh)
        status = pygame.Rect(pad, legend_r.top - pad // 2 - st_h, left_w - 2 * pad, st_h)
        strip_r = pygame.Rect(pad, status.top - pad // 2 - strip_h, left_w - 2 * pad, strip_h)
        board = pygame.Rect(pad // 2, top, left_w - pad, status.top - pad // 2 - sh - top)
    panel = pygame.Rect(left_w, 0, w - left_w, h)
    cells = _controls(panel, pad, s)
    dock = pygame.Rect(panel.left + pad, controls_h + round(4 * s), panel.width - 2 * pad,
                       h - controls_h - round(4 * s) - pad)
    slots = _slots(dock, 2 if dock.width >= round(640 * s) else 1, False, s, px)
    return Layout((w, h), s, px, banner, board, legend_r, panel, cells, slots, status=status,
                  folded=folded, foldable=foldable,
                  strip=strip_r if strip else pygame.Rect(0, 0, 0, 0))


def _controls(panel: pygame.Rect, pad: int, s: float) -> dict[str, pygame.Rect]:
    cells: dict[str, pygame.Rect] = {}
    y = pad
    for row in CONTROL_ROWS:
        cells.update(_row_cells(row, panel.left + pad, y, panel.width - 2 * pad, s))
        y += round(row.height * s) + round(row.gap * s)
    return cells


def _three_columns(size: tuple[int, int], s: float, px: int, pad: int,
                   heights: tuple[int, int, int, int], left_w: int, ctrl_w: int, lh: int,
                   controls_h: int) -> Layout:
    """The left column (banner, board, the game strip, message line), the controls with the
    legend under them, the dock; ``heights``: the banner's, the file tags', the message
    line's and the strip's (0: no strip)."""
    w, h = size
    banner_h, tags, st_h, strip_h = heights
    sh = strip_h + pad // 2 if strip_h else 0
    banner = pygame.Rect(pad, pad, left_w - 2 * pad, banner_h)
    top = banner.bottom + pad // 2 + tags
    board = pygame.Rect(pad // 2, top, left_w - pad, h - pad - top - st_h - pad // 2 - sh)
    strip = pygame.Rect(pad, board.bottom + pad // 2, left_w - 2 * pad, strip_h) \
        if strip_h else pygame.Rect(0, 0, 0, 0)
    status = pygame.Rect(pad, board.bottom + pad // 2 + sh, left_w - 2 * pad, st_h)
    panel = pygame.Rect(left_w, 0, ctrl_w, h)
    cells = _controls(panel, pad, s)
    legend_r = pygame.Rect(panel.left + pad, controls_h + round(6 * s), ctrl_w - 2 * pad, lh)
    dock = pygame.Rect(panel.right + pad // 2, pad, w - panel.right - pad - pad // 2,
                       h - 2 * pad)
    slots = _slots(dock, 2 if dock.height >= round(760 * s) else 1, True, s, px)
    return Layout((w, h), s, px, banner, board, legend_r, panel, cells, slots, status=status,
                  strip=strip)


def _projector(size: tuple[int, int], s: float, px: int, legend: Sequence[LegendItem],
               structure: bool) -> Layout:
    """Projector mode: the board on the left, the sentence and the legend on the right."""
    w, h = size
    pad = round(12 * s)
    side = min(h - 2 * pad, int(w * 0.62))
    board = pygame.Rect(pad, (h - side) // 2, side, side)
    right = pygame.Rect(board.right + pad, pad, w - board.right - 2 * pad, h - 2 * pad)
    lpx = round(px * PROJECTOR_LEGEND)  # read from across a room: larger type
    lh = min(right.height // 2, legend_height(right.width, legend, lpx, structure))
    legend_r = pygame.Rect(right.left, right.bottom - lh, right.width, lh)
    sentence = pygame.Rect(right.left, right.top, right.width, legend_r.top - pad - right.top)
    return Layout((w, h), s, px, pygame.Rect(0, 0, 0, 0), board, legend_r,
                  pygame.Rect(0, 0, 0, 0), {}, (), True, sentence)
