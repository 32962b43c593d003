"""Glyph outlines and font subsets from TrueType files (fontTools), for an SVG whose text
looks the same in every renderer: each character drawn as its outline from the very font
the PNG uses (no font needed where the SVG is shown), or the subset of a font embedded
as an ``@font-face`` (real text, for editing).

:func:`outline` gives a character's outline as SVG path data in font units (y up) and
the font's units per em; :func:`subset_ttf` the font reduced to some characters.
Both are pure functions of the file and the characters (cached)."""

from __future__ import annotations

import functools
import io
from typing import Any, NamedTuple

__all__ = ["Outline", "outline", "subset_ttf"]


class Outline(NamedTuple):
    """A glyph's outline: ``d`` SVG path data in font units with y up ("" for a glyph
    without ink, such as a space), in a font of ``upm`` units per em."""

    d: str
    upm: int


@functools.lru_cache(maxsize=8)
def _font(path: str) -> Any:
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    return TTFont(path, lazy=True)


@functools.lru_cache(maxsize=8192)
def outline(path: str, char: str) -> Outline | None:
    """The outline of ``char`` in the TrueType file ``path``; None when the font has no
    glyph for it."""
    from fontTools.pens.svgPathPen import SVGPathPen  # type: ignore[import-untyped]

    font = _font(path)
    name = font.getBestCmap().get(ord(char))
    if name is None:
        return None
    glyphs = font.getGlyphSet()
    pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:g}")
    glyphs[name].draw(pen)
    return Outline(d=pen.getCommands(), upm=int(font["head"].unitsPerEm))


@functools.lru_cache(maxsize=32)
def subset_ttf(path: str, chars: str) -> bytes:
    """The TrueType file ``path`` reduced to the glyphs of ``chars`` (and what they need),
    without hinting."""
    from fontTools import subset  # type: ignore[import-untyped]

    options = subset.Options()
    options.hinting = False
    options.desubroutinize = True
    options.name_IDs = ["*"]
    font = subset.load_font(path, options)
    sub = subset.Subsetter(options)
    sub.populate(text=chars)
    sub.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
