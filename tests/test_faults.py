"""The fault campaign as tests (library and command line): bad streams, bad numbers, bad
files, bad games, bad engines, a damaged resume file, a lost cluster, kills at random
moments.  Each test reproduces a failure the campaign found (issues 16 and 18)."""

from __future__ import annotations

import contextlib
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

from logic.position import load_boards, read_epd
from logic.tools.scan import ScanError, scan
from logic.uci import Engine, EngineError, IllegalPositionError
from tests.engines import fake_engine
from tests.faults import DAMAGED_LINES, ENV, MALFORMED_PGNS, ROOT, WIKI, cli
from tests.faults import SCAN_DATA as DATA
from tests.waiting import HANG

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
                                  ["search", WIKI, "--depth", "2"], ["--help"], ["--version"],
                                  ["scan", "--help"], ["help"]])
def test_a_full_output_device_is_one_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        r = cli(*args, stdout=full)
    assert r.returncode == 74
    assert "cannot write the output" in r.stderr and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1


def test_classify_from_a_closed_standard_input() -> None:
    r = subprocess.run(f"{sys.executable} -m viewer.cli classify - <&-", shell=True, cwd=ROOT,
                       env=ENV, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "standard input is closed" in r.stderr
    assert "Traceback" not in r.stderr


def _ctrl_c_enabled() -> None:
    """In the child before exec: Ctrl-C at its default.  A test run started in the
    background of a non-interactive shell (``cmd &``) ignores SIGINT, the children inherit
    that, and Python then keeps ignoring it (as it should: the parent asked for it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_during_a_scan_is_one_line(tmp_path) -> None:
    slow = str(DATA / "slow_engine.sh")
    # enough work that the scan is still running when Ctrl-C comes (results.jsonl is
    # created before the first position is done: wait for two rows, not for the file)
    proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "scan", str(DATA / "games.pgn"),
                             str(DATA / "positions.epd"), str(DATA / "selfplay.pgn.gz"),
                             "--out", str(tmp_path), "--jobs", "1", "--engine", slow,
                             "--quiet"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_enabled)
    results = tmp_path / "results.jsonl"
    deadline = time.time() + HANG
    while time.time() < deadline and proc.poll() is None and not (
            results.is_file() and results.read_text().count("\n") >= 2):
        time.sleep(0.05)
    assert proc.poll() is None, "the scan ended before Ctrl-C"
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err


@pytest.mark.parametrize("first,second", [(t / 100, None) for t in range(15, 60, 5)]
                         + [(0.25, 0.1), (0.4, 0.1)])
def test_ctrl_c_during_start_up_is_one_line(tmp_path, first: float,
                                            second: float | None) -> None:
    """The campaign's kills family: Ctrl-C at 0.3 s to 0.6 s of ``experiment`` (while the
    library was being imported) ended the process by SIGINT (status -2): first outside
    ``main``'s handler, then, inside it, through the interpreter's mark for a
    KeyboardInterrupt raised in a C extension's import.  A second Ctrl-C in the
    wind-down must not change the end either.  The moments count from the console
    script's call (the child says "ready" just before it), not from the interpreter's
    start, whose length depends on the machine's load: before that call no code of the
    program runs, and a Ctrl-C there is the interpreter's own."""
    ready = ("import sys, viewer.cli as c; print('ready', file=sys.stderr, flush=True); "
             "sys.exit(c.console())")
    proc = subprocess.Popen([sys.executable, "-c", ready, "experiment", "--time", "0.2",
                             "--limit", "4", "--jobs", "1", "--out", str(tmp_path), "--quiet"],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=_ctrl_c_enabled)
    assert proc.stderr is not None and proc.stderr.readline() == "ready\n"
    for wait in (first - 0.15, second):
        if wait is None:
            break
        time.sleep(wait)
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=HANG)
    assert proc.returncode in (0, 130) and "Traceback" not in err, (proc.returncode, err)


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
    # huge counts (the campaign): a search, a bench that never end, a billion processes
    ["search", WIKI, "--depth", "1000000000"], ["bench", "--rounds", "1000000000"],
    ["scan", "x.epd", "--jobs", "1000000000"], ["bench", "--exact", "--jobs", "100000"],
    ["scan", "x.epd", "--every", "0"], ["experiment", "--every", "0"],
])
def test_numbers_are_checked_at_the_command_line(args: list[str]) -> None:
    r = cli(*args, timeout=HANG)
    assert r.returncode == 2 and "error: argument" in r.stderr and "Traceback" not in r.stderr


