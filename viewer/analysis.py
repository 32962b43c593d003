"""Background analysis for the viewer's search panel: pawnfence's search with and
without blockage detection, and optionally a UCI engine (through the one wrapper,
:class:`logic.uci.Engine`), off the frame loop.

Each request carries a generation number; results of an older position are
dropped.  A missing or failing engine yields a message, never an exception.
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

import chess

from logic.uci import Engine, EngineError, IllegalPositionError

__all__ = ["Analysis", "AnalysisResult", "default_engine"]


def default_engine() -> str | None:
    """``/usr/games/stockfish`` (or ``stockfish`` on the PATH) if it exists."""
    if Path("/usr/games/stockfish").is_file():
        return "/usr/games/stockfish"
    return shutil.which("stockfish")


@dataclass(frozen=True)
class AnalysisResult:
    """Search lines (White's view, centipawns) and the engine's, when finished.

    ``searchable``: pawnfence's own search applies (a legal king-and-pawn board);
    ``legal``: the board may be sent to an engine; ``messages``: one line per problem.
    """

    generation: int
    engine_path: str | None = None
    searchable: bool = True
    legal: bool = True
    with_detection: dict[str, object] | None = None
    without_detection: dict[str, object] | None = None
    engine: dict[str, object] | None = None
    messages: tuple[str, ...] = ()
    done: bool = False

    @property
    def engine_name(self) -> str:
        """The engine's file name ("" without an engine)."""
        return Path(self.engine_path).name if self.engine_path else ""


@dataclass
class _Slot:
    result: AnalysisResult | None = None
    threads: list[threading.Thread] = field(default_factory=list)


class Analysis:
    """Runs one analysis at a time in a daemon thread; ``result`` is an immutable
    snapshot of the newest request's progress."""

    def __init__(self, engine_path: str | None, seconds: float = 0.8) -> None:
        self.engine_path = engine_path or None
        self.seconds = seconds
        self.generation = 0
        self._slot = _Slot()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._engine = Engine(self.engine_path) if self.engine_path else None

    @property
    def result(self) -> AnalysisResult | None:
        return self._slot.result

    def start(self, board: chess.Board) -> None:
        """Analyse ``board`` (a copy); any running analysis becomes stale."""
        with self._lock:
            self.generation += 1
            gen = self.generation
            self._slot.result = AnalysisResult(gen, self.engine_path)
        t = threading.Thread(target=self._run, args=(board.copy(stack=False), gen), daemon=True)
        self._thread = t
        t.start()

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the current analysis ends (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _publish(self, gen: int, message: str = "", **fields: object) -> None:
        with self._lock:
            r = self._slot.result
            if r is None or r.generation != gen:
                return
            if message:
                fields["messages"] = (*r.messages, message)
            self._slot.result = replace(r, **fields)

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
            self._publish(gen, "search: kings and pawns only", searchable=False)
        if self._engine is not None and gen == self.generation:
            self._run_engine(board, gen)
        self._publish(gen, done=True)

    def _run_engine(self, board: chess.Board, gen: int) -> None:
        assert self._engine is not None
        try:
            e = self._engine.analyse(board, self.seconds)
        except (EngineError, IllegalPositionError) as exc:
            self._publish(gen, str(exc))
            return
        self._publish(gen, engine={"name": Path(self._engine.path).name, "score": e.cp,
                                   "mate": e.mate, "depth": e.depth, "pv": list(e.pv[:8])})
