"""The exact prover's horizon: where the whole game is too big, the forward search's
"X cannot force a promotion (or mate) within N plies" is a verdict of its own (status
``"horizon"``).  Sound against independent truth (the whole DAG's retrograde distances
and a brute-force AND-OR search), and shown by ``explain``, ``classify``, the judge,
the bench and the viewer's banner.  Every budget here is a count of work
(:class:`~logic.exact.WorkClock`), never wall time."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import chess
import pytest

import logic
from logic.exact import MIN_HORIZON, WorkClock, horizon_of
from logic.exact import prover as exact
from logic.exact.forward import ForwardSearch
from logic.tools.bench_exact import Case, Row, summarise
from logic.tools.judge import judge_categories, judge_note, judge_problem
from logic.vocab import Category, Status
from tests.strategies import random_material_board, random_near_fortress
from viewer.cli import main

#: an open master-game ending (``master-pawn-endings-drawn.epd``): its whole game is far
#: too big for a second, its forward search proves a horizon well within it
OPEN = "8/1pp5/p7/4k1p1/5p1p/2P2P1P/PP4P1/4K3 w - - 0 1"
#: the deepest horizon the brute force below confirms
BRUTE_PLIES = 9
#: the budget (work seconds) of the verdict tests: a horizon of at least MIN_HORIZON
SECONDS = 1.0


def _forces(board: chess.Board, x: chess.Color, n: int, memo: dict[Any, bool]) -> bool:
    """Brute force, independent of the prover: can X force, within ``n`` plies, a
    promotion by either side (X's counted only when its new piece cannot be taken at
    once by the defending king; taken, the game goes on) or the defender's mate?"""
    key = (board._transposition_key(), n)  # noqa: SLF001 (python-chess's own key)
    if key in memo:
        return memo[key]
    moves = list(board.legal_moves)
    if not moves:
        res = board.turn != x and board.is_check()
    elif n == 0:
        res = False
    elif board.turn == x:
        res = any(_after(board, m, x, n, memo) for m in moves)
    else:  # the defender promotes only when it must (any promotion counts for X)
        quiet = [m for m in moves if not m.promotion]
        res = all(_after(board, m, x, n, memo) for m in quiet)
    memo[key] = res
    return res


def _after(board: chess.Board, m: chess.Move, x: chess.Color, n: int,
           memo: dict[Any, bool]) -> bool:
    """X forces the target within ``n`` plies by playing ``m`` (either side's move)."""
    board.push(m)
    try:
        if not (m.promotion and board.turn != x):
            return _forces(board, x, n - 1, memo)
        takes = [t for t in board.legal_moves if t.to_square == m.to_square]
        if not takes:
            return True  # X's promotion stands
        if n < 2:
            return False
        board.push(takes[0])  # the defender takes the new piece (only its king can)
        try:
            return _forces(board, x, n - 2, memo)
        finally:
            board.pop()
    finally:
        board.pop()


def _boards(n: int) -> list[chess.Board]:
    rng = random.Random("horizon")
    kinds = (("P", ""), ("PP", ""), ("P", "p"))
    return [random_material_board(rng, *kinds[i % 3]) for i in range(n)]


@pytest.mark.parametrize(("method", "least"), [
    pytest.param("forward", (150, 50, 20), marks=pytest.mark.slow),
    pytest.param("auto", (40, 40, 35), marks=pytest.mark.slow)])
def test_a_horizon_is_never_deeper_than_the_whole_dags_distance(
        method: str, least: tuple[int, int, int]) -> None:
    """On 240 generated KPvK, KPPvK and KPvKP boards, both sides, a tiny budget (a count
    of work): wherever the call ends with a horizon N, the whole DAG (a retrograde
    solve, exact on every state) proves no forced target within N plies -- a blockage,
    or a breakthrough whose fastest line is longer than N -- and where N is small, a
    brute-force AND-OR search agrees.  (``auto`` proves most of these boards outright:
    fewer horizons to check.)"""
    checked = longer = brute = 0
    for board in _boards(240):
        for x in chess.COLORS:
            exact.clear_cache()
            r = exact.solve(board, x, method=method, max_seconds=0.005, pv=False,
                            clock=WorkClock())
            if r.status != "unknown" or r.horizon < 0:
                continue
            checked += 1
            exact.clear_cache()
            full = exact.solve(board, x, method="full", clock=WorkClock())
            assert full.status in ("blocked", "breaks"), (board.fen(), x)
            if full.status == "breaks":
                assert full.fastest and full.plies is not None, (board.fen(), x)
                assert r.horizon < full.plies, (board.fen(), x, r.horizon, full.plies)
                longer += 1
            if r.horizon <= BRUTE_PLIES:
                assert not _forces(board.copy(), x, r.horizon, {}), (board.fen(), x)
                brute += 1
    got = (checked, longer, brute)
    assert all(n >= k for n, k in zip(got, least, strict=True)), got


