"""The viewer's share of the fault campaign, driven through the real loop with real pygame
events (SDL_VIDEODRIVER=dummy): saves that keep up with continuous editing, engines
that fail in every way, damaged settings and position files, unbounded text, exports
on a full disk, and a seeded storm of random input."""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import subprocess
import sys
import threading
import time
import tracemalloc
import uuid
from pathlib import Path

import chess
import pytest

import logic

pygame = pytest.importorskip("pygame")

from tests.engines import fake_engine  # noqa: E402
from tests.faults import DAMAGED_SETTINGS, processes  # noqa: E402
from tests.test_viewer import D16, WIKI, centre, down, frames, key, motion, up  # noqa: E402
from tests.waiting import HANG  # noqa: E402
from viewer.model.settings import Settings, load_settings  # noqa: E402
from viewer.model.text import caption_html, window_banner  # noqa: E402
from viewer.window import clipboard  # noqa: E402
from viewer.window.app import App  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _library_button(app: App, name: str) -> tuple[int, int]:
    """Click the Library tab of the dock's first slot (a real click) and return the centre
    of the library pane's button ``name``."""
    tab = app.panel.tabs[0]["library"].rect.center
    frames(app, [down(tab), up(tab)], [])
    return app.panel.buttons[name].rect.center


def _analysis_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("pawnfence-"))


