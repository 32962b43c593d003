"""``pawnfence explain --game FILE.pgn [--game-index N] [--json]``: a game's positions one
ply at a time, each with every method's verdict for both sides.

The table has a row per ply: its number, the move that led there, each method's verdict
for White then for Black (:func:`logic.compare.compare`: the static methods, then the
exact prover's status, with ``!`` / ``?`` where a method's claim disagrees with exact's
proof) and, under the table, the first ply at which the exact prover proves each side
unable to win.  A position with pieces other than kings and pawns is one line ("pieces
on the board: not a pawn ending yet").  With ``--json`` each ply is one line holding
``classify``'s object for its position (:func:`logic.tools.commands.classify_lines`,
with ``--method``) plus ``ply`` and ``san``.  Rows are written as they are decided (a long
pawn ending shows its first rows at once); a position met twice is decided once.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TextIO

import chess

import logic
from logic.compare import Cell, Comparison, compare
from logic.games import GameRecord, PgnError, first_proved, game_boards, read_games
from logic.vocab import Status

__all__ = ["add_game_options", "explain_game", "game_problem", "PlyRow", "ply_rows",
           "cell_text", "game_table_header", "row_text", "NOT_YET"]

#: what a ply with pieces other than kings and pawns says
NOT_YET = "pieces on the board: not a pawn ending yet"
#: a table cell's width (characters)
_CELL = 13


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--game FILE.pgn`` and ``--game-index N`` to ``explain``'s ``parser``: with
    either, its handler runs :func:`explain_game` instead."""
    parser.add_argument("--game", metavar="FILE.pgn",
                        help="a game of a PGN file (plain or .gz), one row per ply: each "
                        "method's verdict for both sides and the first ply the exact prover "
                        "proves a side unable to win; with --json one classify object per "
                        "ply, plus 'ply' and 'san'")
    parser.add_argument("--game-index", type=int, default=None, metavar="N",
                        help="with --game: the N-th game of the file (1 = the first, the "
                        "default)")
    explain = parser.get_default("run")

    def run(args: argparse.Namespace, out: TextIO) -> int:
        if args.game is not None or args.game_index is not None:
            return int(explain_game(args, out))
        return int(explain(args, out))

    parser.set_defaults(run=run)


def game_problem(args: argparse.Namespace) -> str:
    """Why ``--game`` / ``--game-index`` cannot be used with the other arguments ("" when
    they can)."""
    if args.game is None:
        return "--game-index applies only with --game" if args.game_index is not None else ""
    if args.fen or args.diagram:
        return "give a FEN, --diagram ID or --game FILE, not two of them"
    if getattr(args, "all", False):
        return "--game shows every method already: leave out --all"
    if args.game_index is not None and args.game_index < 1:
        return f"--game-index must be 1 or more, got {args.game_index}"
    return ""


class PlyRow(NamedTuple):
    """One ply of a game: ``ply`` (0 = the start), the move that led there (``label``,
    "23...Kxd8"; "start"), the ``board`` and, for a king-and-pawn position, every
    method's cells (``comparison``; None while pieces are on the board)."""

    ply: int
    label: str
    board: chess.Board
    comparison: Comparison | None


def _kings_and_pawns(board: chess.Board) -> bool:
    return board.occupied == board.pawns | board.kings


def ply_rows(record: GameRecord, seconds: float | None = None,
             decide: Callable[[chess.Board], Comparison] | None = None) -> Iterator[PlyRow]:
    """The rows of ``record``, one per ply, each decided when it is reached (``decide``:
    every method for both sides, by default :func:`logic.compare.compare` with the exact
    prover's ``seconds`` per side); a position met again is not decided again."""
    decide = decide or (lambda b: compare(b, seconds=seconds))
    seen: dict[tuple[str, bool], Comparison] = {}
    for ply, board in enumerate(game_boards(record)):
        cmp = None
        if _kings_and_pawns(board):
            key = (board.epd(), bool(board.turn))
            cmp = seen.get(key)
            if cmp is None:
                cmp = seen[key] = decide(board)
        yield PlyRow(ply, record.move_label(ply), board, cmp)


def cell_text(cell: Cell | None) -> str:
    """A cell in a few characters: "blocked 3.2", "no", "breaks", "unknown", with ``!``
    before a claim exact refutes and ``?`` before a blockage it misses."""
    if cell is None:
        return "…"
    mark = {"refuted": "!", "missed": "?"}.get(cell.disagrees, "")
    if cell.status != Status.OK:
        return mark + str(cell.status)
    if not cell.blocked:
        return mark + ("breaks" if not logic.METHODS[cell.method].static else "no")
    rule = str(cell.rule).split()[-1] if cell.rule else ""
    return mark + ("blocked" if cell.method == "exact" or not rule else f"blocked {rule}")


