"""The viewer's state model, without pygame: the position and its history, the method
and side under test, the step on show, the layers, the playlist, the message line and
the caption, the dock's panes, a line from the analysis being played through, and the
analysis of the position (:meth:`ViewerState.analyse`).

Everything the window shows is read from here; every change goes through a method
here (the action table, the gestures and the widget panel call them), so the model can
be driven and tested without a window.

Invariants: ``verdict``/``other``/``structure``/``kpk`` describe ``editor.board`` for
``method`` and ``side`` (for a method that is not ``static``, the exact prover, the
verdicts come from a background :class:`~viewer.proof.ProofJob`: they are None while
it proves, :meth:`ViewerState.poll_proof` puts its results in place only while they
are for the board, method and side on show, and any change of those cancels the job);
a caption (library, playlist, the command line) is shown only
while the board still shows its position (an edit clears it); ``position_revision``
changes exactly when the position under analysis changes (an edit or a load, not a
move of a line being played through).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import chess

import logic
from logic import kpk_rules
from logic.blockage import prepare
from logic.diagrams import Diagram, load_diagrams
from logic.exact import Retry, next_budget
from logic.pawns import PawnStructure
from logic.position import PositionError
from logic.verdict import Verdict
from viewer.editor import Editor, is_back_rank_pawn
from viewer.overlay import EMPTY, Overlay, live_overlay, step_overlay
from viewer.proof import Progress, ProofJob, board_key
from viewer.settings import Settings, load_user_positions_checked
from viewer.text import bounded
from viewer.theme import PANES, LegendItem, legend_items
from viewer.timeline import Timeline

__all__ = ["ViewerState", "TOOLS", "OTHER_PIECES", "SIDES", "Message", "PlaylistEntry",
           "LinePlay", "ExportOptions", "diagram_side"]

#: the editor's tools: piece symbol (or ``"x"``, the eraser) -> name
TOOLS: dict[str, str] = {"K": "White king", "P": "White pawn", "k": "Black king",
                         "p": "Black pawn", "x": "Eraser"}
#: the other pieces, chosen from a menu
OTHER_PIECES = ("Q", "R", "B", "N", "q", "r", "b", "n")
#: the sides a detector can be asked about
SIDES = ("white", "black")
#: the panes a dock of one or two slots shows at first
DEFAULT_PANES = {1: ("story",), 2: ("steps", "code")}

PlaylistEntry = tuple[str, str, dict[str, Any]]


@dataclass
class Message:
    """The message line (over the banner's sub-line): ``text`` (bounded) shown for
    ``seconds``."""

    text: str = ""
    seconds: float = 0.0


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


@dataclass(frozen=True)
class ExportOptions:
    """What an export holds: the board's ``size`` in pixels, and whether it shows the
    ``overlays``, the ``banner``, the ``legend`` and the ``explanation`` (all False: the
    board only)."""

    size: int = 720
    overlays: bool = True
    banner: bool = True
    legend: bool = True
    explanation: bool = True


#: the export options of a fresh installation
DEFAULT_OPTIONS = ExportOptions()


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




class ViewerState:
    """The model behind the window.  Construct from :class:`Settings`; every public
    method keeps the invariants of the module."""

    def __init__(self, settings: Settings | None = None, *, caption: str = "",
                 playlist: Sequence[PlaylistEntry] = ()) -> None:
        s = settings or Settings()
        try:
            self.editor = Editor(chess.Board(s.fen).fen(en_passant="fen"))
        except ValueError:
            self.editor = Editor()
        self.flipped = s.flipped
        methods = logic.METHODS
        self.method = s.method if s.method in methods else next(iter(methods))
        self.side = s.side if s.side in SIDES else "white"
        self.tool = s.tool if s.tool in TOOLS or s.tool in OTHER_PIECES else "P"
        self.structure_layer = s.structure
        self.search_on = s.search
        self.search_seconds = s.search_seconds
        self.export = ExportOptions(s.export_size, s.export_overlays, s.export_banner,
                                    s.export_legend, s.export_explanation)
        self.timeline = Timeline()
        self.timeline.set_speed(s.speed)
        self.show_help = False
        self.projector = False
        self.message = Message()
        self.caption = caption
        self.caption_fen = self.editor.fen if caption else ""
        self.diagrams: list[Diagram] = load_diagrams()
        self.user_positions, problems = load_user_positions_checked()
        #: problems found while loading, for the window to show
        self.notices: list[str] = list(problems)
        self.current_diagram: Diagram | None = None
        self.playlist: list[PlaylistEntry] = list(playlist)
        self.playlist_index = 0
        self.case_fen = ""
        self.line: LinePlay | None = None
        #: the panes the dock shows, per number of slots
        self.panes: dict[int, list[str]] = {n: list(p) for n, p in DEFAULT_PANES.items()}
        self._analysis_pane()
        self.verdict: Verdict | None = None
        self.other: Verdict | None = None
        self.structure: PawnStructure | None = None
        self.kpk: dict[str, object] | None = None
        self.kpk_boards = (0, 0)
        #: bumped by every analysis (any change of what the detector looked at)
        self.board_revision = 0
        #: bumped when the position under analysis changes (the analysis pane restarts)
        self.position_revision = 0
        #: bumped by every edit of the board (what the window saves)
        self.edits = 0
        self._overlay_memo: tuple[Any, Any, Overlay] = (None, None, EMPTY)
        #: the background proof of a method that is not static (the window sets its
        #: ``notify``); ``proof_token`` names what the verdicts on show are for
        self.proof = ProofJob()
        self.proof_token: Any = None
        #: why there is no verdict although the method is not static ("" while proving
        #: or when the verdicts are in): "cancelled ..." or "failed: ..."
        self.proof_note = ""
        #: the proof's budget per side (None: the method's own); R after an "unknown"
        #: doubles it for the board on show, a new board starts from the default again
        self.proof_seconds: float | None = None
        self._budget_board: Any = None
        self._keep_index: int | None = None
        self.analyse(keep=False)
        if self.playlist:
            self.load_playlist(0)

    # -- analysis ---------------------------------------------------------------------
    def analyse(self, *, keep: bool) -> None:
        """Run the detector for both sides on the current board (in this call); with
        ``keep`` the timeline stays on the same step number where it exists.  A method
        that is not ``static`` proves in the background instead (the verdicts are None
        until :meth:`poll_proof` finds them; asking again for what is already being
        proved, or is proved, changes nothing)."""
        board = self.editor.board
        color = self.side == "white"
        self.structure = PawnStructure.analyse(board) if self.structure_layer else None
        self.kpk = kpk_rules.summary(board)
        self.kpk_boards = ((kpk_rules.pawn_square(board), kpk_rules.key_squares(board))
                           if self.kpk else (0, 0))
        self.board_revision += 1
        key = board_key(board)
        if key != self._budget_board:  # a doubled budget is for its board alone
            self._budget_board, self.proof_seconds = key, None
        if not logic.METHODS[self.method].static and len(prepare(board, key)) != 2:
            self._prove(board, color, key, keep)
            return
        self._drop_proof()
        self.verdict = logic.detect(board, color, method=self.method, trace=True)
        self.other = logic.detect(board, not color, method=self.method)
        self.timeline.load(self.verdict, keep=keep)

    # -- the background proof -----------------------------------------------------------
    def _prove(self, board: chess.Board, color: bool, key: tuple[Any, ...], keep: bool
               ) -> None:
        """Start proving ``board`` for ``color`` (and the other side) in the background,
        unless that very proof is running or in place."""
        token = (self.method, color, key, self.proof_seconds)
        if token == self.proof_token and not self.proof_note:
            if self.verdict is not None:
                self.timeline.load(self.verdict, keep=keep)
            return
        self._keep_index = self.timeline.index if keep else None
        self.proof_token, self.proof_note = token, ""
        self.verdict = self.other = None
        self.timeline.load(None, keep=False)
        self.proof.start(token, board, color, self.method, self.proof_seconds)

    def _drop_proof(self) -> None:
        """Forget the background proof (cancelled if it runs)."""
        self.proof.cancel()
        self.proof_token, self.proof_note = None, ""

    def proving(self) -> Progress | None:
        """The background proof's progress while it runs for what the board shows."""
        p = self.proof.progress
        return p if p is not None and p.token == self.proof_token and self.proof.running \
            else None

    def cancel_proof(self) -> bool:
        """Esc: stop the background proof (the board keeps no verdict; the banner says
        so); True if one was running."""
        p = self.proving()
        if p is None or not self.proof.cancel():
            return False
        side = chess.COLOR_NAMES[p.color].capitalize()
        self.proof_note = (f"cancelled while proving for {side} after {p.structures:,} "
                           f"structures, {p.seconds():.1f} s")
        return True

    def retry_proof(self) -> bool:
        """R: prove again after a cancel or a failure, or with the budget
        :func:`logic.exact.next_budget` gives when a verdict on show is "unknown"; True if
        a proof started."""
        if self.proof_note:
            self.analyse(keep=True)
            return True
        method = logic.METHODS[self.method]
        if method.static or not any(v is not None and v.status == "unknown"
                                    for v in (self.verdict, self.other)):
            return False
        retry = self._next_budget()
        if retry.seconds is None:
            self.say(retry.reason)
            return False
        self.proof_seconds = retry.seconds
        self.analyse(keep=True)
        self.say(f"Proving again with {self.proof_seconds:g} s a side")
        return True

    def _next_budget(self) -> Retry:
        method = logic.METHODS[self.method]
        now = self.proof_seconds or method.max_seconds
        return next_budget(now, [v.detail.result.ran_out for v in (self.verdict, self.other)
                                 if v is not None and v.status == "unknown"
                                 and v.detail is not None])

    def can_prove_longer(self) -> bool:
        """Whether R can still give the proof a bigger budget
        (:func:`logic.exact.next_budget`)."""
        if logic.METHODS[self.method].static:
            return False
        return self._next_budget().seconds is not None

    def poll_proof(self) -> bool:
        """Put the background proof's finished results in place when they are for the
        board, method and side on show (stale ones are dropped); True if anything
        changed."""
        changed = False
        for out in self.proof.take():
            if out.token != self.proof_token:
                continue
            changed = True
            if out.verdict is None:
                self.proof_note = f"failed: {bounded(out.error)}"
                self.say(f"The exact prover failed: {out.error}")
            elif out.stage == 0:
                self.verdict = out.verdict
                keep = self._keep_index is not None
                self.timeline.index = self._keep_index
                self.timeline.load(self.verdict, keep=keep)
            else:
                self.other = out.verdict
        return changed

    def close(self) -> None:
        """Stop the background proof (the window closes)."""
        self.proof.close()

    def edited(self) -> None:
        """After any edit of the board: the captions that no longer describe the board
        go, a line being played through ends, back to the live view, re-run the
        detector."""
        self.edits += 1
        self.position_revision += 1
        fen = self.editor.fen
        d = self.current_diagram
        if d is not None and d.fen != fen:
            self.current_diagram = None
        if self.caption and self.caption_fen != fen:
            self.caption = ""
        self.line = None
        self.timeline.live()
        self.analyse(keep=False)

    def shown_caption(self) -> str:
        """The caption (or the library diagram's), while the board shows the position it
        was given for."""
        if self.caption and self.caption_fen == self.editor.fen:
            return self.caption
        d = self.current_diagram
        return f"{d.id}: {d.caption}" if d is not None and d.fen == self.editor.fen else ""

    def case_shown(self) -> bool:
        """Whether the board shows the playlist's current case."""
        return bool(self.playlist) and self.case_fen == self.editor.fen

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

    def legend(self) -> tuple[LegendItem, ...]:
        """The legend's items for what can be on the board now (one set per method, so
        the layout does not change when a background proof lands)."""
        return legend_items(self.method, kpk=bool(self.kpk), search=self.search_on)

    # -- messages ---------------------------------------------------------------------
    def say(self, text: str, seconds: float = 3.0) -> None:
        """Show ``text`` (bounded) on the message line for ``seconds``."""
        self.message = Message(bounded(text), seconds)

    def tick(self, seconds: float) -> bool:
        """Let ``seconds`` pass for the message line; True when a message just ended."""
        m = self.message
        if m.seconds <= 0:
            return False
        m.seconds -= seconds
        return m.seconds <= 0

    # -- choices ----------------------------------------------------------------------
    def set_method(self, method: str) -> None:
        """Analyse with ``method`` (a key of ``logic.METHODS``), keeping the step; the
        same method again retries a cancelled or failed proof."""
        if method in logic.METHODS and (method != self.method or self.proof_note):
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

    def toggle_projector(self) -> None:
        """Projector mode: the board, the sentence in large type and the legend only."""
        self.projector = not self.projector

    def toggle_structure(self) -> None:
        """Show or hide the pawn-structure layer."""
        self.structure_layer = not self.structure_layer
        self.analyse(keep=True)

    def toggle_search(self) -> None:
        """Show or hide the analysis (its pane takes the last slot of the dock)."""
        self.search_on = not self.search_on
        self._analysis_pane()
        if not self.search_on:
            self.stop_line()

    def _analysis_pane(self) -> None:
        """The analysis's pane in the last slot while the analysis is on, else gone."""
        for panes in self.panes.values():
            if self.search_on and "analysis" not in panes:
                panes[-1] = "analysis"
            elif not self.search_on and "analysis" in panes:
                panes[panes.index("analysis")] = next(
                    p for p in DEFAULT_PANES[len(panes)] + PANES if p not in panes)

    def set_search_seconds(self, seconds: float) -> None:
        """The analysis pane's time per search (0.1 to 30 s)."""
        self.search_seconds = max(0.1, min(30.0, round(seconds, 2)))

    def faster_search(self, factor: float) -> None:
        """Multiply the time per search by ``factor`` (the pane's − and + buttons)."""
        self.set_search_seconds(self.search_seconds * factor)

    def show_pane(self, slot: int, name: str, slots: int) -> None:
        """Show pane ``name`` in ``slot`` of a dock of ``slots`` slots (a pane shown in
        the other slot swaps places)."""
        panes = self.panes.setdefault(slots, list(DEFAULT_PANES.get(slots, PANES[:slots])))
        if name not in PANES or not 0 <= slot < len(panes):
            return
        if name in panes:
            other = panes.index(name)
            panes[other] = panes[slot]
        panes[slot] = name

    def visible_panes(self, slots: int) -> list[str]:
        """The panes of a dock of ``slots`` slots."""
        return list(self.panes.setdefault(slots, list(DEFAULT_PANES.get(slots,
                                                                        PANES[:slots]))))

    def select_tool(self, tool: str) -> None:
        """Choose a tool: a piece symbol or ``"x"`` (the eraser)."""
        if tool in TOOLS or tool in OTHER_PIECES:
            self.tool = tool

    def set_export(self, **changes: Any) -> None:
        """Change the export options (size clamped to 64..4096 pixels)."""
        if "size" in changes:
            changes["size"] = max(64, min(4096, int(changes["size"])))
        self.export = replace(self.export, **changes)

    def back(self) -> None:
        """Esc: close the help, else leave projector mode, else cancel a background
        proof, else leave a line being played through, else back to the live verdict."""
        if self.show_help:
            self.show_help = False
        elif self.projector:
            self.projector = False
        elif self.cancel_proof():
            self.say("Proof cancelled: R proves again")
        elif self.line is not None:
            self.stop_line()
        else:
            self.timeline.live()

    # -- playback ---------------------------------------------------------------------
    def step_to(self, where: str) -> None:
        """``first``/``prev``/``next``/``last`` step or ``next-phase``/``prev-phase``;
        stepping by hand stops playback."""
        tl = self.timeline
        tl.playing = False
        {"first": tl.first, "prev": tl.prev, "next": tl.next, "last": tl.last,
         "next-phase": tl.next_phase, "prev-phase": tl.prev_phase}[where]()

    def seek(self, k: int) -> None:
        """Show step ``k`` (the scrubber, the step list); stops playback."""
        if self.timeline.count:
            self.timeline.playing = False
            self.timeline.seek(k)

    # -- a line of the analysis, move by move ------------------------------------------
    def play_line(self, source: str, moves: Sequence[str], label: str) -> bool:
        """Play the analysis line ``moves`` (UCI, from the position on show, or from the
        root of the line being played) through on the board, starting at its root."""
        root = self.line.root if self.line is not None else self.editor.fen
        if not moves:
            self.say(f"{label}: no line to play yet")
            return False
        self.line = LinePlay(root, tuple(moves), source, label)
        self.line_seek(0)
        return True

    def line_seek(self, k: int) -> None:
        """Show the line's position after ``k`` moves (its legal prefix) and re-run the
        detector there."""
        line = self.line
        if line is None:
            return
        board = chess.Board(line.root)
        k = max(0, min(k, len(line.moves)))
        for n, uci in enumerate(line.moves[:k]):
            try:
                move = chess.Move.from_uci(uci)
            except ValueError:
                k = n
                break
            if not board.is_legal(move):
                k = n
                break
            board.push(move)
        line.index = k
        self.editor.view(board)
        self.analyse(keep=True)

    def line_step(self, where: str) -> None:
        """``first``/``prev``/``next``/``last`` move of the line being played."""
        if self.line is not None:
            k = self.line.index
            self.line_seek({"first": 0, "prev": k - 1, "next": k + 1,
                            "last": len(self.line.moves)}[where])

    def stop_line(self) -> None:
        """Leave the line: the board shows its root again."""
        line, self.line = self.line, None
        if line is not None:
            self.editor.view(chess.Board(line.root))
            self.analyse(keep=True)

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

    def set_ep(self, square: chess.Square | None) -> bool:
        """Set the en-passant square (None: none)."""
        return self._after(self.editor.set_ep(square))

    def remove(self, square: chess.Square) -> bool:
        return self._after(self.editor.remove(square))

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
        if self._pawn_refused(dst, self.editor.board.piece_at(src)):
            return False
        return self._after(self.editor.move(src, dst))

    def apply_tool(self, square: chess.Square, *, toggle: bool) -> bool:
        """Use the tool on ``square``; with ``toggle`` the same piece again removes it."""
        piece = None if self.tool == "x" else chess.Piece.from_symbol(self.tool)
        if piece is None or (toggle and self.editor.board.piece_at(square) == piece):
            return self.remove(square)
        if self._pawn_refused(square, piece):
            return False
        return self._after(self.editor.place(square, piece))

    def load_fen(self, text: str, *, caption: str = "") -> bool:
        """Load FEN/EPD text; on error show the message (bounded) and keep the board."""
        try:
            changed = self.editor.set_fen(text)
        except PositionError as exc:
            self.say(f"Not loaded: {exc}")
            return False
        self._after(changed)
        if not changed and self.line is not None:  # the root again: the line ends
            self.line = None
            self.analyse(keep=False)
        self.caption, self.caption_fen = caption, self.editor.fen
        return True

    def load_diagram(self, d: Diagram) -> None:
        """Show a diagram of the library with its caption and stated verdict, for the side
        its caption is about (:func:`diagram_side`)."""
        if self.load_fen(d.fen):
            self.current_diagram = d
            self.set_side(diagram_side(d))

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
        if self.load_fen(self.playlist[self.playlist_index][1]):
            self.case_fen = self.editor.fen

    def next_case(self, delta: int) -> None:
        if self.playlist:
            self.load_playlist(self.playlist_index + delta)

    # -- persistence ------------------------------------------------------------------
    def settings(self, base: Settings, size: tuple[int, int]) -> Settings:
        """``base`` updated with what survives a restart (the window has ``size``)."""
        e = self.editor.fen if self.line is None else self.line.root
        x = self.export
        return replace(base, fen=e, flipped=self.flipped, method=self.method,
                       side=self.side, speed=self.timeline.speed,
                       structure=self.structure_layer, tool=self.tool, width=size[0],
                       height=size[1], search=self.search_on,
                       search_seconds=self.search_seconds, export_size=x.size,
                       export_overlays=x.overlays, export_banner=x.banner,
                       export_legend=x.legend, export_explanation=x.explanation)
