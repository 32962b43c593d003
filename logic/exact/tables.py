"""Bitboard-parallel retrograde analysis of one pawn structure (the core of :mod:`logic.exact`).

Orientation: the attacking side X is White (its pawns move north), the defender D is
Black; :mod:`logic.exact` flips a position where X is Black.

A *table* holds one bit per king placement for one side to move, as a 4096-bit
Python ``int``: bit ``bk * 64 + wk`` where ``wk`` is X's king and ``bk`` D's king.
X-king moves are shifts by 1, 7, 8, 9 inside each 64-bit lane (with wrap masks), D-king
moves shifts by 64 times that (with masks on the D-king lane).

A structure is a pair ``(xp, dp)`` of pawn bitboards.  Every pawn move or capture
(by a pawn or a king) leads to a different structure, and never back, so the
structures reachable from a root form a DAG; each is solved once, after its
successors, by :func:`solve_structure`.  "Win" means: X can force the *target* --
any promotion (by X or D) or D checkmated -- against any defence.

The games solved:

* ``FULL``: both sides make every legal move.
* ``KINGS``: D may only make non-capturing king moves (its pawns are frozen); a D
  with no such move counts as a win for X.  Every D strategy of this game is a D
  strategy of the full game, so "X does not win" here proves it for the full game.
* ``NOPUSH``: the same, but D may also capture (with its king or its pawns, en
  passant included); D's pawns never push.
* ``LEVERS``: between the two: D steps with its king and captures with its pawns (en
  passant included), but never pushes and never takes a pawn with its king.  A wall
  holds by its pawns' levers, not by the king's captures, so this game proves most of
  NOPUSH's blockages with far fewer structures (no king capture opens a branch).
* ``GUARD``: LEVERS, where X's king taking a pawn also ends the game as X's success
  (like a promotion).  X wins wherever it wins LEVERS (a capture only ends its play
  sooner), so "X does not win" here proves it for LEVERS and the full game.  A
  fortress whose king keeps X's king from every pawn is proved with only the
  structures X's pawn moves and both sides' pawn captures make, where LEVERS also
  solves every structure X's king could eat its way into.

En passant is transient: the state after a double push with an en-passant capture
available is never stored; its value is combined from the double-pushed structure
and the structure after the capture (:func:`ep_after_x_double`,
:func:`ep_after_d_double`).
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from logic.bitboards import pawn_attacks

__all__ = [
    "FULL", "KINGS", "NOPUSH", "LEVERS", "GUARD", "NSTATES", "ALL_STATES", "LANES1", "KING_OFF",
    "Tables",
    "Move", "Moves", "Legal", "PUSH", "DOUBLE", "CAP", "PROMO", "KCAP", "LOW", "HIGH",
    "x_on", "d_on", "kings_on", "lanes_of", "x_pred", "d_pred", "bits", "legal_masks",
    "move_legal", "moves_of", "solve_structure", "ep_after_x_double", "ep_after_d_double",
    "progress", "index", "king_squares", "x_king_onto", "d_king_onto", "promo_capturable",
    "d_takes_promoted",
]

FULL = "full"
KINGS = "kings"
NOPUSH = "nopush"
LEVERS = "levers"
GUARD = "guard"

NSTATES = 4096
ALL_STATES = (1 << NSTATES) - 1
_ALL64 = chess.BB_ALL
#: bit 0 of every lane
LANES1 = sum(1 << (64 * i) for i in range(64))
_RANK_1, _RANK_2, _RANK_7, _RANK_8 = (chess.BB_RANK_1, chess.BB_RANK_2, chess.BB_RANK_7,
                                      chess.BB_RANK_8)
_KA = chess.BB_KING_ATTACKS

_EXP1 = [b"".join((b"\x01" + bytes(7)) if v >> j & 1 else bytes(8) for j in range(8))
         for v in range(256)]
_EXPF = [b"".join(b"\xff" * 8 if v >> j & 1 else bytes(8) for j in range(8))
         for v in range(256)]


def index(xk: chess.Square, dk: chess.Square) -> int:
    """The table bit of X's king on ``xk`` and D's king on ``dk``."""
    return dk * 64 + xk


def x_on(bb: int) -> int:
    """The states with X's king on a square of ``bb``."""
    return bb * LANES1


