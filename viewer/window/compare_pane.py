"""The Compare pane: every method on the board on show at once (the table of
``pawnfence explain --all``, :mod:`logic.compare`): a row per method (the static ones in
the registry's order, then exact), a column per side, each cell the verdict with its
rule, exact's with its time.

The static methods are decided at once; exact proves both sides in the background (a
:class:`viewer.model.jobs.Job`, "…" until its cell is in; a new board cancels it).  A cell that
exact's proof contradicts carries a letter besides its colour: ``!`` a blockage exact
refutes, ``?`` a blockage exact proves that the method misses.  A click on a cell shows
that method and side on the board with its trace (the Steps pane).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

import logic
from logic.compare import Cell, cell_of, compare, marked
from viewer.figures.textfit import wrap
from viewer.model.jobs import Job, Ticket
from viewer.model.proof import board_key, provable
from viewer.window.components import wheel_steps

if TYPE_CHECKING:
    from viewer.figures.render import Painter
    from viewer.model.actions import Host
    from viewer.model.state import ViewerState

__all__ = ["ComparePane", "MARKS", "cell_words", "method_rows"]

#: the letter in front of a cell exact's proof contradicts, by :attr:`Cell.disagrees`
MARKS = {"refuted": "!", "missed": "?"}
#: a cell whose exact proof is still running
PENDING = "…"


def method_rows() -> tuple[str, ...]:
    """The table's rows: the static methods in the registry's order, then exact."""
    return (*(m for m in logic.METHODS if logic.METHODS[m].static),
            *(m for m in logic.METHODS if not logic.METHODS[m].static))


def cell_words(cell: Cell | None) -> str:
    """A cell as the pane shows it: its mark, its verdict and rule, and for a method
    that is not static its time; :data:`PENDING` while it is being proved."""
    if cell is None:
        return PENDING
    mark = MARKS.get(cell.disagrees, "")
    words = f"{mark} {cell.text}" if mark else cell.text
    if not logic.METHODS[cell.method].static:
        words += f" · {cell.ms:,.0f} ms" if cell.ms < 1000 else f" · {cell.ms / 1000:.1f} s"
    return words


class _Request(NamedTuple):
    board: chess.Board
    key: Hashable


class ComparePane:
    """The table of every method for the state's board (see the module)."""

    #: draws every pixel of its rectangle (the view need not fill it)
    opaque = True

    def __init__(self, state: ViewerState, painter: Painter,
                 notify: Callable[[], None] | None = None) -> None:
        self.state, self.painter = state, painter
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.px = 14
        #: the dock slot the pane is in and how many slots the dock has (a click shows
        #: the trace in the other slot, or in this one when it is the only one)
        self.slot = (0, 1)
        self.scroll = 0
        self.content = 0
        #: the board key the cells are for, the static methods' cells and exact's
        self.key: Hashable = None
        self.static: dict[str, dict[bool, Cell]] = {}
        self.exact: dict[bool, Cell] = {}
        #: (method, side) -> the cell's rectangle in the last frame drawn
        self.cell_rects: dict[tuple[str, bool], pygame.Rect] = {}
        self.job: Job[_Request, dict[bool, Cell], None] = Job(
            self._prove, name="pawnfence-compare", notify=notify)

    # -- the data ---------------------------------------------------------------------
    def place(self, rect: pygame.Rect, px: int) -> None:
        """Put the part in ``rect`` (an empty rectangle hides it) with text of ``px`` pixels."""
        self.rect, self.px = rect, px

    def cells(self) -> dict[str, dict[bool, Cell | None]]:
        """The table: method -> side -> cell (None: still being proved), marked against
        exact's cells that are in."""
        got = marked({**self.static, "exact": dict(self.exact)})
        return {m: {c: got.get(m, {}).get(c) for c in (chess.WHITE, chess.BLACK)}
                for m in method_rows()}

    def update(self) -> bool:
        """Follow the board while the pane is shown (the static cells at once, exact's
        proof started) and take exact's cells that came in; True if the table changed."""
        if self.rect.width <= 0 or self.rect.height <= 0:
            return False
        board = self.state.position.editor.board
        key = board_key(board)
        changed = False
        if key != self.key:
            self._start(board, key)
            changed = True
        got = self.job.take()
        if got:
            self.exact.update(got)
            changed = True
        return changed

    def _start(self, board: chess.Board, key: Hashable) -> None:
        """The static cells of ``board`` now; exact's in the background (at once when the
        prover refuses the board: pieces, an illegal position)."""
        self.key, self.exact = key, {}
        statics = tuple(m for m in method_rows() if logic.METHODS[m].static)
        self.static = dict(compare(board, methods=statics).cells)
        self.job.cancel()
        if provable(board, key):
            self.job.submit(_Request(board.copy(stack=False), key))
        else:
            for color in (chess.WHITE, chess.BLACK):
                v = logic.detect(board, color, method="exact")
                self.exact[color] = cell_of(v, "exact", 0.0)

    def _prove(self, req: _Request, ticket: Ticket) -> None:
        """Exact for White then Black (the worker); each cell published as it is in."""
        method = logic.METHODS["exact"]
        for color in (chess.WHITE, chess.BLACK):
            if ticket.cancelled():
                return
            start = time.perf_counter()
            v = method.decide_board(req.board, color, req.key, False,
                                    cancel=ticket.cancelled)
            if ticket.cancelled():
                return
            cell = cell_of(v, "exact", (time.perf_counter() - start) * 1000)
            self.job.publish(ticket, lambda got, c=color, x=cell: {**(got or {}), c: x})

    def close(self) -> None:
        """Stop exact's proof (the window closes)."""
        self.job.close()

    # -- events -----------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, host: Host) -> bool:
        """Take ``event`` if it is this part's (True: taken, nothing else sees it): a click
        on a cell shows that method and side with its trace; the wheel scrolls."""
        if self.rect.width <= 0:
            return False
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            self.scroll = max(0, min(self.scroll + wheel_steps(event) * self.px,
                                     max(0, self.content - self.rect.height)))
            return True
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1 \
                or not self.rect.collidepoint(event.pos):
            return False
        for (method, color), rect in self.cell_rects.items():
            if rect.collidepoint(event.pos) and self.rect.contains(rect):
                self.open(method, color)
        return True

    def open(self, method: str, color: bool) -> None:
        """Show ``method`` for ``color`` on the board, its trace in the Steps pane (in the
        other slot of a dock of two)."""
        state = self.state
        state.set_method(method)
        state.set_side("white" if color else "black")
        state.playback.timeline.live()
        slot, slots = self.slot
        state.options.show_pane(1 - slot if slots == 2 else slot, "steps", slots)

    # -- drawing ----------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Draw the table in the pane's rectangle."""
        if self.rect.width <= 0 or self.rect.height <= 0:
            return
        p, c, px = self.painter, self.painter.colours, self.px
        bold, regular = p.fonts.get(px, "bold"), p.fonts.get(px)
        line = regular.get_linesize()
        surface.fill((33, 40, 45), self.rect)
        surface.set_clip(self.rect)
        x0, w = self.rect.left + 6, self.rect.width - 12
        y = self.rect.top + 4 - self.scroll
        y = self._text(surface, "Every method on this board (click a cell: its trace)",
                       bold, c["text"], x0, y, w) + 4
        name_w = min(w // 4, px * 6)
        col_w = (w - name_w) // 2
        for i, head in enumerate(("White", "Black")):
            surface.blit(bold.render(head, True, c["text"]), (x0 + name_w + i * col_w + 4, y))
        y += line + 2
        self.cell_rects = {}
        for method, row in self.cells().items():
            texts = [wrap(regular, cell_words(row[col]), col_w - 12)
                     for col in (chess.WHITE, chess.BLACK)]
            h = max(len(t) for t in texts) * line + 8
            surface.blit(bold.render(method, True, c["text"]), (x0, y + 4))
            for i, col in enumerate((chess.WHITE, chess.BLACK)):
                rect = pygame.Rect(x0 + name_w + i * col_w, y, col_w - 4, h - 2)
                self._cell(surface, rect, row[col], texts[i], line)
                self.cell_rects[(method, bool(col))] = rect
            y += h
        marks = {cell.disagrees for row in self.cells().values() for cell in row.values()
                 if cell is not None and cell.disagrees}
        keys = [f"{MARKS[m]} {words}" for m, words in
                (("refuted", "a blockage exact refutes (it forces a promotion)"),
                 ("missed", "a blockage exact proves that the method misses")) if m in marks]
        shown = f"{self.state.options.method}, {self.state.options.side}"
        for text in (*keys, f"On the board: {shown} (outlined)"):
            y = self._text(surface, text, regular, c["muted"], x0, y + 2, w)
        surface.set_clip(None)
        self.content = y + self.scroll - self.rect.top

    def _text(self, surface: pygame.Surface, text: str, font: pygame.font.Font,
              colour: Any, x: int, y: int, width: int) -> int:
        for part in wrap(font, text, width):
            surface.blit(font.render(part, True, colour), (x, y))
            y += font.get_linesize()
        return y

    def _cell(self, surface: pygame.Surface, rect: pygame.Rect, cell: Cell | None,
              lines: list[str], line: int) -> None:
        """One cell: a tinted box (a disagreement also in colour), its words, and an
        outline when it is the method and side on the board."""
        c = self.painter.colours
        bg = (52, 58, 62)
        if cell is not None and cell.disagrees:
            bg = (96, 52, 30)
        pygame.draw.rect(surface, bg, rect, border_radius=3)
        o = self.state.options
        if cell is not None and cell.method == o.method and \
                cell.color == (o.side == "white"):
            pygame.draw.rect(surface, c["changed"], rect, 2, border_radius=3)
        font = self.painter.fonts.get(self.px)
        ink = c["muted"] if cell is None else c["text"]
        for i, text in enumerate(lines):
            surface.blit(font.render(text, True, ink), (rect.left + 6, rect.top + 4 + i * line))
