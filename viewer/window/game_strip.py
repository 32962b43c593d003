"""The game strip under the board: a game's plies left to right, each method's verdict for
both sides as a row (White's methods above Black's), drawn from the state's
:class:`viewer.model.game.GameWalk`.

A cell's shape says its verdict, its colour repeats it (colour is never the only
signal): a full block, cannot win (a static method's claim, the exact prover's proof);
a low bar, no blockage (for exact: it forces a promotion); an empty box, unknown or a
horizon; a dot, still being proved.  A claim exact refutes is crossed (``!``), a blockage
exact proves that the method misses has a corner triangle (``?``).  Plies with pieces
other than kings and pawns are hatched and say "pieces on the board: not a pawn ending
yet".  A triangle with W or B under the axis marks the first ply at which the exact
prover proves that side unable to win; the ply on the board is outlined.  Under the
axis one line says the ply on show (or the cell under the mouse) in words, and the key.
A click or a drag on the strip walks the game there.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any

import chess
import pygame

from logic.compare import Cell
from logic.tools.game_cmd import cell_text
from viewer.figures.textfit import elide
from viewer.model.game import NOT_YET, strip_methods, walk_to

if TYPE_CHECKING:
    from viewer.figures.render import Painter
    from viewer.model.actions import Host
    from viewer.model.state import ViewerState

__all__ = ["GameStrip", "KEY", "PIECES_SHARE"]

#: the most of the strip's width the plies with pieces take (the pawn ending gets the rest)
PIECES_SHARE = 0.35

#: the key drawn at the right of the text line: (shape, words)
KEY = (("block", "cannot win"), ("bar", "open"), ("box", "unknown"), ("dot", "proving"),
       ("flag", "first proof"), ("cross", "refuted"), ("corner", "missed"))
_SIDES = (chess.WHITE, chess.BLACK)


class GameStrip:
    """The strip of the state's open game (see the module); a custom-drawn part."""

    #: draws every pixel of its rectangle (the view need not fill it)
    opaque = True

    def __init__(self, state: ViewerState, painter: Painter) -> None:
        self.state, self.painter = state, painter
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.px = 14
        #: the ply under the mouse (None: the mouse is not over the cells)
        self.hover: int | None = None
        self.hover_cell: tuple[str, bool] | None = None
        self.dragging = False
        #: the text line as drawn in the last frame
        self.words = ""
        #: the columns' left edges as shares of the width (one more: 1.0), per game
        self._edges: tuple[Any, list[float]] = (None, [])

    def place(self, rect: pygame.Rect, px: int) -> None:
        """Put the part in ``rect`` (an empty rectangle hides it) with text of ``px`` pixels."""
        self.rect, self.px = rect, px

    @property
    def shown(self) -> bool:
        return self.rect.width > 0 and self.rect.height > 0 and self.state.game.open

    # -- geometry -----------------------------------------------------------------------
    def _parts(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, int]:
        """``(cells, axis, text line, label width)`` inside :attr:`rect`."""
        r, px = self.rect, self.px
        text_h = round(px * 1.3)
        axis_h = round(px * 1.05)
        label_w = round(px * 5.8)
        cells = pygame.Rect(r.left + label_w, r.top + 3, r.width - label_w - 4,
                            r.height - text_h - axis_h - 5)
        axis = pygame.Rect(cells.left, cells.bottom + 1, cells.width, axis_h)
        text = pygame.Rect(r.left + 4, axis.bottom, r.width - 8, text_h)
        return cells, axis, text, label_w

    def _rows(self, cells: pygame.Rect) -> list[tuple[str, bool, pygame.Rect]]:
        """Each row: its method, its side and its band of ``cells``."""
        methods = strip_methods()
        gap = max(3, self.px // 3)
        row_h = (cells.height - gap) / (2 * len(methods))
        out = []
        for s, color in enumerate(_SIDES):
            for i, m in enumerate(methods):
                top = cells.top + s * gap + (s * len(methods) + i) * row_h
                out.append((m, color, pygame.Rect(cells.left, round(top), cells.width,
                                                  max(2, round(top + row_h) - round(top)))))
        return out

    def edges(self) -> list[float]:
        """Each ply's left edge as a share of the cells' width, and 1.0: a ply of the pawn
        ending takes a full share, one with pieces less, so that they take at most
        :data:`PIECES_SHARE` of the width (the pawn ending is what the strip is for)."""
        g = self.state.game
        if self._edges[0] is not g.record:
            n = g.plies + 1
            kp = [g.kp(p) for p in range(n)]
            ends, pieces = sum(kp), n - sum(kp)
            light = 1.0
            if ends and pieces:
                light = min(1.0, PIECES_SHARE * ends / ((1 - PIECES_SHARE) * pieces))
            weights = [1.0 if k else light for k in kp]
            total, at, edges = sum(weights), 0.0, []
            for w in weights:
                edges.append(at / total)
                at += w
            edges.append(1.0)
            self._edges = (g.record, edges)
        return self._edges[1]

    def _column(self, cells: pygame.Rect, ply: int) -> pygame.Rect:
        """Column ``ply``'s band of ``cells``."""
        e = self.edges()
        x0 = cells.left + cells.width * e[ply]
        x1 = cells.left + cells.width * e[ply + 1]
        return pygame.Rect(round(x0), cells.top, max(1, round(x1) - round(x0)), cells.height)

    def cell_rect(self, ply: int, method: str, color: bool) -> pygame.Rect:
        """Where the cell of ``method`` for ``color`` at ``ply`` is drawn."""
        cells = self._parts()[0]
        x = self._column(cells, ply)
        band = next(b for m, c, b in self._rows(cells) if m == method and c == color)
        return pygame.Rect(x.left, band.top, x.width, band.height)

    def ply_at(self, x: int) -> int:
        """The ply of the column at ``x`` (clamped to the game)."""
        cells = self._parts()[0]
        e = self.edges()
        share = (x - cells.left) / max(1, cells.width)
        return max(0, min(len(e) - 2, bisect.bisect_right(e, share) - 1))

    # -- events -------------------------------------------------------------------------
    def update(self) -> bool:
        """Take the exact cells that came in; True if any did."""
        return self.state.game.update()

    def handle(self, event: pygame.event.Event, host: Host) -> bool:
        """A click or a drag on the strip walks the game there (True: taken); the mouse
        over a cell names it in the text line."""
        if not self.shown:
            self.dragging = False
            return False
        t = event.type
        if t == pygame.MOUSEMOTION:
            self._hover(event.pos)
            if self.dragging:
                self._walk(event.pos[0])
                return True
            return False
        if t == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self.rect.collidepoint(event.pos):
            self.dragging = True
            self._walk(event.pos[0])
            return True
        if t == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            self.dragging = False
            return True
        return False

    def _walk(self, x: int) -> None:
        g = self.state.game
        ply = self.ply_at(x)
        if ply != g.ply or not g.active:
            walk_to(self.state, ply)

    def _hover(self, pos: tuple[int, int]) -> None:
        cells = self._parts()[0]
        self.hover = self.hover_cell = None
        if not cells.inflate(0, 2).collidepoint(pos):
            return
        self.hover = self.ply_at(pos[0])
        for m, color, band in self._rows(cells):
            if band.top <= pos[1] < band.bottom:
                self.hover_cell = (m, color)

    # -- drawing ------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Draw the strip in its rectangle."""
        if not self.shown:
            return
        c = self.painter.colours
        surface.fill(c["track"], self.rect)
        pygame.draw.rect(surface, c["track_edge"], self.rect, 1)
        cells, axis, text, label_w = self._parts()
        rows = self._rows(cells)
        self._labels(surface, rows, label_w)
        g = self.state.game
        runs = self._pieces(surface, cells)
        for ply in range(g.plies + 1):
            col = g.column(ply)
            if not col.kp:
                continue
            x = self._column(cells, ply)
            for m, color, band in rows:
                rect = pygame.Rect(x.left, band.top, x.width, band.height)
                self._cell(surface, rect.inflate(-2 if x.width > 3 else 0, -1),
                           col.cells.get(m, {}).get(color))
        if g.active:
            cur = self._column(cells, g.ply).inflate(2, 4)
            pygame.draw.rect(surface, c["text"], cur, 2)
        self._pieces_words(surface, runs)
        self._axis(surface, axis, cells)
        self._text(surface, text)

    def _labels(self, surface: pygame.Surface, rows: list[tuple[str, bool, pygame.Rect]],
                label_w: int) -> None:
        """Each side's letter beside its rows, each row's method as small as its band."""
        c = self.painter.colours
        size = max(8, min(self.px, rows[0][2].height + 1))
        font, big = self.painter.fonts.get(size), self.painter.fonts.get(self.px, "bold")
        side_w = big.size("W")[0] + 8
        for color in _SIDES:
            bands = [band for _m, col, band in rows if col == color]
            span = bands[0].union(bands[-1])
            img = big.render("W" if color else "B", True, c["text"])
            surface.blit(img, img.get_rect(center=(self.rect.left + 4 + side_w // 2,
                                                   span.centery)))
            pygame.draw.line(surface, c["track_edge"], (self.rect.left + side_w + 2, span.top),
                             (self.rect.left + side_w + 2, span.bottom - 1), 1)
        for m, _color, band in rows:
            img = font.render(elide(font, m, label_w - side_w - 10), True, c["text"])
            surface.blit(img, img.get_rect(midleft=(self.rect.left + side_w + 6, band.centery)))

    def _pieces(self, surface: pygame.Surface, cells: pygame.Rect) -> list[pygame.Rect]:
        """Runs of plies with pieces on the board: a hatch; returns their bands."""
        g, c = self.state.game, self.painter.colours
        out = []
        ply = 0
        while ply <= g.plies:
            if g.kp(ply):
                ply += 1
                continue
            end = ply
            while end + 1 <= g.plies and not g.kp(end + 1):
                end += 1
            a, b = self._column(cells, ply), self._column(cells, end)
            band = pygame.Rect(a.left, cells.top, b.right - a.left, cells.height)
            old = surface.get_clip()
            surface.set_clip(band)
            for d in range(-band.height, band.width, 6):
                pygame.draw.line(surface, c["processed"], (band.left + d, band.bottom),
                                 (band.left + d + band.height, band.top), 1)
            surface.set_clip(old)
            out.append(band)
            ply = end + 1
        return out

    def _pieces_words(self, surface: pygame.Surface, bands: list[pygame.Rect]) -> None:
        """Over each run of plies with pieces, where it fits: what it means."""
        c = self.painter.colours
        font = self.painter.fonts.get(self.px)
        for band in bands:
            words = next((w for w in (NOT_YET, "pieces on the board", "pieces")
                          if font.size(w)[0] + 12 <= band.width), "")
            if words:
                img = font.render(words, True, c["text"], c["track"])
                surface.blit(img, img.get_rect(center=band.center))

    def _cell(self, surface: pygame.Surface, rect: pygame.Rect, cell: Cell | None) -> None:
        """One cell: its shape and colour (see the module)."""
        c = self.painter.colours
        if cell is None:  # being proved
            pygame.draw.circle(surface, c["muted"], rect.center,
                               max(1, min(rect.width, rect.height) // 4))
            return
        if cell.status not in ("ok",):
            pygame.draw.rect(surface, c["banner_na"], rect, 1)
            return
        if cell.blocked:
            pygame.draw.rect(surface, c["breaks"] if cell.disagrees else c["banner_blocked"],
                             rect)
            if cell.disagrees == "refuted":  # a claim exact refutes: crossed
                pygame.draw.line(surface, c["text"], rect.topleft, rect.bottomright, 1)
                pygame.draw.line(surface, c["text"], rect.bottomleft, rect.topright, 1)
            return
        bar = max(2, rect.height // 4)
        pygame.draw.rect(surface, c["banner_open"],
                         (rect.left, rect.bottom - bar, rect.width, bar))
        if cell.disagrees == "missed":  # a blockage exact proves, missed: a corner mark
            k = max(3, min(rect.width, rect.height) // 2 + 1)
            pygame.draw.polygon(surface, c["changed"], [rect.topleft, (rect.left + k, rect.top),
                                                        (rect.left, rect.top + k)])

    def _axis(self, surface: pygame.Surface, axis: pygame.Rect, cells: pygame.Rect) -> None:
        """Move numbers along the axis, and each side's first proved ply as a flag."""
        g, c = self.state.game, self.painter.colours
        record = g.record
        if record is None:
            return
        font = self.painter.fonts.get(max(8, round(self.px * 0.8)))
        flags = []
        for color in _SIDES:
            ply = g.first_proved(color)
            if ply is not None:
                x = self._column(cells, ply)
                h = axis.height - 2
                flags.append((color, x.centerx, pygame.Rect(x.centerx - h // 2 - 2, axis.top,
                                                            h + 4, h)))
        root = chess.Board(record.root)
        lead = 0 if root.turn == chess.WHITE else 1
        free = axis.left  # labels left to right, none over the one before or a flag
        for ply in range(1, g.plies + 1):
            index = ply - 1 + lead
            if index % 2:
                continue
            x = self._column(cells, ply)
            img = font.render(str(root.fullmove_number + index // 2), True, c["muted"])
            box = img.get_rect(midtop=(x.centerx, axis.top))
            if box.left >= free + 6 and box.right <= axis.right and \
                    not any(box.colliderect(f[2]) for f in flags):
                surface.blit(img, box)
                free = box.right
        for color, cx, box in flags:
            h = box.height
            pygame.draw.polygon(surface, c["text"], [(cx, axis.top), (cx - h // 2, axis.top + h),
                                                     (cx + h // 2, axis.top + h)])
            letter = font.render("W" if color else "B", True, c["track"])
            surface.blit(letter, letter.get_rect(center=(cx, axis.top + h * 2 // 3)))

    def words_now(self) -> str:
        """The text line: the cell under the mouse, else the ply on show, the first
        proofs and how many positions are still being proved."""
        g = self.state.game
        if self.hover is not None:
            col = g.column(self.hover)
            where = f"ply {self.hover} · {g.label(self.hover)}"
            if not col.kp:
                return f"{where}: {NOT_YET}"
            if self.hover_cell is not None:
                m, color = self.hover_cell
                cell = col.cells.get(m, {}).get(color)
                side = chess.COLOR_NAMES[color].capitalize()
                return f"{where} · {m}, {side}: {cell_text(cell) if cell else 'proving …'}"
            return where
        words = [f"ply {g.ply}/{g.plies} · {g.label()}" if g.active else
                 "the board left the game"]
        if g.proving():
            words.append(f"exact: {g.pending()} to prove …")
        return " · ".join(words)

    def _text(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The text line and, where it fits, the key at its right."""
        c = self.painter.colours
        font = self.painter.fonts.get(self.px)
        key_w = self._key(surface, rect, draw=False)
        words = self.words_now()
        keyed = font.size(words)[0] + key_w + 12 <= rect.width  # the key where there is room
        self.words = elide(font, words, rect.width)
        img = font.render(self.words, True, c["text"])
        surface.blit(img, img.get_rect(midleft=(rect.left, rect.centery)))
        if keyed:
            self._key(surface, rect, draw=True)

    def _key(self, surface: pygame.Surface, rect: pygame.Rect, *, draw: bool) -> int:
        """The key (each shape and its words) at the right of ``rect``; its width."""
        c = self.painter.colours
        font = self.painter.fonts.get(max(8, round(self.px * 0.8)))
        s = font.get_height() - 5
        shown = self._shown_shapes()
        parts = [(shape, font.render(words, True, c["muted"])) for shape, words in KEY
                 if shape in shown]
        width = sum(s + 3 + img.get_width() + 8 for _sh, img in parts)
        if not draw:
            return width
        x = rect.right - width
        for shape, img in parts:
            box = pygame.Rect(x, rect.centery - s // 2, s, s)
            self._swatch(surface, box, shape)
            surface.blit(img, img.get_rect(midleft=(box.right + 3, rect.centery)))
            x = box.right + 3 + img.get_width() + 8
        return width

    def _shown_shapes(self) -> set[str]:
        """The key's shapes the strip draws now: the verdicts' three, and the dot, the
        flag and the marks of a disagreement when some cell has them."""
        g = self.state.game
        out = {"block", "bar", "box"}
        if g.proving():
            out.add("dot")
        if any(g.first_proved(color) is not None for color in _SIDES):
            out.add("flag")
        marks = {cell.disagrees for ply in range(g.plies + 1) if g.kp(ply)
                 for row in g.column(ply).cells.values() for cell in row.values()
                 if cell is not None}
        out |= {shape for shape, mark in (("cross", "refuted"), ("corner", "missed"))
                if mark in marks}
        return out

    def _swatch(self, surface: pygame.Surface, box: pygame.Rect, shape: str) -> None:
        c: dict[str, Any] = self.painter.colours
        if shape == "block":
            pygame.draw.rect(surface, c["banner_blocked"], box)
        elif shape == "bar":
            pygame.draw.rect(surface, c["banner_open"], (box.left, box.bottom - 3, box.width, 3))
        elif shape == "box":
            pygame.draw.rect(surface, c["banner_na"], box, 1)
        elif shape == "dot":
            pygame.draw.circle(surface, c["muted"], box.center, max(1, box.width // 4))
        elif shape == "cross":
            pygame.draw.rect(surface, c["breaks"], box)
            pygame.draw.line(surface, c["text"], box.topleft, box.bottomright, 1)
            pygame.draw.line(surface, c["text"], box.bottomleft, box.topright, 1)
        elif shape == "corner":
            pygame.draw.rect(surface, c["banner_open"], (box.left, box.bottom - 3, box.width, 3))
            pygame.draw.polygon(surface, c["changed"], [box.topleft, (box.left + box.width // 2,
                                                                      box.top),
                                                        (box.left, box.top + box.height // 2)])
        else:
            pygame.draw.polygon(surface, c["text"], [box.midtop, box.bottomleft, box.bottomright])