def _wait_done(app: App, seconds: float = HANG) -> None:
    """Run frames until the search panel's analysis is done (or ``seconds`` pass)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frames(app, [])
        r = app.analysis.result
        if r is not None and r.done:
            return
        time.sleep(0.05)
    raise AssertionError(f"analysis not done after {seconds} s: {app.analysis.result}")


# -- 1. saves that keep up ---------------------------------------------------------------
def test_continuous_edits_are_saved_at_least_once_a_second(home) -> None:
    a = App(Settings(fen=WIKI), size=(1280, 860))
    frames(a, [key(pygame.K_2, unicode="2")])
    squares = [f"{f}{r}" for r in "36" for f in "abcdefgh"
               if chess.Board(WIKI).piece_at(chess.parse_square(f"{f}{r}")) is None]
    edits: list[tuple[int, str]] = []  # (frame of the edit, position after it)
    for sq in squares[:12]:  # a click every half second for six seconds
        frames(a, [down(centre(a, sq)), up(centre(a, sq))], *[[] for _ in range(28)])
        edits.append((a.frame - 29, a.state.position.editor.fen))
    add = _library_button(a, "add")
    added = a.state.position.editor.fen
    frames(a, [down(add), up(add)], *[[] for _ in range(5)])
    assert a.state.position.user_positions, a.state.message.text
    kill = a.frame
    pygame.display.quit()  # killed: no close(), no final save
    saved = load_settings().fen
    fens = [f for _frame, f in edits]
    assert saved in fens, "nothing saved while the edits went on"
    lost = edits[fens.index(saved) + 1:]
    assert not lost or lost[0][0] >= kill - 60, f"{len(lost)} edits lost, over a second"
    b = App(load_settings(), size=(1280, 860))
    assert b.state.position.editor.fen == saved
    assert [fen for _n, fen in b.state.position.user_positions] == [added]  # the list survived
    pygame.display.quit()


# -- 2. engines ----------------------------------------------------------------------------
def _marking_engine(tmp_path: Path, *flags: str) -> tuple[str, Path]:
    """A fake engine that leaves a file behind when it is started."""
    mark = tmp_path / f"started-{uuid.uuid4().hex}"
    inner = fake_engine(tmp_path, *flags)
    path = tmp_path / f"marking-{mark.name}.sh"
    path.write_text(f'#!/bin/sh\ntouch "{mark}"\nexec "{inner}"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path), mark


def test_illegal_position_is_never_sent_to_an_engine(home, tmp_path) -> None:
    engine, mark = _marking_engine(tmp_path)
    a = App(Settings(fen=D16, engine=engine), size=(1280, 860))
    frames(a, [])
    threads = _analysis_threads()
    # White's king dragged next to Black's (f8): kings adjacent
    frames(a, [down(centre(a, "d1"))], [motion(centre(a, "e7"))], [up(centre(a, "e7"))])
    assert a.state.position.editor.board.king(chess.WHITE) == chess.E7
    frames(a, [key(pygame.K_e)])
    assert a.state.options.search_on
    for _ in range(20):
        frames(a, [])
        time.sleep(0.05)
    html = caption_html(a.state, a.analysis.result)
    assert "illegal position: kings adjacent" in html, html
    assert "process died" not in html and "kings and pawns only" not in html
    assert not mark.exists(), "the engine was started for an illegal position"
    assert _analysis_threads() <= threads + 1
    frames(a, [key(pygame.K_z, mod=pygame.KMOD_CTRL)])  # undo: legal again, the engine runs
    _wait_done(a)
    assert mark.exists() and a.analysis.result.engine is not None
    a.close()


FAULTS = ["missing", "not-executable", "--crash", "--hang-go", "--hang-quit", "--garbage",
          "--flood-stderr"]


@pytest.mark.parametrize("fault", FAULTS)
def test_engine_failure_is_one_line_and_the_viewer_goes_on(home, tmp_path, fault) -> None:
    tag = f"--tag-{uuid.uuid4().hex}"
    if fault == "missing":
        engine = str(tmp_path / "no-such-engine")
    elif fault == "not-executable":
        engine = str(tmp_path / "engine.txt")
        Path(engine).write_text("not a program\n")
    else:
        engine = fake_engine(tmp_path, fault, tag)
    a = App(Settings(fen=D16, engine=engine, search=True), size=(1280, 860))
    _wait_done(a)
    html = caption_html(a.state, a.analysis.result)
    lines = [ln for ln in html.split("<br>") if engine in ln]
    if fault in ("--hang-quit", "--flood-stderr"):  # these answer "go"
        assert a.analysis.result.engine is not None
    else:
        assert len(lines) == 1, html
        assert lines[0].split(": ", 1)[1].strip(), f"nothing after the colon: {lines[0]!r}"
    frames(a, [key(pygame.K_2, unicode="2")], [down(centre(a, "a3")), up(centre(a, "a3"))])
    assert a.state.position.editor.board.piece_at(chess.A3) is not None  # the viewer goes on
    t0 = time.monotonic()
    a.close()
    assert time.monotonic() - t0 < HANG, "closing waited on the engine"
    time.sleep(0.2)
    assert not processes(tag), "an engine process outlived the viewer"


def test_closing_while_the_engine_hangs_is_bounded(home, tmp_path) -> None:
    tag = f"--tag-{uuid.uuid4().hex}"
    a = App(Settings(fen=D16, engine=fake_engine(tmp_path, "--hang-go", tag), search=True),
            size=(1280, 860))
    deadline = time.monotonic() + HANG
    while not processes(tag) and time.monotonic() < deadline:  # the engine is thinking
        frames(a, [])
        time.sleep(0.05)
    assert processes(tag) and not a.analysis.result.done
    t0 = time.monotonic()
    a.close()
    assert time.monotonic() - t0 < HANG, "closing waited on the engine"
    time.sleep(0.2)
    assert not processes(tag), "an engine process outlived the viewer"


@pytest.mark.slow
def test_rapid_edits_do_not_pile_up_threads_or_engines(home, tmp_path) -> None:
    tag = f"--tag-{uuid.uuid4().hex}"
    engine = fake_engine(tmp_path, "--slow", tag)
    before = threading.active_count()
    a = App(Settings(fen=D16, engine=engine, search=True), size=(1280, 860))
    frames(a, [key(pygame.K_2, unicode="2")])
    for i in range(30):  # an edit every frame
        sq = centre(a, "a3" if i % 2 else "h3")
        frames(a, [down(sq), up(sq)])
        assert threading.active_count() <= before + 3, "analysis threads pile up"
        assert len(processes(tag)) <= 1, "more than one engine process"
    _wait_done(a)
    assert a.analysis.result.engine is not None
    a.close()
    time.sleep(0.2)
    assert not processes(tag)
    assert threading.active_count() <= before + 1


# -- 3. damaged state ------------------------------------------------------------------

@pytest.mark.parametrize("case", list(DAMAGED_SETTINGS))
def test_damaged_settings_start_on_defaults_and_are_kept_aside(home, case) -> None:
    home.mkdir(parents=True)
    path = home / "settings.json"
    path.write_text(DAMAGED_SETTINGS[case])
    from viewer.model.settings import load_settings_checked

    loaded = load_settings_checked()
    a = App(loaded.settings, notices=loaded.problems)
    frames(a, [])
    w, h = a.screen.get_size()
    assert 760 <= w <= 16384 and 560 <= h <= 16384
    if case == "huge":
        assert "window size" in a.state.message.text
    else:
        assert a.state.position.editor.fen == Settings().fen
        assert "settings.json.bad" in a.state.message.text
        assert (home / "settings.json.bad").read_text() == DAMAGED_SETTINGS[case]
    a.close()
    if case != "huge":
        assert (home / "settings.json.bad").read_text() == DAMAGED_SETTINGS[case]
    assert isinstance(load_settings(), Settings)


def test_damaged_positions_file_is_kept_aside_and_adding_still_works(home) -> None:
    home.mkdir(parents=True)
    path = home / "my-positions.epd"
    raw = (f'{D16.rsplit(" ", 2)[0]} id "mine \xe9";\n'.encode("latin-1")
           + f'{WIKI.rsplit(" ", 2)[0]} id "wiki";\n'.encode())
    path.write_bytes(raw)
    from viewer.model.settings import load_settings_checked

    loaded = load_settings_checked()
    a = App(loaded.settings, notices=loaded.problems, size=(1280, 860))
    frames(a, [])
    assert len(a.state.position.user_positions) == 2
    assert "my-positions.epd.bad" in a.state.message.text
    assert (home / "my-positions.epd.bad").read_bytes() == raw
    add = _library_button(a, "add")
    frames(a, [down(add), up(add)])
    assert len(a.state.position.user_positions) == 3, a.state.message.text
    a.close()
    assert (home / "my-positions.epd.bad").read_bytes() == raw


def _limited_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.parametrize("name", ["settings.json", "my-positions.epd"])
@pytest.mark.parametrize("kind", ["fifo", "folder", "dev-zero"])
def test_a_state_file_that_is_not_a_file_is_moved_aside(tmp_path, name, kind) -> None:
    """A FIFO as settings.json or my-positions.epd kept the viewer from starting
    (forever); /dev/zero read until memory ran out; a folder left the settings unsaved."""
    home = tmp_path / "home"
    home.mkdir()
    path = home / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PAWNFENCE_HOME": str(home),
           "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "viewer.cli", "--frames", "3"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60, preexec_fn=_limited_memory)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert (home / f"{name}.bad").is_symlink() or (home / f"{name}.bad").exists()
    if name == "settings.json":
        assert json.loads(path.read_text())["fen"] == Settings().fen  # saved again


def test_a_settings_file_over_a_megabyte_is_kept_aside(home) -> None:
    from viewer.model.settings import load_settings_checked

    home.mkdir(parents=True)
    raw = json.dumps({"fen": D16, "pad": "x" * 2_000_000})
    (home / "settings.json").write_text(raw)
    loaded = load_settings_checked()
    assert loaded.settings.fen == Settings().fen and "larger than" in loaded.problems[0]
    assert (home / "settings.json.bad").read_text() == raw


def test_values_that_cannot_be_used_are_said_and_the_file_kept(home) -> None:
    """A settings object with an unknown method, a FEN that is not one, a window of
    100,000 pixels or an unknown key was rewritten at the next save: the values were lost
    without a word.  (And an integer speed was ignored.)"""
    from viewer.model.settings import load_settings_checked

    home.mkdir(parents=True)
    raw = json.dumps({"fen": "not a fen", "method": "nonexistent", "side": "purple",
                      "tool": "Z", "speed": 2, "engine": "/no/such\u0000engine",
                      "from_the_future": True, "flipped": True})
    (home / "settings.json").write_text(raw)
    loaded = load_settings_checked()
    s = loaded.settings
    assert (s.fen, s.method, s.side, s.tool, s.engine) == (Settings().fen, "paper", "white",
                                                           "P", "")
    assert s.speed == 2.0 and s.flipped  # the usable values are kept
    (problem,) = loaded.problems
    assert "could not use" in problem and "settings.json.bad" in problem
    a = App(loaded.settings, notices=loaded.problems)
    frames(a, [])
    assert "settings.json.bad" in a.state.message.text
    a.close()
    assert (home / "settings.json.bad").read_text() == raw
    assert load_settings_checked().problems == ()  # the file saved since is clean


def test_an_engine_path_with_a_nul_is_one_line_in_the_pane(home) -> None:
    """A NUL in the engine's path reached SDL_ttf: ``ValueError: A null character``."""
    a = App(Settings(fen=D16, engine="/no/such\0engine", search=True), size=(1280, 860))
    _wait_done(a)
    frames(a, [])
    (line,) = [m for m in a.analysis.result.messages if "not a usable path" in m]
    assert "\n" not in line
    a.close()


