"""The window's drawing outside the widgets: the verdict banner (with a running proof's
budget bar), the board with its overlay, the analysis's arrows (two searches on one move:
one arrow with both marks), the dragged piece, the legend (folded into one line in a
small window), the message line under the board, the reason of the square under the
mouse, the help overlay, the custom-drawn panel parts (:mod:`viewer.window.components`, the code
panel, the analysis and compare panes), and projector mode (the board, the sentence in
large type and the legend only).  Drawn from the state model alone (plus the gesture in
progress)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import chess
import pygame

from viewer.figures.render import (
    ARROW_STYLES,
    Painter,
    banner_icon_radius,
    banner_roles,
    board_cover,
    board_geometry,
    fill_except,
    square_at,
)
from viewer.figures.textfit import Fitted, elide, wrap
from viewer.model.actions import help_lines
from viewer.model.analysis import AnalysisResult
from viewer.model.state import ViewerState
from viewer.model.text import projector_blocks, window_banner
from viewer.model.theme import Block, Role
from viewer.window.analysis_pane import COLUMNS
from viewer.window.gesture import GESTURE_HELP, Press
from viewer.window.hover import square_reason
from viewer.window.layout import PROJECTOR_LEGEND, Layout

__all__ = ["BoardView", "Drawable", "ArrowMark", "arrow_marks", "MERGED"]


def _uci(arrow: tuple[int, int, str] | None) -> str:
    """The UCI of an overlay's arrow ("" for none or a bad one)."""
    if arrow is None:
        return ""
    try:
        return chess.Move(arrow[0], arrow[1]).uci()
    except (ValueError, IndexError):
        return ""

_NONE = pygame.Rect(0, 0, 0, 0)
#: the analysis columns whose arrows merge into one when they show the same move
MERGED = ("arrow_with", "arrow_without")
#: squares between arrows of the same move: their heads (0.42 of a square wide) barely
#: touch, so a dashed arrow under a solid one stays visible
ARROW_SPREAD = 0.3


class ArrowMark(NamedTuple):
    """An arrow of the analysis: its UCI ``move``, the colour roles of the columns it
    stands for (one, or :data:`MERGED`: one arrow with both marks) and its sideways
    ``offset`` in squares."""

    move: str
    roles: tuple[str, ...]
    offset: float


