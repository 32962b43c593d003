"""The window's drawing outside the widgets: the verdict banner, the board with its
overlay, the analysis's arrows, the dragged piece, the legend, the message line, the
help overlay, the custom-drawn panel parts (:mod:`viewer.components`, the code panel,
the analysis pane), and projector mode (the board, the sentence in large type and the
legend only).  Drawn from the state model alone (plus the gesture in progress)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import chess
import pygame

from viewer.actions import help_lines
from viewer.analysis import AnalysisResult
from viewer.analysis_pane import COLUMNS
from viewer.gesture import GESTURE_HELP, Press
from viewer.layout import PROJECTOR_LEGEND, Layout
from viewer.render import (
    ARROW_STYLES,
    Painter,
    banner_roles,
    board_cover,
    board_geometry,
    fill_except,
)
from viewer.state import ViewerState
from viewer.text import projector_blocks, window_banner
from viewer.textfit import elide
from viewer.theme import Block, Role

__all__ = ["BoardView", "Drawable"]


def _uci(arrow: tuple[int, int, str] | None) -> str:
    """The UCI of an overlay's arrow ("" for none or a bad one)."""
    if arrow is None:
        return ""
    try:
        return chess.Move(arrow[0], arrow[1]).uci()
    except (ValueError, IndexError):
        return ""

_NONE = pygame.Rect(0, 0, 0, 0)
#: squares between arrows of the same move: their heads (0.42 of a square wide) barely
#: touch, so a dashed arrow under a solid one stays visible
ARROW_SPREAD = 0.3


class Drawable(Protocol):
    """A custom-drawn part of the panel."""

    def draw(self, surface: pygame.Surface) -> Any: ...


