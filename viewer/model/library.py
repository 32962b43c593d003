"""The library pane's entries in words (without pygame): each a title and a second line
that tells it from its neighbours.

Five diagrams of the paper open with "The fence line is a4-b4-c4-d4-e4-f4-g4-h4.": one
line each, cut to the list's width, they read alike.  An entry whose caption opens with
a sentence another entry's shares has what its caption says after it as its second line
("The f5-pawn is stopped by the black king …"), then the material and the side to move;
any other entry has the material, the side to move and where the kings stand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from logic.diagrams import Diagram

__all__ = ["LibraryEntry", "library_entries", "first_sentence", "position_note",
           "MINE_LISTED"]


class LibraryEntry(NamedTuple):
    """One line of the library: ``title`` ("paper-9: The fence line is …"), ``note``
    (its second line) and ``target`` (``("diagram", id)`` or ``("mine", name)``)."""

    title: str
    note: str
    target: tuple[str, str]


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to and with its first ". "), or "" when it has
    one sentence only."""
    head, sep, _rest = text.partition(". ")
    return head + "." if sep else ""


def position_note(fen: str, tail: str = "") -> str:
    """A position in a few words: "5 v 4 pawns · White to move" after ``tail`` or, without
    one, followed by the kings' squares ("kings d1, e8")."""
    fields = fen.split()
    placement = fields[0] if fields else ""
    white, black = placement.count("P"), placement.count("p")
    turn = "Black" if len(fields) > 1 and fields[1] == "b" else "White"
    parts = [f"{white} v {black} pawns", f"{turn} to move"]
    if tail:
        return " · ".join([tail, *parts])
    kings = _kings(placement)
    if kings:
        parts.append("kings " + ", ".join(kings))
    return " · ".join(parts)


def _kings(placement: str) -> list[str]:
    """The squares of the white and the black king in a FEN's placement field."""
    found: dict[str, str] = {}
    for r, row in enumerate(placement.split("/")[:8]):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            if ch in "Kk" and f < 8:
                found[ch] = "abcdefgh"[f] + str(8 - r)
            f += 1
    return [found[k] for k in "Kk" if k in found]


#: the most of the user's own positions the library lists (the newest); the whole list
#: opens as a playlist
MINE_LISTED = 300


def library_entries(diagrams: Sequence[Diagram], mine: Sequence[tuple[str, str]], *,
                    loading: bool = False) -> list[LibraryEntry]:
    """The library's entries: the diagrams, then the user's own positions
    (``(name, fen)``; the newest :data:`MINE_LISTED`, after an entry that opens them all
    as a playlist when there are more), each with its second line (see the module);
    ``loading``: the user's list is still being read (an entry says so)."""
    shared = Counter(first_sentence(d.caption) for d in diagrams)
    out = []
    for d in diagrams:
        head = first_sentence(d.caption)
        tail = d.caption[len(head):].strip() if head and shared[head] > 1 else ""
        out.append(LibraryEntry(f"{d.id}: {d.caption}", position_note(d.fen, tail),
                                ("diagram", d.id)))
    if loading:
        out.append(LibraryEntry("mine: loading my positions …",
                                "they are listed here once they are read", ("", "")))
    if len(mine) > MINE_LISTED:
        out.append(LibraryEntry(f"mine: all {len(mine):,} as a playlist …",
                                f"the newest {MINE_LISTED} are listed below",
                                ("all-mine", "")))
        mine = mine[-MINE_LISTED:]
    out += [LibraryEntry(f"mine: {name}", position_note(fen), ("mine", name))
            for name, fen in mine]
    return out
