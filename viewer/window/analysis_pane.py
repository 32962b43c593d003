"""The analysis pane: pawnfence's search with and without detection and the UCI engine,
side by side (stacked when the pane is narrow), each with its score, depth and line in
SAN, the arrow style that shows its best move on the board, and a button that plays
its line move by move on the board (the detector re-runs at each position); above them
the exact prover's verdict for both sides (a sign in front of each: ½ proved, ! breaks
through, ? unknown).  The time
per search is adjustable (− / +); an illegal position is never analysed and the pane
says why (:mod:`viewer.model.analysis`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

from viewer.figures.render import ARROW_STYLES
from viewer.figures.textfit import wrap
from viewer.model.actions import ACTIONS
from viewer.model.analysis import EXACT_SECONDS
from viewer.model.text import san_line, score_text
from viewer.window.components import PaneButton, Same, wheel_steps

if TYPE_CHECKING:
    from viewer.figures.render import Painter
    from viewer.model.actions import Host
    from viewer.model.analysis import AnalysisResult
    from viewer.model.state import ViewerState

__all__ = ["AnalysisPane", "COLUMNS", "line_of_source", "exact_lines"]

#: the sign in front of an exact verdict, by its code (shape, not only colour)
EXACT_SIGNS = {"proved": "½", "breaks": "!", "unknown": "?"}


def exact_lines(result: AnalysisResult | None) -> list[tuple[str, str]]:
    """The exact prover's part of the pane: ``(text, style)`` lines, a title then one
    line per side, White's first (always two, so that nothing below jumps when the
    verdicts come in)."""
    if result is None:
        return []
    title = (f"exact prover, {EXACT_SECONDS:g} s a side:", "title")
    if result.exact is not None:
        return [title, *((f"{EXACT_SIGNS.get(str(d.get('code')), '?')} "
                          f"{d.get('headline', '')}", "text") for d in result.exact)]
    if not result.searchable:
        doing = "kings and pawns only" if result.legal else "not analysed"
    else:
        doing = "proving …" if not result.done else "no answer"
    return [title, *((f"{side}: {doing}", "muted") for side in ("White", "Black"))]


class Column(NamedTuple):
    """An analysis column: the ``source`` name (the line actions' suffix), the result's
    field, its title and its arrow's colour role."""

    source: str
    field: str
    title: str
    colour: str


COLUMNS = (Column("with", "with_detection", "search with detection", "arrow_with"),
           Column("without", "without_detection", "search without detection",
                  "arrow_without"),
           Column("engine", "engine", "UCI engine", "arrow_engine"))


def line_of_source(result: AnalysisResult | None, source: str) -> list[str]:
    """The UCI line of analysis column ``source`` (empty while it is thinking)."""
    if result is None:
        return []
    for col in COLUMNS:
        if col.source == source:
            d = getattr(result, col.field)
            return list(d.get("pv", [])) if d else []
    return []


class AnalysisPane:
    """The analysis of the state's position (``result``: the newest snapshot)."""

    #: draws every pixel of its rectangle (the view need not fill it)
    opaque = True

    def __init__(self, state: ViewerState, painter: Painter) -> None:
        self.state, self.painter = state, painter
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.px = 14
        self.result: AnalysisResult | None = None
        self.buttons: list[PaneButton] = []
        self._key: Any = None
        self._texts: list[tuple[str, str, tuple[int, int]]] = []  # (text, style/colour, pos)
        self.scroll = 0
        self.content = 0  # the height of what the pane shows (it scrolls when taller)

    def place(self, rect: pygame.Rect, px: int) -> None:
        """Put the part in ``rect`` (an empty rectangle hides it) with text of ``px`` pixels."""
        self.rect, self.px = rect, px
        self._key = None

    def update(self, result: AnalysisResult | None) -> None:
        """The analysis snapshot to show (``None``: the analysis is off)."""
        self.result = result

    def _title(self, col: Column) -> str:
        if col.source == "engine":
            r = self.result
            return f"UCI engine: {r.engine_name}" if r is not None and r.engine_path \
                else "UCI engine: none"
        return col.title

    def _column_text(self, col: Column) -> tuple[str, str, str]:
        """``(score, details, line)`` of a column."""
        r = self.result
        d = getattr(r, col.field) if r is not None else None
        if r is None:
            return "", "", ""
        if d is None:
            if col.source != "engine" and not r.searchable:
                return "—", "kings and pawns only" if r.legal else "not analysed", ""
            if col.source == "engine" and r.engine_path is None:
                return "—", "install stockfish or set one in the settings", ""
            return "…", "thinking" if not r.done else "no answer", ""
        extra = f" · {d['blockages']} blockages" if d.get("blockages") else ""
        return (score_text(d), f"depth {d.get('depth')}{extra}",
                san_line(r.fen, list(d.get("pv", [])), 12))

    def _build(self) -> None:
        """Lay the pane out: texts to draw and buttons (cached per result and line)."""
        s, r, px = self.state, self.result, self.px
        line = s.position.line
        key = (self.rect.size, px, Same(r), r, s.options.search_seconds, self.scroll,
               None if line is None else (line.source, line.index, line.moves))
        if key == self._key:
            return
        self._key = key
        fonts, w = self.painter.fonts, self.rect.width
        bh = round(px * 1.9)
        texts: list[tuple[str, str, tuple[int, int]]] = []
        buttons: list[PaneButton] = []
        x0, y0 = self.rect.left + 6, self.rect.top + 4 - self.scroll

        def put(text: str, style: str, x: int, y: int, width: int) -> int:
            font = fonts.get(round(px * (1.4 if style == "score" else 1)),
                             "bold" if style in ("title", "score") else "regular")
            for part in wrap(font, text, width):
                texts.append((part, style, (x, y)))
                y += font.get_linesize()
            return y

        head = f"Analysis · White's view · {s.options.search_seconds:g} s per search"
        bw = round(px * 2.4)
        y = put(head, "title", x0, y0, w - 2 * bw - 20)
        buttons += [PaneButton("search:less", "−", pygame.Rect(
            self.rect.right - 2 * bw - 10, y0, bw, bh)), PaneButton(
            "search:more", "+", pygame.Rect(self.rect.right - bw - 6, y0, bw, bh))]
        y = max(y, y0 + bh) + 6
        if line is not None:
            y = self._line_bar(put, buttons, x0, y, w, bh)
        for text, style in exact_lines(r):  # first: the proof, then the searches
            y = put(text, style, x0, y, w - 12)
        y += 6 if r is not None else 0
        wide = w >= px * 30
        col_w = (w - 20) // 3 if wide else w - 12
        top = y
        for i, col in enumerate(COLUMNS):
            x = x0 + i * (col_w + 4) if wide else x0
            y = top if wide else y
            texts.append(("", f"arrow:{col.colour}", (x, y + 2)))
            y = put(self._title(col), "title", x + round(px * 3.4), y, col_w - round(px * 3.4))
            score, details, san = self._column_text(col)
            moves = line_of_source(r, col.source)
            bw = min(col_w // 2, px * 8)
            buttons.append(PaneButton(f"line:{col.source}", "Play line",
                                      pygame.Rect(x + col_w - bw, y, bw, bh), bool(moves)))
            y = max(put(score, "score", x, y, col_w - bw - 4), y + bh + 2)
            y = put(details, "muted", x, y, col_w)
            y = put(san, "text", x, y + 2, col_w) + 8
        if wide:
            y = max(y, max(t[2][1] for t in texts) + px * 2)
        for message in (r.messages if r is not None else ()):
            y = put(message, "warn", x0, y, w - 12)
        self._texts, self.buttons = texts, buttons
        self.content = y + self.scroll - self.rect.top

    def _line_bar(self, put: Any, buttons: list[PaneButton], x0: int, y: int, w: int,
                  bh: int) -> int:
        """The bar of a line being played: where it stands and its buttons."""
        line = self.state.position.line
        assert line is not None
        played = san_line(line.root, list(line.moves[:line.index]), 60) or "(the start)"
        ahead = ""
        if line.index < len(line.moves):
            board = self.state.position.editor.board
            try:
                ahead = board.san(chess.Move.from_uci(line.moves[line.index]))
            except (ValueError, AssertionError):
                ahead = line.moves[line.index]
        y = put(f"Playing {line.label}: move {line.index} of {len(line.moves)}", "title",
                x0, y, w - 12)
        y = put(f"played: {played}" + (f" · next: {ahead}" if ahead else " · end of the line"),
                "text", x0, y, w - 12) + 4
        x = x0
        for name, label in (("line:first", "|<"), ("line:prev", "<"), ("line:next", ">"),
                            ("line:last", ">|")):
            buttons.append(PaneButton(name, label, pygame.Rect(x, y, bh * 2, bh)))
            x += bh * 2 + 4
        label = ACTIONS["line:stop"].label
        width = self.painter.fonts.get(self.px).size(label)[0] + self.px * 2
        if x + width > self.rect.right - 6:  # no room beside the moves: a row of its own
            x, y = x0, y + bh + 4
        width = min(width, self.rect.right - 6 - x)
        buttons.append(PaneButton("line:stop", label, pygame.Rect(x, y, width, bh)))
        return y + bh + 10

    def handle(self, event: pygame.event.Event, host: Host) -> bool:
        """Take ``event`` if it is this part's (True: taken, nothing else sees it); may run
        actions on ``host``."""
        if self.rect.width <= 0:
            return False
        self._build()
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            self.scroll = max(0, min(self.scroll + wheel_steps(event) * self.px,
                                     max(0, self.content - self.rect.height + self.px)))
            return True
        for b in self.buttons:
            if self.rect.contains(b.rect) and b.handle(event, host):
                return True
        return event.type == pygame.MOUSEBUTTONDOWN and self.rect.collidepoint(event.pos)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the part in its rectangle (from a cache while what it shows is unchanged)."""
        if self.rect.width <= 0 or self.rect.height <= 0:
            return
        self._build()
        p, c = self.painter, self.painter.colours
        surface.fill((33, 40, 45), self.rect)
        surface.set_clip(self.rect)
        for text, style, (x, y) in self._texts:
            if style.startswith("arrow:"):
                role = style[6:]
                p.arrow_swatch(surface, pygame.Rect(x, y, round(self.px * 3), self.px),
                                c[role], ARROW_STYLES[role])
                continue
            px = round(self.px * 1.4) if style == "score" else self.px
            font = p.fonts.get(px, "bold" if style in ("title", "score") else "regular")
            colour = {"muted": c["muted"], "warn": c["banner_open"]}.get(style, c["text"])
            surface.blit(p.cached(("atext", text, px, style), lambda t=text, f=font,
                                   k=colour: f.render(t, True, k)), (x, y))
        for b in self.buttons:
            b.draw(surface, p, self.px)
        surface.set_clip(None)
