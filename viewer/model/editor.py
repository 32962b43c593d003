"""The board editor's state: a ``chess.Board`` and an undo/redo history.

Every edit is one undo step; a stroke (painting a pawn chain with the mouse
held down) is grouped into one.  Bad FEN text raises ``logic.PositionError``
and leaves the board untouched.  An en-passant square survives an edit while it is
still valid (:func:`ep_candidates`) and can be set (:meth:`Editor.set_ep`); the FEN
shows it whenever it is set (python-chess's ``en_passant="fen"``).  :meth:`Editor.view`
shows a board without making it an edit (a line played through from the analysis).
"""

from __future__ import annotations

import chess

from logic.position import parse_epd_line

__all__ = ["Editor", "ep_candidates", "is_back_rank_pawn"]


def _snapshot(board: chess.Board) -> str:
    return board.fen(en_passant="fen")


def ep_candidates(board: chess.Board) -> list[chess.Square]:
    """The squares that may be the en-passant square of ``board``: on the sixth rank
    (White to move; the third for Black) with an opposing pawn in front of it that could
    just have made a double step (the square and the one it came from empty)."""
    out = []
    rank, step = (5, -8) if board.turn == chess.WHITE else (2, 8)
    them = board.occupied_co[not board.turn] & board.pawns
    for f in range(8):
        sq = chess.square(f, rank)
        if them >> (sq + step) & 1 and not board.occupied >> sq & 1 \
                and not board.occupied >> (sq - step) & 1:
            out.append(sq)
    return out


def is_back_rank_pawn(square: chess.Square, piece: chess.Piece | None) -> bool:
    """Whether ``piece`` is a pawn and ``square`` on the first or eighth rank."""
    return piece is not None and piece.piece_type == chess.PAWN and \
        chess.square_rank(square) in (0, 7)


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
        self.board.ep_square = None  # the side that double-stepped is now to move
        return self._commit()

    def clear(self) -> bool:
        """Remove every piece."""
        self.board.clear_board()
        self._tidy()
        return self._commit()

    def set_ep(self, square: chess.Square | None) -> bool:
        """Set the en-passant square (None: none); a square that is not one of
        :func:`ep_candidates` is refused (False)."""
        if square is not None and square not in ep_candidates(self.board):
            return False
        if self.board.ep_square == square:
            return False
        self.board.ep_square = square
        return self._commit()

    def view(self, board: chess.Board) -> None:
        """Show ``board`` without recording an edit (undo goes back to the last edit)."""
        self.board = board.copy(stack=False)

    def set_fen(self, text: str) -> bool:
        """Load a FEN or EPD line; raises ``PositionError`` and keeps the board if bad."""
        board, _ops = parse_epd_line(text)
        self.board = board
        return self._commit()

    def _tidy(self) -> None:
        """Keep the position clean after an edit: castling rights that no longer apply
        go, and an en-passant square that is no longer valid."""
        self.board.castling_rights = self.board.clean_castling_rights()
        if self.board.ep_square is not None and \
                self.board.ep_square not in ep_candidates(self.board):
            self.board.ep_square = None
        self.board.clear_stack()

    @property
    def fen(self) -> str:
        """The board's FEN, with the en-passant square whenever one is set."""
        return self.board.fen(en_passant="fen")
