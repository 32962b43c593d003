"""Exports: a frame as PNG or SVG, a whole trace as an animated GIF (Pillow), from the
window (:class:`Exporter`) and without one (``pawnfence render``: :func:`render_to_file`).

What a picture holds is the user's choice (:class:`~viewer.model.state.ExportOptions`): the
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
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

import logic
from logic.files import atomic_write, disk_full
from viewer.figures.frame import Frame, frame_of
from viewer.figures.render import Painter, banner_height, banner_roles, frame_px
from viewer.figures.svg import frame_svg
from viewer.model.jobs import Job, Ticket
from viewer.model.overlay import EMPTY, Overlay
from viewer.model.state import DEFAULT_OPTIONS, ExportOptions
from viewer.model.text import Banner, banner_text
from viewer.model.theme import THEMES, Block, LegendItem, Role

if TYPE_CHECKING:
    from viewer.model.state import ViewerState

__all__ = ["compose_frame", "save_png", "save_gif", "render_to_file", "trace_frames",
           "ExportError", "banner_text", "Exporter", "KINDS", "verify_image", "gif_pixels",
           "write_gif", "gif_frames", "Pixels", "GIF_MAX", "banner_height", "figure_of",
           "gif_banner_height", "GIF_TEXT"]

#: the export kinds and their file suffixes
KINDS = {"png": ".png", "gif": ".gif", "svg": ".svg"}


class ExportError(OSError):
    """An export that could not be written; the message names the file."""


def compose_frame(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS,
                  *, overlay: Overlay | None = None, banner_fixed: int = 0,
                  legend: tuple[LegendItem, ...] | None = None,
                  explanation_at_least: int = 0) -> pygame.Surface:
    """A stand-alone picture of ``frame``: the banner, the board (with its overlay), the
    explanation and the legend, each as ``options`` says; text and legend scale with
    ``options.size`` and wrap, and the picture is as tall as they need.  A
    ``banner_fixed`` height (a GIF's frames share one, :func:`gif_banner_height`, so the
    board stays in place) makes the banner that tall, its text grown or shrunk to fill
    it (:data:`GIF_TEXT`); ``legend`` replaces the frame's own lines and the explanation
    takes at least ``explanation_at_least`` pixels (a GIF's frames share both, so the
    legend stays in place too)."""
    size, px = options.size, frame_px(options.size)
    pad = max(4, size // 80)
    width = size - 2 * pad
    parts: list[tuple[str, int, Any]] = []
    if options.banner:
        b = frame.banner()
        parts.append(("banner", banner_fixed or banner_height(painter, b, options), b))
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
            if banner_fixed:
                painter.render_banner(surf, rect, extra.kind, extra.blocks, px,
                                      least=GIF_TEXT[0], most=GIF_TEXT[1])
            else:
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
        if disk_full(os.path.dirname(path) or "."):
            raise OSError(errno.ENOSPC, "nothing was written: the disk is full")
        raise OSError(errno.EIO, f"the {kind} writer wrote nothing")
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
    out = []
    for f in frames:
        corner = f.get_at((0, 0))
        out.append(Pixels(size=f.get_size(), rgb=pygame.image.tobytes(f, "RGB"),
                          pad=(corner.r, corner.g, corner.b)))
    return out


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
    """One picture per step of the frame's verdict, then the live verdict; every banner of
    one height (:func:`gif_banner_height`) that its text fills, so the board does not jump
    from frame to frame and no banner ends in an empty band, and one legend for all under
    explanations padded to the longest: the lines of anything some frame draws, in the
    method's order (a legend that changed with every frame jumped under the board)."""
    v = frame.verdict
    frames = [frame.at(k) for k in range(len(v.steps) if v is not None else 0)]
    frames.append(frame.at(None))
    fixed = gif_banner_height(painter, [f.banner() for f in frames], options) \
        if options.banner else 0
    overlays = [f.overlay() if options.overlays else EMPTY for f in frames]
    drawn = {item for f, ov in zip(frames, overlays, strict=True) for item in f.legend(ov)}
    legend = tuple(i for i in frame.legend_lines() if i in drawn)
    longest = max(explanation_height(painter, f, options) for f in frames) \
        if options.explanation else 0
    for f, ov in zip(frames, overlays, strict=True):
        yield compose_frame(painter, f, options, overlay=ov, banner_fixed=fixed,
                            legend=legend, explanation_at_least=longest)


