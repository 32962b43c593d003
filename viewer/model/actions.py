"""The one action table: every thing the user can do by key or button, once.

An :class:`Action` has one name, a button label, the words of the help overlay and
what it does (``run(host)``).  Key bindings are data (:data:`KEYS`: action name ->
key specs such as ``"ctrl+z"``, ``"right"``, ``"?"``); buttons name their action
(:mod:`viewer.window.panel`); the help overlay is generated from this table
(:func:`help_lines`).  Nothing here imports pygame: the window turns a key event into
specs (:func:`event_specs` takes plain values) and looks them up in :func:`bindings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple, Protocol

import logic
from viewer.model.game import walk
from viewer.model.state import TOOLS, ViewerState

__all__ = ["Action", "ACTIONS", "KEYS", "GROUPS", "Host", "bindings", "key_caption",
           "event_specs", "help_lines", "run_action", "tooltip"]


class Host(Protocol):
    """What an action may use: the state model and the window's services."""

    state: ViewerState

    def choose_export(self, kind: str) -> None:
        """Ask where to save an export of ``kind`` (png, gif, svg) and write it there."""

    def save_position(self) -> None:
        """Add the position to the user's own list."""

    def choose_playlist(self) -> None:
        """Ask for an EPD file (and step through it) or a PGN file (and walk its games)."""

    def choose_pgn(self) -> None:
        """Ask where to save the position as a PGN lesson chapter and write it there."""

    def open_playlist(self, path: str) -> bool:
        """Step through the EPD file at ``path``; False (said) when it cannot be read."""

    def play_line(self, source: str) -> None:
        """Play the line of analysis column ``source`` move by move on the board."""

    def copy_text(self, text: str) -> None:
        """Put ``text`` on the clipboard."""

    def paste_text(self) -> str:
        """The clipboard's text ('' when empty or unreadable)."""


class Action(NamedTuple):
    """One user action: ``name`` (the key of :data:`ACTIONS`), the ``label`` of its
    button (``""``: no button), the help ``group`` whose line lists its keys, and
    ``run``."""

    name: str
    label: str
    group: str
    run: Callable[[Host], object]


def _copy(host: Host) -> None:
    host.copy_text(host.state.position.editor.fen)
    host.state.say("FEN copied")


def _paste(host: Host) -> None:
    host.state.load_fen(host.paste_text())


def _tool(sym: str) -> Action:
    label = {"K": "W king", "P": "W pawn", "k": "B king", "p": "B pawn", "x": "Eraser"}[sym]
    return Action(f"tool:{sym}", label, "tools", lambda h: h.state.options.select_tool(sym))


def _step(where: str, label: str, group: str) -> Action:
    return Action(f"play:{where}", label, group, lambda h: h.state.playback.step_to(where))


def _walk(where: str, group: str) -> Action:
    return Action(f"walk:{where}", "", group, lambda h: walk(h.state, where))


def _line(where: str, label: str) -> Action:
    return Action(f"line:{where}", label, "line", lambda h: h.state.line_step(where))