def _methods() -> list[str]:
    """The table's methods: the static ones in the registry's order, then the others."""
    return [*(m for m in logic.METHODS if logic.METHODS[m].static),
            *(m for m in logic.METHODS if not logic.METHODS[m].static)]


def game_table_header() -> str:
    """The table's two header lines: the sides, then the methods under each."""
    methods = _methods()
    width = len(methods) * (_CELL + 1)
    head = f"{'ply':>4}  {'move':<12}" + "".join(f"| {side:<{width - 1}}"
                                                for side in ("White", "Black"))
    names = f"{'':>4}  {'':<12}" + ("| " + "".join(f"{m[:_CELL]:<{_CELL + 1}}"
                                                  for m in methods)[:-1]) * 2
    return f"{head.rstrip()}\n{names.rstrip()}\n"


def row_text(row: PlyRow) -> str:
    """One row of the table (with its line end)."""
    start = f"{row.ply:>4}  {row.label:<12}"
    if row.comparison is None:
        return f"{start}| {NOT_YET}\n"
    cells = row.comparison.cells
    out = [start]
    for color in (chess.WHITE, chess.BLACK):
        out.append("| " + " ".join(f"{cell_text(cells.get(m, {}).get(color)):<{_CELL}}"
                                   for m in _methods()))
    return "".join(out).rstrip() + "\n"


def _exact_proof(row: PlyRow, color: chess.Color) -> bool | None:
    """Whether exact proves ``color`` unable to win at ``row`` (None: not a pawn ending)."""
    if row.comparison is None:
        return None
    cell = row.comparison.cells.get("exact", {}).get(color)
    return cell is not None and cell.status == Status.OK and cell.blocked


def _first_lines(record: GameRecord, proofs: dict[bool, list[tuple[int, bool | None]]]
                 ) -> str:
    """The lines under the table: each side's first proved ply."""
    lines = []
    for color in (chess.WHITE, chess.BLACK):
        side = chess.COLOR_NAMES[color].capitalize()
        got = proofs[color]
        ply = first_proved(got)
        endings = sum(1 for _p, proof in got if proof is not None)
        if ply is not None:
            lines.append(f"{side}: first proved unable to win at ply {ply} "
                         f"({record.move_label(ply)}; exact)")
        elif endings:
            lines.append(f"{side}: never proved unable to win (exact, {endings} "
                         f"pawn-ending position{'' if endings == 1 else 's'})")
        else:
            lines.append(f"{side}: no pawn ending in this game")
    return "\n".join(lines) + "\n"


def _record(args: argparse.Namespace) -> GameRecord:
    """The game ``args`` name; raises ``ValueError`` (a :class:`PgnError`) or ``OSError``."""
    games = read_games(args.game)
    n = args.game_index or 1
    if n > len(games):
        raise PgnError(games.source, f"--game-index {n}: the file has {len(games)} game"
                       f"{'' if len(games) == 1 else 's'}")
    return games[n - 1]


def explain_game(args: argparse.Namespace, out: TextIO) -> int:
    """``explain --game``: the table or the JSON lines (see the module); 2 with a message
    for a file or game that cannot be read."""
    if why := game_problem(args):
        print(f"pawnfence: {why}", file=sys.stderr)
        return 2
    try:
        record = _record(args)
    except OSError as exc:
        print(f"pawnfence: cannot read {args.game}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    for note in record.notes:
        print(f"pawnfence: {note}", file=sys.stderr)
    if args.json:
        return _json_lines(record, args, out)
    out.write(f"{record.title} ({record.name}, {record.plies} plies)\n\n")
    out.write(game_table_header())
    proofs: dict[bool, list[tuple[int, bool | None]]] = {chess.WHITE: [], chess.BLACK: []}
    for row in ply_rows(record, args.exact_seconds):
        out.write(row_text(row))
        out.flush()
        for color in (chess.WHITE, chess.BLACK):
            proofs[color].append((row.ply, _exact_proof(row, color)))
    out.write("\n" + _first_lines(record, proofs))
    out.write("(! a blockage exact refutes, ? a blockage exact proves that the method "
              "misses)\n")
    return 0


def _json_lines(record: GameRecord, args: argparse.Namespace, out: TextIO) -> int:
    """One JSON object per ply: ``classify``'s for its position, ``ply`` and ``san``."""
    from logic.tools.commands import classify_lines

    cache: dict[str, dict[str, Any]] = {}
    for ply, board in enumerate(game_boards(record)):
        fen = board.fen()
        obj = cache.get(fen)
        if obj is None:
            obj = cache[fen] = next(classify_lines(iter([fen]), args.method,
                                                   args.exact_seconds))
        san = record.sans[ply - 1] if ply else None
        out.write(json.dumps({**obj, "ply": ply, "san": san}) + "\n")
        out.flush()
    return 0
