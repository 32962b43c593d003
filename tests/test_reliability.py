"""Reliability, third round: files shared by several windows, a display that cannot be
reached, a Dask scheduler that never answers, pool workers whose parent is killed, file
names that are not UTF-8, and the smaller faults (line numbers, engine noise, damaged
result lines, help into a full device, stale temporary files)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.faults import ENV, ROOT, SCAN_DATA, TRACEBACK_MARKERS, cli
from tests.waiting import HANG

# -- 1. files two windows share ---------------------------------------------------------------

#: a child that waits for ``GO`` to appear, then adds ``N`` positions named ``TAG-i``
ADDER = """
import os, sys, time
from pathlib import Path
from viewer.model.settings import add_user_position
tag, n, go = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
while not go.exists():
    time.sleep(0.001)
for i in range(n):
    add_user_position(f"{tag}-{i}", "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1")
"""


def test_two_processes_adding_positions_at_once_lose_none(tmp_path) -> None:
    home = tmp_path / "home"
    go = tmp_path / "go"
    n = 150
    env = dict(ENV, PAWNFENCE_HOME=str(home))
    procs = [subprocess.Popen([sys.executable, "-c", ADDER, tag, str(n), str(go)], cwd=ROOT,
                              env=env, stderr=subprocess.PIPE, text=True)
             for tag in ("a", "b")]
    time.sleep(0.5)  # both started (they poll for the go file): at worst they start late
    go.touch()
    for p in procs:
        _out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    text = (home / "my-positions.epd").read_text(encoding="utf-8")
    names = {line.split('id "', 1)[1].split('"', 1)[0] for line in text.splitlines()
             if 'id "' in line}
    assert names == {f"{tag}-{i}" for tag in "ab" for i in range(n)}
    assert not [p.name for p in home.iterdir() if p.name.startswith(".my-positions.epd.")
                and not p.name.endswith(".lock")]


def test_a_lock_held_elsewhere_is_waited_for_then_refused(tmp_path) -> None:
    from logic.files import LockTimeout, locked

    target = tmp_path / "shared.txt"
    ticks = iter(range(1000))
    # another holder: this process's second descriptor does not share the flock
    with locked(target), pytest.raises(LockTimeout, match="locked by another process"), \
            locked(target, wait=5, poll=0, clock=lambda: float(next(ticks))):
        pass
    with locked(target, wait=0):  # released: taken at once
        pass


def test_stale_temporary_files_of_a_killed_save_are_removed_at_start(tmp_path, monkeypatch
                                                                     ) -> None:
    from viewer.model.settings import load_settings_checked, load_user_positions_checked

    monkeypatch.setenv("PAWNFENCE_HOME", str(tmp_path))
    stale = [tmp_path / ".settings.json.k1l2m3.json", tmp_path / ".my-positions.epd.x9y8.epd"]
    for p in stale:
        p.write_text("half")
    keep = tmp_path / "settings.json.bad"
    keep.write_text("{}")
    load_settings_checked()
    load_user_positions_checked()
    assert not any(p.exists() for p in stale) and keep.exists()


# -- 2. a display that cannot be reached -------------------------------------------------------

def _free_display() -> str:
    """An X display number with no server (no socket, no lock file)."""
    for n in range(97, 400):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return f":{n}"
    pytest.skip("no free X display number")


@pytest.mark.parametrize("display", ["free", "bogus"])
def test_an_unreachable_display_is_the_no_display_message(tmp_path, display: str) -> None:
    env = {k: v for k, v in ENV.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=_free_display() if display == "free" else display,
               PAWNFENCE_HOME=str(tmp_path))
    r = cli("--frames", "3", env=env, timeout=120)
    assert r.returncode == 3, r.stderr
    assert "no display to open a window on" in r.stderr and "cannot be reached" in r.stderr
    assert not any(m in r.stderr for m in TRACEBACK_MARKERS)


def test_a_headless_driver_the_user_asked_for_is_used(tmp_path) -> None:
    env = dict(ENV, SDL_VIDEODRIVER="offscreen", DISPLAY="bogus", PAWNFENCE_HOME=str(tmp_path))
    r = cli("--frames", "2", env=env, timeout=120)
    assert r.returncode == 0, r.stderr


# -- 3. a Dask scheduler that accepts and never answers -----------------------------------------

@pytest.fixture
def silent_scheduler() -> object:
    """``tcp://127.0.0.1:PORT`` of a server that accepts connections and says nothing (a
    frozen scheduler, a port forward to nothing)."""
    srv = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    stop.set()
    t.join()
    for c in held:
        c.close()
    srv.close()


@pytest.mark.slow
def test_a_silent_dask_scheduler_times_out_naming_it_and_keeps_results(tmp_path,
                                                                       silent_scheduler
                                                                       ) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "o"
    first = cli("scan", str(SCAN_DATA / "positions.epd"), "--out", str(out), "--jobs", "1",
                "--quiet")
    assert first.returncode == 0, first.stderr
    before = (out / "results.jsonl").read_bytes()
    r = cli("scan", str(SCAN_DATA / "positions.epd"), "--out", str(out), "--quiet",
            "--dask", silent_scheduler, "--dask-timeout", "2", timeout=300)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and silent_scheduler in lines[0] and "did not answer" in lines[0]
    assert (out / "results.jsonl").read_bytes() == before


# -- 5. pool workers end with their parent --------------------------------------------------------

def _children(pid: int) -> list[int]:
    """Live processes whose parent is ``pid``."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            out.append(int(d))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for(what, timeout: float = 120.0) -> object:
    """Poll ``what()`` until it is true (or ``timeout`` seconds pass: a generous bound
    for something that must happen); returns its last value."""
    deadline = time.monotonic() + timeout
    while not (value := what()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return value


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_pool_workers_and_their_engines_end_with_a_killed_scan(tmp_path, sig) -> None:
    from logic.position import load_boards
    from tests.engines import fake_engine

    boards = load_boards(ROOT / "assets" / "experiment.epd", kp_only=True)[:60]
    assert len(boards) >= 50  # the pool starts from 50 positions
    epd = tmp_path / "kp.epd"
    epd.write_text("".join(b.epd() + "\n" for b in boards))
    # an engine that never answers "go": every position holds its worker for 5 + 20 s
    engine = fake_engine(tmp_path, "--hang-go")
    with (tmp_path / "err").open("w+") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "viewer.cli", "scan", str(epd), "--out", str(tmp_path / "o"),
             "--jobs", "2", "--engine", engine, "--engine-time", "20", "--quiet"],
            cwd=ROOT, env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=err, start_new_session=True)
        try:
            def busy() -> list[int]:  # both workers started, each with its engine
                workers = [p for p in _children(proc.pid)
                           if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]
                engines = [e for w in workers for e in _children(w)]
                return workers + engines if len(workers) == 2 and len(engines) == 2 else []

            started = _wait_for(busy)
            assert started, "the pool never started"
            proc.send_signal(sig)
            proc.wait(timeout=60)
            left = _wait_for(lambda: not any(_alive(p) for p in started), timeout=HANG)
            assert left, "workers or engines outlived the killed scan"
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        err.seek(0)
        text = err.read()
    assert not any(m in text for m in TRACEBACK_MARKERS) and "BrokenPipeError" not in text


