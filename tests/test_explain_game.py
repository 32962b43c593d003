"""``pawnfence explain --game``: a game's per-ply table and JSON lines agree, ply by ply,
with ``explain`` and ``explain --all`` on the ply's position (the scan's test games)."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from logic.games import read_games
from logic.tools.game_cmd import NOT_YET, cell_text
from tests.test_cli import run

GAMES = Path(__file__).parent / "data" / "scan" / "games.pgn"


@pytest.mark.parametrize("index, method", [(1, "paper"), (2, "flood"), (4, "extended")])
def test_json_lines_agree_with_explain_on_every_ply(index: int, method: str) -> None:
    """One line per ply: classify's object for its position, its ply and SAN -- and each
    verdict is what ``explain FEN --json`` says on that position."""
    code, text = run("explain", "--game", str(GAMES), "--game-index", str(index), "--json",
                     "--method", method)
    assert code == 0
    record = read_games(GAMES)[index - 1]
    lines = [json.loads(line) for line in text.splitlines()]
    assert [d["ply"] for d in lines] == list(range(record.plies + 1))
    assert [d["san"] for d in lines] == [None, *record.sans]
    for d in lines:
        assert d["fen"] == record.board_at(d["ply"]).fen()
        code, one = run("explain", d["fen"], "--json", "--method", method)
        assert code == 0
        verdicts = {v["side"]: v for v in json.loads(one)["verdicts"]}
        for side in ("white", "black"):
            assert (d[side]["blocked"], d[side]["rule"]) == \
                (verdicts[side]["blocked"], verdicts[side]["rule"]), (d["ply"], side)


def test_the_table_agrees_with_explain_all_on_every_ply() -> None:
    """The table's cells are ``explain --all``'s verdicts for the ply's position (the exact
    prover proves this game's positions in milliseconds: its cells are stable)."""
    code, text = run("explain", "--game", str(GAMES), "--game-index", "1")
    assert code == 0
    record = read_games(GAMES)[0]
    rows = [line for line in text.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == record.plies + 1
    for ply, row in enumerate(rows):
        code, out = run("explain", "--all", "--json", record.board_at(ply).fen())
        methods = json.loads(out)["methods"]
        cells = [c.strip() for c in row.split("|")[1:]]
        for side, part in zip(("white", "black"), cells, strict=True):
            want = []
            for m, sides in methods.items():
                cell = sides[side]
                mark = {"refuted": "!", "missed": "?"}.get(cell["disagrees"], "")
                if cell["status"] != "ok":
                    want.append(mark + cell["status"])
                elif not cell["blocked"]:
                    want.append(mark + ("breaks" if m == "exact" else "no"))
                else:
                    rule = cell["rule"].split()[-1]
                    want.append(mark + ("blocked" if m == "exact" else f"blocked {rule}"))
            assert part.split() == " ".join(want).split(), (ply, side)
    assert "White: first proved unable to win at ply 0 (start; exact)" in text
    assert "Black: first proved unable to win at ply 0 (start; exact)" in text


def test_a_game_with_pieces_says_so_until_its_pawn_ending() -> None:
    code, text = run("explain", "--game", str(GAMES), "--game-index", "5", "--exact-seconds",
                     "1")
    assert code == 0
    rows = [line for line in text.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == 56
    assert all(row.endswith(f"| {NOT_YET}") for row in rows[:53])
    assert all(NOT_YET not in row for row in rows[53:])
    assert rows[46].split()[:2] == ["46", "23...Kxd8"]
    # Black's pawns cannot get through from 27. hxg5 on: the exact prover proves it there
    assert "Black: first proved unable to win at ply 53 (27. hxg5; exact)" in text


def test_bad_games_and_options_are_said(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("explain", "--game", str(GAMES), "--game-index", "7")[0] == 2
    assert "games.pgn game 7: its FEN tag is not a position: '8/8/9/8/8/8/8/8 w - - 0 1'" \
        in capsys.readouterr().err
    code, text = run("explain", "--game", str(GAMES), "--game-index", "6", "--exact-seconds",
                     "0.5")
    assert code == 0 and len([ln for ln in text.splitlines() if ln[:4].strip().isdigit()]) == 3
    assert "games.pgn game 6: move 2. 'Ke3' is illegal after 1...e5" in capsys.readouterr().err
    assert run("explain", "--game", str(GAMES), "--game-index", "8")[0] == 2
    assert "--game-index 8: the file has 7 games" in capsys.readouterr().err
    assert run("explain", "--game", str(GAMES), chess.STARTING_FEN)[0] == 2
    assert "not two of them" in capsys.readouterr().err
    assert run("explain", "--game-index", "2", chess.STARTING_FEN)[0] == 2
    assert "--game-index applies only with --game" in capsys.readouterr().err
    assert run("explain", "--game", "missing.pgn")[0] == 2
    assert "cannot read missing.pgn" in capsys.readouterr().err


def test_cell_text() -> None:
    from logic.compare import Cell

    assert cell_text(Cell("paper", True, True, "ok", "paper 3.2", 0.0)) == "blocked 3.2"
    assert cell_text(Cell("flood", True, False, "ok", "wiki flood", 0.0, "missed")) == "?no"
    assert cell_text(Cell("paper", True, True, "ok", "paper 2.3", 0.0, "refuted")) == \
        "!blocked 2.3"
    assert cell_text(Cell("exact", True, False, "ok", "exact", 0.0)) == "breaks"
    assert cell_text(Cell("exact", True, False, "unknown", "exact", 0.0)) == "unknown"
    assert cell_text(None) == "…"
