"""The SVG back end's document and text: what one document's parts share (:class:`Doc`:
its ``<defs>``, the text mode, the font metrics the figure was laid out with) and text
drawn where the PNG draws it (:func:`run`).

Text is drawn in the PNG's own fonts, character by character where the PNG draws it:
each character's pen position comes from the figure's font metrics
(:class:`viewer.figures.textfit.Metrics`: the same numbers the layout used), so lines
break at the same words and every character stands on the same pixel.  ``paths`` draws
each character as its glyph's outline (:mod:`viewer.figures.glyphs`; one ``<path>`` per
glyph in ``<defs>``, placed by ``<use>``) under an invisible copy of the text that keeps
it searchable and selectable; ``fonts`` writes real ``<text>`` with the subsets of the
fonts it uses embedded as ``@font-face`` (base64 TrueType: for editing; renderers without
web fonts, such as CairoSVG and librsvg, substitute a font).  No pygame here.
"""

from __future__ import annotations

import base64
import itertools
import os
import xml.etree.ElementTree as ET
from typing import Any, NamedTuple

from viewer.figures.glyphs import outline, subset_ttf
from viewer.figures.textfit import Face, Metrics
from viewer.model.theme import RGB

__all__ = ["SVG_NS", "XLINK_NS", "el", "hexc", "Doc", "SvgFace", "run", "run_centred", "pens",
           "FONT", "MONO", "PLAIN"]

SVG_NS, XLINK_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)
FONT = "Noto Sans, DejaVu Sans, Arial, sans-serif"
MONO = "Fira Code, DejaVu Sans Mono, monospace"
#: the font of the coordinates, tags and badge letters (pygame's default, FreeSans Bold)
PLAIN = "FreeSans, DejaVu Sans, Arial, sans-serif"


def hexc(c: RGB) -> str:
    """An RGB colour as ``#rrggbb``."""
    return "#{:02x}{:02x}{:02x}".format(*c)


def el(parent: ET.Element, tag: str, **attrs: Any) -> ET.Element:
    """A child ``tag`` of ``parent`` with ``attrs`` (``stroke_width`` → ``stroke-width``,
    a trailing ``_`` dropped), each written as ``str`` writes it."""
    return ET.SubElement(parent, f"{{{SVG_NS}}}{tag}",
                         {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})


class SvgFace(NamedTuple):
    """A font as the PNG draws it: its metrics at the size (``font``), its TrueType file
    (None: not known, the text stays text), its pixels per em and its CSS family, weight
    and style."""

    font: Face
    path: str | None
    em: int
    family: str
    weight: str
    slant: str


class Doc:
    """What one document's parts share: its ``<defs>`` (each glyph's outline once), the
    text mode (``paths`` or ``fonts``), the font ``metrics`` its figure was laid out with,
    the characters each font file draws (for the embedded subsets) and the numbering of
    clip paths."""

    def __init__(self, defs: ET.Element, metrics: Metrics, text: str = "paths") -> None:
        self.defs, self.metrics, self.text = defs, metrics, text
        self._glyphs: dict[tuple[str, str], tuple[str, int] | None] = {}
        self._faces: dict[tuple[int, str], SvgFace] = {}
        self.chars: dict[str, set[str]] = {}
        self.ids = itertools.count()

    def face(self, px: int, style: str) -> SvgFace:
        """The face the PNG draws ``style`` (regular, bold, italic, mono; ``plain``: the
        coordinates', tags' and badges') with at ``px`` pixels."""
        key = (px, style)
        face = self._faces.get(key)
        if face is None:
            file = self.metrics.file(style)
            family = PLAIN if style == "plain" else MONO if style == "mono" else FONT
            face = self._faces[key] = SvgFace(
                self.metrics.get(px, style), file.path if file else None,
                max(1, int(px * file.em)) if file else px, family,
                "bold" if style in ("bold", "plain") else "normal",
                "italic" if style == "italic" else "normal")
        return face

    def glyph(self, path: str, char: str) -> tuple[str, int] | None:
        """The id of ``char``'s outline from font file ``path`` in ``<defs>`` (added on
        first use) and the font's units per em; None without a glyph or ink."""
        key = (path, char)
        if key not in self._glyphs:
            got = outline(path, char)
            if got is None or not got.d:
                self._glyphs[key] = None
            else:
                # named by font and character: the same id is the same glyph in any
                # document (SVGs inlined side by side in one page share ids)
                gid = f"pf-glyph-{_stem(path)}-{ord(char):x}"
                el(self.defs, "path", id=gid, d=got.d)
                self._glyphs[key] = (gid, got.upm)
        return self._glyphs[key]

    def finish(self) -> None:
        """In ``fonts`` mode: the ``@font-face`` rules of the fonts used, each the subset
        of the characters drawn, base64 TrueType in a ``<style>``."""
        if self.text != "fonts" or not self.chars:
            return
        rules = []
        for path, chars in sorted(self.chars.items()):
            data = base64.b64encode(subset_ttf(path, "".join(sorted(chars)))).decode()
            rules.append(f"@font-face {{ font-family: '{_family(path)}'; "
                         f"src: url(data:font/ttf;base64,{data}) format('truetype'); }}")
        el(self.defs, "style", type="text/css").text = "\n".join(rules)


