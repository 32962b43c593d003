"""Writing files atomically: a temporary file in the same folder, flushed to the disk
(``fsync``) and optionally verified, then ``os.replace``, so a crash or a full disk
never leaves a half-written file behind and never replaces a good file with one."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["atomic_write", "atomic_write_text", "make_folder", "locked", "LockTimeout",
           "remove_stale_temps", "safe_name", "escaped", "disk_full", "LOCK_WAIT"]


def _read_umask() -> int:
    """The process's umask (reading it means setting it: done once, at import, before any
    writer thread exists; a swap per write raced with a GIF written in the background)."""
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _read_umask()


def make_folder(path: str | Path) -> Path:
    """Create folder ``path`` with its parents if missing; raises ``NotADirectoryError``
    naming the file when ``path`` or one of its parents is a file (``mkdir`` says only
    "File exists" then), or another ``OSError``."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()),
                        path)
        raise NotADirectoryError(errno.ENOTDIR, f"{blocking} is a file, not a folder",
                                 str(path)) from None
    return path


def atomic_write(path: str | Path, write: Callable[[str], None], *,
                 verify: Callable[[str], None] | None = None) -> Path:
    """Create ``path`` by calling ``write(temporary_path)``, flushing the temporary file
    to the disk (``fsync``: a full disk or an I/O error shows here, not after the
    rename), calling ``verify(temporary_path)`` if given (it raises to refuse the file),
    then renaming over ``path``.  The file gets ordinary permissions (``mkstemp`` makes
    0600).  Raises ``OSError`` (or what ``write``/``verify`` raise) on failure, and then
    ``path`` is untouched and no temporary file is left."""
    path = Path(path)
    make_folder(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{safe_name(path.name)}.", suffix=safe_name(path.suffix),
                               dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        _fsync(tmp)
        if verify is not None:
            verify(tmp)
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename itself, where the platform allows
        _fsync(path.parent, directory=True)
    return path


def _fsync(path: str | Path, *, directory: bool = False) -> None:
    """Flush ``path``'s data to the disk; raises ``OSError`` (e.g. ENOSPC, EIO)."""
    fd = os.open(path, os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())

    return atomic_write(path, write)


def safe_name(name: str) -> str:
    """``name`` with every character outside printable ASCII as ``_``: the temporary
    names of :func:`atomic_write` are then openable by every writer (an image library
    given a file name that is not UTF-8, held as surrogate escapes, cannot open it)."""
    return "".join(c if " " <= c <= "~" else "_" for c in name)


def escaped(text: str) -> str:
    """``text`` with the bytes of a file name that are not UTF-8 (held by Python as
    surrogate escapes, ``"\\udcff"``) written as backslash escapes (``\\xff``): text
    that can be written as UTF-8 and still names the file.  Text that is UTF-8 already
    is returned as it is; other lone surrogates become ``\\udXXX`` escapes."""
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that is no escaped byte
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def disk_full(folder: str | Path) -> bool:
    """Whether the file system of ``folder`` has no space left for this user (False when
    that cannot be told): a write that came out short is blamed on a full disk only
    then."""
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):
        return False
    return st.f_bavail == 0


class LockTimeout(OSError):
    """Another process held a lock for longer than the wait allowed."""


#: seconds :func:`locked` waits for another process's lock before giving up
LOCK_WAIT = 10.0


@contextlib.contextmanager
def locked(path: str | Path, *, wait: float = LOCK_WAIT, poll: float = 0.01,
           clock: Callable[[], float] = time.monotonic) -> Iterator[Path]:
    """Hold an exclusive lock on ``path`` (a file beside it, ``.NAME.lock``, created if
    missing and never removed) for the ``with`` block: a read-modify-write of ``path`` by
    several processes then loses no change.  Waits at most ``wait`` seconds (by
    ``clock``) for another holder, then raises :class:`LockTimeout`; raises ``OSError``
    when the lock file cannot be created (a read-only folder).  The lock is released by
    the operating system when its holder dies.  Where ``fcntl`` is missing (Windows)
    the block runs unlocked."""
    path = Path(path)
    make_folder(path.parent)
    lock = path.with_name(f".{path.name}.lock")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield lock
        return
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666 & ~_UMASK)
    try:
        deadline = clock() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if clock() >= deadline:
                    raise LockTimeout(errno.EWOULDBLOCK, f"{path} is locked by another "
                                      f"process (waited {wait:g} s)", str(lock)) from None
                time.sleep(poll)
        yield lock
    finally:
        os.close(fd)  # releases the lock


def remove_stale_temps(path: str | Path) -> list[Path]:
    """Remove the temporary files :func:`atomic_write` leaves when killed while writing
    ``path`` (``.NAME.*`` beside it, not the lock); returns those removed.  Call it
    holding :func:`locked` on ``path``, so that no writer's temporary file is taken from
    under it."""
    path = Path(path)
    prefix = f".{safe_name(path.name)}."
    removed = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    for name in names:
        if not name.startswith(prefix) or name == f".{path.name}.lock":
            continue
        stale = path.parent / name
        with contextlib.suppress(OSError):
            if stale.is_file() and not stale.is_symlink():
                stale.unlink()
                removed.append(stale)
    return removed
