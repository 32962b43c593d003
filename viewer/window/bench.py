"""``pawnfence bench --viewer``: frame times of the real window on the dummy driver, and
what an idle window costs.

From one run, at a window whose board is 808 x 808 pixels: a bare board frame, a frame
with every overlay on (marked, fence, king side, DFS path, processed squares, removed
pawns, fixed/dynamic badges, a recomputed fence's difference, king requirement, changed
squares, pawn-structure layer, legend, banner, the step list, the code panel and the
widgets), the re-analysis an edit triggers (both sides, traced, plus the structure
layer), and the CPU time the real loop uses over 10 s of a window left alone (read from
``/proc/self/stat``: user plus system time of every thread of the process).
"""

from __future__ import annotations

import os
import time
from typing import Any, TextIO

__all__ = ["run_viewer_bench", "cpu_seconds", "board_window"]


def cpu_seconds() -> float:
    """User plus system CPU seconds of this process so far (all threads), from
    ``/proc/self/stat`` (falls back to ``os.times`` where there is no /proc)."""
    try:
        with open("/proc/self/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        t = os.times()
        return t.user + t.system


def board_window(px: int = 808, structure: bool = True, legend: Any = ()) -> tuple[int, int]:
    """A window size (16:10 or so) whose board is ``px`` pixels."""
    from viewer.figures.render import board_geometry
    from viewer.window.layout import compute_layout

    best = (10**9, (1300, 1054))
    for h in range(700, 1600, 2):
        for w in (int(h * 1.25), int(h * 1.6), int(h * 1.78)):
            lay = compute_layout((w, h), structure=structure, legend=legend)
            got = 8 * board_geometry(lay.board)[2]
            if abs(got - px) < best[0]:
                best = (abs(got - px), (w, h))
            if got == px:
                return w, h
    return best[1]


def idle_cpu(app: Any, seconds: float = 10.0) -> tuple[float, int]:
    """The share of a core the real loop uses while the window is left alone for
    ``seconds``, and the frames it drew meanwhile."""
    app.run(seconds=1.0)  # settle: the half second of redrawing after input ends
    draws = app.draws
    c0, t0 = cpu_seconds(), time.monotonic()
    app.run(seconds=seconds)
    return (cpu_seconds() - c0) / (time.monotonic() - t0), app.draws - draws


def run_viewer_bench(out: TextIO, rounds: int = 200, idle_seconds: float = 10.0
                     ) -> dict[str, float]:
    """Print and return milliseconds per frame / per re-analysis, and the idle window's
    CPU share."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import chess
    import pygame

    from logic.legend import BOARD_LEGEND
    from viewer.figures.render import board_geometry
    from viewer.model.overlay import Overlay
    from viewer.model.settings import Settings
    from viewer.window.app import App

    fen = "4k3/2p5/1p2p1p1/p1p1P1P1/P1P3p1/1P6/5PK1/8 b - - 0 1"  # Diagram 3: every layer
    app = App(Settings(fen=fen, structure=True), size=board_window(808, True, BOARD_LEGEND))
    state = app.state
    app.run(max_frames=2)
    _, _, sq = board_geometry(app.layout.board)
    v, board = state.playback.verdict, state.position.editor.board
    everything = Overlay(
        marked=v.marked, fence=v.fence, below=v.below, path=v.fence, processed=v.marked,
        removed=v.removed | chess.BB_G4, fixed=v.fixed, changed=v.fence & -v.fence,
        badges={s: ("B", i % 2 == 0) for i, s in enumerate(chess.scan_forward(
            board.pawns & board.occupied_co[chess.WHITE]))},
        king_mask=chess.BB_FILE_F,
    )

    def frame_ms(overlay_on: bool) -> float:
        state.options.structure_layer = overlay_on
        state.analyse(keep=False)
        app.update(0.0)
        state.playback.overlay = (lambda: everything) if overlay_on else (lambda: Overlay())  # type: ignore
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(rounds):
                app.draw()
                pygame.display.flip()
            best = min(best, (time.perf_counter() - t0) / rounds * 1000)
        return best

    bare = frame_ms(False)
    full = frame_ms(True)
    import logic
    from logic.pawns import PawnStructure

    fens = [fen, "5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - - 0 1"]
    boards = [chess.Board(f) for f in fens]
    logic_ms = edit_ms = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for i in range(20):  # the detector's share: both sides, traced, structure layer
            logic.clear_cache()
            b = boards[i % 2]
            logic.detect(b, chess.WHITE, trace=True)
            logic.detect(b, chess.BLACK)
            PawnStructure.analyse(b).to_dict()
        logic_ms = min(logic_ms, (time.perf_counter() - t0) / 20 * 1000)
        t0 = time.perf_counter()
        for i in range(20):  # a whole edit: detector plus every widget whose text changes
            logic.clear_cache()
            state.position.editor.set_fen(fens[i % 2])
            state.edited()
            app.update(0.0)
        edit_ms = min(edit_ms, (time.perf_counter() - t0) / 20 * 1000)
    shown = state.playback
    shown.overlay = type(shown).overlay.__get__(shown)  # type: ignore[method-assign]
    cpu, idle_draws = idle_cpu(app, idle_seconds)
    app.close()
    best = logic_ms
    result = {"board_px": 8 * sq, "bare_frame_ms": bare, "overlay_frame_ms": full,
              "reanalysis_ms": logic_ms, "edit_with_widgets_ms": edit_ms,
              "idle_cpu": cpu, "idle_draws": idle_draws}
    out.write(f"viewer frame on the dummy driver, board {8 * sq}x{8 * sq} px, best of 3x{rounds}\n")
    out.write(f"  bare board frame                 {bare:6.2f} ms\n")
    out.write(f"  every overlay on                 {full:6.2f} ms   ({full / bare:.2f}x bare)\n")
    out.write(f"  re-analysis after an edit        {best:6.2f} ms   (both sides, traced, "
              "structure layer)\n")
    out.write(f"  edit frame (overlays + analysis) {full + best:6.2f} ms\n")
    out.write(f"  edit incl. widget text relayout  {edit_ms:6.2f} ms   (pygame_gui text boxes)\n")
    out.write(f"  idle window, {idle_seconds:g} s left alone    {100 * cpu:6.2f} % of a core   "
              f"({idle_draws} frames drawn; /proc/self/stat)\n")
    return result
