"""Mouse gestures on the board: press, drag, paint, drop.

* press on an empty square and release: the tool is used there (placing a piece, or
  with the eraser removing one);
* press on an empty square and move: paint, i.e. use the tool on every square entered
  (a pawn chain; the whole stroke is one undo step);
* press on a piece and release without moving: the tool toggles (the same piece again
  removes it); press on a piece and move: drag it, drop it on a square to move it or
  off the board to delete it;
* right-click: delete the piece under the mouse.

:class:`Gestures` owns the gesture in progress and turns it into state changes; the
window draws the dragged piece at :attr:`Press.cursor`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess
import pygame

from viewer.figures.render import square_at

if TYPE_CHECKING:
    from viewer.model.state import ViewerState

__all__ = ["Gestures", "Press", "GESTURE_HELP"]

#: the help overlay's lines for the mouse
GESTURE_HELP: tuple[tuple[str, str], ...] = (
    ("Click", "place the selected piece (click it again to remove it)"),
    ("Drag on empty squares", "paint: a pawn chain, or erase with the eraser"),
    ("Drag a piece", "move it; drop it off the board to delete it"),
    ("Right-click", "delete the piece under the mouse"),
    ("Mouse over a square", "its reason: the pawn's note, or the step about the square"),
    ("Click the legend", "fold / unfold it in a small window"),
    ("Click a Compare cell", "that method and side on the board, with its trace"),
    ("Click or drag the game strip", "walk the game there; the mouse over a cell names it"),
)

#: a press becomes a drag once the mouse moved more than this many pixels
DRAG_PIXELS = 4


@dataclass
class Press:
    """A left-button gesture in progress."""

    square: chess.Square
    pos: tuple[int, int]
    piece: chess.Piece | None
    stroke: bool = False
    dragging: bool = False
    painted: set[int] = field(default_factory=set)
    cursor: tuple[int, int] | None = None


class Gestures:
    """The board's mouse gestures for one state; ``board_rect`` is where the board is."""

    def __init__(self, state: ViewerState) -> None:
        self.state = state
        self.press: Press | None = None

    def dragged(self) -> Press | None:
        """The press whose piece is being dragged (drawn at the cursor), else None."""
        p = self.press
        return p if p is not None and p.dragging else None

    def handle(self, event: pygame.event.Event, board_rect: pygame.Rect) -> bool:
        """Process a mouse event; True if it was one of the board's."""
        if event.type == pygame.MOUSEBUTTONDOWN:
            self._down(event, board_rect)
        elif event.type == pygame.MOUSEMOTION:
            self._motion(event, board_rect)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._up(event, board_rect)
        else:
            return False
        return True

    def _down(self, event: pygame.event.Event, rect: pygame.Rect) -> None:
        state = self.state
        sq = square_at(rect, event.pos, state.options.flipped)
        if sq is None:
            return
        if event.button == 3:
            state.remove(sq)
            return
        if event.button != 1:
            return
        piece = state.position.editor.board.piece_at(sq)
        self.press = Press(sq, event.pos, piece, painted={sq})
        if piece is None:
            state.position.editor.begin_stroke()
            self.press.stroke = True
            state.apply_tool(sq, toggle=False)

    def _motion(self, event: pygame.event.Event, rect: pygame.Rect) -> None:
        p = self.press
        if p is None:
            return
        if p.stroke:
            sq = square_at(rect, event.pos, self.state.options.flipped)
            if sq is not None and sq not in p.painted:
                p.painted.add(sq)
                self.state.apply_tool(sq, toggle=False)
            return
        dx, dy = event.pos[0] - p.pos[0], event.pos[1] - p.pos[1]
        if dx * dx + dy * dy > DRAG_PIXELS * DRAG_PIXELS:
            p.dragging = True
        p.cursor = event.pos

    def _up(self, event: pygame.event.Event, rect: pygame.Rect) -> None:
        p, self.press = self.press, None
        if p is None or event.button != 1:
            return
        if p.stroke:
            self.state.position.editor.end_stroke()
            return
        if p.dragging:
            self.state.move(p.square, square_at(rect, event.pos, self.state.options.flipped))
        else:
            self.state.apply_tool(p.square, toggle=True)