def test_a_huge_jobs_count_starts_no_more_processes_than_there_is_work(tmp_path,
                                                                      monkeypatch) -> None:
    """``experiment --jobs 100000`` started a pool of 100,000 processes."""
    import multiprocessing

    from logic.tools.experiment import experiment

    sizes = []

    class Pool:  # records its size, works in this process
        def __init__(self, processes: int, initializer: object = None,
                     initargs: tuple = ()) -> None:
            sizes.append(processes)

        def __enter__(self) -> Pool:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def imap(self, fn, tasks):
            return map(fn, tasks)

        imap_unordered = imap

    monkeypatch.setattr(multiprocessing, "get_context", lambda *_a: type("C", (), {"Pool": Pool}))
    fens = [b.fen() for b in load_boards(ROOT / "assets" / "experiment.epd", kp_only=True)[:3]]
    experiment(fens, 0.01, ["off"], out_dir=tmp_path / "x", jobs=100_000)
    scan([str(DATA / "games.pgn"), str(DATA / "positions.epd"), str(DATA / "selfplay.pgn.gz")],
         tmp_path / "s", jobs=100_000, progress=None)
    assert sizes == [3, 4]  # three positions; 84 positions in shards of 25


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


@pytest.mark.parametrize("bad", MALFORMED_PGNS)
def test_one_malformed_game_never_stops_a_scan(tmp_path, bad: str) -> None:
    good = (DATA / "games.pgn").read_text()
    pgn = tmp_path / "mixed.pgn"
    pgn.write_text(good + "\n\n" + bad + "\n\n" + good)
    summary = scan([str(pgn)], tmp_path / "out", jobs=1, progress=None)
    reference = scan([str(DATA / "games.pgn")], tmp_path / "ref", jobs=1, progress=None)
    assert summary["positions"] == reference["positions"] > 0
    assert (tmp_path / "out" / "results.jsonl").is_file()


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


def _shape_damage(row: dict) -> list[dict]:
    """Lines that are JSON objects but not results: each crashed the end of a resumed
    scan (a suspect needs ``source`` and ``engine``) or was kept as it was."""
    out = []
    for change in ({"source": {}}, {"source": {"file": 3, "line": 1}}, {"source": {"game": 1}},
                   {"engine": "str"}, {"engine": {"cp": "abc"}}, {"verdicts": {"paper": None}},
                   {"fen": "8/8/8/8/8/8/8/K1k5 w - - 0 1"}, {"engine": {"error": ["x"]}},
                   {"engine": {"cp": 10**400, "mate": None, "depth": 1, "pv": []}}):
        out.append({**row, **change, "categories": ["methods-disagree"]})
    return out


def test_resume_sets_aside_results_of_the_wrong_shape(tmp_path) -> None:
    inputs = [str(DATA / "positions.epd")]
    reference = tmp_path / "ref"
    scan(inputs, reference, jobs=1, progress=None)
    good = (reference / "results.jsonl").read_text().splitlines()
    damaged = [json.dumps(r) for r in _shape_damage(json.loads(good[1]))]
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").write_text("\n".join([good[0], *damaged, *good[2:]]) + "\n")
    scan(inputs, out, jobs=1, progress=None)
    log = (out / "errors.log").read_text()
    for n in range(2, 2 + len(damaged)):
        assert f"results.jsonl:{n}: set aside" in log
    assert (out / "results.jsonl").read_text() == (reference / "results.jsonl").read_text()


def test_resume_reads_lines_as_strict_utf8_json_split_at_newlines_only(tmp_path) -> None:
    """A byte that is not UTF-8 inside a string was read as U+FFFD and the row kept
    altered; ``NaN`` was accepted; a raw U+2028 inside a string split a good line."""
    inputs = [str(DATA / "positions.epd")]
    reference = tmp_path / "ref"
    scan(inputs, reference, jobs=1, progress=None)
    good = (reference / "results.jsonl").read_bytes().splitlines()
    latin = good[0].replace(b'"paper-12"', b'"paper-12\xe9"')
    nan = json.dumps({**json.loads(good[1]), "engine": {"cp": float("nan"), "mate": None,
                                                         "depth": 1, "pv": []}}).encode()
    row = json.loads(good[2])
    row["source"]["id"] = "line\u2028separator"
    raw = json.dumps(row, ensure_ascii=False).encode()
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").write_bytes(b"\n".join([latin, nan, raw, *good[3:]]) + b"\n")
    summary = scan(inputs, out, jobs=1, progress=None)
    log = (out / "errors.log").read_text()
    assert "results.jsonl:1: set aside, bytes that are not UTF-8" in log
    assert "results.jsonl:2: set aside, not JSON (NaN" in log
    assert "results.jsonl:3:" not in log and summary["resumed"] == len(good) - 2
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert rows[0] == json.loads(good[0]) and rows[2]["source"]["id"] == "line\u2028separator"


