"""The one UCI engine wrapper (scan, experiment, the viewer's analysis pane).

An engine is an oracle and a comparison, never a dependency: every failure
(missing, not executable, garbage, crash, no answer to ``go``, no score, an illegal
best move, a hang on ``quit``) becomes an :class:`EngineError` whose one-line message
names the engine's path and what went wrong; after ``max_failures`` failures in a
row the engine is given up with one message.  Only legal positions are sent
(:class:`IllegalPositionError` otherwise), and closing never waits more than a few
seconds: an engine that ignores ``quit`` is killed.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import subprocess
import threading
from typing import Any, NamedTuple

import chess
import chess.engine

__all__ = ["Engine", "EngineEval", "EngineError", "IllegalPositionError", "check_seconds"]


class EngineError(RuntimeError):
    """An engine failed; the message is one line naming the engine."""


class IllegalPositionError(ValueError):
    """A position that must not be sent to an engine; the message echoes its FEN."""


class EngineEval(NamedTuple):
    """An engine's evaluation, from White's point of view: centipawns ``cp`` or a mate
    distance ``mate`` (positive: White mates), the search ``depth`` and the principal
    variation ``pv`` as UCI moves."""

    cp: int | None
    mate: int | None
    depth: int | None
    pv: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``pv`` as a list)."""
        return {"cp": self.cp, "mate": self.mate, "depth": self.depth, "pv": list(self.pv)}

    def wins(self, color: chess.Color, cp: int = 300) -> bool:
        """A mate for ``color``, or at least ``cp`` centipawns from its point of view."""
        sign = 1 if color else -1
        if self.mate is not None:
            return self.mate * sign > 0
        return self.cp is not None and self.cp * sign >= cp


