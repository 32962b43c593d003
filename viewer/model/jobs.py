"""One background job of the viewer: a worker thread fed the newest request, with a
generation counter, cancel, progress, a result and a wake-up call for the window loop.
Without pygame; the prover (:mod:`viewer.model.proof`), the analysis pane
(:mod:`viewer.model.analysis`) and the GIF writer (:mod:`viewer.figures.export`) are built on it.

Contracts of :class:`Job`:

* every :meth:`Job.submit` and :meth:`Job.cancel` starts a new *generation*; a
  :class:`Ticket` names the generation its request belongs to, and
  :meth:`Job.publish` / :meth:`Job.report` change the result / progress only while
  that generation is the newest (a superseded or cancelled request's results are
  dropped, never delivered);
* at most one worker thread: it takes the newest pending request when the one it runs
  returns (requests submitted in between are superseded, never run), and it ends when
  nothing is pending, so an idle job holds no thread and rapid requests pile nothing up;
* ``run(request, ticket)`` is called in the worker; it polls ``ticket.cancelled()`` to
  stop early (cancel does not interrupt it otherwise); an exception it lets out is
  printed (as an uncaught one in a thread is) and delivers nothing, and the worker goes
  on with the next request;
* ``notify`` (if set) is called from the worker after every delivered result, so an
  idle window sleeps until there is something to show (no polling);
* :meth:`Job.wait_until` blocks on the job's condition (every change of the result,
  the progress or the running state notifies it), never by sleeping in a loop;
* after :meth:`Job.close` the job takes no more requests.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["Job", "Ticket"]

Req = TypeVar("Req")
Res = TypeVar("Res")
Prog = TypeVar("Prog")


class Ticket:
    """A request's generation of its :class:`Job`: whether it is still the newest."""

    __slots__ = ("job", "generation")

    def __init__(self, job: Job[Any, Any, Any], generation: int) -> None:
        self.job = job
        self.generation = generation

    def current(self) -> bool:
        """Whether this request is the job's newest and the job is not closed."""
        return self.job.is_current(self.generation)

    def cancelled(self) -> bool:
        """Whether this request is superseded, cancelled or the job closed (for the
        workers' ``cancel`` polls)."""
        return not self.job.is_current(self.generation)


class Job(Generic[Req, Res, Prog]):
    """One background job (see the module's contracts): ``run`` works on each request
    in a daemon thread called ``name``; :attr:`result` and :attr:`progress` are
    snapshots the worker replaces, :attr:`generation` counts requests and cancels."""

    def __init__(self, run: Callable[[Req, Ticket], None], *, name: str,
                 notify: Callable[[], None] | None = None) -> None:
        self.name = name
        #: called from the worker after a result is delivered (thread-safe callees only)
        self.notify = notify
        #: guards every field below; notified on every change of them
        self.condition = threading.Condition()
        self.generation = 0
        #: the newest delivered result (None: none yet, or taken)
        self.result: Res | None = None
        #: the running request's progress (None: none)
        self.progress: Prog | None = None
        self._run = run
        self._pending: tuple[Req, int] | None = None
        self._active: int | None = None  # the generation the worker is running
        self._thread: threading.Thread | None = None
        self._ending: threading.Thread | None = None  # a worker past its last request
        self._closed = False

    # -- requests -----------------------------------------------------------------------
    def submit(self, request: Req, *, result: Res | None = None,
               progress: Prog | None = None) -> Ticket | None:
        """Run ``request`` in the worker as the newest generation (the one before is
        superseded); ``result`` and ``progress`` are the snapshots shown until the worker
        replaces them.  None (and nothing done) once the job is closed."""
        with self.condition:
            if self._closed:
                return None
            self.generation += 1
            self.result, self.progress = result, progress
            self._pending = (request, self.generation)
            if self._thread is None:
                self._join_ending()
                self._thread = threading.Thread(target=self._work, name=self.name,
                                                daemon=True)
                self._thread.start()
            self.condition.notify_all()
            return Ticket(self, self.generation)

    def cancel(self, *, result: Res | None = None) -> bool:
        """Supersede the running or pending request (its results are dropped) and show
        ``result``; True if a request was running or pending."""
        with self.condition:
            was = self.running
            self.generation += 1
            self._pending = None
            self.result, self.progress = result, None
            self.condition.notify_all()
            return was

    @property
    def running(self) -> bool:
        """Whether the newest request is pending or being run."""
        return self._pending is not None or self._active == self.generation

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def is_current(self, generation: int) -> bool:
        """Whether ``generation`` is the newest and the job is not closed."""
        return generation == self.generation and not self._closed

    def alive(self) -> bool:
        """Whether the worker thread exists."""
        t = self._thread
        return t is not None and t.is_alive()

    # -- the worker's side ----------------------------------------------------------------
    def publish(self, ticket: Ticket, change: Callable[[Res | None], Res]) -> bool:
        """Replace the result by ``change(result)`` if ``ticket`` is current, then call
        ``notify``; False (nothing changed) for a stale ticket."""
        with self.condition:
            if not self.is_current(ticket.generation):
                return False
            self.result = change(self.result)
            self.condition.notify_all()
        if self.notify is not None:
            self.notify()
        return True

    def report(self, ticket: Ticket, progress: Prog) -> bool:
        """Set the progress if ``ticket`` is current (no ``notify``: the window shows
        progress at its own pace); False for a stale ticket."""
        with self.condition:
            if not self.is_current(ticket.generation):
                return False
            self.progress = progress
            self.condition.notify_all()
            return True

    def take(self) -> Res | None:
        """The delivered result, handed over once (the job's result is None after)."""
        with self.condition:
            out, self.result = self.result, None
            return out

    # -- waiting and the end --------------------------------------------------------------
    def wait_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Block (on the condition, no polling) until ``done()`` (called under the lock)
        holds, at most ``timeout`` seconds; whether it holds."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while not done():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.condition.wait(left)
            return True

    def wait(self, timeout: float = 20.0) -> bool:
        """Block until no request runs (tests); False after ``timeout`` seconds."""
        return self.wait_until(lambda: not self.running, timeout)

    def close(self, timeout: float = 2.0, *, cancel: bool = True) -> bool:
        """Take no more requests, cancel the running one (unless ``cancel`` is False: it
        finishes and delivers) and wait up to ``timeout`` seconds for the thread; True
        if no thread is left."""
        with self.condition:
            self._closed = cancel or self._closed
            if cancel:
                self.generation += 1
                self._pending = None
                self.progress = None
            self.condition.notify_all()
        t = self._thread
        if t is not None:
            t.join(timeout)
        with self.condition:
            self._closed = True
            self.condition.notify_all()
        return not self.alive()

    def _join_ending(self) -> None:
        """Wait for a worker that took its last request and is only returning (it holds
        no lock and ends at once), so that two worker threads never exist together."""
        t, self._ending = self._ending, None
        if t is not None and t is not threading.current_thread():
            t.join()

    def _work(self) -> None:
        while True:
            with self.condition:
                pending, self._pending = self._pending, None
                if pending is None or self._closed:
                    self._ending, self._thread = self._thread, None
                    self._active = None
                    self.condition.notify_all()
                    return
                request, generation = pending
                self._active = generation
            try:
                self._run(request, Ticket(self, generation))
            except Exception:  # a failing request must not take the worker (or the job) down
                traceback.print_exc()
            finally:
                with self.condition:
                    if self._active == generation:
                        self._active = None
                    if self.generation == generation:
                        self.progress = None
                    self.condition.notify_all()