_TABLE: tuple[Action, ...] = (
    *(_tool(sym) for sym in TOOLS),
    Action("turn", "", "turn", lambda h: h.state.toggle_turn()),
    Action("flip", "Flip (F)", "flip", lambda h: h.state.options.toggle_flip()),
    Action("clear", "Clear", "", lambda h: h.state.clear()),
    Action("help", "Help (H)", "help", lambda h: h.state.options.toggle_help()),
    Action("theme", "", "theme", lambda h: h.state.options.toggle_theme()),
    Action("projector", "Projector", "projector", lambda h: h.state.options.toggle_projector()),
    Action("legend", "", "legend", lambda h: h.state.options.toggle_legend()),
    Action("undo", "Undo", "history", lambda h: h.state.undo()),
    Action("redo", "Redo", "history", lambda h: h.state.redo()),
    Action("copy", "Copy FEN", "clipboard", _copy),
    Action("paste", "Paste FEN", "clipboard", _paste),
    Action("play:toggle", "Play", "play", lambda h: h.state.playback.timeline.toggle()),
    _walk("prev", "walk"), _walk("next", "walk"), _walk("first", "walk-ends"),
    _walk("last", "walk-ends"),
    _step("first", "|<", "ends"), _step("prev", "<", "steps"), _step("next", ">", "steps"),
    _step("last", ">|", "ends"), _step("prev-phase", "<<", "phases"),
    _step("next-phase", ">>", "phases"),
    Action("back", "", "back", lambda h: h.state.back()),
    Action("method", "", "choose", lambda h: h.state.next_method()),
    Action("prove", "", "prove", lambda h: h.state.retry_proof()),
    Action("side", "", "choose", lambda h: h.state.toggle_side()),
    Action("structure", "", "structure", lambda h: h.state.toggle_structure()),
    Action("png", "PNG…", "export", lambda h: h.choose_export("png")),
    Action("gif", "GIF…", "export", lambda h: h.choose_export("gif")),
    Action("svg", "SVG…", "export", lambda h: h.choose_export("svg")),
    Action("pgn", "PGN…", "lesson", lambda h: h.choose_pgn()),
    Action("search", "", "search", lambda h: h.state.toggle_search()),
    Action("search:less", "−", "search-time", lambda h: h.state.options.faster_search(0.5)),
    Action("search:more", "+", "search-time", lambda h: h.state.options.faster_search(2.0)),
    Action("line:with", "Play", "", lambda h: h.play_line("with")),
    Action("line:without", "Play", "", lambda h: h.play_line("without")),
    Action("line:engine", "Play", "", lambda h: h.play_line("engine")),
    _line("first", "|<"), _line("prev", "<"), _line("next", ">"), _line("last", ">|"),
    Action("line:stop", "Back to the position", "", lambda h: h.state.stop_line()),
    Action("open", "", "open", lambda h: h.choose_playlist()),
    Action("next-case", "", "cases", lambda h: h.state.next_case(1)),
    Action("prev-case", "", "cases", lambda h: h.state.next_case(-1)),
    Action("add", "Add to my positions", "", lambda h: h.save_position()),
)
#: name -> action
ACTIONS: dict[str, Action] = {a.name: a for a in _TABLE}

#: key bindings: action name -> key specs ("ctrl+" and "shift+" prefixes; pygame key
#: names or the character typed)
KEYS: dict[str, tuple[str, ...]] = {
    "tool:K": ("1",), "tool:P": ("2",), "tool:k": ("3",), "tool:p": ("4",), "tool:x": ("0",),
    "turn": ("t",), "flip": ("f",), "undo": ("ctrl+z",), "redo": ("ctrl+y",),
    "copy": ("ctrl+c",), "paste": ("ctrl+v",), "play:toggle": ("space",),
    "walk:prev": ("left",), "walk:next": ("right",), "walk:first": ("home",),
    "walk:last": ("end",), "play:prev": ("shift+left",), "play:next": ("shift+right",),
    "play:first": ("shift+home",), "play:last": ("shift+end",),
    "play:prev-phase": ("up",), "play:next-phase": ("down",),
    "back": ("escape",), "method": ("m",), "side": ("s",), "prove": ("r",),
    "structure": ("l",), "png": ("ctrl+s",), "gif": ("ctrl+g",), "svg": ("ctrl+shift+s",),
    "pgn": ("ctrl+l",),
    "search": ("e",), "search:less": ("-",), "search:more": ("=", "+"),
    "line:prev": ("[",), "line:next": ("]",), "line:first": ("ctrl+[",),
    "line:last": ("ctrl+]",), "projector": ("p",), "legend": ("g",),
    "open": ("o",), "help": ("h", "?"), "theme": ("ctrl+t",), "next-case": ("n", "page down"),
    "prev-case": ("page up",),
}

