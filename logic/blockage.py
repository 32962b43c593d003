"""``detect``, the public entry point: validation, the per-board cache, the method lookup.

A method (:data:`~logic.registry.METHODS`: paper in ``logic.paper``, the wiki flood
in ``logic.flood``; ``logic.methods`` imports every one) decides on an oriented
position; this module turns a ``chess.Board`` into bitboards (one validation pass,
python-chess's ``Board.status()`` only where a few bitboard tests leave doubt), keeps
each method's verdicts of both colours per board, and orients for tracing.
"""

from __future__ import annotations

from typing import Any

import chess

import logic.methods  # noqa: F401  (registers every method)
from logic.bitboards import orient
from logic.records import NO_BOARDS
from logic.registry import METHODS, DetectError, get_method, get_static_method
from logic.static import CACHE_LIMIT
from logic.steps import Recorder, Step
from logic.verdict import Verdict
from logic.vocab import DEFAULT_METHOD, SharedCode, SharedRule, Status

__all__ = ["detect", "detect_bitboards", "is_blocked", "prepare", "clear_cache", "cache_info",
           "METHODS", "DetectError"]

_KING = chess.BB_KING_ATTACKS
_BACKRANKS = chess.BB_BACKRANKS
_WHITE_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS[chess.WHITE]
_BLACK_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS[chess.BLACK]


def detect(
    board: chess.Board, color: chess.Color, *, method: str = DEFAULT_METHOD, trace: bool = False,
    seconds: float | None = None,
) -> Verdict:
    """Decide whether ``color`` cannot win ``board`` by ``method``'s rules.

    ``method`` names a method of :data:`~logic.registry.METHODS` (``"paper"``,
    ``"flood"``, ...), looked up once.  ``Verdict.blocked`` is True exactly
    when the method proves ``color``'s upper bound is a draw.  Positions with
    pieces other than kings and pawns, or that ``board.status()`` rejects, get a
    verdict with ``status`` ``"pieces"`` / ``"illegal"`` and ``blocked=False``.
    With ``trace=True`` the verdict carries the ordered step records (and the
    caches are bypassed).  ``seconds``: the budget of a method that searches (the exact
    prover; its own default when None, and then its verdicts are cached); the static
    methods ignore it.  Untraced, both colours are decided on the first call
    for a board and kept in the per-board cache; a verdict may be a
    deferred one (:meth:`~logic.verdict.Verdict.deferred`).  Raises
    :class:`DetectError` for an unknown method or a ``board`` that is not a
    ``chess.Board``.
    """
    try:
        occ_b, occ_w = board.occupied_co  # indexed by colour: [BLACK, WHITE]
        key = (occ_w, occ_b, board.pawns, board.kings, board.turn, board.castling_rights,
               board.ep_square)
    except AttributeError:
        raise DetectError(f"detect() needs a chess.Board, got {board!r}") from None
    try:
        m = METHODS[method]
    except (KeyError, TypeError):
        m = get_method(method)  # raises DetectError naming the choices
    cache = m.boards  # None: the method keeps no per-board cache
    if not trace and cache is not None:
        pair = cache.get(key)
        if pair is not None:
            return pair[1] if color else pair[0]
    prep = prepare(board, key)
    if len(prep) == 2:
        status, args = prep
        return Verdict(color=bool(color), method=method, blocked=False,
                       rule=SharedRule.NOT_APPLICABLE, status=status, code=SharedCode(status),
                       args=args,
                       raw=NO_BOARDS, notes=(), kings=(0, 0))
    if m.static and key[6] is not None and board.has_legal_en_passant():
        return _en_passant(board, color, method, trace)
    if not m.static:  # decides on the board itself, one side at a time
        return m.decide_board(board, color, key, trace, max_seconds=seconds)
    w, b, wk, bk = prep
    if trace:
        return m.analyse(*orient(w, b, wk, bk, color), bool(color), Recorder(bool(color)))
    # decide both colours at once: callers nearly always ask for both
    pair = m.pair(w, b, wk, bk)
    if cache is not None:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[key] = pair
    return pair[1] if color else pair[0]


