"""The widget panel (pygame_gui): tools, the FEN field, method and side menus, playback,
the explanation, the library and the exports.

Buttons name their action in :mod:`viewer.actions` (one table for keys and buttons);
menus, sliders, the FEN field and the library change the state directly.  The panel
reads the state (never its own widgets) to refresh: :meth:`Panel.update` compares a
key of what it shows with the last one and re-sets the widgets only on a change.
"""

from __future__ import annotations

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

import logic
from logic.position import PositionError, parse_epd_line
from viewer.actions import ACTIONS, Host, run_action, tooltip
from viewer.layout import Layout
from viewer.state import OTHER_PIECES, SIDES, TOOLS, ViewerState
from viewer.text import (
    bounded,
    caption_html,
    explanation_html,
    status_line,
    status_names,
    step_line,
)

__all__ = ["Panel", "OTHER_LABEL", "SIDE_LABELS"]

OTHER_LABEL = "Other pieces…"
SIDE_LABELS = {"white": "Side: White", "black": "Side: Black"}
#: the longest text the FEN field takes (an EPD line with operations fits)
FEN_LIMIT = 1000
_TIPS = {"turn": "side to move (T)", "structure": "pawn-structure layer (L)",
         "search": "search panel: pawnfence's search with and without detection, and a UCI "
                   "engine (E)", "play:first": "first step (Home)",
         "play:prev": "previous step (Left)", "play:toggle": "play / pause (Space)",
         "play:next": "next step (Right)", "play:last": "last step (End)"}


def _piece_label(sym: str) -> str:
    colour = "White" if sym.isupper() else "Black"
    return f"{colour} {chess.piece_name(chess.Piece.from_symbol(sym).piece_type)}"


