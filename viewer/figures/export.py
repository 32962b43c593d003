"""Exports: a frame as a figure file of one of the formats of :data:`FORMATS` (PNG, SVG,
an animated GIF of the whole trace, a LaTeX ``chessboard`` diagram, a TikZ picture),
from the window (:class:`Exporter`) and without one (``pawnfence render``:
:func:`render_to_file`).

Each format is one row of :data:`FORMATS`: its suffix, what it holds and the function
that writes it, which lays the figure out once (:func:`viewer.figures.figure.layout`,
with the pygame back end's font metrics) and hands it to its back end.  What a picture
holds is the user's choice (:class:`~viewer.model.state.ExportOptions`): the board's size
in pixels, and whether it shows the overlays, the banner, the legend and the
explanation.  A GIF's frame time follows the speed setting.

Files are written atomically and cannot lie (:mod:`viewer.figures.output`): a full disk
or any ``OSError`` is an :class:`ExportError` and the old file stays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import chess
import pygame

import logic
from viewer.figures.figure import BoardPart, layout, trace_layouts
from viewer.figures.frame import Frame, frame_of
from viewer.figures.gif import GIF_MAX, Pixels, gif_pixels, save_gif, write_gif
from viewer.figures.latex import latex_document
from viewer.figures.output import ExportError, verify_image, write_text, write_verified
from viewer.figures.raster import figure_surface
from viewer.figures.render import Painter
from viewer.figures.svg import figure_svg
from viewer.figures.tikz import tikz_document
from viewer.model.jobs import Job, Ticket
from viewer.model.overlay import Overlay
from viewer.model.state import DEFAULT_OPTIONS, ExportOptions
from viewer.model.text import banner_text
from viewer.model.theme import THEMES, LegendItem

if TYPE_CHECKING:
    from viewer.model.state import ViewerState

__all__ = ["compose_frame", "frame_svg", "save_png", "save_gif", "render_to_file",
           "trace_frames", "ExportError", "banner_text", "Exporter", "KINDS", "verify_image",
           "gif_pixels", "write_gif", "gif_frames", "Pixels", "GIF_MAX", "figure_of", "Frame",
           "FORMATS", "Format", "Order", "format_of", "write"]


def compose_frame(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS,
                  *, overlay: Overlay | None = None, banner_fixed: int = 0,
                  legend: tuple[LegendItem, ...] | None = None,
                  explanation_at_least: int = 0) -> pygame.Surface:
    """A stand-alone picture of ``frame``: the figure :func:`viewer.figures.figure.layout`
    lays out (the same keyword options) drawn by the pygame back end."""
    return figure_surface(painter, layout(
        frame, options, painter.fonts, overlay=overlay, banner_fixed=banner_fixed,
        legend=legend, explanation_at_least=explanation_at_least))


def frame_svg(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS) -> str:
    """The SVG document of the figure :func:`compose_frame` draws (its text as
    ``options.svg_text`` says)."""
    return figure_svg(layout(frame, options, painter.fonts), painter.colours, painter.fonts,
                      options.svg_text)


def trace_frames(painter: Painter, frame: Frame, options: ExportOptions = DEFAULT_OPTIONS
                 ) -> Iterator[pygame.Surface]:
    """One picture per step of the frame's verdict, then the live verdict
    (:func:`viewer.figures.figure.trace_layouts`: the board and the legend stay in place)."""
    for figure in trace_layouts(frame, options, painter.fonts):
        yield figure_surface(painter, figure)


def save_png(surface: pygame.Surface, path: str | Path) -> Path:
    """Save ``surface`` as a PNG at ``path`` (atomically); returns the path."""
    return write_verified(Path(path), lambda tmp: pygame.image.save(surface, tmp, "png"), "PNG")


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


def gif_frames(painter: Painter, frame: Frame, options: ExportOptions, path: Path
               ) -> list[pygame.Surface]:
    """The pictures of a GIF of ``frame``'s trace (boards of at most :data:`GIF_MAX`
    pixels); raises :class:`ExportError` when there are no steps."""
    if frame.verdict is None or not frame.verdict.steps:
        raise ExportError(f"cannot write {path}: no steps to export")
    options = replace(options, size=min(options.size, GIF_MAX))
    return list(trace_frames(painter, frame, options))


# -- the formats ----------------------------------------------------------------------
class Order(NamedTuple):
    """What to write: the ``frame`` (as a figure shows it: :func:`figure_of`), drawn by
    ``painter`` (in the options' theme) as ``options`` say; a trace at ``speed`` steps
    per second."""

    painter: Painter
    frame: Frame
    options: ExportOptions
    speed: float


def _png(order: Order, path: Path) -> int:
    save_png(compose_frame(order.painter, order.frame, order.options), path)
    return 1


def _svg(order: Order, path: Path) -> int:
    write_text(path, frame_svg(order.painter, order.frame, order.options), "SVG")
    return 1


def _gif(order: Order, path: Path) -> int:
    frames = gif_frames(order.painter, order.frame, order.options, path)
    save_gif(frames, path, duration_ms=round(1000 / max(0.1, order.speed)))
    return len(frames)


def _tex(order: Order, path: Path) -> int:
    f = order.frame
    board = next(p for p in layout(f, order.options, order.painter.fonts).parts
                 if isinstance(p, BoardPart))  # chessboard names the board part's squares
    write_text(path, latex_document(board.board, board.overlay, f.verdict,
                                    flipped=board.flipped, caption=f.caption), "TeX")
    return 1


def _tikz(order: Order, path: Path) -> int:
    figure = layout(order.frame, order.options, order.painter.fonts)
    write_text(path, tikz_document(figure, order.painter.colours, order.painter.fonts), "TikZ")
    return 1


class Format(NamedTuple):
    """A figure format: its file ``suffix``, what it holds (``what``, for messages and
    help), the function that writes an :class:`Order` to a path (returning how many
    frames it wrote), whether it shows every step (``steps``: an animation, boards of at
    most :data:`GIF_MAX` pixels) and whether the window's Export pane offers it."""

    suffix: str
    what: str
    write: Callable[[Order, Path], int]
    steps: bool = False
    window: bool = True


#: every figure format by name
FORMATS: dict[str, Format] = {
    "png": Format(".png", "the picture", _png),
    "gif": Format(".gif", "every step of the trace, animated", _gif, steps=True),
    "svg": Format(".svg", "the picture for print, its text as outlines", _svg),
    "tex": Format(".tex", "a LaTeX chessboard diagram", _tex, window=False),
    "tikz": Format(".tikz", "the picture as a TikZ picture for LaTeX", _tikz, window=False),
}
#: the formats the window's Export pane offers, and their file suffixes
KINDS = {name: f.suffix for name, f in FORMATS.items() if f.window}


def format_of(path: Path) -> str:
    """The name of the format a file name's suffix asks for; :class:`ExportError` for
    none."""
    suffix = path.suffix.lower()
    for name, f in FORMATS.items():
        if f.suffix == suffix:
            return name
    names = [f.suffix for f in FORMATS.values()]
    raise ExportError(f"cannot write {path}: the file name must end in "
                      f"{', '.join(names[:-1])} or {names[-1]}")


def write(painter: Painter, kind: str, frame: Frame, options: ExportOptions, path: Path,
          *, speed: float = 3.0) -> tuple[Path, int]:
    """Write ``frame`` as format ``kind`` (:data:`FORMATS`) to ``path`` in
    ``options.theme``'s colours (:func:`figure_of`: without the run's statistics unless
    asked); a trace at ``speed`` steps per second; returns the path and the number of
    frames."""
    order = Order(themed(painter, options.theme), figure_of(frame, options), options, speed)
    return path, FORMATS[kind].write(order, path)


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
            p = self.folder / f"pawnfence-{base}-{o.side}-{o.method.name}-{n}{FORMATS[kind].suffix}"
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
        suffix = FORMATS[kind].suffix
        path = Path(path) if path else self.default_path(kind)
        if path.suffix.lower() != suffix:
            path = path.with_name(path.name + suffix)
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


def render_to_file(board: chess.Board, out: str | Path, *, side: chess.Color = chess.WHITE,
                   method: str = logic.DEFAULT_METHOD, size: int = 640, flipped: bool = False,
                   caption: str = "", options: ExportOptions | None = None,
                   speed: float = 1.5, seconds: float | None = None) -> Path:
    """Render ``board`` without a window in the format its suffix names (:data:`FORMATS`):
    the final verdict, or every step (GIF: ``speed`` steps per second); ``options`` say
    what to include (``size`` wins); ``seconds``: the exact prover's budget per side (its
    default when None)."""
    out = Path(out)
    kind = format_of(out)
    pygame.font.init()  # no display and no audio needed
    painter = Painter()
    verdict = logic.detect(board, side, method=method, trace=True, seconds=seconds)
    other = logic.detect(board, not side, method=method, seconds=seconds)
    from logic import kpk_rules

    frame = Frame(board, verdict, other, None, caption, kpk_rules.summary(board), flipped)
    size = min(size, GIF_MAX) if FORMATS[kind].steps else size  # a GIF of many frames stays small
    return write(painter, kind, frame, replace(options or ExportOptions(), size=size), out,
                 speed=speed)[0]
