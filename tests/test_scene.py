"""One scene, two back ends: the board of every library diagram, at every step of its
trace, is one list of drawing primitives (:func:`viewer.figures.scene.board_scene`) that
the PNG (:class:`viewer.figures.render.Painter`) and the SVG (:mod:`viewer.figures.svg`)
both draw, and the rasterised SVG looks like the PNG."""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import chess  # noqa: E402
import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

import logic  # noqa: E402
from logic.diagrams import load_diagrams  # noqa: E402
from logic.pawns import PawnStructure  # noqa: E402
from viewer.figures.export import Frame, compose_frame, frame_svg  # noqa: E402
from viewer.figures.legend import (  # noqa: E402
    LEGEND_PRIMITIVES,
    LegendPrimitive,
    Text,
    swatch_scene,
)
from viewer.figures.render import Painter, render_legend_types, render_scene_types  # noqa: E402
from viewer.figures.scene import (  # noqa: E402
    PRIMITIVES,
    Arrow,
    Badge,
    Hatch,
    LetterBox,
    Outline,
    Piece,
    Primitive,
    Tag,
    board_scene,
)
from viewer.figures.svg import svg_legend_types, svg_scene_types  # noqa: E402
from viewer.model.overlay import Overlay  # noqa: E402
from viewer.model.state import ExportOptions  # noqa: E402

#: the picture of the board alone (no banner, legend or explanation): what the scene is
BOARD_ONLY = ExportOptions(160, True, False, False, False)
#: the largest mean absolute difference (0-255 per channel, over the whole board picture)
#: between the PNG and the rasterised SVG.  Measured on the test's sample (every library
#: diagram's busiest step at 240 px): 0.8 to 4.4 (median 2.4).  What differs is how each
#: draws, not what: the pieces' edges (SDL_image and CairoSVG antialias the same drawings
#: differently), the hatches (pygame's aliased lines in a tile against antialiased SVG
#: lines), the glyphs' antialiasing.  A square with an overlay the other lacks differs by
#: 50 to 150 on its pixels; a board whose overlay covers a third of it is 20 or more away
#: (the busiest board's bare SVG: 24.5, checked below).
TOLERANCE = 6.0


class RecordingPainter(Painter):
    """A painter that keeps the scenes it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.scenes: list[tuple[Primitive, ...]] = []

    def render_scene(self, surface: pygame.Surface, rect: pygame.Rect,
                     scene: Sequence[Primitive]) -> None:
        self.scenes.append(tuple(scene))
        super().render_scene(surface, rect, scene)


def _frames() -> list[tuple[str, Frame]]:
    """Every library diagram with both methods' traces: its live frame and every step
    (the paper method's upright, the flood's seen from Black)."""
    out = []
    for d in load_diagrams():
        board = d.board()
        for method in ("paper", "flood"):
            v = logic.detect(board, chess.WHITE, method=method, trace=True)
            for k in (None, *range(len(v.steps))):
                out.append((f"{d.id}/{method}/{k}", Frame(board, v, None, k,
                                                           flipped=method == "flood")))
    return out


FRAMES = _frames()


def _kinds(svg: str) -> Counter[str]:
    root = ET.fromstring(svg.split("?>", 1)[1])
    return Counter(g.get("data-kind") for g in root.iter("{http://www.w3.org/2000/svg}g")
                   if g.get("data-kind"))


def test_both_back_ends_draw_every_primitive_type() -> None:
    assert render_scene_types() == svg_scene_types() == frozenset(PRIMITIVES)


def test_both_back_ends_draw_every_legend_primitive_type() -> None:
    assert render_legend_types() == svg_legend_types() == frozenset(LEGEND_PRIMITIVES)


def test_every_legend_line_is_one_scene_for_both_back_ends() -> None:
    """Every legend item of every method (and the KPK and arrow lines) is drawn from the
    primitives of :func:`viewer.figures.legend.legend_scene`: the PNG draws exactly them, the SVG
    has one group per primitive of each kind, and every swatch draws something."""
    import logic
    from viewer.model.theme import ARROW_LEGEND, KPK_LEGEND

    items = tuple(dict.fromkeys(sum((m.legend for m in logic.METHODS.values()), ())
                                + KPK_LEGEND + ARROW_LEGEND))
    for item in items:
        scene = swatch_scene(item, 0, 1, 26, 24, Painter().fonts)
        assert scene, item
    painter = _LegendRecorder()
    surface = pygame.Surface((600, 800))
    painter.render_legend(surface, surface.get_rect(), items, 15)
    (scene,) = painter.legend_scenes
    assert {type(p) for p in scene} == set(LEGEND_PRIMITIVES)
    assert sum(isinstance(p, Text) and p.role == "text" for p in scene) >= len(items)
    from viewer.figures.svg import legend_svg

    g = ET.Element("{http://www.w3.org/2000/svg}g")
    legend_svg(g, scene, painter.colours, painter.fonts, (0, 0))
    assert _group_kinds(g) == Counter(type(p).__name__ for p in scene)


class _LegendRecorder(Painter):
    """A painter that keeps the legend scenes it draws."""

    def __init__(self) -> None:
        super().__init__()
        self.legend_scenes: list[tuple[LegendPrimitive, ...]] = []

    def render_legend_scene(self, surface: pygame.Surface, origin: tuple[int, int],
                            scene: Sequence[LegendPrimitive]) -> None:
        self.legend_scenes.append(tuple(scene))
        super().render_legend_scene(surface, origin, scene)


def _group_kinds(root: ET.Element) -> Counter[str]:
    return Counter(g.get("data-kind") for g in root.iter("{http://www.w3.org/2000/svg}g")
                   if g.get("data-kind"))


@pytest.mark.slow
def test_every_step_of_every_diagram_is_one_scene_for_both_back_ends() -> None:
    """The PNG draws exactly the scene of the frame, and the SVG has one element per
    primitive of each kind."""
    painter = RecordingPainter()
    seen: Counter[str] = Counter()
    for name, frame in FRAMES:
        scene = board_scene(frame.board, frame.overlay(), flipped=frame.flipped)
        painter.scenes.clear()
        compose_frame(painter, frame, BOARD_ONLY)
        assert painter.scenes == [scene], name
        want = Counter(type(p).__name__ for p in scene)
        assert _kinds(frame_svg(painter, frame, BOARD_ONLY)) == want, name
        seen += want
    # the library exercises the overlays' primitives (the exact prover's are below)
    assert {"Checker", "Coord", "Fill", "Hatch", "Outline", "Line", "Dot", "Piece",
            "Badge"} <= set(seen), seen


def test_the_exact_provers_primitives_reach_both_back_ends() -> None:
    """A king map (hatch and letter), ghost pawns, a labelled move and the structure's
    tags: the primitives the library's static methods do not draw."""
    board = chess.Board("8/8/2k5/2p5/2P5/2K5/8/8 w - - 0 1")
    ov = Overlay(kingmap=chess.BB_C2 | chess.BB_D2, kingmap_holds=False,
                 ghosts=(chess.BB_C4, chess.BB_C5), arrow=(chess.C3, chess.D3, "Kd3"),
                 changed=chess.BB_D3, king_mask=chess.BB_B3, kpk_keys=chess.BB_B6)
    structure = PawnStructure.analyse(board)
    scene = board_scene(board, ov, structure=structure)
    kinds = Counter(type(p) for p in scene)
    assert kinds[LetterBox] == 2 and kinds[Arrow] == 1 and kinds[Outline] == 2
    assert [p for p in scene if isinstance(p, Piece) and p.ghost] == [
        Piece(2, 4, "P", True), Piece(2, 3, "p", True)]
    assert {p.letter for p in scene if isinstance(p, LetterBox)} == {"B"}
    assert Hatch(1, 2, "key") in scene and Hatch(2, 6, "kingmap_breaks") in scene
    painter = RecordingPainter()
    surf = pygame.Surface((200, 200))
    painter.render_board(surf, surf.get_rect(), board, overlay=ov, structure=structure)
    assert painter.scenes == [scene]
    assert {p.text for p in scene if isinstance(p, Tag)} >= {"R", "closed"}
    root = _svg_of(scene)
    text = ET.tostring(root, encoding="unicode")
    assert 'data-texture="kingmap_breaks"' in text and ">B<" in text and ">Kd3<" in text
    assert Counter(g.get("data-kind") for g in root.iter("{http://www.w3.org/2000/svg}g")
                   if g.get("data-kind")) == Counter(type(p).__name__ for p in scene)


