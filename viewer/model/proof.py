"""Background proofs for the methods that are not ``static`` (the exact prover): one job
at a time, off the frame loop, without pygame.

:class:`ProofJob` runs on a :class:`viewer.model.jobs.Job` (the worker thread, the generation
counter, cancel, progress and results).  Contracts:

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
* an exception in the prover (bad input) becomes an outcome with ``error`` set (a
  ``MemoryError`` outside the prover, which makes its own "unknown — memory", is worded
  so);
* ``notify`` (if given) is called from the worker when an outcome is ready, so an
  idle window wakes up;
* :meth:`ProofJob.close` cancels and waits a bounded time for the thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

import chess

import logic
from logic.blockage import prepare
from logic.verdict import Verdict
from viewer.model.jobs import Job, Ticket

__all__ = ["ProofJob", "Progress", "Outcome", "board_key", "provable"]


def board_key(board: chess.Board) -> tuple[Any, ...]:
    """The key :func:`logic.blockage.prepare` and the methods' board caches name a board
    by: ``(occupied_w, occupied_b, pawns, kings, turn, castling_rights, ep_square)``."""
    occ_b, occ_w = board.occupied_co
    return (occ_w, occ_b, board.pawns, board.kings, board.turn, board.castling_rights,
            board.ep_square)


def provable(board: chess.Board, key: tuple[Any, ...] | None = None) -> bool:
    """Whether the detectors (and so the exact prover) apply to ``board``: a legal
    position of kings and pawns only (:func:`logic.blockage.prepare` gives its bitboards,
    not a ``(status, args)`` refusal such as ``"pieces"`` or ``"illegal"``).  ``key``:
    the board's :func:`board_key`, when the caller has it."""
    return len(prepare(board, board_key(board) if key is None else key)) == 4


class Progress(NamedTuple):
    """A running job: its ``token``, the side being proved now (``color``), the
    ``structures`` solved so far for that side, ``stage`` (0: the side asked about,
    1: the other side), ``started`` (``time.monotonic()`` at the start), ``stage_started``
    (when this stage, with its own budget, started; 0.0: with the job) and ``line``
    (True once the side's breakthrough is proved and its line is being computed)."""

    token: Hashable
    color: bool
    structures: int
    stage: int
    started: float
    line: bool = False
    stage_started: float = 0.0

    def seconds(self, now: float | None = None) -> float:
        """Seconds since the job started."""
        return max(0.0, (time.monotonic() if now is None else now) - self.started)

    def stage_seconds(self, now: float | None = None) -> float:
        """Seconds since this stage (this side's proof, with its own budget) started."""
        since = max(self.started, self.stage_started)
        return max(0.0, (time.monotonic() if now is None else now) - since)


class Outcome(NamedTuple):
    """A finished stage of the newest job: the request's ``token``, ``stage`` (0: the
    side asked about, traced; 1: the other side), the ``verdict`` (None after an
    error) and ``error`` ("" when none)."""

    token: Hashable
    stage: int
    verdict: Verdict | None
    error: str = ""


def _appending(out: Outcome) -> Callable[[tuple[Outcome, ...] | None], tuple[Outcome, ...]]:
    """The outcomes delivered so far, then ``out``."""
    return lambda got: (*(got or ()), out)


class _Request(NamedTuple):
    token: Hashable
    board: chess.Board
    color: bool
    method: str
    seconds: float | None


class ProofJob:
    """The one background proof of a viewer (see the module's contracts), a
    :class:`~viewer.model.jobs.Job` whose result is the tuple of outcomes delivered so far."""

    #: the worker thread's name
    THREAD_NAME = "pawnfence-proof"

    def __init__(self, notify: Callable[[], None] | None = None) -> None:
        self._job: Job[_Request, tuple[Outcome, ...], Progress] = Job(
            self._prove, name=self.THREAD_NAME, notify=notify)

    @property
    def notify(self) -> Callable[[], None] | None:
        """Called from the worker when an outcome is ready (thread-safe callees only)."""
        return self._job.notify

    @notify.setter
    def notify(self, notify: Callable[[], None] | None) -> None:
        self._job.notify = notify

    @property
    def progress(self) -> Progress | None:
        """The running job's progress (None when no job runs)."""
        return self._job.progress

    # -- requests -----------------------------------------------------------------------
    def start(self, token: Hashable, board: chess.Board, color: bool, method: str,
              seconds: float | None = None) -> None:
        """Prove ``board`` (a copy is taken) for ``color`` and then the other side with
        ``logic.METHODS[method]``, at most ``seconds`` a side (None: the method's own
        budget); the job before is cancelled and its results dropped."""
        self._job.submit(_Request(token, board.copy(stack=False), bool(color), method,
                                  seconds),
                         progress=Progress(token, bool(color), 0, 0, time.monotonic()))

    def cancel(self) -> bool:
        """Cancel the job (running or waiting) and drop its results; True if there
        was one."""
        return self._job.cancel()

    @property
    def running(self) -> bool:
        """Whether a job is waiting or being proved (its results still to come)."""
        return self._job.running

    def alive(self) -> bool:
        """Whether the worker thread exists (tests: none is left after a cancel)."""
        return self._job.alive()

    def take(self) -> list[Outcome]:
        """The outcomes of the newest job delivered since the last call (oldest first)."""
        return list(self._job.take() or ())

    def wait(self, timeout: float = 20.0) -> bool:
        """Block until no job runs (tests); False after ``timeout`` seconds."""
        return self._job.wait(timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Cancel, refuse later requests, and wait up to ``timeout`` s for the thread."""
        self._job.close(timeout)

    # -- the worker ---------------------------------------------------------------------
    def _prove(self, req: _Request, ticket: Ticket) -> None:
        """Both stages of ``req``; each outcome is published while ``req`` is newest."""
        method = logic.METHODS.get(req.method)
        started = time.monotonic()
        key = board_key(req.board)
        job = self._job

        for stage, color in ((0, req.color), (1, not req.color)):
            if ticket.cancelled():
                return
            now = time.monotonic()
            job.report(ticket, Progress(req.token, color, 0, stage, started, stage_started=now))

            def report(n: int, color: bool = color, stage: int = stage,
                       since: float = now) -> None:
                job.report(ticket, Progress(req.token, color, n, stage, started,
                                            stage_started=since))

            def on_line(color: bool = color, stage: int = stage, since: float = now) -> None:
                p = job.progress
                n = p.structures if p is not None and p.color == color else 0
                job.report(ticket, Progress(req.token, color, n, stage, started, line=True,
                                            stage_started=since))

            try:
                if method is None:
                    raise ValueError(f"unknown method {req.method!r}")
                v = method.decide_board(req.board, color, key, stage == 0,
                                        max_seconds=req.seconds, cancel=ticket.cancelled,
                                        report=report, on_line=on_line)
                out = Outcome(req.token, stage, v)
            except MemoryError:  # the prover catches its own: this is the trace's
                out = Outcome(req.token, stage, None, "unknown — memory (the proof's trace "
                              "did not fit in memory)")
            except Exception as exc:  # bad input must never crash the viewer
                out = Outcome(req.token, stage, None, f"{type(exc).__name__}: {exc}")
            if not job.publish(ticket, _appending(out)) or out.error:
                return
