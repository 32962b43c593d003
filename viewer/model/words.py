"""Bounded words: every string that reaches the screen from outside the program (a FEN
the user typed or pasted, a playlist's names and comments, an engine's message) goes
through :func:`bounded` first, so the renderer (SDL_ttf) and pygame_gui's text layout
never see unbounded text.  A leaf: it imports nothing of the viewer."""

from __future__ import annotations

__all__ = ["SHOWN", "OWN", "bounded", "esc"]

#: at most this many characters of one piece of outside text are shown
SHOWN = 200


def bounded(text: object, limit: int = SHOWN) -> str:
    """``text`` as one line of at most about ``limit`` characters: longer text is cut
    and ends with "…(N more)" (N characters left out); newlines become spaces and NUL
    (which no font renders) U+FFFD."""
    s = str(text)
    if len(s) > limit:
        s = f"{s[:limit]}…({len(s) - limit} more)"
    return s.replace("\r", " ").replace("\n", " ").replace("\0", "\ufffd")


def esc(text: object, limit: int = SHOWN) -> str:
    """``text`` bounded (``limit`` characters: outside text gets the default, the
    program's own words a larger one) and escaped for pygame_gui's HTML subset."""
    return bounded(text, limit).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: the bound of the program's own sentences (a verdict's reason, a step, a pawn note)
OWN = 2000
