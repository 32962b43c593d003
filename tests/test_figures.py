"""Figures a journal can print: the same command writes the same file (no run-dependent
numbers unless ``--stats``), the light theme reads in greyscale, the SVG is
self-contained and looks the same in every renderer, Black's side is worded as drawn."""

from __future__ import annotations

import os
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
    assert "1 structure, " in stats and " s)" in stats
