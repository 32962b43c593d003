"""Every method at once (:mod:`logic.compare`, ``pawnfence explain --all``): a row per
method, a column per side, and a mark exactly where exact's proof contradicts a static
verdict."""

from __future__ import annotations

import io
import json

import chess

from logic.compare import Cell, compare, compare_table, disagreement
from viewer.cli import main

SIMPLE = "4k3/8/8/p1p1p1p1/P1P1P1P1/2P5/8/4K3 w - - 0 1"  # paper Diagram 5: a plain fence


def _cell(method: str, blocked: bool, status: str = "ok") -> Cell:
    return Cell(method=method, color=chess.WHITE, blocked=blocked, status=status,
                rule="r", ms=0.0)


def test_only_a_proof_contradicts() -> None:
    assert disagreement(_cell("paper", True), _cell("exact", False)) == "refuted"
    assert disagreement(_cell("paper", False), _cell("exact", True)) == "missed"
    assert disagreement(_cell("paper", True), _cell("exact", True)) == ""
    assert disagreement(_cell("paper", False), _cell("exact", False)) == ""
    assert disagreement(_cell("paper", True), _cell("exact", False, "unknown")) == ""
    assert disagreement(_cell("paper", True), None) == ""


def test_compare_has_every_method_both_sides_and_agrees_with_detect() -> None:
    import logic

    board = chess.Board(SIMPLE)
    heard: list[Cell] = []
    cmp = compare(board, on_cell=heard.append)
    assert list(cmp.cells) == [m for m in logic.METHODS if m != "exact"] + ["exact"]
    assert len(heard) == 2 * len(cmp.cells)
    for method, row in cmp.cells.items():
        for color, cell in row.items():
            v = logic.detect(board, color, method=method)
            assert (cell.blocked, cell.rule) == (bool(v.blocked), v.rule or "")
            exact = cmp.cells["exact"][color]
            assert cell.disagrees == ("" if method == "exact" else disagreement(cell, exact))
    table = compare_table(cmp, times=False)
    assert table.splitlines()[2].split() == ["method", "White", "Black"]
    assert all(any(line.startswith(m) for line in table.splitlines()) for m in cmp.cells)


def test_explain_all_text_and_json() -> None:
    out = io.StringIO()
    assert main(["explain", "--all", SIMPLE], out=out) == 0
    assert "exact" in out.getvalue() and "paper" in out.getvalue()
    out = io.StringIO()
    assert main(["explain", "--all", "--json", SIMPLE], out=out) == 0
    data = json.loads(out.getvalue())
    assert set(data["methods"]["paper"]) == {"white", "black"}
    assert data["methods"]["exact"]["white"]["status"] in ("ok", "unknown")
