"""The widget panel (pygame_gui): tools, the FEN field, the en-passant square, method
and side menus, playback, the dock's tabs and the widgets of the story, library and
export panes.

Buttons name their action in :mod:`viewer.model.actions` (one table for keys and buttons);
menus, sliders, check boxes, the FEN field and the library change the state directly.
The panel reads the state (never its own widgets) to refresh: :meth:`Panel.update`
compares a key of what it shows with the last one and re-sets the widgets only on a
change.  The widgets' fonts follow the window (:func:`make_manager` builds the
pygame_gui theme for a text size).  The FEN field always shows the board unless it has
the keyboard; Enter loads what was typed and Esc restores the board's FEN, and both
give the keyboard back to the board.
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
from viewer.figures.fonts import Fonts
from viewer.figures.textfit import elide
from viewer.model.actions import ACTIONS, Host, run_action, tooltip
from viewer.model.editor import ep_candidates
from viewer.model.library import library_entries
from viewer.model.settings import user_positions_path
from viewer.model.state import OTHER_PIECES, SIDES, TOOLS, ViewerState
from viewer.model.text import (
    caption_html,
    explanation_html,
    status_line,
    status_names,
    step_line,
)
from viewer.model.theme import GUI_COLOURS, PANE_LABELS, PANES, THEMES
from viewer.window.components import Same
from viewer.window.layout import Layout

__all__ = ["Panel", "OTHER_LABEL", "SIDE_LABELS", "EP_NONE", "EXPORT_SIZES", "make_manager"]

OTHER_LABEL = "Other pieces…"
SIDE_LABELS = {"white": "Side: White", "black": "Side: Black"}
EP_NONE = "e.p.: none"
#: the export sizes offered (the board's side in pixels)
EXPORT_SIZES = (480, 720, 1080, 1600, 2400)
#: the longest text the FEN field takes (an EPD line with operations fits)
FEN_LIMIT = 1000
#: the widgets' font (pygame_gui's Noto Sans) to measure what fits in a list or label
_FONTS = Fonts()
_TIPS = {"turn": "side to move (T)", "structure": "pawn-structure layer (L)",
         "search": "analysis: pawnfence's search with and without detection, and a UCI "
                   "engine (E)", "play:first": "first step (Home)",
         "play:prev": "previous step (Left; a game open: Shift+Left)",
         "play:toggle": "play / pause (Space)",
         "play:next": "next step (Right; a game open: Shift+Right)",
         "play:last": "last step (End)",
         "pgn": "the position as a PGN lesson: a Lichess study chapter (Ctrl+L)",
         "play:prev-phase": "previous phase (Up)", "play:next-phase": "next phase (Down)",
         "projector": "projector mode: board, sentence, legend (P; Esc to leave)"}
_CONTROLS = (*(f"tool:{s}" for s in TOOLS), "turn", "flip", "clear", "help", "projector",
             "undo", "redo", "copy", "paste", "structure", "search", "play:first",
             "play:prev-phase", "play:prev", "play:toggle", "play:next", "play:next-phase",
             "play:last")
_CHECKS = (("overlays", "overlays"), ("banner", "banner"), ("legend", "legend"),
           ("explanation", "explanation"))
_GUI_ELEMENTS = ("button", "label", "text_entry_line", "drop_down_menu", "text_box",
                 "selection_list", "check_box", "tool_tip", "horizontal_slider",
                 "window", "file_dialog")


def make_manager(size: tuple[int, int], px: int, colours: str = "dark") -> pygame_gui.UIManager:
    """A pygame_gui manager whose widgets' text is ``px`` pixels (Noto Sans), in the
    theme ``colours`` (:data:`viewer.model.theme.GUI_COLOURS`)."""
    font = {"name": "noto_sans", "size": str(px)}
    theme: dict[str, Any] = {name: {"font": font} for name in _GUI_ELEMENTS}
    if GUI_COLOURS.get(colours):
        theme["defaults"] = {"colours": GUI_COLOURS[colours]}
    theme["#tab"] = {"misc": {"text_horiz_alignment_padding": "2"}}
    # pygame_gui's 20 px rows cut the descenders of larger text ("g4" read as "a4")
    theme["selection_list"]["misc"] = {"list_item_height": str(max(20, round(px * 1.6)))}
    # the library's rows hold two lines: the title (the button's) and a note drawn under it
    theme["#library"] = {"misc": {"list_item_height": str(library_row(px))}}
    theme["#library.#item_list_item"] = {"misc": {
        "text_horiz_alignment": "left", "text_horiz_alignment_padding": str(px // 2),
        "text_vert_alignment": "top", "text_vert_alignment_padding": str(max(1, px // 6))}}
    manager = pygame_gui.UIManager(size, theme, enable_live_theme_updates=False)
    manager.preload_fonts([{"name": "noto_sans", "point_size": px, "style": style,
                            "antialiased": "1"} for style in ("bold", "italic")])
    return manager


def library_row(px: int) -> int:
    """The height of a library row for text of ``px`` pixels: a title and a note."""
    return max(20, round(px * 1.6)) + round(px * 1.35)


def _piece_label(sym: str) -> str:
    colour = "White" if sym.isupper() else "Black"
    return f"{colour} {chess.piece_name(chess.Piece.from_symbol(sym).piece_type)}"


class Panel:
    """The widgets of the panel for one :class:`ViewerState`; ``manager`` is remade when
    the text size changes."""

    def __init__(self, size: tuple[int, int], state: ViewerState) -> None:
        self.px = 14
        self._theme = state.options.theme
        self.manager = make_manager(size, self.px, self._theme)
        self.state = state
        self.buttons: dict[str, UIButton] = {}
        self.tabs: list[dict[str, UIButton]] = []
        self.checks: dict[str, UIButton] = {}  # the export options, on / off
        self.panes: list[str] = []
        self.fen_entry: UITextEntryLine | None = None
        self.fen_status: UILabel | None = None
        self.library: UISelectionList | None = None
        #: the library's lines as shown -> ("diagram", id) or ("mine", name)
        self._library_items: dict[str, tuple[str, str]] = {}
        #: the library's lines as shown -> the second line drawn under each
        self.library_notes: dict[str, str] = {}
        #: where the library's list was scrolled to (kept when the panel is rebuilt)
        self._library_scroll = 0.0
        self.explain_box: UITextBox | None = None
        self.caption_box: UITextBox | None = None
        self.size_menu: UIDropDownMenu | None = None
        self.ep_menu: UIDropDownMenu | None = None
        self._ep_rect = pygame.Rect(0, 0, 0, 0)
        self._ep_shown: tuple[Any, ...] = ()
        self._shown: tuple[Any, ...] | None = None
        self._built_for: tuple[Any, ...] = ()

    # -- building -----------------------------------------------------------------------
    def build(self, layout: Layout) -> None:
        """(Re)create every widget at ``layout``'s places (none in projector mode)."""
        if layout.px != self.px or self.state.options.theme != self._theme:
            self.px, self._theme = layout.px, self.state.options.theme
            self.manager = make_manager(layout.size, layout.px, self._theme)
        m = self.manager
        self._keep_library_scroll()
        m.clear_and_reset()
        m.set_window_resolution(layout.size)
        self.buttons, self.tabs, self.checks = {}, [], {}
        self.fen_entry = self.library = self.explain_box = self.caption_box = None
        self.fen_status = None
        self.size_menu = self.ep_menu = None
        self.panes = self.state.options.visible_panes(len(layout.slots)) if layout.slots else []
        self._built_for = self._build_key(len(layout.slots))
        self._shown = None
        if layout.projector:
            return
        self._controls(layout)
        for i, slot in enumerate(layout.slots):
            tabs = {}
            for name, rect in slot.tabs.items():
                tabs[name] = UIButton(rect, PANE_LABELS[name], m, object_id="#tab",
                                      tool_tip_text=f"show the {PANE_LABELS[name]} pane")
            self.tabs.append(tabs)
            getattr(self, f"_pane_{self.panes[i]}", lambda r: None)(slot.body)

    def _controls(self, layout: Layout) -> None:
        m, state, cell = self.manager, self.state, layout.cell
        for name in _CONTROLS:
            tip = _TIPS.get(name) or (f"{TOOLS[name[5:]]} ({tooltip(name)})"
                                      if name.startswith("tool:") else tooltip(name))
            self.buttons[name] = UIButton(cell(name), ACTIONS[name].label, m,
                                          tool_tip_text=tip or None)
        others = [OTHER_LABEL] + [_piece_label(s) for s in OTHER_PIECES]
        self.other_menu = UIDropDownMenu(others, others[0], cell("other"), m)
        self._ep_rect = cell("ep")
        self.ep_menu = None
        self._ep_menu()
        self.fen_entry = UITextEntryLine(cell("fen"), m)
        self.fen_entry.set_text_length_limit(FEN_LIMIT)
        self.fen_entry.set_text(state.position.editor.fen)
        self.fen_status = UILabel(cell("fen_status"), "", m)
        labels = [meth.label for meth in logic.METHODS.values()]
        self.method_menu = UIDropDownMenu(labels, state.options.method.label,
                                          cell("method"), m)
        self.side_menu = UIDropDownMenu(list(SIDE_LABELS.values()), SIDE_LABELS[state.options.side],
                                        cell("side"), m)
        self.step_label = UILabel(cell("step"), "", m)
        self.speed_label = UILabel(cell("speed_label"), "", m)
        self.speed_slider = UIHorizontalSlider(cell("speed"), state.playback.timeline.speed,
                                               (0.5, 20.0), m, click_increment=0.5)

    def _ep_key(self) -> tuple[Any, ...]:
        board = self.state.position.editor.board
        return tuple(ep_candidates(board)), board.ep_square

    def _ep_menu(self) -> None:
        """(Re)create the en-passant menu for the board's candidate squares."""
        if self.ep_menu is not None:
            self.ep_menu.kill()
        cands, ep = self._ep_key()
        eps = [EP_NONE] + [f"e.p.: {chess.square_name(s)}" for s in cands]
        self.ep_menu = UIDropDownMenu(eps, f"e.p.: {chess.square_name(ep)}" if ep is not None
                                      else EP_NONE, self._ep_rect, self.manager)
        self._ep_shown = (cands, ep)

    def _pane_story(self, body: pygame.Rect) -> None:
        self.explain_box = UITextBox("", body, self.manager)

    def _pane_library(self, body: pygame.Rect) -> None:
        m, state = self.manager, self.state
        bh = round(self.px * 2.2)
        list_h = (body.height - bh - 8) * 11 // 20
        pos = state.position
        # two lines per entry, each cut at a word with "…" (the caption box below has it
        # all); a click is looked up by the line shown, never parsed back
        font = _FONTS.get(self.px)
        width = body.width - round(self.px * 2.6)  # the scroll bar and the item's margins
        self._library_items, self.library_notes = {}, {}
        loading = state.user_list.job.running or pos.user_list_due
        for entry in library_entries(pos.diagrams, pos.user_positions, loading=loading):
            shown = elide(font, entry.title, width)
            while shown in self._library_items:  # two names alike once cut: keep both
                shown += " "
            self._library_items[shown] = entry.target
            self.library_notes[shown] = elide(font, entry.note, width)
        self.library = UISelectionList(pygame.Rect(body.left, body.top, body.width, list_h),
                                       list(self._library_items), m, object_id="#library")
        if self._library_scroll and self.library.scroll_bar is not None:
            self.library.scroll_bar.set_scroll_from_start_percentage(self._library_scroll)
            self.library.update(0.0)  # the rows move to the kept place now
        cap = pygame.Rect(body.left, body.top + list_h + 4, body.width,
                          body.height - list_h - bh - 8)
        self.caption_box = UITextBox("", cap, m)
        row = pygame.Rect(body.left, body.bottom - bh, body.width, bh)
        half = (row.width - 4) // 2
        self.buttons["add"] = UIButton(pygame.Rect(row.left, row.top, half, bh),
                                       ACTIONS["add"].label, m)
        self.buttons["open"] = UIButton(pygame.Rect(row.left + half + 4, row.top, half, bh),
                                        "Open a playlist… (O)", m)

    def _pane_export(self, body: pygame.Rect) -> None:
        m, x = self.manager, self.state.options.export
        bh = round(self.px * 2.2)
        y = body.top
        UILabel(pygame.Rect(body.left, y, body.width // 3, bh), "Board size", m)
        sizes = [f"{n} px" for n in EXPORT_SIZES]
        current = f"{x.size} px"
        self.size_menu = UIDropDownMenu(sizes if current in sizes else [current, *sizes],
                                        current, pygame.Rect(body.left + body.width // 3, y,
                                                             body.width * 2 // 3, bh), m)
        y += bh + 6
        half = (body.width - 4) // 2
        for i, (name, label) in enumerate(_CHECKS):
            rect = pygame.Rect(body.left + (i % 2) * (half + 4), y + (i // 2) * (bh + 4), half,
                               bh)
            self.checks[name] = UIButton(rect, f"{label.capitalize()}: on", m,
                                         tool_tip_text=f"include the {label} in the picture")
        y += 2 * (bh + 4)
        self.checks["theme"] = UIButton(pygame.Rect(body.left, y, half, bh),
                                        "Figures: light", m, tool_tip_text=(
                                            "the pictures' colours: light (black on white, "
                                            "for print) or dark"))
        self.buttons["theme"] = UIButton(pygame.Rect(body.left + half + 4, y, half, bh),
                                         f"Window: {self.state.options.theme}", m,
                                         tool_tip_text=tooltip("theme"))
        y += bh + 4
        y += 6
        quarter = (body.width - 12) // 4
        for i, name in enumerate(("png", "gif", "svg", "pgn")):
            self.buttons[name] = UIButton(pygame.Rect(body.left + i * (quarter + 4), y, quarter,
                                                      bh), ACTIONS[name].label, m,
                                          tool_tip_text=_TIPS.get(name) or tooltip(name))
        y += bh + 6
        if body.bottom - y > bh:
            UITextBox("All off: the board only. A save dialog asks where to save; the GIF's "
                      "frame time follows the speed (steps/s); the SVG is a vector picture for "
                      "print; the PGN is a Lichess study chapter (the verdict, the fence as "
                      "shapes). Text and legend grow with the size.",
                      pygame.Rect(body.left, y, body.width, body.bottom - y), m)

    def _keep_library_scroll(self) -> None:
        """Remember where the library's list is scrolled to (before a rebuild)."""
        lib = self.library
        if lib is not None and lib.alive():
            bar = lib.scroll_bar
            self._library_scroll = bar.start_percentage if bar is not None else 0.0

    def draw_over(self, surface: pygame.Surface) -> None:
        """Draw what pygame_gui cannot (after its widgets): the second line of each library
        row on show, muted, under its title; nothing while a window or an open menu
        could lie over the list."""
        lib = self.library
        if lib is None or not lib.alive() or not lib.visible or self._covered():
            return
        font = _FONTS.get(self.px)
        clip = lib.item_list_container.rect if lib.item_list_container is not None else lib.rect
        old = surface.get_clip()
        surface.set_clip(clip.clip(old) if old else clip)
        pad = self.px // 2
        for item in lib.item_list:
            button = item["button_element"]
            note = self.library_notes.get(item["text"])
            if button is None or not note or not button.rect.colliderect(clip):
                continue
            y = button.rect.bottom - font.get_linesize() - max(1, self.px // 6)
            muted = THEMES.get(self.state.options.theme, THEMES["dark"])["muted"]
            surface.blit(font.render(note, True, muted), (button.rect.left + pad, y))
        surface.set_clip(old)

    def _covered(self) -> bool:
        """Whether a window (a file dialog) is open or a menu is expanded."""
        if self.manager.get_window_stack().get_full_stack():
            return True
        menus = [getattr(self, name, None) for name in ("other_menu", "ep_menu", "method_menu",
                                                        "side_menu", "size_menu")]
        return any(m is not None and m.current_state is m.menu_states.get("expanded")
                   for m in menus)

    # -- events -------------------------------------------------------------------------
    def typing(self) -> bool:
        """Whether a text field (the FEN field, a dialog's path) has the keyboard."""
        return any(isinstance(e, UITextEntryLine) and e.is_focused
                   for e in self.manager.get_focus_set() or ())

    def key_while_typing(self, event: pygame.event.Event) -> None:
        """A key pressed while a text field has the keyboard: Esc in the FEN field puts the
        board's FEN back and gives the keyboard back to the board."""
        if event.key == pygame.K_ESCAPE and self.fen_entry is not None \
                and self.fen_entry.is_focused:
            self.fen_entry.set_text(self.state.position.editor.fen)
            self.release_keyboard()

    def release_keyboard(self) -> None:
        """No widget has the keyboard any more (keys are shortcuts again)."""
        if self.fen_entry is not None:
            self.fen_entry.unfocus()
        self.manager.set_focus_set(None)
        self._shown = None

    def handle(self, event: pygame.event.Event, host: Host) -> None:
        """Process one of pygame_gui's events (after ``manager.process_events``)."""
        t, el = event.type, getattr(event, "ui_element", None)
        if t == pygame_gui.UI_BUTTON_PRESSED:
            self._button(el, host)
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self._menu(el, event.text)
        elif t == pygame_gui.UI_TEXT_ENTRY_CHANGED and el is self.fen_entry:
            self._status(_typed_status(event.text))
        elif t == pygame_gui.UI_TEXT_ENTRY_FINISHED and el is self.fen_entry:
            # a bad FEN keeps the field's text and keys: the typo is mended, not retyped
            if self.state.load_fen(event.text):
                self.release_keyboard()
            else:
                self._status(_typed_status(event.text))
        elif t == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and el is self.speed_slider:
            self.state.playback.timeline.set_speed(float(event.value))
        elif t == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and el is self.library:
            self._library(event.text, host)

    def _button(self, el: object, host: Host) -> None:
        for name, button in self.buttons.items():
            if el is button:
                run_action(name, host)
                return
        for name, button in self.checks.items():
            if el is button:
                o = self.state.options
                if name == "theme":
                    o.set_export(theme="dark" if o.export.theme == "light" else "light")
                else:
                    o.set_export(**{name: not getattr(o.export, name)})
                return
        for i, tabs in enumerate(self.tabs):
            for name, button in tabs.items():
                if el is button:
                    self.state.options.show_pane(i, name, len(self.tabs))

    def _menu(self, el: object, text: str) -> None:
        state = self.state
        if el is self.method_menu:
            for meth in logic.METHODS.values():
                if meth.label == text:
                    state.set_method(meth)
        elif el is self.side_menu:
            for side in SIDES:
                if SIDE_LABELS[side] == text:
                    state.set_side(side)
        elif el is self.other_menu and text != OTHER_LABEL:
            for sym in OTHER_PIECES:
                if _piece_label(sym) == text:
                    state.options.select_tool(sym)
        elif el is self.ep_menu:
            state.set_ep(None if text == EP_NONE else chess.parse_square(text.split()[-1]))
        elif el is self.size_menu:
            state.options.set_export(size=int(text.split()[0]))

    def _library(self, text: str, host: Host) -> None:
        state = self.state
        kind, name = self._library_items.get(text, ("", ""))
        if kind == "all-mine":
            host.open_playlist(str(user_positions_path()))
        elif kind == "mine":
            state.load_user_position(name)
        elif kind == "diagram":
            for d in state.position.diagrams:
                if d.id == name:
                    state.load_diagram(d)
        self.release_keyboard()

    def _status(self, text: str) -> None:
        """Show ``text`` in the FEN field's status label, cut at a word with "…" to fit."""
        if self.fen_status is not None:
            label = self.fen_status
            label.set_text(elide(_FONTS.get(self.px), text, label.rect.width - 8))

    # -- refresh ------------------------------------------------------------------------
    def _build_key(self, slots: int) -> tuple[Any, ...]:
        s = self.state
        return (s.options.method, s.options.side, len(s.position.user_positions),
                s.user_list.job.running,
                tuple(s.options.visible_panes(slots)) if slots else (), s.options.export.size)

    def needs_rebuild(self) -> bool:
        """Whether the widgets no longer show the state's choices (menus, panes)."""
        return self._built_for != self._build_key(len(self.tabs))

    def update(self, search: Any = None) -> None:
        """Re-set the widgets if what they show changed (``search``: the analysis's
        result, for the library pane's caption box when the analysis is on)."""
        s, tl = self.state, self.state.playback.timeline
        o, pos, editor = s.options, s.position, s.position.editor
        key = (o.tool, editor.fen, o.structure_layer, o.search_on, self.typing(),
               editor.can_undo(), editor.can_redo(), tl.playing, tl.index, tl.count,
               tl.speed, Same(s.playback.verdict), Same(s.playback.other), s.proof.note,
               pos.playlist_index, len(pos.playlist), Same(pos.current_diagram), search,
               pos.caption, o.export)
        if key != self._shown:
            self._shown = key
            if self.fen_entry is not None and self._ep_key() != self._ep_shown:
                self._ep_menu()
            self.refresh(search)

    def refresh(self, search: Any = None) -> None:
        """Set every widget from the state."""
        s, tl, b = self.state, self.state.playback.timeline, self.buttons
        if self.fen_entry is None:
            return
        for sym in TOOLS:
            (b[f"tool:{sym}"].select if sym == s.options.tool else b[f"tool:{sym}"].unselect)()
        b["turn"].set_text("White to move" if s.position.editor.board.turn else "Black to move")
        b["structure"].set_text(f"Structure (L): {'on' if s.options.structure_layer else 'off'}")
        b["search"].set_text(f"Analysis (E): {'on' if s.options.search_on else 'off'}")
        if not self.typing():
            if self.fen_entry.get_text() != s.position.editor.fen:
                self.fen_entry.set_text(s.position.editor.fen)
            self._status(status_line(s.position.editor.board))
        (b["undo"].enable if s.position.editor.can_undo() else b["undo"].disable)()
        (b["redo"].enable if s.position.editor.can_redo() else b["redo"].disable)()
        b["play:toggle"].set_text("Pause" if tl.playing else "Play")
        self.step_label.set_text(step_line(s))
        self.speed_label.set_text(f"{tl.speed:.1f} steps/s")
        for i, tabs in enumerate(self.tabs):
            for name, button in tabs.items():
                (button.select if self.panes[i] == name else button.unselect)()
        for name, button in self.checks.items():
            if name == "theme":
                button.set_text(f"Figures: {s.options.export.theme}")
                continue
            on = getattr(s.options.export, name)
            button.set_text(f"{name.capitalize()}: {'on' if on else 'off'}")
            (button.select if on else button.unselect)()
        if self.explain_box is not None:
            _set_html(self.explain_box, explanation_html(s))
        if self.caption_box is not None:
            _set_html(self.caption_box, caption_html(s, search, with_search=False))


def _typed_status(text: str) -> str:
    """The FEN field's status while the user types: never blocks or changes the board."""
    try:
        board, _ = parse_epd_line(text)
    except PositionError as exc:
        return f"Error: {exc.problem}"[:80]
    names = status_names(board)
    if not names:
        return "OK: valid FEN - Enter to load, Esc to undo"
    return ("Warning: " + ", ".join(names) + " - Enter to load")[:80]


def _set_html(box: UITextBox, html: str) -> None:
    """Re-lay out a text box only when its text changes (layout costs milliseconds)."""
    if getattr(box, "_pawnfence_html", None) != html:
        box.set_text(html)
        box._pawnfence_html = html  # type: ignore[attr-defined]


__all__ += ["PANES"]
