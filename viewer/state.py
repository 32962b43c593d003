"""The viewer's state model, without pygame: the position and its history, the method
and side under test, the step on show, the layers, the playlist, the message line and
the caption, and the analysis of the position (:meth:`ViewerState.analyse`).

Everything the window shows is read from here; every change goes through a method
here (the action table, the gestures and the widget panel call them), so the model can
be driven and tested without a window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import chess

import logic
from logic import kpk_rules
from logic.diagrams import Diagram, load_diagrams
from logic.pawns import PawnStructure
from logic.position import PositionError
from logic.verdict import Verdict
from viewer.editor import Editor
from viewer.overlay import EMPTY, Overlay, live_overlay, step_overlay
from viewer.settings import Settings, load_user_positions_checked
from viewer.text import bounded
from viewer.timeline import Timeline

__all__ = ["ViewerState", "TOOLS", "OTHER_PIECES", "SIDES", "Message", "PlaylistEntry"]

#: the editor's tools: piece symbol (or ``"x"``, the eraser) -> name
TOOLS: dict[str, str] = {"K": "White king", "P": "White pawn", "k": "Black king",
                         "p": "Black pawn", "x": "Eraser"}
#: the other pieces, chosen from a menu
OTHER_PIECES = ("Q", "R", "B", "N", "q", "r", "b", "n")
#: the sides a detector can be asked about
SIDES = ("white", "black")

PlaylistEntry = tuple[str, str, dict[str, Any]]


@dataclass
class Message:
    """The message line under the board: ``text`` (bounded) shown for ``frames`` frames."""

    text: str = ""
    frames: int = 0


class ViewerState:
    """The model behind the window.  Construct from :class:`Settings`; every public
    method keeps the invariant that ``verdict``/``other``/``structure``/``kpk`` describe
    ``editor.board`` for ``method`` and ``side`` (``analyse`` runs after each change)."""

    def __init__(self, settings: Settings | None = None, *, caption: str = "",
                 playlist: Sequence[PlaylistEntry] = ()) -> None:
        s = settings or Settings()
        try:
            self.editor = Editor(chess.Board(s.fen).fen())
        except ValueError:
            self.editor = Editor()
        self.flipped = s.flipped
        self.method = s.method if s.method in logic.METHODS else next(iter(logic.METHODS))
        self.side = s.side if s.side in SIDES else "white"
        self.tool = s.tool if s.tool in TOOLS or s.tool in OTHER_PIECES else "P"
        self.structure_layer = s.structure
        self.search_on = s.search
        self.timeline = Timeline()
        self.timeline.set_speed(s.speed)
        self.show_help = False
        self.message = Message()
        self.caption = caption
        self.diagrams: list[Diagram] = load_diagrams()
        self.user_positions, problems = load_user_positions_checked()
        #: problems found while loading, for the window to show
        self.notices: list[str] = list(problems)
        self.current_diagram: Diagram | None = None
        self.playlist: list[PlaylistEntry] = list(playlist)
        self.playlist_index = 0
        self.verdict: Verdict | None = None
        self.other: Verdict | None = None
        self.structure: PawnStructure | None = None
        self.kpk: dict[str, object] | None = None
        self.kpk_boards = (0, 0)
        #: bumped by every analysis (the search panel restarts on a new board)
        self.board_revision = 0
        #: bumped by every edit of the board (what the window saves)
        self.edits = 0
        self._overlay_memo: tuple[Any, Any, Overlay] = (None, None, EMPTY)
        self.analyse(keep=False)
        if self.playlist:
            self.load_playlist(0)

    # -- analysis ---------------------------------------------------------------------
    def analyse(self, *, keep: bool) -> None:
        """Run the detector for both sides on the current board (in this call); with
        ``keep`` the timeline stays on the same step number where it exists."""
        board = self.editor.board
        color = self.side == "white"
        self.verdict = logic.detect(board, color, method=self.method, trace=True)
        self.other = logic.detect(board, not color, method=self.method)
        self.timeline.load(self.verdict, keep=keep)
        self.structure = PawnStructure.analyse(board) if self.structure_layer else None
        self.kpk = kpk_rules.summary(board)
        self.kpk_boards = ((kpk_rules.pawn_square(board), kpk_rules.key_squares(board))
                           if self.kpk else (0, 0))
        self.board_revision += 1

    def edited(self) -> None:
        """After any edit of the board: back to the live view and re-run the detector."""
        self.edits += 1
        d = self.current_diagram
        if d is not None and d.fen != self.editor.fen:
            self.current_diagram = None
        self.timeline.live()
        self.analyse(keep=False)

    def overlay(self) -> Overlay:
        """What the board shows now: the step being played back, or the live verdict."""
        v, tl = self.verdict, self.timeline
        if v is None:
            return EMPTY
        memo_key = (tl.index, self.kpk_boards)
        held, key_held, overlay = self._overlay_memo
        if held is v and key_held == memo_key:
            return overlay  # the frame loop asks every frame
        if tl.index is not None and v.steps:
            overlay = step_overlay(v, tl.index)
        else:
            overlay = live_overlay(v)
            if self.kpk:
                overlay = replace(overlay, kpk_square=self.kpk_boards[0],
                                  kpk_keys=self.kpk_boards[1])
        self._overlay_memo = (v, memo_key, overlay)  # holding v keeps the identity test valid
        return overlay

    # -- messages ---------------------------------------------------------------------
    def say(self, text: str, frames: int = 180) -> None:
        """Show ``text`` (bounded) on the message line for ``frames`` frames."""
        self.message = Message(bounded(text), frames)

    # -- choices ----------------------------------------------------------------------
    def set_method(self, method: str) -> None:
        """Analyse with ``method`` (a key of ``logic.METHODS``), keeping the step."""
        if method != self.method and method in logic.METHODS:
            self.method = method
            self.analyse(keep=True)

    def next_method(self) -> None:
        """The method after this one in ``logic.METHODS`` (wrapping)."""
        names = list(logic.METHODS)
        self.set_method(names[(names.index(self.method) + 1) % len(names)])

    def set_side(self, side: str) -> None:
        """Analyse for ``side`` ("white" or "black"), keeping the step."""
        if side != self.side and side in SIDES:
            self.side = side
            self.analyse(keep=True)

    def toggle_side(self) -> None:
        self.set_side("black" if self.side == "white" else "white")

    def toggle_flip(self) -> None:
        self.flipped = not self.flipped

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def toggle_structure(self) -> None:
        """Show or hide the pawn-structure layer."""
        self.structure_layer = not self.structure_layer
        self.analyse(keep=True)

    def toggle_search(self) -> None:
        """Show or hide the search panel (the panel starts its analysis)."""
        self.search_on = not self.search_on

    def select_tool(self, tool: str) -> None:
        """Choose a tool: a piece symbol or ``"x"`` (the eraser)."""
        if tool in TOOLS or tool in OTHER_PIECES:
            self.tool = tool

    def back(self) -> None:
        """Esc: close the help, else back to the live verdict."""
        if self.show_help:
            self.show_help = False
        else:
            self.timeline.live()

    # -- playback ---------------------------------------------------------------------
    def step_to(self, where: str) -> None:
        """``first``/``prev``/``next``/``last`` step; stepping by hand stops playback."""
        tl = self.timeline
        tl.playing = False
        {"first": tl.first, "prev": tl.prev, "next": tl.next, "last": tl.last}[where]()

    def seek(self, k: int) -> None:
        """Show step ``k`` (the scrubber); stops playback."""
        if self.timeline.count:
            self.timeline.playing = False
            self.timeline.seek(k)

    # -- edits ------------------------------------------------------------------------
    def _after(self, changed: bool) -> bool:
        if changed:
            self.edited()
        return changed

    def undo(self) -> bool:
        return self._after(self.editor.undo())

    def redo(self) -> bool:
        return self._after(self.editor.redo())

    def clear(self) -> bool:
        return self._after(self.editor.clear())

    def toggle_turn(self) -> bool:
        return self._after(self.editor.set_turn(not self.editor.board.turn))

    def remove(self, square: chess.Square) -> bool:
        return self._after(self.editor.remove(square))

    def move(self, src: chess.Square, dst: chess.Square | None) -> bool:
        """Move a piece (``dst`` None: dropped off the board, deleted)."""
        if dst is None:
            return self.remove(src)
        return self._after(self.editor.move(src, dst))

    def apply_tool(self, square: chess.Square, *, toggle: bool) -> bool:
        """Use the tool on ``square``; with ``toggle`` the same piece again removes it."""
        piece = None if self.tool == "x" else chess.Piece.from_symbol(self.tool)
        if piece is None or (toggle and self.editor.board.piece_at(square) == piece):
            return self.remove(square)
        return self._after(self.editor.place(square, piece))

    def load_fen(self, text: str, *, caption: str = "") -> bool:
        """Load FEN/EPD text; on error show the message (bounded) and keep the board."""
        try:
            changed = self.editor.set_fen(text)
        except PositionError as exc:
            self.say(f"Not loaded: {exc}")
            return False
        self.caption = caption
        self._after(changed)
        return True

    def load_diagram(self, d: Diagram) -> None:
        """Show a diagram of the library with its caption and stated verdict."""
        if self.load_fen(d.fen):
            self.current_diagram = d

    def load_user_position(self, name: str) -> None:
        """Show the user's own position called ``name``."""
        for n, fen in self.user_positions:
            if n == name:
                self.load_fen(fen, caption=name)
                return

    # -- playlist ---------------------------------------------------------------------
    def set_playlist(self, entries: Sequence[PlaylistEntry]) -> None:
        self.playlist = list(entries)
        self.load_playlist(0)

    def load_playlist(self, i: int) -> None:
        """Show playlist entry ``i`` (wrapping); nothing without a playlist."""
        if not self.playlist:
            return
        self.playlist_index = i % len(self.playlist)
        self.load_fen(self.playlist[self.playlist_index][1])

    def next_case(self, delta: int) -> None:
        if self.playlist:
            self.load_playlist(self.playlist_index + delta)

    # -- persistence ------------------------------------------------------------------
    def settings(self, base: Settings, size: tuple[int, int]) -> Settings:
        """``base`` updated with what survives a restart (the window has ``size``)."""
        return replace(base, fen=self.editor.fen, flipped=self.flipped, method=self.method,
                       side=self.side, speed=self.timeline.speed,
                       structure=self.structure_layer, tool=self.tool, width=size[0],
                       height=size[1], search=self.search_on)