#: help groups in the order of the help overlay: group -> (keys caption or "" for the
#: actions' keys joined by " / ", words)
GROUPS: dict[str, tuple[str, str]] = {
    "tools": ("", "tools: White king, White pawn, Black king, Black pawn / eraser"),
    "turn": ("", "toggle side to move"),
    "flip": ("", "flip the board"),
    "history": ("", "undo / redo (every edit)"),
    "clipboard": ("", "copy the FEN / paste a FEN"),
    "play": ("", "play / pause the detector's steps"),
    "walk": ("", "previous / next step; a game open: its previous / next move"),
    "walk-ends": ("", "first / last step; a game open: its start / its last move"),
    "steps": ("", "previous / next step, a game open or not"),
    "phases": ("", "previous / next phase (a group of steps)"),
    "ends": ("", "first / last step, a game open or not"),
    "back": ("", "back: close this help, leave projector mode, cancel a proof, leave a "
                 "line, the live verdict"),
    "choose": ("", "switch method ({methods}) / side (White / Black)"),
    "prove": ("", "prove again (after Esc cancelled the exact prover, or it failed); after "
                  "an unknown, with twice the time"),
    "structure": ("", "pawn-structure layer (files, rams, levers, backward, stragglers)"),
    "export": ("", "save this frame as PNG / the trace as GIF / the frame as SVG"),
    "lesson": ("", "save the position as a PGN lesson: a Lichess study chapter with the "
                   "verdict, the fence as shapes and the exact line"),
    "search": ("", "analysis: pawnfence's search with and without detection, a UCI engine"),
    "search-time": ("- / +", "less / more time per search"),
    "line": ("", "a line of the analysis on the board: first / previous / next / last move"),
    "projector": ("", "projector mode: the board, the sentence in large type, the legend"),
    "legend": ("", "unfold / fold the legend in a small window (or click it)"),
    "open": ("", "open a playlist (an EPD file, e.g. a scan's suspects.epd) or a game (a "
                 "PGN file: the strip under the board shows every method at every move)"),
    "cases": ("N, PageDown / PageUp", "next / previous case of the playlist, or game of "
                                      "the PGN file"),
    "theme": ("", "the window's colours: dark / light (figures: the Export pane)"),
    "help": ("", "show / hide this help"),
}

_NAMES = {"space": "Space", "left": "Left", "right": "Right", "home": "Home", "end": "End",
          "escape": "Esc", "page down": "PageDown", "page up": "PageUp", "up": "Up",
          "down": "Down"}


def key_caption(spec: str) -> str:
    """How a key spec is written for people: ``"ctrl+shift+s"`` -> ``"Ctrl+Shift+S"``."""
    mods, key = [], spec
    for prefix in ("ctrl+", "shift+"):
        if key.startswith(prefix) and len(key) > len(prefix):
            mods.append(prefix[:-1].title())
            key = key[len(prefix):]
    word = _NAMES.get(key, key.upper() if len(key) == 1 else key.title())
    return "+".join([*mods, word])


def tooltip(name: str) -> str:
    """The keys of action ``name`` for a button's tool tip ("" if none)."""
    return " / ".join(key_caption(k) for k in KEYS.get(name, ()))


def bindings() -> dict[str, str]:
    """Key spec -> action name (each spec bound once)."""
    out: dict[str, str] = {}
    for name, specs in KEYS.items():
        for spec in specs:
            if spec in out:
                raise ValueError(f"key {spec!r} bound to {out[spec]} and {name}")
            out[spec] = name
    return out


def event_specs(key_name: str, unicode: str, ctrl: bool, shift: bool = False) -> list[str]:
    """The specs a key press matches, most specific first: the key's name with a
    ``ctrl+`` prefix when Ctrl (or Cmd) is held and ``shift+`` when Shift is, then
    without the Shift, then the character typed."""
    name = key_name.lower()
    pre = "ctrl+" if ctrl else ""
    specs = [pre + "shift+" + name] if shift else []
    specs.append(pre + name)
    if unicode and unicode.isprintable() and not ctrl:
        specs.append(unicode.lower() if unicode.isalpha() else unicode)
    return specs


def run_action(name: str, host: Host) -> bool:
    """Run action ``name`` on ``host``; False if there is no such action."""
    action = ACTIONS.get(name)
    if action is None:
        return False
    action.run(host)
    return True


def _group_caption(group: str) -> str:
    per_action = [KEYS.get(a.name, ()) for a in _TABLE if a.group == group]
    if group == "tools":
        keys = [key_caption(k[0]) for k in per_action]
        return " ".join(keys[:-1]) + " / " + keys[-1]
    if len(per_action) == 1:
        return " or ".join(key_caption(k) for k in per_action[0])
    rows = [" / ".join(key_caption(k[i]) for k in per_action if len(k) > i)
            for i in range(max(map(len, per_action)))]
    return ", ".join(rows)


def help_lines(extra: Iterable[tuple[str, str]] = ()) -> tuple[tuple[str, str], ...]:
    """``(keys, words)`` lines of the help overlay: ``extra`` (the mouse gestures) first,
    then one line per help group of the action table, with the keys bound to it."""
    methods = " / ".join(m.label for m in logic.METHODS.values())
    return (*extra, *((caption or _group_caption(group), words.replace("{methods}", methods))
                      for group, (caption, words) in GROUPS.items()))
