"""Exports: the current frame as PNG, a whole trace as an animated GIF (Pillow),
and the window-less ``pawnfence render``.  Files are written atomically and cannot
lie: a temporary file in the same folder, flushed to the disk, re-opened and decoded
(:func:`verify_image`), and only then renamed over the target; a full disk or any
``OSError`` is an :class:`ExportError` and the old file stays."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import chess
import pygame

import logic
from logic.files import atomic_write
from logic.verdict import Verdict
from viewer.overlay import Overlay, live_overlay, step_overlay
from viewer.render import Painter
from viewer.text import banner_text

__all__ = ["compose_frame", "save_png", "save_gif", "render_to_file", "trace_frames",
           "ExportError", "banner_text"]


class ExportError(OSError):
    """An export that could not be written; the message names the file."""


def compose_frame(
    painter: Painter,
    board: chess.Board,
    verdict: Verdict | None,
    overlay: Overlay,
    *,
    size: int = 640,
    flipped: bool = False,
    caption: str = "",
    explanation: str = "",
) -> pygame.Surface:
    """A stand-alone picture: banner, board with overlay, explanation line, legend."""
    banner_h, legend_h, text_h = max(56, size // 10), max(130, size // 5), max(24, size // 18)
    surf = pygame.Surface((size, size + banner_h + legend_h + text_h))
    surf.fill(painter.colours["background"])
    head, sub, kind = banner_text(verdict, caption)
    painter.render_banner(surf, pygame.Rect(4, 4, size - 8, banner_h - 8), head, sub, kind)
    painter.render_board(surf, pygame.Rect(0, banner_h, size, size), board, overlay=overlay,
                         flipped=flipped)
    if explanation:
        line = painter.fit(explanation, max(12, text_h * 3 // 4), size - 16)
        surf.blit(line, (8, banner_h + size + 2))
    painter.render_legend(surf, pygame.Rect(8, banner_h + size + text_h, size - 16, legend_h - 4))
    return surf


def _atomic_write(path: Path, write, kind: str, frames: int = 1) -> None:
    """:func:`logic.files.atomic_write` with the written image verified (not empty,
    re-opened and decoded in full by Pillow) before it replaces ``path``; failures as
    :class:`ExportError` naming the file (``path`` then keeps its old content)."""
    try:
        atomic_write(path, write, verify=lambda tmp: verify_image(tmp, kind, frames))
    except (OSError, pygame.error, ValueError) as exc:
        raise ExportError(f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}") from None


def verify_image(path: str | Path, kind: str, frames: int = 1) -> None:
    """Raise ``OSError`` unless ``path`` is a complete ``kind`` ("PNG", "GIF") image with
    ``frames`` frames: a short write (a full disk, where ``pygame.image.save`` does not
    raise) leaves a file that is empty or does not decode."""
    from PIL import Image

    if os.path.getsize(path) == 0:
        raise OSError(errno.ENOSPC, "nothing was written (is the disk full?)")
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
        raise OSError(errno.EIO, f"the written file is incomplete ({exc}); "
                      "is the disk full?") from None
    except (ValueError, SyntaxError, EOFError) as exc:
        raise OSError(errno.EIO, f"the written file is incomplete ({exc}); "
                      "is the disk full?") from None


def save_png(surface: pygame.Surface, path: str | Path) -> Path:
    """Save ``surface`` as a PNG at ``path`` (atomically); returns the path."""
    path = Path(path)
    _atomic_write(path, lambda tmp: pygame.image.save(surface, tmp, "png"), "PNG")
    return path


def save_gif(frames: list[pygame.Surface], path: str | Path, *, duration_ms: int = 600,
             last_ms: int = 2500) -> Path:
    """Save ``frames`` as a looping animated GIF at ``path`` (atomically, via Pillow)."""
    from PIL import Image

    if not frames:
        raise ExportError(f"cannot write {path}: no frames")
    images = [Image.frombytes("RGB", f.get_size(), pygame.image.tobytes(f, "RGB"))
              .quantize(colors=128, method=Image.Quantize.MEDIANCUT) for f in frames]
    durations = [duration_ms] * (len(images) - 1) + [last_ms]
    path = Path(path)
    _atomic_write(path, lambda tmp: images[0].save(
        tmp, format="GIF", save_all=True, append_images=images[1:], duration=durations,
        loop=0, optimize=False), "GIF", len(images))
    return path


def trace_frames(painter: Painter, board: chess.Board, verdict: Verdict, *, size: int = 480,
                 flipped: bool = False, caption: str = "") -> Iterator[pygame.Surface]:
    """One picture per step of ``verdict.steps``, then the live verdict."""
    n = len(verdict.steps)
    for k, step in enumerate(verdict.steps):
        yield compose_frame(painter, board, verdict, step_overlay(verdict, k), size=size,
                            flipped=flipped, caption=f"step {k + 1} of {n} · {step.phase}",
                            explanation=f"[{step.section}] {step.text}")
    yield compose_frame(painter, board, verdict, live_overlay(verdict), size=size,
                        flipped=flipped, caption=caption, explanation=verdict.reason)


def render_to_file(board: chess.Board, out: str | Path, *, side: chess.Color = chess.WHITE,
                   method: str = "paper", size: int = 640, flipped: bool = False,
                   caption: str = "") -> Path:
    """Render ``board`` (PNG: the final verdict; GIF: every step) without a window."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".gif"):
        raise ExportError(f"cannot write {out}: the file name must end in .png or .gif")
    pygame.font.init()  # no display and no audio needed
    painter = Painter()
    verdict = logic.detect(board, side, method=method, trace=True)
    if suffix == ".png":
        surf = compose_frame(painter, board, verdict, live_overlay(verdict), size=size,
                             flipped=flipped, caption=caption, explanation=verdict.reason)
        return save_png(surf, out)
    frames = list(trace_frames(painter, board, verdict, size=min(size, 560), flipped=flipped,
                               caption=caption))
    return save_gif(frames, out)