# -- 4. bounded text -------------------------------------------------------------------------
def _playlist(tmp_path: Path, comment_chars: int) -> Path:
    epd = tmp_path / "long.epd"
    with open(epd, "w", encoding="utf-8") as fh:
        fh.write(f'{D16.rsplit(" ", 2)[0]} id "long"; c0 "{"x" * comment_chars}";\n')
        fh.write(f'{WIKI.rsplit(" ", 2)[0]} id "{"y" * comment_chars}";\n')
    return epd


def test_ten_megabyte_playlist_comment_neither_crashes_nor_freezes(tmp_path) -> None:
    epd = _playlist(tmp_path, 10_000_000)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PAWNFENCE_HOME": str(tmp_path / "h")}
    proc = subprocess.run([sys.executable, "-m", "viewer.cli", "--playlist", str(epd),
                           "--frames", "10"], cwd=ROOT, env=env, capture_output=True,
                          timeout=HANG)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]


def test_long_texts_are_bounded_on_screen(home, tmp_path) -> None:
    from logic.position import read_playlist

    # 90 KB: under the readers' 100,000-character line cap, so the text reaches the window
    a = App(Settings(), size=(1280, 860), playlist=read_playlist(str(_playlist(tmp_path,
                                                                                90_000))))
    # what the window lays out is bounded (a count of characters, not a time): the
    # frames stay cheap whatever the comment's length
    frames(a, [], [key(pygame.K_n)], [])
    assert len(caption_html(a.state)) < 3000 and "more)" in caption_html(a.state)
    assert sum(len(b.text) for b in window_banner(a.state).blocks) < 3000
    clipboard.put_text("not a fen " * 3000)  # 30 KB
    frames(a, [key(pygame.K_v, mod=pygame.KMOD_CTRL)], [])
    msg = a.state.message.text
    assert "Not loaded" in msg and len(msg) < 400 and "more)" in msg
    pygame.display.quit()


