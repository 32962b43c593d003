"""KPK: the bitbase against Syzygy on every legal position, the wiki's rules measured
exhaustively against the bitbase, and the CLI's KPK output."""

from __future__ import annotations

import json

import chess
import chess.syzygy
import pytest

from logic import kpk, kpk_rules
from logic.assets import asset_path
from viewer.cli import main


def test_shipped_bitbase_is_a_fresh_build() -> None:
    shipped = asset_path("kpk.bin").read_bytes()
    assert len(shipped) == kpk.SIZE // 8 <= 25 * 1024
    assert kpk.build() == shipped


@pytest.mark.slow
@pytest.mark.parametrize("strong", [chess.WHITE, chess.BLACK], ids=["white-pawn", "black-pawn"])
def test_bitbase_agrees_with_syzygy_everywhere(strong: chess.Color, syzygy_dir) -> None:
    """Every legal KPvK position (this colour's pawn, either side to move)."""
    checked = 0
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        board = chess.Board(None)
        for p in range(8, 56):
            for sk in range(64):
                for wk in range(64):
                    if len({p, sk, wk}) < 3:
                        continue
                    board.clear_board()
                    board.set_piece_at(p, chess.Piece(chess.PAWN, strong))
                    board.set_piece_at(sk, chess.Piece(chess.KING, strong))
                    board.set_piece_at(wk, chess.Piece(chess.KING, not strong))
                    for turn in chess.COLORS:
                        board.turn = turn
                        if not board.is_valid():
                            continue
                        wdl = tb.probe_wdl(board)
                        strong_wdl = wdl if turn == strong else -wdl
                        expected = "win" if strong_wdl > 0 else "draw"
                        assert kpk.probe_board(board) == expected, board.fen()
                        checked += 1
    assert checked == 331_352


def test_every_recognizer_in_use_is_exhaustively_sound() -> None:
    rows = kpk_rules.measure(kpk_rules.SOUND)
    assert rows[0]["positions"] == 165_676
    for row in rows:
        assert row["errors"] == 0, row
        assert row["fires"] > 0, row
    names = [r.name for r in kpk_rules.SOUND]
    assert "outside-square*" in names and "outside-square" not in names


def test_the_unsound_rules_are_really_wrong(syzygy_dir) -> None:
    """The three rules as the page writes them err; each reported example is wrong by
    Syzygy, not only by our bitbase."""
    rows = {r["rule"]: r for r in kpk_rules.measure(kpk_rules.RULES)}
    wrong = {name for name, r in rows.items() if r["errors"]}
    assert wrong == {"rook-trapped", "stops-defended", "outside-square"}
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tb:
        for name in wrong:
            row = rows[name]
            board = chess.Board(row["example"])
            truth = "win" if tb.probe_wdl(board) * (1 if board.turn else -1) > 0 else "draw"
            assert truth != row["claims"], name


def test_recognise_and_overlays_on_real_boards() -> None:
    board = chess.Board("8/8/8/8/8/7p/5k2/K7 w - - 0 1")  # Black's h-pawn: both mirrors
    assert kpk.probe_board(board) == "win"
    assert kpk_rules.recognise(board) is not None
    e4 = chess.Board("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")
    assert chess.SquareSet(kpk_rules.key_squares(e4)) == chess.SquareSet(
        [chess.D6, chess.E6, chess.F6])
    e5 = chess.Board("4k3/8/8/4p3/8/8/8/4K3 b - - 0 1")  # Black's 4th rank: d3, e3, f3
    assert chess.SquareSet(kpk_rules.key_squares(e5)) == chess.SquareSet(
        [chess.D3, chess.E3, chess.F3])
    w5 = chess.Board("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1")  # White's 5th rank: 6th and 7th
    assert chess.SquareSet(kpk_rules.key_squares(w5)) == chess.SquareSet(
        [chess.D6, chess.E6, chess.F6, chess.D7, chess.E7, chess.F7])
    h5 = chess.Board("4k3/8/8/7P/8/8/8/4K3 w - - 0 1")
    assert chess.SquareSet(kpk_rules.key_squares(h5)) == chess.SquareSet([chess.G7, chess.G8])
    square = kpk_rules.pawn_square(h5)
    assert square >> chess.E8 & 1 and not square >> chess.D8 & 1
    with pytest.raises(kpk.KPKError):
        kpk.normalise(chess.Board())


def test_cli_shows_kpk(capsys) -> None:
    assert main(["explain", "8/8/8/8/8/2k5/P7/K7 w - -", "--side", "white"]) == 0
    out = capsys.readouterr().out
    assert "KPK (exact bitbase): a draw for White" in out
    assert main(["explain", "4k3/8/8/8/4P3/8/8/4K3 w - -", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kpk"]["result"] == "draw" and data["kpk"]["side"] == "white"
    assert main(["explain", "8/8/8/8/7k/8/P7/K7 w - -", "--json"]) == 0  # outside the square
    data = json.loads(capsys.readouterr().out)
    assert data["kpk"] == {"result": "win", "side": "white", "rule": "outside-square*",
                           "rule_text": kpk_rules.rule_text("outside-square*")}


@pytest.mark.parametrize("fen", [
    "4k3/8/8/8/8/8/8/K2P4 w - - 0 1",  # a white pawn on the 1st rank (read a negative index)
    "3Pk3/8/8/8/8/8/8/K7 w - - 0 1",  # ... on the 8th
    "4k3/8/8/8/8/8/8/K2p4 w - - 0 1",  # a black pawn on the 1st (an IndexError)
    "4k3/8/8/8/8/8/8/K2p4 b - - 0 1",  # (answered "win")
    "8/8/8/8/8/8/1P6/Kk6 w - - 0 1",  # kings adjacent (answered "draw")
    "8/8/8/8/3k4/4P3/8/4K3 w - - 0 1",  # the side not to move in check
])
def test_probe_board_rejects_illegal_boards(fen: str) -> None:
    board = chess.Board(fen)
    with pytest.raises(kpk.KPKError, match="illegal position") as info:
        kpk.probe_board(board)
    assert fen in str(info.value)
    with pytest.raises(kpk.KPKError):
        kpk_rules.recognise(board)
    assert kpk_rules.summary(board) is None  # the viewer's and the CLI's entry: no answer
