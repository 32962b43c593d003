"""``pawnfence scan --judge exact``: the exact prover judges the heuristics' claims and
the sides with more pawns; categories, figures, resumption and the Dask run."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

import logic
from logic.tools.judge import (
    JudgeConfig,
    judge_categories,
    judge_position,
    judge_problem,
    summarize,
)
from logic.tools.scan import scan
from tests.conftest import use_work_clock
from viewer.cli import main

DATA = Path(__file__).parent / "data" / "scan"
JUDGE_EPD = str(DATA / "judge.epd")
EDGE = JudgeConfig(5.0, "edge")


def rows(out: Path) -> dict[str, dict]:
    return {json.loads(line)["source"]["id"]: json.loads(line)
            for line in (out / "results.jsonl").read_text().splitlines()}


def static_verdicts(board: chess.Board) -> dict:
    return {m: {chess.COLOR_NAMES[c]: {"blocked": (v := logic.detect(board, c, method=m)).blocked,
                                       "rule": v.rule} for c in chess.COLORS}
            for m in logic.STATIC_METHODS}


@pytest.mark.slow
def test_judged_scan_categories_and_figures(tmp_path) -> None:
    summary = scan([JUDGE_EPD], tmp_path, jobs=1, progress=None, judge=EDGE)
    found = rows(tmp_path)
    fine = found["fine-70"]
    # Fine #70: White's extra pawn wins (1. Kb1!), no method claims a block: judged as an
    # edge pair, no category
    assert fine["exact"]["white"]["status"] == "breaks" and set(fine["exact"]) == {"white"}
    assert fine["exact"]["white"]["pv"][0] == "a1b1" and fine["categories"] == []
    d16 = found["paper-16"]
    assert d16["exact"]["white"]["status"] == "blocked"  # the paper's claim, confirmed
    assert d16["verdicts"]["paper"]["white"]["blocked"]
    cld = found["cld:141"]
    assert cld["exact"]["white"]["status"] == "blocked"
    assert not any(cld["verdicts"][m]["white"]["blocked"] for m in logic.STATIC_METHODS)
    assert cld["categories"] == ["exact-blocked-heuristic-misses"]
    j = summary["judge"]
    assert j["pairs"] == "edge" and j["exact"]["breaks"] == 1
    assert j["methods"]["paper"]["false_positives"] == 0
    assert j["methods"]["paper"]["confirmed"] >= 1
    # both edge sides exact proves blocked: paper-16 (paper sees it) and cld:141 (none)
    assert j["edge_sides_exact_blocked"] == 2 and j["methods"]["paper"]["recall"] == 0.5
    assert json.loads((tmp_path / "summary.json").read_text())["judge"] == j
    suspects = (tmp_path / "suspects.epd").read_text()
    assert "cld:141" in suspects and 'c2 "white: exact blocked; paper no (paper 3.1)' in suspects


@pytest.mark.slow
def test_a_false_claim_is_caught_with_the_line() -> None:
    """A planted heuristic false positive: White 'blocked' in Fine #70, where exact shows
    1. Kb1!: the category a bug would land in, and the breakthrough's line in SAN."""
    board = chess.Board("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - -")
    verdicts = static_verdicts(board)
    verdicts["paper"]["white"] = {"blocked": True, "rule": None}
    exact = judge_position(board, verdicts, JudgeConfig(30.0, "claimed"))
    assert set(exact) == {"white"} and exact["white"]["status"] == "breaks"
    assert exact["white"]["pv"][0] == "a1b1"
    assert judge_categories(board, verdicts, exact) == ["claims-blocked-exact-breaks"]
    s = summarize([{"fen": board.fen(), "verdicts": verdicts, "exact": exact}],
                  list(logic.STATIC_METHODS), recall=False)
    assert s["methods"]["paper"]["false_positives"] == 1 and s["methods"]["paper"]["recall"] is None


def test_claimed_pairs_judge_only_claims(tmp_path) -> None:
    scan([JUDGE_EPD], tmp_path, jobs=1, progress=None, judge=JudgeConfig(5.0, "claimed"))
    found = rows(tmp_path)
    assert found["paper-16"]["exact"]["white"]["status"] == "blocked"
    assert found["cld:141"]["exact"] == {}  # no method claims it: not judged


@pytest.mark.slow
def test_a_judged_scan_resumes_and_a_new_judge_redoes(tmp_path) -> None:
    first = scan([JUDGE_EPD], tmp_path, jobs=1, progress=None, judge=EDGE)
    again = scan([JUDGE_EPD], tmp_path, jobs=1, progress=None, judge=EDGE)
    assert again["resumed"] == first["positions"] == 3 and again["classified"] == 0
    other = scan([JUDGE_EPD], tmp_path, jobs=1, progress=None, judge=JudgeConfig(5.0))
    assert other["resumed"] == 0 and other["classified"] == 3  # other pairs: judged anew
    plain = scan([JUDGE_EPD], tmp_path, jobs=1, progress=None)
    assert plain["classified"] == 3 and "exact" not in rows(tmp_path)["cld:141"]


def test_malformed_exact_fields_are_named() -> None:
    good = {"status": "blocked", "ms": 1.5, "plies": None, "pv": []}
    assert judge_problem({"white": good}) == ""
    for bad in ({"white": {**good, "ms": 10**400}}, {"white": {**good, "ms": True}},
                {"white": {**good, "status": "won"}}, {"red": good}, [good],
                {"white": {**good, "pv": [1]}}):
        assert judge_problem(bad), bad


def test_every_keeps_a_sample(tmp_path) -> None:
    s = scan([JUDGE_EPD], tmp_path, jobs=1, progress=None, every=2)
    assert s["positions"] == 2 and set(rows(tmp_path)) == {"fine-70", "cld:141"}


@pytest.mark.slow
def test_scan_cli_judge(tmp_path, capsys) -> None:
    assert main(["scan", JUDGE_EPD, "--out", str(tmp_path), "--jobs", "1", "--quiet",
                 "--judge", "exact", "--judge-pairs", "edge", "--exact-seconds", "5"]) == 0
    out = capsys.readouterr().out
    assert "exact-blocked-heuristic-misses: 1" in out
    assert "paper: 2 claims, 0 false positives, 2 confirmed, 0 unknown, recall 1/2" in out
    assert "flood: 1 claims, 0 false positives, 1 confirmed, 0 unknown, recall 0/2" in out
    assert (tmp_path / "summary.json").is_file()


@pytest.mark.slow
def test_judged_dask_run_equals_local_run(tmp_path) -> None:
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local", tmp_path / "dask"
    scan([JUDGE_EPD], local, jobs=1, progress=None, judge=EDGE)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:  # the workers' proofs count work too
            client.run(use_work_clock)
        scan([JUDGE_EPD], remote, dask_address=cluster.scheduler_address, progress=None,
             shard_size=1, judge=EDGE)

    def settled(out: Path) -> dict:
        return {k: (r["verdicts"], r["categories"],
                    {s: e["status"] for s, e in r["exact"].items()})
                for k, r in rows(out).items()}

    assert settled(local) == settled(remote)
