"""``pawnfence scan``: planted cases in the right categories, malformed input logged,
a killed scan resumed without loss or repetition, and the Dask run equal to the local one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from logic.tools.scan import scan
from tests.waiting import HANG
from viewer.cli import main

DATA = Path(__file__).parent / "data" / "scan"
INPUTS = [str(DATA / "games.pgn"), str(DATA / "positions.epd"), str(DATA / "positions.epd.gz")]
FAKE = str(DATA / "fake_engine.py")
ROOT = Path(__file__).resolve().parent.parent


def rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def by_fen(out: Path) -> dict[str, dict]:
    return {chess.Board(r["fen"]).epd(): r for r in rows(out)}


def test_local_scan_without_engine(tmp_path) -> None:
    summary = scan(INPUTS, tmp_path, jobs=1, progress=None)
    found = by_fen(tmp_path)
    d12 = found["4k3/8/5p2/p1p1p1p1/P1P1PPP1/2P5/8/3K4 w - -"]
    assert d12["categories"] == ["methods-disagree"]
    assert d12["source"]["game"] == 1 and d12["source"]["ply"] == 0
    assert found["5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - -"]["categories"] == ["methods-disagree"]
    # Fritz - Kramnik reaches the pawn ending after 26...Bxg5 27.hxg5 (ply 53)
    fk = [r for r in rows(tmp_path) if r["source"].get("White") == "Deep Fritz"]
    assert fk and min(r["source"]["ply"] for r in fk) == 53
    assert len({r["key"] for r in rows(tmp_path)}) == summary["positions"]  # deduplicated
    log = (tmp_path / "errors.log").read_text()
    assert "game 6" in log and "illegal san" in log
    assert "game 7" in log and "FEN" in log
    assert log.count("game 7") == 1  # python-chess's note and the bad header: one line
    assert "positions.epd:6" in log and "positions.epd.gz:7" in log
    suspects = (tmp_path / "suspects.epd").read_text().splitlines()
    assert all('c0 "' in s and 'id "' in s for s in suspects)


def test_engine_categories_with_a_misjudging_engine(tmp_path) -> None:
    scan(INPUTS, tmp_path, engine=FAKE, engine_time=0.01, jobs=1, progress=None)
    wiki = by_fen(tmp_path)["4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - -"]
    assert "claims-blocked-engine-wins" in wiki["categories"]  # +9.00 against a blockage
    assert wiki["engine"]["cp"] == 900


def test_a_crashing_engine_is_recorded_not_fatal(tmp_path) -> None:
    summary = scan([str(DATA / "positions.epd")], tmp_path, engine=f"{FAKE}", jobs=1,
                   progress=None, engine_time=0.01)
    assert summary["positions"] > 0
    crash = tmp_path / "crash"
    scan([str(DATA / "positions.epd")], crash, engine=str(DATA / "crash_engine.sh"), jobs=1,
         progress=None)
    assert all("error" in r["engine"] for r in rows(crash))


def test_stockfish_finds_the_drawish_rook_pawn(tmp_path) -> None:
    from viewer.model.analysis import default_engine

    engine = default_engine()
    if engine is None:
        pytest.skip("no stockfish (.ci/run installs Debian's stockfish)")
    scan([str(DATA / "positions.epd")], tmp_path, engine=engine, engine_time=0.05, jobs=1,
         progress=None)
    draw = by_fen(tmp_path)["8/8/8/8/8/k7/P7/K7 w - -"]
    # the engine finds it drawish; the paper and the flood miss it, the extended method's
    # x3 (the rook pawn can never be forced to promote) recognises it
    assert draw["engine"]["mate"] is None and abs(draw["engine"]["cp"]) <= 50
    assert not draw["verdicts"]["paper"]["white"]["blocked"]
    assert not draw["verdicts"]["flood"]["white"]["blocked"]
    assert draw["verdicts"]["extended"]["white"]["blocked"]
    assert "drawish-with-edge-not-detected" not in draw["categories"]


@pytest.mark.slow
def test_killed_scan_resumes_without_loss_or_repetition(tmp_path) -> None:
    out = tmp_path / "out"
    reference = tmp_path / "ref"
    scan(INPUTS, reference, jobs=1, progress=None)
    total = len(rows(reference))
    cmd = [sys.executable, "-m", "viewer.cli", "scan", *INPUTS, "--out", str(out), "--jobs", "1",
           "--engine", FAKE, "--engine-time", "0.01", "--quiet"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    slow = cmd.copy()
    slow[slow.index("--engine") + 1] = str(DATA / "slow_engine.sh")
    proc = subprocess.Popen(slow, cwd=ROOT, env=env)
    deadline = time.time() + HANG
    while time.time() < deadline:
        f = out / "results.jsonl"
        if f.is_file() and len(f.read_text().splitlines()) >= 5:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = len((out / "results.jsonl").read_text().splitlines())
    assert 0 < partial < total
    with open(out / "results.jsonl", "a") as fh:  # a torn line, as if killed mid-write
        fh.write('{"key": "torn')
    summary = scan(INPUTS, out, engine=str(DATA / "slow_engine.sh"), engine_time=0.01, jobs=1,
                   progress=None)
    assert summary["resumed"] == partial and summary["classified"] == total - partial
    final = rows(out)
    assert len(final) == total and len({r["key"] for r in final}) == total
    assert [r["key"] for r in final] == [r["key"] for r in rows(reference)]


def test_dask_run_equals_local_run(tmp_path) -> None:
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local", tmp_path / "dask"
    scan(INPUTS, local, jobs=1, progress=None)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        scan(INPUTS, remote, dask_address=cluster.scheduler_address, progress=None,
             shard_size=10)
    assert (local / "results.jsonl").read_text() == (remote / "results.jsonl").read_text()
    assert (local / "suspects.epd").read_text() == (remote / "suspects.epd").read_text()


def test_scan_cli_summary(tmp_path, capsys) -> None:
    assert main(["scan", *INPUTS, "--out", str(tmp_path), "--jobs", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "methods-disagree" in out and "malformed" in out


def test_scan_fails_on_input_it_cannot_read_but_keeps_the_rest(tmp_path, capsys) -> None:
    """A missing input or a damaged ``.gz`` is a failure of the command (status 2, named
    on stderr), not only a line of errors.log; the inputs it could read are scanned and
    kept.  An engine that does not exist is refused before anything runs."""
    cut = tmp_path / "cut.epd.gz"
    cut.write_bytes((DATA / "positions.epd.gz").read_bytes()[:60])
    out = tmp_path / "out"
    args = ["scan", str(DATA / "positions.epd"), str(tmp_path / "none.pgn"), str(cut),
            "--out", str(out), "--quiet"]
    assert main(args) == 2
    got = capsys.readouterr()
    assert "none.pgn: cannot read" in got.err and "cut.epd.gz" in got.err
    assert rows(out) and int(got.out.split()[0]) == len(rows(out))
    assert main(["scan", str(DATA / "positions.epd"), "--out", str(tmp_path / "e"),
                 "--engine", str(tmp_path / "no-engine"), "--quiet"]) == 2
    assert "no such program" in capsys.readouterr().err and not (tmp_path / "e").exists()


@pytest.mark.slow
def test_scan_benchmark_reports_throughput_and_overhead(capsys) -> None:
    assert main(["bench", "--scan", str(DATA / "selfplay.pgn.gz"), "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["plies"] > 1000 and r["positions"] > 0 and r["positions_per_s"] > 0
    assert "overhead_pct" in r


def test_epd_lines_that_are_not_kings_and_pawns_are_counted_and_logged(tmp_path, capsys
                                                                       ) -> None:
    """A well-formed EPD line without pawns, or with other pieces, is no position to
    scan, and is never dropped silently: the summary counts them and errors.log names
    each."""
    epd = tmp_path / "mixed.epd"
    epd.write_text("8/8/8/8/8/8/4P3/4K2k w - -\n"       # scanned
                   "8/3k4/8/8/8/3K4/8/8 w - -\n"         # no pawns
                   "8/8/8/8/8/8/4P3/4KN1k w - -\n")      # a knight
    out = tmp_path / "out"
    assert main(["scan", str(epd), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "1 positions" in text and "2 EPD lines skipped (not kings and pawns)" in text
    log = (out / "errors.log").read_text()
    assert "mixed.epd:2: skipped, not kings and pawns (no pawns)" in log
    assert "mixed.epd:3: skipped, not kings and pawns (other pieces)" in log
    summary = scan([str(epd)], out, progress=None)
    assert summary["skipped"] == 2 and summary["errors"] == 0
