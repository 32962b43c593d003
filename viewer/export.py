"""Exports: a frame as PNG or SVG, a whole trace as an animated GIF (Pillow), from the
window (:class:`Exporter`) and without one (``pawnfence render``: :func:`render_to_file`).

What a picture holds is the user's choice (:class:`~viewer.state.ExportOptions`): the
board's size in pixels, and whether it shows the overlays, the banner, the legend and
the explanation.  Text and legend scale with the size and wrap: the picture is as tall
as its text needs, nothing is cut.  A GIF's frame time follows the speed setting.

Files are written atomically and cannot lie: a temporary file in the same folder,
flushed to the disk, re-opened and decoded (:func:`verify_image`), and only then renamed
over the target; a full disk or any ``OSError`` is an :class:`ExportError` and the old
file stays.
"""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

import logic
from logic.files import atomic_write
from logic.verdict import Verdict
from viewer.overlay import EMPTY, Overlay, legend_drawn, live_overlay, step_overlay
from viewer.render import Painter, banner_roles
from viewer.state import DEFAULT_OPTIONS, ExportOptions
from viewer.text import Banner, banner_text, frame_banner, frame_explanation
from viewer.theme import Block, LegendItem, Role, legend_items

if TYPE_CHECKING:
    from viewer.state import ViewerState

__all__ = ["compose_frame", "save_png", "save_gif", "render_to_file", "trace_frames",
           "ExportError", "banner_text", "Frame", "Exporter", "frame_of", "KINDS",
           "verify_image", "frame_px", "gif_pixels", "write_gif", "gif_frames", "Pixels",
           "GIF_MAX", "banner_height"]

#: the export kinds and their file suffixes
KINDS = {"png": ".png", "gif": ".gif", "svg": ".svg"}


class ExportError(OSError):
    """An export that could not be written; the message names the file."""


@dataclass(frozen=True)
class Frame:
    """What one picture shows: the board, the verdict of the side under test and the
    other side's, the step on show (None: the live verdict), a caption, the KPK answer
    and the orientation."""

    board: chess.Board
    verdict: Verdict | None
    other: Verdict | None = None
    index: int | None = None
    caption: str = ""
    kpk: dict[str, Any] | None = None
    flipped: bool = False

    def overlay(self) -> Overlay:
        """The overlay of this frame."""
        v = self.verdict
        if v is None:
            return EMPTY
        return step_overlay(v, self.index) if self.index is not None and v.steps \
            else live_overlay(v)

    def legend(self, drawn: Overlay | None = None) -> tuple[LegendItem, ...]:
        """The legend of this frame: the lines of its method's items (and the KPK items
        on a KPK position) for what the overlay ``drawn`` draws (by default this frame's
        own; :data:`~viewer.overlay.EMPTY` for a board without one: no line)."""
        return legend_drawn(self.legend_lines(), self.overlay() if drawn is None else drawn)

    def banner(self) -> Banner:
        """The banner of this frame (the step on show, or the verdicts)."""
        return frame_banner(self.verdict, self.other, self.index, self.caption, self.kpk)

    def explanation(self) -> str:
        """The words under the board of this frame."""
        return frame_explanation(self.verdict, self.index, self.caption)

    def legend_lines(self) -> tuple[LegendItem, ...]:
        """Every line the legend of this frame's method may have, in order."""
        v = self.verdict
        method = v.method if v is not None else logic.DEFAULT_METHOD
        code = v.code if v is not None and v.status == "ok" else \
            ("none" if v is not None else None)
        return legend_items(method, kpk=bool(self.kpk), code=code)


def frame_of(state: ViewerState) -> Frame:
    """The frame the window shows now."""
    return Frame(state.editor.board.copy(stack=False), state.verdict, state.other,
                 state.timeline.index, state.shown_caption(), state.kpk, state.flipped)


def frame_px(size: int) -> int:
    """The body text size of a picture whose board is ``size`` pixels."""
    return max(11, round(size / 40))


