"""The exact prover's memory: a counted budget (``max_bytes``, ``--exact-memory``, the
setting ``PAWNFENCE_EXACT_MEMORY``) past which a side is "unknown — memory", and a
``MemoryError`` inside the prover that becomes that side's "unknown — memory" while
``classify`` goes on with the next line.  Budgets are counts and the clocks are
:class:`~logic.exact.WorkClock`: nothing here depends on the machine's speed or memory."""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess
import pytest

import logic
from logic import exact
from logic.exact import MEMORY_ENV, MemoryBudgetError, WorkClock, next_budget, parse_memory
from logic.exact.budget import SOLVE_BYTES, default_memory, free_memory, memory_setting
from tests.conftest import ROOT
from tests.waiting import HANG
from viewer.cli import main

#: a KPK draw: each side's proof takes a handful of structures
KPK_DRAW = "4k3/8/4P3/4K3/8/8/8/8 w - - 0 1"
#: a wall of pawns with a few levers: thousands of structures (no quick proof)
PAPER_13 = "4k3/8/7p/p1p1p1p1/P1P1P1PP/7P/8/3K4 w - - 0 1"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def solve(fen: str, **kw: Any) -> exact.ExactResult:
    return exact.solve(chess.Board(fen), chess.WHITE, clock=WorkClock(), use_cache=False,
                       **kw)


# -- the option's values -----------------------------------------------------------------

@pytest.mark.parametrize("text, size", [("512M", 512 << 20), ("2G", 2 << 30), ("1.5g", 3 << 29),
                                        ("64KiB", 64 << 10), ("3 MB", 3 << 20),
                                        ("1000000", 1_000_000), (" 1T ", 1 << 40)])
def test_a_memory_size_is_read_with_its_unit(text: str, size: int) -> None:
    assert parse_memory(text) == size


@pytest.mark.parametrize("text", ["", "lots", "-1G", "0", "5", "1e9", "nan", "2X", "100iB",
                                  "2G2", "9" * 80])
def test_a_bad_memory_size_is_a_value_error_echoing_it(text: str) -> None:
    with pytest.raises(MemoryBudgetError) as info:
        parse_memory(text)
    assert isinstance(info.value, ValueError)
    assert repr(text if len(text) <= 60 else text[:60] + "…") in str(info.value)


