"""The viewer's state model, without pygame: a composition of four parts and the message
line, with the operations that change what is analysed.

* :attr:`ViewerState.position` (:class:`~viewer.model.state_position.Position`): the board
  with its history, its caption, the playlist, a line of the analysis being played;
* :attr:`ViewerState.playback` (:class:`~viewer.model.state_playback.Playback`): the verdicts
  on show and the timeline of their steps;
* :attr:`ViewerState.proof` (:class:`~viewer.model.state_proof.ProofSession`): the background
  proof of a method that is not ``static``, its budget and note;
* :attr:`ViewerState.options` (:class:`~viewer.model.state_options.Options`): method, side,
  tool, layers, modes, export options, the dock's panes.

Everything the window shows is read from here; every change goes through a method of
the state or of a part (the action table, the gestures and the widget panel call them),
so the model can be driven and tested without a window.

Invariants (besides the parts'): ``playback``'s verdicts, structure and KPK answer
describe ``position.editor.board`` for ``options.method`` and ``options.side``; for a
method that is not ``static`` (the exact prover) the verdicts come from the background
proof: they are None while it proves, :meth:`ViewerState.poll_proof` puts its results
in place only while they are for the board, method and side on show, and any change of
those cancels the proof.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import chess

import logic
from logic.diagrams import Diagram
from logic.position import PositionError
from logic.verdict import Verdict
from logic.vocab import Status
from viewer.model.editor import is_back_rank_pawn
from viewer.model.game import GameWalk, open_games
from viewer.model.playlist import (
    CheckProgress,
    PlaylistCheck,
    UserListLoad,
    case_focus,
    progress_text,
)
from viewer.model.proof import board_key, provable
from viewer.model.settings import Settings, load_user_positions, user_list_is_large
from viewer.model.state_options import (
    DEFAULT_OPTIONS,
    OTHER_PIECES,
    SIDES,
    TOOLS,
    ExportOptions,
    Options,
)
from viewer.model.state_playback import Playback
from viewer.model.state_position import LinePlay, PlaylistEntry, Position, diagram_side
from viewer.model.state_proof import ProofSession
from viewer.model.theme import LegendItem, legend_items
from viewer.model.words import bounded

__all__ = ["ViewerState", "TOOLS", "OTHER_PIECES", "SIDES", "Message", "PlaylistEntry",
           "LinePlay", "ExportOptions", "DEFAULT_OPTIONS", "diagram_side"]


@dataclass
class Message:
    """The message line (over the banner's sub-line): ``text`` (bounded) shown for
    ``seconds``."""

    text: str = ""
    seconds: float = 0.0
    #: what the message is about ("proof": a proof's own; it goes when a new one starts)
    about: str = ""


class ViewerState:
    """The model behind the window.  Construct from :class:`Settings`; every public
    method keeps the invariants of the module."""

    def __init__(self, settings: Settings | None = None, *, caption: str = "",
                 playlist: Sequence[PlaylistEntry] = ()) -> None:
        s = settings or Settings()
        self.options = Options(s)
        self.position = Position(s.fen, caption=caption, playlist=playlist)
        self.playback = Playback(s.speed)
        self.proof = ProofSession()
        #: a game of a PGN file walked move by move (the strip along the board)
        self.game = GameWalk()
        #: the background check of the playlist (started after the first frame is shown)
        self.check = PlaylistCheck()
        #: the background load of a large list of the user's own positions
        self.user_list = UserListLoad()
        self._user_said = ""
        self._check_due = False
        self._check_said = ""
        self.message = Message()
        self.analyse(keep=False)
        if self.position.playlist:
            self._check_due = True
            self.load_playlist(0)

    # -- analysis ---------------------------------------------------------------------
    def analyse(self, *, keep: bool) -> None:
        """Run the detector for both sides on the current board (in this call); with
        ``keep`` the timeline stays on the same step number where it exists.  A method
        that is not ``static`` proves in the background instead (the verdicts are None
        until :meth:`poll_proof` finds them; asking again for what is already being
        proved, or is proved, changes nothing)."""
        board = self.position.editor.board
        method, color = self.options.method, self.options.side == "white"
        self.playback.describe(board, structure=self.options.structure_layer)
        key = board_key(board)
        self.proof.for_board(key)
        if not method.static and provable(board, key):
            self._prove(board, color, key, keep)
            return
        self.proof.drop()
        self.playback.show(logic.detect(board, color, method=method.name, trace=True),
                           logic.detect(board, not color, method=method.name), keep=keep)

    def _prove(self, board: chess.Board, color: bool, key: tuple[object, ...], keep: bool
               ) -> None:
        """Start proving ``board`` for ``color`` (and the other side) in the background,
        unless that very proof is running or in place."""
        shown = self.playback
        if self.proof.start(self.options.method.name, color, board, key,
                            shown.timeline.index if keep else None):
            shown.show(None, None, keep=False)
            if self.message.about == "proof":  # "Proof cancelled" is old news now
                self.message = Message()
        elif shown.verdict is not None:
            shown.timeline.load(shown.verdict, keep=keep)

    def poll_proof(self) -> bool:
        """Put the background proof's finished results in place when they are for the
        board, method and side on show (stale ones are dropped); True if anything
        changed."""
        outcomes = self.proof.take()
        for out in outcomes:
            if out.verdict is None:
                self.say(f"The exact prover failed: {out.error}", about="proof")
            elif out.stage == 0:
                self.playback.show_main(out.verdict, self.proof.keep_step)
            else:
                self.playback.other = out.verdict
        return bool(outcomes)

    def _unknowns(self) -> list[Verdict]:
        """The verdicts on show that are "unknown" or a "horizon" (the prover ran out of
        budget: more time may prove more)."""
        return [v for v in (self.playback.verdict, self.playback.other)
                if v is not None and v.status in (Status.UNKNOWN, Status.HORIZON)]

    def retry_proof(self) -> bool:
        """R: prove again after a cancel or a failure, or with the budget
        :func:`logic.exact.next_budget` gives when a verdict on show is "unknown"; True if
        a proof started."""
        if self.proof.note:
            self.analyse(keep=True)
            return True
        method = self.options.method
        if method.static or not self._unknowns():
            return False
        retry = self.proof.next_budget(method.max_seconds, self._unknowns())
        if retry.seconds is None:
            self.say(retry.reason)
            return False
        self.proof.seconds = retry.seconds
        self.analyse(keep=True)
        self.say(f"Proving again with {retry.seconds:g} s a side")
        return True

    def proof_budget(self) -> float:
        """The running proof's time limit per side in seconds (a raised one, else the
        method's own)."""
        return float(self.proof.seconds or self.options.method.max_seconds or 0.0)

    def proof_share(self, now: float | None = None) -> float:
        """How much of its time limit the side being proved has used at ``now``
        (``time.monotonic()``; None: now): 0 to 1, 0 when none runs or it has no limit."""
        p, budget = self.proof.proving(), self.proof_budget()
        if p is None or budget <= 0:
            return 0.0
        return max(0.0, min(1.0, p.stage_seconds(now) / budget))

    def can_prove_longer(self) -> bool:
        """Whether R can still give the proof a bigger budget
        (:func:`logic.exact.next_budget`)."""
        method = self.options.method
        if method.static:
            return False
        return self.proof.next_budget(method.max_seconds, self._unknowns()).seconds is not None

    def close(self) -> None:
        """Stop the background proof and the playlist's check (the window closes)."""
        self.proof.close()
        self.check.close()
        self.user_list.close()
        self.game.shut()

    def edited(self) -> None:
        """After any edit of the board: the captions that no longer describe the board
        go, a line being played through ends, back to the live view, re-run the
        detector."""
        self.position.edited()
        self.game.active = False  # the arrows walk the game again
        self.playback.timeline.live()
        self.analyse(keep=False)

    def legend(self) -> tuple[LegendItem, ...]:
        """The legend's items for what can be on the board now (one set per method, so
        the layout does not change when a background proof lands)."""
        o = self.options
        return legend_items(o.method, kpk=bool(self.playback.kpk), search=o.search_on)

    # -- messages ---------------------------------------------------------------------
    def say(self, text: str, seconds: float = 3.0, about: str = "") -> None:
        """Show ``text`` (bounded) on the message line for ``seconds``; ``about`` names
        what it is about ("proof": it goes as soon as a new proof starts)."""
        self.message = Message(bounded(text), seconds, about)

    def tick(self, seconds: float) -> bool:
        """Let ``seconds`` pass for the message line; True when a message just ended."""
        m = self.message
        if m.seconds <= 0:
            return False
        m.seconds -= seconds
        return m.seconds <= 0

    # -- choices that change what is analysed -----------------------------------------
    def set_method(self, method: logic.Method) -> None:
        """Analyse with ``method`` (an object of ``logic.METHODS``; another is ignored),
        keeping the step; the same method again retries a cancelled or failed proof."""
        if logic.METHODS.get(method.name) is method and (method is not self.options.method
                                                         or self.proof.note):
            self.options.method = method
            self.analyse(keep=True)

    def next_method(self) -> None:
        """The method after this one in ``logic.METHODS`` (wrapping; the first when the
        method on show is no longer registered)."""
        methods = list(logic.METHODS.values())
        now = self.options.method
        at = methods.index(now) if now in methods else -1
        self.set_method(methods[(at + 1) % len(methods)])

    def set_side(self, side: str) -> None:
        """Analyse for ``side`` ("white" or "black"), keeping the step."""
        if side != self.options.side and side in SIDES:
            self.options.side = side
            self.analyse(keep=True)

    def toggle_side(self) -> None:
        self.set_side("black" if self.options.side == "white" else "white")

    def toggle_structure(self) -> None:
        """Show or hide the pawn-structure layer."""
        self.options.structure_layer = not self.options.structure_layer
        self.analyse(keep=True)

    def toggle_search(self) -> None:
        """Show or hide the analysis (its pane takes the last slot of the dock)."""
        o = self.options
        o.search_on = not o.search_on
        o.place_analysis_pane()
        if not o.search_on:
            self.stop_line()

    def back(self) -> None:
        """Esc: close the help, else leave projector mode, else cancel a background
        proof, else leave a line being played through, else back to the live verdict."""
        o = self.options
        if o.show_help:
            o.show_help = False
        elif o.projector:
            o.projector = False
        elif self.proof.cancel():
            self.say("Proof cancelled: R proves again", about="proof")
        elif self.position.line is not None:
            self.stop_line()
        else:
            self.playback.timeline.live()

    # -- a line of the analysis, move by move ------------------------------------------
    def play_line(self, source: str, moves: Sequence[str], label: str) -> bool:
        """Play the analysis line ``moves`` (UCI, from the position on show, or from the
        root of the line being played) through on the board, starting at its root."""
        p = self.position
        root = p.line.root if p.line is not None else p.editor.fen
        if not moves:
            self.say(f"{label}: no line to play yet")
            return False
        p.line = LinePlay(root, tuple(moves), source, label)
        self.line_seek(0)
        return True

    def line_seek(self, k: int) -> None:
        """Show the line's position after ``k`` moves (its legal prefix) and re-run the
        detector there."""
        if self.position.seek_line(k):
            self.analyse(keep=True)

    def line_step(self, where: str) -> None:
        """``first``/``prev``/``next``/``last`` move of the line being played."""
        line = self.position.line
        if line is not None:
            k = line.index
            self.line_seek({"first": 0, "prev": k - 1, "next": k + 1,
                            "last": len(line.moves)}[where])

    def stop_line(self) -> None:
        """Leave the line: the board shows its root again."""
        p = self.position
        line, p.line = p.line, None
        if line is not None:
            p.editor.view(chess.Board(line.root))
            self.analyse(keep=True)

    # -- edits ------------------------------------------------------------------------
    def _after(self, changed: bool) -> bool:
        if changed:
            self.edited()
        return changed

    def undo(self) -> bool:
        return self._after(self.position.editor.undo())

    def redo(self) -> bool:
        return self._after(self.position.editor.redo())

    def clear(self) -> bool:
        return self._after(self.position.editor.clear())

    def toggle_turn(self) -> bool:
        editor = self.position.editor
        return self._after(editor.set_turn(not editor.board.turn))

    def set_ep(self, square: chess.Square | None) -> bool:
        """Set the en-passant square (None: none)."""
        return self._after(self.position.editor.set_ep(square))

    def remove(self, square: chess.Square) -> bool:
        return self._after(self.position.editor.remove(square))

    def _pawn_refused(self, square: chess.Square, piece: chess.Piece | None) -> bool:
        if is_back_rank_pawn(square, piece):
            self.say(f"A pawn cannot stand on {chess.square_name(square)}: not on the first "
                     "or eighth rank")
            return True
        return False

    def move(self, src: chess.Square, dst: chess.Square | None) -> bool:
        """Move a piece (``dst`` None: dropped off the board, deleted); a pawn dropped on
        the first or eighth rank stays where it was, with a message."""
        if dst is None:
            return self.remove(src)
        editor = self.position.editor
        if self._pawn_refused(dst, editor.board.piece_at(src)):
            return False
        return self._after(editor.move(src, dst))

    def apply_tool(self, square: chess.Square, *, toggle: bool) -> bool:
        """Use the tool on ``square``; with ``toggle`` the same piece again removes it."""
        tool, editor = self.options.tool, self.position.editor
        piece = None if tool == "x" else chess.Piece.from_symbol(tool)
        if piece is None or (toggle and editor.board.piece_at(square) == piece):
            return self.remove(square)
        if self._pawn_refused(square, piece):
            return False
        return self._after(editor.place(square, piece))

    def load_fen(self, text: str, *, caption: str = "") -> bool:
        """Load FEN/EPD text; on error show the message (bounded) and keep the board."""
        p = self.position
        try:
            changed = p.editor.set_fen(text)
        except PositionError as exc:
            self.say(f"Not loaded: {exc}")
            return False
        self.game.close()  # another position: the game and its strip go
        self._after(changed)
        if not changed and p.line is not None:  # the root again: the line ends
            p.line = None
            self.analyse(keep=False)
        p.caption, p.caption_fen = caption, p.editor.fen
        return True

    def load_diagram(self, d: Diagram) -> None:
        """Show a diagram of the library with its caption and stated verdict, for the side
        its caption is about (:func:`diagram_side`)."""
        if self.load_fen(d.fen):
            self.position.current_diagram = d
            self.set_side(diagram_side(d))

    def load_user_position(self, name: str) -> None:
        """Show the user's own position called ``name``."""
        for n, fen in self.position.user_positions:
            if n == name:
                self.load_fen(fen, caption=name)
                return

    # -- playlist ---------------------------------------------------------------------
    def set_playlist(self, entries: Sequence[PlaylistEntry]) -> None:
        """Step through ``entries`` (kept as they are: a lazy playlist parses a case when
        it is shown) from the first; their check starts after the next frame is shown."""
        self.position.playlist = entries
        self._check_due = bool(entries)
        self.load_playlist(0)

    def load_playlist(self, i: int) -> None:
        """Show playlist entry ``i`` (wrapping; parsed now), on the side and with the
        method a scan's suspect was found on; a line that is not a position is said
        (naming the line) and the board stays.  Nothing without a playlist."""
        p = self.position
        if not p.playlist:
            return
        p.playlist_index = i % len(p.playlist)
        try:
            case = p.playlist[p.playlist_index]
        except ValueError as exc:  # logic.position.CaseError: the line is not a position
            p.case_problem = str(exc)
            self.say(f"Not loaded: {exc}", seconds=6)
            return
        p.case_problem = ""
        side, name = case_focus(case.info)
        o = self.options
        method = logic.METHODS.get(name) if name else None
        focus = (method or o.method, side or o.side)
        refocus = focus != (o.method, o.side)
        o.method, o.side = focus
        revision = p.position_revision
        if self.load_fen(case.fen):
            p.case_fen = p.editor.fen
        if refocus and p.position_revision == revision:  # the same board: analyse anew
            self.analyse(keep=False)

    def after_frame(self) -> None:
        """The window has shown a frame: start the background work that waits for it (the
        playlist's check, so it never delays the first frame)."""
        if self._check_due:
            self._check_due = False
            self.check.start(self.position.playlist)
        if self.position.user_list_due:
            self.position.user_list_due = False
            self.user_list.start()

    def reload_user_positions(self) -> None:
        """Read the user's own list again (after an addition): at once when it is small,
        else in the background (the list on show stays until the new one is read)."""
        if user_list_is_large():
            self.user_list.start()
        else:
            self.position.user_positions = load_user_positions()

    def poll_user_list(self) -> bool:
        """Put the user's list in place once the background load has read it (with the
        problems found, on the message line), and say how far it is meanwhile; True
        when anything changed."""
        got = self.user_list.take()
        if got is not None:
            self.position.user_positions, problems = got
            if problems:
                self.say(" · ".join(problems), seconds=10)
            elif self.message.text == self._user_said:  # the progress said: the end too
                self.say(f"My positions: {len(got[0]):,} read")
            self._user_said = ""
            return True
        now = self.user_list.progress()
        text = f"Loading my positions {now[0]:,} / {now[1]:,}" if now and now[1] else ""
        if text == self._user_said:
            return False
        if text and (self.message.seconds <= 0 or self.message.text == self._user_said):
            self.say(text, seconds=2)
        self._user_said = text
        return True

    def poll_playlist(self) -> bool:
        """Say how far the playlist's check is on the message line (unless another
        message is on show), and what it found when it ends; True when that changed."""
        got = self.check.progress()
        if got is None:
            return False
        text = progress_text(got, self.playlist_name())
        if text == self._check_said:
            return False
        mine = self.message.seconds <= 0 or self.message.text == self._check_said
        self._check_said = text
        if mine or got.finished:
            self.say(text, seconds=8 if got.finished else 2)
        return True

    def checking(self) -> CheckProgress | None:
        """The playlist check's progress while it reads (None when none runs)."""
        return self.check.progress() if self.check.running() else None

    def playlist_name(self) -> str:
        """The playlist's file name ("playlist" for one given as a list)."""
        return str(getattr(self.position.playlist, "source", "playlist"))

    def next_case(self, delta: int) -> None:
        """The next (``delta`` 1) or previous (-1) game of the PGN file while a game is
        open, else case of the playlist."""
        if self.game.file is not None:
            open_games(self, self.game.file, self.game.index + delta)
        elif self.position.playlist:
            self.load_playlist(self.position.playlist_index + delta)

    # -- persistence ------------------------------------------------------------------
    def settings(self, base: Settings, size: tuple[int, int]) -> Settings:
        """``base`` updated with what survives a restart (the window has ``size``)."""
        o, x = self.options, self.options.export
        return replace(base, fen=self.position.saved_fen(), flipped=o.flipped,
                       method=o.method.name, side=o.side, speed=self.playback.timeline.speed,
                       structure=o.structure_layer, tool=o.tool, width=size[0],
                       height=size[1], search=o.search_on, search_seconds=o.search_seconds,
                       export_size=x.size, export_overlays=x.overlays,
                       export_banner=x.banner, export_legend=x.legend,
                       export_explanation=x.explanation, export_theme=x.theme,
                       theme=o.theme)