#: the ratios a GIF's banner text is drawn at, of its size in a picture of its own: at
#: least the first (the banner is as tall as the tallest text needs at that ratio) and at
#: most the second (a short text grows into the room, so no banner ends in an empty band)
GIF_TEXT = (0.75, 1.3)


def gif_banner_height(painter: Painter, banners: list[Banner], options: ExportOptions) -> int:
    """The height every banner of a GIF shares: the tallest its text needs at
    ``GIF_TEXT[0]`` of its size (never less than the icon needs)."""
    size, px = options.size, frame_px(options.size)
    width = size - 2 * max(4, size // 80)
    icon = max(9, min(px * 3 // 2, 60))
    least = GIF_TEXT[0]
    need = max(painter.fit_text(b.blocks, width - 38 - 2 * icon, 100_000, banner_roles(px),
                                least=least, most=least).height for b in banners)
    return max(need + 8, 2 * icon + 12)


def explanation_height(painter: Painter, frame: Frame, options: ExportOptions) -> int:
    """The height of ``frame``'s explanation in a picture made with ``options``."""
    size, px = options.size, frame_px(options.size)
    return painter.fit_text([Block(frame.explanation(), "sub")], size - 2 * max(4, size // 80),
                            100_000, {"sub": Role(px)}).height


_THEMED: dict[str, Painter] = {}


def themed(painter: Painter, theme: str) -> Painter:
    """``painter`` when it draws in ``theme``'s colours, else a painter that does (one per
    theme, kept: fonts and tiles are made once)."""
    colours = THEMES.get(theme, THEMES["light"])
    if painter.colours == {**painter.colours, **colours}:
        return painter
    if theme not in _THEMED:
        _THEMED[theme] = Painter(colours)
    return _THEMED[theme]


def figure_of(frame: Frame, options: ExportOptions) -> Frame:
    """What a figure of ``frame`` shows: its texts without the run's counts and time
    unless ``options.stats`` (the same command then writes the same bytes)."""
    return frame if options.stats else frame.without_stats()


def write(painter: Painter, kind: str, frame: Frame, options: ExportOptions, path: Path,
          *, speed: float = 3.0) -> tuple[Path, int]:
    """Write ``frame`` as ``kind`` (png, gif: every step at ``speed`` steps per second,
    svg) to ``path`` in ``options.theme``'s colours (:func:`figure_of`: without the run's
    statistics unless asked); returns the path and the number of frames."""
    painter = themed(painter, options.theme)
    frame = figure_of(frame, options)
    if kind == "png":
        return save_png(compose_frame(painter, frame, options), path), 1
    if kind == "svg":
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


class _Gif(NamedTuple):
    """A GIF for the background writer: its frames, file and frame time."""

    pixels: list[Pixels]
    path: Path
    duration_ms: int


class Exporter:
    """The window's exports: file names in ``folder`` and the writing (messages on the
    state's message line).  A GIF from the window is composed at once and encoded by a
    background :class:`~viewer.model.jobs.Job` (:meth:`export` with ``background``: Pillow's
    quantizing took seconds in which the window froze); :meth:`poll` reports it,
    ``notify`` (if set) is called from the worker when it is done, :meth:`close` waits
    for it."""

    def __init__(self, painter: Painter, state: ViewerState, folder: Path) -> None:
        self.painter, self.state, self.folder = painter, state, folder
        #: the GIF writer; its result is the message saying how the writing went
        self._gif: Job[_Gif, str, None] = Job(self._write_gif, name="pawnfence-gif")

    @property
    def notify(self) -> Callable[[], None] | None:
        """Called from the writer when a GIF is done (thread-safe callees only)."""
        return self._gif.notify

    @notify.setter
    def notify(self, notify: Callable[[], None] | None) -> None:
        self._gif.notify = notify

    @property
    def busy(self) -> bool:
        """Whether a GIF is being encoded in the background (or its message is still to
        be shown)."""
        return self._gif.running or self._gif.result is not None

    def poll(self) -> bool:
        """Put a finished background export's message on the message line; True then."""
        if self._gif.running:
            return False
        said = self._gif.take()
        if said is None:
            return False
        self.state.say(said)
        return True

    def close(self, timeout: float = 120.0) -> str | None:
        """Wait for a background export to be written (the window closes); a message if it
        is still not done after ``timeout`` seconds (the file is then not written)."""
        if self._gif.close(timeout, cancel=False):
            return None
        return f"the GIF being saved was not finished after {timeout:g} s: not written"

    @staticmethod
    def _write_gif(gif: _Gif, ticket: Ticket) -> None:
        try:
            done = write_gif(gif.pixels, gif.path, duration_ms=gif.duration_ms)
            said = f"Saved {done} ({len(gif.pixels)} frames)"
        except ExportError as exc:
            said = str(exc)
        except Exception as exc:  # noqa: BLE001 - said on the message line, never lost
            said = f"The GIF was not saved: {type(exc).__name__}: {exc}"
        ticket.job.publish(ticket, lambda _old: said)

    def _background_gif(self, path: Path) -> None:
        s = self.state
        if self.busy:
            s.say("A GIF is still being saved: wait for it")
            return
        try:
            frames = gif_frames(themed(self.painter, s.options.export.theme),
                                figure_of(frame_of(s), s.options.export), s.options.export,
                                path)
        except ExportError as exc:
            s.say(str(exc))
            return
        pixels = gif_pixels(frames)
        ms = round(1000 / max(0.1, s.playback.timeline.speed))
        self._gif.submit(_Gif(pixels, path, ms))
        s.say(f"Saving the GIF ({len(pixels)} frames) …", 60.0)

    def default_path(self, kind: str) -> Path:
        """A file name in :attr:`folder` not taken yet."""
        d, o = self.state.position.current_diagram, self.state.options
        base = d.id if d else "position"
        n = 1
        while True:
            p = self.folder / f"pawnfence-{base}-{o.side}-{o.method.name}-{n}{KINDS[kind]}"
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
        if s.playback.verdict is None and s.proof.proving() is not None:
            s.say("The prover is still working: export when its verdict is in (Esc cancels)")
            return None
        path = Path(path) if path else self.default_path(kind)
        if path.suffix.lower() != KINDS[kind]:
            path = path.with_name(path.name + KINDS[kind])
        if background and kind == "gif":
            self._background_gif(path)
            return None
        try:
            done, n = write(self.painter, kind, frame_of(s), s.options.export, path,
                            speed=s.playback.timeline.speed)
        except ExportError as exc:
            s.say(str(exc))
            return None
        s.say(f"Saved {done}" + (f" ({n} frames)" if n > 1 else ""))
        return done


def _write_latex(frame: Frame, options: ExportOptions, out: Path) -> Path:
    """``out`` as a LaTeX ``chessboard`` diagram of ``frame`` (its overlays unless
    ``options`` leave them out), atomically."""
    from logic.files import atomic_write_text
    from viewer.figures.latex import latex_document

    frame = figure_of(frame, options)
    overlay = frame.overlay() if options.overlays else EMPTY
    text = latex_document(frame.board, overlay, frame.verdict, flipped=frame.flipped,
                          caption=frame.caption)
    try:
        return atomic_write_text(out, text)
    except OSError as exc:
        raise ExportError(f"cannot write {out}: {exc.strerror or exc}") from None


def render_to_file(board: chess.Board, out: str | Path, *, side: chess.Color = chess.WHITE,
                   method: str = logic.DEFAULT_METHOD, size: int = 640, flipped: bool = False,
                   caption: str = "", options: ExportOptions | None = None,
                   speed: float = 1.5, seconds: float | None = None) -> Path:
    """Render ``board`` without a window: PNG, SVG or LaTeX (:mod:`viewer.figures.latex`) the
    final verdict, GIF every step (``speed`` steps per second); ``options`` say what to
    include (``size`` wins); ``seconds``: the exact prover's budget per side (its default
    when None)."""
    out = Path(out)
    kind = out.suffix.lower().lstrip(".")
    if kind not in KINDS and kind != "tex":
        raise ExportError(f"cannot write {out}: the file name must end in .png, .gif, .svg "
                          "or .tex")
    pygame.font.init()  # no display and no audio needed
    painter = Painter()
    verdict = logic.detect(board, side, method=method, trace=True, seconds=seconds)
    other = logic.detect(board, not side, method=method, seconds=seconds)
    from logic import kpk_rules

    frame = Frame(board, verdict, other, None, caption, kpk_rules.summary(board), flipped)
    base = options or ExportOptions()
    if kind == "tex":
        return _write_latex(frame, base, out)
    size = min(size, GIF_MAX) if kind == "gif" else size  # a GIF of many frames stays small
    options = replace(base, size=size)
    return write(painter, kind, frame, options, out, speed=speed)[0]
