"""What survives a restart: settings (JSON in the user config folder) and the user's
own position list (EPD in the user data folder), both written atomically.

Several windows may share these files: every write (and every read that may rewrite or
move a file aside) holds the file's lock (:func:`logic.files.locked`), so adding
positions from two windows at once loses none, and temporary files left by a killed
save are removed at start.

``PAWNFENCE_HOME`` overrides both folders (tests and portable installs use it).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, NamedTuple

import platformdirs

import logic
from logic.files import atomic_write, atomic_write_text, locked, remove_stale_temps
from logic.tools.runlog import finite_number

__all__ = ["Settings", "Loaded", "AutoSave", "config_dir", "data_dir", "load_settings",
           "load_settings_checked", "save_settings", "keep_aside", "load_user_positions",
           "load_user_positions_checked", "add_user_position", "atomic_write_text",
           "regular_file", "MAX_SETTINGS_BYTES", "user_list_is_large", "USER_LIST_AT_ONCE",
           "user_positions_path"]


def config_dir() -> Path:
    home = os.environ.get("PAWNFENCE_HOME")
    return Path(home) if home else Path(platformdirs.user_config_dir("pawnfence"))


def data_dir() -> Path:
    home = os.environ.get("PAWNFENCE_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("pawnfence"))


@dataclass
class Settings:
    """The viewer's persistent settings."""

    fen: str = "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1"
    flipped: bool = False
    method: str = logic.DEFAULT_METHOD
    side: str = "white"
    speed: float = 3.0
    structure: bool = False
    tool: str = "P"
    search: bool = False
    engine: str = ""  # a UCI engine for the search panel; "" = /usr/games/stockfish if present
    width: int = 1280
    height: int = 860
    search_seconds: float = 1.0  # the analysis pane's time per search
    export_size: int = 720  # exports: the board's side in pixels, and what to include
    export_overlays: bool = True
    export_banner: bool = True
    export_legend: bool = True
    export_explanation: bool = True
    export_theme: str = "light"  # the pictures' colours: light (print) or dark
    theme: str = "dark"  # the window's colours: dark or light


#: the window sizes a settings file may ask for (larger ones are clamped to the screen)
MIN_WINDOW, MAX_WINDOW = (760, 560), 16384


class Loaded(NamedTuple):
    """What :func:`load_settings_checked` found: the ``settings`` to use, the
    ``problems`` to show in the window (one line each), and whether the settings file
    may be written (False when a damaged file could not be moved aside)."""

    settings: Settings
    problems: tuple[str, ...] = ()
    writable: bool = True


def keep_aside(path: Path) -> Path:
    """Rename the damaged file ``path`` to ``NAME.bad`` (``NAME.bad.1``, ... if taken) and
    return the new path; raises ``OSError``."""
    bad = _free_name(path)
    os.replace(path, bad)
    return bad


#: a settings file larger than this is damaged (a real one is under a kilobyte)
MAX_SETTINGS_BYTES = 1 << 20


def regular_file(path: Path) -> os.stat_result:
    """``path``'s status; raises ``ValueError`` for a folder, a FIFO or a device (reading
    one could block forever or never end) and ``OSError`` (``FileNotFoundError`` when
    missing) as ``os.stat`` does."""
    st = path.stat()
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else \
            "a FIFO" if stat.S_ISFIFO(st.st_mode) else "not a regular file"
        raise ValueError(kind)
    return st