# -- 6. file names that are not UTF-8 ------------------------------------------------------------

def test_a_scan_of_a_file_name_that_is_not_utf8_writes_escaped_names(tmp_path, capsys) -> None:
    import chess

    from viewer.cli import main

    src = Path(os.fsdecode(bytes(tmp_path) + b"/pos\xff.epd"))
    src.write_bytes((SCAN_DATA / "positions.epd").read_bytes())
    out = tmp_path / "o"
    for _run in range(2):  # and the rerun (resumed) alike
        assert main(["scan", str(src), "--out", str(out), "--jobs", "1", "--quiet"]) == 0, \
            capsys.readouterr().err
    lines = (out / "suspects.epd").read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        _board, ops = chess.Board.from_epd(line)
        assert str(ops["id"]).startswith("pos\\xff.epd line ")
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert {r["source"]["file"] for r in rows} == {str(src)}  # the name itself, in JSON


def test_render_to_a_name_that_is_not_utf8(tmp_path, capsys) -> None:
    from viewer.cli import main

    out = Path(os.fsdecode(bytes(tmp_path) + b"/pic\xff.png"))
    assert main(["render", "--diagram", "wiki-1", "--size", "160", "--out", str(out)]) == 0, \
        capsys.readouterr().err
    assert out.read_bytes().startswith(b"\x89PNG")
    assert os.listdir(bytes(tmp_path)) == [b"pic\xff.png"]


