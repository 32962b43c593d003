"""One figure, every back end: the figure is laid out once and each format of
:data:`viewer.figures.export.FORMATS` only translates it; the squares' textures are one
geometry that the PNG, the SVG and TikZ draw alike (the SVG's frames stand on the PNG's
pixels); the SVG and TikZ back ends need no pygame; a new format is one row; a TikZ
figure compiles and looks like the PNG."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import chess  # noqa: E402
import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

import logic  # noqa: E402
from viewer.cli import main  # noqa: E402
from viewer.figures import export  # noqa: E402
from viewer.figures.export import FORMATS, KINDS, ExportError, Format, compose_frame  # noqa: E402
from viewer.figures.figure import PARTS, BoardPart, layout  # noqa: E402
from viewer.figures.frame import Frame  # noqa: E402
from viewer.figures.legend import LEGEND_PRIMITIVES  # noqa: E402
from viewer.figures.render import Painter, render_legend_types, render_scene_types  # noqa: E402
from viewer.figures.scene import PRIMITIVES  # noqa: E402
from viewer.figures.svgboard import draw_texture, shape_kinds  # noqa: E402
from viewer.figures.svgtext import SVG_NS, Doc, el  # noqa: E402
from viewer.figures.textures import SHAPES, TEXTURES, Band, texture  # noqa: E402
from viewer.figures.tikz import PT, tikz_kinds  # noqa: E402
from viewer.figures.tiles import shape_types  # noqa: E402
from viewer.model.state import ExportOptions  # noqa: E402

D16 = "5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - - 0 1"


def test_every_back_end_translates_every_primitive_and_shape() -> None:
    board, legend, shapes = tikz_kinds()
    assert render_scene_types() == board == frozenset(PRIMITIVES)
    assert render_legend_types() == legend == frozenset(LEGEND_PRIMITIVES)
    assert shape_types() == shape_kinds() == shapes == frozenset(SHAPES)


@pytest.mark.parametrize("side", [8, 9, 25, 49, 77, 80, 101, 150, 299])
def test_textures_are_whole_pixels_of_their_square(side: int) -> None:
    """Every coordinate and width of every texture is an exact number of pixels of a square
    of ``side`` pixels (a raster back end rounds nothing), and everything but the hatches'
    lines (cut to the square) lies in it."""
    for kind in TEXTURES:
        for shape in texture(kind, side):
            for v in shape:
                for u in (v if isinstance(v, tuple) else (v,)):
                    for w in (u if isinstance(u, tuple) else (u,)):
                        if isinstance(w, Fraction):
                            assert (w * side).denominator == 1, (kind, side, shape)
            if isinstance(shape, Band):
                assert shape.x >= 0 and shape.x + shape.w <= 1, (kind, side, shape)


def _tile_png(painter: Painter, kind: str, side: int) -> np.ndarray:
    """The PNG's tile of ``kind``: its alpha per pixel."""
    return pygame.surfarray.array_alpha(painter.tiles.texture(kind, side)).T.astype(int)


def _tile_svg(painter: Painter, kind: str, side: int) -> np.ndarray:
    """The SVG's texture of ``kind`` rasterised by CairoSVG: its alpha per pixel."""
    cairosvg = pytest.importorskip("cairosvg")
    from PIL import Image

    root = ET.Element(f"{{{SVG_NS}}}svg", {"width": str(side), "height": str(side)})
    draw_texture(root, painter.colours, Doc(el(root, "defs"), painter.fonts),
                 texture(kind, side), 0, 0, side)
    png = cairosvg.svg2png(bytestring=ET.tostring(root))
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))[:, :, 3].astype(int)


def _ink(alpha: np.ndarray) -> tuple[int, int, int, int]:
    """The box of the pixels painted more than half."""
    ys, xs = np.nonzero(alpha > 127)
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


@pytest.mark.parametrize("side", [20, 33, 50, 77, 90, 101])
def test_the_svgs_frames_stand_on_the_pngs_pixels(side: int) -> None:
    """The frames inset in a square (where the defending king must stand, a KPK key
    square, a changed square), rasterised from the SVG, cover the same box of pixels as
    the PNG's tile (the king's frame of the SVG was a pixel out on each side wherever an
    eighth of the square is odd), and every texture's SVG puts as much ink on the square
    as the PNG's: within 15 %, or 45 % for the diagonal hatches (pygame draws a line
    ``w`` pixels thick along an axis, so a diagonal one is ``w / sqrt 2`` across; the SVG's
    stroke is ``w`` across)."""
    painter = Painter()
    for kind in ("kingmask", "key", "changed", "fence", "joined"):
        assert _ink(_tile_svg(painter, kind, side)) == _ink(_tile_png(painter, kind, side)), \
            (kind, side)
    for kind in TEXTURES:
        if kind == "ghost":  # the piece's own drawing by two rasterisers: see test_scene
            continue
        png, svg = _tile_png(painter, kind, side).sum(), _tile_svg(painter, kind, side).sum()
        most = 1.45 if kind in ("hatch", "fence") else 1.15
        assert 0.85 < svg / png < most, (kind, side, svg / png)


