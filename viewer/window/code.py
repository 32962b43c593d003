"""The code panel: the algorithm being animated, as pseudo-code, with the line of the
current step highlighted as the steps advance (as Python Tutor does: a bright arrow on
the line the step executed, a faint one on the line of the step before).

The listing is the method's (:attr:`logic.registry.Method.listing`, a
:class:`~logic.listing.Listing`); each line names the step kinds it stands for
(``Step.kind``, never the step's text), so a new method brings its own listing, and a
method without one gets the step's facts and boards only.  Below the listing the panel
shows the step's "variables": its named boards as squares and its facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess
import pygame

from logic.listing import Listing, line_of
from logic.steps import Step
from viewer.figures.textfit import wrap
from viewer.window.components import Same, wheel_steps

if TYPE_CHECKING:
    from viewer.figures.render import Painter
    from viewer.model.actions import Host
    from viewer.model.state import ViewerState

__all__ = ["CodePanel", "variables"]


def _squares(bb: int) -> str:
    names = [chess.square_name(s) for s in chess.scan_forward(bb)]
    if len(names) > 12:
        return f"{len(names)} squares"
    return " ".join(names) or "none"


def variables(step: Step | None) -> list[str]:
    """The step's "variables" in words: each named board as its squares (or a count),
    then its facts."""
    if step is None:
        return []
    out = [f"{name}: {_squares(bb)}" for name, bb in step.boards]
    out += [f"{name} = {value}" for name, value in step.facts]
    return out


class CodePanel:
    """The pseudo-code of the state's method with the current step's line highlighted."""

    #: draws every pixel of its rectangle (the view need not fill it)
    opaque = True

    def __init__(self, state: ViewerState, painter: Painter) -> None:
        self.state, self.painter = state, painter
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.px = 14
        self.scroll = 0
        self._followed: Any = None
        self._view = 0  # the listing's height at the last follow
        self._rows_memo: tuple[Any, list[tuple[int, int, str]]] = (None, [])
        self._area_memo: tuple[Any, tuple[int, int]] = (None, (0, 0))

    def place(self, rect: pygame.Rect, px: int) -> None:
        """Put the part in ``rect`` (an empty rectangle hides it) with text of ``px`` pixels."""
        self.rect, self.px = rect, px

    def current(self) -> tuple[Listing | None, int | None, int | None]:
        """The listing and the lines of the current and the previous step."""
        s, tl = self.state, self.state.playback.timeline
        listing = s.options.method.listing
        v = s.playback.verdict
        if listing is None or v is None or tl.index is None:
            return listing, None, None
        prev = v.steps[tl.index - 1] if tl.index > 0 else None
        return listing, line_of(listing, v.steps[tl.index]), line_of(listing, prev)

    def handle(self, event: pygame.event.Event, host: Host) -> bool:
        """Take ``event`` if it is this part's (True: taken, nothing else sees it); may run
        actions on ``host``."""
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            self.scroll = max(0, self.scroll + wheel_steps(event) *
                              self.painter.fonts.get(self.px, "mono").get_linesize())
            # what _follow keys on: the wheel's scroll stands until the line or the
            # listing's height changes
            self._followed = (self.state.options.method, self.current()[1], self.rect.size,
                              self._view)
            return True
        return event.type == pygame.MOUSEBUTTONDOWN and self.rect.collidepoint(event.pos)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the part in its rectangle (from a cache while what it shows is unchanged)."""
        if self.rect.width <= 0 or self.rect.height <= 0:
            return
        listing, cur, prev = self.current()
        tl, v = self.state.playback.timeline, self.state.playback.verdict
        step = v.steps[tl.index] if (v is not None and tl.index is not None) else None
        if listing is not None:
            mono = self.painter.fonts.get(self.px, "mono")
            rows = self._wrapped(listing, self.rect.width)
            # the listing's own height: the step's facts below it take a varying part
            _top, code_h = self._code_area(listing, step)
            self._follow(rows, cur, mono.get_linesize(), code_h)
            # never scrolled past the listing's end (the pane's lower part left empty)
            self.scroll = max(0, min(self.scroll, len(rows) * mono.get_linesize() - code_h))
        key = ("code", self.state.options.method, cur, prev, Same(step), self.rect.size, self.px,
               self.scroll)
        surf = self.painter.cached(key, lambda: self._make(listing, cur, prev, step), False)
        surface.blit(surf, self.rect)

    def _wrapped(self, listing: Listing, width: int) -> list[tuple[int, int, str]]:
        """``(line index, indent pixels, text)`` rows of the listing wrapped to ``width``."""
        key = (listing.title, width, self.px)
        if self._rows_memo[0] == key:
            return self._rows_memo[1]
        mono = self.painter.fonts.get(self.px, "mono")
        step = mono.size("  ")[0]
        rows = []
        for i, line in enumerate(listing.lines):
            x = 22 + line.indent * step
            for k, part in enumerate(wrap(mono, line.text, width - x - 4) or [""]):
                rows.append((i, x + (step if k else 0), part))
        self._rows_memo = (key, rows)
        return rows

    def _title(self, listing: Listing | None, width: int) -> list[str]:
        """The title's lines."""
        title = (listing.title if listing else
                 f"no pseudo-code for {self.state.options.method.name}")
        return wrap(self.painter.fonts.get(self.px, "bold"), title, width - 12)

    def _code_area(self, listing: Listing | None, step: Step | None) -> tuple[int, int]:
        """The listing's top and height in the pane: below the title, above the step's
        variables (at most a third of the pane); kept until the listing, step or size
        changes (every frame asks)."""
        key = (listing.title if listing else None, Same(step), self.rect.size, self.px)
        if self._area_memo[0] != key:
            self._area_memo = (key, self._measure_area(listing, step))
        return self._area_memo[1]

    def _measure_area(self, listing: Listing | None, step: Step | None) -> tuple[int, int]:
        w, h = self.rect.size
        bold, regular = self.painter.fonts.get(self.px, "bold"), self.painter.fonts.get(self.px)
        top = 3 + len(self._title(listing, w)) * bold.get_linesize() + 4
        lines = sum(len(wrap(regular, v, w - 12)) for v in variables(step))
        var_h = min(h // 3, (lines + 1) * regular.get_linesize() + 6) if step else 0
        return top, max(0, h - top - var_h)

    def _make(self, listing: Listing | None, cur: int | None, prev: int | None,
              step: Step | None) -> pygame.Surface:
        p, c = self.painter, self.painter.colours
        w, h = self.rect.size
        surf = pygame.Surface((w, h))
        surf.fill((33, 40, 45))
        bold, mono = p.fonts.get(self.px, "bold"), p.fonts.get(self.px, "mono")
        regular = p.fonts.get(self.px)
        y = 3
        for part in self._title(listing, w):
            surf.blit(bold.render(part, True, c["text"]), (6, y))
            y += bold.get_linesize()
        var_lines = [t for v in variables(step) for t in wrap(regular, v, w - 12)]
        top, code_h = self._code_area(listing, step)
        var_h = h - top - code_h
        code_rect = pygame.Rect(0, top, w, code_h)
        if listing is not None:
            rows = self._wrapped(listing, w)
            line_h = mono.get_linesize()
            surf.set_clip(code_rect)
            for n, (i, x, text) in enumerate(rows):
                ry = code_rect.top + n * line_h - self.scroll
                if i in (cur, prev) and (n == 0 or rows[n - 1][0] != i):
                    colour = c["current_line"] if i == cur else c["previous_line"]
                    span = sum(1 for r in rows if r[0] == i)
                    pygame.draw.rect(surf, colour, (2, ry, w - 4, span * line_h))
                    arrow = c["changed"] if i == cur else c["muted"]
                    tip = [(4, ry + 2), (16, ry + line_h // 2), (4, ry + line_h - 2)]
                    # the current line: a filled arrow; the line before: a hollow one
                    pygame.draw.polygon(surf, arrow, tip, 0 if i == cur else 2)
                ink = c["text"] if i == cur else c["muted"] if cur is not None else c["text"]
                surf.blit(mono.render(text, True, ink), (x, ry))
            surf.set_clip(None)
        if step is not None:
            vy = h - var_h
            pygame.draw.line(surf, c["muted"], (4, vy), (w - 4, vy), 1)
            surf.blit(bold.render(f"step: {step.kind}", True, c["text"]), (6, vy + 3))
            for k, text in enumerate(var_lines):
                ty = vy + 3 + (k + 1) * regular.get_linesize()
                if ty + regular.get_linesize() > h:
                    break
                surf.blit(regular.render(text, True, c["muted"]), (6, ty))
        return surf

    def _follow(self, rows: list[tuple[int, int, str]], cur: int | None, line_h: int,
                view: int) -> None:
        """Keep the current line in the listing's ``view`` pixels (once per change of the
        current line or of that height)."""
        self._view = view
        key = (self.state.options.method, cur, self.rect.size, view)
        if key == self._followed or cur is None:
            return
        self._followed = key
        n = next((k for k, r in enumerate(rows) if r[0] == cur), 0)
        if not self.scroll <= n * line_h <= self.scroll + view - 2 * line_h:
            self.scroll = max(0, n - view // (3 * line_h)) * line_h  # whole lines
