"""Figures a journal can print: the same command writes the same file (no run-dependent
numbers unless ``--stats``), the light theme reads in greyscale, the SVG is
self-contained and looks the same in every renderer, Black's side is worded as drawn."""

from __future__ import annotations

import os
import re
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402

from viewer.cli import main  # noqa: E402

#: a position the exact prover decides in a fraction of a second (its verdict does not
#: depend on the machine's speed)
QUICK_EXACT = ["--diagram", "paper-5", "--method", "exact", "--exact-seconds", "120"]


def _render(tmp_path: Path, name: str, *args: str) -> bytes:
    out = tmp_path / name
    assert main(["render", *args, "--out", str(out)]) == 0
    return out.read_bytes()


@pytest.mark.parametrize("args", [["--diagram", "paper-16", "--size", "320"],
                                  [*QUICK_EXACT, "--size", "320"],
                                  [*QUICK_EXACT, "--size", "320", "--side", "black"]])
def test_the_same_render_command_writes_the_same_bytes(tmp_path, args) -> None:
    """PNG, SVG and GIF twice from the same command: the same bytes."""
    for kind in ("png", "svg", "gif"):
        first = _render(tmp_path, f"a.{kind}", *args)
        assert _render(tmp_path, f"b.{kind}", *args) == first, kind


def test_a_figure_gives_the_provers_run_only_when_asked(tmp_path) -> None:
    """The exact prover's counts and seconds change from run to run: a figure leaves them
    out, ``--stats`` puts them in."""
    plain = _render(tmp_path, "a.svg", *QUICK_EXACT).decode()
    stats = _render(tmp_path, "b.svg", *QUICK_EXACT, "--stats").decode()
    assert "proved (exact)" in plain and " s)" not in plain and "structure, " not in plain
    # the second render may find the structure in the cache the first one filled
    assert re.search(r"\b1 (cached )?structure, ", stats) and " s)" in stats


def test_the_window_switches_to_light_and_remembers_it(home) -> None:
    """Ctrl+T switches the window's colours (board view, panes, widgets) between dark,
    the default, and light; the choice is saved in the settings and comes back."""
    import pygame

    from tests.test_viewer import frames, key
    from viewer.model.settings import Settings, load_settings
    from viewer.model.theme import COLOURS, LIGHT
    from viewer.window.app import App

    a = App(Settings(), size=(1280, 860), export_dir=home.parent / "exports")
    frames(a, [])
    assert a.state.options.theme == "dark" and a.painter.colours["background"] == \
        COLOURS["background"]
    dark = a.screen.get_at((2, a.screen.get_height() - 2))[:3]
    frames(a, [key(pygame.K_t, pygame.KMOD_CTRL, "\x14")], [])
    assert a.state.options.theme == "light"
    assert a.painter.colours == {**COLOURS, **LIGHT}
    corner = a.screen.get_at((2, a.screen.get_height() - 2))[:3]
    assert corner == LIGHT["background"] != dark
    # a widget in the light theme: dark text on a light button
    gui = a.manager.get_theme().get_colour("normal_bg", ["button"])
    assert sum(gui[:3]) > 3 * 180
    assert a.close() is None
    assert load_settings().theme == "light"
    b = App(load_settings(), size=(1280, 860), export_dir=home.parent / "exports")
    frames(b, [])
    assert b.painter.colours["text"] == LIGHT["text"]
    b.close()
    pygame.display.quit()


# -- the SVG looks the same everywhere ---------------------------------------------------
#: the largest mean absolute difference (0-255 per channel) between the PNG and the
#: rasterised SVG of a whole figure (banner, board, explanation, legend).  Measured on
#: Diagram wiki-1 at 640 px: CairoSVG 3.47, rsvg-convert 3.48, Chromium 3.66 (the pieces'
#: and glyphs' antialiasing); an SVG whose text a renderer sets in a substitute font (the
#: ``fonts`` mode in rsvg-convert) is 11.0 away
SVG_TOLERANCE = 6.0


def _cairosvg(svg: Path, out: Path) -> None:
    try:
        import cairosvg
    except (ImportError, OSError) as exc:
        pytest.skip(f"CairoSVG cannot be imported ({exc}): pip install '.[test]'")
    cairosvg.svg2png(url=str(svg), write_to=str(out))


