"""Generate and Stockfish-label a corpus of king-and-pawn-only positions.

The corpus backs the "no false positives" test: the blockage detector must never
claim "side X cannot win" in a position where Stockfish finds a win for X.

Every position is generated here from a fixed random seed (nothing is copied
from third-party collections), then analysed by one Stockfish process with
``Threads=1`` and ``Hash=64``.

Rerun (from the repository root)::

    /work/venv/bin/python benchmarks/make_corpus.py \
        --engine /usr/games/stockfish --time 0.5 --count 420

The set of positions (and their order) depends only on ``SEED`` and
``--count``; the labels depend on the engine, the time per position and the
machine's speed, so a rerun may report slightly different depths and scores.

Output: ``tests/data/sf_corpus.jsonl`` (``--out``), one JSON object per line:

``fen``
    Full FEN, side to move included (no castling rights, no en-passant square).
``kind``
    Generator family. ``fortress``: rams forming a wall that both kings
    cannot cross or capture through, the stronger side's extra pawn(s) doubled
    behind its own wall. ``near_*``: the same walls with one flaw --
    ``near_gap`` (one ram removed), ``near_lever`` (a free stronger-side pawn
    next to a ram that can advance and strike it), ``near_passer`` (an extra
    stronger-side passed pawn above the wall), ``near_square`` (such a passer
    with the defending king outside its square), ``near_zugzwang`` (a gap that
    the defending king guards, defender to move), ``near_swapped`` (both kings
    on the wrong side of the wall). ``ord_*``: ordinary structures --
    ``ord_random`` (3-10 random pawns), ``ord_outside`` (an outside passed
    pawn), ``ord_protected`` (a protected passed pawn), ``ord_far_king``
    (a passed pawn whose stopping king is outside the square), ``ord_balanced``
    (equal, mutually blocked or symmetric pawns). Half of every family is
    mirrored (``chess.Board.mirror``: ranks flipped, colours swapped), so both
    colours appear as the stronger side.
``cp``
    Stockfish score in centipawns from White's point of view, or null when the
    score is a mate.
``mate``
    Mate distance in moves from White's point of view (positive: White mates),
    or null.
``depth``
    Search depth reached.
``pv``
    Principal variation as UCI moves, at most 16 plies.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import chess
import chess.engine

SEED = 20040623
PV_MAX = 16
MAX_TRIES = 2000

Square = int
Pawns = tuple[set[Square], set[Square]]  # (white pawns, black pawns)


# --------------------------------------------------------------------------- geometry


def sq(file: int, rank: int) -> Square:
    return chess.square(file, rank)


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def pawn_attacks(pawns: Iterable[Square], white: bool) -> set[Square]:
    step = 1 if white else -1
    out: set[Square] = set()
    for p in pawns:
        f, r = chess.square_file(p), chess.square_rank(p)
        for df in (-1, 1):
            if on_board(f + df, r + step):
                out.add(sq(f + df, r + step))
    return out


def pawn_paths(pawns: Pawns, white: bool) -> set[Square]:
    """Every square ``white``'s pawns occupy now or can reach by advancing up their file."""
    occupied = pawns[0] | pawns[1]
    step = 1 if white else -1
    out: set[Square] = set()
    for p in pawns[0] if white else pawns[1]:
        f, r = chess.square_file(p), chess.square_rank(p)
        out.add(p)
        r += step
        while 0 < r < 7 and sq(f, r) not in occupied:
            out.add(sq(f, r))
            r += step
    return out


def flood(pawns: Pawns, white: bool, starts: Iterable[Square]) -> tuple[set[Square], set[Square]]:
    """King flood of ``white``'s king with the pawns frozen.

    A square is enterable when it holds no own pawn and no enemy pawn attacks it.
    Returns (reachable empty squares, enemy pawns the king could capture).
    """
    own, enemy = (pawns[0], pawns[1]) if white else (pawns[1], pawns[0])
    blocked = own | pawn_attacks(enemy, not white)
    region: set[Square] = set()
    captures: set[Square] = set()
    todo = [s for s in starts if s not in blocked]
    while todo:
        s = todo.pop()
        if s in region or s in captures:
            continue
        if s in enemy:
            captures.add(s)
            continue
        region.add(s)
        for t in chess.SquareSet(chess.BB_KING_ATTACKS[s]):
            if t not in blocked and t not in region and t not in captures:
                todo.append(t)
    return region, captures


def rank_squares(rank: int) -> list[Square]:
    return [sq(f, rank) for f in range(8)]


