"""Why a move of the attacker's breakthrough line works, where a short reason is known
(the sentences of the line's steps, :mod:`logic.exact.method`).

:func:`x_move_reason` reads the position right after a move of X (the attacker), D (the
defender) to move, and names the first of these that is true:

* **outside the square**: X has a passed pawn and D's king is outside its square (the
  rule of the square: D to move, its king catches a pawn ``n`` moves from promoting, a
  pawn on its second rank counting its double step, only from at most ``n + 1`` king
  steps from the promotion square);
* **the pawn has passed**: the move pushed a passed pawn of X (no enemy pawn ahead on
  its file or the files beside it);
* **tied to a pawn**: X's king moved while D's king is inside the square of a passed pawn
  of X: it must stay there, so X's king has its hands free.

Each is a fact of the position, not a proof of the line (the line's proof is the
prover's): a reason is said only where it holds.
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from logic.pawns import passed_pawns

__all__ = ["Reason", "NO_REASON", "x_move_reason", "steps_to_promote", "outside_square",
           "passed_mask"]


class Reason(NamedTuple):
    """A reason of :func:`x_move_reason`: ``kind`` (``"outside"``, ``"passed"``,
    ``"tied"``; ``""`` none) and ``text`` (one sentence; ``""`` none)."""

    kind: str
    text: str


NO_REASON = Reason(kind="", text="")


def steps_to_promote(square: chess.Square, color: chess.Color) -> int:
    """The moves a pawn of ``color`` on ``square`` needs to promote, alone on its file (a
    pawn on its second rank moves two squares at first)."""
    rank = chess.square_rank(square)
    n = 7 - rank if color == chess.WHITE else rank
    return min(n, 5)


def _promotion_square(square: chess.Square, color: chess.Color) -> chess.Square:
    return chess.square(chess.square_file(square), 7 if color == chess.WHITE else 0)


def outside_square(board: chess.Board, pawn: chess.Square) -> bool:
    """Whether the king of the side to move in ``board``, the side not owning the pawn on
    ``pawn``, is outside that pawn's square: it cannot reach the promotion square or a
    square next to it by the time the pawn promotes (other pieces left out)."""
    color = board.color_at(pawn)
    king = board.king(board.turn)
    if color is None or color == board.turn or king is None:
        return False
    n = steps_to_promote(pawn, color)
    return chess.square_distance(king, _promotion_square(pawn, color)) > n + 1


def passed_mask(board: chess.Board, color: chess.Color) -> int:
    """The passed pawns of ``color``: no enemy pawn ahead on the file or the files beside
    it."""
    return passed_pawns(board.pieces_mask(chess.PAWN, color),
                        board.pieces_mask(chess.PAWN, not color), color)


def _most_advanced(squares: list[chess.Square], color: chess.Color) -> chess.Square:
    return min(squares, key=lambda s: steps_to_promote(s, color))


def x_move_reason(after: chess.Board, move: chess.Move, attacker: chess.Color) -> Reason:
    """Why ``move`` of ``attacker`` (just played: ``after`` has the defender to move)
    works, in one sentence ("Black's king is outside the square of the g-pawn: it cannot
    catch it."), or :data:`NO_REASON` when none of the module's reasons holds."""
    if after.turn == attacker:
        return NO_REASON
    them = chess.COLOR_NAMES[not attacker].capitalize()
    passed = list(chess.scan_forward(passed_mask(after, attacker)))
    out = [s for s in passed if outside_square(after, s)]
    if out:
        name = chess.FILE_NAMES[chess.square_file(_most_advanced(out, attacker))]
        return Reason(kind="outside", text=f"{them}'s king is outside the square of the "
                                           f"{name}-pawn: it cannot catch it.")
    moved = move.to_square
    if moved in passed and after.piece_type_at(moved) == chess.PAWN:
        name = chess.FILE_NAMES[chess.square_file(moved)]
        return Reason(kind="passed", text=f"the passed {name}-pawn moves on (no "
                                          f"{them.lower()} pawn ahead on its file or the "
                                          "files beside it).")
    if after.piece_type_at(moved) == chess.KING and passed:
        name = chess.FILE_NAMES[chess.square_file(_most_advanced(passed, attacker))]
        return Reason(kind="tied", text=f"{them}'s king is tied to the {name}-pawn: it "
                                        "must stay in the pawn's square.")
    return NO_REASON
