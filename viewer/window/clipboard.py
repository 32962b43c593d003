"""Text clipboard: the system clipboard through SDL when a video driver offers one,
else an in-process clipboard (so copy/paste still works within the app)."""

from __future__ import annotations

import contextlib

import pygame

__all__ = ["put_text", "get_text"]

_local = {"text": ""}


def put_text(text: str) -> None:
    """Copy ``text``."""
    _local["text"] = text
    with contextlib.suppress(pygame.error, AttributeError, TypeError):
        pygame.scrap.put_text(text)


def get_text() -> str:
    """The clipboard's text ('' if empty)."""
    try:
        text = pygame.scrap.get_text()
        if text:
            return text
    except (pygame.error, AttributeError, TypeError):
        pass
    return _local["text"]