def king_moves(board: chess.Board, color: chess.Color) -> int:
    b = board.copy(stack=False)
    b.turn = color
    return sum(1 for m in b.legal_moves if m.from_square == b.king(color))


def build(pawns: Pawns, wk: Square, bk: Square, white_to_move: bool) -> chess.Board | None:
    board = chess.Board(None)
    for p in pawns[0]:
        board.set_piece_at(p, chess.Piece(chess.PAWN, chess.WHITE))
    for p in pawns[1]:
        if board.piece_at(p) is not None:
            return None
        board.set_piece_at(p, chess.Piece(chess.PAWN, chess.BLACK))
    if wk in pawns[0] | pawns[1] or bk in pawns[0] | pawns[1] or wk == bk:
        return None
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.turn = chess.WHITE if white_to_move else chess.BLACK
    if not board.is_valid() or board.is_game_over():
        return None
    return board


# --------------------------------------------------------------------------- walls


class Wall:
    """Rams (white pawn directly below a black pawn) closing the board."""

    def __init__(self, rams: dict[int, int], extras: set[Square]) -> None:
        self.rams = rams  # file -> rank of the white pawn of the ram
        self.extras = extras  # White's extra pawns behind its wall

    def pawns(self) -> Pawns:
        white = {sq(f, r) for f, r in self.rams.items()} | set(self.extras)
        black = {sq(f, r + 1) for f, r in self.rams.items()}
        return white, black

    def regions(self, pawns: Pawns | None = None) -> tuple[set[Square], set[Square], bool]:
        """(White region from rank 1, Black region from rank 8, ok).

        ``ok``: the regions are disjoint, neither king can capture a pawn and no
        pawn can capture another, now or after advancing up its file (no levers),
        so only kings and the extra pawns behind the wall can move.
        """
        p = pawns or self.pawns()
        w, wc = flood(p, True, rank_squares(0))
        b, bc = flood(p, False, rank_squares(7))
        levers = pawn_attacks(pawn_paths(p, True), True) & p[1]
        levers |= pawn_attacks(pawn_paths(p, False), False) & p[0]
        return w, b, not (w & b) and not wc and not bc and not levers


def random_wall(rng: random.Random) -> Wall | None:
    if rng.random() < 0.3:
        files = list(range(8))
    else:
        n = rng.randint(4, 7)
        files = sorted(rng.sample(range(8), n))
    rams: dict[int, int] = {}
    rank = rng.randint(2, 4)
    prev = None
    for f in files:
        if prev is not None:
            # Adjacent rams on the same rank would be levers (mutual captures).
            step = rng.choice((-2, -1, -1, 1, 1, 2)) if f - prev == 1 else rng.choice((-1, 0, 1))
            rank = min(5, max(1, rank + step))
        rams[f] = rank
        prev = f
    wall = Wall(rams, set())
    _, _, ok = wall.regions()
    if not ok:
        return None
    # 1-2 extra white pawns doubled behind their own rammed pawns.
    for _ in range(rng.choice((1, 1, 1, 2))):
        f = rng.choice(list(rams))
        below = [r for r in range(1, rams[f]) if sq(f, r) not in wall.extras]
        if not below:
            continue
        wall.extras.add(sq(f, rng.choice(below)))
    if not wall.extras:
        return None
    w, b, ok = wall.regions()
    if not ok or len(w) < 4 or len(b) < 4:
        return None
    return wall


def any_wall(rng: random.Random) -> Wall:
    for _ in range(MAX_TRIES):
        wall = random_wall(rng)
        if wall is not None:
            return wall
    raise RuntimeError("could not build a wall")


def place(
    rng: random.Random,
    pawns: Pawns,
    w_squares: Iterable[Square],
    b_squares: Iterable[Square],
    white_to_move: bool | None = None,
    need_king_moves: bool = True,
) -> chess.Board | None:
    ws, bs = sorted(w_squares), sorted(b_squares)
    if not ws or not bs:
        return None
    stm = rng.random() < 0.5 if white_to_move is None else white_to_move
    board = build(pawns, rng.choice(ws), rng.choice(bs), stm)
    if board is None:
        return None
    if need_king_moves and (
        king_moves(board, chess.WHITE) == 0 or king_moves(board, chess.BLACK) == 0
    ):
        return None
    return board


def gen_fortress(rng: random.Random) -> chess.Board | None:
    wall = any_wall(rng)
    w, b, _ = wall.regions()
    return place(rng, wall.pawns(), w, b)


