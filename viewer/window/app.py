"""The pawnfence window: a board editor that animates the detector's reasoning.

The loop as in pygame-ce's ``examples/chimp.py``: load resources once, then events ->
update -> draw -> flip.  The parts own their events, update and draw: the state model
(:mod:`viewer.model.state`), the action table (:mod:`viewer.model.actions`, keys and
buttons), the board's mouse gestures (:mod:`viewer.window.gesture`), the widget panel
(:mod:`viewer.window.panel`), the custom-drawn parts (:mod:`viewer.window.components`,
:mod:`viewer.window.code`, :mod:`viewer.window.analysis_pane`,
:mod:`viewer.window.compare_pane`), the view (:mod:`viewer.window.view`) and the
background analysis (:mod:`viewer.model.analysis`).

An idle window sleeps: it redraws only after input, while something moves (playback, a
drag, a widget's hover for half a second after input, a focused text field's cursor, a
background proof's progress four times a second) and when a background job reports;
otherwise it waits for events without drawing.  :meth:`App.run` takes ``max_frames`` and
events to inject, so tests drive the real loop with real pygame events and deterministic
time (``dt`` is fixed; every frame is drawn when events are injected or frames counted).
"""

from __future__ import annotations

import contextlib
import sys
import time
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from viewer.figures.export import Exporter
from viewer.figures.render import Painter
from viewer.model.actions import bindings, event_specs, run_action
from viewer.model.analysis import Analysis, AnalysisResult, default_engine
from viewer.model.settings import AutoSave, Settings, save_settings
from viewer.model.state import PlaylistEntry, ViewerState
from viewer.model.theme import THEMES
from viewer.window.analysis_pane import AnalysisPane
from viewer.window.code import CodePanel
from viewer.window.compare_pane import ComparePane
from viewer.window.components import Scrubber, StepList
from viewer.window.display import WAKE, has_display, wake, window_size
from viewer.window.game_strip import GameStrip
from viewer.window.gesture import Gestures
from viewer.window.layout import MIN_SIZE, Layout, compute_layout
from viewer.window.panel import Panel
from viewer.window.services import Services
from viewer.window.view import BoardView

__all__ = ["App", "has_display", "WAKE"]  # the latter two from viewer.window.display

#: seconds of redrawing after input (widgets' hover and press effects)
ACTIVE_AFTER_INPUT = 0.5
#: the interpreter's thread switch interval while the window is open (seconds): a background
#: proof holds the GIL at most this long (Python's 5 ms made frames 1.5 times slower)
SWITCH_INTERVAL = 0.001
_NONE = pygame.Rect(0, 0, 0, 0)


