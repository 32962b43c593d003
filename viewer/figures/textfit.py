"""Text that wraps and fits: the viewer's words are never cut with "…".

Text is measured through one small protocol, :class:`Metrics` (a back end's fonts by
pixel size and style, each a :class:`Face` that answers what ``pygame.font.Font``
answers): :class:`viewer.figures.fonts.Fonts` gives SDL_ttf's metrics of the fonts the
window and the PNG draw with, and a layout made with them is translated as it is by every
back end (the SVG places each character where the PNG draws it).  This module needs no
pygame.

:func:`wrap` breaks a string into lines of at most a width (words longer than a line are
broken between characters); :func:`fit` lays out a list of :class:`Block` s (text with a
role: headline, body, muted...) in a rectangle, shrinking every role's size together
until the whole text fits, down to a floor.  The result says whether it fitted
(``fits``), so tests can assert that no text is lost at a window size, and the drawing
code only draws what :func:`fit` placed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple, Protocol

from viewer.model.theme import Block, Role

__all__ = ["Face", "Metrics", "FontFile", "Block", "Placed", "Fitted", "Role", "wrap", "elide",
           "fit", "FLOOR_PX"]

#: no text of the window is drawn smaller than this many pixels
FLOOR_PX = 11


class Face(Protocol):
    """A font at one pixel size, as a back end measures it (the part of
    ``pygame.font.Font`` a layout reads; every number in whole pixels)."""

    def size(self, text: str, /) -> tuple[int, int]:
        """The ``(width, height)`` of ``text`` drawn on one line."""

    def get_linesize(self) -> int:
        """The distance from one line's top to the next's."""

    def get_ascent(self) -> int:
        """The distance from a line's top to its baseline."""

    def metrics(self, text: str, /) -> list[tuple[int, int, int, int, int] | None]:
        """Per character ``(minx, maxx, miny, maxy, advance)`` (None: no glyph)."""


class FontFile(NamedTuple):
    """The TrueType file a style is drawn with and its pixels per em for each pixel of
    size asked (1; pygame's default font: 0.6875)."""

    path: str
    em: float


class Metrics(Protocol):
    """A back end's fonts: the one way the figures measure text (hashable: layouts are
    kept per metrics)."""

    def __hash__(self) -> int:
        """Metrics are kept as keys (by identity will do)."""

    def get(self, px: int, style: str = "regular") -> Face:
        """The font of ``style`` (``regular``, ``bold``, ``italic``, ``mono``; ``plain``:
        the font of the board's coordinates, tags and badges) at ``px`` pixels."""

    def file(self, style: str) -> FontFile | None:
        """The file ``style`` is drawn with (None: not known; the text stays text)."""


class Placed(NamedTuple):
    """One line placed by :func:`fit`: its text, role, pixel size, style, colour key and
    its top-left offset inside the rectangle."""

    text: str
    role: str
    px: int
    style: str
    colour: str
    x: int
    y: int


class Fitted(NamedTuple):
    """The lines of a :func:`fit`, the ``height`` they take, the ``ratio`` every size was
    multiplied by, and whether they ``fit`` in the height asked for."""

    lines: tuple[Placed, ...]
    height: int
    ratio: float
    fits: bool


def _break_word(font: Face, word: str, width: int) -> list[str]:
    """``word`` cut into pieces of at most ``width`` pixels: after a hyphen or a slash
    where one fits ("connected-" / "component"), else between characters."""
    out = []
    while len(word) > 1 and font.size(word)[0] > width:
        lo, hi = 1, len(word) - 1  # the longest prefix that fits (at least one character)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if font.size(word[:mid])[0] <= width:
                lo = mid
            else:
                hi = mid - 1
        soft = max(word.rfind("-", 0, lo), word.rfind("/", 0, lo)) + 1
        cut = soft if soft > 0 else lo
        out.append(word[:cut])
        word = word[cut:]
    out.append(word)
    return out


def wrap(font: Face, text: str, width: int) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` pixels (a word wider than
    that is broken between characters); newlines start a new line.  Every character of
    ``text`` but the spaces at a break is kept, in order."""
    width = max(1, width)
    text = text.replace("\0", "\ufffd")  # SDL_ttf refuses NUL: outside text may hold one
    lines: list[str] = []
    for paragraph in text.split("\n"):
        cur = ""
        for word in paragraph.split(" "):
            trial = f"{cur} {word}" if cur else word
            if font.size(trial)[0] <= width:
                cur = trial
                continue
            if cur:
                lines.append(cur)
            pieces = _break_word(font, word, width)
            lines.extend(pieces[:-1])
            cur = pieces[-1]
        lines.append(cur)
    return lines


def elide(font: Face, text: str, width: int) -> str:
    """``text`` on one line of at most ``width`` pixels: whole if it fits, else its first
    words (:func:`wrap`'s first line) and "…", so that a cut is visible, never mid-word
    unless one word is wider than the line."""
    text = " ".join(text[:2000].replace("\0", "\ufffd").split())  # no line is that long
    if font.size(text)[0] <= width:
        return text
    return wrap(font, text, width - font.size(" …")[0])[0].rstrip() + " …"


def _layout(fonts: Metrics, blocks: Sequence[Block], width: int, roles: Mapping[str, Role],
            ratio: float, gap: float) -> tuple[list[Placed], int]:
    placed: list[Placed] = []
    y = 0
    for i, block in enumerate(blocks):
        role = roles[block.role]
        px = max(FLOOR_PX, round(role.px * max(ratio, min(role.least, 1.0))))
        font = fonts.get(px, role.style)
        if i:
            y += round(px * gap)
        for line in wrap(font, block.text, width):
            placed.append(Placed(line, block.role, px, role.style, role.colour, 0, y))
            y += font.get_linesize()
    return placed, y


def fit(fonts: Metrics, blocks: Sequence[Block], width: int, height: int,
        roles: Mapping[str, Role], *, gap: float = 0.3, least: float = 0.45,
        most: float = 1.0) -> Fitted:
    """Lay ``blocks`` out in ``width`` x ``height`` pixels at the largest sizes that fit:
    every role's size times one ratio from ``most`` down to ``least`` (never below
    :data:`FLOOR_PX`); ``gap`` is the space between blocks in lines of the next block.
    When even the smallest sizes do not fit, the smallest layout is returned with
    ``fits`` False (its last lines fall outside the height; nothing is replaced by "…")."""
    blocks = [b for b in blocks if b.text]
    lo, hi = least, most
    placed, used = _layout(fonts, blocks, width, roles, hi, gap)
    if used <= height:
        return Fitted(tuple(placed), used, hi, True)
    best: tuple[list[Placed], int, float] | None = None
    for _ in range(7):  # bisect the ratio: about 1 % of the size
        mid = (lo + hi) / 2
        placed, used = _layout(fonts, blocks, width, roles, mid, gap)
        if used <= height:
            best, lo = (placed, used, mid), mid
        else:
            hi = mid
    if best is None:
        placed, used = _layout(fonts, blocks, width, roles, least, gap)
        return Fitted(tuple(placed), used, least, used <= height)
    return Fitted(tuple(best[0]), best[1], best[2], True)
