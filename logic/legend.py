"""What the marks on a board mean, as data: a method's legend (:class:`LegendItem`) and the
legend of the boards every static verdict carries (:data:`BOARD_LEGEND`).

An item names how its mark is drawn (``style``: the overlay's vocabulary, see
:attr:`LegendItem.style`), the colour role it is drawn in (a key of the viewer's colour
table), the letter it carries (colour is never the only signal) and its words.  A method
holds its legend (:attr:`logic.registry.Method.legend`); the viewer draws each item's
swatch and keeps only the items its figure draws.  This module is a leaf: it imports
nothing of ``logic``.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["LegendItem", "BOARD_LEGEND", "STYLES"]

#: the mark styles a legend item may name (what the viewer's overlay can draw): the board
#: records' squares (``hatch`` marked, ``fence``, ``dfs`` the fence search's path, ``dots``
#: the attacking king's side, ``fixed``, ``cross`` removed pawns, ``recompute`` a fence's
#: difference, ``outline`` changed squares, ``thin`` where the defending king must stand),
#: the pawn badges (``letters``, ``holds``, ``breaks``), a king map with a letter
#: (``kingmap``), ghost pawns (``ghost``), a move's arrow (``move``), and the viewer's own
#: KPK squares (``edge``, ``key``) and analysis arrows (``arrows``)
STYLES = frozenset(("hatch", "fence", "dfs", "dots", "fixed", "letters", "holds", "breaks",
                    "cross", "recompute", "outline", "thin", "kingmap", "ghost", "move",
                    "edge", "key", "arrows"))


class LegendItem(NamedTuple):
    """One legend entry: how it is drawn (``style``, one of :data:`STYLES`), its colour
    role, letter, words."""

    style: str
    colour: str
    letter: str
    text: str


#: the legend of what a static verdict's boards draw (:class:`~logic.records.Boards`: the
#: marked squares, the fence and its search, the king's side, fixed, removed and dynamic
#: pawns): the default of every method
BOARD_LEGEND: tuple[LegendItem, ...] = (
    LegendItem("hatch", "marked", "", "marked: the king cannot enter (2.2)"),
    LegendItem("fence", "fence", "", "fence (2.3) / ram fence (wiki)"),
    LegendItem("dfs", "path", "", "fence search (2.3): its path (line), squares done (grey)"),
    LegendItem("dots", "below", "", "the attacking king's side / flood"),
    LegendItem("fixed", "fixed", "F", "fixed pawn (2.2)"),
    LegendItem("letters", "text", "A O B E L",
               "A above, O on, B below the fence; E 3.4 exception; L fence lever"),
    LegendItem("holds", "ok", "A", "dynamic pawn that holds (disc, tick)"),
    # the same letter as "holds": the shape says holds or breaks (a B here was read as
    # "breaks", though B is "below" on the board)
    LegendItem("breaks", "breaks", "A", "dynamic pawn that breaks it (ring, cross)"),
    LegendItem("cross", "removed", "X", "removed / drowned pawn (3)"),
    LegendItem("recompute", "fence", "+ -",
               "fence recomputed: joins (+), leaves (-), taken now (rings)"),
    LegendItem("outline", "changed", "", "changed in this step"),
    LegendItem("thin", "ok", "", "the defending king must stand here (3.1, 3.4)"),
)