def _rsvg(svg: Path, out: Path, fonts: Path) -> None:
    """rsvg-convert with no font at all (an empty fontconfig configuration)."""
    import shutil
    import subprocess

    exe = shutil.which("rsvg-convert")
    if exe is None:
        pytest.skip("rsvg-convert is not installed (Debian: apt-get install librsvg2-bin)")
    conf = fonts / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<fontconfig></fontconfig>\n')
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    subprocess.run([exe, str(svg), "-o", str(out)], check=True, env=env, timeout=120)


def _chromium(svg: Path, out: Path, size: tuple[int, int]) -> None:
    import shutil

    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        pytest.skip(f"playwright cannot be imported ({exc})")
    if exe is None:
        pytest.skip("no chromium executable on the PATH")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto(svg.as_uri())
        page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": size[0],
                                             "height": size[1]})
        browser.close()


def _ink_right(a, rows: slice, background) -> int:
    """The rightmost column of ``a`` in ``rows`` that is not ``background``."""
    import numpy as np

    cols = np.where((np.abs(a[rows] - background).max(axis=2) > 60).any(axis=0))[0]
    return int(cols.max())


@pytest.mark.parametrize("renderer", ["cairosvg", "rsvg", "chromium"])
def test_the_svg_looks_like_the_png_in_every_renderer(tmp_path, renderer) -> None:
    """The light figure's SVG (text as glyph outlines, textures as plain shapes),
    rasterised by CairoSVG, rsvg-convert without any font installed, and headless
    Chromium: the size of the PNG, within :data:`SVG_TOLERANCE` of it, and the headline's
    right end where the PNG's is (a substituted, wider font ran past the right edge)."""
    import numpy as np
    from PIL import Image

    args = ["--diagram", "wiki-1", "--size", "640"]
    _render(tmp_path, "f.png", *args)
    _render(tmp_path, "f.svg", *args)
    png = np.asarray(Image.open(tmp_path / "f.png").convert("RGB"), int)
    out = tmp_path / f"{renderer}.png"
    if renderer == "cairosvg":
        _cairosvg(tmp_path / "f.svg", out)
    elif renderer == "rsvg":
        _rsvg(tmp_path / "f.svg", out, tmp_path)
    else:
        _chromium(tmp_path / "f.svg", out, (png.shape[1], png.shape[0]))
    raster = np.asarray(Image.open(out).convert("RGB"), int)
    assert raster.shape == png.shape
    diff = float(np.abs(png - raster).mean())
    assert diff < SVG_TOLERANCE, diff
    panel = np.array((240, 240, 238))  # the light banner's panel
    head = slice(12, 36)  # the headline's rows at 640 px
    ours, theirs = _ink_right(png, head, panel), _ink_right(raster, head, panel)
    assert abs(ours - theirs) <= 3 and theirs < png.shape[1] - 20, (ours, theirs)


def test_the_svg_needs_no_font_and_keeps_its_text(tmp_path) -> None:
    """The SVG is self-contained: no external reference, every glyph an outline in its
    ``<defs>``, the words still there as (invisible) text; ``--svg-text fonts`` embeds
    the subsets of the fonts instead, as base64 TrueType."""
    paths = _render(tmp_path, "p.svg", "--diagram", "paper-16", "--size", "320").decode()
    assert "http://" not in paths.replace("http://www.w3.org/", "")
    assert paths.count("<path id=\"pf-glyph-") > 30 and "<use " in paths
    assert "fence (2.3) / ram fence (wiki)" in paths and "<pattern" not in paths
    fonts = _render(tmp_path, "f.svg", "--diagram", "paper-16", "--size", "320",
                    "--svg-text", "fonts").decode()
    assert "@font-face" in fonts and "data:font/ttf;base64," in fonts
    assert "pf-glyph-" not in fonts and "fence (2.3) / ram fence (wiki)" in fonts


# -- Black's side: the words as drawn ----------------------------------------------------
def test_blacks_words_are_read_as_drawn_or_the_figure_turns() -> None:
    """The methods speak from the attacking side ("Black's king on f8 is below the
    fence"): drawn with White at the bottom, the figure says how to read that; drawn
    from the attacker's side (``--orientation side``, or White's analysis upright) it
    needs no note; the logic's sentence itself is the same in every view."""
    import chess

    import logic
    from logic.diagrams import get_diagram
    from viewer.figures.frame import Frame

    board = get_diagram("paper-16").board()
    black = logic.detect(board, chess.BLACK, method="paper", trace=True)
    k = next(i for i, s in enumerate(black.steps) if "f8 is below the fence" in s.text)
    upright, turned = Frame(board, black, None, k), Frame(board, black, None, k, flipped=True)
    assert "upper part of this board" in upright.explanation()
    assert "upper part" not in turned.explanation()
    assert black.steps[k].text in upright.explanation() and \
        black.steps[k].text in turned.explanation()
    white = logic.detect(board, chess.WHITE, method="paper", trace=True)
    assert all("upper part" not in Frame(board, white, None, i).explanation()
               for i in range(len(white.steps)))
    assert Frame(board, black, None, 0).view_note("no such words") == ""


