"""The viewer's options (part of :class:`viewer.model.state.ViewerState`, without pygame): the
method and side under test, the orientation, the editor's tool, the layers and modes
(structure, analysis, help, projector), the analysis's time per search, the export
options and the dock's panes.

Changing the method, the side or the structure layer changes what is analysed: those go
through :class:`~viewer.model.state.ViewerState`, which re-runs the detector; everything here
changes only what is shown.  Invariants: ``method`` is a method object of
``logic.METHODS`` (the settings file stores its name: :class:`Options` looks it up,
:meth:`~viewer.model.state.ViewerState.settings` writes it back), ``side`` one of
:data:`SIDES`, ``tool`` a key of :data:`TOOLS` or one of :data:`OTHER_PIECES`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import logic
from viewer.model.settings import Settings
from viewer.model.theme import PANES

__all__ = ["Options", "ExportOptions", "DEFAULT_OPTIONS", "TOOLS", "OTHER_PIECES", "SIDES",
           "DEFAULT_PANES"]

#: the editor's tools: piece symbol (or ``"x"``, the eraser) -> name
TOOLS: dict[str, str] = {"K": "White king", "P": "White pawn", "k": "Black king",
                         "p": "Black pawn", "x": "Eraser"}
#: the other pieces, chosen from a menu
OTHER_PIECES = ("Q", "R", "B", "N", "q", "r", "b", "n")
#: the sides a detector can be asked about
SIDES = ("white", "black")
#: the panes a dock of one or two slots shows at first
DEFAULT_PANES = {1: ("story",), 2: ("steps", "code")}


@dataclass(frozen=True)
class ExportOptions:
    """What an export holds: the board's ``size`` in pixels, and whether it shows the
    ``overlays``, the ``banner``, the ``legend`` and the ``explanation`` (all False: the
    board only)."""

    size: int = 720
    overlays: bool = True
    banner: bool = True
    legend: bool = True
    explanation: bool = True
    #: the colours of the picture: ``"light"`` (black on white, for print) or ``"dark"``
    theme: str = "light"
    #: whether the texts give the exact prover's run (structures solved, seconds): they
    #: change from run to run, so a figure leaves them out unless asked
    stats: bool = False
    #: an SVG's text: ``"paths"`` (glyph outlines: the same in every renderer) or
    #: ``"fonts"`` (text in the embedded subsets of its fonts: for editing)
    svg_text: str = "paths"


#: the export options of a fresh installation
DEFAULT_OPTIONS = ExportOptions()


class Options:
    """What the user chose (see the module's invariants).  Construct from
    :class:`Settings` (values out of range fall back to the defaults)."""

    def __init__(self, s: Settings) -> None:
        methods = logic.METHODS
        #: the method analysed (an object of the registry, never its name)
        self.method: logic.Method = methods.get(s.method) or next(iter(methods.values()))
        self.side = s.side if s.side in SIDES else "white"
        self.flipped = s.flipped
        self.tool = s.tool if s.tool in TOOLS or s.tool in OTHER_PIECES else "P"
        self.structure_layer = s.structure
        self.search_on = s.search
        self.search_seconds = s.search_seconds
        self.export = ExportOptions(size=s.export_size, overlays=s.export_overlays,
                                    banner=s.export_banner, legend=s.export_legend,
                                    explanation=s.export_explanation,
                                    theme=s.export_theme)
        #: the window's colours (a key of :data:`viewer.model.theme.THEMES`)
        self.theme = s.theme if s.theme in ("light", "dark") else "dark"
        self.show_help = False
        self.projector = False
        #: the legend unfolded where the window is small enough to fold it
        self.legend_open = False
        #: the panes the dock shows, per number of slots
        self.panes: dict[int, list[str]] = {n: list(p) for n, p in DEFAULT_PANES.items()}
        self.place_analysis_pane()

    def toggle_flip(self) -> None:
        self.flipped = not self.flipped

    def toggle_theme(self) -> None:
        """The window's colours: dark <-> light."""
        self.theme = "light" if self.theme == "dark" else "dark"

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def toggle_legend(self) -> None:
        """Fold or unfold the legend (where the window is small enough to fold it)."""
        self.legend_open = not self.legend_open

    def toggle_projector(self) -> None:
        """Projector mode: the board, the sentence in large type and the legend only."""
        self.projector = not self.projector

    def select_tool(self, tool: str) -> None:
        """Choose a tool: a piece symbol or ``"x"`` (the eraser)."""
        if tool in TOOLS or tool in OTHER_PIECES:
            self.tool = tool

    def set_export(self, **changes: Any) -> None:
        """Change the export options (size clamped to 64..4096 pixels)."""
        if "size" in changes:
            changes["size"] = max(64, min(4096, int(changes["size"])))
        self.export = replace(self.export, **changes)

    def set_search_seconds(self, seconds: float) -> None:
        """The analysis pane's time per search (0.1 to 30 s)."""
        self.search_seconds = max(0.1, min(30.0, round(seconds, 2)))

    def faster_search(self, factor: float) -> None:
        """Multiply the time per search by ``factor`` (the pane's − and + buttons)."""
        self.set_search_seconds(self.search_seconds * factor)

    def place_analysis_pane(self) -> None:
        """The analysis's pane in the last slot while the analysis is on, else gone."""
        for panes in self.panes.values():
            if self.search_on and "analysis" not in panes:
                panes[-1] = "analysis"
            elif not self.search_on and "analysis" in panes:
                panes[panes.index("analysis")] = next(
                    p for p in DEFAULT_PANES[len(panes)] + PANES if p not in panes)

    def show_pane(self, slot: int, name: str, slots: int) -> None:
        """Show pane ``name`` in ``slot`` of a dock of ``slots`` slots (a pane shown in
        the other slot swaps places)."""
        panes = self.panes.setdefault(slots, list(DEFAULT_PANES.get(slots, PANES[:slots])))
        if name not in PANES or not 0 <= slot < len(panes):
            return
        if name in panes:
            other = panes.index(name)
            panes[other] = panes[slot]
        panes[slot] = name

    def visible_panes(self, slots: int) -> list[str]:
        """The panes of a dock of ``slots`` slots."""
        return list(self.panes.setdefault(slots, list(DEFAULT_PANES.get(slots,
                                                                        PANES[:slots]))))