class Panel:
    """The widgets of the right-hand panel for one :class:`ViewerState`."""

    def __init__(self, manager: pygame_gui.UIManager, state: ViewerState) -> None:
        self.manager = manager
        self.state = state
        self.buttons: dict[str, UIButton] = {}
        self.fen_typing = False
        self._shown: tuple[Any, ...] | None = None
        self._built_for: tuple[Any, ...] = ()

    # -- building -----------------------------------------------------------------------
    def build(self, layout: Layout) -> None:
        """(Re)create every widget at ``layout``'s places."""
        m, state, cell = self.manager, self.state, layout.cell
        m.clear_and_reset()
        m.set_window_resolution(layout.size)
        self.buttons = {}
        for name in (*(f"tool:{s}" for s in TOOLS), "turn", "flip", "clear", "help", "undo",
                     "redo", "copy", "paste", "structure", "search", "play:first",
                     "play:prev", "play:toggle", "play:next", "play:last", "png", "gif", "add"):
            tip = _TIPS.get(name) or (f"{TOOLS[name[5:]]} ({tooltip(name)})"
                                      if name.startswith("tool:") else tooltip(name))
            self.buttons[name] = UIButton(cell(name), ACTIONS[name].label, m,
                                          tool_tip_text=tip or None)
        others = [OTHER_LABEL] + [_piece_label(s) for s in OTHER_PIECES]
        self.other_menu = UIDropDownMenu(others, others[0], cell("other"), m)
        self.fen_entry = UITextEntryLine(cell("fen"), m)
        self.fen_entry.set_text_length_limit(FEN_LIMIT)
        self.fen_entry.set_text(state.editor.fen)
        self.fen_status = UILabel(cell("fen_status"), "", m)
        labels = [meth.label for meth in logic.METHODS.values()]
        self.method_menu = UIDropDownMenu(labels, logic.METHODS[state.method].label,
                                          cell("method"), m)
        self.side_menu = UIDropDownMenu(list(SIDE_LABELS.values()), SIDE_LABELS[state.side],
                                        cell("side"), m)
        self.step_label = UILabel(cell("step"), "", m)
        self.scrubber = UIHorizontalSlider(cell("scrubber"), 0, (0, 1), m)
        self.speed_label = UILabel(cell("speed_label"), "", m)
        self.speed_slider = UIHorizontalSlider(cell("speed"), state.timeline.speed, (0.5, 20.0),
                                               m, click_increment=0.5)
        self.explain_box = UITextBox("", cell("explain"), m)
        items = [f"{d.id}: {bounded(d.caption, 60)}" for d in state.diagrams]
        items += [f"mine: {bounded(name, 60)}" for name, _fen in state.user_positions]
        self.library = UISelectionList(cell("library"), items, m)
        self.caption_box = UITextBox("", cell("caption"), m)
        self._built_for = (state.method, state.side, len(state.user_positions))
        self._shown = None

    # -- events -------------------------------------------------------------------------
    def typing(self) -> bool:
        """Whether a text field (the FEN field, a dialog's path) has the keyboard."""
        return any(isinstance(e, UITextEntryLine) and e.is_focused
                   for e in self.manager.get_focus_set() or ())

    def handle(self, event: pygame.event.Event, host: Host) -> None:
        """Process one of pygame_gui's events (after ``manager.process_events``)."""
        t, el = event.type, getattr(event, "ui_element", None)
        if t == pygame_gui.UI_BUTTON_PRESSED:
            for name, button in self.buttons.items():
                if el is button:
                    run_action(name, host)
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self._menu(el, event.text)
        elif t == pygame_gui.UI_TEXT_ENTRY_CHANGED and el is self.fen_entry:
            self.fen_typing = True
            self.fen_status.set_text(_typed_status(event.text))
        elif t == pygame_gui.UI_TEXT_ENTRY_FINISHED and el is self.fen_entry:
            self.fen_typing = False
            self.state.load_fen(event.text)
            self._shown = None
        elif t == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED:
            if el is self.scrubber:
                self.state.seek(int(round(event.value)))
            elif el is self.speed_slider:
                self.state.timeline.set_speed(float(event.value))
        elif t == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and el is self.library:
            self._library(event.text)

    def _menu(self, el: object, text: str) -> None:
        state = self.state
        if el is self.method_menu:
            for name, meth in logic.METHODS.items():
                if meth.label == text:
                    state.set_method(name)
        elif el is self.side_menu:
            for side in SIDES:
                if SIDE_LABELS[side] == text:
                    state.set_side(side)
        elif el is self.other_menu and text != OTHER_LABEL:
            for sym in OTHER_PIECES:
                if _piece_label(sym) == text:
                    state.select_tool(sym)

    def _library(self, text: str) -> None:
        state = self.state
        if text.startswith("mine: "):
            state.load_user_position(text[len("mine: "):])
            return
        did = text.split(":", 1)[0]
        for d in state.diagrams:
            if d.id == did:
                state.load_diagram(d)

    # -- refresh ------------------------------------------------------------------------
    def needs_rebuild(self) -> bool:
        """Whether the menus no longer show the state's choices (a key changed them)."""
        s = self.state
        return self._built_for != (s.method, s.side, len(s.user_positions))

    def update(self, search: Any = None) -> None:
        """Re-set the widgets if what they show changed (``search``: the search panel's
        result, shown in the caption box when the panel is on)."""
        s, tl = self.state, self.state.timeline
        key = (s.tool, s.editor.fen, s.structure_layer, s.search_on, self.fen_typing,
               s.editor.can_undo(), s.editor.can_redo(), tl.playing, tl.index, tl.count,
               tl.speed, id(s.verdict), s.playlist_index, len(s.playlist),
               id(s.current_diagram), search)
        if key != self._shown:
            self._shown = key
            self.refresh(search)

    def refresh(self, search: Any = None) -> None:
        """Set every widget from the state."""
        s, tl, b = self.state, self.state.timeline, self.buttons
        for sym in TOOLS:
            (b[f"tool:{sym}"].select if sym == s.tool else b[f"tool:{sym}"].unselect)()
        b["turn"].set_text("White to move" if s.editor.board.turn else "Black to move")
        b["structure"].set_text(f"Structure (L): {'on' if s.structure_layer else 'off'}")
        b["search"].set_text(f"Search (E): {'on' if s.search_on else 'off'}")
        if not self.fen_typing:
            if self.fen_entry.get_text() != s.editor.fen:
                self.fen_entry.set_text(s.editor.fen)
            self.fen_status.set_text(status_line(s.editor.board))
        (b["undo"].enable if s.editor.can_undo() else b["undo"].disable)()
        (b["redo"].enable if s.editor.can_redo() else b["redo"].disable)()
        b["play:toggle"].set_text("Pause" if tl.playing else "Play")
        n = tl.count
        self.scrubber.value_range = (0, max(1, n - 1))
        self.scrubber.set_current_value(max(0, n - 1) if tl.index is None else tl.index)
        self.step_label.set_text(step_line(s))
        self.speed_label.set_text(f"{tl.speed:.1f} steps/s")
        _set_html(self.explain_box, explanation_html(s))
        _set_html(self.caption_box, caption_html(s, search))


def _typed_status(text: str) -> str:
    """The FEN field's status while the user types: never blocks or changes the board."""
    try:
        board, _ = parse_epd_line(text)
    except PositionError as exc:
        return f"Error: {exc.problem}"[:80]
    names = status_names(board)
    if not names:
        return "OK: valid FEN - Enter to load"
    return ("Warning: " + ", ".join(names) + " - Enter to load")[:80]


def _set_html(box: UITextBox, html: str) -> None:
    """Re-lay out a text box only when its text changes (layout costs milliseconds)."""
    if getattr(box, "_pawnfence_html", None) != html:
        box.set_text(html)
        box._pawnfence_html = html  # type: ignore[attr-defined]
