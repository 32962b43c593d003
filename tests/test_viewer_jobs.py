"""The viewer's background-job helper (:mod:`viewer.model.jobs`), driven by events (no clock):
stale results dropped, one thread however many requests, cancel, progress, notify,
an idle job holds no thread, close."""

from __future__ import annotations

import threading

from viewer.model.jobs import Job, Ticket

#: a bound for waits that only ends a broken test (never a measure of speed)
LONG = 30.0


class Gate:
    """A job whose requests wait for :meth:`release` before they publish."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.entered = threading.Event()
        self.go = threading.Event()
        self.delivered: list[tuple[str, bool]] = []
        self.notified = 0
        self.job: Job[str, str, int] = Job(self.run, name="pawnfence-test-job",
                                           notify=self.notify)

    def notify(self) -> None:
        self.notified += 1

    def run(self, request: str, ticket: Ticket) -> None:
        self.started.append(request)
        self.job.report(ticket, len(self.started))
        self.entered.set()
        assert self.go.wait(LONG)
        self.delivered.append((request, self.job.publish(ticket, lambda _old: request)))


def _threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "pawnfence-test-job")


def test_a_superseded_result_is_dropped_and_only_the_newest_request_runs() -> None:
    g = Gate()
    g.job.submit("a")
    assert g.entered.wait(LONG) and g.job.progress == 1
    for name in ("b", "c", "d"):  # while "a" runs: one thread, the newest waits
        g.job.submit(name)
        assert _threads() <= 1
    assert g.job.progress is None  # a new request shows its own progress (none given)
    g.go.set()
    assert g.job.wait(LONG)
    assert g.started == ["a", "d"]  # "b" and "c" were superseded before they ran
    assert g.delivered == [("a", False), ("d", True)] and g.job.result == "d"
    assert g.notified == 1  # only the delivered result wakes the window
    assert g.job.take() == "d" and g.job.result is None
    assert g.job.wait_until(lambda: not g.job.alive(), LONG)  # idle: no thread is left


def test_cancel_drops_the_running_result_and_shows_the_given_one() -> None:
    g = Gate()
    ticket = g.job.submit("a", result="before")
    assert ticket is not None and g.entered.wait(LONG) and g.job.running
    assert g.job.cancel(result="cancelled") and ticket.cancelled() and not ticket.current()
    assert g.job.result == "cancelled" and g.job.progress is None and not g.job.running
    g.go.set()
    assert g.job.wait_until(lambda: not g.job.alive(), LONG)
    assert g.delivered == [("a", False)] and g.job.result == "cancelled"
    assert not g.job.cancel()  # nothing runs


def test_close_cancels_or_lets_the_request_finish() -> None:
    g = Gate()
    g.job.submit("a")
    assert g.entered.wait(LONG)
    g.go.set()
    assert g.job.close(LONG, cancel=False)  # waits for the request, which delivers
    assert g.delivered == [("a", True)] and g.job.result == "a" and g.job.closed
    assert g.job.submit("b") is None and g.started == ["a"]  # closed: no more requests
    h = Gate()
    h.job.submit("a")
    assert h.entered.wait(LONG)
    h.go.set()
    assert h.job.close(LONG)
    assert h.delivered == [("a", False)] and h.job.result is None


def test_a_failing_request_leaves_the_job_usable(capsys) -> None:
    calls: list[str] = []

    def run(request: str, ticket: Ticket) -> None:
        calls.append(request)
        if request == "bad":
            raise ValueError(request)
        job.publish(ticket, lambda _old: request)

    job: Job[str, str, None] = Job(run, name="pawnfence-test-job")
    job.submit("bad")
    assert job.wait(LONG) and job.result is None
    assert "ValueError: bad" in capsys.readouterr().err  # said, not swallowed
    job.submit("good")
    assert job.wait(LONG) and job.result == "good" and calls == ["bad", "good"]
    job.close()