@pytest.mark.parametrize("size", ["99999999999999999999x10", "0x0", "axb", "100x200x3", "-5x7"])
def test_absurd_window_size_is_a_clear_message(home, size, capsys) -> None:
    from viewer.cli import main

    assert main([f"--size={size}", "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert "--size" in err and size in err


# -- 5. exports that cannot lie --------------------------------------------------------------
def _short_writes(monkeypatch) -> None:
    """pygame.image.save as on a full disk: no exception, a truncated file."""
    real = pygame.image.save

    def short(surface, path, *args):
        real(surface, path, *args)
        with open(path, "r+b") as fh:
            fh.truncate(max(1, os.path.getsize(path) // 3))

    monkeypatch.setattr(pygame.image, "save", short)


def test_short_png_write_is_an_error_and_leaves_nothing(home, tmp_path, monkeypatch) -> None:
    a = App(Settings(fen=D16), size=(1280, 860), export_dir=tmp_path / "exports")
    frames(a, [])
    _short_writes(monkeypatch)
    frames(a, [key(pygame.K_s, mod=pygame.KMOD_CTRL)])  # the save dialog opens
    assert a.file_dialog is not None and a.file_dialog.alive()
    import pygame_gui

    picked = pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, ui_element=a.file_dialog,
                                text=str(a.exporter.default_path("png")))
    frames(a, [picked])
    assert "cannot write" in a.state.message.text
    assert not list((tmp_path / "exports").glob("*")) if (tmp_path / "exports").exists() \
        else True
    pygame.display.quit()


def test_render_short_write_keeps_the_old_file(tmp_path, monkeypatch) -> None:
    from viewer.cli import main

    out = tmp_path / "d.png"
    assert main(["render", D16, "--out", str(out)]) == 0
    good = out.read_bytes()
    _short_writes(monkeypatch)
    assert main(["render", "--diagram", "paper-12", "--out", str(out)]) == 2
    assert out.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["d.png"]


@pytest.fixture
def full_disk(tmp_path):
    """A 64 KiB tmpfs (root only; skipped where mounting is not permitted)."""
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                          capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode(errors='replace')}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_render_on_a_full_disk_is_an_error_and_keeps_the_old_file(full_disk) -> None:
    from viewer.cli import main

    out = full_disk / "d.png"
    assert main(["render", D16, "--size", "160", "--out", str(out)]) == 0
    good = out.read_bytes()
    fd = os.open(full_disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:  # fill the disk
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    assert main(["render", "--diagram", "paper-12", "--size", "640", "--out", str(out)]) == 2
    assert out.read_bytes() == good
    assert sorted(p.name for p in full_disk.iterdir()) == ["d.png", "filler"]


# -- 6. an event storm -------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("method", ["paper", "exact"])
def test_event_storm(home, tmp_path, monkeypatch, method) -> None:
    """Seeded random clicks, drags, keys and pastes (some of them 20 KB) for 800 frames
    with the search panel on, starting with each kind of method (``exact``: proofs in the
    background, cancelled by the edits): no exception, no frame waiting on a proof,
    memory bounded, at most one engine process, one proof thread, and no pile-up of
    threads at any time.  No frame waits on a proof: the exact prover never runs on the
    window's thread (a fact about the code, where a frame-time bound would be one about
    the machine)."""
    exact = logic.METHODS["exact"]
    on_main: list[str] = []
    solve = exact.solve

    def watched(board, *args, **kw):
        if threading.current_thread() is threading.main_thread():
            on_main.append(board.fen())
        return solve(board, *args, **kw)

    monkeypatch.setattr(exact, "solve", watched)
    rng = random.Random(20240611)
    tag = f"--tag-{uuid.uuid4().hex}"
    engine = fake_engine(tmp_path, tag)
    threads = threading.active_count()
    a = App(Settings(fen=WIKI, engine=engine, search=True, method=method), size=(1280, 860),
            export_dir=tmp_path / "x")
    frames(a, [])
    w, h = a.screen.get_size()
    keys = [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_0, pygame.K_t,
            pygame.K_f, pygame.K_SPACE, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME,
            pygame.K_END, pygame.K_ESCAPE, pygame.K_m, pygame.K_s, pygame.K_l, pygame.K_e,
            pygame.K_h, pygame.K_n, pygame.K_p, pygame.K_a, pygame.K_RETURN]
    ctrl = [pygame.K_z, pygame.K_y, pygame.K_c, pygame.K_v, pygame.K_s]
    pastes = [D16, "8/8/8/8/8/8/8/8 w - -", "not a fen " * 2000, "k" * 25_000]

    def batch() -> list:
        r = rng.random()
        pos = (rng.randrange(w), rng.randrange(h))
        if r < 0.35:
            k = rng.choice(keys)
            name = pygame.key.name(k)
            return [key(k, unicode=name if len(name) == 1 else "")]
        if r < 0.40:
            k = rng.choice(ctrl)
            if k == pygame.K_v:
                clipboard.put_text(rng.choice(pastes))
            return [key(k, mod=pygame.KMOD_CTRL)]
        if r < 0.70:
            return [down(pos, rng.choice([1, 1, 1, 3])), up(pos, 1)]
        if r < 0.85:
            end = (rng.randrange(w), rng.randrange(h))
            return [down(pos), motion(((pos[0] + end[0]) // 2, (pos[1] + end[1]) // 2)),
                    motion(end), up(end)]
        return []

    def storm(n: int) -> None:
        for _ in range(n // 10):
            frames(a, *[batch() for _ in range(10)])
            assert not on_main, f"a frame waited on a proof of {on_main[0]}"
            assert threading.active_count() <= threads + 4, "threads pile up"
            assert sum(t.name == "pawnfence-proof" for t in threading.enumerate()) <= 1
            assert len(processes(tag)) <= 1, "more than one engine process"

    tracemalloc.start()
    storm(200)  # warm up the caches
    base, _ = tracemalloc.get_traced_memory()
    storm(600)
    now, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert now - base < 40 * 2**20, f"memory grew by {(now - base) / 2**20:.1f} MiB"
    t0 = time.monotonic()
    a.close()
    assert time.monotonic() - t0 < HANG
    time.sleep(0.2)
    assert not processes(tag)
    assert not a.state.proof.job.alive()