def test_epd_operands_read_as_moves_are_written_as_text(tmp_path, capsys) -> None:
    """``id Kb1;`` (an unquoted operand python-chess reads as a move) ended classify and
    scan with ``TypeError: Object of type Move is not JSON serializable``."""
    from viewer.cli import main

    epd = tmp_path / "ids.epd"
    epd.write_text("8/8/8/8/8/k7/P7/K7 w - - id Kb1;\n8/8/8/8/8/k7/P7/K7 b - - id 5; "
                   "bm Kb4;\n")
    assert main(["classify", str(epd)]) == 0
    assert [json.loads(x)["id"] for x in capsys.readouterr().out.splitlines()] == ["Kb1", 5]
    summary = scan([str(epd)], tmp_path / "out", jobs=1, progress=None)
    assert summary["positions"] == 2
    summary = scan([str(epd)], tmp_path / "out", jobs=1, progress=None)
    assert summary["resumed"] == 2  # and the rows read back as results


@pytest.mark.slow
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


@pytest.mark.parametrize("kind", ["malformed game", "missing", "directory", "fifo",
                                  "cut gz", "not gz"])
def test_bench_scan_reads_games_as_the_scan_does(tmp_path, kind: str, capsys) -> None:
    """``bench --scan`` replayed with python-chess directly: a game it fails inside, a
    missing file, a folder, a FIFO or a damaged .gz ended in a traceback."""
    from viewer.cli import main

    path = tmp_path / ("g.pgn.gz" if "gz" in kind else "g.pgn")
    games = (DATA / "games.pgn").read_bytes()
    if kind == "malformed game":
        path.write_bytes(games + b"\n\ng1)?\n\n" + games)
    elif kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "cut gz":
        path.write_bytes(__import__("gzip").compress(games)[:300])
    elif kind == "not gz":
        path.write_bytes(games)
    status = main(["bench", "--scan", str(path), "--json"])
    err = capsys.readouterr().err
    if kind in ("missing", "directory", "fifo"):
        assert status == 2 and err.startswith("pawnfence: cannot read") and err.count("\n") == 1
    elif kind == "not gz":  # unreadable from the first byte: nothing to time, said in one line
        assert status == 2 and "stopped reading" in err and "no king-and-pawn positions" in err
    else:
        assert status == 0


