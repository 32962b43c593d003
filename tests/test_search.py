"""The K+P search: move generation against python-chess, paper Figure 4 on the
fortress diagrams, Fine #70 (the transposition table), and Syzygy as truth."""

from __future__ import annotations

import json
import random

import chess
import chess.syzygy
import pytest
from hypothesis import given, settings

from logic.diagrams import load_diagrams
from logic.search import DECISIVE, Searcher, from_board, search_board
from tests.strategies import kp_boards, random_material_board
from viewer.cli import main

FORTRESSES = ["paper-5", "paper-10", "paper-12", "paper-16", "wiki-1"]


@settings(max_examples=300, deadline=None)
@given(kp_boards(rams=False))
def test_moves_and_make_match_python_chess(board: chess.Board) -> None:
    pos = from_board(board)
    mine = Searcher.moves(pos)
    legal = [m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)]
    assert sorted((m & 63, (m >> 6) & 63) for m in mine) == sorted(
        (m.from_square, m.to_square) for m in legal)
    for m in mine:
        if m >> 12 == 3:
            continue
        move = chess.Move(m & 63, (m >> 6) & 63)
        board.push(move)
        after = Searcher.make(pos, m)
        assert after[:5] == from_board(board)[:5]
        board.pop()


@pytest.mark.parametrize("diagram_id", FORTRESSES)
def test_fortresses_score_zero_with_detection_and_an_edge_without(diagram_id: str) -> None:
    board = next(d for d in load_diagrams() if d.id == diagram_id).board()
    on = search_board(board, depth=3)
    off = search_board(board, depth=3, blockage=False)
    assert on.score == 0 and on.blockages > 0
    assert off.score_white >= 100  # White's extra pawn shows without the detector


@pytest.mark.slow
def test_fine_70_finds_kb1() -> None:
    """Diagram 1 (Fine #70): only 1. Kb1 wins; a transposition table sees it."""
    board = chess.Board("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1")
    r = search_board(board, depth=30)
    assert r.pv[0] == "a1b1"
    assert r.score >= 150


@pytest.mark.parametrize("table", ["KPvKP", "KPPvK"])
def test_decisive_scores_agree_with_syzygy(table: str, syzygy_dir) -> None:
    """At depth 4 a decisive score (a win or a loss for the side to move) never contradicts
    the table, with the detector on and off."""
    rng = random.Random(table)
    white, black = table.split("v")
    decisive = 0
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        for _ in range(150):
            board = random_material_board(rng, white[1:], black[1:].lower(), playable=True)
            wdl = tb.probe_wdl(board)
            for blockage in (True, False):
                r = search_board(board, depth=4, blockage=blockage)
                if r.score >= DECISIVE:
                    assert wdl > 0, (board.fen(), r.score, wdl)
                    decisive += 1
                elif r.score <= -DECISIVE:
                    assert wdl < 0, (board.fen(), r.score, wdl)
                    decisive += 1
                if wdl == 0:
                    assert abs(r.score) < DECISIVE
    assert decisive > 20


