"""The code panel: the algorithm being animated, as pseudo-code, with the line of the
current step highlighted as the steps advance (as Python Tutor does: a bright arrow on
the line the step executed, a faint one on the line of the step before).

The listings are data (:data:`LISTINGS`: method name -> :class:`Listing`); each line
names the step kinds it stands for (``Step.kind``, never the step's text), so a new
method plugs in with its own listing, and a method without one gets the step's
facts and boards only.  Below the listing the panel shows the step's "variables": its
named boards as squares and its facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import chess
import pygame

from logic.steps import Step
from viewer.figures.textfit import wrap
from viewer.window.components import Same, wheel_steps

if TYPE_CHECKING:
    from viewer.figures.render import Painter
    from viewer.model.actions import Host
    from viewer.model.state import ViewerState

__all__ = ["Listing", "CodeLine", "LISTINGS", "CodePanel", "line_of", "variables"]


class CodeLine(NamedTuple):
    """One line of pseudo-code: its ``indent`` level, ``text`` and the step ``kinds`` it
    stands for."""

    indent: int
    text: str
    kinds: tuple[str, ...] = ()


class Listing(NamedTuple):
    """A method's pseudo-code: a ``title`` (its source) and its lines."""

    title: str
    lines: tuple[CodeLine, ...]


