"""Background analysis for the viewer's search panel: pawnfence's search with and
without blockage detection, and optionally a UCI engine, off the frame loop.

Each request carries a generation number; results of an older position are
dropped.  A missing or crashing engine yields a message, never an exception.
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

import chess

__all__ = ["Analysis", "AnalysisResult", "default_engine"]


def default_engine() -> str | None:
    """``/usr/games/stockfish`` (or ``stockfish`` on the PATH) if it exists."""
    if Path("/usr/games/stockfish").is_file():
        return "/usr/games/stockfish"
    return shutil.which("stockfish")


@dataclass
class AnalysisResult:
    """Search lines (White's view, centipawns) and the engine's, when finished."""

    generation: int
    with_detection: dict[str, object] | None = None
    without_detection: dict[str, object] | None = None
    engine: dict[str, object] | None = None
    messages: list[str] = field(default_factory=list)
    done: bool = False


class Analysis:
    """Runs one analysis at a time in a daemon thread."""

    def __init__(self, engine_path: str | None, seconds: float = 0.8) -> None:
        self.engine_path = engine_path
        self.seconds = seconds
        self.generation = 0
        self.result: AnalysisResult | None = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self, board: chess.Board) -> None:
        """Analyse ``board`` (a copy); any running analysis becomes stale."""
        with self._lock:
            self.generation += 1
            gen = self.generation
            self.result = AnalysisResult(gen)
        t = threading.Thread(target=self._run, args=(board.copy(stack=False), gen), daemon=True)
        self._thread = t
        t.start()

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the current analysis ends (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _publish(self, gen: int, **fields: object) -> None:
        with self._lock:
            if self.result is None or self.result.generation != gen:
                return
            for key, value in fields.items():
                if key == "message":
                    self.result.messages.append(str(value))
                else:
                    setattr(self.result, key, value)

    def _run(self, board: chess.Board, gen: int) -> None:
        from logic.search import search_board

        if board.occupied == board.pawns | board.kings and board.is_valid():
            for key, on in (("with_detection", True), ("without_detection", False)):
                if gen != self.generation:
                    return
                r = search_board(board, seconds=self.seconds, blockage=on)
                self._publish(gen, **{key: {"score": r.score_white, "depth": r.depth,
                                            "pv": r.pv, "blockages": r.blockages}})
        else:
            self._publish(gen, message="search: kings and pawns only")
        if self.engine_path and gen == self.generation:
            self._engine(board, gen)
        self._publish(gen, done=True)

    def _engine(self, board: chess.Board, gen: int) -> None:
        import chess.engine

        try:
            with chess.engine.SimpleEngine.popen_uci(self.engine_path, timeout=5) as eng:
                info = eng.analyse(board, chess.engine.Limit(time=self.seconds))
            score = info.get("score")
            pv = [m.uci() for m in info.get("pv", [])[:8]]
            white = score.white() if score is not None else None
            self._publish(gen, engine={
                "name": Path(self.engine_path).name,
                "score": white.score() if white is not None else None,
                "mate": white.mate() if white is not None else None,
                "depth": info.get("depth"), "pv": pv})
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError,
                TimeoutError, ValueError) as exc:
            self._publish(gen, message=f"engine {self.engine_path}: {exc or type(exc).__name__}")
