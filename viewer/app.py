"""The pawnfence window: a board editor that animates the detector's reasoning.

Loop as in pygame-ce's ``examples/chimp.py``: load resources once, then
events -> update -> draw -> flip.  :meth:`App.run` takes ``max_frames`` and a
list of events to inject, so tests drive the real loop with real pygame events
and deterministic time (``dt`` is fixed when events are injected).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import chess
import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UIHorizontalSlider,
    UILabel,
    UISelectionList,
    UITextBox,
    UITextEntryLine,
)
from pygame_gui.windows import UIFileDialog

import logic
from logic import kpk_rules
from logic.diagrams import Diagram, load_diagrams
from logic.pawns import PawnStructure
from logic.position import PositionError, parse_epd_line
from logic.verdict import Verdict
from viewer import clipboard
from viewer.analysis import Analysis, default_engine
from viewer.editor import Editor
from viewer.export import ExportError, banner_text, compose_frame, save_gif, save_png, trace_frames
from viewer.overlay import EMPTY, Overlay, live_overlay, step_overlay
from viewer.render import Painter, board_geometry, square_at
from viewer.settings import Settings, add_user_position, load_user_positions, save_settings
from viewer.timeline import Timeline

__all__ = ["App", "HELP_LINES"]

TOOLS: dict[str, str] = {"K": "White king", "P": "White pawn", "k": "Black king",
                         "p": "Black pawn", "x": "Eraser"}
OTHER_PIECES = ["Q", "R", "B", "N", "q", "r", "b", "n"]
METHOD_LABELS = {"paper": "Paper (DFS fence)", "flood": "Wiki (king flood)"}
SIDE_LABELS = {"white": "Side: White", "black": "Side: Black"}

HELP_LINES: tuple[tuple[str, str], ...] = (
    ("Click", "place the selected piece (click it again to remove it)"),
    ("Drag on empty squares", "paint: a pawn chain, or erase with the eraser"),
    ("Drag a piece", "move it; drop it off the board to delete it"),
    ("Right-click", "delete the piece under the mouse"),
    ("1 2 3 4 / 0", "tools: White king, White pawn, Black king, Black pawn / eraser"),
    ("T", "toggle side to move"),
    ("F", "flip the board"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo (every edit)"),
    ("Ctrl+C / Ctrl+V", "copy the FEN / paste a FEN"),
    ("Space", "play / pause the detector's steps"),
    ("Left / Right", "previous / next step"),
    ("Home / End", "first / last step"),
    ("Esc", "back to the live verdict (or close this help)"),
    ("M / S", "switch method (paper / wiki flood) / side (White / Black)"),
    ("L", "pawn-structure layer (files, rams, levers, backward, stragglers)"),
    ("Ctrl+S / Ctrl+G", "save this frame as PNG / the whole trace as GIF"),
    ("E", "search panel: pawnfence's search with and without detection, a UCI engine"),
    ("O", "open a playlist (an EPD file, e.g. a scan's suspects.epd)"),
    ("N / P, PageDown / PageUp", "next / previous case of the playlist"),
    ("H or ?", "show / hide this help"),
)


class App:
    """The viewer.  Construct, then :meth:`run`."""

    def __init__(self, settings: Settings | None = None, *, caption: str = "",
                 size: tuple[int, int] | None = None, export_dir: Path | None = None,
                 playlist: Sequence[tuple[str, str, dict[str, Any]]] = ()) -> None:
        self.settings = settings or Settings()
        pygame.display.init()
        pygame.font.init()
        w, h = size or (self.settings.width, self.settings.height)
        self.screen = pygame.display.set_mode((max(760, w), max(560, h)), pygame.RESIZABLE)
        pygame.display.set_caption("pawnfence — blockage detection in pawn endgames")
        self.painter = Painter()
        self.clock = pygame.time.Clock()
        self.export_dir = export_dir or Path.cwd()
        try:
            self.editor = Editor(chess.Board(self.settings.fen).fen())
        except ValueError:
            self.editor = Editor()
        self.flipped = self.settings.flipped
        self.method = self.settings.method if self.settings.method in logic.METHODS else "paper"
        self.side = self.settings.side if self.settings.side in SIDE_LABELS else "white"
        self.tool = self.settings.tool if self.settings.tool in TOOLS or \
            self.settings.tool in OTHER_PIECES else "P"
        self.structure_layer = self.settings.structure
        self.search_on = self.settings.search
        self.analysis = Analysis(self.settings.engine or default_engine())
        self._analysis_seen: tuple[object, ...] | None = None
        self.timeline = Timeline()
        self.timeline.set_speed(self.settings.speed)
        self.show_help = False
        self.message = ""
        self.message_frames = 0
        self.caption = caption
        self.diagrams = load_diagrams()
        self.user_positions = load_user_positions()
        self.current_diagram: Diagram | None = None
        self.playlist = list(playlist)
        self.playlist_index = 0
        self.running = True
        self.frame = 0
        self.verdict: Verdict | None = None
        self.other: Verdict | None = None
        self.structure: dict[str, Any] | None = None
        self.kpk: dict[str, object] | None = None
        self.kpk_boards = (0, 0)
        self._overlay_memo: tuple[Any, Any, Overlay] = (None, None, EMPTY)
        self._press: dict[str, Any] | None = None  # mouse gesture in progress
        self._fen_typing = False
        self._save_due: int | None = None
        self.manager = pygame_gui.UIManager(self.screen.get_size())
        self.manager.preload_fonts([
            {"name": "noto_sans", "point_size": 14, "style": "bold", "antialiased": "1"},
            {"name": "noto_sans", "point_size": 14, "style": "italic", "antialiased": "1"},
        ])
        self._build_ui()
        self.reanalyse(keep=False)
        if self.playlist:
            self.load_playlist(0)

    # -- layout ------------------------------------------------------------
    def _areas(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
        """(banner, board, legend, panel) rectangles for the current window size."""
        w, h = self.screen.get_size()
        panel_w = max(330, min(420, w * 34 // 100))
        left_w = w - panel_w
        banner = pygame.Rect(8, 6, left_w - 16, 64)
        legend_h = 96 + (20 if self.structure_layer else 0)
        tags = 22 if self.structure_layer else 0  # the structure layer's file tags
        board = pygame.Rect(4, banner.bottom + 4 + tags, left_w - 8,
                            h - banner.bottom - legend_h - 12 - tags)
        legend = pygame.Rect(12, board.bottom + 6, left_w - 24, legend_h)
        panel = pygame.Rect(left_w, 0, panel_w, h)
        return banner, board, legend, panel

    def _build_ui(self) -> None:
        """(Re)create every widget for the current window size."""
        self.manager.clear_and_reset()
        self.manager.set_window_resolution(self.screen.get_size())
        _, _, _, panel = self._areas()
        m = self.manager
        x0, width = panel.left + 10, panel.width - 20
        y = 8
        self.tool_buttons: dict[str, UIButton] = {}
        bw = (width - 4 * 4) // 5
        for i, (sym, name) in enumerate(TOOLS.items()):
            label = {"K": "W king", "P": "W pawn", "k": "B king", "p": "B pawn", "x": "Eraser"}[sym]
            b = UIButton(pygame.Rect(x0 + i * (bw + 4), y, bw, 30), label, m,
                         tool_tip_text=f"{name} ({'12340'['KPkpx'.index(sym)]})")
            self.tool_buttons[sym] = b
        y += 34
        others = ["Other pieces…"] + [f"{'White' if s.isupper() else 'Black'} "
                                      f"{chess.piece_name(chess.Piece.from_symbol(s).piece_type)}"
                                      for s in OTHER_PIECES]
        self.other_menu = UIDropDownMenu(others, others[0], pygame.Rect(x0, y, width // 2 - 2, 30),
                                         m)
        self.turn_button = UIButton(pygame.Rect(x0 + width // 2 + 2, y, width // 2 - 2, 30),
                                    "", m, tool_tip_text="side to move (T)")
        y += 34
        third = (width - 8) // 3
        self.flip_button = UIButton(pygame.Rect(x0, y, third, 30), "Flip (F)", m)
        self.clear_button = UIButton(pygame.Rect(x0 + third + 4, y, third, 30), "Clear", m)
        self.help_button = UIButton(pygame.Rect(x0 + 2 * third + 8, y, third, 30), "Help (H)", m)
        y += 34
        q = (width - 12) // 4
        self.undo_button = UIButton(pygame.Rect(x0, y, q, 30), "Undo", m, tool_tip_text="Ctrl+Z")
        self.redo_button = UIButton(pygame.Rect(x0 + q + 4, y, q, 30), "Redo", m,
                                    tool_tip_text="Ctrl+Y")
        self.copy_button = UIButton(pygame.Rect(x0 + 2 * (q + 4), y, q, 30), "Copy FEN", m,
                                    tool_tip_text="Ctrl+C")
        self.paste_button = UIButton(pygame.Rect(x0 + 3 * (q + 4), y, q, 30), "Paste FEN", m,
                                     tool_tip_text="Ctrl+V")
        y += 36
        self.fen_entry = UITextEntryLine(pygame.Rect(x0, y, width, 32), m)
        self.fen_entry.set_text(self.editor.fen)
        y += 34
        self.fen_status = UILabel(pygame.Rect(x0, y, width, 22), "", m)
        y += 26
        half = (width - 4) // 2
        self.method_menu = UIDropDownMenu(list(METHOD_LABELS.values()), METHOD_LABELS[self.method],
                                          pygame.Rect(x0, y, half, 30), m)
        self.side_menu = UIDropDownMenu(list(SIDE_LABELS.values()), SIDE_LABELS[self.side],
                                        pygame.Rect(x0 + half + 4, y, half, 30), m)
        y += 34
        self.structure_button = UIButton(pygame.Rect(x0, y, half, 28), "", m,
                                         tool_tip_text="pawn-structure layer (L)")
        self.search_button = UIButton(pygame.Rect(x0 + half + 4, y, half, 28), "", m,
                                      tool_tip_text="search panel: pawnfence's search with "
                                      "and without detection, and a UCI engine (E)")
        y += 36
        fifth = (width - 16) // 5
        labels = ["|<", "<", "Play", ">", ">|"]
        tips = ["first step (Home)", "previous step (Left)", "play / pause (Space)",
                "next step (Right)", "last step (End)"]
        self.play_buttons = [UIButton(pygame.Rect(x0 + i * (fifth + 4), y, fifth, 30), t, m,
                                      tool_tip_text=tip)
                             for i, (t, tip) in enumerate(zip(labels, tips, strict=True))]
        y += 34
        self.step_label = UILabel(pygame.Rect(x0, y, width, 22), "", m)
        y += 24
        self.scrubber = UIHorizontalSlider(pygame.Rect(x0, y, width, 24), 0, (0, 1), m)
        y += 28
        self.speed_label = UILabel(pygame.Rect(x0, y, 110, 24), "", m)
        self.speed_slider = UIHorizontalSlider(pygame.Rect(x0 + 112, y, width - 112, 24),
                                               self.timeline.speed, (0.5, 20.0), m,
                                               click_increment=0.5)
        y += 30
        self.explain_box = UITextBox("", pygame.Rect(x0, y, width, 104), m)
        y += 110
        export_y = panel.bottom - 40
        caption_h = 96
        list_h = max(60, export_y - caption_h - 8 - y)
        items = [f"{d.id}: {d.caption[:60]}" for d in self.diagrams]
        items += [f"mine: {name}" for name, _fen in self.user_positions]
        self.library = UISelectionList(pygame.Rect(x0, y, width, list_h), items, m)
        y += list_h + 4
        self.caption_box = UITextBox("", pygame.Rect(x0, y, width, caption_h), m)
        q = (width - 12) // 4
        self.png_button = UIButton(pygame.Rect(x0, export_y, q, 30), "Save PNG", m,
                                   tool_tip_text="Ctrl+S")
        self.gif_button = UIButton(pygame.Rect(x0 + q + 4, export_y, q, 30), "Save GIF", m,
                                   tool_tip_text="Ctrl+G")
        self.save_pos_button = UIButton(pygame.Rect(x0 + 2 * (q + 4), export_y, 2 * q + 4, 30),
                                        "Add to my positions", m)
        self._refresh_widgets()

    # -- analysis -----------------------------------------------------------
    def reanalyse(self, *, keep: bool) -> None:
        """Run the detector for both sides on the current board (same frame)."""
        board = self.editor.board
        color = self.side == "white"
        self.verdict = logic.detect(board, color, method=self.method, trace=True)
        self.other = logic.detect(board, not color, method=self.method)
        self.timeline.load(self.verdict, keep=keep)
        self.structure = None
        if self.structure_layer:
            self.structure = PawnStructure.analyse(board).to_dict()
        if self.search_on:
            self.analysis.start(board)
        self.kpk = kpk_rules.summary(board)
        self.kpk_boards = ((kpk_rules.pawn_square(board), kpk_rules.key_squares(board))
                           if self.kpk else (0, 0))
        self._refresh_widgets()

    def edited(self) -> None:
        """After any edit: back to the live view, re-run the detector, and save the
        position soon (a crash or a killed process loses at most a second of work)."""
        self._save_due = self.frame + 60
        self.current_diagram = None if self.current_diagram is None or \
            self.current_diagram.fen != self.editor.fen else self.current_diagram
        self.timeline.live()
        self.reanalyse(keep=False)

    # -- widget state -------------------------------------------------------
    def _refresh_widgets(self) -> None:
        if not hasattr(self, "fen_entry"):
            return
        for sym, b in self.tool_buttons.items():
            if sym == self.tool:
                b.select()
            else:
                b.unselect()
        self.turn_button.set_text(
            "White to move" if self.editor.board.turn else "Black to move")
        self.structure_button.set_text(
            f"Structure (L): {'on' if self.structure_layer else 'off'}")
        self.search_button.set_text(f"Search (E): {'on' if self.search_on else 'off'}")
        if not self._fen_typing and self.fen_entry.get_text() != self.editor.fen:
            self.fen_entry.set_text(self.editor.fen)
        if not self._fen_typing:
            self._show_status()
        if self.editor.can_undo():
            self.undo_button.enable()
        else:
            self.undo_button.disable()
        if self.editor.can_redo():
            self.redo_button.enable()
        else:
            self.redo_button.disable()
        tl = self.timeline
        self.play_buttons[2].set_text("Pause" if tl.playing else "Play")
        n = tl.count
        self.scrubber.value_range = (0, max(1, n - 1))
        if tl.index is None:
            self.step_label.set_text(f"live verdict · {n} steps (Space to play)")
            self.scrubber.set_current_value(max(0, n - 1))
        else:
            step = tl.verdict.steps[tl.index]
            self.step_label.set_text(f"step {tl.index + 1} of {n} · {step.phase}")
            self.scrubber.set_current_value(tl.index)
        self.speed_label.set_text(f"{tl.speed:.1f} steps/s")
        _set_html(self.explain_box, self._explanation_html())
        _set_html(self.caption_box, self._caption_html())

    def _show_status(self) -> None:
        board = self.editor.board
        status = board.status()
        if status == chess.STATUS_VALID:
            self.fen_status.set_text("OK: legal position")
        else:
            names = [f.name.lower().replace("_", " ") for f in chess.Status
                     if f in status and f.name]
            self.fen_status.set_text("Warning: " + ", ".join(names)[:70])

    def _explanation_html(self) -> str:
        v, tl = self.verdict, self.timeline
        if v is None:
            return ""
        if tl.index is None:
            lines = [f"<b>{_esc(v.headline)}</b>", _esc(v.reason)]
            if self.kpk:
                lines.insert(0, f"<b>{_esc(kpk_rules.summary_line(self.kpk))}</b>")
            for note in v.pawns:
                mark = "holds" if note.ok else "<b>breaks</b>"
                lines.append(f"• {chess.square_name(note.square)} ({note.category}, {mark}): "
                             f"{_esc(note.reason)}")
            return "<br>".join(lines)
        step = v.steps[tl.index]
        return f"<b>[{_esc(step.section)}] {_esc(step.phase)}</b><br>{_esc(step.text)}"

    def _caption_html(self) -> str:
        if self.search_on:
            return self._search_html()
        if self.playlist:
            name, _fen, info = self.playlist[self.playlist_index]
            parts = [f"<b>{_esc(name)}</b> ({self.playlist_index + 1}/{len(self.playlist)}, "
                     "N / P for the next / previous case)"]
            labels = {"c0": "category", "c1": "score"}
            parts += [f"{labels.get(k, k)}: <b>{_esc(str(val))}</b>" for k, val in info.items()]
            board = self.editor.board
            for method in logic.METHODS:
                said = []
                for color in chess.COLORS:
                    v = logic.detect(board, color, method=method)
                    said.append(f"{v.side} {'blocked' if v.blocked else 'open'} ({v.rule})")
                parts.append(f"{METHOD_LABELS[method]}: {_esc('; '.join(said))}")
            return "<br>".join(parts)
        d = self.current_diagram
        if d is None:
            other = self.other.headline if self.other is not None else ""
            return f"Other side: {_esc(other)}"
        exp = d.expect.get(self.method)
        ours = self.verdict
        if exp is None:
            stated = "no verdict stated"
        elif exp.blocked is None:
            stated = "detector does not apply"
        else:
            stated = f"{'blocked' if exp.blocked else 'not blocked'} ({exp.rule})"
        mine = ("blocked" if ours.blocked else "not blocked") + f" ({ours.rule})"
        return (f"<b>{_esc(d.id)}</b> — {_esc(d.caption)}<br><i>{_esc(d.source)}</i><br>"
                f"Stated: {_esc(stated)}; game result: {_esc(d.result)}<br>"
                f"pawnfence ({self.side}): {_esc(mine)}")

    # -- state changes --------------------------------------------------------
    def say(self, text: str, frames: int = 180) -> None:
        """Show a message line at the bottom of the board for a while."""
        self.message = text
        self.message_frames = frames

    def set_method(self, method: str) -> None:
        if method != self.method:
            self.method = method
            self.reanalyse(keep=True)

    def set_side(self, side: str) -> None:
        if side != self.side:
            self.side = side
            self.reanalyse(keep=True)

    def choose_playlist(self) -> None:
        """Open a file dialog for a playlist (EPD)."""
        w, h = self.screen.get_size()
        self.file_dialog = UIFileDialog(
            pygame.Rect(w // 2 - 260, h // 2 - 220, 520, 440), self.manager,
            window_title="Open a playlist (EPD)", initial_file_path=str(Path.cwd()),
            allow_existing_files_only=True)

    def open_playlist(self, path: str) -> bool:
        """Load the EPD file at ``path`` as the playlist; a bad file gives a message."""
        from viewer.cli import read_playlist

        try:
            self.playlist = read_playlist(path)
        except (OSError, ValueError) as exc:
            self.say(f"Not opened: {exc}")
            return False
        self.load_playlist(0)
        self.say(f"Playlist {Path(path).name}: {len(self.playlist)} cases (N / P to step)")
        return True

    def toggle_search(self) -> None:
        """Show or hide the search panel (starts an analysis of the current board)."""
        self.search_on = not self.search_on
        if self.search_on:
            self.analysis.start(self.editor.board)
        self._refresh_widgets()

    def _search_html(self) -> str:
        r = self.analysis.result
        if r is None:
            return ""
        lines = ["<b>Search</b> (White's view, 0.8 s each)"]

        def line(label: str, d: dict[str, object] | None) -> str:
            if d is None:
                return f"{label}: thinking…"
            pv = " ".join(d.get("pv", [])[:6])
            extra = f", {d['blockages']} blockages" if d.get("blockages") else ""
            return f"{label}: {int(d['score']) / 100:+.2f} (depth {d['depth']}{extra}) {pv}"

        if not any("kings and pawns" in m for m in r.messages):
            lines.append(line("with detection", r.with_detection))
            lines.append(line("without", r.without_detection))
        if r.engine is not None:
            e = r.engine
            score = (f"mate {e['mate']}" if e.get("mate") is not None
                     else f"{int(e['score'] or 0) / 100:+.2f}")
            lines.append(f"{e['name']}: {score} (depth {e['depth']}) {' '.join(e['pv'][:6])}")
        elif self.analysis.engine_path is None:
            lines.append("no UCI engine (install stockfish or set one in the settings)")
        elif not r.done:
            lines.append(f"{Path(self.analysis.engine_path).name}: thinking…")
        lines += [_esc(m) for m in r.messages]
        return "<br>".join(_esc(x) if not x.startswith("<b>") else x for x in lines)

    def load_fen(self, text: str, *, caption: str = "") -> bool:
        """Load FEN/EPD text; on error show the message and keep the board."""
        try:
            changed = self.editor.set_fen(text)
        except PositionError as exc:
            self.say(f"Not loaded: {exc}")
            return False
        self.caption = caption
        if changed:
            self.edited()
        return True

    def load_diagram(self, d: Diagram) -> None:
        if self.load_fen(d.fen):
            self.current_diagram = d
            self._refresh_widgets()

    def load_playlist(self, i: int) -> None:
        """Show playlist entry ``i`` (wrapping)."""
        if not self.playlist:
            return
        self.playlist_index = i % len(self.playlist)
        _name, fen, _info = self.playlist[self.playlist_index]
        self.load_fen(fen)
        self._refresh_widgets()

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

    # -- mouse --------------------------------------------------------------
    def _board_rect(self) -> pygame.Rect:
        return self._areas()[1]

    def _tool_piece(self) -> chess.Piece | None:
        return None if self.tool == "x" else chess.Piece.from_symbol(self.tool)

    def _apply_tool(self, sq: chess.Square, *, toggle: bool) -> bool:
        piece = self._tool_piece()
        if piece is None:
            return self.editor.remove(sq)
        if toggle and self.editor.board.piece_at(sq) == piece:
            return self.editor.remove(sq)
        return self.editor.place(sq, piece)

    def _mouse_down(self, event: pygame.event.Event) -> None:
        rect = self._board_rect()
        sq = square_at(rect, event.pos, self.flipped)
        if sq is None:
            return
        if event.button == 3:
            if self.editor.remove(sq):
                self.edited()
            return
        if event.button != 1:
            return
        piece = self.editor.board.piece_at(sq)
        self._press = {"square": sq, "pos": event.pos, "piece": piece, "dragging": False,
                       "painted": {sq}}
        if piece is None:
            self.editor.begin_stroke()
            self._press["stroke"] = True
            if self._apply_tool(sq, toggle=False):
                self.edited()

    def _mouse_motion(self, event: pygame.event.Event) -> None:
        p = self._press
        if p is None:
            return
        if p.get("stroke"):
            sq = square_at(self._board_rect(), event.pos, self.flipped)
            if sq is not None and sq not in p["painted"]:
                p["painted"].add(sq)
                if self._apply_tool(sq, toggle=False):
                    self.edited()
            return
        dx, dy = event.pos[0] - p["pos"][0], event.pos[1] - p["pos"][1]
        if dx * dx + dy * dy > 16:
            p["dragging"] = True
        p["cursor"] = event.pos

    def _mouse_up(self, event: pygame.event.Event) -> None:
        p = self._press
        self._press = None
        if p is None or event.button != 1:
            return
        if p.get("stroke"):
            self.editor.end_stroke()
            return
        target = square_at(self._board_rect(), event.pos, self.flipped)
        if p["dragging"]:
            changed = (self.editor.remove(p["square"]) if target is None
                       else self.editor.move(p["square"], target))
        else:
            changed = self._apply_tool(p["square"], toggle=True)
        if changed:
            self.edited()

    # -- keys ---------------------------------------------------------------
    def _key(self, event: pygame.event.Event) -> None:
        ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        k = event.key
        tl = self.timeline
        if self.show_help and k in (pygame.K_ESCAPE, pygame.K_h):
            self.show_help = False
            return
        if ctrl:
            if k == pygame.K_z:
                if self.editor.undo():
                    self.edited()
            elif k == pygame.K_y:
                if self.editor.redo():
                    self.edited()
            elif k == pygame.K_c:
                clipboard.put_text(self.editor.fen)
                self.say("FEN copied")
            elif k == pygame.K_v:
                self.load_fen(clipboard.get_text())
            elif k == pygame.K_s:
                self.export_png()
            elif k == pygame.K_g:
                self.export_gif()
            return
        steps = {pygame.K_RIGHT: tl.next, pygame.K_LEFT: tl.prev, pygame.K_HOME: tl.first,
                 pygame.K_END: tl.last}
        if k == pygame.K_SPACE:
            tl.toggle()
        elif k in steps:  # stepping by hand stops playback
            tl.playing = False
            steps[k]()
        elif k == pygame.K_ESCAPE:
            tl.live()
        elif k == pygame.K_f:
            self.flipped = not self.flipped
        elif k == pygame.K_t:
            if self.editor.set_turn(not self.editor.board.turn):
                self.edited()
        elif k in (pygame.K_h, pygame.K_QUESTION) or event.unicode == "?":
            self.show_help = not self.show_help
        elif k == pygame.K_m:
            self.set_method("flood" if self.method == "paper" else "paper")
            self.method_menu.kill()
            self._build_ui()
        elif k == pygame.K_s:
            self.set_side("black" if self.side == "white" else "white")
            self._build_ui()
        elif k == pygame.K_l:
            self.structure_layer = not self.structure_layer
            self.reanalyse(keep=True)
        elif k == pygame.K_e:
            self.toggle_search()
        elif k == pygame.K_o:
            self.choose_playlist()
        elif k in (pygame.K_PAGEDOWN, pygame.K_n) and self.playlist:
            self.load_playlist(self.playlist_index + 1)
        elif k in (pygame.K_PAGEUP, pygame.K_p) and self.playlist:
            self.load_playlist(self.playlist_index - 1)
        elif event.unicode in "12340" and event.unicode:
            self.tool = "KPkpx"["12340".index(event.unicode)]
        self._refresh_widgets()

    # -- widgets ------------------------------------------------------------
    def _ui_event(self, event: pygame.event.Event) -> None:
        t = event.type
        el = getattr(event, "ui_element", None)
        if t == pygame_gui.UI_BUTTON_PRESSED:
            for sym, b in self.tool_buttons.items():
                if el is b:
                    self.tool = sym
            if el is self.turn_button:
                if self.editor.set_turn(not self.editor.board.turn):
                    self.edited()
            elif el is self.flip_button:
                self.flipped = not self.flipped
            elif el is self.clear_button:
                if self.editor.clear():
                    self.edited()
            elif el is self.help_button:
                self.show_help = not self.show_help
            elif el is self.undo_button:
                if self.editor.undo():
                    self.edited()
            elif el is self.redo_button:
                if self.editor.redo():
                    self.edited()
            elif el is self.copy_button:
                clipboard.put_text(self.editor.fen)
                self.say("FEN copied")
            elif el is self.paste_button:
                self.load_fen(clipboard.get_text())
            elif el is self.structure_button:
                self.structure_layer = not self.structure_layer
                self.reanalyse(keep=True)
            elif el is self.search_button:
                self.toggle_search()
            elif el in self.play_buttons:
                i = self.play_buttons.index(el)
                tl = self.timeline
                if i != 2:
                    tl.playing = False
                (tl.first, tl.prev, tl.toggle, tl.next, tl.last)[i]()
            elif el is self.png_button:
                self.export_png()
            elif el is self.gif_button:
                self.export_gif()
            elif el is self.save_pos_button:
                self.save_position()
            self._refresh_widgets()
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if el is self.method_menu:
                inv = {v: k for k, v in METHOD_LABELS.items()}
                self.set_method(inv[event.text])
            elif el is self.side_menu:
                inv = {v: k for k, v in SIDE_LABELS.items()}
                self.set_side(inv[event.text])
            elif el is self.other_menu and event.text != "Other pieces…":
                idx = [o for o in self.other_menu.options_list][1:]
                names = [o[0] if isinstance(o, tuple) else o for o in idx]
                self.tool = OTHER_PIECES[names.index(event.text)]
            self._refresh_widgets()
        elif t == pygame_gui.UI_TEXT_ENTRY_CHANGED and el is self.fen_entry:
            self._fen_typing = True
            self._validate_typed(event.text)
        elif t == pygame_gui.UI_TEXT_ENTRY_FINISHED and el is self.fen_entry:
            self._fen_typing = False
            self.load_fen(event.text)
            self._refresh_widgets()
        elif t == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.open_playlist(str(event.text))
            self._refresh_widgets()
        elif t == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED:
            if el is self.scrubber and self.timeline.count:
                self.timeline.playing = False
                self.timeline.seek(int(round(event.value)))
            elif el is self.speed_slider:
                self.timeline.set_speed(float(event.value))
            self._refresh_widgets()
        elif t == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and el is self.library:
            text = event.text
            if text.startswith("mine: "):
                name = text[len("mine: "):]
                for n, fen in self.user_positions:
                    if n == name:
                        self.load_fen(fen, caption=name)
            else:
                did = text.split(":", 1)[0]
                for d in self.diagrams:
                    if d.id == did:
                        self.load_diagram(d)

    def _validate_typed(self, text: str) -> None:
        """Validate the FEN field as the user types; never blocks or changes the board."""
        try:
            board, _ = parse_epd_line(text)
        except PositionError as exc:
            self.fen_status.set_text(f"Error: {exc.problem}"[:80])
            return
        status = board.status()
        if status == chess.STATUS_VALID:
            self.fen_status.set_text("OK: valid FEN - Enter to load")
        else:
            names = [f.name.lower().replace("_", " ") for f in chess.Status
                     if f in status and f.name]
            self.fen_status.set_text(("Warning: " + ", ".join(names) + " - Enter to load")[:80])

    # -- exports ---------------------------------------------------------------
    def _export_name(self, suffix: str) -> Path:
        base = self.current_diagram.id if self.current_diagram else "position"
        n = 1
        while True:
            p = self.export_dir / f"pawnfence-{base}-{self.side}-{self.method}-{n}{suffix}"
            if not p.exists():
                return p
            n += 1

    def export_png(self) -> Path | None:
        """Save the frame shown now (board, overlay, banner, legend) as a PNG."""
        v = self.verdict
        tl = self.timeline
        expl = v.reason if v is not None and tl.index is None else (
            f"[{v.steps[tl.index].section}] {v.steps[tl.index].text}" if v is not None else "")
        surf = compose_frame(self.painter, self.editor.board, v, self.overlay(), size=720,
                             flipped=self.flipped, explanation=expl)
        try:
            path = save_png(surf, self._export_name(".png"))
        except ExportError as exc:
            self.say(str(exc))
            return None
        self.say(f"Saved {path}")
        return path

    def export_gif(self) -> Path | None:
        """Save the whole trace as an animated GIF."""
        if self.verdict is None or not self.verdict.steps:
            self.say("No steps to export")
            return None
        frames = list(trace_frames(self.painter, self.editor.board, self.verdict, size=480,
                                   flipped=self.flipped))
        try:
            path = save_gif(frames, self._export_name(".gif"))
        except ExportError as exc:
            self.say(str(exc))
            return None
        self.say(f"Saved {path} ({len(frames)} frames)")
        return path

    def save_position(self) -> None:
        name = self.current_diagram.id if self.current_diagram else \
            f"position {len(self.user_positions) + 1}"
        try:
            path = add_user_position(name, self.editor.fen)
        except (OSError, ValueError) as exc:
            self.say(f"Could not save the position: {exc}")
            return
        self.user_positions = load_user_positions()
        self._build_ui()
        self.say(f"Added to {path}")

    # -- frame ------------------------------------------------------------------
    def draw(self) -> None:
        """Draw one frame (no flip)."""
        screen = self.screen
        c = self.painter.colours
        screen.fill(c["background"])
        banner, board_rect, legend, panel = self._areas()
        screen.fill(c["panel"], panel)
        v, tl = self.verdict, self.timeline
        head, sub, kind = banner_text(v, self.caption)
        if tl.index is not None and v is not None:
            step = v.steps[tl.index]
            sub = f"step {tl.index + 1}/{tl.count} · {step.phase}: {step.text}"
        if self.other is not None and tl.index is None:
            sub = f"{sub}   |   {self.other.headline}"
        if self.kpk and tl.index is None:
            side = str(self.kpk["side"]).capitalize()
            win = self.kpk["result"] == "win"
            head = f"KPK: {side} wins" if win else f"KPK: a draw — {side} cannot win"
            kind = "open" if win else "blocked"
            rule = self.kpk["rule"]
            sub = (f"exact bitbase; heuristic rule {rule}: {self.kpk['rule_text']}" if rule
                   else "exact bitbase; no heuristic rule fires")
        self.painter.render_banner(screen, banner, head, sub, kind)
        p = self._press
        hide = p["square"] if p and p.get("dragging") else None
        self.painter.render_board(screen, board_rect, self.editor.board, overlay=self.overlay(),
                                  flipped=self.flipped, hide_square=hide,
                                  structure=self.structure)
        r = self.analysis.result if self.search_on else None
        if r is not None and tl.index is None:
            for d, colour in ((r.without_detection, self.painter.colours["muted"]),
                              (r.with_detection, self.painter.colours["path"])):
                if d and d.get("pv"):
                    self.painter.render_arrows(screen, board_rect, list(d["pv"])[:1],
                                               flipped=self.flipped, colour=colour)
        if hide is not None and p.get("piece") is not None and p.get("cursor"):
            _, _, sq = board_geometry(board_rect)
            img = self.painter.pieces.get(p["piece"].symbol(), sq)
            screen.blit(img, img.get_rect(center=p["cursor"]))
        self.painter.render_legend(screen, legend, structure=self.structure_layer,
                                   kpk=bool(self.kpk))
        if self.message_frames > 0:
            self.message_frames -= 1
            t = self.painter._fit(self.message, 20, board_rect.width - 20)
            box = t.get_rect(midbottom=(board_rect.centerx, board_rect.bottom - 6)).inflate(12, 8)
            pygame.draw.rect(screen, (0, 0, 0), box, border_radius=6)
            screen.blit(t, t.get_rect(center=box.center))
        if self.show_help:
            self._draw_help(board_rect)

    def _draw_help(self, rect: pygame.Rect) -> None:
        box = rect.inflate(-40, -40)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill((20, 20, 20, 235))
        self.screen.blit(shade, box)
        pygame.draw.rect(self.screen, self.painter.colours["text"], box, 2, border_radius=8)
        size = max(14, min(22, box.height // (len(HELP_LINES) + 3)))
        font = self.painter.font(size)
        y = box.top + 12
        title = self.painter.font(size + 6).render("Keys and mouse", True, (255, 255, 255))
        self.screen.blit(title, (box.left + 16, y))
        y += title.get_height() + 8
        key_w = max(font.size(keys)[0] for keys, _ in HELP_LINES) + 28
        for keys, what in HELP_LINES:
            self.screen.blit(font.render(keys, True, self.painter.colours["changed"]),
                             (box.left + 16, y))
            self.screen.blit(self.painter._fit(what, size, box.width - key_w - 24),
                             (box.left + 16 + key_w, y))
            y += size + 4

    def handle(self, event: pygame.event.Event) -> None:
        """Process one event."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self._build_ui()
            return
        consumed = self.manager.process_events(event)
        if event.type >= pygame.USEREVENT:
            self._ui_event(event)
            return
        if event.type == pygame.KEYDOWN:
            if any(isinstance(e, UITextEntryLine) and e.is_focused
                   for e in self.manager.get_focus_set() or ()):
                return  # typing in the FEN field or a dialog's path field
            self._key(event)
        elif consumed:
            return
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self._mouse_down(event)
            self._refresh_widgets()
        elif event.type == pygame.MOUSEMOTION:
            self._mouse_motion(event)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._mouse_up(event)
            self._refresh_widgets()

    def run(self, max_frames: int | None = None, events: Iterable[Any] = (),
            fps: int = 60) -> None:
        """The loop: events -> update -> draw -> flip.

        ``events`` (for tests) is an iterable of frames' worth of events: each item is
        a list of ``pygame.event.Event`` posted before that frame (time then advances
        a fixed 1000/fps ms per frame).  Stops on QUIT or after ``max_frames``.
        """
        scripted = iter(events)
        deterministic = bool(events) or max_frames is not None
        while self.running and (max_frames is None or self.frame < max_frames):
            batch = next(scripted, None)
            if batch:
                for e in batch:
                    pygame.event.post(e)
            dt = 1000.0 / fps if deterministic else self.clock.tick(fps)
            if deterministic:
                self.clock.tick()
            for event in pygame.event.get():
                self.handle(event)
            stopped = not self.timeline.playing and self.play_buttons[2].text == "Pause"
            result = self.analysis.result if self.search_on else None
            seen = None if result is None else (result.generation, result.done,
                                                 result.with_detection is None,
                                                 result.without_detection is None,
                                                 result.engine is None, len(result.messages))
            if self.timeline.tick(dt) or stopped or seen != self._analysis_seen:
                self._analysis_seen = seen
                self._refresh_widgets()
            if self._save_due is not None and self.frame >= self._save_due:
                self._save_due = None
                err = save_settings(self._current_settings())
                if err:
                    self.say(err)
            self.manager.update(dt / 1000.0)
            self.draw()
            self.manager.draw_ui(self.screen)
            pygame.display.flip()
            self.frame += 1

    def _current_settings(self) -> Settings:
        w, h = self.screen.get_size()
        s = self.settings
        s.fen, s.flipped, s.method, s.side = self.editor.fen, self.flipped, self.method, self.side
        s.speed, s.structure, s.tool, s.width, s.height = (self.timeline.speed,
                                                          self.structure_layer, self.tool, w, h)
        s.search = self.search_on
        return s

    def close(self) -> str | None:
        """Save the settings (position, orientation, method, side...) and quit pygame."""
        err = save_settings(self._current_settings())
        pygame.display.quit()
        return err


def _set_html(box: UITextBox, html: str) -> None:
    """Re-lay out a text box only when its text changes (layout costs milliseconds)."""
    if getattr(box, "_pawnfence_html", None) != html:
        box.set_text(html)
        box._pawnfence_html = html  # type: ignore[attr-defined]


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def has_display() -> bool:
    """Whether a window can be opened (an X/Wayland display, another OS, or a forced
    SDL video driver)."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if os.name != "posix" or os.uname().sysname == "Darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
