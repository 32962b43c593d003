"""Waiting in tests without depending on the machine's speed.

A test waits for a *condition* (a result delivered, a thread ended, a line written),
never for an amount of time; :data:`HANG` only bounds such a wait so that a hang
becomes a failure instead of a stuck run.  It is far above what any wait takes on a
loaded machine, so the answer of a test never depends on how fast the machine is.
"""

from __future__ import annotations

__all__ = ["HANG"]

#: seconds after which a wait for a condition counts as a hang (a failure); also the bound
#: of a close that must not wait on a fake engine that never answers (it would wait for
#: ever): the product's own timers end it in seconds
HANG = 600.0