def lanes_of(bb: int) -> int:
    """Bit 0 of every lane whose D-king square is in ``bb``."""
    return int.from_bytes(b"".join([_EXP1[x] for x in bb.to_bytes(8, "little")]), "little")


def d_on(bb: int) -> int:
    """The states with D's king on a square of ``bb``."""
    return int.from_bytes(b"".join([_EXPF[x] for x in bb.to_bytes(8, "little")]), "little")


def kings_on(bb: int) -> int:
    """The states with either king on a square of ``bb``."""
    return x_on(bb) | d_on(bb)


def king_squares(table: int, xk: chess.Square | None = None,
                 dk: chess.Square | None = None) -> int:
    """The 64-bit board of one slice of ``table``: with ``dk`` given, the X-king squares
    of lane ``dk``; with ``xk`` given, the D-king squares of column ``xk``."""
    if dk is not None:
        return (table >> (64 * dk)) & _ALL64
    assert xk is not None
    col = (table >> xk) & LANES1
    return sum(1 << sq for sq in range(64) if col >> (64 * sq) & 1)


def _src(delta: int) -> int:
    """Squares a king can step from by ``delta`` without leaving the board or wrapping."""
    bb = 0
    for s in range(64):
        t = s + delta
        if 0 <= t < 64 and abs((t & 7) - (s & 7)) <= 1:
            bb |= 1 << s
    return bb


# X king: horizontal steps, then vertical steps of (horizontal | identity)
_VX_E, _VX_W, _VX_N, _VX_S = x_on(_src(1)), x_on(_src(-1)), x_on(_src(8)), x_on(_src(-8))
# D king: the same on lanes
_VD_E, _VD_W, _VD_N, _VD_S = d_on(_src(1)), d_on(_src(-1)), d_on(_src(8)), d_on(_src(-8))
#: kings on the same or adjacent squares
_NEAR = sum((_KA[bk] | 1 << bk) << (64 * bk) for bk in range(64))


def x_pred(b: int) -> int:
    """States from which an X-king step reaches a state of ``b`` (same D king)."""
    h = ((b >> 1) & _VX_E) | ((b << 1) & _VX_W)
    v = h | b
    return h | ((v >> 8) & _VX_N) | ((v << 8) & _VX_S)


def d_pred(w: int) -> int:
    """States from which a D-king step reaches a state of ``w`` (same X king)."""
    h = ((w >> 64) & _VD_E) | ((w << 64) & _VD_W)
    v = h | w
    return h | ((v >> 512) & _VD_N) | ((v << 512) & _VD_S)


_FOLD = (1, 2, 4, 8, 16, 32)


def x_king_onto(states: int, sq: chess.Square) -> int:
    """The states after X's king steps onto ``sq`` from the states of ``states`` where it
    stands next to ``sq`` (D's king stays): where a king capture on ``sq`` leads."""
    x = states & x_on(_KA[sq])
    for sh in _FOLD:  # any bit of a lane to the lane's bit 0
        x |= x >> sh
    return (x & LANES1) << sq


def d_king_onto(states: int, sq: chess.Square) -> int:
    """The same for D's king (X's king stays)."""
    xs = 0
    for k in bits(_KA[sq]):
        xs |= (states >> (64 * k)) & _ALL64
    return xs << (64 * sq)


class Tables(NamedTuple):
    """One solved structure (exact, or one bound of a partially expanded one).

    ``wgood``: X to move, the states that are X wins *or* illegal (what a D move into
    this structure needs); ``b``: D to move, the X wins (illegal states are 0);
    ``bstale``: D to move, legal, D has no legal move and is not in check (FULL only:
    an en-passant capture turns those into real choices).  X-to-move wins are
    ``wgood & legal_masks(...).w``.
    """

    wgood: int
    b: int
    bstale: int


#: frontier bounds of an unexpanded structure: nothing won (LOW), everything won (HIGH);
#: move legality is then taken from the parent (:func:`move_legal`)
LOW = Tables(0, 0, 0)
HIGH = Tables(ALL_STATES, ALL_STATES, 0)

PUSH, DOUBLE, CAP, PROMO, KCAP = range(5)


