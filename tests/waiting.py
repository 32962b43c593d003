"""Waiting in tests without depending on the machine's speed.

A test waits for a *condition* (a result delivered, a thread ended, a line written),
never for an amount of time; :data:`HANG` only bounds such a wait so that a hang
becomes a failure instead of a stuck run.  It is far above what any wait takes on a
loaded machine, so the answer of a test never depends on how fast the machine is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["HANG", "CLOSE_BOUND", "until", "live_threads"]

#: seconds after which a wait for a condition counts as a hang (a failure)
HANG = 600.0


def until(done: Callable[[], object], step: Callable[[], object] | None = None,
          what: str | Callable[[], str] = "the condition", poll: float = 0.02) -> None:
    """Call ``step`` (e.g. run a frame) until ``done()`` is true; AssertionError naming
    ``what`` after :data:`HANG` seconds."""
    deadline = time.monotonic() + HANG
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"hang: {what() if callable(what) else what} "
                                 f"not reached in {HANG:g} s")
        if step is not None:
            step()
        time.sleep(poll)


def live_threads(name: str, keep: threading.Thread | None = None) -> int:
    """How many threads called ``name`` are alive, a worker that has already returned
    from its work and is only ending (every such thread but ``keep``) being waited for:
    the count of workers, not of the instants two of them overlap."""
    threads = [t for t in threading.enumerate() if t.name == name]
    for t in threads:
        if t is not keep and t is not threading.current_thread():
            t.join(HANG)
    return sum(t.is_alive() for t in threads)

#: seconds a close may take: the product's own timers (an engine's ``quit`` wait, a
#: worker's join) add up to a few seconds; a close that waited on a hanging engine or a
#: running proof would never end
CLOSE_BOUND = 20.0
