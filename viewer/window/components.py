"""The custom-drawn parts of the panel: each owns its events, its update and its drawing.

* :class:`PaneButton` -- a button drawn by a pane; it runs an action of the one table
  (:mod:`viewer.model.actions`), like every key and widget button;
* :class:`Scrubber` -- the timeline's track: click anywhere on it to go to that step,
  drag to scrub; ticks mark where each phase starts;
* :class:`StepList` -- the trace's steps grouped by phase beside the timeline: click a
  step (or a phase) to go there, the mouse wheel scrolls, the current step stays in
  view; when not everything fits, only the current phase is unfolded.

A component is placed with :meth:`place` (a rectangle and the text size), takes events
with :meth:`handle` (True: the event was its own) and draws with :meth:`draw`; what it
draws is cached and redrawn only when what it shows changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import chess
import pygame

from viewer.figures.textfit import wrap
from viewer.model.actions import run_action

if TYPE_CHECKING:
    from viewer.figures.render import Painter
    from viewer.model.actions import Host
    from viewer.model.state import ViewerState

__all__ = ["PaneButton", "Scrubber", "StepList", "Component", "wheel_steps", "Same"]


class Same:
    """An object as part of a cache key: equal only to the very same object, hashed by
    identity, and held, so that while the key lives no other object can take its
    ``id()`` (a bare ``id()`` in a key is reused once its object is freed: a new
    verdict then hit the old one's cached drawing)."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


class Component(Protocol):
    """A custom-drawn part of the panel: it owns its events, update and drawing."""

    rect: pygame.Rect

    def place(self, rect: pygame.Rect, px: int) -> None:
        """Put the part in ``rect`` (an empty rectangle hides it), text of ``px`` pixels."""

    def handle(self, event: pygame.event.Event, host: Host) -> bool:
        """True when ``event`` was the part's (nothing else then sees it)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the part in its rectangle."""


def wheel_steps(event: pygame.event.Event) -> int:
    """Lines to scroll for a mouse-wheel event (positive: down)."""
    return -int(getattr(event, "y", 0)) * 3


class PaneButton:
    """A button drawn by a pane: ``label`` in ``rect``, running action ``action``."""

    def __init__(self, action: str, label: str, rect: pygame.Rect, enabled: bool = True
                 ) -> None:
        self.action, self.label, self.rect, self.enabled = action, label, rect, enabled

    def handle(self, event: pygame.event.Event, host: Host) -> bool:
        """Run the action on a left click inside the button; True if it was clicked."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self.rect.collidepoint(event.pos):
            if self.enabled:
                run_action(self.action, host)
            return True
        return False

    def draw(self, surface: pygame.Surface, painter: Painter, px: int) -> None:
        """Draw the part in its rectangle (from a cache while what it shows is unchanged)."""
        c = painter.colours
        bg = (76, 80, 82) if self.enabled else (37, 41, 46)
        pygame.draw.rect(surface, bg, self.rect, border_radius=3)
        pygame.draw.rect(surface, (92, 96, 98), self.rect, 1, border_radius=3)
        font = painter.fonts.get(px)
        lines = wrap(font, self.label, self.rect.width - 6)
        ink = c["text"] if self.enabled else (128, 128, 128)
        y = self.rect.centery - len(lines) * font.get_linesize() // 2
        for line in lines:
            img = font.render(line, True, ink)
            surface.blit(img, img.get_rect(midtop=(self.rect.centerx, y)))
            y += font.get_linesize()


class Scrubber:
    """The timeline's track for one state: click to seek, drag to scrub."""

    def __init__(self, state: ViewerState, painter: Painter) -> None:
        self.state, self.painter = state, painter
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.dragging = False

    def place(self, rect: pygame.Rect, px: int) -> None:
        """Put the part in ``rect`` (an empty rectangle hides it) with text of ``px`` pixels."""
        self.rect = rect

    def index_at(self, x: int) -> int:
        """The step under pixel column ``x`` (0 .. count - 1)."""
        n = self.state.playback.timeline.count
        r = self.rect.inflate(-self.rect.height, 0)
        if n <= 1 or r.width <= 0:
            return 0
        t = (x - r.left) / r.width
        return max(0, min(n - 1, round(t * (n - 1))))

    def x_of(self, k: int) -> int:
        """The pixel column of step ``k``."""
        n = self.state.playback.timeline.count
        r = self.rect.inflate(-self.rect.height, 0)
        return r.left + (round(r.width * k / (n - 1)) if n > 1 else 0)

    def handle(self, event: pygame.event.Event, host: Host) -> bool:
        """Take ``event`` if it is this part's (True: taken, nothing else sees it); may run
        actions on ``host``."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self.rect.collidepoint(event.pos) and self.state.playback.timeline.count:
            self.dragging = True
            self.state.playback.seek(self.index_at(event.pos[0]))
            return True
        if event.type == pygame.MOUSEMOTION and self.dragging:
            self.state.playback.seek(self.index_at(event.pos[0]))
            return True
        if event.type == pygame.MOUSEBUTTONUP and self.dragging:
            self.dragging = False
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the part in its rectangle (from a cache while what it shows is unchanged)."""
        tl, r, painter = self.state.playback.timeline, self.rect, self.painter
        if r.width <= 0:
            return
        c = painter.colours
        mid = r.centery
        pygame.draw.rect(surface, c["track"], r, border_radius=r.height // 2)
        pygame.draw.rect(surface, c["track_edge"], r, 1, border_radius=r.height // 2)
        if not tl.count:
            return
        for g in tl.groups:  # a tick where each phase starts
            x = self.x_of(g.start)
            pygame.draw.line(surface, c["muted"], (x, r.top + 3), (x, r.bottom - 4), 1)
        k = tl.count - 1 if tl.index is None else tl.index
        x = self.x_of(k)
        pygame.draw.line(surface, c["path"], (self.x_of(0), mid), (x, mid), max(3, r.height // 5))
        rad = max(5, r.height // 2 - 2)
        if tl.index is None:  # the live view: a hollow knob at the end
            pygame.draw.circle(surface, c["text"], (x, mid), rad, 2)
        else:
            pygame.draw.circle(surface, c["changed"], (x, mid), rad)
            pygame.draw.circle(surface, (0, 0, 0), (x, mid), rad, 1)


class _Row(NamedTuple):
    kind: str  # "group" or "step"
    target: int  # the step it seeks to
    lines: tuple[str, ...]
    y: int
    height: int
    current: bool


class StepList:
    """The trace's steps grouped by phase, for one state."""

    #: draws every pixel of its rectangle (the view need not fill it)
    opaque = True

    def __init__(self, state: ViewerState, painter: Painter) -> None:
        self.state, self.painter = state, painter
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.px = 14
        self.scroll = 0
        self._rows: tuple[Any, tuple[_Row, ...], int] = (None, (), 0)
        self._measured: tuple[Any, Any] = (None, None)
        self._title_memo: tuple[Any, list[str]] = (None, [])
        self._followed: Any = None
        #: the running proof's token and the structures solved per side so far
        self._solved: tuple[Any, dict[bool, int]] = (None, {})
        #: the proof's budget bar (while one runs)
        self.bar = pygame.Rect(0, 0, 0, 0)

    def place(self, rect: pygame.Rect, px: int) -> None:
        """Put the part in ``rect`` (an empty rectangle hides it) with text of ``px`` pixels."""
        self.rect, self.px = rect, px

    def _title(self) -> list[str]:
        """The title's lines, wrapped to the list's width."""
        tl = self.state.playback.timeline
        where = "live verdict" if tl.index is None else f"step {tl.index + 1} of {tl.count}"
        key = (f"Steps ({tl.count}) by phase · {where} · Up / Down: phase", self.rect.width,
               self.px)
        if self._title_memo[0] != key:
            self._title_memo = (key, wrap(self.painter.fonts.get(self.px, "bold"), key[0],
                                          max(1, self.rect.width - 12)))
        return self._title_memo[1]

    def _title_h(self) -> int:
        return len(self._title()) * self.painter.fonts.get(self.px, "bold").get_linesize() + 6

    def rows(self) -> tuple[tuple[_Row, ...], int]:
        """The rows to show and their total height (cached per verdict, step and size):
        every phase unfolded when they fit, else the current phase first and then the
        nearest ones while they fit."""
        tl = self.state.playback.timeline
        key = (Same(tl.verdict), tl.index, self.rect.size, self.px)
        if self._rows[0] == key:
            return self._rows[1], self._rows[2]
        heads, bodies = self._measure()
        view = self.rect.height - self._title_h()
        current = tl.group_of(tl.index)
        order = sorted(range(len(heads)), key=lambda g: (g != current, abs(g - (current or 0))))
        used, unfolded = sum(h for h, _lines in heads), set()
        for g in order:
            extra = sum(h for h, _lines in bodies[g])
            if g == current or used + extra <= view:
                unfolded.add(g)
                used += extra
        rows, y = [], 0
        for gi, g in enumerate(tl.groups):
            h, lines = heads[gi]
            rows.append(_Row("group", g.start, lines, y, h,
                             gi == current and gi not in unfolded))
            y += h
            if gi in unfolded and bodies[gi]:
                for k, (h, lines) in zip(range(g.start, g.end), bodies[gi], strict=True):
                    rows.append(_Row("step", k, lines, y, h, k == tl.index))
                    y += h
        self._rows = (key, tuple(rows), y)
        return self._rows[1], y

    def _measure(self) -> tuple[list[tuple[int, tuple[str, ...]]],
                                list[list[tuple[int, tuple[str, ...]]]]]:
        """Each phase's header and each of its steps (phases of one step: none) as
        ``(height, wrapped lines)``."""
        tl = self.state.playback.timeline
        v = tl.verdict
        key = (Same(v), self.rect.width, self.px)
        if self._measured[0] == key:
            return self._measured[1]
        if v is None:
            return [], []
        bold, regular = self.painter.fonts.get(self.px, "bold"), self.painter.fonts.get(self.px)
        width = self.rect.width - 12
        heads, bodies = [], []
        for g in tl.groups:
            n = g.end - g.start
            lines = tuple(wrap(bold, f"{g.phase}  ({n} step{'s' if n > 1 else ''}, "
                                     f"{g.section})", width - 14))
            heads.append((len(lines) * bold.get_linesize() + 4, lines))
            body = []
            for k in range(g.start, g.end):
                lines = tuple(wrap(regular, f"{k + 1}. {v.steps[k].text}", width - 28))
                body.append((len(lines) * regular.get_linesize() + 2, lines))
            bodies.append(body)
        self._measured = (key, (heads, bodies))
        return heads, bodies

    def _follow(self) -> None:
        """Scroll so that the current step's row is in view (once per step change)."""
        tl = self.state.playback.timeline
        key = (Same(tl.verdict), tl.index)
        if key == self._followed:
            return
        self._followed = key
        rows, height = self.rows()
        view = self.rect.height - self._title_h()
        for row in rows:
            if row.current or (row.kind == "group" and tl.index == row.target and
                               tl.group_of(tl.index) is not None):
                if row.y < self.scroll or row.y + row.height > self.scroll + view:
                    self.scroll = max(0, row.y - view // 3)
                break
        self.scroll = max(0, min(self.scroll, max(0, height - view)))

    def handle(self, event: pygame.event.Event, host: Host) -> bool:
        """Take ``event`` if it is this part's (True: taken, nothing else sees it); may run
        actions on ``host``."""
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            rows, height = self.rows()
            step = self.painter.fonts.get(self.px).get_linesize()
            view = self.rect.height - self._title_h()
            self.scroll = max(0, min(self.scroll + wheel_steps(event) * step,
                                     max(0, height - view)))
            return True
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1 \
                or not self.rect.collidepoint(event.pos):
            return False
        y = event.pos[1] - self.rect.top - self._title_h() + self.scroll
        for row in self.rows()[0]:
            if row.y <= y < row.y + row.height:
                self.state.playback.seek(row.target)
                break
        return True

    def proving_lines(self) -> list[str]:
        """While a background proof runs and no steps are in: what it has solved so far,
        a line per side (the prover reports a count of the pawn structures it solved);
        empty otherwise."""
        state = self.state
        p = state.proof.proving()
        if p is None or state.playback.verdict is not None:
            return []
        if self._solved[0] != p.token:
            self._solved = (p.token, {})
        solved = self._solved[1]
        solved[bool(p.color)] = p.structures
        budget = state.proof_budget()
        lines = [f"Proving ({state.options.method.name}) … {p.stage_seconds():.1f} s of "
                 f"{budget:g} s for this side"]
        for k, color in enumerate(sorted(solved, key=lambda c: c != bool(p.color))):
            side = chess.COLOR_NAMES[color].capitalize()
            now = " (now)" if color == bool(p.color) else " (proved)"
            lines.append(f"{k + 1}. {side}: {solved[color]:,} pawn structures solved{now}")
        if len(solved) < 2:
            other = chess.COLOR_NAMES[not p.color].capitalize()
            lines.append(f"2. {other}: next")
        return lines

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the part in its rectangle (from a cache while what it shows is unchanged)."""
        if self.rect.width <= 0 or self.rect.height <= 0:
            return
        proving = self.proving_lines()
        if proving:
            self._draw_proving(surface, proving)
            return
        self._follow()
        rows, _height = self.rows()
        tl = self.state.playback.timeline
        key = ("steplist", self._rows[0], self.scroll)
        surf = self.painter.cached(key, lambda: self._make(rows, tl), False)
        surface.blit(surf, self.rect)

    def _draw_proving(self, surface: pygame.Surface, lines: list[str]) -> None:
        """The proof's progress: its budget bar, then the structures solved per side."""
        p, c = self.painter, self.painter.colours
        surface.fill((33, 40, 45), self.rect)
        bold, regular = p.fonts.get(self.px, "bold"), p.fonts.get(self.px)
        x, y, w = self.rect.left + 6, self.rect.top + 3, self.rect.width - 12
        for part in wrap(bold, lines[0], w):
            surface.blit(bold.render(part, True, c["text"]), (x, y))
            y += bold.get_linesize()
        share = self.state.proof_share()
        self.bar = pygame.Rect(x, y + 4, w, max(6, self.px // 2))
        pygame.draw.rect(surface, (52, 58, 62), self.bar, border_radius=3)
        pygame.draw.rect(surface, c["path"], (self.bar.left, self.bar.top,
                                              round(self.bar.width * share), self.bar.height),
                         border_radius=3)
        y = self.bar.bottom + 8
        for text in lines[1:]:
            for part in wrap(regular, text, w - 16):
                surface.blit(regular.render(part, True, c["text"]), (x + 10, y))
                y += regular.get_linesize()

    def _make(self, rows: tuple[_Row, ...], tl: Any) -> pygame.Surface:
        p, c = self.painter, self.painter.colours
        surf = pygame.Surface(self.rect.size)
        surf.fill((33, 40, 45))
        bold, regular = p.fonts.get(self.px, "bold"), p.fonts.get(self.px)
        for i, line in enumerate(self._title()):
            surf.blit(bold.render(line, True, c["text"]), (6, 3 + i * bold.get_linesize()))
        top = self._title_h()
        clip = pygame.Rect(0, top, self.rect.width, self.rect.height - top)
        surf.set_clip(clip)
        for row in rows:
            y = top + row.y - self.scroll
            if y + row.height < top or y > self.rect.height:
                continue
            indent = 16 if row.kind == "group" else 30
            if row.current:
                pygame.draw.rect(surf, c["current_line"], (2, y, self.rect.width - 4,
                                                           row.height))
                pygame.draw.polygon(surf, c["changed"], [(3, y + 3), (12, y + row.height // 2),
                                                         (3, y + row.height - 3)])
            font = bold if row.kind == "group" else regular
            colour = c["text"] if row.kind == "group" or row.current else c["muted"]
            for i, line in enumerate(row.lines):
                surf.blit(font.render(line, True, colour),
                          (indent, y + i * font.get_linesize()))
        surf.set_clip(None)
        return surf
