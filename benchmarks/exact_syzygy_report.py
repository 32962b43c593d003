"""Print the README's table: the exact prover (``logic.exact``) against Syzygy on random
KPvK, KPPvK and KPvKP positions (either side to move, every side with pawns as X).

    python benchmarks/exact_syzygy_report.py [positions per material, default 2000] [GAME]

``GAME`` (default ``auto``) is a method of ``logic.exact.STRATEGIES``: ``kings``,
``levers`` or ``nopush`` check one restricted game alone (its answers are ``blocked``
or ``unknown``: X wins the restricted game, which proves nothing).

``blocked`` must never meet a Syzygy win for X (it is a proof); ``breaks`` where the
table says X does not win is expected (the target is any promotion, or mate, not a
won game) and is classified along the PV (X fastest, D longest): D forced to
promote, stalemate right after the promotion, the new queen lost at once, a queen
against a pawn on its seventh rank (rook's or bishop's pawn: the classic draws; other
files), against a pawn further back, and the rest.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import chess
import chess.syzygy

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logic.exact import prover as exact  # noqa: E402
from tests.conftest import SHARED  # noqa: E402
from tests.strategies import random_material_board  # noqa: E402

MATERIALS = [("P", ""), ("", "p"), ("PP", ""), ("", "pp"), ("P", "p")]
NAMES = {("P", ""): "KPvK", ("", "p"): "KvKP", ("PP", ""): "KPPvK", ("", "pp"): "KvKPP",
         ("P", "p"): "KPvKP"}


def classify(board: chess.Board, r: exact.ExactResult) -> str:
    """Why a breakthrough need not win: read off the PV's final position."""
    if r.ends == "defender-promotion":
        return "D forced to promote"
    if r.ends == "mate":
        return "mate (never a non-win)"
    end = board.copy(stack=False)
    for uci in r.pv:
        end.push(chess.Move.from_uci(uci))
    queen = chess.Move.from_uci(r.pv[-1]).to_square
    if end.is_stalemate():
        return "stalemate right after the promotion"
    if any(mv.to_square == queen for mv in end.legal_moves):
        return "the new queen is lost at once"
    d = end.turn
    seventh = chess.BB_RANK_2 if d == chess.BLACK else chess.BB_RANK_7
    pawns = end.pieces_mask(chess.PAWN, d) & seventh
    if pawns & (chess.BB_FILE_A | chess.BB_FILE_H | chess.BB_FILE_C | chess.BB_FILE_F):
        return "queen against a rook's or bishop's pawn on the 7th"
    if pawns:
        return "queen against another pawn on the 7th"
    if end.pieces_mask(chess.PAWN, d):
        return "queen against a pawn further back (it queens too, or its king holds)"
    return "other (D's saving line is elsewhere, e.g. it queens first)"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    game = sys.argv[2] if len(sys.argv) > 2 else "auto"
    tb = chess.syzygy.open_tablebase(str(SHARED / "syzygy"))
    rows = []
    classes: Counter[str] = Counter()
    for mat in MATERIALS:
        rng = random.Random(f"report {mat}")
        c: Counter[str] = Counter()
        for _ in range(n):
            board = random_material_board(rng, *mat)
            for x in chess.COLORS:
                if not board.pawns & board.occupied_co[x]:
                    continue
                wdl = tb.probe_wdl(board)
                wins = (wdl if board.turn == x else -wdl) > 0
                r = exact.solve(board, x, method=game, pv=game == "auto")
                c[(r.status, wins)] += 1
                if r.status == "breaks" and not wins:
                    classes[classify(board, r)] += 1
        rows.append((NAMES[mat], c))
    print("| material | side-positions | blocked | of which Syzygy wins (must be 0) | breaks "
          "| breaks, Syzygy no win | unknown |")
    print("|---|---|---|---|---|---|---|")
    for name, c in rows:
        total = sum(c.values())
        blocked = c[("blocked", False)] + c[("blocked", True)]
        breaks = c[("breaks", False)] + c[("breaks", True)]
        unknown = c[("unknown", False)] + c[("unknown", True)]
        print(f"| {name} | {total} | {blocked} | {c[('blocked', True)]} | {breaks} "
              f"| {c[('breaks', False)]} | {unknown} |")
    print()
    print("| breaks where Syzygy says X does not win, by what ends the PV | count |")
    print("|---|---|")
    for name, k in classes.most_common():
        print(f"| {name} | {k} |")


if __name__ == "__main__":
    main()
