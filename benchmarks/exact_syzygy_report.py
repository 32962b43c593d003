"""Print the docs' tables of the exact prover (``logic.exact``) against Syzygy on random
KPvK, KPPvK and KPvKP positions (either side to move, every side with pawns as X).

    python benchmarks/exact_syzygy_report.py [positions per material, default 2000] [GAME ...]

Without ``GAME`` (or with ``auto``) the whole prover: per material, its blockages and
breakthroughs, the blockages the table calls an X win (must be 0: a blockage is a
proof) and the breakthroughs it does not (expected: the target is any promotion that
stands, or mate, not a won game), these classified along the PV (X fastest, D
longest): D forced to promote, stalemate right after the promotion, a queen against a
rook's or bishop's pawn on its seventh rank (the classic draws), against another pawn
on the seventh, against a pawn further back, and the rest.

``GAME ...``: restricted games of ``logic.exact.STRATEGIES`` (``kings``, ``guard``,
``levers``, ``nopush``), each alone, a row each: its answers are ``blocked`` or
``unknown`` (X wins the restricted game, which proves nothing).
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
NAMES = {("P", ""): "KPvK (X = White)", ("", "p"): "KvKP (X = Black)", ("PP", ""): "KPPvK",
         ("", "pp"): "KvKPP", ("P", "p"): "KPvKP (both sides)"}
#: what each restricted game lets the defender do
GAMES = {"kings": "KINGS alone (D only steps with its king)",
         "guard": "GUARD alone (LEVERS; X's king taking a pawn ends the game as X's success)",
         "levers": "LEVERS alone (D steps with its king, takes only with its pawns)",
         "nopush": "NOPUSH alone (D also takes with its king, never pushes)"}


def classify(board: chess.Board, r: exact.ExactResult) -> str:
    """Why a breakthrough need not win: read off the PV's final position."""
    if r.ends == "defender-promotion":
        return "the defender forced to promote"
    if r.ends == "mate":
        return "mate (never a non-win)"
    end = board.copy(stack=False)
    for uci in r.pv:
        end.push(chess.Move.from_uci(uci))
    queen = chess.Move.from_uci(r.pv[-1]).to_square
    if end.is_stalemate():
        return "stalemate right after the promotion"
    if any(mv.to_square == queen for mv in end.legal_moves):
        return "the new queen lost at once"
    d = end.turn
    seventh = chess.BB_RANK_2 if d == chess.BLACK else chess.BB_RANK_7
    pawns = end.pieces_mask(chess.PAWN, d) & seventh
    if pawns & (chess.BB_FILE_A | chess.BB_FILE_H | chess.BB_FILE_C | chess.BB_FILE_F):
        return "a queen against a rook's or bishop's pawn on the seventh"
    if pawns:
        return "a queen against another pawn on the seventh"
    if end.pieces_mask(chess.PAWN, d):
        return "a queen against a pawn further back"
    return "other"


def sides(n: int):
    """``(material, board, X, X wins by the table)`` for ``n`` seeded boards a material."""
    with chess.syzygy.open_tablebase(str(SHARED / "syzygy")) as tb:
        for mat in MATERIALS:
            rng = random.Random(f"report {mat}")
            for _ in range(n):
                board = random_material_board(rng, *mat)
                wdl = tb.probe_wdl(board)
                for x in chess.COLORS:
                    if board.pawns & board.occupied_co[x]:
                        yield mat, board, x, (wdl if board.turn == x else -wdl) > 0


def _material_row(name: str, c: Counter[tuple[str, bool]]) -> None:
    """One row of the whole prover's table: ``c`` counts ``(status, X wins by the table)``."""
    blocked = c[("blocked", False)] + c[("blocked", True)]
    breaks = c[("breaks", False)] + c[("breaks", True)]
    unknown = sum(c.values()) - blocked - breaks
    print(f"| {name} | {sum(c.values()):,} | {blocked:,} | {breaks:,} | {unknown:,} "
          f"| **{c[('blocked', True)]:,}** | {c[('breaks', False)]:,} |")


def prover_tables(n: int) -> None:
    """The whole prover's two tables."""
    rows: dict[tuple[str, str], Counter[tuple[str, bool]]] = {m: Counter() for m in MATERIALS}
    classes: Counter[str] = Counter()
    for mat, board, x, wins in sides(n):
        r = exact.solve(board, x)
        rows[mat][(r.status, wins)] += 1
        if r.status == "breaks" and not wins:
            classes[classify(board, r)] += 1
    print("| material | side-positions | exact: blocked | exact: breaks | unknown "
          "| blocked, yet a Syzygy win | breaks, no Syzygy win |")
    print("|---|---|---|---|---|---|---|")
    for mat, c in rows.items():
        _material_row(NAMES[mat], c)
    _material_row("all", sum(rows.values(), Counter()))
    print()
    print("| a breakthrough without a Syzygy win: how its line ends | sides |")
    print("|---|---|")
    for name, k in classes.most_common():
        print(f"| {name} | {k:,} |")
    print(f"| all | {sum(classes.values()):,} |")


def game_table(n: int, games: list[str]) -> None:
    """A row per restricted game: its blockages, and those the table calls an X win."""
    print("| game | side-positions | blocked | blocked, yet a Syzygy win |")
    print("|---|---|---|---|")
    for game in games:
        total = blocked = false = 0
        by_mat: Counter[str] = Counter()
        for mat, board, x, wins in sides(n):
            r = exact.solve(board, x, method=game, pv=False)
            total += 1
            if r.blocked:
                blocked += 1
                false += wins
                by_mat[NAMES[mat].split(" ")[0]] += 1
        where = ", ".join(f"{k:,} {m}" for m, k in by_mat.most_common())
        print(f"| {GAMES[game]} | {total:,} | {blocked:,}{f' ({where})' if where else ''} "
              f"| **{false:,}** |")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    games = [g for g in sys.argv[2:] if g != "auto"]
    if unknown := [g for g in games if g not in GAMES]:
        sys.exit(f"unknown game(s) {', '.join(unknown)}; choose from {', '.join(GAMES)}")
    if games:
        game_table(n, games)
    else:
        prover_tables(n)


if __name__ == "__main__":
    main()
