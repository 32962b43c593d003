"""Drawing the board, its overlays, the verdict banner and the legend.

``render_board`` is a pure function of (board, overlay, options) in the manner
of ``chess.svg.board()``: keyword options and a colours dict, no state beyond
the caches of pre-rendered tiles in :class:`Painter`.  The same code draws the
window, PNG/GIF exports and ``pawnfence render``.
"""

from __future__ import annotations

import chess
import pygame

from logic.pawns import PawnStructure
from viewer.overlay import EMPTY, Overlay
from viewer.pieces import PieceSet
from viewer.theme import COLOURS, KPK_LEGEND, LEGEND, RGB

__all__ = ["Painter", "square_at", "board_geometry", "display_format"]


def display_format(surface: pygame.Surface, alpha: bool = True) -> pygame.Surface:
    """``surface`` converted to the window's pixel format when a window exists (alpha
    blits of converted surfaces are several times faster); unchanged otherwise."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha() if alpha else surface.convert()
    return surface


def board_geometry(rect: pygame.Rect) -> tuple[int, int, int]:
    """``(left, top, square)`` of the 8x8 grid inside ``rect`` (a margin for coordinates)."""
    margin = max(14, rect.height // 36)
    sq = max(8, (min(rect.width, rect.height) - margin) // 8)
    left = rect.left + margin + (rect.width - margin - 8 * sq) // 2
    top = rect.top + (rect.height - margin - 8 * sq) // 2
    return left, top, sq


def square_at(rect: pygame.Rect, pos: tuple[int, int], flipped: bool) -> chess.Square | None:
    """The square under pixel ``pos`` of a board drawn in ``rect``, or None."""
    left, top, sq = board_geometry(rect)
    fx, fy = (pos[0] - left) // sq, (pos[1] - top) // sq
    if not (0 <= fx < 8 and 0 <= fy < 8):
        return None
    return chess.square(7 - fx, fy) if flipped else chess.square(fx, 7 - fy)


class Painter:
    """Draws boards; holds fonts, pieces and pre-rendered overlay tiles per size."""

    def __init__(self, colours: dict[str, RGB] | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.colours = {**COLOURS, **(colours or {})}
        self.pieces = PieceSet()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._tiles: dict[tuple[str, int], pygame.Surface] = {}
        self._cache: dict[tuple[object, ...], pygame.Surface] = {}  # text, legend, banner

    def _cached(self, key: tuple[object, ...], make) -> pygame.Surface:
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) > 256:
                self._cache.clear()
            surf = self._cache[key] = display_format(make())
        return surf

    # -- resources ---------------------------------------------------------
    def font(self, size: int) -> pygame.font.Font:
        """The default font at ``size`` pixels (cached)."""
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = pygame.font.Font(None, size)
        return f

    def _tile(self, kind: str, size: int) -> pygame.Surface:
        key = (kind, size)
        t = self._tiles.get(key)
        if t is not None:
            return t
        c = self.colours
        t = pygame.Surface((size, size), pygame.SRCALPHA)
        w = max(1, size // 28)
        if kind == "hatch":  # marked squares: diagonal hatch
            step = max(5, size // 6)
            for i in range(-size, size, step):
                pygame.draw.line(t, (*c["marked"], 230), (i, size), (i + size, 0), w + 1)
        elif kind == "dots":  # the king's side / flood
            t.fill((*c["below"], 70))
            step = max(6, size // 5)
            for y in range(step // 2, size, step):
                for x in range(step // 2, size, step):
                    pygame.draw.circle(t, (*c["below"], 220), (x, y), max(1, size // 36))
        elif kind == "fence":  # fence squares: cross-hatch and a thick border
            t.fill((*c["fence"], 60))
            step = max(6, size // 4)
            for i in range(-size, size, step):
                pygame.draw.line(t, (*c["fence"], 200), (i, 0), (i + size, size), w)
            pygame.draw.rect(t, c["fence"], t.get_rect(), max(2, size // 14))
        elif kind == "processed":
            t.fill((*c["processed"], 90))
        elif kind == "changed":
            pygame.draw.rect(t, c["changed"], t.get_rect(), max(3, size // 10))
            pygame.draw.rect(t, (0, 0, 0), t.get_rect().inflate(-2 * max(3, size // 10), -2 * max(
                3, size // 10)), 1)
        elif kind == "key":  # KPK key squares: purple frame and a K
            pygame.draw.rect(t, c["kpk"], t.get_rect().inflate(-size // 10, -size // 10),
                             max(2, size // 20), border_radius=size // 8)
            letter = self.font(max(12, size // 3)).render("K", True, c["kpk"])
            t.blit(letter, (size // 10 + 3, size // 10 + 1))
        elif kind == "kingmask":
            pygame.draw.rect(t, (*c["ok"], 200), t.get_rect().inflate(-size // 8, -size // 8),
                             max(1, size // 28))
        t = self._tiles[key] = display_format(t)
        return t

    def _badge(self, letter: str, ok: bool | None, size: int) -> pygame.Surface:
        key = (f"badge:{letter}:{ok}", size)
        t = self._tiles.get(key)
        if t is not None:
            return t
        c = self.colours
        d = max(12, size * 2 // 5)
        t = pygame.Surface((d, d), pygame.SRCALPHA)
        colour = c["fixed"] if ok is None else c["ok"] if ok else c["breaks"]
        pygame.draw.circle(t, colour, (d // 2, d // 2), d // 2)
        pygame.draw.circle(t, (0, 0, 0), (d // 2, d // 2), d // 2, max(1, d // 12))
        if ok is False:  # a breaking pawn also gets a dashed white ring
            pygame.draw.circle(t, (255, 255, 255), (d // 2, d // 2), d // 2 - max(2, d // 8), 1)
        text = self.font(int(d * 0.9)).render(letter, True, (255, 255, 255))
        t.blit(text, text.get_rect(center=(d // 2, d // 2 + 1)))
        t = self._tiles[key] = display_format(t)
        return t

    # -- drawing -----------------------------------------------------------
    def render_board(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        board: chess.Board,
        *,
        overlay: Overlay = EMPTY,
        flipped: bool = False,
        coordinates: bool = True,
        hide_square: chess.Square | None = None,
        structure: PawnStructure | None = None,
    ) -> None:
        """Draw ``board`` with ``overlay`` into ``rect`` of ``surface``.

        ``hide_square`` leaves one piece out (the one being dragged); ``structure``
        (a :class:`logic.pawns.PawnStructure`) draws the pawn-structure layer.
        """
        left, top, sq = board_geometry(rect)

        def topleft(s: int) -> tuple[int, int]:
            f, r = chess.square_file(s), chess.square_rank(s)
            if flipped:
                f, r = 7 - f, 7 - r
            return left + f * sq, top + (7 - r) * sq

        surface.blit(self._squares(sq, flipped, coordinates), (left - sq, top))
        self._regions(surface, overlay, topleft, sq, flipped)
        if structure is not None:
            self._structure(surface, structure, topleft, sq, left, top, flipped)
        for s, piece in board.piece_map().items():
            if s != hide_square:
                surface.blit(self.pieces.get(piece.symbol(), sq), topleft(s))
        self._marks(surface, overlay, board, topleft, sq)

    def _tiles_on(self, surface, bb: int, kind: str, topleft, sq: int) -> None:
        if bb:
            tile = self._tile(kind, sq)
            for s in chess.scan_forward(bb):
                surface.blit(tile, topleft(s))

    def _regions(self, surface, overlay: Overlay, topleft, sq: int, flipped: bool) -> None:
        """What lies under the pieces: regions, hatches, the fence and the DFS path."""
        c = self.colours
        for bb, kind in ((overlay.below & ~overlay.fence, "dots"),
                         (overlay.processed, "processed"),
                         (overlay.marked & ~overlay.fence, "hatch"),
                         (overlay.fence, "fence"),
                         (overlay.king_mask, "kingmask")):
            self._tiles_on(surface, bb, kind, topleft, sq)
        if overlay.kpk_square:
            self._region_edge(surface, overlay.kpk_square, topleft, sq, c["kpk"],
                              max(3, sq // 14), flipped)
        self._tiles_on(surface, overlay.kpk_keys, "key", topleft, sq)
        if overlay.fence:
            self._links(surface, overlay.fence, topleft, sq, c["fence"], max(3, sq // 9))
        if overlay.path:
            self._links(surface, overlay.path, topleft, sq, c["path"], max(3, sq // 10))

    def _marks(self, surface, overlay: Overlay, board: chess.Board, topleft, sq: int) -> None:
        """What lies on the pieces: badges, removed-pawn crosses, changed squares."""
        c = self.colours
        badges = [(s, "F", None) for s in chess.scan_forward(overlay.fixed & board.pawns)]
        badges += [(s, letter, ok) for s, (letter, ok) in overlay.badges.items()]
        for s, letter, ok in badges:
            x, y = topleft(s)
            b = self._badge(letter, ok, sq)
            surface.blit(b, (x + sq - b.get_width() - 1, y + 1))
        w = max(3, sq // 10)
        for s in chess.scan_forward(overlay.removed):
            x, y = topleft(s)
            pygame.draw.line(surface, c["removed"], (x + sq // 6, y + sq // 6),
                             (x + sq * 5 // 6, y + sq * 5 // 6), w)
            pygame.draw.line(surface, c["removed"], (x + sq * 5 // 6, y + sq // 6),
                             (x + sq // 6, y + sq * 5 // 6), w)
        self._tiles_on(surface, overlay.changed, "changed", topleft, sq)

    def _squares(self, sq: int, flipped: bool, coordinates: bool) -> pygame.Surface:
        """The empty board with its frame and coordinates (transparent margins), cached."""

        def make() -> pygame.Surface:
            c = self.colours
            surf = pygame.Surface((10 * sq, 8 * sq + sq))
            surf.fill(c["background"])
            for f in range(8):
                for r in range(8):
                    colour = c["square_light"] if (f + r) % 2 else c["square_dark"]
                    x = (7 - f if flipped else f) + 1
                    y = r if flipped else 7 - r
                    surf.fill(colour, (x * sq, y * sq, sq, sq))
            pygame.draw.rect(surf, (20, 20, 20), (sq - 1, 0, 8 * sq + 2, 8 * sq + 1), 1)
            if coordinates:
                font = self.font(max(12, sq // 4))
                for i in range(8):
                    f = 7 - i if flipped else i
                    t = font.render(chess.FILE_NAMES[f], True, c["coord"])
                    surf.blit(t, t.get_rect(midtop=(sq + i * sq + sq // 2, 8 * sq + 1)))
                    r = i if flipped else 7 - i
                    t = font.render(chess.RANK_NAMES[r], True, c["coord"])
                    surf.blit(t, t.get_rect(midright=(sq - 3, i * sq + sq // 2)))
            return surf

        key = ("squares", sq, flipped, coordinates)
        surf = self._cache.get(key)
        if surf is None:
            surf = self._cache[key] = display_format(make(), alpha=False)
        return surf

    @staticmethod
    def _region_edge(surface, bb, topleft, sq, colour, width, flipped=False) -> None:
        """The outline of the region ``bb`` (edges between a member and a non-member)."""
        sign = -1 if flipped else 1
        for s in chess.scan_forward(bb):
            x, y = topleft(s)
            f, r = s & 7, s >> 3
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nf, nr = f + df, r + dr
                if 0 <= nf < 8 and 0 <= nr < 8 and bb >> (nr * 8 + nf) & 1:
                    continue
                dx, dy = df * sign, -dr * sign  # screen direction of the neighbour
                if dx:
                    ex = x + sq if dx > 0 else x
                    pygame.draw.line(surface, colour, (ex, y), (ex, y + sq), width)
                else:
                    ey = y + sq if dy > 0 else y
                    pygame.draw.line(surface, colour, (x, ey), (x + sq, ey), width)

    @staticmethod
    def _links(surface, bb, topleft, sq, colour, width) -> None:
        """Thick segments between the centres of 4-adjacent squares of ``bb``."""
        for s in chess.scan_forward(bb):
            x, y = topleft(s)
            a = (x + sq // 2, y + sq // 2)
            pygame.draw.circle(surface, colour, a, width)
            for n in (s + 1 if s & 7 != 7 else -1, s + 8 if s < 56 else -1):
                if n >= 0 and bb >> n & 1:
                    nx, ny = topleft(n)
                    pygame.draw.line(surface, colour, a, (nx + sq // 2, ny + sq // 2), width)

    def _structure(self, surface, st: PawnStructure, topleft, sq, left, top, flipped) -> None:
        """Pawn-structure layer, read from the structure's bitboards: file tags above the
        board, tags on pawns."""
        font = self.font(max(13, sq // 4))
        tags = (("open", st.open_files), ("½ open W", st.white.half_open_files),
                ("½ open B", st.black.half_open_files), ("closed", st.closed_files))
        for word, bb in tags:
            for f in range(8):
                if not bb & chess.BB_FILES[f]:
                    continue
                i = 7 - f if flipped else f
                t = self._cached(("pill", word, font.get_height()),
                                 lambda word=word: self._pill(word, font))
                surface.blit(t, t.get_rect(midbottom=(left + i * sq + sq // 2, top - 2)))
        for side in (st.white, st.black):
            for word, bb, dy in (("R", side.rams, 0), ("L", side.levers, 1),
                                 ("bw", side.backward, 2), ("S", side.stragglers, 2)):
                for s in chess.scan_forward(bb):
                    x, y = topleft(s)
                    t = self._cached(("pill", word, font.get_height()),
                                     lambda word=word: self._pill(word, font))
                    surface.blit(t, (x + 1, y + sq - (dy + 1) * t.get_height() - 1))

    def render_arrows(self, surface: pygame.Surface, rect: pygame.Rect, moves: list[str], *,
                      flipped: bool = False, colour: RGB = (0, 114, 178)) -> None:
        """Arrows for UCI ``moves`` (a principal variation) on a board drawn in ``rect``."""
        left, top, sq = board_geometry(rect)

        def centre(s: int) -> tuple[float, float]:
            f, r = chess.square_file(s), chess.square_rank(s)
            if flipped:
                f, r = 7 - f, 7 - r
            return left + f * sq + sq / 2, top + (7 - r) * sq + sq / 2

        width = max(4, sq // 9)
        for uci in moves:
            try:
                move = chess.Move.from_uci(uci)
            except ValueError:
                continue
            (x0, y0), (x1, y1) = centre(move.from_square), centre(move.to_square)
            dx, dy = x1 - x0, y1 - y0
            length = max(1.0, (dx * dx + dy * dy) ** 0.5)
            ux, uy = dx / length, dy / length
            head = sq * 0.35
            bx, by = x1 - ux * head, y1 - uy * head
            pygame.draw.line(surface, colour, (x0, y0), (bx, by), width)
            px, py = -uy * head * 0.6, ux * head * 0.6
            pygame.draw.polygon(surface, colour, [(x1, y1), (bx + px, by + py),
                                                  (bx - px, by - py)])

    def _pill(self, word: str, font: pygame.font.Font) -> pygame.Surface:
        text = font.render(word, True, (255, 255, 255))
        pill = pygame.Surface((text.get_width() + 8, text.get_height() + 2), pygame.SRCALPHA)
        pygame.draw.rect(pill, self.colours["structure"], pill.get_rect(), border_radius=5)
        pygame.draw.rect(pill, (0, 0, 0), pill.get_rect(), 1, border_radius=5)
        pill.blit(text, (4, 1))
        return pill

    def render_banner(self, surface: pygame.Surface, rect: pygame.Rect, text: str, sub: str,
                      kind: str) -> None:
        """The verdict banner: a coloured bar with an icon letter, a headline and a sub-line."""
        surf = self._cached(("banner", text, sub, kind, rect.size),
                            lambda: self._make_banner(rect.size, text, sub, kind))
        surface.blit(surf, rect)

    def _make_banner(self, size: tuple[int, int], text: str, sub: str,
                     kind: str) -> pygame.Surface:
        c = self.colours
        rect = pygame.Rect((0, 0), size)
        surface = pygame.Surface(size, pygame.SRCALPHA)
        colour = {"blocked": c["banner_blocked"], "open": c["banner_open"]}.get(kind,
                                                                              c["banner_na"])
        pygame.draw.rect(surface, c["panel"], rect, border_radius=6)
        pygame.draw.rect(surface, colour, (rect.left, rect.top, 10, rect.height),
                         border_top_left_radius=6, border_bottom_left_radius=6)
        icon = {"blocked": "½", "open": "!"}.get(kind, "?")
        r = max(9, rect.height * 3 // 10)
        centre = (rect.left + 18 + r, rect.centery)
        pygame.draw.circle(surface, colour, centre, r)
        t = self.font(max(16, r * 3 // 2)).render(icon, True, (0, 0, 0))
        surface.blit(t, t.get_rect(center=(centre[0], centre[1] + 1)))
        x = centre[0] + r + 10
        head = self.fit(text, max(16, rect.height * 9 // 20), rect.right - x - 8)
        surface.blit(head, (x, rect.top + 4))
        small = self.fit(sub, max(13, rect.height * 6 // 20), rect.right - x - 8, c["muted"])
        surface.blit(small, (x, rect.bottom - small.get_height() - 4))
        return surface

    def fit(self, text: str, size: int, width: int, colour: RGB | None = None) -> pygame.Surface:
        """``text`` rendered at ``size``, shrunk (then cut) to fit ``width`` pixels (cached)."""
        colour = colour or self.colours["text"]
        return self._cached(("fit", text, size, width, colour),
                            lambda: self._make_fit(text, size, width, colour))

    def _make_fit(self, text: str, size: int, width: int, colour: RGB) -> pygame.Surface:
        floor = max(15, size * 3 // 4)
        while size > floor and self.font(size).size(text)[0] > width:
            size -= 1
        while len(text) > 4 and self.font(size).size(text)[0] > width:
            text = text[:-2].rstrip() + "…"
        return self.font(size).render(text, True, colour)

    def render_legend(self, surface: pygame.Surface, rect: pygame.Rect, *,
                      structure: bool = False, kpk: bool = False) -> None:
        """The always-visible legend (cached per size); ``structure`` adds the layer's key,
        ``kpk`` the KPK overlays."""
        surf = self._cached(("legend", rect.size, structure, kpk),
                            lambda: self._make_legend(rect.size, structure, kpk))
        surface.blit(surf, rect)

    def _make_legend(self, size: tuple[int, int], structure: bool,
                     kpk: bool = False) -> pygame.Surface:
        c = self.colours
        surface = pygame.Surface(size, pygame.SRCALPHA)
        if structure:
            key = ("pawn structure: R ram · L lever · bw backward · S straggler; "
                   "files open / closed / ½ open (half-open for W or B)")
            line = self.fit(key, 18, size[0], c["structure"])
            surface.blit(line, (0, size[1] - line.get_height()))
            size = (size[0], size[1] - line.get_height() - 2)
        rect = pygame.Rect((0, 0), size)
        items = LEGEND + (KPK_LEGEND if kpk else ())
        columns = 3 if rect.width >= 600 else 2
        col_w = rect.width // columns
        per_col = -(-len(items) // columns)
        size = max(11, min(18, rect.height // per_col - 6))
        font = self.font(size)
        sw = size + 4
        for i, item in enumerate(items):
            x = rect.left + (i // per_col) * col_w
            y = rect.top + (i % per_col) * (size + 6)
            swatch = pygame.Rect(x, y, sw, sw - 4)
            surface.fill(c["square_light"], swatch)
            if item.style == "hatch":
                surface.blit(self._tile("hatch", sw), swatch, (0, 0, sw, sw - 4))
            elif item.style == "fence":
                surface.blit(self._tile("fence", sw), swatch, (0, 0, sw, sw - 4))
            elif item.style == "dots":
                surface.blit(self._tile("dots", sw), swatch, (0, 0, sw, sw - 4))
            elif item.style == "outline" or item.style == "edge":
                pygame.draw.rect(surface, c[item.colour], swatch, 3)
            elif item.style == "key":
                surface.blit(self._tile("key", sw), swatch, (0, 0, sw, sw - 4))
            elif item.style == "thin":
                pygame.draw.rect(surface, c[item.colour], swatch.inflate(-4, -4), 2)
            elif item.style == "cross":
                pygame.draw.line(surface, c[item.colour], swatch.topleft, swatch.bottomright, 3)
                pygame.draw.line(surface, c[item.colour], swatch.topright, swatch.bottomleft, 3)
            elif item.style == "badge":
                pygame.draw.rect(surface, c[item.colour], swatch, border_radius=sw // 2)
                t = font.render(item.letter[0], True, (255, 255, 255))
                surface.blit(t, t.get_rect(center=swatch.center))
            label = item.text if item.style != "badge" else f"{item.letter}: {item.text}"
            surface.blit(self.fit(label, size, col_w - sw - 12), (x + sw + 6, y))
        return surface
