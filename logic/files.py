"""Writing files atomically: a temporary file in the same folder, then ``os.replace``,
so a crash or a full disk never leaves a half-written file behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["atomic_write", "atomic_write_text"]


def atomic_write(path: str | Path, write: Callable[[str], None]) -> Path:
    """Create ``path`` by calling ``write(temporary_path)`` then renaming; the file gets
    ordinary permissions (``mkstemp`` makes 0600).  Raises ``OSError`` on failure."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)

    return atomic_write(path, write)