def test_an_image_writer_that_writes_nothing_is_not_blamed_on_the_disk(tmp_path, monkeypatch,
                                                                     capsys) -> None:
    import pygame

    from viewer.cli import main

    monkeypatch.setattr(pygame.image, "save", lambda surface, path, *a: Path(path).touch())
    assert main(["render", "--diagram", "wiki-1", "--size", "160", "--out",
                 str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "wrote nothing" in err and "disk" not in err
    assert os.listdir(tmp_path) == []


# -- 8. the smaller ones ------------------------------------------------------------------------

WIKI = "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1"
#: a stray CR inside a comment, then a bad line 2, a good CRLF line 3, a bad CRLF line 4
STRAY_CR = f"# a comment with a stray \r inside\nnot a fen\n{WIKI}\r\nbad\r\n".encode()


@pytest.mark.parametrize("via", ["file", "gz", "stdin"])
def test_classify_numbers_lines_by_newline_only(tmp_path, capsys, via: str) -> None:
    import gzip

    path = tmp_path / ("in.epd.gz" if via == "gz" else "in.epd")
    path.write_bytes(gzip.compress(STRAY_CR) if via == "gz" else STRAY_CR)
    if via == "stdin":
        with path.open("rb") as fh:
            r = subprocess.run([sys.executable, "-m", "viewer.cli", "classify", "-"], cwd=ROOT,
                               env=ENV, stdin=fh, capture_output=True, text=True, timeout=120)
        out = r.stdout
    else:
        from viewer.cli import main

        assert main(["classify", str(path)]) == 0
        out = capsys.readouterr().out
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r.get("line") for r in rows] == [2, None, 4]
    assert rows[1]["fen"] == WIKI


def test_a_damaged_result_line_keeps_its_original_bytes(tmp_path) -> None:
    from logic.tools.scan import scan

    inputs = [str(SCAN_DATA / "positions.epd")]
    out = tmp_path / "o"
    scan(inputs, out, jobs=1, progress=None)
    good = (out / "results.jsonl").read_bytes().splitlines()
    long_bad = b'{"key": "' + b"x\xff" * 300 + b'"'  # not UTF-8, not JSON, over 200 chars
    damaged = [b"[1, 2]", long_bad, b"{not json"]
    (out / "results.jsonl").write_bytes(b"\n".join([good[0], *damaged, *good[1:]]) + b"\n")
    scan(inputs, out, jobs=1, progress=None)
    assert (out / "results.jsonl.bad").read_bytes() == b"".join(d + b"\n" for d in damaged)
    assert b"".join(x + b"\n" for x in good) == (out / "results.jsonl").read_bytes()
    assert "kept in results.jsonl.bad" in (out / "errors.log").read_text()


def test_engine_noise_goes_to_the_run_log_and_a_failing_engine_is_one_line(tmp_path) -> None:
    from tests.engines import fake_engine

    out = tmp_path / "o"
    r = cli("scan", str(SCAN_DATA / "positions.epd"), "--out", str(out), "--jobs", "1",
            "--engine", fake_engine(tmp_path, "--illegal"), "--engine-time", "0.01", "--quiet",
            timeout=300)
    lines = r.stderr.splitlines()
    # three failures in a row, then the engine is given up: one line says it
    assert len(lines) == 1 and lines[0].startswith("pawnfence: engine "), lines
    assert "given up" in lines[0] and "illegal uci" in lines[0]
    assert "Exception parsing pv" in (out / "engine.log").read_text()


def test_an_engine_failing_now_and_then_is_one_line(tmp_path, monkeypatch) -> None:
    from logic.tools import scan as scan_module
    from logic.uci import Engine, EngineError, EngineEval

    calls = iter(range(1000))

    def flaky(self: Engine, board: object, seconds: float) -> EngineEval:
        if next(calls) % 2:  # every other position fails: never three in a row
            raise EngineError("engine E: no answer within 1 s")
        return EngineEval(10, None, 1, ())

    monkeypatch.setattr(Engine, "analyse", flaky)
    summary = scan_module.scan([str(SCAN_DATA / "positions.epd")], tmp_path / "o", jobs=1,
                               progress=None, engine="/unused/engine")
    assert summary["engine_gave_up"] == []
    rows = [json.loads(x) for x in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    failed = sum("error" in (r["engine"] or {}) for r in rows)
    assert failed >= 2
    assert summary["engine_failures"] == [f"engine E: no answer within 1 s ({failed} positions "
                                          "without an engine score; see results.jsonl)"]