def test_search_cli_json_and_errors(capsys) -> None:
    assert main(["search", "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - -", "--depth", "3",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"score_cp", "mate", "depth", "nodes", "nps", "blockages", "pv"}
    assert data["score_cp"] == 0 and data["depth"] == 3 and data["blockages"] > 0
    assert main(["search", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]) == 2
    assert "kings and pawns only" in capsys.readouterr().err
    # an illegal position: the reason, and the input as given (not a cleaned-up FEN)
    assert main(["search", "4k3/8/8/8/8/8/4P3/4K3 w KQkq -", "--depth", "3"]) == 2
    assert "illegal position (bad castling rights): '4k3/8/8/8/8/8/4P3/4K3 w KQkq -'" in \
        capsys.readouterr().err
    assert main(["search", "8/" * 3000]) == 2  # python-chess quotes it all: cut
    assert len(capsys.readouterr().err) < 400
    assert main(["search", "8/8/8/8/8/8/4P3/k3K3 w - - 0 1"]) == 0  # KPK: a bitbase move
    assert "\npv e1" in capsys.readouterr().out
    assert main(["search", "4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", "--depth", "2"]) == 0  # stalemate
    assert "pv - (no legal move)" in capsys.readouterr().out


def test_the_search_takes_only_static_methods() -> None:
    """``method="exact"`` raised an empty NotImplementedError (at the first interior node
    asked, or not at all on a board decided at the root)."""
    from logic.registry import DetectError

    for fen in ("4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"):
        for method in ("exact", "bogus"):
            with pytest.raises(DetectError, match=f"'{method}'.*paper, flood"):
                search_board(chess.Board(fen), depth=2, method=method)


@pytest.mark.parametrize("fen", [
    "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1",  # the review's: score 9900 with no move
    "8/8/8/8/8/2k5/4P3/4K3 b - - 0 1",
    "8/8/8/8/8/8/2k1p3/4K3 b - - 0 1",
    "8/8/8/8/8/8/2k1p3/4K3 w - - 0 1",
    "8/4P3/8/8/8/8/8/k3K3 w - - 0 1",  # the move is the promotion
    "8/8/8/8/8/8/8/k3K3 w - - 0 1",  # bare kings
])
@pytest.mark.parametrize("limit", [{"depth": 1}, {"depth": 3}, {"seconds": 0.05}])
def test_a_root_decided_by_the_bitbase_still_gets_a_move(fen: str, limit: dict) -> None:
    """The KPK bitbase (or no pawns) scored the root before any move was stored: the
    principal variation was empty though the side to move had moves.  Its first move must
    be legal and keep the bitbase's result for the side to move."""
    from logic import kpk

    board = chess.Board(fen)
    r = search_board(board, **limit)
    assert r.pv, fen
    move = chess.Move.from_uci(r.pv[0])
    assert move in board.legal_moves
    if not board.pawns:
        return
    before = kpk.probe_board(board)
    board.push(move)
    if move.promotion:
        assert r.score >= DECISIVE
    else:  # (a capture of the pawn leaves a draw)
        assert (kpk.probe_board(board) if board.pawns else "draw") == before, (fen, r.pv)


@pytest.mark.parametrize("fen, why", [
    ("8/8/8/8/8/8/1P6/Kk6 w - - 0 1", "opposite check"),  # kings adjacent
    ("4k3/8/8/8/8/8/8/K2P4 w - - 0 1", "pawns on backrank"),
    ("4k3/8/8/8/8/p7/8/KP6 w - - 0 1", "pawns on backrank"),
    ("8/8/8/8/3k4/4P3/8/4K3 w - - 0 1", "opposite check"),  # the side not to move in check
])
def test_the_search_rejects_illegal_boards(fen: str, why: str, capsys) -> None:
    """An illegal K+P board was searched (score 0) while detect and the exact prover reject
    it: the search raises its ValueError echoing the FEN, and the CLI says so."""
    from logic.search import SearchError

    with pytest.raises(SearchError, match=why) as info:
        search_board(chess.Board(fen), depth=2)
    assert repr(fen) in str(info.value)
    assert main(["search", fen, "--depth", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pawnfence: illegal position") and why in err


def test_experiment_prints_table_1(capsys, tmp_path) -> None:
    assert main(["experiment", "--time", "0.05", "--limit", "3", "--out", str(tmp_path),
                 "--quiet", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "Blockage det." in out and "Overhead" in out
    on = next(line for line in out.splitlines() if line.startswith("On (paper)"))
    assert int(on.split()[3].replace(",", "")) > 0  # blockages detected
    assert any(line.startswith("On (flood)") for line in out.splitlines())


def test_experiment_speed_needs_time_and_bad_lines_are_counted(capsys, tmp_path) -> None:
    """Positions decided at the root take no measurable time: their speed is "-" (None in
    the JSON), not nodes over a rounded 0 s; a skipped line and a repeated position are
    said, and the header counts the positions run."""
    from logic.tools.experiment import table

    rows = [{"runs": {s: {"nodes": 1, "blockages": 0, "score": 0, "depth": 1,
                          "elapsed": 3e-5} for s in ("off", "paper")}}]
    t = table(rows, ["off", "paper"])
    assert t["off"]["nps"] is None and t["paper"]["overhead"] is None
    f = tmp_path / "in.epd"
    kpk = "8/8/8/8/8/8/4P3/k3K3 w - - 0 1"
    f.write_text(f"\ufeff{kpk}\n{kpk}\nnot a position\n", encoding="utf-8")
    assert main(["experiment", str(f), "--methods", "paper", "--time", "0.05", "--out",
                 str(tmp_path / "o"), "--quiet", "--jobs", "1"]) == 0
    got = capsys.readouterr()
    assert "1 line skipped" in got.err
    lines = got.out.splitlines()
    assert lines[0].startswith(f"1 positions of {f} (1 repeated, run once)")
    off = lines[2].split()
    assert off[0] == "Off" and off[-2:] == ["-", "-"]


def test_experiment_markdown_beside_the_paper_with_exact(capsys, tmp_path) -> None:
    assert main(["experiment", "--time", "0.05", "--every", "40", "--out", str(tmp_path),
                 "--quiet", "--jobs", "1", "--exact", "0.3", "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| Blockage det.") and "0.00 exact-refuted" in lines[0]
    assert lines[2].startswith("| paper, On | 3,118 (10 s) | 24,474,565,168")
    ours = [ln.split(" | ") for ln in lines if ln.startswith("| ours")]
    assert [r[0] for r in ours] == ["| ours, Off", "| ours, On (paper)", "| ours, On (flood)",
                                    "| ours, On (extended)"]
    assert all(r[1] == "3 (0.05 s)" for r in ours)  # 119 positions, every 40th
    assert all(r[8] == "0" for r in ours)  # no 0.00 that exact refutes


@pytest.mark.slow
def test_decisive_master_games_no_draw_exact_refutes(tmp_path, capsys) -> None:
    """Detection must not turn wins into draws: on a sample of the decisive master-game
    set, no 0.00 of any setting is refuted by an exact breakthrough."""
    from tests.conftest import SHARED

    path = SHARED / "corpora" / "master-pawn-endings-decisive.epd"
    if not path.is_file():
        pytest.skip(f"{path} not found (the project's ../shared/corpora)")
    assert main(["experiment", str(path), "--time", "0.1", "--every", "60", "--out",
                 str(tmp_path), "--quiet", "--jobs", "2", "--exact", "0.5", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)["table"]
    assert table["off"]["positions"] == 8
    assert all(c["exact_refutes"] == 0 for c in table.values())


def test_bench_search_times_one_tree_per_setting() -> None:
    """``bench --search``: every setting searches each position to the same depth (the
    one detection off reaches), so "off" and a method's search differ only by what the
    method decides; no position chosen is blocked at the root; the GC is back on."""
    import gc

    import logic
    from logic.tools.bench import measure_search

    boards = [chess.Board(fen) for fen in (
        "4k3/2p5/1p2p1p1/p1p1P1P1/P1P3p1/1P6/5PK1/8 b - - 0 1",  # paper 3: left out
        "8/pp3k2/2p4p/3p1pp1/3P4/1PP2PPP/P3K3/8 w - - 0 37",
        "6k1/pp3ppp/8/3p4/8/1P2P1P1/P2K1P1P/8 b - - 0 24")]
    r = measure_search(boards, 0.05, rounds=2)
    assert set(r) == {"off", *logic.STATIC_METHODS}
    n = int(r["off"]["positions"])
    assert 1 <= n <= 2 and all(t["positions"] == n for t in r.values())
    assert len({t["depths"] for t in r.values()}) == 1  # one depth per position for all
    assert r["off"]["blockages"] == 0 and r["off"]["overhead_pct"] == 0
    for t in r.values():
        assert t["nodes"] > 0 and t["nps"] == pytest.approx(t["nodes"] / t["seconds"])
    assert gc.isenabled()


@pytest.mark.slow
def test_the_search_asks_no_blockage_where_en_passant_is_pending(capsys) -> None:
    """Figure 4's question at a node where the side to move may capture en passant was
    answered from the pawn structure alone: the search scored 0.00 a position whose own
    line promotes (1. dxc6 e.p.).  It now finds the win, as without detection."""
    fen = "7k/5p1p/3p1P1P/2pP4/p1P5/P7/2P1K3/8 w - c6 0 1"
    assert main(["search", fen, "--depth", "17", "--json"]) == 0
    on = json.loads(capsys.readouterr().out)
    assert main(["search", fen, "--depth", "17", "--json", "--no-blockage"]) == 0
    off = json.loads(capsys.readouterr().out)
    assert on["score_cp"] > 500 and on["score_cp"] == off["score_cp"]