def banner_height(painter: Painter, b: Banner, options: ExportOptions) -> int:
    """The height banner ``b`` takes in a picture made with ``options``."""
    size, px = options.size, frame_px(options.size)
    width = size - 2 * max(4, size // 80)
    icon = max(9, min(px * 3 // 2, 60))
    fitted = painter.fit_text(b.blocks, width - 38 - 2 * icon, 100_000, banner_roles(px))
    return max(fitted.height + 8, 2 * icon + 12)


def compose_frame(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS,
                  *, overlay: Overlay | None = None, banner_at_least: int = 0,
                  legend: tuple[LegendItem, ...] | None = None,
                  explanation_at_least: int = 0) -> pygame.Surface:
    """A stand-alone picture of ``frame``: the banner, the board (with its overlay), the
    explanation and the legend, each as ``options`` says; text and legend scale with
    ``options.size`` and wrap, and the picture is as tall as they need.  The banner is at
    least ``banner_at_least`` pixels tall (a GIF's frames share their tallest, so the board
    stays in place); ``legend`` replaces the frame's own lines and the explanation takes
    at least ``explanation_at_least`` pixels (a GIF's frames share both, so the legend
    stays in place too)."""
    size, px = options.size, frame_px(options.size)
    pad = max(4, size // 80)
    width = size - 2 * pad
    parts: list[tuple[str, int, Any]] = []
    if options.banner:
        b = frame.banner()
        parts.append(("banner", max(banner_at_least, banner_height(painter, b, options)), b))
    ov = (overlay if overlay is not None else frame.overlay()) if options.overlays else EMPTY
    parts.append(("board", size, None))
    if options.explanation:
        parts.append(("explanation", max(explanation_at_least,
                                         explanation_height(painter, frame, options)) + pad,
                      frame.explanation()))
    items = (frame.legend(ov) if legend is None else legend) if options.legend else ()
    if items:
        plan = painter.legend_plan((width, 100_000), items, px, False)
        parts.append(("legend", plan[3] + pad, items))
    surf = pygame.Surface((size, sum(h for _n, h, _x in parts) + pad * (len(parts) + 1)))
    surf.fill(painter.colours["background"])
    y = pad
    for name, h, extra in parts:
        rect = pygame.Rect(pad, y, width, h)
        if name == "banner":
            painter.render_banner(surf, rect, extra.kind, extra.blocks, px)
        elif name == "board":
            painter.render_board(surf, pygame.Rect(0, y, size, size), frame.board,
                                 overlay=ov,
                                 flipped=frame.flipped)
        elif name == "explanation":
            painter.render_text(surf, rect, [Block(extra, "sub")], {"sub": Role(px)})
        else:
            painter.render_legend(surf, rect, extra, px)
        y += h + pad
    return surf


def _atomic_write(path: Path, write: Any, kind: str, frames: int = 1) -> None:
    """:func:`logic.files.atomic_write` with the written image verified (not empty,
    re-opened and decoded in full) before it replaces ``path``; failures as
    :class:`ExportError` naming the file (``path`` then keeps its old content)."""
    try:
        atomic_write(path, write, verify=lambda tmp: verify_image(tmp, kind, frames))
    except (OSError, pygame.error, ValueError) as exc:
        raise ExportError(f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}") from None


def verify_image(path: str | Path, kind: str, frames: int = 1) -> None:
    """Raise ``OSError`` unless ``path`` is a complete ``kind`` ("PNG", "GIF", "SVG")
    image with ``frames`` frames: a short write (a full disk, where ``pygame.image.save``
    does not raise) leaves a file that is empty or does not decode."""
    from PIL import Image

    if os.path.getsize(path) == 0:
        raise OSError(errno.ENOSPC, "nothing was written (is the disk full?)")
    if kind == "SVG":
        import xml.etree.ElementTree as ET

        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as exc:
            raise OSError(errno.EIO, f"the written file is incomplete ({exc}); "
                          "is the disk full?") from None
        if not root.tag.endswith("svg"):
            raise OSError(errno.EIO, "wrote no SVG document")
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


def save_svg(text: str, path: str | Path) -> Path:
    """Save the SVG document ``text`` at ``path`` (atomically); returns the path."""
    path = Path(path)
    _atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"), "SVG")
    return path


def save_gif(frames: list[pygame.Surface], path: str | Path, *, duration_ms: int = 600,
             last_ms: int = 2500) -> Path:
    """Save ``frames`` as a looping animated GIF at ``path`` (atomically, via Pillow);
    frames of different heights are padded at the bottom to the tallest."""
    return write_gif(gif_pixels(frames), path, duration_ms=duration_ms, last_ms=last_ms)


class Pixels(NamedTuple):
    """One frame's RGB bytes, its size and the colour its padding gets (plain data: a
    worker thread encodes it without touching pygame)."""

    size: tuple[int, int]
    rgb: bytes
    pad: tuple[int, int, int]


def gif_pixels(frames: list[pygame.Surface]) -> list[Pixels]:
    """The frames as :class:`Pixels` (pygame's part of a GIF export: the main thread's)."""
    return [Pixels(f.get_size(), pygame.image.tobytes(f, "RGB"), tuple(f.get_at((0, 0)))[:3])
            for f in frames]


def write_gif(frames: list[Pixels], path: str | Path, *, duration_ms: int = 600,
              last_ms: int = 2500) -> Path:
    """Encode ``frames`` as a looping animated GIF at ``path`` (atomically; padded to the
    tallest; the slow part, Pillow's quantizing, safe in a worker thread)."""
    from PIL import Image

    if not frames:
        raise ExportError(f"cannot write {path}: no frames")
    h = max(f.size[1] for f in frames)
    w = max(f.size[0] for f in frames)
    images = []
    for f in frames:
        im = Image.new("RGB", (w, h), f.pad)
        im.paste(Image.frombytes("RGB", f.size, f.rgb))
        images.append(im.quantize(colors=128, method=Image.Quantize.MEDIANCUT))
    durations = [max(20, int(duration_ms))] * (len(images) - 1) + [last_ms]
    path = Path(path)
    _atomic_write(path, lambda tmp: images[0].save(
        tmp, format="GIF", save_all=True, append_images=images[1:], duration=durations,
        loop=0, optimize=False), "GIF", len(images))
    return path


def trace_frames(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS
                 ) -> Iterator[pygame.Surface]:
    """One picture per step of the frame's verdict, then the live verdict; every banner as
    tall as the tallest, so the board does not jump from frame to frame, and one legend
    for all under explanations padded to the longest: the lines of anything some frame
    draws, in the method's order (a legend that changed with every frame jumped under the
    board)."""
    v = frame.verdict
    frames = [_with_index(frame, k) for k in range(len(v.steps) if v is not None else 0)]
    frames.append(_with_index(frame, None))
    tallest = (max(banner_height(painter, f.banner(), options) for f in frames)
               if options.banner else 0)
    overlays = [f.overlay() if options.overlays else EMPTY for f in frames]
    drawn = {item for f, ov in zip(frames, overlays, strict=True) for item in f.legend(ov)}
    legend = tuple(i for i in frame.legend_lines() if i in drawn)
    longest = max(explanation_height(painter, f, options) for f in frames) \
        if options.explanation else 0
    for f, ov in zip(frames, overlays, strict=True):
        yield compose_frame(painter, f, options, overlay=ov, banner_at_least=tallest,
                            legend=legend, explanation_at_least=longest)


def explanation_height(painter: Painter, frame: Frame, options: ExportOptions) -> int:
    """The height of ``frame``'s explanation in a picture made with ``options``."""
    size, px = options.size, frame_px(options.size)
    return painter.fit_text([Block(frame.explanation(), "sub")], size - 2 * max(4, size // 80),
                            100_000, {"sub": Role(px)}).height


def _with_index(frame: Frame, index: int | None) -> Frame:
    return Frame(frame.board, frame.verdict, frame.other, index, frame.caption, frame.kpk,
                 frame.flipped)


def write(painter: Painter, kind: str, frame: Frame, options: ExportOptions, path: Path,
          *, speed: float = 3.0) -> tuple[Path, int]:
    """Write ``frame`` as ``kind`` (png, gif: every step at ``speed`` steps per second,
    svg) to ``path``; returns the path and the number of frames."""
    if kind == "png":
        return save_png(compose_frame(painter, frame, options), path), 1
    if kind == "svg":
        from viewer.svg import frame_svg

        return save_svg(frame_svg(painter, frame, options), path), 1
    frames = gif_frames(painter, frame, options, path)
    return save_gif(frames, path, duration_ms=round(1000 / max(0.1, speed))), len(frames)


#: the largest board of a GIF's frames (a trace of 60 frames at 2400 px would take
#: gigabytes to encode)
GIF_MAX = 1200


def gif_frames(painter: Painter, frame: Frame, options: ExportOptions, path: Path
               ) -> list[pygame.Surface]:
    """The pictures of a GIF of ``frame``'s trace (boards of at most :data:`GIF_MAX`
    pixels); raises :class:`ExportError` when there are no steps."""
    if frame.verdict is None or not frame.verdict.steps:
        raise ExportError(f"cannot write {path}: no steps to export")
    options = replace(options, size=min(options.size, GIF_MAX))
    return list(trace_frames(painter, frame, options))


class Exporter:
    """The window's exports: file names in ``folder`` and the writing (messages on the
    state's message line).  A GIF from the window is composed at once and encoded in a
    worker thread (:meth:`export` with ``background``: Pillow's quantizing took seconds
    in which the window froze); :meth:`poll` reports it, ``notify`` (if set) is called
    from the worker when it is done, :meth:`close` waits for it."""

    def __init__(self, painter: Painter, state: ViewerState, folder: Path) -> None:
        self.painter, self.state, self.folder = painter, state, folder
        self.notify: Callable[[], None] | None = None
        self._writer: threading.Thread | None = None
        self._said: list[str] = []  # the worker's message, once it is done

    @property
    def busy(self) -> bool:
        """Whether a GIF is being encoded in the background."""
        return self._writer is not None

    def poll(self) -> bool:
        """Put a finished background export's message on the message line; True then."""
        if self._writer is None or self._writer.is_alive():
            return False
        self._writer.join()
        self._writer = None
        self.state.say(self._said.pop() if self._said else "The GIF was not saved")
        return True

    def close(self, timeout: float = 120.0) -> str | None:
        """Wait for a background export to be written (the window closes); a message if it
        is still not done after ``timeout`` seconds (the file is then not written)."""
        if self._writer is None:
            return None
        self._writer.join(timeout)
        if self._writer.is_alive():
            return f"the GIF being saved was not finished after {timeout:g} s: not written"
        return None

    def _background_gif(self, path: Path) -> None:
        s = self.state
        if self.busy:
            s.say("A GIF is still being saved: wait for it")
            return
        try:
            frames = gif_frames(self.painter, frame_of(s), s.export, path)
        except ExportError as exc:
            s.say(str(exc))
            return
        pixels = gif_pixels(frames)
        ms = round(1000 / max(0.1, s.timeline.speed))

        def work() -> None:
            try:
                done = write_gif(pixels, path, duration_ms=ms)
                self._said.append(f"Saved {done} ({len(pixels)} frames)")
            except ExportError as exc:
                self._said.append(str(exc))
            except Exception as exc:  # noqa: BLE001 - said on the message line, never lost
                self._said.append(f"The GIF was not saved: {type(exc).__name__}: {exc}")
            if self.notify is not None:
                self.notify()

        self._writer = threading.Thread(target=work, name="pawnfence-gif", daemon=True)
        self._writer.start()
        s.say(f"Saving the GIF ({len(pixels)} frames) …", 60.0)

    def default_path(self, kind: str) -> Path:
        """A file name in :attr:`folder` not taken yet."""
        s = self.state
        base = s.current_diagram.id if s.current_diagram else "position"
        n = 1
        while True:
            p = self.folder / f"pawnfence-{base}-{s.side}-{s.method}-{n}{KINDS[kind]}"
            if not p.exists():
                return p
            n += 1

    def export(self, kind: str, path: str | Path | None = None, *,
               background: bool = False) -> Path | None:
        """Write what the window shows as ``kind`` to ``path`` (default:
        :meth:`default_path`; a missing suffix is added); None after an error, or while
        a background proof has no verdict yet.  With ``background`` a GIF is encoded in
        a worker thread and None returned (:meth:`poll` says how it went)."""
        s = self.state
        if s.verdict is None and s.proving() is not None:
            s.say("The prover is still working: export when its verdict is in (Esc cancels)")
            return None
        path = Path(path) if path else self.default_path(kind)
        if path.suffix.lower() != KINDS[kind]:
            path = path.with_name(path.name + KINDS[kind])
        if background and kind == "gif":
            self._background_gif(path)
            return None
        try:
            done, n = write(self.painter, kind, frame_of(s), s.export, path,
                            speed=s.timeline.speed)
        except ExportError as exc:
            s.say(str(exc))
            return None
        s.say(f"Saved {done}" + (f" ({n} frames)" if n > 1 else ""))
        return done


def render_to_file(board: chess.Board, out: str | Path, *, side: chess.Color = chess.WHITE,
                   method: str = logic.DEFAULT_METHOD, size: int = 640, flipped: bool = False,
                   caption: str = "", options: ExportOptions | None = None,
                   speed: float = 1.5, seconds: float | None = None) -> Path:
    """Render ``board`` without a window: PNG or SVG the final verdict, GIF every step
    (``speed`` steps per second); ``options`` say what to include (``size`` wins);
    ``seconds``: the exact prover's budget per side (its default when None)."""
    out = Path(out)
    kind = out.suffix.lower().lstrip(".")
    if kind not in KINDS:
        raise ExportError(f"cannot write {out}: the file name must end in .png, .gif or .svg")
    pygame.font.init()  # no display and no audio needed
    painter = Painter()
    verdict = logic.detect(board, side, method=method, trace=True, seconds=seconds)
    other = logic.detect(board, not side, method=method, seconds=seconds)
    from logic import kpk_rules

    frame = Frame(board, verdict, other, None, caption, kpk_rules.summary(board), flipped)
    base = options or ExportOptions()
    size = min(size, GIF_MAX) if kind == "gif" else size  # a GIF of many frames stays small
    options = ExportOptions(size, base.overlays, base.banner, base.legend, base.explanation)
    return write(painter, kind, frame, options, out, speed=speed)[0]
