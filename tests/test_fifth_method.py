"""A fifth method is one module and one registry line: a toy detector defined here (one
class, its rule and code families, its listing and legend, and a ``register`` call) shows
up in ``explain --all``, ``classify --method``, ``render``, the window's method cycling
(M) with its legend and its Code pane, and the Compare pane, with its disagreement with
the exact prover marked, without a line of ``logic`` or ``viewer`` naming it; unregistered
afterwards, it is gone from all of them.

The toy claims a blockage when every pawn of the side is rammed (not sound: the toy is a
fixture, never registered outside this file)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import chess
import pytest

import logic
from logic.bitboards import orient
from logic.compare import compare, disagreement
from logic.records import Boards
from logic.steps import Recorder
from logic.verdict import Verdict
from viewer.cli import main

#: every White pawn rammed; the White king takes b5 and wins (exact: "breaks"), the Black
#: pawn rammed too and Black cannot win (exact: "proved")
RAMMED = "7k/8/8/1p6/1P6/2K5/8/8 w - - 0 1"
#: a pawn that is not rammed: the toy proves nothing
FREE = "7k/8/8/8/1P6/2K5/8/8 w - - 0 1"

# -- the fifth method: what its module would hold ---------------------------------------
ToyRule = logic.Rule("ToyRule", {"RAMMED": ("toy rammed", "every pawn rammed (toy)")})
ToyCode = logic.Code("ToyCode", {"RAMMED": "toy-rammed", "FREE": "toy-free"})
TOY_LEGEND = logic.LegendItem("hatch", "marked", "T", "toy: a rammed pawn")
TOY_LISTING = logic.Listing("Toy: every pawn rammed", (
    logic.CodeLine(0, "toy(position), White to win:"),
    logic.CodeLine(1, "rammed <- White pawns with a Black pawn in front", ("toy-rams",)),
    logic.CodeLine(1, "return blocked if every White pawn is rammed", ("verdict",)),
))


class ToyMethod(logic.Method):
    """The toy: a side whose every pawn is rammed is called blocked."""

    name = "toy"
    label = "toy (every pawn rammed)"
    title = "a test's fifth method"
    rules = tuple(ToyRule)
    codes = tuple(ToyCode)
    king_section = ToyRule.RAMMED
    listing = TOY_LISTING
    legend = (TOY_LEGEND,)

    def verdict(self, w: int, b: int, wk: int, bk: int, color: bool) -> Verdict:
        rammed = w & (b >> 8)
        blocked = bool(w) and rammed == w
        code = ToyCode.RAMMED if blocked else ToyCode.FREE
        return Verdict(color, self.name, blocked, ToyRule.RAMMED, logic.Status.OK, code, (),
                       Boards(0, rammed, 0, 0, 0, 0, 0, chess.BB_ALL), (), (wk, bk))

    def pair(self, w: int, b: int, wk: int, bk: int) -> tuple[Verdict, Verdict]:
        return (self.verdict(*orient(w, b, wk, bk, False), False),
                self.verdict(w, b, wk, bk, True))

    def is_blocked(self, w: int, b: int, wk: int, bk: int, color: bool) -> bool:
        return self.verdict(*orient(w, b, wk, bk, color), color).blocked

    def analyse(self, w: int, b: int, wk: int, bk: int, color: bool, rec: Recorder) -> Verdict:
        v = self.verdict(w, b, wk, bk, color)
        rec.add("toy-rams", ToyRule.RAMMED, "rams", f"{rec.us}'s rammed pawns: "
                f"{rec.names(v.boards.marked)}.", changed=v.boards.marked,
                marked=v.boards.marked)
        rec.add("verdict", ToyRule.RAMMED, "verdict", v.headline + ".")
        return v._replace(steps=tuple(rec.steps))

    def reason(self, v: Verdict, name: object) -> str | None:
        words = "every pawn is rammed" if v.blocked else "a pawn is not rammed"
        return f"{words} ({v.rule})"


@pytest.fixture
def toy() -> Iterator[ToyMethod]:
    """The toy registered (the registry line), unregistered afterwards."""
    method = logic.register(ToyMethod())
    try:
        yield method
    finally:
        logic.unregister(method)
    assert "toy" not in logic.METHODS and "toy" not in logic.STATIC_METHODS


def test_the_toy_is_a_method_like_the_others(toy: ToyMethod) -> None:
    assert logic.METHODS["toy"] is toy and logic.STATIC_METHODS["toy"] is toy
    board = chess.Board(RAMMED)
    v = logic.detect(board, chess.WHITE, method="toy", trace=True)
    assert v.blocked and v.rule == "toy rammed" and v.rule.heading == "every pawn rammed (toy)"
    assert v.code == "toy-rammed" and v.headline == "White cannot win: blockage (toy rammed)"
    assert v.reason == "every pawn is rammed (toy rammed)"
    assert [s.kind for s in v.steps] == ["toy-rams", "verdict"]
    assert v.marked == chess.BB_B4
    assert not logic.detect(chess.Board(FREE), chess.WHITE, method="toy").blocked


def test_explain_all_and_classify_list_the_toy(toy: ToyMethod, tmp_path, capsys) -> None:
    assert main(["explain", "--all", RAMMED, "--exact-seconds", "5"]) == 0
    table = capsys.readouterr().out
    row = next(line for line in table.splitlines() if line.startswith("toy "))
    # White: the toy's blockage that exact refutes (the king takes b5): "!"
    assert row.split()[1:4] == ["!", "blocked", "(toy"]
    assert "! a blockage exact refutes" in table
    epd = tmp_path / "two.epd"
    epd.write_text(f"{RAMMED}\n{FREE}\n", encoding="utf-8")
    assert main(["classify", str(epd), "--method", "toy"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["white"]["blocked"], r["white"]["rule"]) for r in rows] == \
        [(True, "toy rammed"), (False, "toy rammed")]


def test_the_comparison_sets_the_toy_against_exact(toy: ToyMethod) -> None:
    cmp = compare(chess.Board(RAMMED), seconds=5)
    assert list(cmp.cells) == ["paper", "flood", "extended", "toy", "exact"]
    for color in chess.COLORS:
        cell, truth = cmp.cells["toy"][color], cmp.cells["exact"][color]
        assert cell.disagrees == disagreement(cell, truth)
    assert cmp.cells["toy"][chess.WHITE].disagrees == "refuted"  # exact: the king breaks in


def test_render_draws_the_toy_with_its_legend(toy: ToyMethod, tmp_path) -> None:
    out = tmp_path / "toy.svg"
    assert main(["render", RAMMED, "--method", "toy", "--out", str(out),
                 "--svg-text", "fonts"]) == 0
    svg = out.read_text(encoding="utf-8")
    assert "toy: a rammed pawn" in svg and "blockage (toy rammed)" in svg


def test_unregistered_the_toy_is_gone(tmp_path, capsys) -> None:
    method = logic.register(ToyMethod())
    logic.unregister(method)
    assert "toy" not in logic.METHODS
    assert main(["explain", "--all", FREE, "--exact-seconds", "5"]) == 0
    assert "toy" not in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["classify", "-", "--method", "toy"])
    with pytest.raises(logic.DetectError):
        logic.detect(chess.Board(FREE), chess.WHITE, method="toy")


# -- the window -------------------------------------------------------------------------
def test_the_window_cycles_to_the_toy_with_its_legend_code_and_compare_row(toy, home) -> None:
    pygame = pytest.importorskip("pygame")
    pytest.importorskip("pygame_gui")
    from tests.test_viewer import frames, key
    from tests.test_viewer_window import show_pane, until
    from viewer.model.actions import help_lines
    from viewer.model.settings import Settings, load_settings_checked
    from viewer.window.app import App

    a = App(Settings(fen=RAMMED), size=(1280, 860))
    frames(a, [])
    seen = []
    while a.state.options.method is not toy:  # M, as a user cycles the methods
        frames(a, [key(pygame.K_m, unicode="m")])
        seen.append(a.state.options.method.name)
        assert len(seen) <= len(logic.METHODS)
    assert seen == ["flood", "exact", "extended", "toy"]
    assert a.panel.method_menu.selected_option[0] == toy.label
    assert a.state.playback.verdict.method == "toy" and a.state.playback.verdict.blocked
    assert TOY_LEGEND in a.state.legend()  # the window's legend: the toy's own
    assert any(toy.label in words for _keys, words in help_lines())  # H: the M key's line
    # the Code pane: the toy's listing, the line of the step on show
    show_pane(a, "code")
    frames(a, [key(pygame.K_RIGHT)])
    listing, cur, _prev = a.code.current()
    step = a.state.playback.verdict.steps[a.state.playback.timeline.index]
    assert listing is TOY_LISTING and cur is not None
    assert step.kind in TOY_LISTING.lines[cur].kinds
    # the Compare pane: a row for the toy, marked against exact once exact is in
    show_pane(a, "compare")
    assert until(a, lambda: all(a.compare.cells()["exact"].values()))
    frames(a, [])
    cells = a.compare.cells()
    assert list(cells) == ["paper", "flood", "extended", "toy", "exact"]
    assert cells["toy"][chess.WHITE].disagrees == "refuted"
    assert ("toy", chess.WHITE) in a.compare.cell_rects
    assert a.close() is None
    assert load_settings_checked().settings.method == "toy"  # saved by name



def test_every_method_carries_its_words_listing_and_legend(toy: ToyMethod) -> None:
    """What the tools show of a method is on the method: a label and title, its own rules
    with headings (no two methods introduce the same), a listing whose lines name step
    kinds, and a legend drawn in the overlay's styles (:data:`logic.legend.STYLES`)."""
    from logic.legend import STYLES

    introduced: list[logic.Rule] = []
    for m in logic.METHODS.values():
        assert m.label and m.title and m.rules, m
        assert all(isinstance(r, logic.Rule) and r.heading for r in m.rules), m
        introduced += m.rules
        assert m.listing is not None and any(line.kinds for line in m.listing.lines), m
        assert m.legend and {i.style for i in m.legend} <= STYLES, m
        assert m.legend_for(None) == m.legend
    assert len(introduced) == len(set(introduced))
    assert [m.name for m in logic.METHODS.values() if m.proves] == ["exact"]
    assert sorted(m.name for m in logic.METHODS.values() if m.cross_checked) == \
        ["flood", "paper"]
