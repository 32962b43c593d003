"""The background proof (part of :class:`viewer.model.state.ViewerState`, without pygame): the
background proof of a method that is not ``static`` (the exact prover, a
:class:`~viewer.model.proof.ProofJob`), what its results are for, its budget and the note
that says why there is no verdict.

Invariants: ``token`` names what the verdicts on show are for (method, side, board,
budget); :meth:`ProofSession.take` hands over only outcomes for ``token`` (stale ones
are dropped); ``note`` is "" while proving or once the verdicts are in, else "cancelled
..." or "failed: ..."; ``seconds`` is the budget per side for the board ``seconds`` was
raised on (None: the method's own; a new board starts from the default again); the
retry policy is :func:`logic.exact.next_budget`'s.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import chess

from logic.exact import Retry, next_budget
from logic.verdict import Verdict
from viewer.model.proof import Outcome, Progress, ProofJob
from viewer.model.words import bounded

__all__ = ["ProofSession"]


class ProofSession:
    """The background proof and its bookkeeping (see the module's invariants)."""

    def __init__(self) -> None:
        #: the background job (the window sets its ``notify``)
        self.job = ProofJob()
        self.token: Hashable = None
        self.note = ""
        self.seconds: float | None = None
        #: the step to show when the side under test's verdict lands (None: live)
        self.keep_step: int | None = None
        self._budget_board: Hashable = None

    def for_board(self, key: Hashable) -> None:
        """The board ``key`` is analysed: a raised budget is for its own board alone."""
        if key != self._budget_board:
            self._budget_board, self.seconds = key, None

    def start(self, method: str, color: chess.Color, board: chess.Board, key: Hashable,
              keep_step: int | None) -> bool:
        """Prove ``board`` (whose board key is ``key``) for ``color`` and the other side
        with ``method`` in the background, showing step ``keep_step`` when it lands;
        False (nothing done) when that very proof is running or in place."""
        token = (method, color, key, self.seconds)
        if token == self.token and not self.note:
            return False
        self.keep_step = keep_step
        self.token, self.note = token, ""
        self.job.start(token, board, color, method, self.seconds)
        return True

    def drop(self) -> None:
        """Forget the background proof (cancelled if it runs)."""
        self.job.cancel()
        self.token, self.note = None, ""

    def proving(self) -> Progress | None:
        """The background proof's progress while it runs for what the board shows."""
        p = self.job.progress
        return p if p is not None and p.token == self.token and self.job.running else None

    def cancel(self) -> bool:
        """Stop the background proof (the board keeps no verdict; the note says so);
        True if one was running."""
        p = self.proving()
        if p is None or not self.job.cancel():
            return False
        side = chess.COLOR_NAMES[p.color].capitalize()
        self.note = (f"cancelled while proving for {side} after {p.structures:,} "
                     f"structures, {p.seconds():.1f} s")
        return True

    def take(self) -> list[Outcome]:
        """The outcomes delivered since the last call for what the board shows (oldest
        first); a failure sets the note."""
        out = [o for o in self.job.take() if o.token == self.token]
        for o in out:
            if o.verdict is None:
                self.note = f"failed: {bounded(o.error)}"
        return out

    def next_budget(self, default_seconds: float, shown: Iterable[Verdict | None]
                    ) -> Retry:
        """The budget R would prove again with (:func:`logic.exact.next_budget`): from
        the budget in use (``default_seconds``, the method's own, when none was raised)
        and why the "unknown" (or "horizon") verdicts of ``shown`` stopped."""
        now = self.seconds or default_seconds
        return next_budget(now, [v.detail.result.ran_out for v in shown
                                 if v is not None and v.status in ("unknown", "horizon")
                                 and v.detail is not None])

    def close(self) -> None:
        """Stop the background proof (the window closes)."""
        self.job.close()