class Move(NamedTuple):
    """One structure-changing move.

    ``kind``: PUSH (single push), DOUBLE, CAP (pawn capture), PROMO (push to the last
    rank), KCAP (the king captures the pawn on ``sq``); ``sq`` the destination;
    ``child`` the structure after it; for PROMO None (the promotion always ends the
    game), except X's promotions in FULL onto a square no other X pawn guards: there
    the structure after D's king takes the new piece (:func:`promo_capturable`,
    :func:`d_takes_promoted`); None too for X's KCAP in GUARD (it ends the game as
    X's success); ``mid`` the square a double
    push passes; ``ep`` the structures after the opponent's en-passant captures a
    double push allows; ``gx``, ``gd``: how much :func:`progress` changes.
    """

    kind: int
    child: tuple[int, int] | None
    sq: int
    mid: int
    ep: tuple[tuple[int, int], ...]
    gx: int
    gd: int


class Moves(NamedTuple):
    """The structure-changing moves of X (White to move) and of D (Black to move)."""

    x: tuple[Move, ...]
    d: tuple[Move, ...]


def progress(xp: int, dp: int) -> tuple[int, int]:
    """``(px, pd)``: each side's progress, the sum of its pawns' ranks (0-7, from its own
    side) plus 6 per own pawn missing and 1 per enemy pawn missing (of 8).  No move
    lowers either; a pawn move or capture of X raises ``px``, one of D ``pd``.  So a
    pair of limits on them, from the root, is a function of the structure alone."""
    nx, nd = xp.bit_count(), dp.bit_count()
    px = 6 * (8 - nx) + 8 - nd
    pd = 6 * (8 - nd) + 8 - nx
    for r in range(1, 7):
        px += r * (xp & chess.BB_RANKS[r]).bit_count()
        pd += r * (dp & chess.BB_RANKS[7 - r]).bit_count()
    return px, pd


_ATT_W = chess.BB_PAWN_ATTACKS[chess.WHITE]
_ATT_B = chess.BB_PAWN_ATTACKS[chess.BLACK]


_NOT_A = _ALL64 & ~chess.BB_FILE_A
_NOT_H = _ALL64 & ~chess.BB_FILE_H
#: builds a Move from its fields in order without the NamedTuple constructor's overhead:
#: a hot path (measured: keyword construction makes ``moves_of`` 9 us slower, 99.8 vs
#: 91.1 us for 16 moves a structure, and a structure solve 8 % slower, 528 vs 488 us,
#: Fine #70's whole DAG and a gap expansion; best of 7 on a two-core machine)
_mk = tuple.__new__


def _x_promo(xp: int, dp: int, t: int, takeable: bool) -> Move:
    """X's promotion on ``t``; with ``takeable`` (FULL) and no other X pawn guarding
    ``t``, its child is the structure after D's king takes the new piece (X's pawn gone:
    ``px`` stays, ``pd`` gains 1)."""
    rest = xp ^ (1 << (t - 8))
    if takeable and not _ATT_B[t] & rest:
        return Move(kind=PROMO, child=(rest, dp), sq=t, mid=0, ep=(), gx=0, gd=1)
    return Move(kind=PROMO, child=None, sq=t, mid=0, ep=(), gx=0, gd=0)


