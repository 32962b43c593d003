"""Writing a figure's file so that it cannot lie: a temporary file in the same folder,
flushed to the disk, re-opened and decoded (:func:`verify_image`), and only then renamed
over the target (:func:`write_verified`); a full disk or any ``OSError`` is an
:class:`ExportError` naming the file, and the old file stays."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from logic.files import atomic_write, disk_full

__all__ = ["ExportError", "verify_image", "write_verified", "write_text"]


class ExportError(OSError):
    """An export that could not be written; the message names the file."""


def write_verified(path: Path, write: Callable[[str], object], kind: str,
                   frames: int = 1) -> Path:
    """:func:`logic.files.atomic_write` with the written image verified (not empty,
    re-opened and decoded in full) before it replaces ``path``; failures as
    :class:`ExportError` naming the file (``path`` then keeps its old content)."""
    def written(tmp: str) -> None:
        write(tmp)

    try:
        atomic_write(path, written, verify=lambda tmp: verify_image(tmp, kind, frames))
    except (OSError, ValueError, RuntimeError) as exc:  # RuntimeError: pygame.error
        raise ExportError(f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return path


def write_text(path: Path, text: str, kind: str) -> Path:
    """Write the document ``text`` (UTF-8) at ``path`` as :func:`write_verified` does."""
    return write_verified(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"), kind)


def _incomplete(exc: BaseException) -> OSError:
    return OSError(errno.EIO, f"the written file is incomplete ({exc}); is the disk full?")


def verify_image(path: str | Path, kind: str, frames: int = 1) -> None:
    """Raise ``OSError`` unless ``path`` is a complete ``kind`` ("PNG", "GIF", "SVG"; a
    text format: not empty) file with ``frames`` frames: a short write (a full disk,
    where ``pygame.image.save`` does not raise) leaves a file that is empty or does not
    decode."""
    from PIL import Image

    if os.path.getsize(path) == 0:
        if disk_full(os.path.dirname(path) or "."):
            raise OSError(errno.ENOSPC, "nothing was written: the disk is full")
        raise OSError(errno.EIO, f"the {kind} writer wrote nothing")
    if kind == "SVG":
        import xml.etree.ElementTree as ET

        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as exc:
            raise _incomplete(exc) from None
        if not root.tag.endswith("svg"):
            raise OSError(errno.EIO, "wrote no SVG document")
        return
    if kind not in ("PNG", "GIF"):
        return
    try:
        with Image.open(path) as im:
            if im.format != kind:
                raise OSError(errno.EIO, f"wrote {im.format}, not {kind}")
            for i in range(frames):
                im.seek(i)
                im.load()
    except OSError as exc:
        if exc.errno is not None:
            raise
        raise _incomplete(exc) from None
    except (ValueError, SyntaxError, EOFError) as exc:
        raise _incomplete(exc) from None
