"""Background analysis for the viewer's search panel: pawnfence's search with and
without blockage detection, optionally a UCI engine (through the one wrapper,
:class:`logic.uci.Engine`), and the exact prover's verdict for both sides (at most
:data:`EXACT_SECONDS` a side), off the frame loop.

Contracts:

* an illegal position (``board.status()`` not valid) is never analysed: no thread
  runs and no engine starts; the result says why ("illegal position: kings adjacent");
* one worker thread and at most one engine process, reused: a new request supersedes
  the pending one (only the newest board is analysed; a running stage finishes, at
  most ``seconds``, and its result is dropped);
* every engine failure is one line naming the engine's path, and the viewer goes on;
* :meth:`Analysis.close` waits a few seconds at most and leaves no engine process;
* ``notify`` (if given) is called from the worker whenever the result changes, so an
  idle window wakes up for a finished job instead of polling;
* the time per search (``seconds``) can change between requests;
* the exact prover runs last (after the engine), polls the request's staleness, so a
  new request or :meth:`Analysis.close` stops it within milliseconds.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import chess

from logic.uci import Engine, EngineError, IllegalPositionError
from viewer.text import status_names

__all__ = ["Analysis", "AnalysisResult", "default_engine", "illegal_reasons", "EXACT_SECONDS"]

#: seconds beyond the search time before an engine that does not answer counts as hung
ENGINE_TIMEOUT = 2.0
#: the exact prover's budget per side in the analysis (seconds)
EXACT_SECONDS = 3.0


def default_engine() -> str | None:
    """``/usr/games/stockfish`` (or ``stockfish`` on the PATH) if it exists."""
    if Path("/usr/games/stockfish").is_file():
        return "/usr/games/stockfish"
    return shutil.which("stockfish")


def illegal_reasons(board: chess.Board) -> list[str]:
    """Why ``board`` must not go to an engine, in words ([] for a legal position):
    "kings adjacent" when they are, then python-chess's ``status()`` flags."""
    names = status_names(board)
    if not names:
        return []
    wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
    if wk is not None and bk is not None and chess.square_distance(wk, bk) == 1:
        names = ["kings adjacent"] + [n for n in names if not n.endswith("check")]
    return names


@dataclass(frozen=True)
class AnalysisResult:
    """Search lines (White's view, centipawns) and the engine's, when finished.

    ``searchable``: pawnfence's own search applies (a legal king-and-pawn board);
    ``legal``: the board may be sent to an engine; ``messages``: one line per problem;
    ``fen``: the position analysed; ``seconds``: the time per search; ``exact``: the
    exact prover's verdict per side, White's first, each ``{"side", "code" (proved /
    breaks / unknown), "headline"}``, None until it is in.
    """

    generation: int
    engine_path: str | None = None
    searchable: bool = True
    legal: bool = True
    with_detection: dict[str, object] | None = None
    without_detection: dict[str, object] | None = None
    engine: dict[str, object] | None = None
    exact: tuple[dict[str, object], ...] | None = None
    messages: tuple[str, ...] = ()
    done: bool = False
    fen: str = ""
    seconds: float = 0.8

    @property
    def engine_name(self) -> str:
        """The engine's file name ("" without an engine)."""
        return Path(self.engine_path).name if self.engine_path else ""