def test_render_orientation_side_draws_the_side_under_test_at_the_bottom(tmp_path) -> None:
    from viewer.cli import build_parser
    from viewer.cli import render_flipped as flipped

    parse = build_parser().parse_args
    base = ["render", "--out", "x.png", "--diagram", "paper-16"]
    assert flipped(parse([*base, "--side", "black", "--orientation", "side"]))
    assert not flipped(parse([*base, "--side", "white", "--orientation", "side"]))
    assert flipped(parse([*base, "--orientation", "black"])) and flipped(parse([*base, "--flip"]))
    assert not flipped(parse(base))
    a = _render(tmp_path, "a.svg", *base[3:], "--side", "black", "--orientation", "side")
    b = _render(tmp_path, "b.svg", *base[3:], "--side", "black", "--flip")
    assert a == b


# -- reference images ----------------------------------------------------------------------
DOC_IMAGES = Path(__file__).parent.parent / "docs" / "images"


def _against_reference(got, name: str, regen: bool, tolerance: float = 2.0) -> None:
    from PIL import Image, ImageChops, ImageStat

    path = DOC_IMAGES / name
    if regen:
        got.save(path, optimize=True)
        return
    if not path.is_file():
        pytest.fail(f"missing reference image {path}: run pytest --regen-refs")
    ref = Image.open(path).convert("RGB")
    assert ref.size == got.size, (name, ref.size, got.size)
    diff = ImageStat.Stat(ImageChops.difference(ref, got)).mean
    assert max(diff) <= tolerance, f"{name}: mean channel difference {diff} > {tolerance}"


def test_a_light_figure_matches_its_reference_images(tmp_path, regen_refs) -> None:
    """Diagram wiki-1 as a light figure at 320 px: the PNG and the SVG rasterised by
    CairoSVG against the reference images the manual shows (docs/images)."""
    from PIL import Image

    args = ["--diagram", "wiki-1", "--size", "320"]
    _render(tmp_path, "f.png", *args)
    _render(tmp_path, "f.svg", *args)
    _against_reference(Image.open(tmp_path / "f.png").convert("RGB"), "figure-light.png",
                       regen_refs)
    _cairosvg(tmp_path / "f.svg", tmp_path / "r.png")
    _against_reference(Image.open(tmp_path / "r.png").convert("RGB"),
                       "figure-light-svg.png", regen_refs)


def test_png_and_svg_carry_the_same_coordinates_on_two_sides() -> None:
    """Files under the board, ranks left of it, in both pictures: the SVG's coordinate
    groups are the scene's 16 labels, and its glyphs stand where the PNG's do."""
    import xml.etree.ElementTree as ET

    import chess

    import logic
    from viewer.figures.export import frame_svg
    from viewer.figures.frame import Frame
    from viewer.figures.render import Painter
    from viewer.figures.scene import Coord, board_scene
    from viewer.model.state import ExportOptions

    board = chess.Board("4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1")
    for flipped in (False, True):
        frame = Frame(board, logic.detect(board, chess.WHITE, trace=True), flipped=flipped)
        scene = board_scene(frame.board, frame.overlay(), flipped=flipped)
        coords = [p for p in scene if isinstance(p, Coord)]
        assert sorted(p.side for p in coords) == ["below"] * 8 + ["left"] * 8
        first = "h" if flipped else "a"
        assert next(p.text for p in coords if p.side == "below") == first
        svg = frame_svg(Painter(), frame, ExportOptions(320, True, False, False, False))
        root = ET.fromstring(svg.split("?>", 1)[1])
        groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
                  if g.get("data-kind") == "Coord"]
        texts = ["".join(t.text or "" for t in g.iter("{http://www.w3.org/2000/svg}text"))
                 for g in groups]
        assert texts == [p.text for p in coords]