def test_the_brute_force_sees_the_distance_the_whole_dag_gives() -> None:
    """The independent search of the test above finds the target exactly at the whole
    DAG's distance, never a ply sooner (so a horizon it confirms means something)."""
    seen = 0
    for board in _boards(60):
        x = chess.WHITE
        full = exact.solve(board, x, method="full", clock=WorkClock())
        if full.status != "breaks" or full.plies is None or full.plies > 7:
            continue
        assert _forces(board.copy(), x, full.plies, {}), board.fen()
        assert not _forces(board.copy(), x, full.plies - 1, {}), board.fen()
        seen += 1
    assert seen >= 10


#: White mates in one ply with a pawn (1. g7#): a target that is no promotion
MATE_IN_ONE = "7k/5K1p/6P1/8/8/8/8/8 w - - 0 1"


def _rich_boards(n: int) -> list[chess.Board]:
    """White (X) to move or not, many pawns of both colours near each other and the
    kings: boards where promotions, pawn checks and mates lie within a few plies."""
    rng = random.Random("forward-rich")
    kinds = (("PPP", "pp"), ("PP", "ppp"), ("PPPP", "ppp"), ("PPPPP", "pppp"))
    out: list[chess.Board] = []
    while len(out) < n:
        board = (random_near_fortress(rng) if len(out) % 3 == 2
                 else random_material_board(rng, *kinds[len(out) % 4], playable=True))
        if not board.is_game_over():
            out.append(board)
    return out


@pytest.mark.parametrize("fen", [MATE_IN_ONE])
def test_a_pawn_mate_is_the_target(fen: str) -> None:
    """A mate by a pawn's check is found in one ply (only pawn moves are tried there),
    and within any more plies by a search that starts there (the position after the
    mate, D to move in check, is never taken for one out of reach)."""
    assert ForwardSearch(chess.Board(fen), lambda: False).deepen(4) == 1
    for n in range(1, 6):
        assert ForwardSearch(chess.Board(fen), lambda: False).wins(n), n


@pytest.mark.parametrize(("boards", "least"), [
    (40, (40, 150)), pytest.param(600, (900, 2200), marks=pytest.mark.slow)])
def test_the_forward_search_agrees_with_the_brute_force(
        boards: int, least: tuple[int, int]) -> None:
    """On generated boards rich in pawns (rams, levers, pawns on the seventh, boxed
    kings), the forward search's answer to "can X force the target within n plies" is
    the brute force's for every n up to 5, both answers well represented: its shortcuts
    (the last ply's pawn moves only, the defender's quiet refutation two plies from the
    end, targets out of reach by distance) cut nothing that matters."""
    yes = no = 0
    for board in _rich_boards(boards):
        memo: dict[Any, bool] = {}
        for n in range(6):  # a search of its own for each n: no shallower answer known
            want = _forces(board.copy(), chess.WHITE, n, memo)
            assert ForwardSearch(board, lambda: False).wins(n) == want, (board.fen(), n)
            yes, no = yes + want, no + (not want)
    assert yes >= least[0] and no >= least[1], (yes, no)


@pytest.mark.slow
def test_the_last_share_of_an_auto_call_deepens_the_forward_search() -> None:
    """Where the whole game is too big, an auto call ends with the horizon its forward
    search reached, deeper than its share of the time alone gives, time named."""
    board = chess.Board(OPEN)
    r = exact.solve(board, chess.WHITE, max_seconds=SECONDS, pv=False, clock=WorkClock())
    assert (r.status, r.blocked, r.ran_out) == ("unknown", None, "time")
    assert r.horizon >= MIN_HORIZON and r.seconds == SECONDS and r.nodes > 0
    alone = exact.solve(board, chess.WHITE, method="forward", max_seconds=SECONDS / 2,
                        pv=False, clock=WorkClock())
    assert alone.horizon <= r.horizon


def test_a_claimed_side_unproved_ends_with_a_horizon() -> None:
    """The claimed schedule (the restricted games first) keeps a forward search: where
    no game proves the claim within the budget, the call still ends with a horizon, from
    the last tenth of the time the search has alone."""
    r = exact.solve(chess.Board(OPEN), chess.WHITE, method="claimed", max_seconds=SECONDS / 2,
                    pv=False, clock=WorkClock())
    assert (r.status, r.ran_out) == ("unknown", "time")
    assert r.horizon >= MIN_HORIZON and r.nodes > 0


@pytest.fixture(scope="module")
def horizon_verdict() -> logic.Verdict:
    """The exact verdict of OPEN for White with a budget of SECONDS (work)."""
    method = logic.METHODS["exact"]
    old = method.clock
    method.clock = WorkClock
    try:
        v = method.decide_board(chess.Board(OPEN), chess.WHITE, ("horizon",), True,
                                max_seconds=SECONDS)
    finally:
        method.clock = old
    return v


