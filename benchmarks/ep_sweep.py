"""Static "blocked" on generated positions with a capture en passant pending, against the
exact prover (README, "Truth and findings": a capture en passant).

    python benchmarks/ep_sweep.py N [SEED]          # the guarded judgement (as shipped)
    OLD=1 python benchmarks/ep_sweep.py N [SEED]    # the structure alone (unguarded)

Each near-fortress of ``tests.strategies.random_near_fortress`` gives, for either side to
move, one board per pawn of the other side that may just have double-pushed and can be
taken en passant.  Every side some static method calls blocked is solved exactly (2 s);
a "breaks" is a refuted claim.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import logic  # noqa: E402
from tests.strategies import random_near_fortress  # noqa: E402


def ep_variants(board: chess.Board) -> list[chess.Board]:
    """``board`` with either side to move and a capture en passant pending, every way."""
    out = []
    for turn in chess.COLORS:
        b = board.copy()
        b.turn = turn
        them = not turn
        rank = 3 if them == chess.WHITE else 4  # where the pawn that double-pushed stands
        for sq in chess.SquareSet(b.pawns & b.occupied_co[them] & chess.BB_RANKS[rank]):
            behind, start = (sq - 8, sq - 16) if them == chess.WHITE else (sq + 8, sq + 16)
            if b.piece_at(behind) or b.piece_at(start):
                continue
            c = b.copy()
            c.ep_square = behind
            if c.is_valid() and c.has_legal_en_passant():
                out.append(c)
    return out


def sweep(n: int, seed: int, old: bool = False, seconds: float = 2.0) -> dict[str, int]:
    """Counts over ``n`` distinct generated boards with a capture en passant pending."""
    rng = random.Random(seed)
    seen: set[str] = set()
    counts = {"boards": 0, "claims": 0, "refuted": 0, "unknown": 0}
    exact = logic.METHODS["exact"]
    while counts["boards"] < n:
        for c in ep_variants(random_near_fortress(rng)):
            if c.fen() in seen:
                continue
            seen.add(c.fen())
            counts["boards"] += 1
            judged = c
            if old:
                judged = c.copy()
                judged.ep_square = None
            for color in chess.COLORS:
                if not any(logic.detect(judged, color, method=m).blocked
                           for m in logic.STATIC_METHODS):
                    continue
                counts["claims"] += 1
                r = exact.solve(c, color, max_seconds=seconds, pv=False)
                counts["refuted"] += r.status == "breaks"
                counts["unknown"] += r.status == "unknown"
    return counts


if __name__ == "__main__":
    t0 = time.time()
    got = sweep(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 30,
                old=os.environ.get("OLD") == "1")
    print(f"{got['boards']} boards, {got['claims']} static claims, {got['refuted']} refuted "
          f"by exact, {got['unknown']} unknown, {time.time() - t0:.0f} s")