class App(Services):
    """The viewer.  Construct, then :meth:`run`; :meth:`close` saves and quits."""

    def __init__(self, settings: Settings | None = None, *, caption: str = "",
                 size: tuple[int, int] | None = None, export_dir: Path | None = None,
                 playlist: Sequence[PlaylistEntry] = (), notices: Sequence[str] = (),
                 save: bool = True) -> None:
        """``notices``: problems found while loading (shown in the window); ``save``
        False: never write the settings file (a damaged one could not be kept aside)."""
        self.settings = settings or Settings()
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        pygame.display.init()
        pygame.font.init()
        requested = size or (self.settings.width, self.settings.height)
        self.screen = pygame.display.set_mode(window_size(requested, size is not None),
                                              pygame.RESIZABLE)
        with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the window manager keeps
            pygame.Window.from_display_module().minimum_size = MIN_SIZE  # at least MIN_SIZE
        pygame.display.set_caption("pawnfence — blockage detection in pawn endgames")
        self.painter = Painter()
        self.clock = pygame.time.Clock()
        self.state = ViewerState(self.settings, caption=caption, playlist=playlist)
        self.state.proof.job.notify = wake  # a background proof's result wakes the loop
        self.state.check.job.notify = wake  # so does the end of the playlist's check
        self.state.user_list.job.notify = wake  # and the user's list, read
        self.state.game.job.notify = wake  # and each cell of a game's strip, proved
        self.exporter = Exporter(self.painter, self.state, export_dir or Path.cwd())
        self.exporter.notify = wake  # a GIF encoded in the background wakes the loop too
        notices = [*notices, *self.state.position.notices]
        if notices:
            self.state.say(" · ".join(notices), seconds=10)
        self.analysis = Analysis(self.settings.engine or default_engine(),
                                 self.state.options.search_seconds, notify=wake)
        self._analysed: tuple[Any, ...] = ()
        self.keys = bindings()
        self.gestures = Gestures(self.state)
        self.view = BoardView(self.painter, self.state)
        self.panel = Panel(self.screen.get_size(), self.state)
        self.scrubber = Scrubber(self.state, self.painter)
        self.steps = StepList(self.state, self.painter)
        self.code = CodePanel(self.state, self.painter)
        self.pane = AnalysisPane(self.state, self.painter)
        self.compare = ComparePane(self.state, self.painter, notify=wake)
        self.strip = GameStrip(self.state, self.painter)
        self.parts = (self.scrubber, self.steps, self.code, self.pane, self.compare, self.strip)
        self.layout: Layout = compute_layout(self.screen.get_size())
        self._layout_key: tuple[Any, ...] = ()
        self.file_dialog = None
        self.dialog_for = ""  # what the file dialog picks a path for: "open" or a KINDS key
        self.running = True
        self.frame = self.draws = 0
        self.seconds = 0.0  # the loop's clock (fixed steps when driven by tests)
        self._active_until = 0.0
        self._dirty = True
        self._shown_result: AnalysisResult | None = None
        self.saving = save
        self.autosave = AutoSave(self._save, max_delay=0.9)  # saved within a second
        self._saved_key = self._settings_key()
        self.relayout()
        self._search()  # the analysis, if it was on, starts with the window

    @property
    def manager(self) -> pygame_gui.UIManager:
        """The widgets' manager (the panel remakes it when the text size changes)."""
        return self.panel.manager

    # -- layout -------------------------------------------------------------------------
    def _wanted_layout(self) -> tuple[Any, ...]:
        s = self.state
        return (self.screen.get_size(), s.options.structure_layer, s.legend(), s.options.projector,
                not s.options.legend_open, s.options.theme, s.game.open)

    def relayout(self) -> None:
        """Lay the window out for its size, layers and mode; rebuild and place the parts."""
        self._layout_key = key = self._wanted_layout()
        self.painter.set_colours(THEMES[key[5]])
        self.layout = compute_layout(key[0], structure=key[1], legend=key[2], projector=key[3],
                                     fold=key[4], strip=key[6])
        self.panel.build(self.layout)
        self._place()

    def _place(self) -> None:
        """Give each custom-drawn part its rectangle (none when its pane is hidden)."""
        lay = self.layout
        self.scrubber.place(lay.cells.get("scrubber", _NONE), lay.px)
        self.strip.place(lay.strip, lay.px)
        bodies = dict(zip(self.panel.panes, (s.body for s in lay.slots), strict=False))
        for name, part in (("steps", self.steps), ("code", self.code),
                           ("analysis", self.pane), ("compare", self.compare)):
            part.place(bodies.get(name, _NONE), lay.px)
        if "compare" in self.panel.panes:
            self.compare.slot = (self.panel.panes.index("compare"), len(self.panel.panes))
        self._dirty = True

    # -- events -------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        """Process one event: the window's own, pygame_gui's, keys, the custom-drawn
        parts', then the board's."""
        self._dirty = True
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.relayout()
            return
        if event.type == WAKE:
            return
        if event.type == pygame.MOUSEMOTION:
            self.view.hover = event.pos  # a square under the mouse shows its reason
        elif event.type == pygame.WINDOWLEAVE:
            self.view.hover = None
        consumed = self.manager.process_events(event)
        if event.type >= pygame.USEREVENT:
            if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
                self._picked(str(event.text))
            elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and self.dialog_enter(event):
                return
            else:
                self.panel.handle(event, self)
        elif event.type == pygame.KEYDOWN:
            if self.panel.typing():  # the FEN field or a dialog's path field has the keys
                self.panel.key_while_typing(event)
            else:
                self._key(event)
        elif not consumed and not self.layout.projector and \
                any(part.handle(event, self) for part in self.parts):
            return
        elif not consumed and not self._legend_click(event):
            self.gestures.handle(event, self.layout.board)

    def _legend_click(self, event: pygame.event.Event) -> bool:
        """A click on a foldable legend folds or unfolds it; True if it was one."""
        lay = self.layout
        hit = (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and lay.foldable
               and not lay.projector and lay.legend.collidepoint(event.pos))
        return hit and run_action("legend", self)

    def _key(self, event: pygame.event.Event) -> None:
        ctrl = bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        for spec in event_specs(pygame.key.name(event.key), event.unicode, ctrl, shift):
            name = self.keys.get(spec)
            if name is not None:
                run_action(name, self)
                return

    # -- update -------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance playback and the message line, keep the layout, the analysis and the
        widgets in step with the state, and save the settings when an edit asks for it."""
        state = self.state
        if (state.playback.timeline.tick(dt) or state.tick(dt / 1000.0) or state.poll_proof()
                or state.poll_playlist() or state.poll_user_list() or self.exporter.poll()
                or self.compare.update() or self.strip.update()):
            self._dirty = True
        if self._wanted_layout() != self._layout_key:
            self.relayout()
        elif self.panel.needs_rebuild():
            self.panel.build(self.layout)
            self._place()
        search = self._search()
        if search is not self._shown_result:
            self._shown_result, self._dirty = search, True
        self.pane.update(search)
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
        """The analysis's result; a new position, a new time per search or the analysis
        turned on restarts it (a line being played through does not)."""
        state = self.state
        if not state.options.search_on:
            self._analysed = ()
            return None
        want = (state.position.position_revision, state.options.search_seconds)
        if self._analysed != want:
            self._analysed = want
            board = state.position.editor.board if state.position.line is None else None
            if board is not None:
                self.analysis.start(board, state.options.search_seconds)
        return self.analysis.result

    # -- the loop -----------------------------------------------------------------------
    def run(self, max_frames: int | None = None, events: Iterable[Any] = (),
            fps: int = 60, seconds: float | None = None) -> None:
        """The loop: events -> update -> draw -> flip.

        ``events`` (for tests) is an iterable of frames' worth of events: each item is
        a list of ``pygame.event.Event`` posted before that frame (time then advances
        a fixed 1000/fps ms per frame and every frame is drawn).  Stops on QUIT, after
        ``max_frames`` or after ``seconds`` of wall time.  Otherwise an idle window
        sleeps between events (see the module).
        """
        scripted = iter(events)
        deterministic = bool(events) or max_frames is not None
        end = None if seconds is None else time.monotonic() + seconds
        while self.running and (max_frames is None or self.frame < max_frames):
            if end is not None and time.monotonic() >= end:
                break
            for e in next(scripted, None) or ():
                pygame.event.post(e)
            if deterministic:
                self.clock.tick()
                got, dt = pygame.event.get(), 1000.0 / fps
            else:
                got, dt = self._wait(fps, end)
            if got:
                self._active_until = time.monotonic() + ACTIVE_AFTER_INPUT
            for event in got:
                self.handle(event)
            self.update(dt)
            if deterministic or self._dirty or self._animating():
                self.draw()
                pygame.display.flip()
                self.draws += 1
                self._dirty = False
                self.state.after_frame()  # work that waits for a frame on screen starts
            self.frame += 1

    def _animating(self) -> bool:
        """Whether something on screen moves on its own."""
        return (self.state.playback.timeline.playing or self.gestures.press is not None
                or self.scrubber.dragging or self.strip.dragging
                or time.monotonic() < self._active_until)

    def _wait(self, fps: int, end: float | None) -> tuple[list[pygame.event.Event], float]:
        """The events of the next frame: at once while animating (at ``fps``), else after
        sleeping until an event comes or something is due (the autosave, the end of the
        message, a text field's cursor blink); returns them and the milliseconds passed."""
        if self._animating():
            return pygame.event.get(), float(self.clock.tick(fps))
        start = time.monotonic()
        proving = (self.state.proof.proving() is not None or self.state.check.running()
                   or self.state.user_list.progress() is not None)
        # a running proof or playlist check: redraw its progress four times a second
        due = 0.25 if self.panel.typing() or proving else 1.0
        if self.state.message.seconds > 0:
            due = min(due, self.state.message.seconds)
        if self.autosave.pending:
            due = min(due, max(0.0, self.autosave.first + self.autosave.max_delay
                               - self.seconds))
        deadline = min(start + due, end if end is not None else start + due)
        got = pygame.event.get()
        while not got and time.monotonic() < deadline:
            time.sleep(min(1 / fps, max(0.0, deadline - time.monotonic())))
            got = pygame.event.get()
        if self.panel.typing() or proving:
            self._dirty = True  # the cursor blinks; the proof's progress moves on
        self.clock.tick()
        return got, (time.monotonic() - start) * 1000.0

    def draw(self) -> None:
        """Draw one frame (no flip); a window smaller than :data:`MIN_SIZE` (where no window
        manager keeps it larger) shows only how large it has to be."""
        w, h = self.screen.get_size()
        if w < MIN_SIZE[0] or h < MIN_SIZE[1]:
            self.view.too_small(self.screen, MIN_SIZE)
            return
        self.view.draw(self.screen, self.layout, dragged=self.gestures.dragged(),
                       search=self.analysis.result if self.state.options.search_on else None,
                       parts=self.parts)
        if not self.layout.projector:
            self.manager.draw_ui(self.screen)
            self.panel.draw_over(self.screen)
        self.view.draw_top(self.screen, self.layout)

    # -- the end ------------------------------------------------------------------------
    def _settings_key(self) -> tuple[Any, ...]:
        return (self.state.settings(self.settings, self.screen.get_size()),)

    def _save(self) -> str | None:
        """Write the settings now (atomically); an error message or None."""
        self.settings = self.state.settings(self.settings, self.screen.get_size())
        return save_settings(self.settings) if self.saving else None

    def close(self) -> str | None:
        """Save the settings (position, orientation, method, side...), stop the
        analysis's engine (a few seconds at most) and quit pygame."""
        err = self.exporter.close()  # a GIF being encoded is written first
        err = " · ".join(e for e in (err, self._save()) if e) or None
        self.state.close()
        self.compare.close()
        self.analysis.close()
        pygame.display.quit()
        return err