def test_the_verdict_is_a_horizon_never_a_blockage(horizon_verdict: logic.Verdict) -> None:
    v = horizon_verdict
    n = v.detail.result.horizon
    assert (v.status, v.code, v.blocked) == (Status.HORIZON, "horizon", False)
    assert horizon_of(v.detail.result) == n >= MIN_HORIZON
    assert v.headline == (f"White cannot force a promotion within {n} plies (proved; the "
                          f"whole game is too big for {SECONDS:g} s)")
    assert v.reason.startswith("horizon: White cannot force a promotion that stands")
    fields = logic.METHODS["exact"].fields(v)
    assert {k: fields[k] for k in ("status", "plies", "proof", "pv", "ends")} == \
        {"status": "horizon", "plies": n, "proof": "forward", "pv": [], "ends": ""}
    step = next(s for s in v.steps if s.kind == "exact-forward")
    assert f"cannot force a promotion or mate within {n} plies" in step.text


def test_a_shallow_horizon_stays_unknown() -> None:
    """Below MIN_HORIZON plies the verdict says unknown (its horizon kept in the result)."""
    method = logic.METHODS["exact"]
    v = method.decide_board(chess.Board(OPEN), chess.WHITE, ("shallow",), False,
                            max_seconds=0.02)
    r = v.detail.result
    assert 0 <= r.horizon < MIN_HORIZON and horizon_of(r) is None
    assert (v.status, v.code) == ("unknown", "unknown")
    assert method.fields(v)["status"] == "unknown"


@pytest.mark.slow
def test_explain_and_classify_say_horizon(tmp_path) -> None:
    out = io.StringIO()
    assert main(["explain", OPEN, "--method", "exact", "--exact-seconds", str(SECONDS),
                 "--json"], out=out) == 0
    white = json.loads(out.getvalue())["verdicts"][0]
    assert (white["side"], white["status"], white["blocked"]) == ("white", "horizon", False)
    assert white["plies"] >= MIN_HORIZON
    out = io.StringIO()
    assert main(["explain", OPEN, "--method", "exact", "--exact-seconds", str(SECONDS)],
                out=out) == 0
    assert (f"=> White cannot force a promotion within {white['plies']} plies (proved; "
            f"the whole game is too big for {SECONDS:g} s)") in out.getvalue()
    f = tmp_path / "open.epd"
    f.write_text(OPEN + "\n")
    out = io.StringIO()
    assert main(["classify", str(f), "--method", "exact", "--exact-seconds", str(SECONDS)],
                out=out) == 0
    row = json.loads(out.getvalue().splitlines()[0])
    assert {k: row["white"][k] for k in ("status", "plies", "blocked")} == \
        {"status": "horizon", "plies": white["plies"], "blocked": False}


def test_the_judge_has_a_category_for_a_horizon() -> None:
    board = chess.Board(OPEN)
    verdicts = {m: {"white": {"blocked": False, "rule": "x"},
                    "black": {"blocked": False, "rule": "x"}} for m in ("paper", "flood")}
    judged = {"white": {"status": "horizon", "ms": 10.0, "plies": 13, "pv": []}}
    assert judge_categories(board, verdicts, judged) == [Category.EXACT_HORIZON]
    assert judge_problem(judged) == ""
    assert "white: exact horizon (no promotion within 13 plies)" in \
        judge_note(board, verdicts, judged)
    judged["white"]["status"] = "unknown"
    assert judge_categories(board, verdicts, judged) == []


def test_bench_counts_horizons_and_their_median() -> None:
    case = Case("t", OPEN, True, "")
    rows = [Row(case, "horizon", "forward", 1.0, 5, (), 12),
            Row(case, "horizon", "forward", 1.0, 5, (), 16),
            Row(case, "horizon", "forward", 1.0, 5, (), 13),
            Row(case, "unknown", "", 1.0, 5, ()), Row(case, "blocked", "gap", 1.0, 5, ())]
    s = summarise(rows)
    assert (s["horizon"], s["horizon_median"], s["unknown"], s["blocked"]) == (3, 13, 1, 1)
    assert s["settled_pct"] == pytest.approx(20.0)
    assert s["proof_from"] == {"blocked/gap": 1}


def test_the_viewer_banner_shows_the_horizon(horizon_verdict: logic.Verdict) -> None:
    from viewer.model.text import banner_text, frame_banner, side_summary

    v = horizon_verdict
    n = v.detail.result.horizon
    head, sub, kind = banner_text(v)
    assert head.startswith(f"White cannot force a promotion within {n} plies (proved;")
    assert sub.startswith("horizon:") and kind == "na"
    assert f"no promotion within {n} plies" in side_summary(v)
    banner = frame_banner(v)
    assert banner.head == head and "no blockage proved" not in banner.head
