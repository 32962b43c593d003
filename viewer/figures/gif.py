"""The GIF back end: a trace's figures (one per step, laid out to share a banner, a legend
and an explanation height: :func:`viewer.figures.figure.trace_layouts`) drawn by the
pygame back end and encoded as one looping animation with Pillow.  The pygame part
(:func:`gif_pixels`) runs on the main thread; the slow part, Pillow's quantizing
(:func:`write_gif`), works on plain data and is safe in a worker thread."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pygame

from viewer.figures.output import ExportError, write_verified

__all__ = ["Pixels", "gif_pixels", "write_gif", "save_gif", "GIF_MAX"]

#: the largest board of a GIF's frames (a trace of 60 frames at 2400 px would take
#: gigabytes to encode)
GIF_MAX = 1200


class Pixels(NamedTuple):
    """One frame's RGB bytes, its size and the colour its padding gets (plain data: a
    worker thread encodes it without touching pygame)."""

    size: tuple[int, int]
    rgb: bytes
    pad: tuple[int, int, int]


def gif_pixels(frames: list[pygame.Surface]) -> list[Pixels]:
    """The frames as :class:`Pixels` (pygame's part of a GIF export: the main thread's)."""
    out = []
    for f in frames:
        corner = f.get_at((0, 0))
        out.append(Pixels(size=f.get_size(), rgb=pygame.image.tobytes(f, "RGB"),
                          pad=(corner.r, corner.g, corner.b)))
    return out


def _distinct(frames: list[Pixels], durations: list[int]) -> tuple[list[Pixels], list[int]]:
    """The frames with each run of identical ones as one frame shown for their summed
    time (what the GIF holds: Pillow writes such a run as one frame, so a board-only
    trace is one frame, and the file is verified for that many)."""
    kept: list[Pixels] = []
    times: list[int] = []
    for f, ms in zip(frames, durations, strict=True):
        if kept and f == kept[-1]:
            times[-1] += ms
        else:
            kept.append(f)
            times.append(ms)
    return kept, times


def write_gif(frames: list[Pixels], path: str | Path, *, duration_ms: int = 600,
              last_ms: int = 2500) -> Path:
    """Encode ``frames`` as a looping animated GIF at ``path`` (atomically; padded to the
    tallest; the slow part, Pillow's quantizing, safe in a worker thread)."""
    from PIL import Image

    if not frames:
        raise ExportError(f"cannot write {path}: no frames")
    h = max(f.size[1] for f in frames)
    w = max(f.size[0] for f in frames)
    frames, durations = _distinct(frames, [max(20, int(duration_ms))] * (len(frames) - 1)
                                  + [last_ms])
    images = []
    for f in frames:
        im = Image.new("RGB", (w, h), f.pad)
        im.paste(Image.frombytes("RGB", f.size, f.rgb))
        images.append(im.quantize(colors=128, method=Image.Quantize.MEDIANCUT))
    path = Path(path)
    return write_verified(path, lambda tmp: images[0].save(
        tmp, format="GIF", save_all=True, append_images=images[1:], duration=durations,
        loop=0, optimize=False), "GIF", len(images))


def save_gif(frames: list[pygame.Surface], path: str | Path, *, duration_ms: int = 600,
             last_ms: int = 2500) -> Path:
    """Save ``frames`` as a looping animated GIF at ``path`` (atomically, via Pillow);
    frames of different heights are padded at the bottom to the tallest."""
    return write_gif(gif_pixels(frames), path, duration_ms=duration_ms, last_ms=last_ms)