def open_gap(rng: random.Random, wall: Wall) -> tuple[Pawns, int] | None:
    """Remove one ram so that the two king regions meet."""
    files = list(wall.rams)
    rng.shuffle(files)
    for f in files:
        white, black = wall.pawns()
        white = white - {sq(f, wall.rams[f])}
        black = black - {sq(f, wall.rams[f] + 1)}
        if len(white) + len(black) < 2 or len(white) <= len(black):
            continue
        w, _ = flood((white, black), True, rank_squares(0))
        b, _ = flood((white, black), False, rank_squares(7))
        if w & b:
            return (white, black), f
    return None


def gen_near_gap(rng: random.Random) -> chess.Board | None:
    got = open_gap(rng, any_wall(rng))
    if got is None:
        return None
    pawns, _ = got
    w, _ = flood(pawns, True, rank_squares(0))
    b, _ = flood(pawns, False, rank_squares(7))
    # Kings start on their own side: the wall's old halves.
    w_side = {s for s in w if chess.square_rank(s) <= 3}
    b_side = {s for s in b if chess.square_rank(s) >= 4}
    return place(rng, pawns, w_side or w, b_side or b)


def gen_near_lever(rng: random.Random) -> chess.Board | None:
    wall = any_wall(rng)
    white, black = wall.pawns()
    w, b, _ = wall.regions()
    options: list[Square] = []
    for f, r in wall.rams.items():
        for g in (f - 1, f + 1):
            if not 0 <= g < 8 or g in wall.rams:
                continue
            # A white pawn on file g below the lever square (g, r) with a clear path.
            for start in range(1, r):
                path = [sq(g, x) for x in range(start, r + 1)]
                if any(p in white or p in black for p in path):
                    continue
                if sq(g, start) in pawn_attacks(black, False):
                    continue
                options.append(sq(g, start))
    if not options:
        return None
    lever = rng.choice(options)
    pawns = (white | {lever}, black)
    w = w - {lever}
    return place(rng, pawns, w, b)


def passer_squares(pawns: Pawns, region: set[Square]) -> list[Square]:
    white, black = pawns
    out = []
    for s in region:
        f, r = chess.square_file(s), chess.square_rank(s)
        if not 2 <= r <= 6:
            continue
        ahead = {sq(g, x) for g in (f - 1, f, f + 1) if 0 <= g < 8 for x in range(r + 1, 8)}
        if ahead & black:
            continue
        if any(sq(f, x) in white for x in range(r + 1, 8)):
            continue
        out.append(s)
    return out


def gen_near_passer(rng: random.Random, outside_square: bool = False) -> chess.Board | None:
    wall = any_wall(rng)
    pawns = wall.pawns()
    w, b, _ = wall.regions()
    cands = passer_squares(pawns, b)
    if not cands:
        return None
    passer = rng.choice(cands)
    new = (pawns[0] | {passer}, pawns[1])
    b2, _ = flood(new, False, rank_squares(7))
    b2 -= {passer}
    white_to_move = rng.random() < 0.5
    steps = 7 - chess.square_rank(passer)
    promo = sq(chess.square_file(passer), 7)
    if outside_square:
        limit = steps - (1 if white_to_move else 0)
        b2 = {s for s in b2 if chess.square_distance(s, promo) > limit}
    return place(rng, new, w, b2, white_to_move)


def gen_near_square(rng: random.Random) -> chess.Board | None:
    return gen_near_passer(rng, outside_square=True)


def gen_near_zugzwang(rng: random.Random) -> chess.Board | None:
    wall = any_wall(rng)
    got = open_gap(rng, wall)
    if got is None:
        return None
    pawns, gap = got
    w, b, _ = wall.regions()  # the old halves, before the gap opened
    w2, _ = flood(pawns, True, rank_squares(0))
    b2, _ = flood(pawns, False, rank_squares(7))
    gap_sq = sq(gap, wall.rams[gap])
    near_b = sorted((s for s in b & b2), key=lambda s: chess.square_distance(s, gap_sq))[:3]
    near_w = sorted((s for s in w & w2), key=lambda s: chess.square_distance(s, gap_sq))[:4]
    return place(rng, pawns, near_w, near_b, white_to_move=False)


def gen_near_swapped(rng: random.Random) -> chess.Board | None:
    wall = any_wall(rng)
    w, b, _ = wall.regions()
    return place(rng, wall.pawns(), b, w)


# --------------------------------------------------------------------------- ordinary


def free_squares(pawns: Pawns) -> list[Square]:
    return [s for s in chess.SQUARES if s not in pawns[0] and s not in pawns[1]]


def random_pawn(rng: random.Random, files: Iterable[int], lo: int = 1, hi: int = 6) -> Square:
    return sq(rng.choice(list(files)), rng.randint(lo, hi))


