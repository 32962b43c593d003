"""Independent truth: Stockfish labels and Syzygy probes, shared by the truth tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chess

DECISIVE_CP = 400


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    """Rows of a Stockfish-labelled JSONL file (``fen`` or ``epd`` key)."""
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            row.setdefault("fen", row.get("epd", ""))
            rows.append(row)
    return rows


def stockfish_wins(row: dict[str, Any], color: chess.Color) -> bool:
    """Stockfish finds a win for ``color``: a mate score, or a decisive score with a
    principal variation in which ``color`` promotes (scores are White's point of view)."""
    sign = 1 if color else -1
    if row.get("mate") is not None:
        return row["mate"] * sign > 0
    if row.get("cp") is None or row["cp"] * sign < DECISIVE_CP:
        return False
    board = chess.Board(row["fen"])
    for uci in row.get("pv", []):
        move = chess.Move.from_uci(uci)
        if move.promotion and board.turn == color:
            return True
        board.push(move)
    return False


def drawn_with_edge(row: dict[str, Any], color: chess.Color) -> bool:
    """Stockfish calls it a draw (|cp| <= 50, no mate) although ``color`` has more pawns."""
    if row.get("mate") is not None or row.get("cp") is None or abs(row["cp"]) > 50:
        return False
    board = chess.Board(row["fen"])
    mine = len(board.pieces(chess.PAWN, color))
    theirs = len(board.pieces(chess.PAWN, not color))
    return mine > theirs
