"""The window's services for the actions (:class:`viewer.model.actions.Host`): exports through a
save dialog, the playlist's file dialog, playing a line of the analysis, the user's own
positions.  A mixin of :class:`viewer.window.app.App`, which provides ``state``, ``screen``,
``layout``, ``manager``, ``exporter``, ``analysis`` and ``panel``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
from pygame_gui.windows import UIFileDialog

from logic.games import is_pgn_name
from logic.position import read_playlist
from viewer.figures.export import KINDS
from viewer.figures.pgn import default_pgn_path, save_pgn
from viewer.model.game import open_game_file
from viewer.model.settings import add_user_position
from viewer.window import clipboard
from viewer.window.analysis_pane import line_of_source

if TYPE_CHECKING:
    from viewer.figures.export import Exporter
    from viewer.model.analysis import Analysis
    from viewer.model.state import ViewerState
    from viewer.window.layout import Layout
    from viewer.window.panel import Panel

__all__ = ["Services"]


class Services:
    """What the actions may ask of the window besides the state."""

    state: ViewerState
    screen: pygame.Surface
    layout: Layout
    manager: Any
    exporter: Exporter
    analysis: Analysis
    panel: Panel
    file_dialog: UIFileDialog | None
    dialog_for: str

    @property
    def export_dir(self) -> Path:
        """The folder the save dialog opens in (and the default exports go to)."""
        return self.exporter.folder

    @export_dir.setter
    def export_dir(self, folder: Path) -> None:
        self.exporter.folder = Path(folder)

    # -- services for the actions ---------------------------------------------------------
    def export_png(self, path: str | Path | None = None) -> Path | None:
        """Save the frame shown now as a PNG (default: a new name in the export folder)."""
        return self.exporter.export("png", path)

    def export_gif(self, path: str | Path | None = None) -> Path | None:
        """Save the whole trace as an animated GIF (frame time: the speed setting)."""
        return self.exporter.export("gif", path)

    def copy_text(self, text: str) -> None:
        """Put ``text`` on the clipboard (the system's when SDL offers one)."""
        clipboard.put_text(text)

    def paste_text(self) -> str:
        """The clipboard's text ('' when empty)."""
        return clipboard.get_text()

    def choose_export(self, kind: str) -> None:
        """Open a save dialog for an export of ``kind`` (png, gif, svg)."""
        self._dialog(kind, f"Save the {kind.upper()} as…",
                     str(self.exporter.default_path(kind)), existing=False)

    def choose_playlist(self) -> None:
        """Open a file dialog for a playlist (EPD) or a game (PGN)."""
        self._dialog("open", "Open a playlist (EPD) or a game (PGN)", str(Path.cwd()),
                     existing=True)

    def choose_pgn(self) -> None:
        """Open a save dialog for the position as a PGN lesson chapter."""
        self._dialog("pgn", "Save the lesson (PGN) as…",
                     str(default_pgn_path(self.state, self.exporter.folder)), existing=False)

    def _dialog(self, purpose: str, title: str, initial: str, existing: bool) -> None:
        w, h = self.screen.get_size()
        dw, dh = min(w - 40, round(560 * self.layout.scale)), min(h - 40,
                                                                 round(460 * self.layout.scale))
        self.dialog_for = purpose
        self.file_dialog = UIFileDialog(
            pygame.Rect((w - dw) // 2, (h - dh) // 2, dw, dh), self.manager,
            window_title=title, initial_file_path=initial,
            allow_existing_files_only=existing)

    def dialog_enter(self, event: pygame.event.Event) -> bool:
        """Enter in the open file dialog's path field: confirm the file it names, like
        OK (pygame_gui only lists the folder); True if the dialog took it."""
        d = self.file_dialog
        if d is None or not d.alive() or getattr(event, "ui_element", None) is not \
                d.file_path_text_line or d.current_file_path is None \
                or not d.ok_button.is_enabled:
            return False
        path = str(d.current_file_path)
        d.kill()
        self._picked(path)
        return True

    def _picked(self, path: str) -> None:
        if self.dialog_for in KINDS:
            self.exporter.export(self.dialog_for, path, background=True)
        elif self.dialog_for == "pgn":
            save_pgn(self.state, path)
        else:
            self.open_playlist(path)
        self.panel.release_keyboard()

    def play_line(self, source: str) -> None:
        """Play the analysis column ``source``'s line move by move on the board."""
        r = self.analysis.result
        label = {"with": "the search with detection", "without": "the search without "
                 "detection", "engine": "the engine's line"}.get(source, source)
        pos = self.state.position
        if r is not None and pos.line is None and r.fen != pos.editor.fen:
            self.state.say("The analysis is of another position: wait for the new one")
            return
        self.state.play_line(source, line_of_source(r, source), label)

    def save_position(self) -> None:
        """Add the position to the user's own list (the library shows it at once)."""
        s = self.state
        name = s.position.current_diagram.id if s.position.current_diagram else \
            f"position {len(s.position.user_positions) + 1}"
        try:
            path = add_user_position(name, s.position.editor.fen)
        except (OSError, ValueError) as exc:
            s.say(f"Could not save the position: {exc}")
            return
        s.reload_user_positions()
        s.say(f"Added to {path}")

    def open_playlist(self, path: str) -> bool:
        """Load the EPD file at ``path`` as the playlist, or walk the games of a PGN file;
        a bad file gives a message."""
        if is_pgn_name(path):
            return open_game_file(self.state, path)
        try:
            entries = read_playlist(path)
        except (OSError, ValueError) as exc:
            self.state.say(f"Not opened: {exc}")
            return False
        self.state.set_playlist(entries)
        n = len(entries)
        self.state.say(f"Playlist {Path(path).name}: {n:,} case{'' if n == 1 else 's'} "
                       f"(N / PageUp)")
        return True

