"""The pawnfence window: a board editor that animates the detector's reasoning.

The loop as in pygame-ce's ``examples/chimp.py``: load resources once, then events ->
update -> draw -> flip.  The parts own their events, update and draw: the state model
(:mod:`viewer.state`), the action table (:mod:`viewer.actions`, keys and buttons), the
board's mouse gestures (:mod:`viewer.gesture`), the widget panel (:mod:`viewer.panel`),
the left column (:mod:`viewer.view`) and the search panel's background analysis
(:mod:`viewer.analysis`).  :meth:`App.run` takes ``max_frames`` and a list of events
to inject, so tests drive the real loop with real pygame events and deterministic
time (``dt`` is fixed when events are injected).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.windows import UIFileDialog

from viewer.actions import bindings, event_specs, run_action
from viewer.analysis import Analysis, AnalysisResult, default_engine
from viewer.export import ExportError, compose_frame, save_gif, save_png, trace_frames
from viewer.gesture import Gestures
from viewer.layout import MIN_SIZE, Layout, compute_layout
from viewer.panel import Panel
from viewer.render import Painter
from viewer.settings import (
    AutoSave,
    Settings,
    add_user_position,
    load_user_positions,
    save_settings,
)
from viewer.state import PlaylistEntry, ViewerState
from viewer.view import BoardView

__all__ = ["App", "has_display"]

#: the largest window side the viewer opens (larger requests are clamped)
MAX_SIDE = 16384


def window_size(requested: tuple[int, int], explicit: bool) -> tuple[int, int]:
    """The window size to open: at least :data:`MIN_SIZE`, at most :data:`MAX_SIDE`, and
    a remembered (not ``explicit``) size no larger than the desktop."""
    w, h = (max(lo, min(MAX_SIDE, int(v))) for lo, v in zip(MIN_SIZE, requested, strict=True))
    if not explicit:
        try:
            dw, dh = pygame.display.get_desktop_sizes()[0]
        except (pygame.error, IndexError):
            dw = dh = 0
        if dw >= MIN_SIZE[0] and dh >= MIN_SIZE[1]:
            w, h = min(w, dw), min(h, dh)
    return w, h


class App:
    """The viewer.  Construct, then :meth:`run`; :meth:`close` saves and quits."""

    def __init__(self, settings: Settings | None = None, *, caption: str = "",
                 size: tuple[int, int] | None = None, export_dir: Path | None = None,
                 playlist: Sequence[PlaylistEntry] = (), notices: Sequence[str] = (),
                 save: bool = True) -> None:
        """``notices``: problems found while loading (shown in the window); ``save``
        False: never write the settings file (a damaged one could not be kept aside)."""
        self.settings = settings or Settings()
        pygame.display.init()
        pygame.font.init()
        requested = size or (self.settings.width, self.settings.height)
        self.screen = pygame.display.set_mode(window_size(requested, size is not None),
                                              pygame.RESIZABLE)
        pygame.display.set_caption("pawnfence — blockage detection in pawn endgames")
        self.painter = Painter()
        self.clock = pygame.time.Clock()
        self.export_dir = export_dir or Path.cwd()
        self.state = ViewerState(self.settings, caption=caption, playlist=playlist)
        notices = [*notices, *self.state.notices]
        if notices:
            self.state.say(" · ".join(notices), frames=600)
        self.analysis = Analysis(self.settings.engine or default_engine())
        self._analysed: tuple[int, bool] = (-1, False)
        self.keys = bindings()
        self.gestures = Gestures(self.state)
        self.view = BoardView(self.painter, self.state)
        self.manager = pygame_gui.UIManager(self.screen.get_size())
        self.manager.preload_fonts([
            {"name": "noto_sans", "point_size": 14, "style": "bold", "antialiased": "1"},
            {"name": "noto_sans", "point_size": 14, "style": "italic", "antialiased": "1"},
        ])
        self.panel = Panel(self.manager, self.state)
        self.layout: Layout = compute_layout(self.screen.get_size())
        self._layout_key: tuple[tuple[int, int], bool] = ((0, 0), False)
        self.file_dialog: UIFileDialog | None = None
        self.running = True
        self.frame = 0
        self.seconds = 0.0  # the loop's clock (fixed steps when driven by tests)
        self.saving = save
        self.autosave = AutoSave(self._save, max_delay=0.9)  # saved within a second
        self._saved_key = self._settings_key()
        self.relayout()
        self._search()  # the search panel, if it was on, starts with the window

    # -- layout -------------------------------------------------------------------------
    def relayout(self) -> None:
        """Lay the window out for its size and layers, and rebuild the panel."""
        self._layout_key = (self.screen.get_size(), self.state.structure_layer)
        self.layout = compute_layout(*self._layout_key[:1], structure=self._layout_key[1])
        self.panel.build(self.layout)

    # -- events -------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        """Process one event: the window's own, pygame_gui's, keys, then the board's."""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.relayout()
            return
        consumed = self.manager.process_events(event)
        if event.type >= pygame.USEREVENT:
            if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
                self.open_playlist(str(event.text))
            else:
                self.panel.handle(event, self)
        elif event.type == pygame.KEYDOWN:
            if not self.panel.typing():  # typing in the FEN field or a dialog's path field
                self._key(event)
        elif not consumed:
            self.gestures.handle(event, self.layout.board)

    def _key(self, event: pygame.event.Event) -> None:
        ctrl = bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        for spec in event_specs(pygame.key.name(event.key), event.unicode, ctrl):
            name = self.keys.get(spec)
            if name is not None:
                run_action(name, self)
                return

    # -- update -------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance playback, keep the layout, the search panel and the widgets in step
        with the state, and save the settings when an edit asks for it."""
        state = self.state
        state.timeline.tick(dt)
        if (self.screen.get_size(), state.structure_layer) != self._layout_key:
            self.relayout()
        elif self.panel.needs_rebuild():
            self.panel.build(self.layout)
        search = self._search()
        self.panel.update(search)
        self.seconds += dt / 1000.0
        key = self._settings_key()
        if key != self._saved_key:
            self._saved_key = key
            self.autosave.changed(self.seconds)
        err = self.autosave.tick(self.seconds)
        if err:
            state.say(err)
        self.manager.update(dt / 1000.0)

    def _search(self) -> AnalysisResult | None:
        """The search panel's result; a new board (or the panel turned on) restarts it."""
        state = self.state
        if not state.search_on:
            self._analysed = (-1, False)
            return None
        want = (state.board_revision, True)
        if self._analysed != want:
            self._analysed = want
            self.analysis.start(state.editor.board)
        return self.analysis.result

    # -- the loop -----------------------------------------------------------------------
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
            for e in next(scripted, None) or ():
                pygame.event.post(e)
            dt = 1000.0 / fps if deterministic else self.clock.tick(fps)
            if deterministic:
                self.clock.tick()
            for event in pygame.event.get():
                self.handle(event)
            self.update(dt)
            self.draw()
            pygame.display.flip()
            self.frame += 1

    def draw(self) -> None:
        """Draw one frame (no flip)."""
        self.view.draw(self.screen, self.layout, dragged=self.gestures.dragged(),
                       search=self.analysis.result if self.state.search_on else None)
        self.manager.draw_ui(self.screen)

    # -- services for the actions ---------------------------------------------------------
    def _export_name(self, suffix: str) -> Path:
        s = self.state
        base = s.current_diagram.id if s.current_diagram else "position"
        n = 1
        while True:
            p = self.export_dir / f"pawnfence-{base}-{s.side}-{s.method}-{n}{suffix}"
            if not p.exists():
                return p
            n += 1

    def export_png(self) -> Path | None:
        """Save the frame shown now (board, overlay, banner, legend) as a PNG."""
        s = self.state
        v, tl = s.verdict, s.timeline
        expl = v.reason if v is not None and tl.index is None else (
            f"[{v.steps[tl.index].section}] {v.steps[tl.index].text}" if v is not None else "")
        surf = compose_frame(self.painter, s.editor.board, v, s.overlay(), size=720,
                             flipped=s.flipped, explanation=expl)
        try:
            path = save_png(surf, self._export_name(".png"))
        except ExportError as exc:
            s.say(str(exc))
            return None
        s.say(f"Saved {path}")
        return path

    def export_gif(self) -> Path | None:
        """Save the whole trace as an animated GIF."""
        s = self.state
        if s.verdict is None or not s.verdict.steps:
            s.say("No steps to export")
            return None
        frames = list(trace_frames(self.painter, s.editor.board, s.verdict, size=480,
                                   flipped=s.flipped))
        try:
            path = save_gif(frames, self._export_name(".gif"))
        except ExportError as exc:
            s.say(str(exc))
            return None
        s.say(f"Saved {path} ({len(frames)} frames)")
        return path

    def save_position(self) -> None:
        """Add the position to the user's own list (the library shows it at once)."""
        s = self.state
        name = s.current_diagram.id if s.current_diagram else \
            f"position {len(s.user_positions) + 1}"
        try:
            path = add_user_position(name, s.editor.fen)
        except (OSError, ValueError) as exc:
            s.say(f"Could not save the position: {exc}")
            return
        s.user_positions = load_user_positions()
        s.say(f"Added to {path}")

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
            entries = read_playlist(path)
        except (OSError, ValueError) as exc:
            self.state.say(f"Not opened: {exc}")
            return False
        self.state.set_playlist(entries)
        self.state.say(f"Playlist {Path(path).name}: {len(entries)} cases (N / P to step)")
        return True

    # -- the end ------------------------------------------------------------------------
    def _settings_key(self) -> tuple[Any, ...]:
        s = self.state
        return (s.editor.fen, s.flipped, s.method, s.side, s.timeline.speed, s.structure_layer,
                s.tool, s.search_on, self.screen.get_size())

    def _save(self) -> str | None:
        """Write the settings now (atomically); an error message or None."""
        self.settings = self.state.settings(self.settings, self.screen.get_size())
        return save_settings(self.settings) if self.saving else None

    def close(self) -> str | None:
        """Save the settings (position, orientation, method, side...), stop the search
        panel's engine (a few seconds at most) and quit pygame."""
        err = self._save()
        self.analysis.close()
        pygame.display.quit()
        return err


def has_display() -> bool:
    """Whether a window can be opened (an X/Wayland display, another OS, or a forced
    SDL video driver)."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if os.name != "posix" or os.uname().sysname == "Darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
