"""SVG export for print: the board and pieces from python-chess's ``chess.svg``, the
overlays as SVG patterns (hatches, cross-hatch, dots, plus and minus signs, rings) and
paths (the fence and the search path), the badges as shapes, and the banner, the
explanation and the legend as text laid out by the same fitting as the PNG
(:func:`viewer.textfit.fit`, so lines break at the same words).

The document is one ``<svg>`` of ``size`` pixels' width; the board is a nested
``<svg>`` in ``chess.svg``'s own units (45 per square, a 15-unit coordinate margin),
into which the overlays are inserted: regions before the first piece, marks after the
last.  :func:`board_square_box` maps a square to its pixel box (tests compare the
rasterised SVG with the PNG square by square).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

import chess
import chess.svg
import pygame

from viewer.overlay import EMPTY, Overlay
from viewer.render import BANNER_ICONS, banner_icon_radius, banner_roles, shown_board
from viewer.state import DEFAULT_OPTIONS, ExportOptions
from viewer.textfit import Fonts
from viewer.theme import RGB, Block, LegendItem, Role

if TYPE_CHECKING:
    from viewer.export import Frame
    from viewer.render import Painter

__all__ = ["frame_svg", "board_svg", "board_square_box", "SQ", "MARGIN"]

SVG_NS, XLINK_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)
#: chess.svg's square and coordinate margin, in its units
SQ, MARGIN = chess.svg.SQUARE_SIZE, 15
FULL = 2 * MARGIN + 8 * SQ
FONT = "Noto Sans, DejaVu Sans, Arial, sans-serif"
MONO = "Fira Code, DejaVu Sans Mono, monospace"


def _hex(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def board_square_box(size: int, square: chess.Square, flipped: bool,
                     top: int = 0) -> tuple[float, float, float]:
    """``(x, y, side)`` in pixels of ``square`` on a board of ``size`` pixels drawn at
    ``top`` by :func:`board_svg`."""
    k = size / FULL
    f, r = chess.square_file(square), chess.square_rank(square)
    if flipped:
        f, r = 7 - f, 7 - r
    return (MARGIN + f * SQ) * k, top + (MARGIN + (7 - r) * SQ) * k, SQ * k


def _el(parent: ET.Element, tag: str, **attrs: Any) -> ET.Element:
    return ET.SubElement(parent, f"{{{SVG_NS}}}{tag}",
                         {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})


def _patterns(defs: ET.Element, c: dict[str, RGB]) -> None:
    """The overlay patterns, one per hatch the PNG draws."""
    def pattern(pid: str, w: float, rotate: float = 0) -> ET.Element:
        return _el(defs, "pattern", id=pid, patternUnits="userSpaceOnUse", width=w, height=w,
                   patternTransform=f"rotate({rotate})")

    p = pattern("pf-hatch", 7.5, -45)
    _el(p, "line", x1=0, y1=0, x2=0, y2=7.5, stroke=_hex(c["marked"]), stroke_width=2.2)
    p = pattern("pf-fence", 11, 45)
    _el(p, "rect", width=11, height=11, fill=_hex(c["fence"]), fill_opacity=0.24)
    _el(p, "line", x1=0, y1=0, x2=0, y2=11, stroke=_hex(c["fence"]), stroke_width=1.6)
    p = pattern("pf-dots", 9)
    _el(p, "rect", width=9, height=9, fill=_hex(c["below"]), fill_opacity=0.27)
    _el(p, "circle", cx=4.5, cy=4.5, r=1.3, fill=_hex(c["below"]))
    for role in ("kingmap_holds", "kingmap_breaks"):  # the exact prover's king map
        p = pattern(f"pf-{role}", 7.5)
        _el(p, "rect", width=7.5, height=7.5, fill=_hex(c[role]), fill_opacity=0.22)
        _el(p, "line", x1=0, y1=3.75, x2=7.5, y2=3.75, stroke=_hex(c[role]), stroke_width=1.6)
    for pid, plus in (("pf-joined", True), ("pf-left", False)):
        p = pattern(pid, 15)
        d = "M3.5 7.5 H11.5" + (" M7.5 3.5 V11.5" if plus else "")
        _el(p, "path", d=d, stroke="#000", stroke_width=4)
        _el(p, "path", d=d, stroke=_hex(c["fence"]), stroke_width=2.2)


def _regions(g: ET.Element, ov: Overlay, c: dict[str, RGB], flipped: bool) -> None:
    """What lies under the pieces."""
    def squares(bb: int, **attrs: Any) -> None:
        for s in chess.scan_forward(bb):
            x, y, _ = board_square_box(FULL, s, flipped)
            _el(g, "rect", x=x, y=y, width=SQ, height=SQ, **attrs)

    squares(ov.below & ~ov.fence, fill="url(#pf-dots)")
    squares(ov.processed, fill=_hex(c["processed"]), fill_opacity=0.35)
    squares(ov.marked & ~ov.fence, fill="url(#pf-hatch)")
    squares(ov.fence, fill="url(#pf-fence)")
    for s in chess.scan_forward(ov.fence):  # the border inside the square, as the PNG's
        x, y, _ = board_square_box(FULL, s, flipped)
        _el(g, "rect", x=x + 1.6, y=y + 1.6, width=SQ - 3.2, height=SQ - 3.2, fill="none",
            stroke=_hex(c["fence"]), stroke_width=3.2)
    for s in chess.scan_forward(ov.king_mask):  # inset, as the PNG draws it
        x, y, _ = board_square_box(FULL, s, flipped)
        _el(g, "rect", x=x + SQ / 16, y=y + SQ / 16, width=SQ * 7 / 8, height=SQ * 7 / 8,
            fill="none", stroke=_hex(c["ok"]), stroke_width=1.3, stroke_opacity=0.78)
    squares(ov.kpk_keys, fill="none", stroke=_hex(c["kpk"]), stroke_width=2.5)
    role = "kingmap_holds" if ov.kingmap_holds else "kingmap_breaks"
    squares(ov.kingmap, fill=f"url(#pf-{role})", stroke=_hex(c[role]), stroke_width=1.6)
    for bb, colour, w in ((ov.fence, c["fence"], 5), (ov.path, c["path"], 4.5)):
        _links(g, bb, _hex(colour), w, flipped)


def _centre(s: int, flipped: bool) -> tuple[float, float]:
    x, y, _ = board_square_box(FULL, s, flipped)
    return x + SQ / 2, y + SQ / 2


def _links(g: ET.Element, bb: int, colour: str, width: float, flipped: bool) -> None:
    """A path through the centres of 4-adjacent squares of ``bb`` and a dot on each."""
    d = []
    for s in chess.scan_forward(bb):
        a = _centre(s, flipped)
        _el(g, "circle", cx=a[0], cy=a[1], r=width, fill=colour)
        for n in (s + 1 if s & 7 != 7 else -1, s + 8 if s < 56 else -1):
            if n >= 0 and bb >> n & 1:
                b = _centre(n, flipped)
                d.append(f"M{a[0]:.1f} {a[1]:.1f} L{b[0]:.1f} {b[1]:.1f}")
    if d:
        _el(g, "path", d=" ".join(d), stroke=colour, stroke_width=width, fill="none",
            stroke_linecap="round")


def _badge(g: ET.Element, x: float, y: float, letter: str, ok: bool | None,
           c: dict[str, RGB]) -> None:
    """A badge at the top right of the square at ``(x, y)``: as :meth:`Painter._badge`."""
    d = SQ * 0.4
    cx, cy = x + SQ - d / 2 - 1, y + d / 2 + 1
    ink = "#fff"
    if ok is None:
        _el(g, "rect", x=cx - d / 2, y=cy - d / 2, width=d, height=d, rx=d / 5,
            fill=_hex(c["fixed"]), stroke="#000", stroke_width=1)
    elif ok:
        _el(g, "circle", cx=cx, cy=cy, r=d / 2, fill=_hex(c["ok"]), stroke="#000",
            stroke_width=1)
    else:
        _el(g, "circle", cx=cx, cy=cy, r=d / 2 - 1.2, fill="#fff", stroke=_hex(c["breaks"]),
            stroke_width=2.4)
        ink = _hex(c["breaks"])
    t = _el(g, "text", x=cx, y=cy + d * 0.3, font_size=d * 0.8, font_family=FONT,
            font_weight="bold", text_anchor="middle", fill=ink)
    t.text = letter
    if ok is not None:
        m = d * 0.55
        mx, my = cx - d / 2 - m / 4, cy + d / 2 - m / 2
        if ok:
            _el(g, "circle", cx=mx + m / 2, cy=my + m / 2, r=m / 2, fill="#000")
            _el(g, "path", d=f"M{mx + m * .22:.1f} {my + m * .52:.1f} L{mx + m * .43:.1f} "
                f"{my + m * .74:.1f} L{mx + m * .8:.1f} {my + m * .28:.1f}",
                stroke=_hex(c["ok"]), stroke_width=m / 5, fill="none")
        else:
            _el(g, "rect", x=mx, y=my, width=m, height=m, fill="#000")
            _el(g, "path", d=f"M{mx + m / 4:.1f} {my + m / 4:.1f} l{m / 2:.1f} {m / 2:.1f} "
                f"M{mx + 3 * m / 4:.1f} {my + m / 4:.1f} l{-m / 2:.1f} {m / 2:.1f}",
                stroke="#fff", stroke_width=m / 5)


def _marks(g: ET.Element, ov: Overlay, board: chess.Board, c: dict[str, RGB],
           flipped: bool) -> None:
    """What lies on the pieces: badges, crosses, the difference of a recomputed fence,
    changed squares."""
    for s in chess.scan_forward(ov.fixed & board.pawns):
        _badge(g, *board_square_box(FULL, s, flipped)[:2], "F", None, c)
    for s, (letter, ok) in ov.badges.items():
        _badge(g, *board_square_box(FULL, s, flipped)[:2], letter, ok, c)
    for s in chess.scan_forward(ov.removed):
        x, y, _ = board_square_box(FULL, s, flipped)
        _el(g, "path", d=f"M{x + SQ / 6:.1f} {y + SQ / 6:.1f} l{SQ * 2 / 3:.1f} "
            f"{SQ * 2 / 3:.1f} M{x + SQ * 5 / 6:.1f} {y + SQ / 6:.1f} l{-SQ * 2 / 3:.1f} "
            f"{SQ * 2 / 3:.1f}", stroke=_hex(c["removed"]), stroke_width=4.5)
    for s in chess.scan_forward(ov.joined | ov.left | ov.fresh | ov.changed):
        x, y, _ = board_square_box(FULL, s, flipped)
        if ov.joined >> s & 1:
            _el(g, "rect", x=x, y=y, width=SQ, height=SQ, fill="url(#pf-joined)",
                stroke=_hex(c["fence"]), stroke_width=2.8)
        if ov.left >> s & 1:
            _el(g, "rect", x=x + 1, y=y + 1, width=SQ - 2, height=SQ - 2, fill="url(#pf-left)",
                stroke=_hex(c["fence"]), stroke_width=2.8, stroke_dasharray="5.6 5.6")
        if ov.fresh >> s & 1:
            for r in (SQ / 2 - 2.5, SQ / 3):
                _el(g, "circle", cx=x + SQ / 2, cy=y + SQ / 2, r=r, fill="none",
                    stroke=_hex(c["removed"]), stroke_width=2.5)
        if ov.changed >> s & 1:
            _el(g, "rect", x=x + 2.25, y=y + 2.25, width=SQ - 4.5, height=SQ - 4.5,
                fill="none", stroke=_hex(c["changed"]), stroke_width=4.5)


def _kingmap_letters(g: ET.Element, ov: Overlay, c: dict[str, RGB], flipped: bool) -> None:
    """The king map's letter (H holds, B breaks through) low on the left of each square,
    as the PNG draws it."""
    role = "kingmap_holds" if ov.kingmap_holds else "kingmap_breaks"
    d = SQ * 0.3
    for s in chess.scan_forward(ov.kingmap):
        x, y, _ = board_square_box(FULL, s, flipped)
        bx, by = x + 3, y + SQ - d - 3
        _el(g, "rect", x=bx, y=by, width=d, height=d, rx=d / 5, fill=_hex(c[role]),
            stroke="#000", stroke_width=1)
        t = _el(g, "text", x=bx + d / 2, y=by + d * 0.78, font_size=d * 0.75,
                font_family=FONT, font_weight="bold", text_anchor="middle", fill="#fff")
        t.text = "H" if ov.kingmap_holds else "B"


def _move_arrow(g: ET.Element, ov: Overlay, c: dict[str, RGB], flipped: bool) -> None:
    """A move of the exact prover's line: an arrow with a black edge and its SAN low on
    the square it leaves, as :meth:`Painter.labelled_arrow` draws it."""
    if ov.arrow is None:
        return
    a, b, label = ov.arrow
    (x0, y0), (x1, y1) = _centre(a, flipped), _centre(b, flipped)
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = SQ * 0.35
    bx, by = x1 - ux * head, y1 - uy * head
    px, py = -uy * head * 0.6, ux * head * 0.6
    colour = _hex(c["arrow_line"])
    for stroke, width in (("#000", 9), (colour, 5)):
        _el(g, "path", d=f"M{x0:.1f} {y0:.1f} L{bx:.1f} {by:.1f}", stroke=stroke,
            stroke_width=width, fill="none")
    _el(g, "path", d=f"M{x1:.1f} {y1:.1f} L{bx + px:.1f} {by + py:.1f} "
        f"L{bx - px:.1f} {by - py:.1f} Z", fill=colour, stroke="#000", stroke_width=1.5)
    if label:
        px = SQ / 4
        xs = _advances(label, px, "bold")
        h, w = px + 2, xs[-1] + 10
        lx, ly = x0 - w / 2, y0 + SQ / 2 - 2 - h
        _el(g, "rect", x=lx, y=ly, width=w, height=h, rx=5, fill=colour, stroke="#000",
            stroke_width=2)
        _placed(g, label, lx + 5, ly + h * 0.78, px, xs, "#fff", "bold")


def _ghosts(root: ET.Element, ov: Overlay, c: dict[str, RGB], flipped: bool) -> None:
    """Fade the pawns chess.svg drew (a structure's ghosts) and frame each with dashes."""
    if ov.ghosts is None:
        return
    for use in root.iter(f"{{{SVG_NS}}}use"):
        if use.get("href", "").endswith("-pawn"):
            use.set("opacity", "0.6")
    g = _el(root, "g", id="pawnfence-ghosts")
    for s in chess.scan_forward((ov.ghosts[0] | ov.ghosts[1]) & chess.BB_ALL):
        x, y, _ = board_square_box(FULL, s, flipped)
        _el(g, "rect", x=x + SQ / 16, y=y + SQ / 16, width=SQ * 7 / 8, height=SQ * 7 / 8,
            fill="none", stroke=_hex(c["ghost"]), stroke_width=2, stroke_dasharray="4.5 4.5")


def _with_ghosts(board: chess.Board, ov: Overlay) -> chess.Board:
    """The board to draw: a step's own position, or the board's kings with a
    structure's pawns (its ghosts) instead of the board's."""
    if ov.fen:
        board = shown_board(ov.fen) or board
    if ov.ghosts is None:
        return board
    out = chess.Board(None)
    for s, piece in board.piece_map().items():
        if piece.piece_type != chess.PAWN:
            out.set_piece_at(s, piece)
    for bb, colour in zip(ov.ghosts, chess.COLORS[::-1], strict=True):
        for s in chess.scan_forward(bb & chess.BB_ALL):
            out.set_piece_at(s, chess.Piece(chess.PAWN, colour))
    return out


def board_svg(board: chess.Board, overlay: Overlay, colours: dict[str, RGB],
              flipped: bool = False) -> ET.Element:
    """``chess.svg.board`` (board, pieces, coordinates) with ``overlay`` inserted (a
    step's own position, or a structure's ghost pawns, when the overlay has them)."""
    board = _with_ghosts(board, overlay)
    text = chess.svg.board(board, orientation=not flipped, coordinates=True, colors={
        "square light": _hex(colours["square_light"]),
        "square dark": _hex(colours["square_dark"]),
        "margin": _hex(colours["background"]), "coord": _hex(colours["coord"])})
    root = ET.fromstring(text)
    defs = root.find(f"{{{SVG_NS}}}defs")
    if defs is None:
        defs = _el(root, "defs")
    _patterns(defs, colours)
    children = list(root)
    first = next((i for i, ch in enumerate(children) if ch.tag == f"{{{SVG_NS}}}use"),
                 len(children))
    under = ET.Element(f"{{{SVG_NS}}}g", {"id": "pawnfence-regions"})
    _regions(under, overlay, colours, flipped)
    root.insert(first, under)
    _ghosts(root, overlay, colours, flipped)
    over = _el(root, "g", id="pawnfence-marks")
    _marks(over, overlay, board, colours, flipped)
    _kingmap_letters(over, overlay, colours, flipped)
    _move_arrow(over, overlay, colours, flipped)
    return root


def _text(parent: ET.Element, painter: Painter, blocks: list[Block], roles: dict[str, Role],
          x: float, y: float, width: int) -> int:
    """The blocks wrapped as the PNG wraps them; returns the height used."""
    fitted = painter.fit_text(blocks, width, 100_000, roles)
    for line in fitted.lines:
        if line.text:
            font = painter.fonts.get(line.px, line.style)
            _words(parent, line.text, x + line.x, y + line.y + font.get_ascent(), line.px,
                   painter.colours[line.colour], line.style)
    return fitted.height


_FONTS: list[Fonts] = []  # the PNG's fonts, loaded on first use


def _font(px: int, style: str) -> pygame.font.Font:
    if not _FONTS:
        _FONTS.append(Fonts())
    return _FONTS[0].get(px, style)


def _advances(text: str, px: float, style: str = "regular") -> list[float]:
    """Where each character of ``text`` starts, and (last) where the text ends, in
    pixels from its start, in the font the PNG draws ``style`` with at ``px`` pixels
    (an integer size is measured as is, so hinting matches the PNG; another is scaled
    from 100 pixels)."""
    size = px if float(px).is_integer() else 100
    font = _font(int(size), style)
    k = px / size
    # the pen position before character i as the PNG draws the line: the width of
    # text[:i] runs to its last glyph's ink (an "f" overhangs its advance), so it is
    # measured followed by a sentinel; a first glyph reaching left of its origin (minx
    # < 0) shifts the whole line right by as much
    if not text:
        return [0.0]
    sentinel = font.size("x")[0]
    first = font.metrics(text[0])[0]
    pens = [-min(0, first[0]) if first else 0]
    pens += [font.size(text[:i] + "x")[0] - sentinel for i in range(1, len(text))]
    return [p * k for p in pens] + [font.size(text)[0] * k]


def _placed(parent: ET.Element, text: str, x: float, y: float, px: float,
            xs: list[float], fill: str, style: str = "regular") -> None:
    """``text`` with each character at ``x + xs[i]`` (SVG's list of x positions, which
    every renderer honours, CairoSVG too): whatever font the reader substitutes, the
    characters stand where the PNG draws them and the line ends where the PNG's does."""
    t = _el(parent, "text", x=" ".join(f"{x + d:.1f}" for d in xs[:len(text)]), y=f"{y:.1f}",
            font_size=f"{px:g}", font_family=MONO if style == "mono" else FONT, fill=fill,
            font_weight="bold" if style == "bold" else "normal",
            font_style="italic" if style == "italic" else "normal")
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    t.text = text


def _words(parent: ET.Element, text: str, x: float, y: float, px: int, colour: RGB,
           style: str = "regular") -> None:
    """A line of text in ``style`` placed character by character where the PNG draws it."""
    _placed(parent, text, x, y, px, _advances(text, px, style), _hex(colour), style)


def _legend(parent: ET.Element, painter: Painter, items: tuple[LegendItem, ...], px: int,
            x: float, y: float, width: int) -> int:
    """The legend as the PNG lays it out (:meth:`Painter.legend_plan`): a swatch and the
    words of each item."""
    from viewer.render import swatch_width

    size_px, cols, labels, height, _fits = painter.legend_plan((width, 100_000), items, px,
                                                               False)
    font = painter.fonts.get(size_px)
    line = font.get_linesize()
    col_w, sw = width // cols, size_px + 6
    c = painter.colours
    top = y
    for r0 in range(0, len(items), cols):
        row_h = sw
        for i in range(r0, min(r0 + cols, len(items))):
            cx = x + (i - r0) * col_w
            w = swatch_width(items[i], sw)
            _swatch(parent, items[i], cx, y + 1, w, sw - 2, c)
            for k, words in enumerate(labels[i]):
                _words(parent, words, cx + w + 8, y + k * line + font.get_ascent(), size_px,
                       c["text"])
            row_h = max(row_h, len(labels[i]) * line)
        y += row_h + 4
    return max(height, int(y - top))


def _swatch(g: ET.Element, item: LegendItem, x: float, y: float, w: float, h: float,
            c: dict[str, RGB]) -> None:
    """One legend swatch, drawn as the board draws the item."""
    style, colour = item.style, _hex(c.get(item.colour, c["text"]))
    fills = {"hatch": "url(#pf-hatch)", "fence": "url(#pf-fence)", "dots": "url(#pf-dots)"}
    if style in ("fixed", "holds", "breaks"):
        ok = {"fixed": None, "holds": True, "breaks": False}[style]
        _badge(g, x + h - SQ, y - 2, item.letter, ok, c)
        return
    if style == "kingmap":
        _el(g, "rect", x=x, y=y, width=w, height=h, fill=_hex(c["square_light"]))
        _el(g, "rect", x=x, y=y, width=w, height=h, fill=f"url(#pf-{item.colour})",
            stroke=colour, stroke_width=1.5)
        t = _el(g, "text", x=x + w / 2, y=y + h * 0.8, font_size=h * 0.75, font_family=FONT,
                font_weight="bold", text_anchor="middle", fill="#000")
        t.text = item.letter
        return
    if style == "ghost":
        _el(g, "rect", x=x, y=y, width=w, height=h, fill=_hex(c["square_light"]))
        _el(g, "rect", x=x + 1.5, y=y + 1.5, width=w - 3, height=h - 3, fill="none",
            stroke=colour, stroke_width=2, stroke_dasharray="3 3")
        return
    if style == "dfs":  # a square done (left half) and the path across, as on the board
        _el(g, "rect", x=x, y=y, width=w, height=h, fill=_hex(c["square_light"]))
        _el(g, "rect", x=x, y=y, width=w / 2, height=h, fill=_hex(c["processed"]),
            fill_opacity=0.35)
        _el(g, "path", d=f"M{x + 3:.1f} {y + h / 2:.1f} h{w - 6:.1f}", stroke=colour,
            stroke_width=4.5)
        return
    if style == "move":
        for stroke, width in (("#000", 6), (colour, 3)):
            _el(g, "path", d=f"M{x:.1f} {y + h / 2:.1f} h{w - h / 2:.1f}", stroke=stroke,
                stroke_width=width)
        _el(g, "path", d=f"M{x + w:.1f} {y + h / 2:.1f} l{-h / 2:.1f} {-h / 2 + 1:.1f} "
            f"v{h - 2:.1f} Z", fill=colour, stroke="#000", stroke_width=1)
        return
    if style == "letters":  # as large as fits the swatch, as the PNG draws it
        px = max(8, int(h * 3 // 4))
        while _advances(item.letter, px, "bold")[-1] > w and px > 8:
            px -= 1
        _placed(g, item.letter, x, y + h * 0.8, px, _advances(item.letter, px, "bold"),
                colour, "bold")
        return
    if style in ("recompute", "arrows"):
        parts = (("url(#pf-joined)", "url(#pf-left)", "none") if style == "recompute" else
                 ("arrow_with", "arrow_without", "arrow_engine"))
        for k, part in enumerate(parts):
            bx = x + k * (h + 2)
            if style == "recompute":
                _el(g, "rect", x=bx, y=y, width=h, height=h, fill=_hex(c["square_light"]))
                _el(g, "rect", x=bx, y=y, width=h, height=h, fill=part,
                    stroke=_hex(c["fence"] if k < 2 else c["removed"]), stroke_width=1.5)
            else:
                _el(g, "path", d=f"M{bx:.1f} {y + h / 2:.1f} h{h:.1f}", stroke=_hex(c[part]),
                    stroke_width=3, stroke_dasharray="3 2" if k == 1 else "none")
        return
    _el(g, "rect", x=x, y=y, width=w, height=h, fill=_hex(c["square_light"]))
    if style in fills:
        _el(g, "rect", x=x, y=y, width=w, height=h, fill=fills[style])
    elif style in ("outline", "edge", "thin", "key"):
        inset = 2 if style == "thin" else 1.5
        _el(g, "rect", x=x + inset, y=y + inset, width=w - 2 * inset, height=h - 2 * inset,
            fill="none", stroke=colour, stroke_width=2 if style == "thin" else 3)
    elif style == "cross":
        _el(g, "path", d=f"M{x:.1f} {y:.1f} l{w:.1f} {h:.1f} M{x + w:.1f} {y:.1f} "
            f"l{-w:.1f} {h:.1f}", stroke=colour, stroke_width=3)


def _banner(root: ET.Element, painter: Painter, frame: Frame, options: ExportOptions,
            x: float, y: float, width: int) -> int:
    """The verdict banner as :meth:`Painter.render_banner` draws it in a picture (bar,
    coloured stripe, icon, text at the same place and size); returns its height."""
    from viewer.export import banner_height, frame_px

    px = frame_px(options.size)
    b = frame.banner()
    h = banner_height(painter, b, options)
    r = banner_icon_radius(h, px)
    c = painter.colours
    colour = _hex(c[{"blocked": "banner_blocked", "open": "banner_open"}.get(b.kind,
                                                                          "banner_na")])
    g = _el(root, "g", id="banner")
    _el(g, "rect", x=x, y=y, width=width, height=h, rx=6, fill=_hex(c["panel"]))
    _el(g, "path", d=f"M{x + 6} {y} h4 v{h} h-4 a6 6 0 0 1 -6 -6 v{-(h - 12)} "
        f"a6 6 0 0 1 6 -6 Z", fill=colour)
    cx, cy = x + 18 + r, y + 6 + r
    _el(g, "circle", cx=cx, cy=cy, r=r, fill=colour)
    icon, ipx = BANNER_ICONS.get(b.kind, "?"), max(14, r * 5 // 4)
    font = _font(ipx, "bold")
    t = _el(g, "text", x=f"{cx:.1f}", y=f"{cy - font.get_height() / 2 + font.get_ascent():.1f}",
            font_size=ipx, font_family=FONT, font_weight="bold", text_anchor="middle",
            fill="#000")  # one glyph, centred whatever the reader's font
    t.text = icon
    _text(g, painter, list(b.blocks), banner_roles(px), x + 30 + 2 * r, y + 4,
          width - 38 - 2 * r)
    return h


def frame_svg(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS) -> str:
    """The frame as an SVG document: what :func:`viewer.export.compose_frame` draws."""
    from viewer.export import frame_px

    size, px = options.size, frame_px(options.size)
    pad = max(4, size // 80)
    width = size - 2 * pad
    c = painter.colours
    root = ET.Element(f"{{{SVG_NS}}}svg", {"version": "1.1", "width": str(size)})
    bg = _el(root, "rect", x=0, y=0, width=size, fill=_hex(c["background"]))
    _patterns(_el(root, "defs"), c)
    y = pad
    if options.banner:
        y += _banner(root, painter, frame, options, pad, y, width) + pad
    ov = frame.overlay() if options.overlays else EMPTY
    nested = board_svg(frame.board, ov, c,
                       frame.flipped)
    nested.set("x", "0")
    nested.set("y", str(y))
    nested.set("width", str(size))
    nested.set("height", str(size))
    root.append(nested)
    y += size + pad
    if options.explanation:
        y += _text(root, painter, [Block(frame.explanation(), "sub")], {"sub": Role(px)}, pad,
                   y, width)
        y += 2 * pad  # as compose_frame: the text's height and a pad, then a pad
    items = frame.legend(ov) if options.legend else ()
    if items:
        y += _legend(root, painter, items, px, pad, y, width) + 2 * pad
    root.set("height", str(y))
    root.set("viewBox", f"0 0 {size} {y}")
    bg.set("height", str(y))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