def _x_moves(xp: int, dp: int, d_captures_ep: bool, takeable: bool = False) -> list[Move]:
    occ = xp | dp
    out: list[Move] = []
    app = out.append
    pushes = (xp << 8) & ~occ & _ALL64
    bb = pushes & _RANK_8
    while bb:
        t = (bb & -bb).bit_length() - 1
        bb &= bb - 1
        app(_x_promo(xp, dp, t, takeable))
    bb = pushes & ~_RANK_8
    while bb:
        t = (bb & -bb).bit_length() - 1
        bb &= bb - 1
        app(_mk(Move, (PUSH, (xp ^ (1 << (t - 8)) ^ (1 << t), dp), t, 0, (), 1, 0)))
    bb = (pushes << 8) & ~occ & chess.BB_RANK_4
    while bb:
        t2 = (bb & -bb).bit_length() - 1
        bb &= bb - 1
        t = t2 - 8
        rest = xp ^ (1 << (t - 8))
        ep: tuple[tuple[int, int], ...] = ()
        if d_captures_ep:
            ep = tuple((rest, dp ^ (1 << q) ^ (1 << t)) for q in bits(_ATT_W[t] & dp))
        app(_mk(Move, (DOUBLE, (rest | 1 << t2, dp), t2, t, ep, 2, 0)))
    for delta, mask in ((7, _NOT_H), (9, _NOT_A)):
        bb = (xp << delta) & mask & dp
        while bb:
            q = (bb & -bb).bit_length() - 1
            bb &= bb - 1
            app(_mk(Move, (CAP, (xp ^ (1 << (q - delta)) ^ (1 << q), dp ^ (1 << q)), q, 0, (), 2,
                     (q >> 3) - 1)))
    bb = dp & ~pawn_attacks(dp, chess.BLACK)
    while bb:
        q = (bb & -bb).bit_length() - 1
        bb &= bb - 1
        app(_mk(Move, (KCAP, (xp, dp ^ (1 << q)), q, 0, (), 1, (q >> 3) - 1)))
    return out


def _d_moves(xp: int, dp: int, pushes_too: bool, king_takes: bool = True) -> list[Move]:
    occ = xp | dp
    out: list[Move] = []
    app = out.append
    if pushes_too:
        pushes = (dp >> 8) & ~occ
        bb = pushes & _RANK_1
        while bb:
            t = (bb & -bb).bit_length() - 1
            bb &= bb - 1
            app(_mk(Move, (PROMO, None, t, 0, (), 0, 0)))
        bb = pushes & ~_RANK_1
        while bb:
            t = (bb & -bb).bit_length() - 1
            bb &= bb - 1
            app(_mk(Move, (PUSH, (xp, dp ^ (1 << (t + 8)) ^ (1 << t)), t, 0, (), 0, 1)))
        bb = (pushes >> 8) & ~occ & chess.BB_RANK_5
        while bb:
            t2 = (bb & -bb).bit_length() - 1
            bb &= bb - 1
            t = t2 + 8
            rest = dp ^ (1 << (t + 8))
            ep = tuple((xp ^ (1 << p) ^ (1 << t), rest) for p in bits(_ATT_B[t] & xp))
            app(_mk(Move, (DOUBLE, (xp, rest | 1 << t2), t2, t, ep, 0, 2)))
    for delta, mask in ((9, _NOT_H), (7, _NOT_A)):
        bb = (dp >> delta) & mask & xp
        while bb:
            p = (bb & -bb).bit_length() - 1
            bb &= bb - 1
            app(_mk(Move, (CAP, (xp ^ (1 << p), dp ^ (1 << (p + delta)) ^ (1 << p)), p, 0, (),
                     6 - (p >> 3), 2)))
    bb = xp & ~pawn_attacks(xp, chess.WHITE) if king_takes else 0
    while bb:
        p = (bb & -bb).bit_length() - 1
        bb &= bb - 1
        app(_mk(Move, (KCAP, (xp ^ (1 << p), dp), p, 0, (), 6 - (p >> 3), 1)))
    return out


def bits(bb: int) -> list[int]:
    out = []
    while bb:
        out.append((bb & -bb).bit_length() - 1)
        bb &= bb - 1
    return out


def moves_of(xp: int, dp: int, mode: str) -> Moves:
    """Every structure-changing move in ``mode`` (a superset of those legal for some king
    placement; king captures of pawns their own pawns protect are left out).

    Only FULL gives X's promotions the child where D's king takes the new piece at once;
    the restricted games count every promotion as X's success (GUARD every king capture
    of X too: its child is None).  That only adds X wins
    (D may always decline the capture), so their "X cannot win" stays a proof for the
    full game."""
    if mode == KINGS:
        return Moves(tuple(_x_moves(xp, dp, False)), ())
    if mode == LEVERS:
        return Moves(tuple(_x_moves(xp, dp, True)), tuple(_d_moves(xp, dp, False, False)))
    if mode == GUARD:
        x = tuple(mv if mv.kind != KCAP else mv._replace(child=None)
                  for mv in _x_moves(xp, dp, True))
        return Moves(x, tuple(_d_moves(xp, dp, False, False)))
    full = mode == FULL
    return Moves(tuple(_x_moves(xp, dp, True, full)), tuple(_d_moves(xp, dp, full)))