class Analysis:
    """The search panel's analyses, one at a time in one daemon worker; ``result`` is an
    immutable snapshot of the newest request's progress."""

    #: the time per search the viewer offers, in seconds
    MIN_SECONDS, MAX_SECONDS = 0.1, 30.0

    def __init__(self, engine_path: str | None, seconds: float = 0.8,
                 engine_timeout: float = ENGINE_TIMEOUT,
                 notify: Callable[[], None] | None = None) -> None:
        self.engine_path = engine_path or None
        self.seconds = self.clamp(seconds)
        self.notify = notify
        self.generation = 0
        self.result: AnalysisResult | None = None
        self._engine = Engine(self.engine_path, timeout=engine_timeout) \
            if self.engine_path else None
        self._timeout = engine_timeout
        self._cond = threading.Condition()
        self._request: tuple[chess.Board, int] | None = None
        self._busy = False  # the worker is inside an engine call
        self._stopping = False
        self._thread: threading.Thread | None = None

    @classmethod
    def clamp(cls, seconds: float) -> float:
        """``seconds`` within the offered range."""
        return max(cls.MIN_SECONDS, min(cls.MAX_SECONDS, float(seconds)))

    # -- requests -----------------------------------------------------------------------
    def start(self, board: chess.Board, seconds: float | None = None) -> None:
        """Analyse ``board`` (a copy) for ``seconds`` per search (default: the last
        time asked for); a pending or running analysis becomes stale."""
        if seconds is not None:
            self.seconds = self.clamp(seconds)
        reasons = illegal_reasons(board)
        fen = board.fen(en_passant="fen")  # as the editor writes it
        kp = board.occupied == board.pawns | board.kings
        with self._cond:
            if self._stopping:
                return
            self.generation += 1
            gen = self.generation
            if reasons:
                self._request = None
                self.result = AnalysisResult(
                    gen, self.engine_path, searchable=False, legal=False, done=True,
                    messages=(f"illegal position: {', '.join(reasons)}",), fen=fen,
                    seconds=self.seconds)
                return
            self.result = AnalysisResult(gen, self.engine_path, searchable=kp, messages=(
                () if kp else ("search: kings and pawns only",)), fen=fen,
                seconds=self.seconds)
            self._request = (board.copy(stack=False), gen, self.seconds)
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="pawnfence-analysis",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the newest analysis is done (tests)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (self.result is None or self.result.done) and not self._stopping:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(left)

    def _publish(self, gen: int, message: str = "", **fields: object) -> None:
        with self._cond:
            r = self.result
            if r is None or r.generation != gen:
                return
            if message:
                fields["messages"] = (*r.messages, message)
            self.result = replace(r, **fields)
            self._cond.notify_all()
        if self.notify is not None:
            self.notify()

    def _current(self, gen: int) -> bool:
        return gen == self.generation and not self._stopping

    # -- the worker ---------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            with self._cond:
                while self._request is None and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                board, gen, seconds = self._request
                self._request = None
            self._analyse(board, gen, seconds)

    def _analyse(self, board: chess.Board, gen: int, seconds: float) -> None:
        from logic.search import search_board

        if board.occupied == board.pawns | board.kings:
            for key, on in (("with_detection", True), ("without_detection", False)):
                if not self._current(gen):
                    return
                r = search_board(board, seconds=seconds, blockage=on)
                self._publish(gen, **{key: {"score": r.score_white, "depth": r.depth,
                                            "pv": r.pv, "blockages": r.blockages}})
        if self._engine is not None and self._current(gen):
            self._run_engine(board, gen, seconds)
        if board.occupied == board.pawns | board.kings and self._current(gen):
            self._run_exact(board, gen)
        self._publish(gen, done=True)

    def _run_exact(self, board: chess.Board, gen: int) -> None:
        """Both sides' exact verdicts (``EXACT_SECONDS`` a side, cancelled as soon as
        the request is stale)."""
        from logic import METHODS

        method = METHODS["exact"]
        key = ("analysis", board.fen())
        out = []
        for color in (chess.WHITE, chess.BLACK):
            try:
                v = method.decide_board(board, color, key, False, max_seconds=EXACT_SECONDS,
                                        cancel=lambda: not self._current(gen))
            except Exception as exc:  # bad input never crashes the viewer
                self._publish(gen, f"exact prover: {type(exc).__name__}: {exc}")
                return
            if not self._current(gen):
                return
            out.append({"side": v.side, "code": v.code, "headline": v.headline})
        self._publish(gen, exact=tuple(out))

    def _run_engine(self, board: chess.Board, gen: int, seconds: float) -> None:
        engine = self._engine
        assert engine is not None
        with self._cond:
            if self._stopping:
                return
            self._busy = True
        try:
            e = engine.analyse(board, seconds)
        except (EngineError, IllegalPositionError) as exc:
            self._publish(gen, str(exc).splitlines()[0] if str(exc) else
                          f"engine {engine.path}: {type(exc).__name__}")
            return
        finally:
            with self._cond:
                self._busy = False
                self._cond.notify_all()
        self._publish(gen, engine={"name": Path(engine.path).name, "score": e.cp,
                                   "mate": e.mate, "depth": e.depth, "pv": list(e.pv[:8])})

    # -- the end ------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the worker and the engine: waits for a running engine call (bounded by
        the engine's timeout) and then at most two seconds for ``quit``; an engine that
        does not quit is killed.  Requests after this are ignored."""
        with self._cond:
            self._stopping = True
            self._request = None
            self._cond.notify_all()
            deadline = time.monotonic() + min(3.0, self._timeout + self.seconds + 0.5)
            while self._busy and time.monotonic() < deadline:
                self._cond.wait(deadline - time.monotonic())
        if self._engine is not None:
            self._engine.close(wait=2.0)
        if self._thread is not None:
            self._thread.join(0.2)
