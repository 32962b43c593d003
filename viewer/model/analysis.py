"""Background analysis for the viewer's search panel: pawnfence's search with and
without blockage detection, optionally a UCI engine (through the one wrapper,
:class:`logic.uci.Engine`), and the exact prover's verdict for both sides (at most
:data:`EXACT_SECONDS` a side), off the frame loop.

Contracts:

* an illegal position (``board.status()`` not valid) is never analysed: no thread
  runs and no engine starts; the result says why ("illegal position: kings adjacent");
* one worker thread (a :class:`viewer.model.jobs.Job`: it ends when idle) and at most one
  engine process, reused: a new request supersedes the pending one (only the newest
  board is analysed; a running stage finishes, at most ``seconds``, and its result is
  dropped);
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
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import chess

from logic.uci import Engine, EngineError, IllegalPositionError
from viewer.model.jobs import Job, Ticket
from viewer.model.text import status_names

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


class _Request(NamedTuple):
    board: chess.Board
    seconds: float


class Analysis:
    """The search panel's analyses, one at a time in one daemon worker (a
    :class:`~viewer.model.jobs.Job`); ``result`` is an immutable snapshot of the newest
    request's progress."""

    #: the time per search the viewer offers, in seconds
    MIN_SECONDS, MAX_SECONDS = 0.1, 30.0
    #: the worker thread's name
    THREAD_NAME = "pawnfence-analysis"

    def __init__(self, engine_path: str | None, seconds: float = 0.8,
                 engine_timeout: float = ENGINE_TIMEOUT,
                 notify: Callable[[], None] | None = None) -> None:
        self.engine_path = engine_path or None
        self.seconds = self.clamp(seconds)
        self._engine = Engine(self.engine_path, timeout=engine_timeout) \
            if self.engine_path else None
        self._timeout = engine_timeout
        self._job: Job[_Request, AnalysisResult, None] = Job(
            self._analyse, name=self.THREAD_NAME, notify=notify)
        self._busy = False  # the worker is inside an engine call (guarded by the job's lock)

    @classmethod
    def clamp(cls, seconds: float) -> float:
        """``seconds`` within the offered range."""
        return max(cls.MIN_SECONDS, min(cls.MAX_SECONDS, float(seconds)))

    @property
    def notify(self) -> Callable[[], None] | None:
        """Called from the worker whenever the result changes."""
        return self._job.notify

    @notify.setter
    def notify(self, notify: Callable[[], None] | None) -> None:
        self._job.notify = notify

    @property
    def generation(self) -> int:
        """The newest request's number (its result carries it)."""
        return self._job.generation

    @property
    def result(self) -> AnalysisResult | None:
        """The newest request's result so far (None before the first request)."""
        return self._job.result

    # -- requests -----------------------------------------------------------------------
    def start(self, board: chess.Board, seconds: float | None = None) -> None:
        """Analyse ``board`` (a copy) for ``seconds`` per search (default: the last
        time asked for); a pending or running analysis becomes stale."""
        if seconds is not None:
            self.seconds = self.clamp(seconds)
        reasons = illegal_reasons(board)
        fen = board.fen(en_passant="fen")  # as the editor writes it
        kp = board.occupied == board.pawns | board.kings
        job = self._job
        with job.condition:  # the generation the result names is the one it gets
            if job.closed:
                return
            gen = job.generation + 1
            if reasons:
                job.cancel(result=AnalysisResult(
                    gen, self.engine_path, searchable=False, legal=False, done=True,
                    messages=(f"illegal position: {', '.join(reasons)}",), fen=fen,
                    seconds=self.seconds))
                return
            job.submit(_Request(board.copy(stack=False), self.seconds), result=AnalysisResult(
                gen, self.engine_path, searchable=kp,
                messages=() if kp else ("search: kings and pawns only",), fen=fen,
                seconds=self.seconds))

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the newest analysis is done (tests)."""
        job = self._job
        job.wait_until(lambda: job.result is None or job.result.done or job.closed, timeout)

    def _publish(self, ticket: Ticket, message: str = "",
                 fields: dict[str, Any] | None = None) -> None:
        """The result with ``fields`` replaced and ``message`` added, if ``ticket`` is
        still the newest request."""
        def change(r: AnalysisResult | None) -> AnalysisResult:
            assert r is not None  # every request starts with its result
            new = dict(fields or {})
            if message:
                new["messages"] = (*r.messages, message)
            return replace(r, **new)

        self._job.publish(ticket, change)

    # -- the worker ---------------------------------------------------------------------
    def _analyse(self, req: _Request, ticket: Ticket) -> None:
        from logic.search import search_board

        board, seconds = req
        if board.occupied == board.pawns | board.kings:
            for key, on in (("with_detection", True), ("without_detection", False)):
                if ticket.cancelled():
                    return
                r = search_board(board, seconds=seconds, blockage=on)
                self._publish(ticket, fields={key: {"score": r.score_white, "depth": r.depth,
                                                    "pv": r.pv, "blockages": r.blockages}})
        if self._engine is not None and ticket.current():
            self._run_engine(board, ticket, seconds)
        if board.occupied == board.pawns | board.kings and ticket.current():
            self._run_exact(board, ticket)
        self._publish(ticket, fields={"done": True})

    def _run_exact(self, board: chess.Board, ticket: Ticket) -> None:
        """Both sides' verdicts of the prover (:func:`logic.registry.prover`: exact;
        ``EXACT_SECONDS`` a side, cancelled as soon as the request is stale)."""
        from logic.registry import prover

        method = prover()
        if method is None:
            return
        key = ("analysis", board.fen())
        out = []
        for color in (chess.WHITE, chess.BLACK):
            try:
                v = method.decide_board(board, color, key, False, max_seconds=EXACT_SECONDS,
                                        cancel=ticket.cancelled)
            except Exception as exc:  # bad input never crashes the viewer
                self._publish(ticket, f"exact prover: {type(exc).__name__}: {exc}")
                return
            if ticket.cancelled():
                return
            out.append({"side": v.side, "code": v.code, "headline": v.headline})
        self._publish(ticket, fields={"exact": tuple(out)})

    def _run_engine(self, board: chess.Board, ticket: Ticket, seconds: float) -> None:
        engine = self._engine
        assert engine is not None
        with self._job.condition:
            if self._job.closed:
                return
            self._busy = True
        try:
            e = engine.analyse(board, seconds)
        except (EngineError, IllegalPositionError) as exc:
            self._publish(ticket, str(exc).splitlines()[0] if str(exc) else
                          f"engine {engine.path}: {type(exc).__name__}")
            return
        finally:
            with self._job.condition:
                self._busy = False
                self._job.condition.notify_all()
        self._publish(ticket, fields={"engine": {
            "name": Path(engine.path).name, "score": e.cp, "mate": e.mate, "depth": e.depth,
            "pv": list(e.pv[:8])}})

    # -- the end ------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the worker and the engine: waits for a running engine call (bounded by
        the engine's timeout) and then at most two seconds for ``quit``; an engine that
        does not quit is killed.  Requests after this are ignored."""
        job = self._job
        job.close(timeout=0.0)
        job.wait_until(lambda: not self._busy,
                       min(3.0, self._timeout + self.seconds + 0.5))
        if self._engine is not None:
            self._engine.close(wait=2.0)
        job.close(timeout=0.2)