class Legal(NamedTuple):
    """Per-structure legality: ``w``/``b`` the legal states with X / D to move;
    ``xcheck`` X to move in check, ``dcheck`` D to move in check."""

    w: int
    b: int
    xcheck: int
    dcheck: int


def legal_masks(xp: int, dp: int) -> Legal:
    """Legal king placements of ``(xp, dp)``: kings apart, not on pawns, the side not to
    move not in check."""
    occ = xp | dp
    base = _BASE & ~(x_on(occ) | d_on(occ))
    w = base & ~d_on(pawn_attacks(xp, chess.WHITE))
    b = base & ~x_on(pawn_attacks(dp, chess.BLACK))
    return Legal(w, b, w & ~b, b & ~w)


_BASE = ALL_STATES & ~_NEAR
#: the states with a king on square s
_KON = [kings_on(1 << s) for s in range(64)]
KING_OFF = [ALL_STATES ^ k for k in _KON]
#: X's king next to s and D's king not: X's king may capture an unprotected pawn on s
_KCAPX = [lanes_of(_ALL64 & ~_KA[s] & ~(1 << s)) * _KA[s] for s in range(64)]
#: the same for D's king
_KCAPD = [lanes_of(_KA[s]) * (_ALL64 & ~_KA[s] & ~(1 << s)) for s in range(64)]
_LKA = [lanes_of(_KA[s]) for s in range(64)]
_XNEXT = [x_on(_ATT_B[s]) for s in range(64)]  # X's king attacked by a black pawn on s
_DNEXT = [d_on(_ATT_W[s]) for s in range(64)]  # D's king attacked by a white pawn on s


#: D's king next to s and X's king not (nor on s): D's king may take a piece X promotes
#: on s when no X pawn guards s
_PCAP = [d_on(_KA[s]) & ~x_on(_KA[s] | 1 << s) for s in range(64)]


def promo_capturable(sq: chess.Square) -> int:
    """The states (either side to move) with D's king next to ``sq`` and X's king neither
    next to nor on it: where D's king may take at once a piece X promotes on ``sq``
    when no X pawn guards ``sq``."""
    return _PCAP[sq]


def d_takes_promoted(states: int, sq: chess.Square) -> int:
    """The X-to-move states after D's king takes a piece X just promoted on ``sq``, from
    the states of ``states`` where it can (:func:`promo_capturable`): D's king on
    ``sq``, X's king where it was."""
    return d_king_onto(states & _PCAP[sq], sq)


def _promo_wins(mv: Move, c: Tables) -> int:
    """The states where X's promotion ``mv`` (with a child) wins, given the child's
    tables: the promotion stands (D's king cannot take the new piece), or D's king
    takes it into an X win (the child's X-to-move lane of ``mv.sq``).  D chooses, and
    a promotion that stands is X's success, so a capture decides where there is one."""
    t = mv.sq
    if c is HIGH:
        return ALL_STATES
    lane = (c.wgood >> (64 * t)) & _ALL64
    return (ALL_STATES ^ _PCAP[t]) | (lane * _LKA[t] & _PCAP[t])


def move_legal(mv: Move, nocheck: int, check: int, x: bool) -> int:
    """The states where ``mv`` is legal (``nocheck``/``check``: the mover not / in check)."""
    kind = mv.kind
    if kind == PUSH:
        return nocheck & KING_OFF[mv.sq]
    if kind == DOUBLE:
        return nocheck & KING_OFF[mv.sq] & KING_OFF[mv.mid]
    if kind == CAP:  # in check: only the checker may be taken
        return nocheck | (check & (_XNEXT if x else _DNEXT)[mv.sq])
    if kind == KCAP:
        return (_KCAPX if x else _KCAPD)[mv.sq]
    return nocheck & KING_OFF[mv.sq]


def ep_after_x_double(child: Tables, caps: tuple[Tables, ...], caps_w: tuple[int, ...]) -> int:
    """D to move after X's double push (``child``), D able to capture en passant into
    each of ``caps`` (``caps_w`` their legal X-to-move masks): the X wins."""
    v = child.b | child.bstale
    for c, lw in zip(caps, caps_w, strict=True):
        v &= c.wgood & lw
    return v


