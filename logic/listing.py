"""A method's pseudo-code as data: the :class:`Listing` the viewer's Code pane shows, each
:class:`CodeLine` naming the step kinds it stands for (``Step.kind``, never a step's text),
so the line of the step being played is found by :func:`line_of`.

A method holds its listing (:attr:`logic.registry.Method.listing`; None: the pane shows the
step's facts and boards only).  This module is a leaf: it imports nothing of ``logic``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["CodeLine", "Listing", "line_of"]


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


def line_of(listing: Listing, step: Any) -> int | None:
    """The index of the line of ``listing`` that ``step`` (a :class:`~logic.steps.Step`, or
    None) stands for (None: none)."""
    if step is None:
        return None
    for i, line in enumerate(listing.lines):
        if step.kind in line.kinds:
            return i
    return None