class BoardView:
    """Draws the state into the window."""

    def __init__(self, painter: Painter, state: ViewerState) -> None:
        self.painter = painter
        self.state = state
        self.help = help_lines(GESTURE_HELP)
        self._head_bottom = 0  # the banner's headline ends here (the last frame drawn)

    def draw(self, screen: pygame.Surface, layout: Layout, *, dragged: Press | None = None,
             search: AnalysisResult | None = None, parts: Sequence[Drawable] = ()) -> None:
        """Draw one frame (no flip): the left column, the panel's background and
        ``parts``, or projector mode.  Under pygame_gui's widgets the background is
        filled too: a list or a text box does not paint every pixel of its rectangle
        (an old frame showed through below its last line)."""
        state, painter = self.state, self.painter
        c = painter.colours
        if layout.projector:
            screen.fill(c["background"])
        else:  # each pixel filled once, none that an opaque part covers next
            w, h = layout.size
            holes = [board_cover(layout.board),
                     *(getattr(p, "rect", _NONE) for p in parts if getattr(p, "opaque", False))]
            fill_except(screen, pygame.Rect(0, 0, layout.panel.left, h), holes, c["background"])
            fill_except(screen, pygame.Rect(layout.panel.right, 0, w - layout.panel.right, h),
                        holes, c["background"])
            fill_except(screen, layout.panel, holes, c["panel"])
            fitted = painter.render_banner(screen, layout.banner,
                                           (b := window_banner(state)).kind, b.blocks,
                                           layout.px, most=1.4)
            # where the headline ends: a message goes below it
            self._head_bottom = layout.banner.top + 4 + max(
                (ln.y + painter.fonts.get(ln.px, ln.style).get_linesize()
                 for ln in fitted.lines if ln.role == "head"), default=0)
        board_rect = layout.board
        overlay = state.playback.overlay()
        painter.render_board(screen, board_rect, state.position.editor.board, overlay=overlay,
                             flipped=state.options.flipped,
                             hide_square=dragged.square if dragged is not None else None,
                             structure=state.playback.structure)
        # the analysis is of the editor's board: no arrows over a step's own position
        if search is not None and state.options.search_on and search.fen and not overlay.fen:
            self._arrows(screen, board_rect, search, overlay.arrow)
            if overlay.arrow is not None:  # its label stays readable over them
                painter.arrow_label(screen, board_rect, overlay.arrow,
                                    flipped=state.options.flipped)
        if dragged is not None and dragged.piece is not None and dragged.cursor:
            _, _, sq = board_geometry(board_rect)
            img = painter.pieces.get(dragged.piece.symbol(), sq)
            screen.blit(img, img.get_rect(center=dragged.cursor))
        bg = c["panel"] if layout.panel.colliderect(layout.legend) else c["background"]
        # projector mode: the legend in larger type too (it shrinks again if it must)
        lpx = round(layout.px * PROJECTOR_LEGEND) if layout.projector else layout.px
        painter.render_legend(screen, layout.legend, state.legend(), lpx,
                              structure=state.options.structure_layer, background=bg)
        if layout.projector:
            self._projector(screen, layout)
        else:
            for part in parts:
                part.draw(screen)

    def too_small(self, screen: pygame.Surface, least: tuple[int, int]) -> None:
        """Instead of a frame the layout cannot hold: what size the window needs."""
        c = self.painter.colours
        screen.fill(c["background"])
        w, h = screen.get_size()
        text = [Block(f"This window is {w} × {h}: pawnfence needs at least {least[0]} × "
                      f"{least[1]}. Make it larger (the board and everything come back).",
                      "head")]
        px = max(10, min(w, h) // 18)
        self.painter.render_text(screen, pygame.Rect(0, 0, w, h).inflate(-16, -16), text,
                                 {"head": Role(px, "bold")})

    def draw_top(self, screen: pygame.Surface, layout: Layout) -> None:
        """What lies over everything, the widgets too: the message line, the help."""
        state = self.state
        if state.message.seconds > 0 and state.message.text:
            self._message(screen, layout)
        if state.options.show_help:
            self._draw_help(screen, layout)

    def _projector(self, screen: pygame.Surface, layout: Layout) -> None:
        """The sentence in large type beside the board."""
        px = round(layout.px * 1.9)
        roles = {"head": Role(px, "bold"), "sub": Role(round(px * 0.75)),
                 "label": Role(round(px * 0.6), "regular", "muted")}
        self.painter.render_text(screen, layout.sentence, projector_blocks(self.state), roles,
                                 gap=0.5, least=0.3, most=1.6)

    def _arrows(self, screen: pygame.Surface, rect: pygame.Rect, search: AnalysisResult,
                centre: tuple[int, int, str] | None = None) -> None:
        """The best move of each analysis column from the position analysed, or the next
        move of the line being played; a stale analysis draws nothing.  Arrows of the
        same move lie side by side; ``centre`` (the overlay's own labelled arrow) keeps
        the middle of its move free."""
        state, c = self.state, self.painter.colours
        line = state.position.line
        if line is not None:
            if line.index < len(line.moves):
                role = next(col.colour for col in COLUMNS if col.source == line.source)
                self.painter.render_arrows(screen, rect, [line.moves[line.index]],
                                           flipped=state.options.flipped, colour=c[role],
                                           style=ARROW_STYLES[role])
            return
        if search.fen != state.position.editor.fen:
            return
        firsts = [(col, getattr(search, col.field)) for col in COLUMNS]
        firsts = [(col, d["pv"][0]) for col, d in firsts if d and d.get("pv")]
        taken = _uci(centre)
        for col, move in firsts:
            same = [m for _c, m in firsts].count(move)
            order = [m for _c, m in firsts[: [x for x, _ in firsts].index(col)]].count(move)
            if move == taken:  # either side of the labelled arrow: +1, -1, +2 (within
                # the square: three columns at 0.22 apart, beside the label's at 0)
                offset = 0.22 * (order // 2 + 1) * (1 if order % 2 == 0 else -1)
            else:
                offset = (order - (same - 1) / 2) * ARROW_SPREAD if same > 1 else 0.0
            self.painter.render_arrows(screen, rect, [move], flipped=state.options.flipped,
                                       colour=c[col.colour], style=ARROW_STYLES[col.colour],
                                       offset=offset)

    @property
    def headline_bottom(self) -> int:
        """Where the banner's headline ended in the last frame drawn (a message stays
        below it)."""
        return self._head_bottom

    def _message(self, screen: pygame.Surface, layout: Layout) -> None:
        """The message line in the banner, below the headline (the verdict, or the step's
        sentence, stays readable and the board stays clear): wrapped, smaller when it
        must, and cut at a word with "…" when even that does not fit; in projector mode
        (no banner) at the bottom of the board."""
        text = self.state.message.text
        if layout.projector or not layout.banner.height:
            area = layout.board
            role = {"sub": Role(round(layout.px * 1.15))}
            fitted = self.painter.fit_text([Block(text, "sub")], area.width - 56,
                                           area.height // 3, role)
            shade = pygame.Rect(0, 0, area.width - 40, fitted.height + 12)
            shade.midbottom = (area.centerx, area.bottom - 8)
        else:
            banner = layout.banner
            top = min(max(banner.top, self._head_bottom), banner.bottom - 18)
            room = banner.bottom - 4 - top  # the shade's height at most
            width = banner.width - 32
            px = max(9, min(round(layout.px * 1.15), (room - 8) * 10 // 13))
            role = {"sub": Role(px, least=0.8)}
            fitted = self.painter.fit_text([Block(text, "sub")], width, room - 8, role)
            if not fitted.fits:  # one line, cut
                text = elide(self.painter.fonts.get(px), text, width)
                fitted = self.painter.fit_text([Block(text, "sub")], width, room - 8, role)
            shade = pygame.Rect(0, 0, banner.width - 16, min(room, fitted.height + 8))
            shade.midbottom = (banner.centerx, banner.bottom - 4)
        pygame.draw.rect(screen, (0, 0, 0), shade, border_radius=max(4, layout.px // 3))
        self.painter.render_text(screen, shade.inflate(-16, -8), [Block(text, "sub")], role)

    def _draw_help(self, screen: pygame.Surface, layout: Layout) -> None:
        """The help overlay over the window (two columns when it is wide), generated from
        the action table and the gestures."""
        painter, lines, px = self.painter, self.help, layout.px
        box = pygame.Rect((0, 0), layout.size).inflate(-layout.size[0] // 12,
                                                        -layout.size[1] // 12)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((20, 20, 20, 242))
        screen.blit(shade, box)
        pygame.draw.rect(screen, painter.colours["text"], box, 2, border_radius=8)
        inner = box.inflate(-32, -24)
        roles = {"title": Role(round(px * 1.5), "bold"), "keys": Role(round(px * 1.1), "bold",
                                                                       "changed"),
                 "line": Role(round(px * 1.1))}
        title = painter.render_text(screen, inner, [Block("Keys and mouse (H or Esc closes)",
                                                          "title")], roles)
        inner.top += title.height + 8
        inner.height -= title.height + 8
        cols = 2 if inner.width > px * 60 else 1
        per = -(-len(lines) // cols)
        width = (inner.width - 24 * (cols - 1)) // cols
        for c in range(cols):
            blocks = [Block(f"{keys}:  {what}", "line") for keys, what in
                      lines[c * per:(c + 1) * per]]
            rect = pygame.Rect(inner.left + c * (width + 24), inner.top, width, inner.height)
            painter.render_text(screen, rect, blocks, roles, gap=0.2, least=0.5, most=1.3)

    def banner_roles(self, px: int) -> dict[str, Role]:
        """The banner's roles (for tests that measure it)."""
        return banner_roles(px)