def check_seconds(value: Any, what: str = "seconds") -> float:
    """``value`` as a finite, positive number of seconds (at most a day); raises a
    ``ValueError`` that names ``what`` and echoes the value otherwise."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number, got {value!r}") from None
    except OverflowError:  # an integer like 10**400
        x = math.inf
    if not math.isfinite(x) or x <= 0 or x > 86400:
        raise ValueError(f"{what} must be finite, positive and at most 86400, got {value!r}")
    return x


def _legal_or_raise(board: chess.Board) -> None:
    status = board.status()
    if status != chess.STATUS_VALID:
        names = ", ".join(f.name.lower().replace("_", " ") for f in chess.Status
                          if f in status and f.name)
        wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
        if wk is not None and bk is not None and chess.square_distance(wk, bk) <= 1:
            names = "the kings stand next to each other"
        raise IllegalPositionError(f"illegal position not sent to the engine ({names}): "
                                   f"{board.fen()!r}")


#: seconds an engine's UCI handshake may take by default
START_TIMEOUT = 20.0


class Engine:
    """A UCI engine at ``path``, started on first use.

    ``timeout``: seconds beyond the search time before an unanswered ``go`` counts as a
    failure; ``start_timeout``: seconds the UCI handshake may take (at least
    ``timeout``; a loaded machine can take seconds to start an engine, a program that
    is no engine fails all the same); ``max_failures``: failures in a row after which
    the engine is given up.  Thread-safe: one analysis at a time.
    """

    def __init__(self, path: str, *, timeout: float = 5.0, max_failures: int = 3,
                 start_timeout: float = START_TIMEOUT) -> None:
        self.path = str(path)
        self.timeout = timeout
        self.start_timeout = max(timeout, start_timeout)
        self.max_failures = max_failures
        self.failures = 0
        self.gave_up = ""
        self._engine: chess.engine.SimpleEngine | None = None
        self._lock = threading.Lock()

    # -- life cycle -------------------------------------------------------------------
    def _start(self) -> chess.engine.SimpleEngine:
        if self._engine is None:
            try:
                self._engine = chess.engine.SimpleEngine.popen_uci(
                    self.path, timeout=self.start_timeout, stderr=subprocess.DEVNULL)
            except FileNotFoundError:
                raise EngineError(f"engine {self.path}: not found") from None
            except PermissionError:
                raise EngineError(f"engine {self.path}: not executable") from None
            except ValueError as exc:  # e.g. a NUL in the path
                raise EngineError(f"engine {self.path!r}: not a usable path ({exc})") from None
            except (TimeoutError, chess.engine.EngineError, chess.engine.EngineTerminatedError,
                    OSError) as exc:
                raise EngineError(f"engine {self.path}: does not start as a UCI engine "
                                  f"({_why(exc, self.start_timeout)})") from None
            self._engine.timeout = self.timeout  # started: its searches get ``timeout``
        return self._engine

    def close(self, wait: float = 2.0) -> None:
        """Quit the engine, waiting at most ``wait`` seconds before killing it."""
        with self._lock:
            engine, self._engine = self._engine, None
        if engine is None:
            return
        pid = None
        with contextlib.suppress(Exception):
            pid = engine.transport.get_pid()
        done = threading.Event()

        def quit_() -> None:
            with contextlib.suppress(Exception):
                engine.quit()
            done.set()

        threading.Thread(target=quit_, daemon=True).start()
        if not done.wait(wait) and pid:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            engine.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- analysis ---------------------------------------------------------------------
    def analyse(self, board: chess.Board, seconds: float) -> EngineEval:
        """Evaluate ``board`` for ``seconds``.  Raises :class:`IllegalPositionError` for
        a position ``board.status()`` rejects (nothing is sent) and :class:`EngineError`
        when the engine fails or has been given up."""
        _legal_or_raise(board)
        seconds = check_seconds(seconds, "engine time")
        if board.is_checkmate():
            return EngineEval(None, 0, 0, ())
        if board.is_stalemate():
            return EngineEval(0, None, 0, ())
        with self._lock:
            if self.gave_up:
                raise EngineError(self.gave_up)
            try:
                result = self._analyse(board, seconds)
            except EngineError as exc:
                self.failures += 1
                self._kill()
                if self.failures >= self.max_failures:
                    self.gave_up = (f"engine {self.path}: given up after {self.failures} "
                                    f"failures in a row (last: {str(exc).split(': ', 1)[-1]})")
                raise
            self.failures = 0
            return result

    def _analyse(self, board: chess.Board, seconds: float) -> EngineEval:
        engine = self._start()
        try:
            # play() rather than analyse(): python-chess checks the best move's legality
            result = engine.play(board, chess.engine.Limit(time=seconds),
                                 info=chess.engine.INFO_ALL)
        except (TimeoutError, chess.engine.EngineError, chess.engine.EngineTerminatedError,
                OSError) as exc:
            raise EngineError(f"engine {self.path}: {_why(exc, self.timeout + seconds)}"
                              ) from None
        info = result.info
        score = info.get("score")
        if score is None:
            raise EngineError(f"engine {self.path}: answered without a score")
        if result.move is None:
            raise EngineError(f"engine {self.path}: no best move in a position with legal "
                              "moves")
        pv = list(info.get("pv") or [result.move])
        probe = board.copy(stack=False)
        for n, move in enumerate(pv):  # python-chess keeps the legal prefix of a line
            if not probe.is_legal(move):
                del pv[n:]
                break
            probe.push(move)
        white = score.white()
        return EngineEval(white.score(), white.mate(), info.get("depth"),
                          tuple(m.uci() for m in pv))

    def kill(self) -> None:
        """Kill the engine process at once, without ``quit`` and without waiting for an
        analysis in progress (for a process that is ending: its engine must not outlive
        it)."""
        engine = self._engine
        if engine is None:
            return
        with contextlib.suppress(Exception):
            os.kill(engine.transport.get_pid(), signal.SIGKILL)

    def _kill(self) -> None:
        engine, self._engine = self._engine, None
        if engine is None:
            return
        with contextlib.suppress(Exception):
            os.kill(engine.transport.get_pid(), signal.SIGKILL)
        with contextlib.suppress(Exception):
            engine.close()


def _why(exc: BaseException, waited: float) -> str:
    if isinstance(exc, TimeoutError):
        return f"no answer within {waited:g} s"
    if isinstance(exc, chess.engine.EngineTerminatedError):
        return f"the engine process died ({exc})" if str(exc) else "the engine process died"
    return str(exc) or type(exc).__name__
