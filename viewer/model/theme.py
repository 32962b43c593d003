"""Colours and legend of the viewer.

The overlay palette is Okabe & Ito's colour-blind-safe set; every overlay also
carries a shape (hatch, outline, dots) or a letter, so colour is never the
only signal.  A method's legend lives on the method (:attr:`logic.registry.Method.legend`,
items of :class:`logic.legend.LegendItem`); the viewer adds its own (KPK, the analysis's
arrows).
"""

from __future__ import annotations

from typing import NamedTuple

from logic.legend import LegendItem
from logic.registry import Method

RGB = tuple[int, int, int]

#: Okabe-Ito palette
OKABE_ITO: dict[str, RGB] = {
    "black": (0, 0, 0),
    "orange": (230, 159, 0),
    "sky_blue": (86, 180, 233),
    "bluish_green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "vermillion": (213, 94, 0),
    "reddish_purple": (204, 121, 167),
}

#: Every colour the renderer uses, by role (override any of them in ``render_board``).
COLOURS: dict[str, RGB] = {
    "background": (38, 36, 33),
    "panel": (48, 46, 43),
    "text": (235, 235, 230),
    "muted": (170, 168, 160),
    "square_light": (240, 217, 181),
    "square_dark": (181, 136, 99),
    "coord": (235, 235, 230),
    "marked": OKABE_ITO["orange"],
    "fence": OKABE_ITO["vermillion"],
    "below": OKABE_ITO["sky_blue"],
    "path": OKABE_ITO["blue"],
    "processed": (90, 90, 90),
    "changed": OKABE_ITO["yellow"],
    "ok": OKABE_ITO["bluish_green"],
    "breaks": OKABE_ITO["vermillion"],
    "fixed": OKABE_ITO["blue"],
    "removed": OKABE_ITO["reddish_purple"],
    "structure": OKABE_ITO["reddish_purple"],
    "banner_blocked": OKABE_ITO["bluish_green"],
    "banner_open": OKABE_ITO["orange"],
    "banner_na": (120, 120, 120),
    "kpk": OKABE_ITO["reddish_purple"],
    "arrow_with": OKABE_ITO["blue"],
    "arrow_without": (150, 150, 150),
    "arrow_engine": OKABE_ITO["orange"],
    "kingmap_holds": OKABE_ITO["bluish_green"],
    "kingmap_breaks": OKABE_ITO["vermillion"],
    "ghost": OKABE_ITO["sky_blue"],
    "arrow_line": OKABE_ITO["reddish_purple"],
    "current_line": (70, 90, 60),
    "previous_line": (58, 62, 70),
    "track": (33, 40, 45),  # the timeline's track and its edge
    "track_edge": (92, 96, 98),
}


#: the light theme: black text on white, the board's own colours and the same overlay
#: palette (every overlay also keeps its letter, hatch or shape, so a figure reads in
#: greyscale too); the default of figures (``render``, the Export pane, reports)
LIGHT: dict[str, RGB] = {
    **COLOURS,
    "background": (255, 255, 255),
    "panel": (240, 240, 238),
    "text": (0, 0, 0),
    "muted": (70, 70, 70),
    "coord": (40, 40, 40),
    "processed": (150, 150, 150),
    "arrow_without": (110, 110, 110),
    "current_line": (206, 228, 196),
    "previous_line": (222, 226, 236),
    "track": (226, 226, 222),
    "track_edge": (130, 130, 126),
}

#: the themes by name: ``dark`` (the window's default) and ``light`` (figures')
THEMES: dict[str, dict[str, RGB]] = {"dark": COLOURS, "light": LIGHT}

#: the widgets' colours per theme (pygame_gui's ``defaults`` colours; dark: its own)
GUI_COLOURS: dict[str, dict[str, str]] = {
    "dark": {},
    "light": {
        "normal_bg": "#e4e4e0", "hovered_bg": "#d2d2cc", "disabled_bg": "#f0f0ee",
        "selected_bg": "#9cc3e6", "active_bg": "#9cc3e6", "dark_bg": "#fafaf8",
        "disabled_dark_bg": "#eeeeec", "normal_text": "#111111", "hovered_text": "#000000",
        "disabled_text": "#707070", "selected_text": "#000000", "active_text": "#000000",
        "normal_text_shadow": "#ffffff00", "hovered_text_shadow": "#ffffff00",
        "disabled_text_shadow": "#ffffff00", "selected_text_shadow": "#ffffff00",
        "active_text_shadow": "#ffffff00", "normal_border": "#9a9a96",
        "hovered_border": "#6f6f6b", "disabled_border": "#c8c8c4",
        "selected_border": "#0072b2", "active_border": "#0072b2", "link_text": "#0060a0",
        "link_hover": "#003f6b", "link_selected": "#003f6b", "text_shadow": "#ffffff00",
        "filled_bar": "#0072b2", "unfilled_bar": "#cccccc", "text_cursor": "#000000ff",
    },
}


#: the dock's panes, in tab order, and their tab labels
PANES = ("story", "steps", "code", "compare", "analysis", "library", "export")
PANE_LABELS = {"story": "Story", "steps": "Steps", "code": "Code", "compare": "Compare",
               "analysis": "Analysis", "library": "Library", "export": "Export"}


class Role(NamedTuple):
    """How a paragraph of the window's text is drawn: ``px`` before any shrinking, the
    font ``style`` (regular, bold, italic, mono), the colour's key in :data:`COLOURS`, and
    the ratio it never shrinks below (``least``: the headline gives way first)."""

    px: int
    style: str = "regular"
    colour: str = "text"
    least: float = 0.0


class Block(NamedTuple):
    """A paragraph: ``text`` drawn in ``role`` (a key of the roles it is laid out with)."""

    text: str
    role: str


#: shown on KPK positions
KPK_LEGEND: tuple[LegendItem, ...] = (
    LegendItem("edge", "kpk", "", "KPK: the square of the pawn"),
    LegendItem("key", "kpk", "K", "KPK: key square for the strong king"),
)
#: shown while the analysis pane draws its arrows (solid, dashed, hollow head)
ARROW_LEGEND: tuple[LegendItem, ...] = (
    LegendItem("arrows", "arrow_with", "",
               "best move: solid with detection, dashed without (dashes in a solid arrow: "
               "both), hollow head engine"),
)


def legend_items(method: Method, *, kpk: bool = False, search: bool = False,
                 code: str | None = None) -> tuple[LegendItem, ...]:
    """The legend for ``method``'s overlays (its own, :attr:`~logic.registry.Method.legend`),
    the KPK items when ``kpk``, the arrows when ``search``; ``code`` (a verdict's code)
    keeps only the lines that apply to it (pictures, :meth:`~logic.registry.Method.legend_for`;
    the window keeps them all so that its layout stays put)."""
    return (method.legend_for(code) + (KPK_LEGEND if kpk else ())
            + (ARROW_LEGEND if search else ()))


CATEGORY_LETTER = {"above": "A", "on": "O", "below": "B", "fence-lever": "L"}
