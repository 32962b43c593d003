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


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PAWNFENCE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    return tmp_path / "home"


def test_the_window_switches_to_light_and_remembers_it(home) -> None:
    """Ctrl+T switches the window's colours (board view, panes, widgets) between dark,
    the default, and light; the choice is saved in the settings and comes back."""
    import pygame

    from tests.test_viewer import frames, key
    from viewer.app import App
    from viewer.settings import Settings, load_settings
    from viewer.theme import COLOURS, LIGHT

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