def _read_settings_file(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; raises ``ValueError`` saying why it is damaged."""
    regular_file(path)
    with open(path, "rb") as fh:
        raw = fh.read(MAX_SETTINGS_BYTES + 1)
    if len(raw) > MAX_SETTINGS_BYTES:
        raise ValueError(f"larger than {MAX_SETTINGS_BYTES // 1024} KB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("bytes that are not UTF-8") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError as exc:
        raise ValueError(f"not JSON: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise ValueError(f"a JSON {type(data).__name__}, not an object")
    return data


def load_settings_checked() -> Loaded:
    """The saved settings, or defaults when there are none.

    A damaged file (not a regular file, over :data:`MAX_SETTINGS_BYTES`, not UTF-8, not
    JSON, nested too deeply, not an object) is moved aside to ``settings.json.bad`` (so
    it is never overwritten) and the defaults are used.  Values that cannot be used
    (unknown keys, wrong types, a window size outside ``MIN_WINDOW..MAX_WINDOW``, a
    time, speed or size out of range, a FEN that is not one, an unknown method, side or
    tool, an engine path with a NUL) are replaced by their defaults and the file is
    copied aside first, since the next save rewrites it.  Each problem is one line of
    ``problems``; nothing here raises.
    """
    path = config_dir() / "settings.json"
    with _lock_if_possible(path):
        remove_stale_temps(path)
        return _load_settings(path)


@contextlib.contextmanager
def _lock_if_possible(path: Path) -> Iterator[bool]:
    """:func:`logic.files.locked` on ``path`` for the block, or no lock when it cannot be
    had (a read-only folder, a holder that does not let go): reading goes on; yields
    whether the lock is held."""
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(locked(path))
        except OSError:
            yield False
            return
        yield True


def _load_settings(path: Path) -> Loaded:
    """:func:`load_settings_checked` on ``path`` (the caller holds its lock)."""
    base = Settings()
    try:
        data = _read_settings_file(path)
    except FileNotFoundError:
        return Loaded(base)
    except OSError as exc:
        return Loaded(base, (f"could not read {path}: {exc.strerror or exc}; using defaults",),
                      writable=False)
    except ValueError as why:
        try:
            bad = keep_aside(path)
        except OSError as exc:
            return Loaded(base, (f"{path} is damaged ({why}) and could not be moved aside "
                                 f"({exc.strerror or exc}): using defaults, not saving",),
                          writable=False)
        return Loaded(base, (f"{path.name} was damaged ({why}): kept as {bad.name}; "
                             "starting on defaults",))
    unused = _apply(base, data)
    if not unused:
        return Loaded(base)
    try:  # a copy: the file keeps its good values until the next save replaces it
        raw = path.read_bytes()
        bad = _free_name(path)
        atomic_write(bad, lambda tmp: Path(tmp).write_bytes(raw))
    except OSError as exc:
        return Loaded(base, (f"{path.name}: could not use {_listed(unused)}, and the file "
                             f"could not be kept aside ({exc.strerror or exc}): using "
                             "defaults for those, not saving",), writable=False)
    return Loaded(base, (f"{path.name}: could not use {_listed(unused)} (defaults instead); "
                         f"the file is kept as {bad.name}",))


#: the editor's tools a settings file may name (pieces and the eraser)
TOOL_LETTERS = "KPkpxQRBNqrbn"


def _apply(base: Settings, data: dict[str, Any]) -> list[str]:
    """Set the usable values of ``data`` on ``base``; returns what could not be used, in
    words (unknown keys, wrong types, values out of range or meaningless)."""
    known = {f.name for f in fields(Settings)}
    unused = []
    for key, value in data.items():
        default = getattr(base, key, None)
        if key not in known:
            unused.append(f"the unknown setting {_short(key)}")
        elif isinstance(default, float) and type(value) is int and finite_number(value):
            setattr(base, key, float(value))
        elif type(value) is type(default):
            setattr(base, key, value)
        else:
            unused.append(f"{key} {_short(value)}")
    default = Settings()
    if not (MIN_WINDOW[0] <= base.width <= MAX_WINDOW and
            MIN_WINDOW[1] <= base.height <= MAX_WINDOW):
        unused.append(f"window size {bounded_int(base.width)}x{bounded_int(base.height)} "
                      f"(out of bounds: {default.width}x{default.height} instead)")
        base.width, base.height = default.width, default.height
    checks = {"speed": 0 < base.speed < 1000, "search_seconds": 0.05 <= base.search_seconds <= 60,
              "export_size": 64 <= base.export_size <= 4096, "fen": _is_fen(base.fen),
              "export_theme": base.export_theme in ("light", "dark"),
              "theme": base.theme in ("light", "dark"),
              "method": base.method in logic.METHODS,
              "side": base.side in ("white", "black"),
              "tool": len(base.tool) == 1 and base.tool in TOOL_LETTERS,
              "engine": "\0" not in base.engine}
    for key, ok in checks.items():
        if not ok:
            unused.append(f"{key} {_short(getattr(base, key))}")
            setattr(base, key, getattr(default, key))
    return unused


def _is_fen(text: str) -> bool:
    import chess

    try:
        chess.Board(text)
    except ValueError:
        return False
    return True


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _listed(items: list[str]) -> str:
    more = len(items) - 3
    return ", ".join(items[:3]) + (f" and {more} more" if more > 0 else "")


def _free_name(path: Path) -> Path:
    """``NAME.bad``, or ``NAME.bad.1``, ... when taken."""
    bad = path.with_name(path.name + ".bad")
    n = 0
    while bad.exists() or bad.is_symlink():
        n += 1
        bad = path.with_name(f"{path.name}.bad.{n}")
    return bad


def bounded_int(n: int) -> str:
    """``n`` in digits, cut after 12 of them."""
    s = str(n)
    return s if len(s) <= 12 else s[:12] + "…"


def load_settings() -> Settings:
    """The saved settings, or defaults if missing or damaged (see
    :func:`load_settings_checked`, which also reports the problems)."""
    return load_settings_checked().settings


def save_settings(settings: Settings) -> str | None:
    """Save ``settings`` atomically; returns an error message instead of raising."""
    path = config_dir() / "settings.json"
    try:
        with locked(path):
            atomic_write_text(path, json.dumps(asdict(settings), indent=1))
    except OSError as exc:
        return f"could not save settings: {exc}"
    return None


class AutoSave:
    """When to save while the user keeps working: at most ``quiet`` seconds after the
    last change, and never later than ``max_delay`` seconds after the first unsaved
    change (a maximum delay, not only a quiet-period debounce: edits every half second
    are still saved once a second).  Time is whatever clock the caller passes (the
    frame loop's, so tests run on a fake one); ``save`` returns an error or None."""

    def __init__(self, save: Callable[[], str | None], *, quiet: float = 0.5,
                 max_delay: float = 1.0) -> None:
        self.save = save
        self.quiet = quiet
        self.max_delay = max_delay
        self.first: float | None = None  # the first unsaved change
        self.last = 0.0  # the last change
        self.saves = 0

    @property
    def pending(self) -> bool:
        return self.first is not None

    def changed(self, now: float) -> None:
        """Something to save changed at ``now`` (seconds)."""
        if self.first is None:
            self.first = now
        self.last = now

    def tick(self, now: float) -> str | None:
        """Save if it is time; returns the save's error, if any (it is retried after
        ``max_delay``)."""
        if self.first is None:
            return None
        if now - self.last < self.quiet and now - self.first < self.max_delay:
            return None
        err = self.save()
        self.saves += 1
        self.first = None if err is None else now
        return err


def user_positions_path() -> Path:
    return data_dir() / "my-positions.epd"


#: the largest user list (bytes) read in the foreground; a larger one loads in the
#: background (about 800 lines: a few hundredths of a second of parsing)
USER_LIST_AT_ONCE = 64 * 1024
#: lines parsed between two progress reports of :func:`load_user_positions_checked`
_USER_CHUNK = 500


def user_list_is_large() -> bool:
    """Whether the user's list is larger than :data:`USER_LIST_AT_ONCE` (the window loads
    it in the background)."""
    try:
        return user_positions_path().stat().st_size > USER_LIST_AT_ONCE
    except OSError:
        return False


def load_user_positions_checked(progress: Callable[[int, int], bool] | None = None
                                ) -> tuple[list[tuple[str, str]], tuple[str, ...]]:
    """``(name, fen)`` pairs of the user's own list (bad lines are skipped) and the
    problems found.  A file with bytes that are not UTF-8 is copied aside to
    ``my-positions.epd.bad`` and rewritten (atomically) with those bytes replaced, so
    adding a position keeps every readable line and the original is never lost.
    ``progress(lines done, lines)`` is called every few hundred lines while they are
    parsed; when it returns False the reading stops (what was read so far is returned)."""
    path = user_positions_path()
    with _lock_if_possible(path):
        remove_stale_temps(path)
        text, problems = _read_user_positions(path)
    return _parse_user_positions(text, progress), problems


def _parse_user_positions(text: str, progress: Callable[[int, int], bool] | None
                          ) -> list[tuple[str, str]]:
    """The ``(name, fen)`` pairs of the good lines of ``text`` (see
    :func:`load_user_positions_checked`)."""
    from logic.position import read_positions

    lines = text.splitlines()
    out: list[tuple[str, str]] = []
    for start in range(0, len(lines), _USER_CHUNK):
        if progress is not None and not progress(start, len(lines)):
            break
        for e in read_positions(lines[start:start + _USER_CHUNK]):
            board = e.board
            assert board is not None  # read_positions keeps the good lines only
            out.append((str(e.ops.get("id", board.board_fen())), board.fen()))
    return out


def _read_user_positions(path: Path) -> tuple[str, tuple[str, ...]]:
    """The text of the user's list at ``path`` and the problems found (the caller holds
    its lock; see :func:`load_user_positions_checked`)."""
    try:
        regular_file(path)
        raw = path.read_bytes()
    except FileNotFoundError:
        return "", ()
    except OSError as exc:
        return "", (f"could not read {path}: {exc.strerror or exc}",)
    except ValueError as why:  # a folder, a FIFO, a device: moved aside, never read
        try:
            bad = keep_aside(path)
        except OSError as exc:
            return "", (f"{path} is {why} and could not be moved aside "
                        f"({exc.strerror or exc}): not shown",)
        return "", (f"{path.name} was {why}: kept as {bad.name}; your list starts empty",)
    problems: tuple[str, ...] = ()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", errors="replace")
        bad = _free_name(path)
        try:
            atomic_write(bad, lambda tmp: Path(tmp).write_bytes(raw))
            atomic_write_text(path, text)
        except OSError as exc:
            return "", (f"{path.name} has bytes that are not UTF-8 and could not be kept "
                        f"aside ({exc.strerror or exc}): not shown",)
        problems = (f"{path.name} had bytes that are not UTF-8: the original is kept as "
                    f"{bad}",)
    return text, problems


def load_user_positions() -> list[tuple[str, str]]:
    """``(name, fen)`` pairs of the user's own list (see
    :func:`load_user_positions_checked`)."""
    return load_user_positions_checked()[0]
def add_user_position(name: str, fen: str) -> Path:
    """Append a position to the user's list: read, append and rewrite (atomically)
    holding the list's lock, so positions added by several windows at once are all
    kept.  Raises ``OSError`` (also :class:`logic.files.LockTimeout` when another
    process holds the lock too long) or ``ValueError`` (a file that is not UTF-8 is left
    as it is)."""
    import chess

    board = chess.Board(fen)
    safe = name.replace('"', "'").replace(";", ",")
    path = user_positions_path()
    with locked(path):
        try:
            old = path.read_bytes().decode("utf-8")  # not UTF-8: an error, never overwritten
        except FileNotFoundError:
            old = "# pawnfence: my positions\n"
        if old and not old.endswith("\n"):
            old += "\n"
        atomic_write_text(path, old + board.epd(id=safe) + "\n")
    return path