def _stem(path: str) -> str:
    """A font file's name without its folder and suffix ("NotoSans-Bold")."""
    return os.path.splitext(os.path.basename(path))[0]


def _family(path: str) -> str:
    """The family name an embedded font is declared under (one per file)."""
    return "pawnfence-" + _stem(path)


def pens(font: Face, text: str) -> list[float]:
    """Where each character of ``text`` starts, and (last) where the text ends, in
    pixels from its start, as ``font`` draws the line."""
    # the pen position before character i as the PNG draws the line: the width of
    # text[:i] runs to its last glyph's ink (an "f" overhangs its advance), so it is
    # measured followed by a sentinel; a first glyph reaching left of its origin (minx
    # < 0) shifts the whole line right by as much
    if not text:
        return [0.0]
    sentinel = font.size("x")[0]
    first = font.metrics(text[0])[0]
    out = [-min(0, first[0]) if first else 0]
    out += [font.size(text[:i] + "x")[0] - sentinel for i in range(1, len(text))]
    return [float(p) for p in out] + [float(font.size(text)[0])]


def run(doc: Doc, parent: ET.Element, text: str, face: SvgFace, left: float, top: float,
        fill: str) -> None:
    """``text`` in ``face`` with its line box's top left at ``(left, top)`` (where the PNG
    blits it), each character at its pen position: as glyph outlines under an invisible
    copy of the text (``paths``), or as text in the embedded font (``fonts``)."""
    baseline = top + face.font.get_ascent()
    xs = pens(face.font, text)
    if doc.text == "paths" and face.path is not None:
        g = el(parent, "g", fill=fill)
        for ch, dx in zip(text, xs, strict=False):
            got = doc.glyph(face.path, ch)
            if got is not None:
                k = face.em / got[1]
                el(g, "use", **{f"{{{XLINK_NS}}}href": f"#{got[0]}"},
                   transform=f"translate({left + dx:.2f} {baseline:.2f}) "
                             f"scale({k:.6g} {-k:.6g})")
        _text_element(parent, text, face, left, baseline, xs, fill, face.family, "0")
        return
    family = face.family
    if doc.text == "fonts" and face.path is not None:
        doc.chars.setdefault(face.path, set()).update(text)
        family = f"{_family(face.path)}, {family}"
    _text_element(parent, text, face, left, baseline, xs, fill, family, "1")


def _text_element(parent: ET.Element, text: str, face: SvgFace, left: float, baseline: float,
                  xs: list[float], fill: str, family: str, opacity: str) -> None:
    """A ``<text>`` with each character at ``left + xs[i]`` (SVG's list of x positions,
    which most renderers honour)."""
    t = el(parent, "text", x=" ".join(f"{left + d:.1f}" for d in xs[:len(text)]),
           y=f"{baseline:.1f}", font_size=face.em, font_family=family, fill=fill,
           font_weight=face.weight, font_style=face.slant)
    if opacity != "1":
        t.set("fill-opacity", opacity)
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    t.text = text


def run_centred(doc: Doc, parent: ET.Element, text: str, face: SvgFace, cx: float, cy: float,
                fill: str) -> None:
    """``text`` centred on ``(cx, cy)`` as a pygame ``Rect``'s centre places it."""
    w, h = face.font.size(text)
    run(doc, parent, text, face, cx - w // 2, cy - h // 2, fill)
