"""The named records a static detector produces (no logic here).

A *static* method (paper, flood) splits its work in two, as the paper's pawn hash
does (paper 4): a king-independent :class:`Structure` computed once per pawn
structure and cached, and a cheap decision from the kings' squares.  Everything is
oriented: the side under test plays White (Black is White on the flipped board).

Records are built and read by name; the measured hot paths that build or unpack them
positionally say so where they do.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import chess

from logic.vocab import Code, NoteCategory, Rule

__all__ = ["Boards", "Note", "NoteSeed", "Structure", "NO_BOARDS", "StoredNotes"]


class Boards(NamedTuple):
    """The oriented bitboards of an analysis: White's fixed pawns (2.2), the marked
    squares (2.2; the ram fence for flood), the fence, the king's side below it, the
    black pawns removed below it (3), the flood region (wiki), the pawns it drowned
    and the squares the defending king must stand on (3.1, 3.4; all squares when
    there is no such requirement)."""

    fixed: int
    marked: int
    fence: int
    below: int
    removed: int
    flood: int
    drowned: int
    kmask: int


#: the boards of a side with no pawns (nothing to draw)
NO_BOARDS = Boards(0, 0, 0, 0, 0, 0, 0, 0)


class Note(NamedTuple):
    """How one dynamic pawn of the side under test was judged (oriented squares).

    ``category`` is ``"above"``, ``"on"``, ``"below"`` (the fence) or
    ``"fence-lever"`` (wiki: a fence pawn that can capture); ``ok`` is True when the
    pawn cannot break the blockage by the structure alone; ``rule`` the deciding
    section; ``code`` names the case for the explanation; ``target`` the square the
    pawn is stopped on or reaches (or None); ``kmask`` the squares the defending king
    must stand on for the pawn to be held (or None: no king requirement)."""

    square: int
    category: NoteCategory
    ok: bool
    rule: Rule
    code: str
    target: int | None
    kmask: int | None


class NoteSeed(NamedTuple):
    """What a paper verdict's pawn notes are read from, on demand: the oriented white
    pawns, the black pawns left after removal (paper 3), White's fixed pawns, the black
    pawns' attacks, the fence and the fence with everything below it."""

    w: int
    bp: int
    fixed: int
    b_att: int
    fence: int
    sf: int


#: what a record stores of its pawn notes: the notes, or what the method decodes them from
StoredNotes = tuple[Note, ...] | NoteSeed


class Structure(NamedTuple):
    """The king-independent analysis of one pawn structure by a static method.

    ``fail_rule``/``code``/``args``: the first failure that holds whatever the kings
    (``fail_rule`` None when there is none; ``code`` then :attr:`~logic.vocab.SharedCode.NONE`,
    ``""``); a ``code`` in the
    method's structural failures ends the analysis before the kings are looked at.
    ``boards``: the analysis's bitboards; ``notes``: the pawn notes, or an object the
    method decodes them from on demand; ``kmask``: where the defending king must
    stand; ``used``: the most specific section a blockage rests on (None for a structure
    that fails whatever the kings); ``guard``: the
    squares the defending king cannot step to because of the pawns (2.3 zugzwang).
    """

    fail_rule: Rule | None
    code: Code
    args: tuple[Any, ...]
    boards: Boards
    notes: StoredNotes
    kmask: int
    used: Rule | None
    guard: int


def structure(fail_rule: Rule | None, code: Code, args: tuple[Any, ...],
              boards: tuple[int, ...], notes: StoredNotes = (), kmask: int = chess.BB_ALL,
              used: Rule | None = None, guard: int = 0) -> Structure:
    """A :class:`Structure` with named boards (the slow-path constructor)."""
    return Structure(fail_rule=fail_rule, code=code, args=args, boards=Boards(*boards),
                     notes=notes, kmask=kmask, used=used, guard=guard)
