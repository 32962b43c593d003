"""PGN games read for walking (``logic.games``): the scan's test games, python-chess as
the truth for every main line, and bad PGN of every kind -- each problem said naming the
game and the move, the rest of the file still usable, every error a ``ValueError``
that echoes the input."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import logic.games as games_mod
from logic.games import (
    GameError,
    GameFile,
    PgnError,
    first_proved,
    game_boards,
    is_pgn_name,
    parse_games,
    read_games,
)

DATA = Path(__file__).parent / "data" / "scan"
GAMES = DATA / "games.pgn"
SELFPLAY = DATA / "selfplay.pgn.gz"


def _truth(path: Path) -> list[chess.pgn.Game]:
    """Every game of ``path`` as python-chess reads it."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        out = []
        while (g := chess.pgn.read_game(fh)) is not None:
            out.append(g)
    return out


@pytest.mark.parametrize("path", [GAMES, SELFPLAY])
def test_the_scan_games_are_found_and_walk_as_python_chess_replays_them(path: Path) -> None:
    games = read_games(path)
    truth = _truth(path)
    assert len(games) == len(truth)
    for i, ref in enumerate(truth):
        try:
            record = games[i]
        except GameError:
            assert ref.errors, f"game {i + 1} refused though python-chess reads it cleanly"
            continue
        moves = [m.uci() for m in ref.mainline_moves()]
        if not ref.errors:
            assert list(record.moves) == moves
            assert record.notes == ()
        board = ref.board()
        for ply, (uci, san) in enumerate(zip(record.moves, record.sans, strict=True), 1):
            move = chess.Move.from_uci(uci)
            assert board.san(move) == san
            board.push(move)
            assert record.board_at(ply).fen() == board.fen()
        assert [b.fen() for b in game_boards(record)] == \
            [record.board_at(k).fen() for k in range(record.plies + 1)]


def test_the_fritz_kramnik_game_reaches_its_pawn_ending() -> None:
    record = read_games(GAMES)[4]
    assert record.title == "Deep Fritz – Kramnik, Vladimir, Brains in Bahrain Manama 2002"
    assert record.plies == 55
    assert record.move_label(46) == "23...Kxd8" and record.move_label(47) == "24. g4"
    assert record.move_label(0) == "start"
    end = record.board_at(53)  # 27. hxg5: kings and pawns only from here
    assert end.occupied == end.pawns | end.kings
    before = record.board_at(52)
    assert before.occupied != before.pawns | before.kings


def test_an_illegal_move_names_the_game_and_the_move_and_the_rest_stays_usable() -> None:
    games = read_games(GAMES)
    bad = games[5]
    assert bad.plies == 2 and bad.sans == ("e4", "e5")
    assert bad.notes == ("games.pgn game 6: move 2. 'Ke3' is illegal after 1...e5: the game "
                         "stops there (2 plies)",)
    with pytest.raises(GameError) as err:
        games[6]  # a FEN tag that is no position: this game only
    assert isinstance(err.value, ValueError)
    assert str(err.value) == ("games.pgn game 7: its FEN tag is not a position: "
                              "'8/8/9/8/8/8/8/8 w - - 0 1'")
    assert err.value.game == 7
    assert games[0].plies == 12 and games[4].plies == 55  # the others, before and after


def _one(text: str | bytes, i: int = 0) -> games_mod.GameRecord:
    return parse_games(text, "t.pgn")[i]


def test_a_file_cut_short_walks_up_to_its_last_whole_move() -> None:
    text = GAMES.read_text(encoding="utf-8")
    cut = text[:text.index("23. Rxd8+ Kxd8") + len("23. Rxd8+ Kx")]
    games = parse_games(cut, "cut.pgn")
    record = games[len(games) - 1]
    assert record.plies == 45 and record.sans[-1] == "Rxd8+"  # "Kx" is no move token
    assert record.notes == ("cut.pgn game 5: no result at the end (the file may be cut short): "
                            "walked up to 23. Rxd8+",)
    whole = parse_games(text[:text.index(" 24. g4")], "cut.pgn")[4]  # cut after a whole move
    assert whole.plies == 46
    assert whole.notes == ("cut.pgn game 5: no result at the end (the file may be cut short): "
                           "walked up to 23...Kxd8",)


def test_no_moves_variations_and_comments() -> None:
    empty = _one('[Event "empty"]\n[FEN "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n*\n')
    assert empty.plies == 0 and empty.notes == ("t.pgn game 1: no moves: its start position "
                                                "only",)
    text = ('[Event "v"]\n\n1. e4 {best by test [%clk 0:03:00]} e5 (1... c5 2. Nf3 (2. c3)) '
            '2. Nf3 $1 {a {brace} here} Nc6 *\n')
    record = _one(text)
    ref = chess.pgn.read_game(io.StringIO(text))
    assert record.moves == tuple(m.uci() for m in ref.mainline_moves())
    assert record.comments[0] == "best by test"
    assert record.notes == ("t.pgn game 1: 1 variation left out: the main line is walked",)
    illegal = _one("1. e4 e5 2. Qh8 Nc6 3. Nf3 *\n")
    assert illegal.plies == 2 and illegal.notes == (
        "t.pgn game 1: move 2. 'Qh8' is illegal after 1...e5: the game stops there "
        "(2 plies)",)