def test_the_svg_and_tikz_back_ends_import_no_pygame() -> None:
    """Translating a figure to SVG or TikZ needs no pygame (its metrics come through
    :class:`viewer.figures.textfit.Metrics`)."""
    code = ("import sys; import viewer.figures.svg, viewer.figures.tikz, viewer.figures.figure; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_the_figure_is_laid_out_once_for_every_back_end() -> None:
    """The PNG is as tall as the figure and the SVG's height is the figure's; the board
    part's scene is what the PNG draws."""
    painter = Painter()
    board = chess.Board(D16)
    frame = Frame(board, logic.detect(board, chess.WHITE, trace=True),
                  logic.detect(board, chess.BLACK))
    for options in (ExportOptions(480), ExportOptions(333, True, False, True, False)):
        fig = layout(frame, options, painter.fonts)
        assert {type(p) for p in fig.parts} <= set(PARTS)
        png = compose_frame(painter, frame, options)
        assert png.get_size() == (fig.width, fig.height)
        svg = export.frame_svg(painter, frame, options)
        assert f'height="{fig.height}"' in svg and f'width="{fig.width}"' in svg
        (part,) = [p for p in fig.parts if isinstance(p, BoardPart)]
        assert len(part.scene) > 64


@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_every_format_of_the_table_renders(tmp_path, kind: str) -> None:
    out = tmp_path / f"d16{FORMATS[kind].suffix}"
    assert main(["render", D16, "--size", "240", "--out", str(out)], out=io.StringIO()) == 0
    assert out.stat().st_size > 500


def test_an_unknown_suffix_names_every_format(tmp_path) -> None:
    err = io.StringIO()
    sys_err, sys.stderr = sys.stderr, err
    try:
        assert main(["render", D16, "--out", str(tmp_path / "d16.bmp")]) != 0
    finally:
        sys.stderr = sys_err
    said = err.getvalue()
    assert all(f.suffix in said for f in FORMATS.values()), said
    assert set(KINDS) == {"png", "gif", "svg"} and not (tmp_path / "d16.bmp").exists()


def test_a_new_format_is_one_row(tmp_path, monkeypatch) -> None:
    """A format is its row: a writer of the laid-out figure (here the parts' boxes as
    text) under a suffix, and ``render`` writes it."""

    def boxes(order: export.Order, path: Path) -> int:
        fig = layout(order.frame, order.options, order.painter.fonts)
        path.write_text("\n".join(f"{type(p).__name__} {p.x} {p.y}" for p in fig.parts))
        return 1

    monkeypatch.setitem(FORMATS, "boxes", Format(".boxes", "the parts' boxes", boxes))
    out = tmp_path / "d16.boxes"
    assert main(["render", D16, "--no-legend", "--out", str(out)], out=io.StringIO()) == 0
    assert out.read_text().split("\n")[1].startswith("BoardPart 0 ")
    with pytest.raises(ExportError):
        export.format_of(tmp_path / "x.nothing")


def test_a_board_only_gif_is_one_frame(tmp_path) -> None:
    """Every frame of a board-only trace is the same picture: the GIF holds it once (the
    writer's check expected a frame per step and refused the file as incomplete)."""
    from PIL import Image

    out = tmp_path / "b.gif"
    assert main(["render", "--diagram", "paper-12", "--board-only", "--size", "240", "--out",
                 str(out)], out=io.StringIO()) == 0
    with Image.open(out) as im:
        assert im.n_frames == 1


def _pdf_pixels(pdf: Path, width: int) -> np.ndarray:
    """The first page of ``pdf`` rasterised ``width`` pixels wide (poppler's pdftoppm)."""
    from PIL import Image

    subprocess.run(["pdftoppm", "-png", "-singlefile", "-scale-to-x", str(width), "-scale-to-y",
                    "-1", str(pdf), str(pdf.with_suffix(""))], check=True, timeout=120)
    return np.asarray(Image.open(pdf.with_suffix(".png")).convert("RGB")).astype(int)


def test_a_tikz_figure_compiles_and_looks_like_the_png(tmp_path) -> None:
    """``render --out FIG.tikz``: one ``tikzpicture`` whose page is the figure (0.75 bp a
    pixel); compiled by pdflatex and rasterised, the board is the PNG's board (the same
    squares, textures and pieces: a mean difference of 1.2 measured) and the whole page
    is close to the PNG (its text is LaTeX's font: 7 to 14 measured on five figures)."""
    out = tmp_path / "d16.tikz"
    assert main(["render", D16, "--size", "400", "--out", str(out)], out=io.StringIO()) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("\\begin{tikzpicture}") == 1 and "\\definecolor{pfd55e00}" in text
    if shutil.which("pdflatex") is None or shutil.which("pdftoppm") is None:
        pytest.skip("no pdflatex or pdftoppm (Debian: texlive-latex-extra texlive-pictures "
                    "poppler-utils)")
    probe = subprocess.run(["kpsewhich", "standalone.cls", "tikz.sty"], capture_output=True,
                           text=True)
    if len(probe.stdout.split()) < 2:
        pytest.skip("pdflatex without standalone or TikZ (Debian: texlive-latex-extra, "
                    "texlive-pictures)")
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", out.name],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:]
    painter = export.themed(Painter(), "light")  # a figure's colours
    board = chess.Board(D16)
    frame = Frame(board, logic.detect(board, chess.WHITE, trace=True),
                  logic.detect(board, chess.BLACK), kpk=None)
    png = compose_frame(painter, frame, ExportOptions(400))
    ours = pygame.surfarray.array3d(png).transpose(1, 0, 2).astype(int)
    tikz = _pdf_pixels(tmp_path / "d16.pdf", png.get_width())
    assert abs(tikz.shape[0] - ours.shape[0]) <= 2, (tikz.shape, ours.shape)
    h = min(tikz.shape[0], ours.shape[0])
    fig = layout(frame, ExportOptions(400), painter.fonts)
    (part,) = [p for p in fig.parts if isinstance(p, BoardPart)]
    squares = (slice(part.top, part.top + 8 * part.sq), slice(part.left, part.left + 8 * part.sq))
    assert float(np.abs(tikz[squares] - ours[squares]).mean()) < 8
    assert float(np.abs(tikz[:h] - ours[:h]).mean()) < 18
    assert PT == 0.75
