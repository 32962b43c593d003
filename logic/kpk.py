"""King and pawn versus king: an exact bitbase by retrograde analysis.

After Stockfish's former ``bitbase.cpp``.  The strong side (the one with the
pawn) is normalised to White with its pawn on files a-d (mirror the board
horizontally otherwise); the index packs

    index = stm * 98304 + pawn * 4096 + white_king * 64 + black_king

with ``stm`` 0 = White to move, 1 = Black to move, and ``pawn`` = (rank - 1) * 4
+ file for the pawn on files a-d (0-3) and ranks 2-7 (1-6).  Each position is
classified INVALID, DRAW, WIN or UNKNOWN; then, until nothing changes, a White
move is a WIN if some successor is a WIN and a DRAW if all are DRAWs, a Black
move a DRAW if some successor is a DRAW and a WIN if all are WINs.  What stays
UNKNOWN is a draw.  The result is one bit per index (WIN = 1), 24 KB, shipped
as ``assets/kpk.bin`` and rebuilt (in well under two seconds with NumPy) if it
is missing or damaged.
"""

from __future__ import annotations

from pathlib import Path

import chess

from logic.assets import asset_path
from logic.explain import status_names

__all__ = ["SIZE", "build", "probe", "promotes", "load_promotion", "probe_board", "kpk_index",
           "normalise", "normalise_squares", "load_bitbase", "KPKError", "is_kpk"]

SIZE = 2 * 24 * 64 * 64
INVALID, UNKNOWN, DRAW, WIN = 0, 1, 2, 4


class KPKError(ValueError):
    """Not a legal king-and-pawn-versus-king position; the message echoes its FEN."""


def kpk_index(stm_black: bool, wk: int, bk: int, pawn: int) -> int:
    """The bitbase index of a normalised position (pawn on files a-d, ranks 2-7)."""
    return (stm_black * 98304 + ((pawn >> 3) - 1) * 4 * 4096 + (pawn & 7) * 4096
            + wk * 64 + bk)


