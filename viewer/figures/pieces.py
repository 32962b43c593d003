"""Piece images: the project's own SVG files rendered sharp at any size, loaded once
per size (pygame-ce's ``load_sized_svg``), with a drawn fallback if a file is
missing or cannot be read."""

from __future__ import annotations

import pygame

from logic.assets import asset_path

__all__ = ["PieceSet"]



class PieceSet:
    """Piece surfaces by symbol (``"K"``, ``"p"``, ...) and pixel size, cached."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int], pygame.Surface] = {}

    def get(self, symbol: str, size: int) -> pygame.Surface:
        """The image of piece ``symbol`` (python-chess letter) at ``size`` x ``size``."""
        key = (symbol, size)
        surf = self._cache.get(key)
        if surf is None:
            surf = self._load(symbol, size)
            if pygame.display.get_init() and pygame.display.get_surface() is not None:
                surf = surf.convert_alpha()
            if len(self._cache) > 96:  # old sizes after resizes
                self._cache.clear()
            self._cache[key] = surf
        return surf

    @staticmethod
    def _load(symbol: str, size: int) -> pygame.Surface:
        colour = "w" if symbol.isupper() else "b"
        path = asset_path(f"pieces/{colour}{symbol.upper()}.svg")
        try:
            surf = pygame.image.load_sized_svg(str(path), (size, size))
            if surf.get_size() != (size, size):  # SDL_image rounds the size up
                fixed = pygame.Surface((size, size), pygame.SRCALPHA)
                fixed.blit(surf, (0, 0))
                surf = fixed
            return surf
        except (pygame.error, FileNotFoundError, OSError, AttributeError):
            return _fallback(symbol, size)


def _fallback(symbol: str, size: int) -> pygame.Surface:
    """A disc with the piece letter, used when the SVG cannot be loaded."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    white = symbol.isupper()
    fill, ink = ((250, 250, 250), (0, 0, 0)) if white else ((20, 20, 20), (250, 250, 250))
    pygame.draw.circle(surf, fill, (size // 2, size // 2), size * 2 // 5)
    pygame.draw.circle(surf, (0, 0, 0), (size // 2, size // 2), size * 2 // 5, max(1, size // 24))
    font = pygame.font.Font(None, max(8, size // 2))
    text = font.render(symbol.upper(), True, ink)
    surf.blit(text, text.get_rect(center=(size // 2, size // 2)))
    return surf
