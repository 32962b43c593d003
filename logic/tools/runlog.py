"""Long runs that survive kills: a JSON-lines log written as results arrive, read back
on restart, and a progress bar with an ETA (``scan`` and ``experiment``).

A killed run loses at most the line being written: :func:`load_rows` cuts a torn last
line, sets aside every other line that is not a well-formed row (its original bytes
appended to ``NAME.bad`` beside the log, its line number for the caller's
``errors.log``) and returns the rest, so the same command resumes without loss or
repetition.
"""

from __future__ import annotations

import json
import logging
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

__all__ = ["load_rows", "parse_row", "bad_path", "Progress", "shown", "carried_notes",
           "finite_number", "route_engine_noise", "ENGINE_LOGGERS"]


def finite_number(x: Any) -> bool:
    """A JSON number that is a finite float: not a bool, not NaN or infinite, and not an
    integer too large for a float (JSON allows 10**400; ``math.isfinite`` would raise)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return False
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def shown(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters with "...(N more)" (bounded messages)."""
    return text if len(text) <= limit else f"{text[:limit]}...({len(text) - limit} more)"


def bad_path(path: Path) -> Path:
    """Where :func:`load_rows` keeps the lines of ``path`` it sets aside: ``NAME.bad``."""
    return path.with_name(path.name + ".bad")


def load_rows(path: Path, problem: Callable[[Any], str], errors: list[str]
              ) -> list[dict[str, Any]]:
    """The rows of the JSON-lines file ``path`` (none if it does not exist).  A torn last
    line (no newline: a killed writer) is cut off the file; a line that is not strict
    JSON (UTF-8, no NaN or Infinity), or that ``problem(row)`` rejects (it returns why,
    or ``""`` for a good row), is appended with its original bytes to ``NAME.bad``
    (:func:`bad_path`; the caller rewrites ``path`` without it), reported in ``errors``
    as ``PATH:N: set aside, WHY: LINE (kept in NAME.bad)`` and skipped.  Raises
    ``OSError`` when the set-aside lines cannot be kept (``path`` must then not be
    rewritten).  Lines end at ``"\n"`` only (never at a U+2028 or a ``"\x1c"`` inside a
    line)."""
    if not path.is_file():
        return []
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1
    if keep != len(data):
        with open(path, "r+b") as fh:
            fh.truncate(keep)
    rows = []
    aside: list[bytes] = []
    bad = bad_path(path)
    for n, raw in enumerate(data[:keep].split(b"\n")[:-1], 1):  # lines end at "\n" only
        row, why = parse_row(raw, problem)
        if why:
            line = raw.decode("utf-8", errors="replace")
            errors.append(f"{path}:{n}: set aside, {why}: {shown(line)} (kept in {bad.name})")
            aside.append(raw + b"\n")
            continue
        rows.append(row)
    if aside:
        with open(bad, "ab") as fh:
            fh.write(b"".join(aside))
            fh.flush()
            os.fsync(fh.fileno())
    return rows


#: the loggers of what engines make python-chess and asyncio say (unexpected output, an
#: info line it cannot parse, a child process reaped elsewhere, a loop already closed)
ENGINE_LOGGERS = ("chess.engine", "asyncio")


def route_engine_noise(path: Path | None) -> Callable[[], None]:
    """Send the records of :data:`ENGINE_LOGGERS` to the file ``path`` (appended, one
    line each with the process id; created at the first record; None: dropped) instead
    of standard error, where each bad line of an engine was a line of noise; returns
    the function that undoes it.  The failures themselves are the caller's to say, one
    line each."""
    handler: logging.Handler
    if path is None:
        handler = logging.NullHandler()
    else:
        handler = _QuietFileHandler(path, encoding="utf-8", errors="backslashreplace",
                                    delay=True)
        handler.setFormatter(logging.Formatter(
            "%(asctime)s pid %(process)d %(name)s %(levelname)s: %(message)s"))
    saved = []
    for name in ENGINE_LOGGERS:
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if getattr(h, "pawnfence_route", False)]:
            logger.removeHandler(old)  # an earlier run's, kept for asyncio (see undo)
            old.close()
        saved.append((logger, logger.propagate))
        logger.addHandler(handler)
        logger.propagate = False
    setattr(handler, "pawnfence_route", True)  # noqa: B010 (a mark on a library object)

    def undo() -> None:
        # asyncio's child watcher reports an engine that died from its own thread, even
        # after the engine is closed ("Unknown child process pid ..."): its logger keeps
        # writing to the run's log for the rest of the process, never to stderr
        for logger, propagate in saved:
            if logger.name != "asyncio":
                logger.removeHandler(handler)
                logger.propagate = propagate

    return undo


class _QuietFileHandler(logging.FileHandler):
    """A log file whose failures (the folder removed, a full disk) are dropped: noise
    routed away from stderr must never come back there as a logging error."""

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        return None


def parse_row(raw: bytes, problem: Callable[[Any], str]) -> tuple[Any, str]:
    """One line of a JSON-lines file as ``(row, why)``: ``why`` is ``""`` for a
    well-formed row, else why it is not one (not UTF-8, not strict JSON, too deeply
    nested, or what ``problem(row)`` says)."""
    try:
        row = json.loads(raw.decode("utf-8"), parse_constant=_not_json)
        return row, problem(row)
    except UnicodeDecodeError:
        return None, "bytes that are not UTF-8"
    except ValueError as exc:
        return None, f"not JSON ({exc})"
    except RecursionError:
        return None, "JSON nested too deeply"


def _not_json(name: str) -> None:
    """``NaN``, ``Infinity``: Python's json reads them, no JSON writer writes them."""
    raise ValueError(f"{name} is not a JSON number")


def carried_notes(log: Path) -> list[str]:
    """The "set aside" lines of an earlier ``errors.log`` (found only once, so a rewrite
    of the log must carry them over)."""
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    return [line for line in lines if ": set aside, " in line]


class Progress:
    """A one-line progress bar with rate and ETA on ``out`` (None: silent), redrawn at
    most five times a second."""

    def __init__(self, total: int, out: TextIO | None, unit: str = "pos") -> None:
        self.total, self.out, self.unit = total, out, unit
        self.done, self.t0, self.last = 0, time.time(), 0.0
        self.fresh = 0  # items done in this run (the rate ignores resumed ones)

    def step(self, n: int = 1, *, resumed: bool = False) -> None:
        """``n`` more items done (``resumed``: taken from an earlier run)."""
        self.done += n
        if not resumed:
            self.fresh += n
        now = time.time()
        if self.out is None or (now - self.last < 0.2 and self.done < self.total):
            return
        self.last = now
        rate = self.fresh / max(now - self.t0, 1e-9)
        eta = (self.total - self.done) / rate if rate else 0.0
        width = 30
        fill = int(width * self.done / max(self.total, 1))
        self.out.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} "
                       f"{rate:7.1f} {self.unit}/s  ETA {eta:7.0f} s")
        if self.done >= self.total:
            self.out.write("\n")
        self.out.flush()