def build(safe: bool = True) -> bytes:
    """Compute the bitbase: ``SIZE`` bits, bit ``i`` set when index ``i`` is a WIN.

    With ``safe`` False the target is any promotion, safe or not (the defender may take
    the new queen at once): bit ``i`` is set when the strong side can force its pawn to
    promote, the exact prover's notion of breaking a blockage (the table of the extended
    method's x3, :func:`load_promotion`)."""
    import numpy as np

    idx = np.arange(SIZE, dtype=np.int64)
    stm = idx // 98304
    pidx = (idx // 4096) % 24
    wk = (idx // 64) % 64
    bk = idx % 64
    p = (pidx // 4 + 1) * 8 + pidx % 4
    wf, wr, bf, br, pf, pr = wk % 8, wk // 8, bk % 8, bk // 8, p % 8, p // 8

    def dist(af, ar, cf, cr):
        return np.maximum(np.abs(af - cf), np.abs(ar - cr))

    pawn_attacks_bk = (br == pr + 1) & (np.abs(bf - pf) == 1)
    invalid = ((wk == bk) | (wk == p) | (bk == p) | (dist(wf, wr, bf, br) <= 1)
               | ((stm == 0) & pawn_attacks_bk))
    res = np.full(SIZE + 2, UNKNOWN, dtype=np.uint8)
    res[SIZE] = DRAW  # neutral padding for White's successors
    res[SIZE + 1] = WIN  # neutral padding for Black's successors
    res[:SIZE][invalid] = INVALID

    # Immediate wins: White to move promotes safely.
    q = p + 8
    promote = ((stm == 0) & (pr == 6) & (wk != q) & (bk != q) & ~invalid)
    if safe:
        promote &= (dist(bf, br, pf, 7) > 1) | (dist(wf, wr, pf, 7) == 1)
    res[:SIZE][promote] = WIN

    # Immediate draws: Black to move has no safe square, or takes an undefended pawn.
    safe_any = np.zeros(SIZE, dtype=bool)
    king_steps = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]
    for df, dr in king_steps:
        nf, nr = bf + df, br + dr
        on = (nf >= 0) & (nf < 8) & (nr >= 0) & (nr < 8)
        attacked_by_wk = dist(nf, nr, wf, wr) <= 1
        attacked_by_p = (nr == pr + 1) & (np.abs(nf - pf) == 1)
        is_pawn = (nf == pf) & (nr == pr)
        safe_any |= on & ~attacked_by_wk & ~attacked_by_p & ~is_pawn
    takes = (dist(bf, br, pf, pr) == 1) & (dist(wf, wr, pf, pr) > 1)
    black_draw = (stm == 1) & ~invalid & (~safe_any | takes)
    res[:SIZE][black_draw] = DRAW

    # Successor table: 8 king moves of the side to move and 2 pawn pushes.
    succ = np.empty((SIZE, 10), dtype=np.int64)
    white = stm == 0
    pad = np.where(white, SIZE, SIZE + 1)
    base_other = np.where(white, 98304, -98304)  # the successor has the other side to move
    for j, (df, dr) in enumerate(king_steps):
        mf = np.where(white, wf, bf) + df
        mr = np.where(white, wr, br) + dr
        on = (mf >= 0) & (mf < 8) & (mr >= 0) & (mr < 8)
        to = mr * 8 + mf
        ok = on & (to != p)
        target = np.where(white, idx + base_other + (to - wk) * 64, idx + base_other + (to - bk))
        succ[:, j] = np.where(ok, target, pad)
    one = white & (pr < 6) & (q != wk) & (q != bk)
    succ[:, 8] = np.where(one, idx + 98304 + 4 * 4096, pad)
    two = one & (pr == 1) & (p + 16 != wk) & (p + 16 != bk)
    succ[:, 9] = np.where(two, idx + 98304 + 8 * 4096, pad)

    todo = np.flatnonzero(res[:SIZE] == UNKNOWN)
    succ_todo = succ[todo]
    white_todo = white[todo]
    while True:
        v = res[succ_todo]
        any_win = (v == WIN).any(axis=1)
        all_draw = ((v == DRAW) | (v == INVALID)).all(axis=1)
        any_draw = (v == DRAW).any(axis=1)
        all_win = ((v == WIN) | (v == INVALID)).all(axis=1)
        new = np.where(white_todo, np.where(any_win, WIN, np.where(all_draw, DRAW, UNKNOWN)),
                       np.where(any_draw, DRAW, np.where(all_win, WIN, UNKNOWN))).astype(np.uint8)
        changed = new != UNKNOWN
        if not changed.any():
            break
        res[todo[changed]] = new[changed]
        keep = ~changed
        todo, succ_todo, white_todo = todo[keep], succ_todo[keep], white_todo[keep]
    return np.packbits(res[:SIZE] == WIN, bitorder="little").tobytes()


_bitbase: bytes | None = None


def load_bitbase(path: Path | None = None) -> bytes:
    """The shipped bitbase (``assets/kpk.bin``), or a fresh build if it is missing or
    has the wrong size."""
    global _bitbase
    if _bitbase is not None and path is None:
        return _bitbase
    target = path or asset_path("kpk.bin")
    try:
        data = Path(target).read_bytes()
    except OSError:
        data = b""
    if len(data) != SIZE // 8:
        data = build()
    if path is None:
        _bitbase = data
    return data


_promotion: bytes | None = None


def load_promotion(path: Path | None = None) -> bytes:
    """The promotion table (``build(safe=False)``, shipped as ``assets/kpk-promote.bin``),
    or a fresh build if it is missing or has the wrong size."""
    global _promotion
    if _promotion is not None and path is None:
        return _promotion
    target = path or asset_path("kpk-promote.bin")
    try:
        data = Path(target).read_bytes()
    except OSError:
        data = b""
    if len(data) != SIZE // 8:
        data = build(safe=False)
    if path is None:
        _promotion = data
    return data


def promotes(stm_black: bool, wk: int, bk: int, pawn: int) -> bool:
    """True if the strong side of the normalised position can force its pawn to promote
    (safely or not)."""
    data = _promotion if _promotion is not None else load_promotion()
    i = kpk_index(stm_black, wk, bk, pawn)
    return bool(data[i >> 3] >> (i & 7) & 1)


def normalise(board: chess.Board) -> tuple[bool, int, int, int, chess.Color]:
    """``(black_to_move, wk, bk, pawn, strong)`` with the strong side as White and the pawn
    on files a-d; raises :class:`KPKError` unless ``board`` is KPK and legal
    (``board.status()`` valid: no pawn on a back rank, kings apart, the side not to move
    not in check)."""
    if not is_kpk(board):
        raise KPKError(f"not a king and pawn versus king position: {board.fen()!r}")
    status = board.status()
    if status != chess.STATUS_VALID:
        raise KPKError(f"illegal position ({status_names(status)}): {board.fen()!r}")
    strong = chess.WHITE if board.pawns & board.occupied_co[chess.WHITE] else chess.BLACK
    wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
    assert wk is not None and bk is not None
    return (*normalise_squares(strong, board.turn, wk, bk, chess.lsb(board.pawns)), strong)


def normalise_squares(strong: chess.Color, turn: chess.Color, wk: int, bk: int, pawn: int
                      ) -> tuple[bool, int, int, int]:
    """``(black_to_move, wk, bk, pawn)`` of a KPK position given by squares (``strong``:
    the side with the pawn, ``turn``: the side to move), with the strong side as White
    (the board flipped vertically for Black) and the pawn on files a-d (mirrored
    horizontally otherwise): the bitbase's index space."""
    if not strong:
        wk, bk, pawn = bk ^ 0x38, wk ^ 0x38, pawn ^ 0x38
    if pawn & 7 > 3:
        wk, bk, pawn = wk ^ 7, bk ^ 7, pawn ^ 7
    return turn != strong, wk, bk, pawn


def is_kpk(board: chess.Board) -> bool:
    """Exactly two kings and one pawn, nothing else."""
    return (chess.popcount(board.occupied) == 3 and chess.popcount(board.pawns) == 1
            and chess.popcount(board.kings) == 2
            and bool(board.kings & board.occupied_co[chess.WHITE])
            and bool(board.kings & board.occupied_co[chess.BLACK]))


def probe(stm_black: bool, wk: int, bk: int, pawn: int) -> bool:
    """True if the normalised position is a win for the side with the pawn."""
    data = _bitbase if _bitbase is not None else load_bitbase()
    i = kpk_index(stm_black, wk, bk, pawn)
    return bool(data[i >> 3] >> (i & 7) & 1)


def probe_board(board: chess.Board) -> str:
    """``"win"`` or ``"draw"`` for the side with the pawn; raises :class:`KPKError` unless
    ``board`` is a legal KPK position (see :func:`normalise`)."""
    return "win" if probe(*normalise(board)[:4]) else "draw"
