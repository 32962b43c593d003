"""``pawnfence bench``: detector throughput beside python-chess's own FEN parse.

All figures come from one run on the same positions, so the ratios are the
result; absolute microseconds depend on the machine.  "Uncached" empties the
caches before every timed round (each position is timed once per round, and
duplicates are removed first, so every call in the round misses); "cached"
repeats the round on warm caches.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import chess

import logic
from logic.assets import asset_path
from logic.position import PositionFileError, load_boards, open_text
from logic.search import collector_paused

__all__ = ["run_bench", "load_positions", "measure", "measure_search"]


def load_positions(path: str | None = None) -> list[chess.Board]:
    """Unique boards from an EPD/FEN file (default: ``assets/bench.epd``); raises
    :class:`~logic.position.PositionFileError`."""
    return load_boards(path or asset_path("bench.epd"), unique=True)


def _best(rounds: int, setup: Callable[[], object], body: Callable[[], object]) -> float:
    """The fastest of ``rounds`` timings of ``body`` (``setup`` untimed before each),
    with the cyclic garbage collector paused while timing, as :mod:`timeit` does, so
    that a collection triggered by one contender's allocations is not billed to the
    other."""
    best = float("inf")
    for _ in range(rounds):
        setup()
        gc.collect()
        with collector_paused():
            t0 = time.perf_counter()
            body()
            best = min(best, time.perf_counter() - t0)
    return best


def measure(boards: list[chess.Board], rounds: int = 7) -> dict[str, float]:
    """Microseconds per position: parse, and detection of both sides per method."""
    fens = [b.fen() for b in boards]
    n = len(boards)
    detect = logic.detect
    out: dict[str, float] = {"positions": n}

    def parse() -> None:
        for f in fens:
            chess.Board(f)

    out["parse_us"] = _best(rounds, lambda: None, parse) / n * 1e6
    for method in logic.STATIC_METHODS:
        def both(method: str = method) -> None:
            for b in boards:
                detect(b, True, method=method)
                detect(b, False, method=method)

        out[f"{method}_uncached_us"] = _best(rounds, logic.clear_cache, both) / n * 1e6
        both()
        out[f"{method}_cached_us"] = _best(rounds, lambda: None, both) / n * 1e6
    logic.clear_cache()
    out.update(measure_kpk(rounds))
    return out


def measure_kpk(rounds: int = 7) -> dict[str, float]:
    """KPK: seconds to build the bitbase, microseconds per probe (board and raw index)."""
    from logic import kpk

    t0 = time.perf_counter()
    kpk.build()
    build_s = time.perf_counter() - t0
    kpk.load_bitbase()
    boards = []
    for p in (chess.A2, chess.D4, chess.G6, chess.E7):
        for wk, bk in ((chess.A1, chess.H8), (chess.E1, chess.E8), (chess.H3, chess.C6)):
            b = chess.Board(None)
            b.set_piece_at(p, chess.Piece(chess.PAWN, chess.WHITE))
            b.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
            b.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
            if b.is_valid():
                boards.append(b)
    raws = [kpk.normalise(b)[:4] for b in boards]
    n = len(boards) * 200

    def by_board() -> None:
        for _ in range(200):
            for b in boards:
                kpk.probe_board(b)

    def by_index() -> None:
        for _ in range(200):
            for r in raws:
                kpk.probe(*r)

    return {"kpk_build_s": build_s,
            "kpk_probe_board_us": _best(rounds, lambda: None, by_board) / n * 1e6,
            "kpk_probe_index_us": _best(rounds, lambda: None, by_index) / n * 1e6}


def measure_search(boards: list[chess.Board], seconds: float, limit: int = 40,
                   rounds: int = 3) -> dict[str, dict[str, float]]:
    """The search's speed with detection off and with each static method (paper 4,
    Table 1), on at most ``limit`` positions that no method proves blocked at the root
    for either side (their searches end at once, so their "speed" would be set-up time).

    Each position is searched to one fixed depth by every setting: the deepest
    iteration that detection "off" completes in about ``seconds``.  A fixed depth makes
    each setting's tree the same in every round, so the settings take turns ``rounds``
    times, each search on a fresh transposition table and cold detector caches, and
    the fastest round of each counts (best of N, as for the detection timings: the
    machine's own interruptions only ever add time).  Per setting: nodes, seconds
    (summed best times), NPS, blockages, the depths, and the NPS overhead against "off"
    in percent."""
    from logic.search import Searcher, from_board

    settings = ["off", *logic.STATIC_METHODS]
    chosen = [b for b in boards if not any(
        logic.detect(b, c, method=m).blocked for m in logic.STATIC_METHODS
        for c in chess.COLORS)][:limit]
    total = {s: {"nodes": 0.0, "seconds": 0.0, "blockages": 0.0, "depths": 0.0}
             for s in settings}
    for board in chosen:
        pos = from_board(board)
        depth = Searcher(blockage=False).search(pos, seconds=seconds).depth
        best: dict[str, tuple[float, int, int]] = {}
        for _ in range(rounds):
            for s in settings:
                logic.clear_cache()
                r = Searcher(blockage=s != "off", method=logic.DEFAULT_METHOD if s == "off" else s
                             ).search(pos, depth=depth)
                if s not in best or r.seconds < best[s][0]:
                    best[s] = (r.seconds, r.nodes, r.blockages)
        for s in settings:
            t = total[s]
            t["seconds"] += best[s][0]
            t["nodes"] += best[s][1]
            t["blockages"] += best[s][2]
            t["depths"] += depth
    off_nps = total["off"]["nodes"] / max(total["off"]["seconds"], 1e-9)
    for s in settings:
        t = total[s]
        t["nps"] = t["nodes"] / max(t["seconds"], 1e-9)
        t["overhead_pct"] = 100 * (off_nps - t["nps"]) / off_nps
        t["positions"] = len(chosen)
    return total


#: the options of ``bench`` each of its modes uses (the others would be ignored: refused;
#: two modes at once too)
MODE_OPTIONS = {"detect": ("rounds", "file", "search", "json"), "scan": ("scan", "json"),
                "exact": ("exact", "exact_seconds", "exact_memory", "exact_sets", "sample", "jobs",
                          "json"),
                "viewer": ()}


def bench_mode(args: argparse.Namespace) -> str:
    """Which bench ``args`` ask for: ``"viewer"``, ``"exact"``, ``"scan"`` or ``"detect"``."""
    if getattr(args, "viewer", False):
        return "viewer"
    if getattr(args, "exact", None) is not None:
        return "exact"
    return "scan" if args.scan else "detect"


def option_problem(args: argparse.Namespace) -> str:
    """Why ``args`` cannot run ("" when they can): an option the chosen mode ignores."""
    mode = bench_mode(args)
    stray = list(dict.fromkeys(
        name for other, names in MODE_OPTIONS.items() if other != mode for name in names
        if name not in MODE_OPTIONS[mode] and getattr(args, name, None) not in (None, False)))
    if not stray:
        return ""
    flags = ", ".join("--" + name.replace("_", "-") for name in stray)
    what = {"detect": "the detector bench", "scan": "--scan", "exact": "--exact",
            "viewer": "--viewer"}[mode]
    return f"bench: {flags} does not apply to {what}"


def run_bench(args: argparse.Namespace, out: TextIO) -> int:
    """Print the benchmark table (or JSON)."""
    if why := option_problem(args):
        print(f"pawnfence {why}", file=sys.stderr)
        return 2
    if getattr(args, "exact", None) is not None:
        from logic.tools.bench_exact import run_exact_bench

        return run_exact_bench(args, out)
    if args.scan:
        try:
            r = measure_scan(args.scan)
        except OSError as exc:
            print(f"pawnfence: cannot read {exc.filename or ''}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
        for message in r["unreadable"]:
            print(f"pawnfence: bench --scan: {message}", file=sys.stderr)
        if not r["positions"]:
            print(f"pawnfence: bench --scan: no king-and-pawn positions in "
                  f"{', '.join(args.scan)} ({r['malformed']} malformed games or lines): "
                  "nothing to time", file=sys.stderr)
            return 2
        if args.json:
            out.write(json.dumps(r) + "\n")
            return 0
        if r["malformed"]:
            print(f"pawnfence: bench --scan: {r['malformed']} malformed games or lines skipped",
                  file=sys.stderr)
        out.write(f"scan of {', '.join(args.scan)}: {r['plies']} plies replayed, "
                  f"{r['positions']} king-and-pawn positions classified (no engine)\n")
        out.write(f"  python-chess replay alone      {r['replay_s']:8.3f} s\n")
        out.write(f"  scan (replay, collect, detect) {r['scan_s']:8.3f} s   "
                  f"{r['positions_per_s']:.0f} positions/s, "
                  f"{r['overhead_pct']:+.1f} % over the replay\n")
        return 0
    try:
        boards = load_positions(args.file)
    except PositionFileError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    rounds = args.rounds or 7
    r = measure(boards, rounds)
    search = None
    search_rounds = min(rounds, 7)
    if getattr(args, "search", None):
        search = measure_search(load_boards(asset_path("experiment.epd"), unique=True)
                                if args.file is None else boards, args.search,
                                rounds=search_rounds)
    if args.json:
        out.write(json.dumps(r if search is None else {**r, "search": search}) + "\n")
        return 0
    p = r["parse_us"]
    out.write(f"{int(r['positions'])} positions, best of {rounds} rounds, "
              "both sides per position, trace off\n")
    out.write(f"  chess.Board(fen) parse          {p:8.2f} us/position   1.00x parse\n")
    for method in logic.STATIC_METHODS:
        u, c = r[f"{method}_uncached_us"], r[f"{method}_cached_us"]
        out.write(f"  {method + ' detect, uncached':32s}{u:8.2f} us/position   "
                  f"{u / p:.2f}x parse\n")
        out.write(f"  {method + ' detect, cached':32s}{c:8.2f} us/position   "
                  f"{c / p:.2f}x parse   ({u / c:.1f}x faster than uncached)\n")
    out.write(f"  KPK bitbase build               {r['kpk_build_s']:8.2f} s\n")
    out.write(f"  KPK probe of a chess.Board      {r['kpk_probe_board_us']:8.2f} us "
              f"(normalise + lookup); of an index {r['kpk_probe_index_us']:.2f} us\n")
    if search is not None:
        n = int(search["off"]["positions"])
        out.write(f"search, {n} positions no method blocks at the root, each to the depth "
                  f"detection off reaches in {args.search:g} s, best of "
                  f"{search_rounds} rounds per setting (paper 4, Table 1)\n")
        for s, t in search.items():
            over = "" if s == "off" else f"   overhead {t['overhead_pct']:+.1f} %"
            out.write(f"  detection {s:8s} {int(t['nodes']):>10,} nodes {int(t['nps']):>8,} "
                      f"nps {int(t['blockages']):>7,} blockages{over}\n")
    return 0


def measure_scan(paths: list[str]) -> dict[str, Any]:
    """Scan throughput and the detector's cost beside python-chess's own replay of the
    same games: replay alone, then the scan's reading (replay and collecting K+P
    positions) plus classification by both methods for both sides (no engine); the
    best of seven rounds of each (one round takes about 0.04 s, so fewer rounds leave
    the few-percent difference inside the noise).  ``malformed``: the games and lines
    the scan's reader skipped, ``unreadable`` the messages of files it could not read to
    the end; without any position only those (nothing timed)."""
    from logic.tools.scan import Item, classify_item, iter_games, read_items

    for p in paths:  # a missing file, a folder, a FIFO: OSError before any timing
        open_text(Path(p)).close()

    def replay() -> int:
        plies = 0
        for p in paths:
            with open_text(Path(p)) as fh:
                for _n, _where, game in iter_games(Path(p), fh, []):  # as the scan reads
                    try:
                        board = game.board()
                        for move in game.mainline_moves():
                            board.push(move)
                            plies += 1
                    except (AssertionError, ValueError):  # a bad FEN header, a bad move
                        continue
        return plies

    plies = replay()
    items: list[Item] = []
    errors: list[str] = []
    failed: list[str] = []

    def scan() -> None:
        errors.clear()
        failed.clear()
        items[:] = read_items(paths, errors, failed)
        for it in items:
            classify_item(it)

    scan()  # once untimed: nothing to time without positions
    if not items:
        return {"plies": plies, "positions": 0, "malformed": len(errors), "unreadable": failed}

    # caches emptied before every scan round
    t_replay = _best(7, lambda: None, replay)
    t_scan = _best(7, logic.clear_cache, scan)
    return {"plies": plies, "positions": len(items), "malformed": len(errors),
            "unreadable": failed,
            "replay_s": t_replay, "scan_s": t_scan,
            "positions_per_s": len(items) / t_scan,
            "overhead_pct": 100 * (t_scan - t_replay) / t_replay}