def _en_passant(board: chess.Board, color: chess.Color, method: str, trace: bool) -> Verdict:
    """A static method on a board where the side to move may capture en passant: the
    methods judge a pawn structure, not that one-move option, so the board is judged
    without it and, when ``color`` is the side to move, after each such capture too:
    ``color`` cannot win only if it cannot win either way (a claim from the structure
    alone was refuted by the exact prover: ``...gxh6`` e.p. promotes).  The defender's
    own capture can only help the defender."""
    plain = board.copy(stack=False)
    plain.ep_square = None
    v = detect(plain, color, method=method, trace=trace)
    if board.turn != color or not v.blocked:
        return v
    for move in board.legal_moves:
        if not board.is_en_passant(move):
            continue
        after = board.copy(stack=False)
        after.push(move)
        if detect(after, color, method=method).blocked:
            continue
        san = board.san(move)
        out = Verdict(color=bool(color), method=method, blocked=False, rule=SharedRule.EN_PASSANT,
                      status=Status.OK, code=SharedCode.EN_PASSANT, args=(san,), raw=NO_BOARDS,
                      notes=(),
                      kings=v.kings)
        if trace:
            out = out._replace(steps=(*v.steps, Step(
                "en-passant", SharedRule.EN_PASSANT, "verdict",
                f"but {chess.COLOR_NAMES[color].capitalize()} may capture en passant ({san}),"
                f" and the position after it is not proved blocked: no blockage claimed.")))
        return out
    return v


def prepare(board: chess.Board, board_key: tuple[Any, ...]) -> tuple[Any, ...]:
    """``(w, b, wk, bk)`` for a legal K+P board, or ``(status, args)`` for a board the
    detectors do not apply to: ``("pieces", names)`` or ``("illegal", (board.status(),))``.

    ``board_key`` is ``(occupied_w, occupied_b, pawns, kings, turn, castling_rights,
    ep_square)`` of ``board`` (the board cache's key).  ``board.status()`` is called
    only when a few bitboard tests do not already prove the position valid: one king
    each, no pawn on a back rank, at most 8 pawns each, no castling rights or
    en-passant square, kings apart, the side not to move not in check, at most one
    pawn checker.
    """
    occ_w, occ_b, pawns, kings, turn, castling, ep = board_key
    if (occ_w | occ_b) != pawns | kings:
        others = (occ_w | occ_b) & ~(pawns | kings)
        names = sorted({str(board.piece_at(s)) for s in chess.scan_forward(others)})
        return (Status.PIECES, tuple(names))
    w = pawns & occ_w
    b = pawns & occ_b
    wk = (kings & occ_w).bit_length() - 1
    bk = (kings & occ_b).bit_length() - 1
    if (wk < 0 or bk < 0 or kings.bit_count() != 2 or pawns & _BACKRANKS
            or _KING[wk] & kings or castling or ep is not None
            or (pawns.bit_count() > 8 and (w.bit_count() > 8 or b.bit_count() > 8))
            # the side not to move must not be in check; the side to move may be, by one pawn
            or (_BLACK_PAWN_ATTACKS[bk] & w or (_WHITE_PAWN_ATTACKS[wk] & b).bit_count() > 1
                if turn else
                _WHITE_PAWN_ATTACKS[wk] & b or (_BLACK_PAWN_ATTACKS[bk] & w).bit_count() > 1)):
        status = int(board.status())
        if status:
            return (Status.ILLEGAL, (status,))
    return (w, b, wk, bk)


def detect_bitboards(
    white_pawns: int, black_pawns: int, white_king: int, black_king: int, color: chess.Color,
    *, method: str = DEFAULT_METHOD,
) -> Verdict:
    """:func:`detect` on raw bitboards of a legal K+P position (no validation, cached per
    pawn structure): the entry point for searches that already hold bitboards.  Raises
    :class:`DetectError` unless ``method`` names a static method (not ``"exact"``)."""
    return get_static_method(method).verdict(
        *orient(white_pawns, black_pawns, white_king, black_king, color), bool(color))


def is_blocked(w: int, b: int, wk: int, bk: int, color: chess.Color, method: str = DEFAULT_METHOD
               ) -> bool:
    """``detect_bitboards(...).blocked`` without building a verdict (the search's
    interior-node test, paper 4): see the method's ``is_blocked``.  Raises
    :class:`DetectError` unless ``method`` names a static method (not ``"exact"``)."""
    return get_static_method(method).is_blocked(w, b, wk, bk, color)


def clear_cache() -> None:
    """Empty every method's pawn-structure and verdict caches."""
    for m in METHODS.values():
        m.clear_cache()


def cache_info() -> dict[str, int]:
    """Cache sizes (pawn structures, board verdicts) and pawn-structure cache hits since
    the last :func:`clear_cache`, summed over the methods."""
    out: dict[str, int] = {"structures": 0, "verdicts": 0, "structure_hits": 0}
    for m in METHODS.values():
        for k, v in m.cache_info().items():
            out[k] = out.get(k, 0) + v
    return out
