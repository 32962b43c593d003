"""Background proofs for the methods that are not ``static`` (the exact prover): one job
at a time, off the frame loop, without pygame.

:class:`ProofJob` owns its worker thread, the cancel flag, the progress and the results.
Contracts:

* at most one job is live: :meth:`ProofJob.start` supersedes the job before it (which
  is cancelled: the prover polls the flag every few milliseconds) and the one worker
  thread takes the newest request when the old one returns; the thread ends when
  nothing is left to do, so an idle job holds no thread;
* a result is delivered only for the newest request (:meth:`ProofJob.take` returns the
  :class:`Outcome` records of the current generation, tagged with the request's
  ``token``); a superseded or cancelled job's result is dropped, never delivered;
* the side asked about is proved first, with its trace, then the other side without
  one (two outcomes, ``stage`` 0 and 1);
* :attr:`ProofJob.progress` is an immutable snapshot (the structures solved so far
  and when the job started), replaced by the worker;
* an exception in the prover (bad input) becomes an outcome with ``error`` set;
* ``notify`` (if given) is called from the worker when an outcome is ready, so an
  idle window wakes up;
* :meth:`ProofJob.close` cancels and waits a bounded time for the thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

import chess

import logic
from logic.verdict import Verdict

__all__ = ["ProofJob", "Progress", "Outcome", "board_key"]


def board_key(board: chess.Board) -> tuple[Any, ...]:
    """The key :func:`logic.blockage.prepare` and the methods' board caches name a board
    by: ``(occupied_w, occupied_b, pawns, kings, turn, castling_rights, ep_square)``."""
    occ_b, occ_w = board.occupied_co
    return (occ_w, occ_b, board.pawns, board.kings, board.turn, board.castling_rights,
            board.ep_square)


class Progress(NamedTuple):
    """A running job: its ``token``, the side being proved now (``color``), the
    ``structures`` solved so far for that side, ``stage`` (0: the side asked about,
    1: the other side), ``started`` (``time.monotonic()`` at the start) and ``line``
    (True once the side's breakthrough is proved and its line is being computed)."""

    token: Hashable
    color: bool
    structures: int
    stage: int
    started: float
    line: bool = False

    def seconds(self, now: float | None = None) -> float:
        """Seconds since the job started."""
        return max(0.0, (time.monotonic() if now is None else now) - self.started)


class Outcome(NamedTuple):
    """A finished stage of the newest job: the request's ``token``, ``stage`` (0: the
    side asked about, traced; 1: the other side), the ``verdict`` (None after an
    error) and ``error`` ("" when none)."""

    token: Hashable
    stage: int
    verdict: Verdict | None
    error: str = ""


class _Request(NamedTuple):
    token: Hashable
    board: chess.Board
    color: bool
    method: str
    seconds: float | None
    gen: int


class ProofJob:
    """The one background proof of a viewer (see the module's contracts)."""

    #: the worker thread's name
    THREAD_NAME = "pawnfence-proof"

    def __init__(self, notify: Callable[[], None] | None = None) -> None:
        #: called from the worker when an outcome is ready (thread-safe callers only)
        self.notify = notify
        self._lock = threading.Lock()
        self._gen = 0
        self._pending: _Request | None = None
        self._active: int | None = None  # the generation the worker is proving
        self._thread: threading.Thread | None = None
        self._outcomes: list[Outcome] = []
        self._closed = False
        #: the running job's progress (None when no job runs)
        self.progress: Progress | None = None

    # -- requests -----------------------------------------------------------------------
    def start(self, token: Hashable, board: chess.Board, color: bool, method: str,
              seconds: float | None = None) -> None:
        """Prove ``board`` (a copy is taken) for ``color`` and then the other side with
        ``logic.METHODS[method]``, at most ``seconds`` a side (None: the method's own
        budget); the job before is cancelled and its results dropped."""
        with self._lock:
            if self._closed:
                return
            self._gen += 1
            self._outcomes = []
            self._pending = _Request(token, board.copy(stack=False), bool(color), method,
                                     seconds, self._gen)
            self.progress = Progress(token, bool(color), 0, 0, time.monotonic())
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=self.THREAD_NAME,
                                                daemon=True)
                self._thread.start()

    def cancel(self) -> bool:
        """Cancel the job (running or waiting) and drop its results; True if there
        was one."""
        with self._lock:
            was = self.running
            self._gen += 1
            self._pending = None
            self._outcomes = []
            self.progress = None
            return was

    @property
    def running(self) -> bool:
        """Whether a job is waiting or being proved (its results still to come)."""
        return self._pending is not None or self._active == self._gen

    def alive(self) -> bool:
        """Whether the worker thread exists (tests: none is left after a cancel)."""
        t = self._thread
        return t is not None and t.is_alive()

    def take(self) -> list[Outcome]:
        """The outcomes of the newest job delivered since the last call (oldest first)."""
        with self._lock:
            out, self._outcomes = self._outcomes, []
            return out

    def wait(self, timeout: float = 20.0) -> bool:
        """Block until no job runs (tests); False after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self.running:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self, timeout: float = 2.0) -> None:
        """Cancel, refuse later requests, and wait up to ``timeout`` s for the thread."""
        with self._lock:
            self._closed = True
        self.cancel()
        t = self._thread
        if t is not None:
            t.join(timeout)

    # -- the worker ---------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            with self._lock:
                req = self._pending
                self._pending = None
                if req is None or self._closed:
                    self._thread = None
                    self._active = None
                    return
                self._active = req.gen
            self._prove(req)
            with self._lock:
                if self._active == req.gen:
                    self._active = None
                if self._gen == req.gen:
                    self.progress = None

    def _current(self, gen: int) -> bool:
        return gen == self._gen and not self._closed

    def _prove(self, req: _Request) -> None:
        """Both stages of ``req``; each outcome is published while ``req`` is newest."""
        method = logic.METHODS.get(req.method)
        started = time.monotonic()
        key = board_key(req.board)

        def cancel() -> bool:
            return not self._current(req.gen)

        for stage, color in ((0, req.color), (1, not req.color)):
            if cancel():
                return
            self._set_progress(req, color, 0, stage, started)

            def report(n: int, color: bool = color, stage: int = stage) -> None:
                self._set_progress(req, color, n, stage, started)

            def on_line(color: bool = color, stage: int = stage) -> None:
                p = self.progress
                n = p.structures if p is not None and p.color == color else 0
                self._set_progress(req, color, n, stage, started, line=True)

            try:
                if method is None:
                    raise ValueError(f"unknown method {req.method!r}")
                v = method.decide_board(req.board, color, key, stage == 0,
                                        max_seconds=req.seconds, cancel=cancel, report=report,
                                        on_line=on_line)
                out = Outcome(req.token, stage, v)
            except Exception as exc:  # bad input must never crash the viewer
                out = Outcome(req.token, stage, None, f"{type(exc).__name__}: {exc}")
            if not self._publish(req, out) or out.error:
                return

    def _set_progress(self, req: _Request, color: bool, n: int, stage: int,
                      started: float, line: bool = False) -> None:
        with self._lock:
            if self._current(req.gen):
                self.progress = Progress(req.token, color, n, stage, started, line)

    def _publish(self, req: _Request, out: Outcome) -> bool:
        with self._lock:
            if not self._current(req.gen):
                return False
            self._outcomes.append(out)
        if self.notify is not None:
            self.notify()
        return True