_L = CodeLine
#: the pseudo-code of each method, by the name ``logic.METHODS`` knows it by
LISTINGS: dict[str, Listing] = {
    "paper": Listing("David, Felner & Netanyahu (2004): blockage and Figure 8", (
        _L(0, "blockage(position), White to win:"),
        _L(1, "fixed ← White pawns blocked by a pawn or a fixed pawn, unable to capture",
           ("mark-fixed",)),
        _L(1, "marked ← fixed + the squares Black pawns attack", ("mark-attacks",)),
        _L(1, "fence ← FenceSearch(marked)  # Figure 8, below",
           ("dfs-note",)),
        _L(1, "while Black pawns stand below the fence:", ()),
        _L(2, "remove them (White's king may take them); mark again", ("remove-below",)),
        _L(2, "fence ← FenceSearch(marked); say what joined / left",
           ("fence-recomputed",)),
        _L(1, "if a White pawn can take a removed pawn: no blockage (3)", ("capture",)),
        _L(1, "cross-check: label the unmarked squares (CCL)", ("ccl",)),
        _L(1, "White's king below the fence, Black's above it? (2.3)", ("kings",)),
        _L(1, "Black's king has a vacant square? (no zugzwang)", ("zugzwang",)),
        _L(1, "for each dynamic White pawn: above (3.1), on (3.2), below (3.3, 3.4)",
           ("classify",)),
        _L(1, "return the verdict", ("verdict",)),
        _L(0, ""),
        _L(0, "FenceSearch(marked):  # Figure 8 (2.3)"),
        _L(1, "for r from 7 down to 2:"),
        _L(2, "if marked[a][r] and FormsFence(a, r): return the fence", ("dfs-start",)),
        _L(1, "return no fence", ("dfs-none",)),
        _L(0, "FormsFence(f, r):"),
        _L(1, "processed[f][r] ← true"),
        _L(1, "if f = h: fence += (f, r); return true", ("dfs-found",)),
        _L(1, "for (f', r') in north, east, south of (f, r):"),
        _L(2, "if marked and not processed and FormsFence(f', r'):", ("dfs-advance",)),
        _L(3, "fence += (f, r); return true"),
        _L(1, "return false  # backtrack", ("dfs-backtrack",)),
    )),
    "extended": Listing("The paper's method plus criteria checked against the exact prover", (
        _L(0, "extended(position), White to win:"),
        _L(1, "the paper's blockage(position): marking, Figure 8, removal (3)",
           ("mark-fixed", "mark-attacks", "dfs-note", "dfs-start", "dfs-advance",
            "dfs-backtrack", "dfs-found", "dfs-none", "remove-below", "fence-recomputed",
            "ccl")),
        _L(1, "... kings, zugzwang, dynamic pawns (2.3, 3.1-3.4)",
           ("capture", "kings", "zugzwang", "classify")),
        _L(1, "if the paper proves a blockage: return it", ("paper-verdict",)),
        _L(1, "(x1 and x2 were dropped: wrong against the exact prover)"),
        _L(1, "x3, KPK: the pawn cannot be forced to promote, whoever moves?",
           ("x2-kpk", "x3-kpk")),
        _L(1, "x4, the lowest fence, every dynamic pawn held by pawns:"),
        _L(2, "region ← flood from rank 1 through unmarked squares (king steps)",
           ("x4-region",)),
        _L(2, "while Black pawns stand in the region: remove them, mark, flood again",
           ("x4-remove",)),
        _L(2, "fence ← the marked squares next to the region"),
        _L(2, "if a White pawn can take a removed pawn: no blockage (as 3)", ("x4-capture",)),
        _L(2, "if a dynamic pawn needs Black's king (3.1, 3.4): x4 does not apply",
           ("x4-king-needed",)),
        _L(2, "White's king in the region, Black's outside it? (2.3)", ("x4-kings",)),
        _L(2, "Black's king has a vacant square? (no zugzwang)", ("x4-zugzwang",)),
        _L(2, "each dynamic pawn by 3.2-3.3 on that fence", ("x4-classify",)),
        _L(1, "x5, the shut-in king (Black's king marks time between two squares):"),
        _L(2, "White's king region through unattacked squares without own pawns: closed?",
           ("x5-region",)),
        _L(2, "every (king, pawns) position White reaches: none captures or promotes?",
           ("x5-search",)),
        _L(2, "Black's two squares: never reached or attacked by White?", ("x5-tempo",)),
        _L(1, "return the verdict: the first rule that proves a blockage, else the paper's",
           ("verdict",)),
    )),
    "flood": Listing("Chessprogramming wiki: forms_fence4white and the dynamic pawns", (
        _L(0, "forms_fence4white(wPawns, bPawns):"),
        _L(1, "fence ← rams: White pawns blocked by Black pawns"),
        _L(1, "if fewer than 3 rams: return false", ("flood-rams",)),
        _L(1, "fence += own pawns blocked behind them + Black pawn attacks",
           ("flood-fence",)),
        _L(1, "flood ← rank 1 + the squares below the fence's lowest square", ("flood-start",)),
        _L(1, "above ← squares above the fence's highest square"),
        _L(1, "loop:"),
        _L(2, "flood ← (flood + king steps from it) minus the fence", ("flood-cycle",)),
        _L(2, "if the flood did not grow: return true  # the fence holds",
           ("flood-stop",)),
        _L(2, "if flood meets above: return false  # breakthrough",
           ("flood-breakthrough",)),
        _L(2, "if flood meets bPawns: drown them; fence ← recomputed", ("flood-drown",)),
        _L(0, ""),
        _L(0, "then the page's rules:"),
        _L(1, "a White pawn can take a drowned pawn: no blockage", ("capture",)),
        _L(1, "White's king in the flood, Black's outside it", ("kings",)),
        _L(1, "Black's king has a vacant square (no zugzwang)", ("zugzwang",)),
        _L(1, "each dynamic pawn: passed above with the king in front; below: no lever, "
              "ends rammed", ("classify",)),
        _L(1, "return the verdict", ("verdict",)),
    )),
    "exact": Listing("Exact: retrograde analysis over the pawn-structure DAG (after "
                     "Stockfish's former bitbase.cpp)", (
        _L(0, "exact(position), X to win (a promotion by either side, or mate):"),
        _L(1, "S ← the pawn structures reachable from here  # pawns never go back: a DAG"),
        _L(1, "for each structure s of S, its successors first:", ("exact-structure",)),
        _L(2, "states ← X's king × D's king × side to move (2 × 64 × 64)"),
        _L(2, "WIN ← states that promote or mate now, or whose pawn move or capture "
              "reaches a won successor"),
        _L(2, "repeat until nothing changes:  # retrograde, as bitbase.cpp"),
        _L(3, "X to move: WIN += states with some king move into WIN"),
        _L(3, "D to move: WIN += states whose every move leads into WIN"),
        _L(2, "cache s's tables  # the paper's pawn hash, generalised"),
        _L(1, "# shortcuts side by side: D moves only its king / never pushes (a draw"),
        _L(1, "#   there is one here), partial expansions bounded above and below"),
        _L(1, "# beside them: a forward search, a ply deeper each time, for a short"),
        _L(1, "#   breakthrough (X fastest, D longest: the line)", ("exact-forward",)),
        _L(1, "the root is decided (or the budget is spent: unknown)", ("exact-solve",)),
        _L(1, "king map ← the king squares from which the root is held / won",
           ("exact-kings",)),
        _L(1, "if the root is in WIN:  # a breakthrough"),
        _L(2, "play the line: X a move of least distance, D one of greatest",
           ("exact-move",)),
        _L(1, "return proved (X cannot win) / breaks (the line) / unknown", ("verdict",)),
    )),
}


def line_of(listing: Listing, step: Step | None) -> int | None:
    """The index of the line of ``listing`` that step ``step`` stands for (None: none)."""
    if step is None:
        return None
    for i, line in enumerate(listing.lines):
        if step.kind in line.kinds:
            return i
    return None


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
        listing = LISTINGS.get(s.options.method)
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
        title = listing.title if listing else f"no pseudo-code for {self.state.options.method}"
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