def ep_after_d_double(child: Tables, caps: tuple[Tables, ...]) -> int:
    """X to move after D's double push (``child``), X able to capture en passant into
    each of ``caps``: the states that are X wins or illegal."""
    v = child.wgood
    for c in caps:
        v |= c.b
    return v


def _x_static(moves: tuple[Move, ...], get, lg: Legal) -> int:
    """X-to-move states won at once by a structure-changing move."""
    static = 0
    nocheck = lg.w ^ lg.xcheck
    for mv in moves:
        kind = mv.kind
        if mv.child is None:  # ends the game as X's success: a promotion, GUARD's capture
            static |= move_legal(mv, nocheck, lg.xcheck, True)
            continue
        if kind == PROMO:  # D's king may take the new piece at once
            static |= nocheck & KING_OFF[mv.sq] & _promo_wins(mv, get(mv.child))
            continue
        c = get(mv.child)
        if c is HIGH:
            static |= move_legal(mv, nocheck, lg.xcheck, True)
        elif c is LOW:
            continue
        elif kind == KCAP:
            static |= ((c.b >> mv.sq) & LANES1) * _KA[mv.sq]
        elif kind == DOUBLE:
            if mv.ep:
                caps = tuple(get(k) for k in mv.ep)
                v = ep_after_x_double(c, caps, tuple(ALL_STATES if t is HIGH or t is LOW
                                                     else legal_masks(*k).w
                                                     for k, t in zip(mv.ep, caps, strict=True)))
            else:
                v = c.b
            static |= v & KING_OFF[mv.mid]
        else:
            static |= c.b
    return static & lg.w


def _d_static(moves: tuple[Move, ...], get, lg: Legal) -> tuple[int, int]:
    """``(escape, has)``: D-to-move states where some structure-changing move leads to
    an X non-win, and where some such move is legal (when D is not in check)."""
    esc = has = 0
    nocheck = lg.b ^ lg.dcheck
    for mv in moves:
        kind = mv.kind
        legal = move_legal(mv, nocheck, lg.dcheck, False)
        has |= legal
        if kind == PROMO:  # reaches the target: never an escape
            continue
        c = get(mv.child)
        if c is HIGH:
            continue
        if c is LOW:
            esc |= legal
        elif kind == KCAP:
            p = mv.sq
            esc |= (((c.wgood >> (64 * p)) & _ALL64) ^ _ALL64) * _LKA[p] & legal
        elif kind == DOUBLE:
            good = ep_after_d_double(c, tuple(get(k) for k in mv.ep))
            esc |= legal & ~good
        else:
            esc |= legal & ~c.wgood
    return esc, has


def solve_structure(xp: int, dp: int, mode: str, moves: Moves, get) -> Tables:
    """Solve one structure whose successors ``get(child) -> Tables`` are known.

    X to move wins if a structure-changing move or a king step wins; D to move loses
    (X wins) if every legal move leads to an X win and D has a legal move or is
    mated.  In KINGS, D's only moves are king steps and having none loses.
    Iterated to the least fixed point (wins in finitely many plies).
    """
    lg = legal_masks(xp, dp)
    lw = lg.w
    if not xp and not dp:
        return Tables(ALL_STATES ^ lw, 0, 0)
    static = _x_static(moves.x, get, lg)
    if mode == FULL:
        kmoves = d_pred(lw)  # D has a king step
        esc, has = _d_static(moves.d, get, lg)
        has |= kmoves
        maskb = lg.b & ~esc & (has | lg.dcheck)
        bstale = lg.b & ~lg.dcheck & ~has
    elif mode in (NOPUSH, LEVERS, GUARD):  # no allowed move loses for D
        maskb, bstale = lg.b & ~_d_static(moves.d, get, lg)[0], 0
    else:
        maskb, bstale = lg.b, 0
    w = static
    while True:
        b = maskb & ~d_pred(lw ^ w)
        nw = w | (lw & x_pred(b))
        if nw == w:
            break
        w = nw
    return Tables(w | (ALL_STATES ^ lw), b, bstale)
