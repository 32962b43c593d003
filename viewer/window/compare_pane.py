"""The Compare pane: every method on the board on show at once (the table of
``pawnfence explain --all``, :mod:`logic.compare`): a row per method
(:func:`logic.compare.method_rows`: the static ones in the registry's order, then the
others, the prover last), a column per side, each cell the verdict with its rule, a
method that searches with its time.

The static methods are decided at once; the others (exact) prove both sides in the
background (a :class:`viewer.model.jobs.Job`, "…" until a cell is in; a new board cancels
it).  A cell that the prover's proof contradicts carries a letter besides its colour:
``!`` a blockage exact refutes, ``?`` a blockage exact proves that the method misses.  A
click on a cell shows that method and side on the board with its trace (the Steps pane).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

import logic
from logic.compare import MARKS, Cell, cell_of, compare, disagreement_keys, marked, method_rows
from viewer.figures.textfit import wrap
from viewer.model.jobs import Job, Ticket
from viewer.model.proof import board_key, provable
from viewer.window.components import wheel_steps

if TYPE_CHECKING:
    from viewer.figures.render import Painter
    from viewer.model.actions import Host
    from viewer.model.state import ViewerState

__all__ = ["ComparePane", "MARKS", "cell_words", "method_rows"]

#: a cell whose proof is still running
PENDING = "…"


def cell_words(cell: Cell | None) -> str:
    """A cell as the pane shows it: its mark, its verdict and rule, and for a method
    that is not static its time; :data:`PENDING` while it is being proved."""
    if cell is None:
        return PENDING
    mark = MARKS.get(cell.disagrees, "")
    words = f"{mark} {cell.text}" if mark else cell.text
    method = logic.METHODS.get(cell.method)
    if method is not None and not method.static:
        words += f" · {cell.ms:,.0f} ms" if cell.ms < 1000 else f" · {cell.ms / 1000:.1f} s"
    return words


class _Request(NamedTuple):
    board: chess.Board
    key: tuple[Any, ...]
    #: the methods to prove (those that are not static), in the table's order
    methods: tuple[logic.Method, ...]


#: what the background job publishes: method name -> side -> cell
_Cells = dict[str, dict[bool, Cell]]


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
        #: the board key the cells are for, the static methods' cells and the others'
        #: (those proved in the background), by method name then side
        self.key: tuple[Any, ...] | None = None
        self.static: _Cells = {}
        self.proved: _Cells = {}
        #: (method, side) -> the cell's rectangle in the last frame drawn
        self.cell_rects: dict[tuple[str, bool], pygame.Rect] = {}
        self.job: Job[_Request, _Cells, None] = Job(
            self._prove, name="pawnfence-compare", notify=notify)

    # -- the data ---------------------------------------------------------------------
    def place(self, rect: pygame.Rect, px: int) -> None:
        """Put the part in ``rect`` (an empty rectangle hides it) with text of ``px`` pixels."""
        self.rect, self.px = rect, px

    def cells(self) -> dict[str, dict[bool, Cell | None]]:
        """The table: method -> side -> cell (None: still being proved), marked against
        the prover's cells that are in."""
        got = marked({**self.static, **self.proved})
        return {m: {c: got.get(m, {}).get(c) for c in (chess.WHITE, chess.BLACK)}
                for m in method_rows()}

    def update(self) -> bool:
        """Follow the board while the pane is shown (the static cells at once, the others'
        proofs started) and take the proved cells that came in; True if the table
        changed."""
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
            for name, row in got.items():
                self.proved.setdefault(name, {}).update(row)
            changed = True
        return changed

    def _start(self, board: chess.Board, key: tuple[Any, ...]) -> None:
        """The static cells of ``board`` now; the others' in the background (at once when
        the board is not a legal K+P position: pieces, an illegal position)."""
        self.key, self.proved = key, {}
        rows = [logic.METHODS[name] for name in method_rows()]
        statics = tuple(m.name for m in rows if m.static)
        self.static = dict(compare(board, methods=statics).cells)
        self.job.cancel()
        slow = tuple(m for m in rows if not m.static)
        if not slow:
            return
        if provable(board, key):
            self.job.submit(_Request(board.copy(stack=False), key, slow))
        else:
            self.proved = dict(compare(board, methods=tuple(m.name for m in slow)).cells)

    def _prove(self, req: _Request, ticket: Ticket) -> None:
        """Each method that is not static, for White then Black (the worker); each cell
        published as it is in."""
        for method in req.methods:
            for color in (chess.WHITE, chess.BLACK):
                if ticket.cancelled():
                    return
                start = time.perf_counter()
                v = method.decide_board(req.board, color, req.key, False,
                                        cancel=ticket.cancelled)
                if ticket.cancelled():
                    return
                cell = cell_of(v, method.name, (time.perf_counter() - start) * 1000)
                self.job.publish(ticket, functools.partial(_with, cell=cell))

    def close(self) -> None:
        """Stop the background proofs (the window closes)."""
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
        """Show the method called ``method`` for ``color`` on the board, its trace in the
        Steps pane (in the other slot of a dock of two)."""
        state = self.state
        chosen = logic.METHODS.get(method)
        if chosen is not None:
            state.set_method(chosen)
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
        keys = [f"{MARKS[m]} {words}" for m, words in disagreement_keys() if m in marks]
        shown = f"{self.state.options.method.name}, {self.state.options.side}"
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
        if cell is not None and cell.method == o.method.name and \
                cell.color == (o.side == "white"):
            pygame.draw.rect(surface, c["changed"], rect, 2, border_radius=3)
        font = self.painter.fonts.get(self.px)
        ink = c["muted"] if cell is None else c["text"]
        for i, text in enumerate(lines):
            surface.blit(font.render(text, True, ink), (rect.left + 6, rect.top + 4 + i * line))


def _with(got: _Cells | None, *, cell: Cell) -> _Cells:
    """``got`` (the cells published so far) with ``cell`` added."""
    out = {name: dict(row) for name, row in (got or {}).items()}
    out.setdefault(cell.method, {})[cell.color] = cell
    return out