@pytest.mark.parametrize("command", ["classify", "bench", "experiment", "playlist"])
def test_a_damaged_gz_is_one_line_not_a_traceback(tmp_path, command: str, capsys) -> None:
    from logic.position import read_playlist
    from viewer.cli import main

    cut = tmp_path / "cut.epd.gz"
    packed = __import__("gzip").compress((ROOT / "assets" / "bench.epd").read_bytes())
    cut.write_bytes(packed[:len(packed) // 2])
    if command == "playlist":
        with pytest.raises(ValueError, match="damaged compressed file"):
            read_playlist(str(cut))
        return
    args = {"classify": ["classify", str(cut)], "bench": ["bench", "--file", str(cut)],
            "experiment": ["experiment", str(cut), "--time", "0.01", "--out",
                           str(tmp_path / "x")]}[command]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "damaged compressed file" in err and err.count("\n") == 1


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
    # a short timeout only where the engine never answers: an answering engine gets
    # all the time a loaded machine needs to start it
    engine = Engine(path, timeout=1.0 if says == "no answer within" else HANG)
    t0 = time.monotonic()
    with pytest.raises(EngineError) as exc:
        engine.analyse(chess.Board(WIKI), 0.05)
    engine.close(wait=1.0)
    assert path in str(exc.value) and says in str(exc.value) and "\n" not in str(exc.value)
    assert time.monotonic() - t0 < HANG  # bounded: a hang is a failure, not a wait


def test_an_engine_path_with_a_nul_is_an_engine_error() -> None:
    with pytest.raises(EngineError, match="not a usable path"):
        Engine("/no/such\0engine").analyse(chess.Board(WIKI), 0.01)


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
    assert time.monotonic() - t0 < HANG
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
    from logic.tools import scan as scan_module

    monkeypatch.setattr(scan_module, "DASK_WORKER_WAIT", 1.0)
    with distributed.LocalCluster(n_workers=0, dashboard_address=None) as cluster, \
            pytest.raises(ScanError, match="failed"):
        scan([str(DATA / "positions.epd")], tmp_path, dask_address=cluster.scheduler_address,
             progress=None)
    assert "waiting for a Dask worker" in capsys.readouterr().err


# -- experiment ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_experiment_resumes_after_kills_and_sets_damaged_lines_aside(tmp_path) -> None:
    from logic.tools.experiment import experiment

    fens = [b.fen() for b in __import__("logic.position", fromlist=["load_boards"]).load_boards(
        ROOT / "assets" / "experiment.epd", kp_only=True)[:40]]
    out = tmp_path / "exp"
    cmd = [sys.executable, "-m", "viewer.cli", "experiment", "--time", "0.2", "--limit", "40",
           "--out", str(out), "--jobs", "1", "--quiet"]
    rng = random.Random(15)
    log = out / "runs.jsonl"
    seen = []

    def rows() -> int:
        return len(log.read_text().splitlines()) if log.is_file() else 0

    for _ in range(3):  # kill at random moments: after a random count of new rows
        start, more = rows(), rng.randint(1, 3)
        proc = subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + HANG
        while rows() < start + more and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(rng.uniform(0.0, 0.05))
        proc.kill()
        proc.wait()
        seen.append(rows())
    assert any(0 < n < len(fens) for n in seen), seen  # a kill landed in the middle
    kept = log.read_text().splitlines() if log.is_file() else []
    log.write_text("\n".join([*kept, '"not a row"', '{"fen": 3}', "{torn"]) + "\n")
    rows = experiment(fens, 0.2, ["off", "paper", "flood"], out_dir=out)
    assert [r["fen"] for r in rows] == fens  # nothing lost, nothing repeated, input order
    assert len(log.read_text().splitlines()) == len(fens)
    errors = (out / "errors.log").read_text()
    assert errors.count("set aside") == 3


def _small_experiment(tmp_path: Path) -> Path:
    small = tmp_path / "small.epd"
    small.write_text("".join(b.epd() + "\n" for b in load_boards(
        ROOT / "assets" / "experiment.epd", kp_only=True)[:3]))
    return small


def test_experiment_resume_sets_aside_rows_of_the_wrong_shape(tmp_path, capsys) -> None:
    """Rows with ``exact`` not an object (AttributeError), a count too large for a float
    (OverflowError), NaN or a negative time (a table of nan), a bad FEN (dropped silently)
    were read back as finished positions."""
    from viewer.cli import main

    args = ["experiment", str(_small_experiment(tmp_path)), "--time", "0.01", "--jobs", "1",
            "--quiet", "--out", str(tmp_path / "x")]
    assert main(args) == 0
    log = tmp_path / "x" / "runs.jsonl"
    good = [json.loads(x) for x in log.read_text().splitlines()]
    bad = [{**good[0], "exact": "x"}, {**good[1], "exact": ["a"]},
           {**good[2], "runs": {**good[2]["runs"], "off": {**good[2]["runs"]["off"],
                                                              "nodes": 10**400}}},
           {**good[0], "runs": {**good[0]["runs"], "off": {**good[0]["runs"]["off"],
                                                              "elapsed": -5}}},
           {**good[1], "fen": "8/8/9/8/8/8/8/8 w - - 0 1"},
           # integers too large for a float where a time goes (math.isfinite raised)
           {**good[0], "runs": {**good[0]["runs"], "off": {**good[0]["runs"]["off"],
                                                              "elapsed": 10**400}}},
           {**good[1], "seconds": 10**400}]
    log.write_text("".join(json.dumps(r) + "\n" for r in bad)
                   + json.dumps(good[2]).replace('"elapsed": ', '"elapsed": NaN, "x": ', 1)
                   + "\n")
    capsys.readouterr()
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "nan" not in out.lower() and "inf" not in out.lower()
    assert (tmp_path / "x" / "errors.log").read_text().count("set aside") == len(bad) + 1
    assert [json.loads(x)["fen"] for x in log.read_text().splitlines()] == \
        [r["fen"] for r in good]


def test_experiment_into_an_unwritable_folder_is_one_line(tmp_path, capsys) -> None:
    """A read-only or full output folder ended the experiment in an OSError traceback (or
    blamed the standard output, exit 74)."""
    from viewer.cli import main

    (tmp_path / "file").write_text("x")
    assert main(["experiment", str(_small_experiment(tmp_path)), "--time", "0.01", "--quiet",
                 "--out", str(tmp_path / "file" / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pawnfence: experiment failed: cannot write") and err.count("\n") == 1
    assert "file is a file, not a folder" in err  # not mkdir's bare "Not a directory"


def test_an_output_folder_that_is_a_file_is_named(tmp_path, capsys) -> None:
    """``mkdir`` says "File exists" when the output folder (or a parent) is a file: the
    commands say which file is in the way."""
    from viewer.cli import main

    f = tmp_path / "taken"
    f.write_text("x")
    epd = str(DATA / "positions.epd")
    assert main(["scan", epd, "--out", str(f), "--quiet"]) == 2
    assert capsys.readouterr().err == f"pawnfence: scan failed: {f} is a file, not a folder\n"
    assert main(["render", WIKI, "--out", str(f / "y.png")]) == 2
    assert f"{f} is a file, not a folder" in capsys.readouterr().err


def test_check_seconds_refuses_an_integer_too_large_for_a_float() -> None:
    """``float(10**400)`` raises OverflowError, which ``check_seconds`` let through."""
    from logic.uci import check_seconds

    with pytest.raises(ValueError, match="must be finite"):
        check_seconds(10**400)
