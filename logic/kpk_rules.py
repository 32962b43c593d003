"""The KPK page's heuristic rules, each a recognizer returning ``"win"``, ``"draw"``
or None, and an exhaustive measurement of every rule against the bitbase.

Rules take a normalised position (``logic.kpk.normalise``): the strong side
plays White, the pawn stands on files a-d, ``black`` is True when the weak side
is to move.  ``RULES`` holds the page's rules as written; a rule that is ever
wrong (see :func:`measure` and the README table) has a corrected twin in
``CORRECTED``.  Only rules that are exhaustively sound are used by
:func:`recognise`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import chess

from logic import kpk

__all__ = ["Rule", "RULES", "CORRECTED", "SOUND", "recognise", "measure", "positions",
           "key_squares", "pawn_square"]


def _f(s: int) -> int:
    return s & 7


def _r(s: int) -> int:
    return s >> 3


def _dist(a: int, b: int) -> int:
    return max(abs(_f(a) - _f(b)), abs(_r(a) - _r(b)))


def _defends(k: int, s: int) -> bool:
    """King on ``k`` attacks square ``s``."""
    return _dist(k, s) == 1


def _moves_to_promote(p: int) -> int:
    return min(5, 7 - _r(p))  # a pawn on its second rank may move two squares


# -- "KPK is drawn" ------------------------------------------------------------------------

def capture(black: bool, wk: int, bk: int, p: int) -> str | None:
    """The weak side to move takes the undefended pawn."""
    if black and _defends(bk, p) and not _defends(wk, p):
        return "draw"
    return None


def front_behind(black: bool, wk: int, bk: int, p: int) -> str | None:
    """Defending king directly in front of the pawn, the other king directly behind it,
    weaker side to move."""
    if black and bk == p + 8 and wk == p - 8:
        return "draw"
    return None


def front_diagonal(black: bool, wk: int, bk: int, p: int) -> str | None:
    """Defending king directly in front, the other king diagonally behind the pawn,
    stronger side to move."""
    if not black and bk == p + 8 and _r(wk) == _r(p) - 1 and abs(_f(wk) - _f(p)) == 1:
        return "draw"
    return None


def opposition(black: bool, wk: int, bk: int, p: int) -> str | None:
    """Kings in vertical opposition, the pawn beside the stronger king, stronger side to
    move."""
    if not black and bk == wk + 16 and _r(p) == _r(wk) and abs(_f(p) - _f(wk)) == 1:
        return "draw"
    return None


def pawn_check(black: bool, wk: int, bk: int, p: int) -> str | None:
    """The position above after the pawn moves and gives check (weaker side to move)."""
    if black and bk == wk + 16 and _r(p) == _r(wk) + 1 and abs(_f(p) - _f(wk)) == 1:
        return "draw"
    return None


def corresponding(black: bool, wk: int, bk: int, p: int) -> str | None:
    """The page's "feeble attempt at corresponding squares": the strong king on one of the
    three squares behind the pawn, the defender on one of the three squares two ranks in
    front, stronger side to move, defender not on the last rank."""
    behind = _r(wk) == _r(p) - 1 and abs(_f(wk) - _f(p)) <= 1
    ahead = _r(bk) == _r(p) + 2 and abs(_f(bk) - _f(p)) <= 1
    if not black and behind and ahead and _r(bk) != 7:
        return "draw"
    return None


def rook_front(black: bool, wk: int, bk: int, p: int) -> str | None:
    """Rook pawn with the defending king on its front span."""
    if _f(p) == 0 and _f(bk) == 0 and _r(bk) > _r(p):
        return "draw"
    return None


def rook_trapped(black: bool, wk: int, bk: int, p: int) -> str | None:
    """Rook pawn with the strong king on its front span, kept on the rook file by the
    defender on the file next but one (c-file for an a-pawn)."""
    if _f(p) == 0 and _f(wk) == 0 and _r(wk) > _r(p) and _f(bk) == 2 \
            and abs(_r(bk) - _r(wk)) <= 1:
        return "draw"
    return None


# -- "KPK is won" -----------------------------------------------------------------------

def stops_defended(black: bool, wk: int, bk: int, p: int) -> str | None:
    """The strong king defends all stop and telestop squares up to the promotion square
    (at most three), unless the defender to move takes the pawn."""
    front = [p + 8 * i for i in range(1, 4) if _r(p) + i <= 7]
    if all(_defends(wk, s) for s in front) and not capture(black, wk, bk, p):
        return "win"
    return None


def outside_square(black: bool, wk: int, bk: int, p: int) -> str | None:
    """The defending king is (or, to move, stays) outside the square of the pawn."""
    # The defender catches the pawn (at the latest by taking the new queen) if it is
    # within m squares of the queening square, m + 1 when it is to move.
    reach = _moves_to_promote(p) + (1 if black else 0)
    if _dist(bk, _f(p) + 56) > reach:
        return "win"
    return None


# -- corrected versions ---------------------------------------------------------------------

def _stalemated(wk: int, bk: int, p: int) -> bool:
    """The defender (to move) has no legal king move."""
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            f, r = _f(bk) + df, _r(bk) + dr
            if (df or dr) and 0 <= f < 8 and 0 <= r < 8:
                s = r * 8 + f
                pawn_hits = r == _r(p) + 1 and abs(f - _f(p)) == 1
                if _dist(s, wk) > 1 and not pawn_hits and (s != p or not _defends(wk, p)):
                    return False
    return True


def stops_defended_fixed(black: bool, wk: int, bk: int, p: int) -> str | None:
    """``stops_defended`` without its counterexamples: not a rook pawn (the defender in
    the corner draws), and with the defender to move not a stalemate (the knight-pawn
    exception: Ka8, Pb6/b7, Kc7)."""
    if _f(p) == 0 or (black and _stalemated(wk, bk, p)):
        return None
    return stops_defended(black, wk, bk, p)


def outside_square_fixed(black: bool, wk: int, bk: int, p: int) -> str | None:
    """The rule of the square with its refinements: the pawn only counts a double step
    when both squares are free, neither king stands on the pawn's path (the strong king
    in front blocks its own pawn), and the defender to move can neither take the pawn
    nor is stalemated."""
    path = range(p + 8, 64, 8)
    if wk in path or bk in path:
        return None
    if black and (capture(black, wk, bk, p) or _stalemated(wk, bk, p)):
        return None
    moves = 7 - _r(p)
    if _r(p) == 1 and wk != p + 8 and bk != p + 8 and wk != p + 16 and bk != p + 16:
        moves = 5
    reach = moves + (1 if black else 0)
    if _dist(bk, _f(p) + 56) > reach:
        return "win"
    return None


def rook_trapped_fixed(black: bool, wk: int, bk: int, p: int) -> str | None:
    """``rook_trapped`` made exact: the defender covers every b-file square next to the
    strong king (so it cannot leave the a-file) and the pawn is behind that king."""
    if _f(p) != 0 or _f(wk) != 0 or _r(wk) <= _r(p):
        return None
    exits = [r * 8 + 1 for r in (_r(wk) - 1, _r(wk), _r(wk) + 1) if 0 <= r < 8]
    if all(_dist(bk, s) <= 1 for s in exits):
        return "draw"
    return None


@dataclass(frozen=True)
class Rule:
    """A named recognizer; ``claims`` is what it says when it fires."""

    name: str
    claims: str
    fn: Callable[[bool, int, int, int], str | None]
    text: str


RULES: tuple[Rule, ...] = (
    Rule("capture", "draw", capture, "the defender takes the undefended pawn"),
    Rule("front-behind", "draw", front_behind,
         "defender directly in front, strong king directly behind, weak side to move"),
    Rule("front-diagonal", "draw", front_diagonal,
         "defender directly in front, strong king diagonally behind, strong side to move"),
    Rule("opposition", "draw", opposition,
         "kings in vertical opposition, pawn beside the strong king, strong side to move"),
    Rule("pawn-check", "draw", pawn_check, "the same after the pawn moves giving check"),
    Rule("corresponding", "draw", corresponding,
         "strong king behind the pawn, defender two ranks in front (not on the 8th)"),
    Rule("rook-front", "draw", rook_front, "rook pawn, defender on its front span"),
    Rule("rook-trapped", "draw", rook_trapped,
         "rook pawn, strong king on its front span kept in by the defender"),
    Rule("stops-defended", "win", stops_defended,
         "strong king defends every stop square up to the promotion square"),
    Rule("outside-square", "win", outside_square, "defender outside the square of the pawn"),
)

CORRECTED: dict[str, Rule] = {
    "rook-trapped": Rule("rook-trapped*", "draw", rook_trapped_fixed,
                         "rook pawn, defender covering every exit of the strong king"),
    "stops-defended": Rule("stops-defended*", "win", stops_defended_fixed,
                           "as stops-defended, without rook pawns and stalemates"),
    "outside-square": Rule("outside-square*", "win", outside_square_fixed,
                           "square of the pawn with tempo refinements, path free of kings"),
}


def positions() -> Iterator[tuple[bool, int, int, int]]:
    """Every legal normalised KPK position ``(black_to_move, wk, bk, pawn)``."""
    pawns = [r * 8 + f for r in range(1, 7) for f in range(4)]
    for black in (False, True):
        for p in pawns:
            attacked = {p + 7, p + 9} if _f(p) else {p + 9}
            for wk in range(64):
                if wk == p:
                    continue
                for bk in range(64):
                    if bk in (p, wk) or _dist(wk, bk) <= 1:
                        continue
                    if not black and bk in attacked and abs(_f(bk) - _f(p)) == 1:
                        continue  # the weak side is in check with the strong side to move
                    yield black, wk, bk, p


def measure(rules: tuple[Rule, ...]) -> list[dict[str, object]]:
    """For each rule: how often it fires on all legal positions, how often it is wrong
    (per the bitbase), and one wrong position as a FEN."""
    stats: dict[str, dict[str, Any]] = {r.name: {"fires": 0, "errors": 0, "example": None}
                                        for r in rules}
    total = 0
    for pos in positions():
        total += 1
        truth = "win" if kpk.probe(*pos) else "draw"
        for r in rules:
            said = r.fn(*pos)
            if said is None:
                continue
            s = stats[r.name]
            s["fires"] += 1
            if said != truth:
                s["errors"] += 1
                if s["example"] is None:
                    s["example"] = fen_of(*pos)
    return [{"rule": r.name, "claims": r.claims, "text": r.text, "positions": total,
             **stats[r.name]} for r in rules]


def fen_of(black: bool, wk: int, bk: int, p: int) -> str:
    """The FEN of a normalised position."""
    board = chess.Board(None)
    board.set_piece_at(p, chess.Piece(chess.PAWN, chess.WHITE))
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.turn = not black
    return board.fen()


#: The recognizers in use: the page's rules that are exhaustively sound as written, and the
#: corrected twins of those that are not (rook-trapped, stops-defended, outside-square;
#: see the README table).  ``tests/test_kpk.py`` re-measures every one of them.
SOUND: tuple[Rule, ...] = tuple(
    CORRECTED.get(r.name, r) for r in RULES
)


def rule_text(name: str) -> str:
    """The one-line description of a rule (original or corrected) by name."""
    for r in RULES + tuple(CORRECTED.values()):
        if r.name == name:
            return r.text
    raise KeyError(name)


def recognise(board: chess.Board) -> tuple[str, str] | None:
    """``(verdict, rule name)`` from the first exhaustively sound rule that fires on a
    KPK ``board`` (verdict for the side with the pawn), or None."""
    pos = kpk.normalise(board)[:4]
    for rule in SOUND:
        said = rule.fn(*pos)
        if said is not None:
            return said, rule.name
    return None


def key_squares(board: chess.Board) -> int:
    """The bitboard of the squares the stronger king must reach to win (the classic key
    squares; real board coordinates)."""
    _black, _wk, _bk, p, strong = kpk.normalise(board)
    f, r = _f(p), _r(p)
    if f == 0:
        keys = [chess.square(1, 6), chess.square(1, 7)]
    else:
        rows = [r + 2] if r < 4 else [r + 1, r + 2]
        keys = [chess.square(ff, rr) for rr in rows if rr <= 7 for ff in (f - 1, f, f + 1)]
    return _denormalise(keys, board, strong)


def pawn_square(board: chess.Board) -> int:
    """The square of the pawn (rule of the square; real coordinates; White to move)."""
    _black, _wk, _bk, p, strong = kpk.normalise(board)
    d = _moves_to_promote(p)
    f = _f(p)
    sqs = [chess.square(ff, rr) for rr in range(7 - d, 8) for ff in range(8)
           if abs(ff - f) <= d]
    return _denormalise(sqs, board, strong)


def _denormalise(squares: list[int], board: chess.Board, strong: chess.Color) -> int:
    pawn = chess.lsb(board.pawns)
    mirror_files = (chess.square_file(pawn if strong else chess.square_mirror(pawn))) > 3
    bb = 0
    for s in squares:
        if mirror_files:
            s ^= 7
        if not strong:
            s = chess.square_mirror(s)
        bb |= 1 << s
    return bb


def summary(board: chess.Board) -> dict[str, object] | None:
    """For a legal KPK ``board``: ``{"result": "win" | "draw" (exact, for the side with
    the pawn), "side", "rule", "rule_text"}`` with the first sound rule that fires, or
    None for any other position."""
    if not kpk.is_kpk(board) or not board.is_valid():
        return None
    strong = chess.WHITE if board.pawns & board.occupied_co[chess.WHITE] else chess.BLACK
    hit = recognise(board)
    return {
        "result": kpk.probe_board(board),
        "side": chess.COLOR_NAMES[strong],
        "rule": hit[1] if hit else None,
        "rule_text": rule_text(hit[1]) if hit else None,
    }


def summary_line(s: dict[str, object]) -> str:
    """One line for a :func:`summary`."""
    side = str(s["side"]).capitalize()
    head = f"KPK (exact bitbase): {'a win' if s['result'] == 'win' else 'a draw'} for {side}"
    if s["rule"]:
        return f"{head}; heuristic rule {s['rule']}: {s['rule_text']}"
    return f"{head}; no heuristic rule fires"
