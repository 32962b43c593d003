"""The left column of the window: the verdict banner, the board with its overlay, the
search panel's arrows, the dragged piece, the legend, the message line and the help
overlay.  Drawn from the state model alone (plus the gesture in progress)."""

from __future__ import annotations

import pygame

from viewer.actions import help_lines
from viewer.analysis import AnalysisResult
from viewer.gesture import GESTURE_HELP, Press
from viewer.layout import Layout
from viewer.render import Painter, board_geometry
from viewer.state import ViewerState
from viewer.text import window_banner

__all__ = ["BoardView"]


class BoardView:
    """Draws the state into the window's left column."""

    def __init__(self, painter: Painter, state: ViewerState) -> None:
        self.painter = painter
        self.state = state
        self.help = help_lines(GESTURE_HELP)

    def draw(self, screen: pygame.Surface, layout: Layout, *, dragged: Press | None = None,
             search: AnalysisResult | None = None) -> None:
        """Draw one frame's left column and the panel's background (no flip)."""
        state, painter = self.state, self.painter
        c = painter.colours
        screen.fill(c["background"])
        screen.fill(c["panel"], layout.panel)
        painter.render_banner(screen, layout.banner, *window_banner(state))
        board_rect = layout.board
        painter.render_board(screen, board_rect, state.editor.board, overlay=state.overlay(),
                             flipped=state.flipped,
                             hide_square=dragged.square if dragged is not None else None,
                             structure=state.structure)
        if search is not None and state.timeline.index is None:
            for d, colour in ((search.without_detection, c["muted"]),
                              (search.with_detection, c["path"])):
                if d and d.get("pv"):
                    painter.render_arrows(screen, board_rect, list(d["pv"])[:1],
                                          flipped=state.flipped, colour=colour)
        if dragged is not None and dragged.piece is not None and dragged.cursor:
            _, _, sq = board_geometry(board_rect)
            img = painter.pieces.get(dragged.piece.symbol(), sq)
            screen.blit(img, img.get_rect(center=dragged.cursor))
        painter.render_legend(screen, layout.legend, structure=state.structure_layer,
                              kpk=bool(state.kpk))
        message = state.message
        if message.frames > 0:
            message.frames -= 1
            t = painter.fit(message.text, 20, board_rect.width - 20)
            box = t.get_rect(midbottom=(board_rect.centerx, board_rect.bottom - 6)).inflate(12, 8)
            pygame.draw.rect(screen, (0, 0, 0), box, border_radius=6)
            screen.blit(t, t.get_rect(center=box.center))
        if state.show_help:
            self._draw_help(screen, board_rect)

    def _draw_help(self, screen: pygame.Surface, rect: pygame.Rect) -> None:
        """The help overlay, generated from the action table and the gestures."""
        painter, lines = self.painter, self.help
        box = rect.inflate(-40, -40)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((20, 20, 20, 235))
        screen.blit(shade, box)
        pygame.draw.rect(screen, painter.colours["text"], box, 2, border_radius=8)
        # n rows of size + 4 pixels, a title of size + 14, margins of 30: all inside the box
        size = max(10, min(22, (box.height - 30) // (len(lines) + 1) - 4))
        font = painter.font(size)
        y = box.top + 12
        title = painter.font(size + 6).render("Keys and mouse", True, (255, 255, 255))
        screen.blit(title, (box.left + 16, y))
        y += title.get_height() + 8
        key_w = max(font.size(keys)[0] for keys, _ in lines) + 28
        for keys, what in lines:
            screen.blit(font.render(keys, True, painter.colours["changed"]), (box.left + 16, y))
            screen.blit(painter.fit(what, size, box.width - key_w - 24),
                        (box.left + 16 + key_w, y))
            y += size + 4
