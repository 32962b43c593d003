"""What the machine's display allows the window: whether one can open
(:func:`has_display`, and once the display has started :func:`unasked_headless`), the
size to open it at (:func:`window_size`), and waking the loop from a worker thread
(:data:`WAKE`, :func:`wake`)."""

from __future__ import annotations

import contextlib
import os

import pygame

from viewer.window.layout import MIN_SIZE

__all__ = ["has_display", "unasked_headless", "HEADLESS_DRIVERS", "window_size", "wake",
           "WAKE", "MAX_SIDE"]

#: the largest window side the viewer opens (larger requests are clamped)
MAX_SIDE = 16384
#: posted by a background job (the analysis, the exact prover, a GIF being encoded) when
#: it has something to show: wakes an idle window
WAKE = pygame.event.custom_type()


def has_display() -> bool:
    """Whether a window can be opened (an X/Wayland display, another OS, or a forced
    SDL video driver)."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if os.name != "posix" or os.uname().sysname == "Darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


#: SDL's video drivers that show nothing: SDL falls back to them when no display answers
HEADLESS_DRIVERS = ("offscreen", "dummy")


def unasked_headless(requested: str | None = None) -> str:
    """The name of the headless video driver the started display runs on when the user
    did not ask for it ("" otherwise).  SDL falls back to ``offscreen`` when the X server
    named by ``DISPLAY`` cannot be reached (none there, a dead Xvfb, a stale ssh
    display): the window would then be invisible.  ``requested`` is the
    ``SDL_VIDEODRIVER`` the user set (default: the environment's), a driver name or a
    comma-separated list; naming the driver there allows it (tests, the bench)."""
    if not pygame.display.get_init():
        return ""
    try:
        driver = pygame.display.get_driver()
    except pygame.error:
        return ""
    if driver not in HEADLESS_DRIVERS:
        return ""
    if requested is None:
        requested = os.environ.get("SDL_VIDEODRIVER", "")
    asked = {name.strip().lower() for name in requested.split(",")}
    return "" if driver in asked else driver


def window_size(requested: tuple[int, int], explicit: bool) -> tuple[int, int]:
    """The window size to open: at least :data:`MIN_SIZE`, at most :data:`MAX_SIDE`, and
    a remembered (not ``explicit``) size no larger than the desktop."""
    w, h = (max(lo, min(MAX_SIDE, int(v))) for lo, v in zip(MIN_SIZE, requested, strict=True))
    if not explicit:
        try:
            dw, dh = pygame.display.get_desktop_sizes()[0]
        except (pygame.error, IndexError):
            dw = dh = 0
        if dw >= MIN_SIZE[0] and dh >= MIN_SIZE[1]:
            w, h = min(w, dw), min(h, dh)
    return w, h


def wake() -> None:
    """Wake the loop (called from a worker thread; posting an event is thread-safe)."""
    if pygame.display.get_init():
        with contextlib.suppress(pygame.error):
            pygame.event.post(pygame.event.Event(WAKE))
