"""The board editor's state: a ``chess.Board`` and an undo/redo history.

Every edit is one undo step; a stroke (painting a pawn chain with the mouse
held down) is grouped into one.  Bad FEN text raises ``logic.PositionError``
and leaves the board untouched.
"""

from __future__ import annotations

import chess

from logic.position import parse_epd_line

__all__ = ["Editor"]


def _snapshot(board: chess.Board) -> str:
    return board.fen(en_passant="fen")


class Editor:
    """A board plus its history of FEN snapshots."""

    def __init__(self, fen: str = "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1") -> None:
        self.board = chess.Board(fen)
        self._history = [_snapshot(self.board)]
        self._index = 0
        self._grouping = False

    # -- history -------------------------------------------------------------
    def _commit(self) -> bool:
        snap = _snapshot(self.board)
        if snap == self._history[self._index]:
            return False
        if self._grouping and self._index == len(self._history) - 1 and self._index > 0 \
                and self._group_start < self._index:
            self._history[self._index] = snap
            return True
        del self._history[self._index + 1:]
        self._history.append(snap)
        self._index += 1
        return True

    def begin_stroke(self) -> None:
        """Group the following edits into one undo step (until :meth:`end_stroke`)."""
        self._grouping = True
        self._group_start = self._index

    def end_stroke(self) -> None:
        """Close the group opened by :meth:`begin_stroke`."""
        self._grouping = False

    def can_undo(self) -> bool:
        return self._index > 0

    def can_redo(self) -> bool:
        return self._index < len(self._history) - 1

    def undo(self) -> bool:
        """Go back one edit; False if there is none."""
        if not self.can_undo():
            return False
        self._index -= 1
        self.board = chess.Board(self._history[self._index])
        return True

    def redo(self) -> bool:
        """Redo the edit undone last; False if there is none."""
        if not self.can_redo():
            return False
        self._index += 1
        self.board = chess.Board(self._history[self._index])
        return True

    # -- edits (each returns True if the board changed) ------------------------
    def place(self, square: chess.Square, piece: chess.Piece) -> bool:
        """Put ``piece`` on ``square``; a king replaces the other king of its colour,
        and a pawn is refused on the first or last rank."""
        if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
            return False
        if self.board.piece_at(square) == piece:
            return False
        if piece.piece_type == chess.KING:
            for s in self.board.pieces(chess.KING, piece.color):
                self.board.remove_piece_at(s)
        self.board.set_piece_at(square, piece)
        self._tidy()
        return self._commit()

    def remove(self, square: chess.Square) -> bool:
        """Empty ``square``."""
        if self.board.piece_at(square) is None:
            return False
        self.board.remove_piece_at(square)
        self._tidy()
        return self._commit()

    def move(self, src: chess.Square, dst: chess.Square) -> bool:
        """Move the piece on ``src`` to ``dst`` (replacing what is there)."""
        piece = self.board.piece_at(src)
        if piece is None or src == dst:
            return False
        if piece.piece_type == chess.PAWN and chess.square_rank(dst) in (0, 7):
            return False
        self.board.remove_piece_at(src)
        self.board.set_piece_at(dst, piece)
        self._tidy()
        return self._commit()

    def set_turn(self, color: chess.Color) -> bool:
        """Set the side to move."""
        if self.board.turn == color:
            return False
        self.board.turn = color
        self.board.ep_square = None
        return self._commit()

    def clear(self) -> bool:
        """Remove every piece."""
        self.board.clear_board()
        self._tidy()
        return self._commit()

    def set_fen(self, text: str) -> bool:
        """Load a FEN or EPD line; raises ``PositionError`` and keeps the board if bad."""
        board, _ops = parse_epd_line(text)
        self.board = board
        return self._commit()

    def _tidy(self) -> None:
        """Edits invalidate castling rights and en passant; keep the position clean."""
        self.board.castling_rights = self.board.clean_castling_rights()
        self.board.ep_square = None
        self.board.clear_stack()

    @property
    def fen(self) -> str:
        return self.board.fen()
