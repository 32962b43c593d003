"""The playlist's cases in words, its background check and the background load of a
large list of the user's own positions (without pygame).

A playlist (:class:`logic.position.Playlist`) parses a case only when it is shown; the
window opens at once.  :class:`PlaylistCheck` then reads every case in the background
(a :class:`viewer.model.jobs.Job`) so the window can say how far it is ("Loading playlist
12,000 / 85,007") and, at the end, how many lines are not positions.  A case of a scan's
``suspects.epd`` carries the side and method it was found on and its category, engine
score and note (:data:`logic.position.SUSPECT_OPERANDS`): :func:`case_focus` and
:func:`case_facts` read them.  A user's list larger than
:data:`viewer.model.settings.USER_LIST_AT_ONCE` is read by :class:`UserListLoad` after the
window is up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import logic
from logic.position import SUSPECT_OPERANDS, PlaylistCase
from logic.vocab import Category
from viewer.model.jobs import Job, Ticket
from viewer.model.settings import load_user_positions_checked

__all__ = ["CheckProgress", "PlaylistCheck", "case_focus", "case_facts", "is_suspect",
           "progress_text", "CHECK_CHUNK", "UserListLoad", "UserList"]

#: cases read between two progress reports of the background check
CHECK_CHUNK = 500
_SIDES = ("white", "black")


def is_suspect(info: dict[str, Any]) -> bool:
    """Whether a case's operations are a scan's suspect (its ``c0`` is a category)."""
    return str(info.get("c0", "")) in {c.value for c in Category}


def case_focus(info: dict[str, Any]) -> tuple[str | None, str | None]:
    """``(side, method)`` a suspect case was found on (None for what it does not say or
    says wrongly; a case that is not a suspect says neither)."""
    if not is_suspect(info):
        return None, None
    side, method = str(info.get("c3", "")).lower(), str(info.get("c4", "")).lower()
    return (side if side in _SIDES else None, method if method in logic.METHODS else None)


def case_facts(case: PlaylistCase) -> list[tuple[str, str]]:
    """``(label, value)`` for each operation of a case worth showing: a suspect's
    category, engine score, note, side and method by name (the engine's "engine" prefix
    dropped), any other operation under its own name."""
    suspect = is_suspect(case.info)
    out = []
    for key, value in case.info.items():
        label = SUSPECT_OPERANDS.get(key, key) if suspect else key
        text = str(value)
        if suspect and key == "c1":
            text = text.removeprefix("engine ").strip()
        out.append((label, text))
    return out


class CheckProgress(NamedTuple):
    """How far the background check is: ``done`` of ``total`` cases read, the line
    numbers of the ``bad`` ones (not positions) so far, ``finished`` at the end."""

    done: int
    total: int
    bad: tuple[int, ...] = ()
    finished: bool = False


def progress_text(p: CheckProgress, name: str = "playlist") -> str:
    """The check in a few words: "Loading playlist 12,000 / 85,007" while it reads,
    "suspects.epd: 26 cases" (with its bad lines) at the end."""
    if not p.finished:
        return f"Loading {name} {p.done:,} / {p.total:,}"
    cases = "case" if p.total == 1 else "cases"
    text = f"{name}: {p.total:,} {cases}"
    if p.bad:
        shown = ", ".join(f"{n:,}" for n in p.bad[:5]) + (", …" if len(p.bad) > 5 else "")
        lines = "line is" if len(p.bad) == 1 else "lines are"
        text += f"; {len(p.bad):,} {lines} not a position ({shown})"
    return text


class PlaylistCheck:
    """Reads every case of a playlist in the background: :meth:`start` it on a
    playlist, :meth:`progress` is the newest :class:`CheckProgress` (None before a
    start).  Starting again (a new playlist) supersedes the check before; :meth:`close`
    stops it.  The playlist must offer ``check(i)`` (:class:`logic.position.Playlist`);
    a plain sequence of cases needs no check and gives a finished progress at once."""

    def __init__(self, notify: Callable[[], None] | None = None) -> None:
        self.job: Job[Any, CheckProgress, CheckProgress] = Job(self._run, name="playlist",
                                                               notify=notify)
        self._last: CheckProgress | None = None

    def start(self, playlist: Sequence[PlaylistCase]) -> None:
        """Check ``playlist`` (from its first case)."""
        first = CheckProgress(0, len(playlist))
        if not hasattr(playlist, "check"):
            self.job.cancel()
            self._last = first._replace(done=len(playlist), finished=True)
            return
        self._last = first
        self.job.submit(playlist, progress=first)

    def progress(self) -> CheckProgress | None:
        """The newest progress (the final one stays once the check has ended)."""
        got = self.job.take()
        if got is not None:
            self._last = got
        elif self.job.progress is not None:
            self._last = self.job.progress
        return self._last

    def running(self) -> bool:
        """Whether a check is reading."""
        return self.job.running

    def close(self) -> None:
        """Stop the check (the window closes)."""
        self.job.close()

    def _run(self, playlist: Any, ticket: Ticket) -> None:
        total = len(playlist)
        bad: list[int] = []
        for i in range(total):
            if i % CHECK_CHUNK == 0:
                if ticket.cancelled():
                    return
                self.job.report(ticket, CheckProgress(i, total, tuple(bad)))
            error = playlist.check(i)
            if error is not None:
                bad.append(error.line)
        final = CheckProgress(total, total, tuple(bad), finished=True)
        self.job.publish(ticket, lambda _old: final)


#: the user's list as loaded: ``(name, fen)`` pairs and the problems found
UserList = tuple[list[tuple[str, str]], tuple[str, ...]]


class UserListLoad:
    """Reads the user's own positions in the background
    (:func:`viewer.model.settings.load_user_positions_checked`): :meth:`start`, then
    :meth:`take` the list once it is read; :meth:`progress` is ``(lines done, lines)``
    while it reads.  Starting again supersedes the load before."""

    def __init__(self, notify: Callable[[], None] | None = None) -> None:
        self.job: Job[None, UserList, tuple[int, int]] = Job(self._run, name="my-positions",
                                                             notify=notify)

    def start(self) -> None:
        """Read the list (again)."""
        self.job.submit(None, progress=(0, 0))

    def take(self) -> UserList | None:
        """The list read, handed over once (None while it reads or before a start)."""
        return self.job.take()

    def progress(self) -> tuple[int, int] | None:
        """``(lines done, lines)`` while the list is read, else None."""
        return self.job.progress if self.job.running else None

    def close(self) -> None:
        """Stop reading (the window closes)."""
        self.job.close()

    def _run(self, _request: None, ticket: Ticket) -> None:
        def report(done: int, total: int) -> bool:
            self.job.report(ticket, (done, total))
            return not ticket.cancelled()

        got = load_user_positions_checked(report)
        self.job.publish(ticket, lambda _old: got)
