"""Writing files atomically: a temporary file in the same folder, flushed to the disk
(``fsync``) and optionally verified, then ``os.replace``, so a crash or a full disk
never leaves a half-written file behind and never replaces a good file with one."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["atomic_write", "atomic_write_text", "make_folder"]


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
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent)
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
