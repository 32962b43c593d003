"""The position on the board (part of :class:`viewer.model.state.ViewerState`, without pygame):
the editor with its history (undo/redo), what it was loaded from (a caption, a library
diagram, a playlist's case), a line of the analysis being played through, and what can
be loaded (the library, the user's own positions).

Invariants: a caption (library, playlist, the command line) is shown only while the
board still shows its position (:meth:`Position.shown_caption`); ``position_revision``
changes exactly when the position under analysis changes (an edit or a load, not a move
of a line being played through); ``edits`` counts every edit of the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from logic.diagrams import Diagram, load_diagrams
from logic.position import PlaylistCase
from viewer.model.editor import Editor
from viewer.model.settings import load_user_positions_checked, user_list_is_large

__all__ = ["Position", "PlaylistEntry", "LinePlay", "diagram_side"]

#: a case of a playlist (:class:`logic.position.PlaylistCase`)
PlaylistEntry = PlaylistCase


@dataclass
class LinePlay:
    """A line of the analysis played through on the board: from ``root`` (a FEN) the UCI
    ``moves``, ``index`` of them played; ``source`` names the analysis column
    (``with``, ``without``, ``engine``) and ``label`` says it in words."""

    root: str
    moves: tuple[str, ...]
    source: str
    label: str
    index: int = 0


def diagram_side(d: Diagram) -> str:
    """The side a library diagram's caption is about: the side its stated verdicts name
    (the paper's Diagram 3 is White's false advantage, though Black has more pawns),
    else the side with more pawns (the side whose win is in question), else White."""
    exp = next((e for e in d.expect.values() if e is not None), None)
    if exp is not None:
        return "white" if exp.side else "black"
    board = d.board()
    w, b = (len(board.pieces(chess.PAWN, c)) for c in (chess.WHITE, chess.BLACK))
    return "black" if b > w else "white"


def legal_prefix(root: str, moves: Sequence[str], k: int) -> tuple[chess.Board, int]:
    """The board after the first ``k`` of ``moves`` (UCI) from ``root`` (clamped to the
    line), stopping before the first move that does not parse or is illegal; the board
    and the number of moves played."""
    board = chess.Board(root)
    k = max(0, min(k, len(moves)))
    for n, uci in enumerate(moves[:k]):
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            return board, n
        if not board.is_legal(move):
            return board, n
        board.push(move)
    return board, k


class Position:
    """The board and where it came from (see the module's invariants)."""

    def __init__(self, fen: str, *, caption: str = "",
                 playlist: Sequence[PlaylistEntry] = ()) -> None:
        """Start from ``fen`` (the default position if it does not parse), shown with
        ``caption``; ``playlist``: the cases to step through (kept as it is: a lazy
        :class:`logic.position.Playlist` parses a case only when it is shown)."""
        try:
            self.editor = Editor(chess.Board(fen).fen(en_passant="fen"))
        except ValueError:
            self.editor = Editor()
        self.caption = caption
        self.caption_fen = self.editor.fen if caption else ""
        self.current_diagram: Diagram | None = None
        self.diagrams: list[Diagram] = load_diagrams()
        #: a large list of the user's own is read in the background after the first frame
        self.user_list_due = user_list_is_large()
        self.user_positions, problems = ([], ()) if self.user_list_due else \
            load_user_positions_checked()
        #: problems found while loading, for the window to show
        self.notices: list[str] = list(problems)
        self.playlist: Sequence[PlaylistEntry] = playlist
        self.playlist_index = 0
        self.case_fen = ""
        #: why the playlist's current case could not be shown ("" when it is shown)
        self.case_problem = ""
        self.line: LinePlay | None = None
        #: bumped when the position under analysis changes (the analysis pane restarts)
        self.position_revision = 0
        #: bumped by every edit of the board (what the window saves)
        self.edits = 0

    def edited(self) -> None:
        """After any edit of the board: the captions that no longer describe the board
        go and a line being played through ends."""
        self.edits += 1
        self.position_revision += 1
        fen = self.editor.fen
        d = self.current_diagram
        if d is not None and d.fen != fen:
            self.current_diagram = None
        if self.caption and self.caption_fen != fen:
            self.caption = ""
        self.line = None

    def shown_caption(self) -> str:
        """The caption (or the library diagram's), while the board shows the position it
        was given for."""
        if self.caption and self.caption_fen == self.editor.fen:
            return self.caption
        d = self.current_diagram
        return f"{d.id}: {d.caption}" if d is not None and d.fen == self.editor.fen else ""

    def case_shown(self) -> bool:
        """Whether the board shows the playlist's current case."""
        return bool(self.playlist) and not self.case_problem and self.case_fen == self.editor.fen

    def case(self) -> PlaylistEntry | None:
        """The playlist's current case while the board shows it (None otherwise)."""
        return self.playlist[self.playlist_index] if self.case_shown() else None

    def seek_line(self, k: int) -> bool:
        """Show the position after ``k`` moves (its legal prefix) of the line being played
        through; False (nothing changed) without a line."""
        line = self.line
        if line is None:
            return False
        board, line.index = legal_prefix(line.root, line.moves, k)
        self.editor.view(board)
        return True

    def saved_fen(self) -> str:
        """The position that survives a restart: the board, or the root of the line being
        played through."""
        return self.editor.fen if self.line is None else self.line.root
