"""Build the scan test corpus (run from the project root; needs /usr/games/stockfish):

    python tests/data/scan/make_games.py

* ``games.pgn``: Stockfish (0.05 s a move) plays on from planted king-and-pawn
  positions (FEN headers), plus DEEP FRITZ - Kramnik, Bahrain 2002, game 1, which reaches a
  pawn ending, plus two malformed games (an illegal move, a broken FEN header);
* ``positions.epd`` and ``positions.epd.gz``: planted positions and malformed lines;
* ``selfplay.pgn.gz``: 20 whole Stockfish games for the scan benchmark.

Planted cases (``PLANTED``): the paper's Diagrams 12 and 16 (the methods disagree), a
king-and-rook-pawn draw with White a pawn up that no method detects (drawish with an
edge, by Stockfish), and the wiki's fortress (blocked; the fake engine of the tests
claims a win there).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import chess
import chess.engine
import chess.pgn

HERE = Path(__file__).resolve().parent
PLANTED = {
    "paper-12": "4k3/8/5p2/p1p1p1p1/P1P1PPP1/2P5/8/3K4 w - - 0 1",
    "paper-16": "5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - - 0 1",
    "rook-pawn-draw": "8/8/8/8/8/k7/P7/K7 w - - 0 1",
    "wiki-1": "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1",
}
FRITZ_KRAMNIK = """[Event "Brains in Bahrain"]
[Site "Manama"]
[Date "2002.10.04"]
[Round "1"]
[White "Deep Fritz"]
[Black "Kramnik, Vladimir"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O Nxe4 5. d4 Nd6 6. Bxc6 dxc6 7. dxe5 Nf5
8. Qxd8+ Kxd8 9. Nc3 h6 10. b3 Ke8 11. Bb2 Be7 12. Rad1 a5 13. a4 h5 14. Ne2 Be6
15. c4 Rd8 16. h3 b6 17. Nfd4 Nxd4 18. Nxd4 c5 19. Nxe6 fxe6 20. Rxd8+ Kxd8
21. Bc1 Kc8 22. Rd1 Rd8 23. Rxd8+ Kxd8 24. g4 g6 25. h4 hxg4 26. Bg5 Bxg5
27. hxg5 Ke8 28. Kg2 1/2-1/2
"""
MALFORMED_PGN = """[Event "illegal move"]
[Result "*"]

1. e4 e5 2. Ke3 Kd6 *

[Event "broken FEN header"]
[SetUp "1"]
[FEN "8/8/9/8/8/8/8/8 w - - 0 1"]
[Result "*"]

1. Kd2 *
"""


def play(fen: str, engine: chess.engine.SimpleEngine, plies: int, name: str) -> str:
    game = chess.pgn.Game()
    board = chess.Board(fen)
    game.setup(board)
    game.headers["Event"] = f"pawnfence scan corpus: {name}"
    game.headers["White"] = game.headers["Black"] = "Stockfish"
    node = game
    for _ in range(plies):
        if board.is_game_over():
            break
        move = engine.play(board, chess.engine.Limit(time=0.05)).move
        node = node.add_variation(move)
        board.push(move)
    game.headers["Result"] = "*"
    return str(game) + "\n\n"


def selfplay(engine: chess.engine.SimpleEngine, games: int = 20) -> str:
    """Whole games (pieces and all) for the scan benchmark: four random opening moves a
    side (seeded), then Stockfish at 5 ms a move, up to 200 plies."""
    import random

    rng = random.Random(2002)
    out = []
    for g in range(games):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = f"pawnfence self-play {g + 1}"
        node = game
        for ply in range(200):
            if board.is_game_over(claim_draw=True):
                break
            if ply < 8:
                move = rng.choice(list(board.legal_moves))
            else:
                move = engine.play(board, chess.engine.Limit(time=0.005)).move
            node = node.add_variation(move)
            board.push(move)
        game.headers["Result"] = board.result(claim_draw=True)
        out.append(str(game) + "\n\n")
    return "".join(out)


def main() -> None:
    with chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish") as engine:
        games = [play(fen, engine, 12, name) for name, fen in PLANTED.items()]
        with gzip.open(HERE / "selfplay.pgn.gz", "wt") as fh:
            fh.write(selfplay(engine))
    (HERE / "games.pgn").write_text("".join(games) + FRITZ_KRAMNIK + "\n" + MALFORMED_PGN)
    lines = [chess.Board(fen).epd(id=name) for name, fen in PLANTED.items()]
    lines += ["this is not a position", "8/8/8/8/8/8/8/8/8 w - -",
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"pieces\";"]
    text = "# scan test positions: planted cases and malformed lines\n" + "\n".join(lines) + "\n"
    (HERE / "positions.epd").write_text(text)
    with gzip.open(HERE / "positions.epd.gz", "wt") as fh:
        fh.write(text.replace("id \"", "id \"gz-"))


if __name__ == "__main__":
    main()