def add_pawns(rng: random.Random, pawns: Pawns, white: bool, n: int, files: Iterable[int]) -> None:
    files = list(files)
    for _ in range(n * 10):
        if n == 0:
            return
        s = random_pawn(rng, files)
        if s in pawns[0] or s in pawns[1]:
            continue
        (pawns[0] if white else pawns[1]).add(s)
        n -= 1


def gen_ord_random(rng: random.Random) -> chess.Board | None:
    pawns: Pawns = (set(), set())
    n = rng.randint(3, 10)
    nw = rng.randint(1, n - 1)
    add_pawns(rng, pawns, True, nw, range(8))
    add_pawns(rng, pawns, False, n - nw, range(8))
    free = free_squares(pawns)
    return place(rng, pawns, free, free, need_king_moves=False)


def gen_ord_outside(rng: random.Random) -> chess.Board | None:
    pawns: Pawns = (set(), set())
    left = rng.random() < 0.5
    wing = range(4, 8) if left else range(0, 4)
    k = rng.randint(1, 3)
    add_pawns(rng, pawns, True, k, wing)
    add_pawns(rng, pawns, False, k + rng.choice((0, 0, -1)), wing)
    pf = rng.choice((0, 1)) if left else rng.choice((6, 7))
    pawns[0].add(sq(pf, rng.randint(1, 4)))
    if not pawns[1]:
        pawns[1].add(random_pawn(rng, wing, 3, 6))
    free = free_squares(pawns)
    central = [s for s in free if 2 <= chess.square_file(s) <= 5]
    return place(rng, pawns, central, central, need_king_moves=False)


def gen_ord_protected(rng: random.Random) -> chess.Board | None:
    pawns: Pawns = (set(), set())
    f = rng.randint(0, 7)
    r = rng.randint(3, 5)
    g = f + rng.choice((-1, 1))
    if not 0 <= g < 8:
        return None
    pawns[0].update({sq(f, r), sq(g, r - 1)})
    far = [x for x in range(8) if abs(x - f) > 1]
    add_pawns(rng, pawns, False, rng.randint(1, 3), far)
    add_pawns(rng, pawns, True, rng.randint(0, 2), far)
    free = free_squares(pawns)
    return place(rng, pawns, free, free, need_king_moves=False)


def gen_ord_far_king(rng: random.Random) -> chess.Board | None:
    pawns: Pawns = (set(), set())
    f = rng.randint(0, 7)
    r = rng.randint(2, 5)
    pawns[0].add(sq(f, r))
    far = [x for x in range(8) if abs(x - f) > 1]
    add_pawns(rng, pawns, False, rng.randint(1, 3), far)
    add_pawns(rng, pawns, True, rng.randint(0, 2), far)
    white_to_move = rng.random() < 0.5
    promo = sq(f, 7)
    limit = 7 - r - (1 if white_to_move else 0)
    free = free_squares(pawns)
    outside = [s for s in free if chess.square_distance(s, promo) > limit]
    return place(rng, pawns, free, outside, white_to_move, need_king_moves=False)


def gen_ord_balanced(rng: random.Random) -> chess.Board | None:
    pawns: Pawns = (set(), set())
    for f in rng.sample(range(8), rng.randint(2, 4)):
        r = rng.randint(1, 5)
        if rng.random() < 0.6:  # ram
            pawns[0].add(sq(f, r))
            pawns[1].add(sq(f, r + 1))
        else:  # symmetric, facing each other at a distance
            pawns[0].add(sq(f, min(r, 2)))
            pawns[1].add(sq(f, 7 - min(r, 2)))
    free = free_squares(pawns)
    return place(rng, pawns, free, free, need_king_moves=False)


# --------------------------------------------------------------------------- corpus

Generator = Callable[[random.Random], "chess.Board | None"]

FAMILIES: dict[str, list[tuple[str, Generator]]] = {
    "fortress": [("fortress", gen_fortress)],
    "near": [
        ("near_gap", gen_near_gap),
        ("near_lever", gen_near_lever),
        ("near_passer", gen_near_passer),
        ("near_square", gen_near_square),
        ("near_zugzwang", gen_near_zugzwang),
        ("near_swapped", gen_near_swapped),
    ],
    "ordinary": [
        ("ord_random", gen_ord_random),
        ("ord_outside", gen_ord_outside),
        ("ord_protected", gen_ord_protected),
        ("ord_far_king", gen_ord_far_king),
        ("ord_balanced", gen_ord_balanced),
    ],
}