def _svg_of(scene: tuple[Primitive, ...]) -> ET.Element:
    from viewer.figures.svg import scene_svg

    root = ET.Element("{http://www.w3.org/2000/svg}svg")
    painter = Painter()
    scene_svg(root, scene, painter.colours, painter.fonts, 200)
    return root


def test_a_fixed_pawn_keeps_its_letter_and_shape_in_both() -> None:
    board = chess.Board("4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1")
    scene = board_scene(board, Overlay(fixed=chess.BB_D4 | chess.BB_D5,
                                       badges={chess.D5: ("B", False)}))
    assert Badge(3, 4, "F", None) in scene and Badge(3, 3, "B", False) in scene
    text = ET.tostring(_svg_of(scene), encoding="unicode")
    assert ">F<" in text and ">B<" in text


def _raster(painter: Painter, frame: Frame, options: ExportOptions) -> np.ndarray:
    cairosvg = pytest.importorskip("cairosvg")
    from PIL import Image

    png = cairosvg.svg2png(bytestring=frame_svg(painter, frame, options).encode())
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), int)


def _pixels(surface: pygame.Surface) -> np.ndarray:
    return pygame.surfarray.array3d(surface).transpose(1, 0, 2).astype(int)


def test_the_rasterised_svg_looks_like_the_png() -> None:
    """Every library diagram once (its paper trace's step with the most primitives, or
    the flood's, by turns, so both orientations are seen): the rasterised SVG within
    :data:`TOLERANCE` of the PNG, and the check has teeth (the SVG without the overlays
    is far from the PNG with them on the busiest board)."""
    painter = Painter()
    ids = [d.id for d in load_diagrams()]
    busiest: dict[str, tuple[int, str, Frame]] = {}
    for name, frame in FRAMES:
        diagram, method, _k = name.split("/")
        if method != ("paper", "flood")[ids.index(diagram) % 2]:
            continue
        n = len(board_scene(frame.board, frame.overlay(), flipped=frame.flipped))
        if diagram not in busiest or n > busiest[diagram][0]:
            busiest[diagram] = (n, name, frame)
    assert sorted(busiest) == sorted(ids)
    options = ExportOptions(240, True, False, False, False)
    worst = (0.0, "")
    for _n, name, frame in busiest.values():
        png = _pixels(compose_frame(painter, frame, options))
        raster = _raster(painter, frame, options)
        assert raster.shape == png.shape, name
        worst = max(worst, (float(np.abs(png - raster).mean()), name))
    assert worst[0] < TOLERANCE, worst
    _n, name, frame = max(busiest.values(), key=lambda t: t[0])
    png = _pixels(compose_frame(painter, frame, options))
    bare = _raster(painter, frame, ExportOptions(240, False, False, False, False))
    assert float(np.abs(png - bare).mean()) > TOLERANCE, name
