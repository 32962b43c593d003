"""The fonts the window and the PNG draw with, and their metrics (SDL_ttf through
pygame): :class:`Fonts` is the :class:`viewer.figures.textfit.Metrics` every figure is
laid out with, so a figure's SVG places each character where its PNG draws it.

The styles are pygame_gui's fonts (Noto Sans regular, bold and italic, Fira Code for
``mono``), so drawn text matches the widgets, and ``plain``: pygame's default font
(FreeSans Bold), the board's coordinates, tags and badge letters."""

from __future__ import annotations

import os
from importlib import resources

import pygame

from viewer.figures.textfit import FontFile

__all__ = ["Fonts", "font_file", "PLAIN_EM"]

_FILES = {"regular": "NotoSans-Regular.ttf", "bold": "NotoSans-Bold.ttf",
          "italic": "NotoSans-Italic.ttf", "mono": "FiraCode-Regular.ttf"}
#: pygame sizes its default font at this share of the size asked: its glyphs at size
#: ``n`` are those of ``n * PLAIN_EM`` pixels per em
PLAIN_EM = 0.6875


class Fonts:
    """Fonts by pixel size and style (``regular``, ``bold``, ``italic``, ``mono``,
    ``plain``), cached; pygame's default font stands in when a file cannot be loaded."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._cache: dict[tuple[int, str], pygame.font.Font] = {}

    def get(self, px: int, style: str = "regular") -> pygame.font.Font:
        """The font of ``style`` at ``px`` pixels."""
        key = (max(6, int(px)), style)
        font = self._cache.get(key)
        if font is None:
            font = self._cache[key] = _load(*key)
        return font

    def file(self, style: str) -> FontFile | None:
        """The TrueType file ``style`` is drawn with and its pixels per em per pixel of
        size (None when it cannot be found)."""
        path = font_file(style)
        if path is None:
            return None
        return FontFile(path, PLAIN_EM if style == "plain" else 1.0)


def font_file(style: str) -> str | None:
    """The TrueType file :class:`Fonts` draws ``style`` with (``"plain"``: pygame's default
    font), or None when it cannot be found."""
    if style == "plain":
        path = os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
        return path if os.path.isfile(path) else None
    try:
        ref = resources.files("pygame_gui.data") / _FILES.get(style, _FILES["regular"])
        path = str(ref)
    except (ModuleNotFoundError, TypeError):
        return None
    return path if os.path.isfile(path) else None


def _load(px: int, style: str) -> pygame.font.Font:
    if style == "plain":
        return pygame.font.Font(None, px)
    try:
        ref = resources.files("pygame_gui.data") / _FILES.get(style, _FILES["regular"])
        with resources.as_file(ref) as path:
            return pygame.font.Font(str(path), px)
    except (OSError, ModuleNotFoundError, pygame.error, FileNotFoundError):
        font = pygame.font.Font(None, int(px * 1.3))
        font.set_bold(style == "bold")
        return font