def acceptable(board: chess.Board) -> bool:
    only_kp = board.occupied == board.kings | board.pawns
    return (
        only_kp
        and board.is_valid()
        and not board.is_game_over()
        and board.king(chess.WHITE) is not None
        and board.king(chess.BLACK) is not None
        and chess.popcount(board.pawns) >= 2
    )


def generate(count: int, seed: int = SEED) -> list[tuple[str, chess.Board]]:
    rng = random.Random(seed)
    quotas = [count // 3, count // 3, count - 2 * (count // 3)]
    seen: set[str] = set()
    out: list[tuple[str, chess.Board]] = []
    for (_, gens), quota in zip(FAMILIES.items(), quotas, strict=True):
        made = 0
        fails = 0
        while made < quota:
            kind, gen = gens[made % len(gens)]
            board = gen(rng)
            if board is not None and rng.random() < 0.5:
                board = board.mirror()
            key = None if board is None else f"{board.board_fen()} {'wb'[not board.turn]}"
            if board is None or key in seen or not acceptable(board):
                fails += 1
                if fails > MAX_TRIES * quota:
                    raise RuntimeError(f"generator {kind} keeps failing")
                continue
            seen.add(key)
            out.append((kind, board))
            made += 1
    return out


def promotes(board: chess.Board, pv: list[chess.Move], color: chess.Color) -> bool:
    b = board.copy(stack=False)
    for move in pv:
        if move.promotion and b.turn == color:
            return True
        if move not in b.legal_moves:
            return False
        b.push(move)
    return False


def label(
    engine: chess.engine.SimpleEngine, board: chess.Board, seconds: float
) -> dict[str, object]:
    info = engine.analyse(board, chess.engine.Limit(time=seconds))
    score = info["score"].white()
    pv = list(info.get("pv", []))[:PV_MAX]
    return {
        "fen": board.fen(),
        "cp": score.score(),
        "mate": score.mate(),
        "depth": int(info.get("depth", 0)),
        "pv": [m.uci() for m in pv],
    }


def summarise(rows: list[dict[str, object]]) -> str:
    per: dict[str, Counter[str]] = {}
    for row in rows:
        c = per.setdefault(str(row["kind"]), Counter())
        c["n"] += 1
        cp, mate = row["cp"], row["mate"]
        pv = [chess.Move.from_uci(m) for m in row["pv"]]  # type: ignore[union-attr]
        board = chess.Board(str(row["fen"]))
        if isinstance(cp, int) and abs(cp) <= 50:
            c["drawish"] += 1
        if (isinstance(mate, int) and mate > 0) or (
            isinstance(cp, int) and cp >= 400 and promotes(board, pv, chess.WHITE)
        ):
            c["white_wins"] += 1
        if (isinstance(mate, int) and mate < 0) or (
            isinstance(cp, int) and cp <= -400 and promotes(board, pv, chess.BLACK)
        ):
            c["black_wins"] += 1
    cols = ("n", "drawish", "white_wins", "black_wins")
    lines = [f"{'kind':<15}" + "".join(f"{c:>11}" for c in cols)]
    total: Counter[str] = Counter()
    for kind in sorted(per):
        total.update(per[kind])
        lines.append(f"{kind:<15}" + "".join(f"{per[kind][c]:>11}" for c in cols))
    lines.append(f"{'TOTAL':<15}" + "".join(f"{total[c]:>11}" for c in cols))
    lines.append(
        "drawish: |cp| <= 50; X_wins: mate for X, or cp >= 400 for X"
        " with a promotion by X in the pv"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--engine", default="/usr/games/stockfish", help="UCI engine path")
    ap.add_argument("--time", type=float, default=0.5, help="seconds per position")
    ap.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parents[1] / "tests" / "data" / "sf_corpus.jsonl",
        help="output JSONL file",
    )
    ap.add_argument("--count", type=int, default=420, help="number of positions")
    ap.add_argument("--seed", type=int, default=SEED, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    start = time.monotonic()
    positions = generate(args.count, args.seed)
    rows: list[dict[str, object]] = []
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    try:
        engine.configure({"Threads": 1, "Hash": 64})
        for i, (kind, board) in enumerate(positions, 1):
            row = {"fen": board.fen(), "kind": kind}
            row.update({k: v for k, v in label(engine, board, args.time).items() if k != "fen"})
            rows.append(row)
            if i % 50 == 0:
                print(f"{i}/{len(positions)} labelled", file=sys.stderr, flush=True)
    finally:
        engine.quit()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    print(f"wrote {len(rows)} positions to {args.out} in {time.monotonic() - start:.0f} s")
    print(summarise(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
