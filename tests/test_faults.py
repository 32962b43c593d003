"""The fault campaign as tests (library and command line): bad streams, bad numbers, bad
files, bad games, bad engines, a damaged resume file, a lost cluster, kills at random
moments.  Each test reproduces a failure the campaign found (issues 16 and 18)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from logic.position import read_epd
from logic.scan import ScanError, scan
from logic.uci import Engine, EngineError, IllegalPositionError
from tests.engines import fake_engine

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data" / "scan"
WIKI = "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def cli(*args: str, stdin: object = subprocess.DEVNULL, timeout: float = 60,
        stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "viewer.cli", *args], cwd=ROOT, env=ENV,
                          stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          timeout=timeout)


# -- streams ----------------------------------------------------------------------------------

def test_output_into_a_closed_pipe_ends_quietly() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "explain", WIKI], cwd=ROOT,
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) in (0, 141)
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["explain", WIKI], ["diagrams"],
                                  ["search", WIKI, "--depth", "2"]])
def test_a_full_output_device_is_one_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        r = cli(*args, stdout=full)
    assert r.returncode == 74
    assert "cannot write the output" in r.stderr and "Traceback" not in r.stderr


def test_classify_from_a_closed_standard_input() -> None:
    r = subprocess.run(f"{sys.executable} -m viewer.cli classify - <&-", shell=True, cwd=ROOT,
                       env=ENV, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "standard input is closed" in r.stderr
    assert "Traceback" not in r.stderr


def test_ctrl_c_during_a_scan_is_one_line(tmp_path) -> None:
    slow = str(DATA / "slow_engine.sh")
    proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "scan", str(DATA / "games.pgn"),
                             "--out", str(tmp_path), "--jobs", "1", "--engine", slow,
                             "--quiet"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline and not (tmp_path / "results.jsonl").is_file():
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err


def test_a_line_without_end_is_capped_not_held_in_memory(tmp_path) -> None:
    big = tmp_path / "big.epd"
    big.write_text(WIKI + "\n" + "x" * 3_000_000 + "\n" + WIKI.replace(" w ", " b ") + "\n")
    entries = list(read_epd(big))
    assert [e.board is not None for e in entries] == [True, False, True]
    assert "3,000,001 characters cut at 100,000" in str(entries[1].error)
    r = cli("classify", str(big))
    assert r.returncode == 0
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 3 and "cut at 100,000" in lines[1]["error"]
    comment = tmp_path / "comment.epd"  # a position with a huge comment keeps its position
    comment.write_text(WIKI.rsplit(" ", 2)[0] + ' id "big"; c0 "' + "y" * 500_000 + '";\n')
    (entry,) = read_epd(comment)
    assert entry.board is not None and "cut at 100,000" in str(entry.ops["warning"])


def test_dev_zero_and_a_fifo_are_refused_not_waited_on(tmp_path) -> None:
    r = cli("classify", "/dev/zero", timeout=60)
    assert r.returncode == 2 and "not a regular file" in r.stderr
    fifo = tmp_path / "fifo.epd"
    os.mkfifo(fifo)
    r = cli("classify", str(fifo), timeout=60)
    assert r.returncode == 2 and "not a regular file" in r.stderr
    r = cli("bench", "--file", str(fifo), timeout=60)
    assert r.returncode == 2 and "not a regular file" in r.stderr


# -- numbers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["scan", "x.epd", "--engine-time", "inf"], ["scan", "x.epd", "--engine-time", "nan"],
    ["scan", "x.epd", "--engine-time", "1e308"], ["scan", "x.epd", "--engine-time", "0"],
    ["search", WIKI, "--time", "0"], ["search", WIKI, "--time", "-1"],
    ["search", WIKI, "--depth", "0"], ["experiment", "--time", "nan"],
    ["bench", "--rounds", "0"], ["scan", "x.epd", "--jobs", "0"],
])
def test_numbers_are_checked_at_the_command_line(args: list[str]) -> None:
    r = cli(*args)
    assert r.returncode == 2 and "error: argument" in r.stderr and "Traceback" not in r.stderr


def test_search_honours_a_tiny_time_limit_inside_quiescence() -> None:
    """``--time 0.01`` took about 5 s: the capture search never looked at the clock."""
    from logic import search

    s = search.Searcher()
    pos = search.from_board(chess.Board("8/7p/4K1pp/ppp2pPP/PPPP2pP/k4P2/8/8 w - - 0 1"))
    s.deadline = 0.0  # already past: the next clock check must stop the quiescence search
    s.nodes = 2047
    s.quiesce(pos, -search.WIN, search.WIN, 0)
    assert s.stopped


def test_the_first_iteration_always_completes() -> None:
    from logic.search import search_board

    r = search_board(chess.Board("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"), seconds=0.001)
    assert r.depth >= 1 and r.pv


# -- files ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["missing", "directory", "empty", "random"])
@pytest.mark.parametrize("command", ["bench", "experiment"])
def test_bench_and_experiment_refuse_bad_files(tmp_path, kind: str, command: str) -> None:
    path = tmp_path / "in.epd"
    if kind == "directory":
        path.mkdir()
    elif kind == "empty":
        path.write_text("")
    elif kind == "random":
        path.write_bytes(random.Random(3).randbytes(5000))
    args = ["bench", "--file", str(path), "--rounds", "1"] if command == "bench" else \
        ["experiment", str(path), "--time", "0.01"]
    r = cli(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("pawnfence: ") and r.stderr.count("\n") == 1


MALFORMED_PGNS = ["g1)?", "Ke6# ) e4", "1. e4 $ 2. e5", "1. e4 (", "[Event \"x\"]\n\n1. e4 )) *"]


@pytest.mark.parametrize("bad", MALFORMED_PGNS)
def test_one_malformed_game_never_stops_a_scan(tmp_path, bad: str) -> None:
    good = (DATA / "games.pgn").read_text()
    pgn = tmp_path / "mixed.pgn"
    pgn.write_text(good + "\n\n" + bad + "\n\n" + good)
    summary = scan([str(pgn)], tmp_path / "out", jobs=1, progress=None)
    reference = scan([str(DATA / "games.pgn")], tmp_path / "ref", jobs=1, progress=None)
    assert summary["positions"] == reference["positions"] > 0
    assert (tmp_path / "out" / "results.jsonl").is_file()


DAMAGED_LINES = ['"just a string"', "[1, 2, 3]", "42", "null", '{"key": "k"}',
                 '{"key": "k", "fen": "8/8", "source": {}, "verdicts": {}, "categories": []}',
                 '{"key": 1, "fen": 2, "source": [], "verdicts": 0, "categories": "x"}',
                 "{not json", "[" * 100_000]


def test_resume_sets_damaged_result_lines_aside(tmp_path) -> None:
    inputs = [str(DATA / "positions.epd")]
    reference = tmp_path / "ref"
    scan(inputs, reference, jobs=1, progress=None)
    out = tmp_path / "out"
    scan(inputs, out, jobs=1, progress=None)
    good = (out / "results.jsonl").read_text().splitlines()
    damaged = [good[0], *DAMAGED_LINES, *good[1:3]]
    (out / "results.jsonl").write_text("\n".join(damaged) + "\n")
    summary = scan(inputs, out, jobs=1, progress=None)
    assert summary["resumed"] == 3
    log = (out / "errors.log").read_text()
    for n in range(2, 2 + len(DAMAGED_LINES)):
        assert f"results.jsonl:{n}: set aside" in log
    assert (out / "results.jsonl").read_text() == (reference / "results.jsonl").read_text()
    scan(inputs, out, jobs=1, progress=None)  # the notes survive the next run
    assert "results.jsonl:2: set aside" in (out / "errors.log").read_text()


def test_kills_at_random_moments_lose_and_repeat_nothing(tmp_path) -> None:
    inputs = [str(DATA / "games.pgn"), str(DATA / "positions.epd")]
    reference = tmp_path / "ref"
    scan(inputs, reference, jobs=1, progress=None)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "viewer.cli", "scan", *inputs, "--out", str(out), "--jobs", "1",
           "--engine", str(DATA / "slow_engine.sh"), "--engine-time", "0.01", "--quiet"]
    rng = random.Random(16)
    for _ in range(3):
        proc = subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.8, 2.5))
        proc.kill()
        proc.wait()
    scan(inputs, out, engine=str(DATA / "slow_engine.sh"), engine_time=0.01, jobs=1,
         progress=None)
    final = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    ref = [json.loads(x) for x in (reference / "results.jsonl").read_text().splitlines()]
    assert [r["key"] for r in final] == [r["key"] for r in ref]


# -- engines ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("flags", "says"), [
    (("--no-score",), "without a score"),
    (("--illegal",), "a1a8"),
    (("--hang-go",), "no answer within"),
    (("--garbage",), "no answer within"),
    (("--crash",), "died"),
])
def test_every_engine_failure_is_one_line_naming_the_engine(tmp_path, flags, says) -> None:
    path = fake_engine(tmp_path, *flags)
    engine = Engine(path, timeout=1.0)
    t0 = time.monotonic()
    with pytest.raises(EngineError) as exc:
        engine.analyse(chess.Board(WIKI), 0.05)
    engine.close(wait=1.0)
    assert path in str(exc.value) and says in str(exc.value) and "\n" not in str(exc.value)
    assert time.monotonic() - t0 < 30  # bounded: a hang is a failure, not a wait


def test_missing_and_not_executable_engines(tmp_path) -> None:
    with pytest.raises(EngineError, match="not found"):
        Engine(str(tmp_path / "nope")).analyse(chess.Board(WIKI), 0.01)
    plain = tmp_path / "plain"
    plain.write_text("not a program")
    with pytest.raises(EngineError, match="not executable"):
        Engine(str(plain)).analyse(chess.Board(WIKI), 0.01)


def test_an_engine_that_ignores_quit_is_killed_and_floods_do_not_block(tmp_path) -> None:
    engine = Engine(fake_engine(tmp_path, "--hang-quit", "--flood-stderr"), timeout=5.0)
    ev = engine.analyse(chess.Board(WIKI), 0.01)
    assert ev.cp == 900
    pid = engine._engine.transport.get_pid()
    t0 = time.monotonic()
    engine.close(wait=0.5)
    assert time.monotonic() - t0 < 5
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the engine outlived close()")


def test_a_scan_process_with_a_hanging_engine_exits(tmp_path) -> None:
    r = cli("scan", str(DATA / "positions.epd"), "--out", str(tmp_path / "o"), "--jobs", "1",
            "--engine", fake_engine(tmp_path, "--hang-quit"), "--engine-time", "0.01",
            "--quiet", timeout=120)
    assert r.returncode == 0


def test_an_illegal_position_is_never_sent() -> None:
    with pytest.raises(IllegalPositionError, match="kings"):
        Engine("/nonexistent/engine").analyse(chess.Board("8/8/8/8/8/8/8/Kk6 w - - 0 1"), 0.1)


def test_a_failing_engine_is_given_up_with_one_message(tmp_path) -> None:
    summary = scan([str(DATA / "positions.epd")], tmp_path / "o", jobs=1, progress=None,
                   engine=fake_engine(tmp_path, "--crash"), engine_time=0.01)
    assert len(summary["engine_gave_up"]) == 1 and "given up" in summary["engine_gave_up"][0]
    rows = [json.loads(x) for x in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    assert sum("given up" in r["engine"]["error"] for r in rows) >= len(rows) - 3


# -- Dask -------------------------------------------------------------------------------------

@pytest.mark.parametrize("address", ["ucx://127.0.0.1:1", "tls://127.0.0.1:1",
                                     "tcp://127.0.0.1:1", "nonsense"])
def test_bad_dask_addresses_are_one_line(tmp_path, address: str) -> None:
    pytest.importorskip("distributed")
    with pytest.raises(ScanError, match="Dask"):
        scan([str(DATA / "positions.epd")], tmp_path, dask_address=address, progress=None)


def test_a_cluster_without_workers_is_said_not_waited_on_silently(tmp_path, monkeypatch,
                                                                  capsys) -> None:
    distributed = pytest.importorskip("distributed")
    from logic import scan as scan_module

    monkeypatch.setattr(scan_module, "DASK_WORKER_WAIT", 1.0)
    with distributed.LocalCluster(n_workers=0, dashboard_address=None) as cluster, \
            pytest.raises(ScanError, match="failed"):
        scan([str(DATA / "positions.epd")], tmp_path, dask_address=cluster.scheduler_address,
             progress=None)
    assert "waiting for a Dask worker" in capsys.readouterr().err


# -- experiment ---------------------------------------------------------------------------------

def test_experiment_resumes_after_kills_and_sets_damaged_lines_aside(tmp_path) -> None:
    from logic.experiment import experiment

    fens = [b.fen() for b in __import__("logic.position", fromlist=["load_boards"]).load_boards(
        ROOT / "assets" / "experiment.epd", kp_only=True)[:40]]
    out = tmp_path / "exp"
    cmd = [sys.executable, "-m", "viewer.cli", "experiment", "--time", "0.2", "--limit", "40",
           "--out", str(out), "--jobs", "1", "--quiet"]
    rng = random.Random(15)
    log = out / "runs.jsonl"
    seen = []
    for _ in range(3):  # kill at random moments
        proc = subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(1.5, 2.5))
        proc.kill()
        proc.wait()
        seen.append(len(log.read_text().splitlines()) if log.is_file() else 0)
    assert any(0 < n < len(fens) for n in seen), seen  # a kill landed in the middle
    kept = log.read_text().splitlines() if log.is_file() else []
    log.write_text("\n".join([*kept, '"not a row"', '{"fen": 3}', "{torn"]) + "\n")
    rows = experiment(fens, 0.2, ["off", "paper", "flood"], out_dir=out)
    assert [r["fen"] for r in rows] == fens  # nothing lost, nothing repeated, input order
    assert len(log.read_text().splitlines()) == len(fens)
    errors = (out / "errors.log").read_text()
    assert errors.count("set aside") == 3