def arrow_marks(firsts: Sequence[tuple[str, str]], taken: str = "") -> list[ArrowMark]:
    """The arrows for the columns' best moves ``firsts`` (``(colour role, UCI)``, in
    column order): the searches with and without detection on the same move are one
    arrow with both marks; other arrows of the same move lie side by side, and beside
    ``taken`` (the overlay's own labelled arrow), whose middle stays free."""
    groups: list[tuple[str, list[str]]] = []
    for role, move in firsts:
        merged = next((g for g in groups if g[0] == move and role in MERGED
                       and all(r in MERGED for r in g[1])), None)
        if merged is not None:
            merged[1].append(role)
        else:
            groups.append((move, [role]))
    out = []
    for i, (move, roles) in enumerate(groups):
        same = [m for m, _r in groups].count(move)
        order = [m for m, _r in groups[:i]].count(move)
        if move == taken:  # either side of the labelled arrow: +1, -1, +2
            offset = 0.22 * (order // 2 + 1) * (1 if order % 2 == 0 else -1)
        else:
            offset = (order - (same - 1) / 2) * ARROW_SPREAD if same > 1 else 0.0
        out.append(ArrowMark(move=move, roles=tuple(roles), offset=offset))
    return out


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
        #: the mouse's position over the window (None: outside), and what its square says
        self.hover: tuple[int, int] | None = None
        self.hover_text = ""
        self.hover_box = pygame.Rect(0, 0, 0, 0)
        #: the message line's text size in the last frame that showed one
        self.message_px = 0
        #: the banner's words as laid out in the last frame drawn
        self.banner_fit: Fitted | None = None
        self._plan: tuple[Any, tuple[int, int]] = (None, (0, 0))

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
            fitted = self.banner_fit = self._banner(screen, layout)
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
        if layout.folded:
            self._folded_legend(screen, layout)
        else:
            painter.render_legend(screen, layout.legend, state.legend(), lpx,
                                  structure=state.options.structure_layer, background=bg)
            if layout.foldable:
                self._fold_hint(screen, layout)
        if layout.projector:
            self._projector(screen, layout)
        else:
            for part in parts:
                part.draw(screen)

    def legend_px(self, layout: Layout) -> int:
        """The size the legend's text is drawn at (it shrinks when it must; folded: the
        body size of its one line)."""
        if layout.folded or not layout.legend.width or not layout.legend.height:
            return layout.px
        return self._legend_plan(layout)[0]

    def _legend_plan(self, layout: Layout) -> tuple[int, int]:
        """``(text size, height)`` of the legend as drawn (cached: every frame asks)."""
        key = (layout.legend.size, self.state.legend(), layout.px,
               self.state.options.structure_layer)
        if self._plan[0] != key:
            plan = self.painter.legend_plan(*key)
            self._plan = (key, (plan.px, plan.height))
        return self._plan[1]

    def banner_roles(self, layout: Layout) -> dict[str, Role]:
        """The banner's text roles in the window: :func:`viewer.figures.render.banner_roles`, the
        reason and the other side's lines never smaller than the legend's text (when the
        legend is unfolded)."""
        roles = banner_roles(layout.px)
        if layout.folded:  # no legend text on show to keep up with
            return roles
        least = min(1.0, self.legend_px(layout) / layout.px)
        return {name: role._replace(least=max(role.least, least))
                if name in ("sub", "muted") else role for name, role in roles.items()}

    def banner_text_rect(self, layout: Layout) -> pygame.Rect:
        """Where the banner's words go (beside its icon; above the budget bar while a
        proof runs)."""
        rect = layout.banner
        icon_r = banner_icon_radius(rect.height, layout.px)
        bar = self.budget_bar(layout).height + 6 if self.state.proof.proving() else 0
        return pygame.Rect(rect.left + 30 + 2 * icon_r, rect.top + 4,
                           rect.width - 38 - 2 * icon_r, rect.height - 8 - bar)

    def budget_bar(self, layout: Layout) -> pygame.Rect:
        """The running proof's budget bar: along the banner's bottom, under its words."""
        rect = layout.banner
        icon_r = banner_icon_radius(rect.height, layout.px)
        h = max(6, layout.px // 2)
        return pygame.Rect(rect.left + 30 + 2 * icon_r, rect.bottom - 6 - h,
                           rect.width - 38 - 2 * icon_r, h)

    def _banner(self, screen: pygame.Surface, layout: Layout) -> Fitted:
        """The banner: its bar and icon, its words (the reason no smaller than the
        legend), and while a proof runs the bar of its time towards the limit."""
        b = window_banner(self.state)
        self.painter.render_banner(screen, layout.banner, b.kind, (), layout.px)
        fitted = self.painter.render_text(screen, self.banner_text_rect(layout), b.blocks,
                                          self.banner_roles(layout), most=1.4)
        p = self.state.proof.proving()
        if p is not None:
            c = self.painter.colours
            bar = self.budget_bar(layout)
            share = self.state.proof_share()
            pygame.draw.rect(screen, (33, 40, 45), bar, border_radius=bar.height // 2)
            pygame.draw.rect(screen, c["path"], (bar.left, bar.top, round(bar.width * share),
                                                 bar.height), border_radius=bar.height // 2)
            pygame.draw.rect(screen, c["muted"], bar, 1, border_radius=bar.height // 2)
        return fitted

    def _folded_legend(self, screen: pygame.Surface, layout: Layout) -> None:
        """The folded legend: one line that says how to unfold it."""
        c, rect = self.painter.colours, layout.legend
        pygame.draw.rect(screen, c["panel"], rect, border_radius=4)
        pygame.draw.rect(screen, c["muted"], rect, 1, border_radius=4)
        n = len(self.state.legend())
        text = f"Legend (folded, {n} symbols): click or G to unfold"
        font = self.painter.fonts.get(layout.px)
        img = font.render(elide(font, text, rect.width - 16), True, c["text"])
        screen.blit(img, img.get_rect(midleft=(rect.left + 8, rect.centery)))

    def _fold_hint(self, screen: pygame.Surface, layout: Layout) -> None:
        """Under an unfolded legend that can fold, where there is room: how to fold it."""
        rect, font = layout.legend, self.painter.fonts.get(layout.px)
        used = self._legend_plan(layout)[1]
        if rect.height - used >= font.get_linesize() + 4:
            img = font.render(elide(font, "G or a click folds the legend", rect.width), True,
                              self.painter.colours["muted"])
            screen.blit(img, img.get_rect(bottomleft=(rect.left, rect.bottom)))

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
        """What lies over everything, the widgets too: the message line, the reason of
        the square under the mouse, the help."""
        state = self.state
        if state.message.seconds > 0 and state.message.text:
            self._message(screen, layout)
        self._hover(screen, layout)
        if state.options.show_help:
            self._draw_help(screen, layout)

    def hovered_square(self, layout: Layout) -> chess.Square | None:
        """The square under the mouse (None: the mouse is not over the board)."""
        if self.hover is None or not layout.board.collidepoint(self.hover):
            return None
        return square_at(layout.board, self.hover, self.state.options.flipped)

    def _hover(self, screen: pygame.Surface, layout: Layout) -> None:
        """The one-line reason of the square (or badge) under the mouse, in a box beside
        the mouse inside the board (:func:`viewer.window.hover.square_reason`)."""
        square = self.hovered_square(layout)
        pb = self.state.playback
        text = "" if square is None or self.state.options.show_help else \
            square_reason(pb.verdict, pb.timeline.index, square)
        self.hover_text = text
        self.hover_box = pygame.Rect(0, 0, 0, 0)
        if not text or self.hover is None:
            return
        c, px = self.painter.colours, layout.px
        font = self.painter.fonts.get(px)
        area = layout.board
        width = min(area.width - 16, px * 32)
        every = wrap(font, text, width - 16)
        lines = every[:4]
        if len(every) > 4:  # at most four lines, the cut shown
            lines[3] = elide(font, f"{lines[3]} {every[4]}", width - 16)
        box = pygame.Rect(0, 0, max(font.size(ln)[0] for ln in lines) + 16,
                          len(lines) * font.get_linesize() + 10)
        x, y = self.hover
        box.topleft = (x + 16, y + 18)
        if box.right > area.right:
            box.right = x - 8
        if box.bottom > area.bottom:
            box.bottom = y - 8
        box.clamp_ip(area)
        pygame.draw.rect(screen, (20, 20, 20), box, border_radius=4)
        pygame.draw.rect(screen, c["changed"], box, 1, border_radius=4)
        for i, line in enumerate(lines):
            screen.blit(font.render(line, True, c["text"]),
                        (box.left + 8, box.top + 5 + i * font.get_linesize()))
        self.hover_box = box

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
        firsts = [(col.colour, getattr(search, col.field)) for col in COLUMNS]
        firsts = [(role, d["pv"][0]) for role, d in firsts if d and d.get("pv")]
        for mark in arrow_marks(firsts, _uci(centre)):
            if len(mark.roles) == 1:
                role = mark.roles[0]
                self.painter.render_arrows(screen, rect, [mark.move],
                                           flipped=state.options.flipped, colour=c[role],
                                           style=ARROW_STYLES[role], offset=mark.offset)
            else:
                self._double_arrow(screen, rect, mark)

    def _double_arrow(self, screen: pygame.Surface, rect: pygame.Rect, mark: ArrowMark
                      ) -> None:
        """One arrow with both searches' marks (they found the same move): the solid
        arrow of the search with detection, wide, with the dashes of the search without
        detection along its middle."""
        c, flipped = self.painter.colours, self.state.options.flipped
        left, top, sq = board_geometry(rect)
        try:
            move = chess.Move.from_uci(mark.move)
        except ValueError:
            return

        def centre(s: int) -> tuple[float, float]:
            f, r = chess.square_file(s), chess.square_rank(s)
            if flipped:
                f, r = 7 - f, 7 - r
            return left + f * sq + sq / 2, top + (7 - r) * sq + sq / 2

        (x0, y0), (x1, y1) = centre(move.from_square), centre(move.to_square)
        length = max(1.0, math.hypot(x1 - x0, y1 - y0))
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        ox, oy = -uy * mark.offset * sq, ux * mark.offset * sq
        x0, y0, x1, y1 = x0 + ox, y0 + oy, x1 + ox, y1 + oy
        width = max(4, sq // 9) * 2
        head = sq * 0.4
        bx, by = x1 - ux * head, y1 - uy * head
        px, py = -uy * head * 0.6, ux * head * 0.6
        tip = [(x1, y1), (bx + px, by + py), (bx - px, by - py)]
        solid, dashed = c[mark.roles[0]], c[mark.roles[1]]
        pygame.draw.line(screen, (0, 0, 0), (x0, y0), (bx, by), width + 4)
        pygame.draw.line(screen, solid, (x0, y0), (bx, by), width)
        pygame.draw.polygon(screen, solid, tip)
        pygame.draw.polygon(screen, (0, 0, 0), tip, 2)
        n = max(3, int(math.hypot(bx - x0, by - y0) // (sq * 0.12)))
        for i in range(0, n, 2):  # the dashes, inside the solid shaft
            a, b = i / n, min(1.0, (i + 1) / n)
            pygame.draw.line(screen, dashed, (x0 + (bx - x0) * a, y0 + (by - y0) * a),
                             (x0 + (bx - x0) * b, y0 + (by - y0) * b), max(2, width // 2))

    @property
    def headline_bottom(self) -> int:
        """Where the banner's headline ended in the last frame drawn (a message stays
        below it)."""
        return self._head_bottom

    def _message(self, screen: pygame.Surface, layout: Layout) -> None:
        """The message line under the board (the banner and the board stay clear): a
        little smaller when it must, and cut at a word with "…" when even that does not
        fit; in projector mode (no message line) at the bottom of the board."""
        text = self.state.message.text
        if layout.projector or not layout.banner.height:
            area = layout.board
            role = {"sub": Role(round(layout.px * 1.15))}
            fitted = self.painter.fit_text([Block(text, "sub")], area.width - 56,
                                           area.height // 3, role)
            shade = pygame.Rect(0, 0, area.width - 40, fitted.height + 12)
            shade.midbottom = (area.centerx, area.bottom - 8)
        else:  # the message line under the board: never over the banner or the board
            shade = layout.status
            role = {"sub": Role(layout.px, least=0.8)}
            width, room = shade.width - 16, shade.height - 4
            fitted = self.painter.fit_text([Block(text, "sub")], width, room, role)
            if not fitted.fits:  # one line, cut
                text = elide(self.painter.fonts.get(layout.px), text, width)
                fitted = self.painter.fit_text([Block(text, "sub")], width, room, role)
            self.message_px = max((ln.px for ln in fitted.lines), default=0)
            pygame.draw.rect(screen, (0, 0, 0), shade, border_radius=max(4, layout.px // 3))
            self.painter.render_text(screen, shade.inflate(-16, -4), [Block(text, "sub")],
                                     role)
            return
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
