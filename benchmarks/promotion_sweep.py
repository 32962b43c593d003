"""Static "blocked" against the exact prover on generated near-fortresses rich in boxed
kings, frozen pawns and pawns on the seventh rank (issue 37, part 1).

    python benchmarks/promotion_sweep.py N [--seed S] [--state FILE] [--seconds T]

Board ``i`` is generated from its own seed (``S:i``), so a sweep resumes where it
stopped: ``--state`` (a JSON file, default ``promotion_sweep-S.json`` in the current
directory) keeps the next index, the counts and the refuted claims, written every 100
boards and at the end.  Every side some static method calls blocked is solved exactly
(``T`` seconds, 2 by default) and counted as

* ``blocked``: exact proves the blockage;
* ``defender``: exact's line ends in the defender's forced promotion (no win for the
  side claimed blocked: the claim stands);
* ``unknown``: exact ran out of budget;
* ``refuted``: exact proves that the side forces its own promotion that stands, or
  mate (or a breakthrough whose line did not come in time): a static rule is wrong.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import logic  # noqa: E402
from logic.bitboards import flood_fill, pawn_attacks  # noqa: E402
from tests.strategies import random_near_fortress  # noqa: E402

#: a king whose region holds at most this many squares counts as boxed
BOX = 8
KINDS = ("blocked", "defender", "unknown", "refuted")


def _region(board: chess.Board, color: chess.Color, square: chess.Square) -> int:
    """The squares ``color``'s king can reach from ``square`` past no pawn and no square
    an enemy pawn attacks (the other king ignored)."""
    enemy = board.pawns & board.occupied_co[not color]
    free = chess.BB_ALL & ~board.pawns & ~pawn_attacks(enemy, not color)
    return flood_fill(1 << square, free)


def _add_seventh(board: chess.Board, rng: random.Random) -> None:
    """A pawn on its seventh rank (either side), on a free square, the enemy king moved
    (70 %) onto its promotion square or next to it, as in the issue's zugzwang accidents
    (``1k6/1Pp5/...``: the king on b8 in front of b7)."""
    color = rng.random() < 0.5
    rank = 6 if color else 1
    free = [chess.square(f, rank) for f in range(8)
            if board.piece_at(chess.square(f, rank)) is None]
    if not free or chess.popcount(board.pawns & board.occupied_co[color]) >= 8:
        return
    pawn = rng.choice(free)
    board.set_piece_at(pawn, chess.Piece(chess.PAWN, color))
    if rng.random() < 0.7:
        promo = pawn + (8 if color else -8)
        near = [s for s in chess.SquareSet(chess.BB_KING_ATTACKS[promo] | 1 << promo)
                if board.piece_at(s) is None]
        king = board.king(not color)
        if near and king is not None:
            board.remove_piece_at(king)
            board.set_piece_at(rng.choice(near), chess.Piece(chess.KING, not color))


def _box_king(board: chess.Board, rng: random.Random) -> None:
    """Move one king (either side) to a free square whose region is at most
    :data:`BOX` squares, when there is one."""
    color = rng.random() < 0.5
    king = board.king(color)
    assert king is not None
    board.remove_piece_at(king)
    boxed = [s for s in chess.SQUARES if board.piece_at(s) is None
             and chess.popcount(_region(board, color, s)) <= BOX]
    board.set_piece_at(rng.choice(boxed) if boxed else king, chess.Piece(chess.KING, color))


def board_at(seed: int, i: int) -> chess.Board:
    """The ``i``-th board of the sweep with ``seed``: a near-fortress
    (:func:`tests.strategies.random_near_fortress`, rams: frozen pawns), with pawns on
    the seventh rank added (60 %) and a king boxed in (60 %), either side to move."""
    rng = random.Random(f"{seed}:{i}")
    while True:
        board = random_near_fortress(rng)
        if rng.random() < 0.6:
            _add_seventh(board, rng)
        if rng.random() < 0.6:
            _box_king(board, rng)
        board.turn = rng.random() < 0.5
        board.clear_stack()
        if board.is_valid() and not board.is_game_over():
            return board


def judge(board: chess.Board, seconds: float) -> list[tuple[chess.Color, str, str]]:
    """``(side, kind, ends)`` for each side some static method calls blocked."""
    exact = logic.METHODS["exact"]
    out = []
    for side in chess.COLORS:
        if not any(logic.detect(board, side, method=m).blocked for m in logic.STATIC_METHODS):
            continue
        r = exact.solve(board, side, max_seconds=seconds, pv=True)
        if r.status == "blocked":
            kind = "blocked"
        elif r.status == "unknown":
            kind = "unknown"
        elif r.ends == "defender-promotion":
            kind = "defender"
        else:
            kind = "refuted"
        out.append((side, kind, r.ends))
    return out


def _load(path: Path) -> dict:
    if path.is_file():
        return json.loads(path.read_text())
    return {"next": 0, "boards": 0, "claims": 0, **dict.fromkeys(KINDS, 0), "refutations": []}


def sweep(n: int, seed: int, state: Path, seconds: float = 2.0) -> dict:
    """Judge boards ``state["next"]`` .. ``n - 1`` of the sweep, saving ``state`` every
    100 boards; the counts so far."""
    got = _load(state)
    logic.METHODS["exact"].clear_cache()
    while got["next"] < n:
        i = got["next"]
        board = board_at(seed, i)
        for side, kind, ends in judge(board, seconds):
            got["claims"] += 1
            got[kind] += 1
            if kind == "refuted":
                got["refutations"].append({"index": i, "fen": board.fen(),
                                           "side": chess.COLOR_NAMES[side], "ends": ends})
        got["boards"] += 1
        got["next"] = i + 1
        if got["next"] % 100 == 0 or got["next"] == n:
            state.write_text(json.dumps(got, indent=1))
    return got


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, help="boards in the whole sweep")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--state", type=Path, default=None)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args(argv)
    state = args.state or Path(f"promotion_sweep-{args.seed}.json")
    t0 = time.time()
    got = sweep(args.n, args.seed, state, args.seconds)
    print(f"{got['boards']:,} boards, {got['claims']:,} static claims: {got['blocked']:,} "
          f"blocked, {got['defender']:,} the defender forced to promote, {got['unknown']:,} "
          f"unknown, {got['refuted']:,} refuted ({time.time() - t0:.0f} s this run)")
    for ref in got["refutations"]:
        print(f"refuted: {ref['fen']} ({ref['side']}; ends {ref['ends'] or 'without a line'})")


if __name__ == "__main__":
    main()
