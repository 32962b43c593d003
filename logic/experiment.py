"""``pawnfence experiment``: paper 4, Table 1 — every position searched for the same time
with blockage detection on and off; nodes, blockages, draws (positions whose score is
exactly 0.00), nodes per second and the speed overhead of detection."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

import chess

from logic.assets import asset_path
from logic.position import PositionFileError, load_boards
from logic.search import Searcher, from_board

__all__ = ["run_experiment", "experiment"]


def experiment(boards: list[chess.Board], seconds: float) -> dict[str, dict[str, float]]:
    """Totals per setting ("on"/"off"): nodes, blockages, draws, nps, positions."""
    out = {}
    for setting, on in (("on", True), ("off", False)):
        nodes = blockages = draws = 0
        elapsed = 0.0
        for board in boards:
            r = Searcher(blockage=on).search(from_board(board), seconds=seconds)
            nodes += r.nodes
            blockages += r.blockages
            draws += r.score == 0
            elapsed += r.seconds
        out[setting] = {"nodes": nodes, "blockages": blockages, "draws": draws,
                        "nps": nodes / max(elapsed, 1e-9), "positions": len(boards)}
    return out


def run_experiment(args: argparse.Namespace, out: TextIO) -> int:
    """Print Table 1's columns for the positions of ``args.file``."""
    path = args.file or asset_path("experiment.epd")
    try:
        boards = load_boards(path, kp_only=True)
    except PositionFileError as exc:
        print(f"pawnfence: {exc}", file=sys.stderr)
        return 2
    if args.limit:
        boards = boards[: args.limit]
    r = experiment(boards, args.time)
    on, off = r["on"], r["off"]
    overhead = 100.0 * (off["nps"] - on["nps"]) / off["nps"]
    out.write(f"{len(boards)} positions, {args.time:g} s per position and setting "
              "(paper 4, Table 1: 3,118 positions, 10 s, overhead 3 %)\n")
    out.write(f"{'Blockage det.':14s}{'Nodes':>14s}{'Blockages':>12s}{'Draws':>8s}"
              f"{'Speed (NPS)':>14s}{'Overhead':>10s}\n")
    out.write(f"{'On':14s}{on['nodes']:>14,}{on['blockages']:>12,}{on['draws']:>8}"
              f"{on['nps']:>14,.0f}{overhead:>9.1f}%\n")
    out.write(f"{'Off':14s}{off['nodes']:>14,}{0:>12}{off['draws']:>8}{off['nps']:>14,.0f}"
              f"{'-':>10s}\n")
    return 0