def test_a_file_that_is_not_utf8_is_read_as_latin1_and_said() -> None:
    data = '[Event "x"]\n[White "Müller, Jürgen"]\n\n1. e4 e5 *\n'.encode("latin-1")
    record = _one(data)
    assert record.tag("White") == "Müller, Jürgen" and record.plies == 2
    assert record.notes == ("t.pgn game 1: not UTF-8, read as Latin-1 (the PGN standard's "
                            "encoding)",)


def test_a_huge_game_is_refused_alone(monkeypatch) -> None:
    monkeypatch.setattr(games_mod, "MAX_GAME_BYTES", 200)
    text = ('[Event "a"]\n\n1. e4 e5 *\n\n[Event "huge"]\n\n' + "1. Nf3 Nf6 2. Ng1 Ng8 " * 30
            + "*\n\n[Event \"c\"]\n\n1. d4 *\n")
    games = parse_games(text, "h.pgn")
    assert len(games) == 3
    with pytest.raises(GameError, match=r"^h\.pgn game 2: \d[\d,]* bytes long, more than a "
                                        r"game can be \(200 bytes at most\): not read: "):
        games[1]
    assert games[0].plies == 2 and games[2].plies == 1


def test_a_long_game_is_cut_and_said(monkeypatch) -> None:
    monkeypatch.setattr(games_mod, "MAX_PLIES", 10)
    record = _one("1. Nf3 Nf6 2. Ng1 Ng8 " * 5 + "*\n")
    assert record.plies == 10
    assert record.notes == ("t.pgn game 1: longer than 10 plies: walked up to 5...Nf6",)


def test_files_that_cannot_be_read(tmp_path, monkeypatch) -> None:
    with pytest.raises(PgnError, match=r"^t\.pgn: no games in it"):
        parse_games("\n\n  \n", "t.pgn")
    damaged = tmp_path / "d.pgn.gz"
    damaged.write_bytes(gzip.compress(GAMES.read_bytes())[:200])
    with pytest.raises(PgnError, match="damaged compressed file"):
        read_games(damaged)
    with pytest.raises(OSError):
        read_games(tmp_path)  # a folder
    with pytest.raises(OSError):
        read_games(tmp_path / "missing.pgn")
    monkeypatch.setattr(games_mod, "MAX_PGN_BYTES", 100)
    with pytest.raises(PgnError, match=r"larger than 100 bytes"):
        read_games(GAMES)


def test_another_variant_is_refused() -> None:
    with pytest.raises(GameError, match=r"not a game of chess \(its Variant tag\): 'Atomic'"):
        _one('[Event "a"]\n[Variant "Atomic"]\n\n1. e4 *\n')


def test_games_split_as_lichess_splits_an_import() -> None:
    """A blank line then a tag starts a game (one blank line between tag pairs does not);
    a game without tags after the last one is its own."""
    text = ('[Event "a"]\n\n[Site "x"]\n\n1. e4 *\n\n[Event "b"]\n1. d4 d5 *\n\n\n'
            '[Event "c"]\n\n1. c4 *\n')
    games = parse_games(text, "s.pgn")
    assert [g.tag("Event") for g in games] == ["a", "b", "c"]
    assert games[0].tag("Site") == "x"
    assert isinstance(games, GameFile) and games.parsed == 3
    games[0]
    assert games.parsed == 3  # kept


def test_a_byte_order_mark_starts_no_game_of_its_own() -> None:
    games = parse_games(b"\xef\xbb\xbf" + GAMES.read_bytes(), "bom.pgn")
    assert len(games) == 7
    assert games[0].tag("Event") == "pawnfence scan corpus: paper-12"
    assert games[1].tag("Event") == "pawnfence scan corpus: paper-16"


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=60), st.integers(1, 3))
def test_random_games_round_trip_through_python_chess(picks: list[int], count: int) -> None:
    """Games python-chess writes (random legal main lines, several to a file) read back
    move for move."""
    out = []
    for n in range(count):
        board, game = chess.Board(), chess.pgn.Game()
        game.headers["Event"] = f"random {n}"
        node: chess.pgn.GameNode = game
        for p in picks[n::count] or picks:
            moves = list(board.legal_moves)
            if not moves:
                break
            move = moves[p % len(moves)]
            node = node.add_variation(move)
            board.push(move)
        out.append(game)
    games = parse_games("\n\n".join(str(g) for g in out), "r.pgn")
    assert len(games) == count
    for record, ref in zip(games, out, strict=True):
        assert list(record.moves) == [m.uci() for m in ref.mainline_moves()]
        assert record.notes == ()


def test_heading_and_names() -> None:
    games = read_games(GAMES)
    assert games.heading(4) == "game 5: Deep Fritz – Kramnik, Vladimir, Brains in Bahrain " \
                               "Manama 2002"
    assert games.heading(5) == "game 6: illegal move"
    assert is_pgn_name("a/B.PGN") and is_pgn_name("x.pgn.gz") and not is_pgn_name("x.epd")
    assert first_proved([(0, None), (1, False), (2, True), (3, True)]) == 2
    assert first_proved([(0, None), (1, False)]) is None
