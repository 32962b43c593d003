"""Colours and legend of the viewer.

The overlay palette is Okabe & Ito's colour-blind-safe set; every overlay also
carries a shape (hatch, outline, dots) or a letter, so colour is never the
only signal.
"""

from __future__ import annotations

from typing import NamedTuple

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
}


class LegendItem(NamedTuple):
    """One legend entry: how it is drawn (``style``), its colour role, letter, words."""

    style: str
    colour: str
    letter: str
    text: str


LEGEND: tuple[LegendItem, ...] = (
    LegendItem("hatch", "marked", "", "marked: king cannot enter (2.2)"),
    LegendItem("fence", "fence", "", "fence (2.3) / ram fence"),
    LegendItem("dots", "below", "", "king's side / flood"),
    LegendItem("badge", "fixed", "F", "fixed pawn (2.2)"),
    LegendItem("badge", "ok", "A O B E", "dynamic: above/on/below/3.4, holds"),
    LegendItem("badge", "breaks", "A O B", "dynamic pawn that breaks it"),
    LegendItem("cross", "removed", "X", "removed / drowned pawn (3)"),
    LegendItem("outline", "changed", "", "changed in this step"),
    LegendItem("thin", "ok", "", "defending king must stand here (3.1, 3.4)"),
)
#: shown on KPK positions
KPK_LEGEND: tuple[LegendItem, ...] = (
    LegendItem("edge", "kpk", "", "KPK: the square of the pawn"),
    LegendItem("key", "kpk", "K", "KPK: key square for the strong king"),
)

CATEGORY_LETTER = {"above": "A", "on": "O", "below": "B", "fence-lever": "L"}