@pytest.mark.parametrize("command", [
    ["explain", KPK_DRAW, "--method", "exact"],
    ["classify", "-", "--method", "exact"],
    ["render", KPK_DRAW, "--method", "exact", "--out", "x.png"],
    ["scan", "x.epd", "--judge", "exact"],
    ["bench", "--exact"],
])
def test_every_command_with_exact_seconds_refuses_a_bad_exact_memory(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([*command, "--exact-memory", "plenty"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--exact-memory" in err and "'plenty'" in err


def test_the_window_refuses_a_bad_exact_memory(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--exact-memory", "lots")[0] == 2
    assert "--exact-memory: expected a memory size such as 512M or 2G, got 'lots'" in \
        capsys.readouterr().err


def test_exact_memory_applies_only_where_the_prover_runs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "f.epd"
    f.write_text(KPK_DRAW + "\n")
    for command in (["explain", KPK_DRAW], ["classify", str(f)],
                    ["render", KPK_DRAW, "--out", str(tmp_path / "x.png")]):
        assert run(*command, "--exact-memory", "1G")[0] == 2
        assert "--exact-memory applies only with --method exact" in capsys.readouterr().err
    assert run("scan", str(f), "--exact-memory", "1G", "--out", str(tmp_path / "o"))[0] == 2
    assert "--exact-memory applies only with --judge exact" in capsys.readouterr().err
    assert run("bench", "--exact-memory", "1G")[0] == 2
    assert "--exact-memory does not apply" in capsys.readouterr().err


# -- the counted budget ------------------------------------------------------------------

def test_a_tiny_memory_budget_is_unknown_memory_deterministically() -> None:
    """Under a budget the count passes, the answer is "unknown" for memory, with the same
    counts every time; a budget that holds the proof gives the proof."""
    tiny = solve(PAPER_13, max_seconds=5, max_bytes=parse_memory("200K"))
    again = solve(PAPER_13, max_seconds=5, max_bytes=parse_memory("200K"))
    assert (tiny.status, tiny.ran_out) == ("unknown", "memory")
    assert 0 < tiny.structures <= 200 * 1024 // SOLVE_BYTES
    assert (again.structures, again.distinct, again.nodes) == \
        (tiny.structures, tiny.distinct, tiny.nodes)
    none = solve(KPK_DRAW, max_seconds=5, max_bytes=parse_memory("1K"))
    assert (none.status, none.ran_out, none.structures) == ("unknown", "memory", 0)
    enough = solve(KPK_DRAW, max_seconds=5, max_bytes=parse_memory("64M"))
    assert enough.status == "blocked"


def test_more_memory_is_more_work_and_time_still_bounds_it() -> None:
    small = solve(PAPER_13, max_seconds=5, max_bytes=parse_memory("1M"))
    large = solve(PAPER_13, max_seconds=5, max_bytes=parse_memory("4M"))
    assert small.ran_out == large.ran_out == "memory"
    assert large.structures > small.structures
    timed = solve(PAPER_13, max_seconds=0.05, max_bytes=parse_memory("1G"))
    assert timed.ran_out == "time"


def test_the_setting_is_the_budget_of_a_call_not_given_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MEMORY_ENV, "1K")
    assert memory_setting() == 1024
    assert solve(KPK_DRAW, max_seconds=5).ran_out == "memory"
    assert solve(KPK_DRAW, max_seconds=5, max_bytes=64 << 20).status == "blocked"
    monkeypatch.setenv(MEMORY_ENV, "a lot")
    with pytest.raises(MemoryBudgetError, match=f"{MEMORY_ENV}.*'a lot'"):
        solve(KPK_DRAW)
    monkeypatch.delenv(MEMORY_ENV)
    assert memory_setting() is None
    with pytest.raises(exact.ExactError, match="-1"):
        solve(KPK_DRAW, max_bytes=-1)


def test_the_default_is_a_share_of_the_free_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from logic.exact import budget

    monkeypatch.setattr(budget, "free_memory", lambda: 400 << 20)
    assert default_memory() == 200 << 20
    monkeypatch.setattr(budget, "free_memory", lambda: None)
    assert default_memory() == budget.FALLBACK_MEMORY


def test_the_free_memory_respects_an_address_space_limit() -> None:
    """In a child process under ``RLIMIT_AS``, the free memory is at most the room left
    under the limit."""
    code = ("import resource; from logic.exact.budget import free_memory; "
            "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.RLIM_INFINITY)); "
            "print(free_memory())")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=120)
    assert 0 < int(done.stdout) < 1 << 30
    free = free_memory()
    assert free is None or free > 0


def test_memory_ends_retries_and_is_worded() -> None:
    assert next_budget(10, ["memory"]).seconds is None
    assert "memory" in next_budget(10, ["memory"]).reason
    assert next_budget(10, ["memory", "time"]).seconds == 20  # the other side: more time
    board = chess.Board(PAPER_13)
    r = solve(PAPER_13, max_bytes=1024)
    v = exact.EXACT.verdict_of(board, chess.WHITE, r)
    assert v.headline.startswith("White: unknown — memory")
    assert "memory ran out" in v.reason
    from viewer.model.text import side_summary

    assert side_summary(v).startswith("White: unknown — memory")


# -- through the commands ----------------------------------------------------------------

def test_classify_and_explain_with_a_tiny_exact_memory(tmp_path: Path) -> None:
    f = tmp_path / "f.epd"
    f.write_text(f"{PAPER_13}\n{KPK_DRAW}\n")
    code, text = run("classify", str(f), "--method", "exact", "--exact-memory", "1K")
    rows = [json.loads(line) for line in text.splitlines()]
    assert code == 0 and len(rows) == 2
    for row in rows:
        for side in ("white", "black"):
            assert (row[side]["status"], row[side]["structures"]) == ("unknown", 0)
    assert MEMORY_ENV not in os.environ  # the setting lasts the command only
    code, text = run("explain", PAPER_13, "--method", "exact", "--exact-memory", "1K",
                     "--side", "white")
    assert code == 0 and "=> White: unknown — memory" in text
    f.write_text(f"{KPK_DRAW}\n")  # a memory verdict is not cached: the default proves it
    code, text = run("classify", str(f), "--method", "exact")
    assert json.loads(text)["white"]["status"] == "blocked"


# -- a MemoryError inside the prover ------------------------------------------------------

def _fail_first_solve(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the prover's first structure solve raise ``MemoryError``; the later ones
    work.  Returns the list the calls are counted in."""
    from logic.exact import dag, gap

    calls: list[int] = []
    real = dag.solve_structure

    def solve_structure(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError
        return real(*args)

    monkeypatch.setattr(dag, "solve_structure", solve_structure)
    monkeypatch.setattr(gap, "solve_structure", solve_structure)
    return calls


def test_a_memory_error_in_the_prover_is_unknown_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fail_first_solve(monkeypatch)
    r = solve(KPK_DRAW, max_seconds=5)
    assert (r.status, r.ran_out) == ("unknown", "memory") and calls
    assert solve(KPK_DRAW, max_seconds=5).status == "blocked"  # the next call works


def test_classify_goes_on_after_a_memory_error(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    _fail_first_solve(monkeypatch)
    f = tmp_path / "f.epd"
    f.write_text(f"{KPK_DRAW}\n{KPK_DRAW.replace(' w ', ' b ')}\n")
    code, text = run("classify", str(f), "--method", "exact")
    rows = [json.loads(line) for line in text.splitlines()]
    assert code == 0 and len(rows) == 2 and "error" not in rows[0]
    assert rows[0]["white"]["status"] == "unknown"  # the side whose proof failed
    assert rows[0]["black"]["status"] == "blocked"  # the other side, proved
    assert rows[1]["white"]["status"] == rows[1]["black"]["status"] == "blocked"


def test_explain_prints_the_verdict_after_a_memory_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_first_solve(monkeypatch)
    code, text = run("explain", KPK_DRAW, "--method", "exact", "--side", "white")
    assert code == 0 and "=> White: unknown — memory" in text


def test_the_viewer_proof_shows_unknown_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """The background proof's verdict after a ``MemoryError`` in the prover, and under a
    tiny memory setting, says "unknown — memory" (no error outcome)."""
    from viewer.model.proof import ProofJob

    _fail_first_solve(monkeypatch)
    job = ProofJob()
    try:
        job.start("t", chess.Board(KPK_DRAW), True, "exact")
        assert job.wait(HANG)
        first, second = job.take()
        assert first.error == "" and first.verdict is not None
        assert first.verdict.headline.startswith("White: unknown — memory")
        assert second.verdict is not None and second.verdict.code == "proved"
        monkeypatch.setattr(logic.METHODS["exact"], "max_bytes", 1024)
        job.start("u", chess.Board(PAPER_13), False, "exact")
        assert job.wait(HANG)
        outcomes = job.take()
        assert [o.verdict.headline.split(" —")[0] for o in outcomes if o.verdict] == \
            ["Black: unknown", "White: unknown"]
        assert all("unknown — memory" in o.verdict.headline for o in outcomes if o.verdict)
    finally:
        job.close()


# -- a real limit --------------------------------------------------------------------------

@pytest.mark.slow
def test_classify_under_an_address_space_limit_classifies_every_line(tmp_path: Path) -> None:
    """Under ``RLIMIT_AS`` a little above the process's start, ``classify --method exact``
    with a long time budget answers every line: the heavy one undecided (unknown or a
    horizon), the next proved."""
    f = tmp_path / "f.epd"
    f.write_text(f"{PAPER_13}\n{KPK_DRAW}\n")
    probe = subprocess.run([sys.executable, "-c", "import logic.tools.commands, viewer.cli; "
                            "print(open('/proc/self/status').read())"], cwd=ROOT,
                           capture_output=True, text=True, check=True, timeout=120)
    size = next(int(line.split()[1]) for line in probe.stdout.splitlines()
                if line.startswith("VmSize:")) * 1024
    limit = size + (200 << 20)

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    env.pop(MEMORY_ENV, None)
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "classify", str(f), "--method",
                           "exact", "--exact-seconds", "300"], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, preexec_fn=cap, env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == 2
    # undecided: "unknown", or the horizon the forward search proved before the memory
    # ran out (a proof of its own, whatever ended the budget)
    assert rows[0]["white"]["status"] in ("unknown", "horizon")
    assert rows[1]["white"]["status"] == "blocked"
