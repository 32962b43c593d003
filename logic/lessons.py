"""The positions of a lesson, from the sources a teacher has: FENs, diagrams of the
library, a playlist (an EPD file, e.g. a scan's ``suspects.epd``) -- each with the side
and the method it is about and a title.  ``pawnfence export --pgn`` (and any other
lesson writer) reads positions through :func:`lesson_positions`.

The side a position is about: a library diagram's is the side its stated verdicts name
(else the side with more pawns); a scan's suspect says its side and method (``c3``,
``c4``); a FEN's is the one asked for, or with ``"auto"`` the side with more pawns (White
when they have as many).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import chess

import logic
from logic.diagrams import Diagram, load_diagrams
from logic.position import parse_epd_line, read_playlist
from logic.vocab import Category

__all__ = ["LessonPosition", "lesson_positions", "diagram_focus", "pawn_side", "SIDE_CHOICES",
           "MAX_TITLE"]

#: the sides a position may be about on the command line
SIDE_CHOICES = ("auto", "white", "black")
#: the longest title (Lichess cuts a chapter's name at 80 characters)
MAX_TITLE = 80


@dataclass(frozen=True)
class LessonPosition:
    """One position of a lesson: its ``fen``, a ``title`` (at most :data:`MAX_TITLE`
    characters), the ``side`` under test (True: White), the ``method`` shown, a
    ``caption`` (the source's words, may be long) and where it came from (``source``:
    a diagram id, "FEN 2", "suspects.epd line 7")."""

    fen: str
    title: str
    side: bool
    method: str
    caption: str = ""
    source: str = ""

    def board(self) -> chess.Board:
        """A fresh board of the position."""
        return chess.Board(self.fen)


def _title(text: str) -> str:
    """``text`` on one line, at most :data:`MAX_TITLE` characters (cut at a word, "…")."""
    words = " ".join(text.split())
    if len(words) <= MAX_TITLE:
        return words
    cut = words[:MAX_TITLE - 1].rsplit(" ", 1)[0]
    return cut + "…"


def pawn_side(board: chess.Board) -> bool:
    """The side with more pawns (the side whose win is in question); White when equal."""
    w, b = (len(board.pieces(chess.PAWN, c)) for c in (chess.WHITE, chess.BLACK))
    return not b > w


def diagram_focus(d: Diagram) -> bool:
    """The side a library diagram is about: the side its stated verdicts name, else the
    side with more pawns."""
    exp = next((e for e in d.expect.values() if e is not None), None)
    return bool(exp.side) if exp is not None else pawn_side(d.board())


def _diagram_position(d: Diagram, method: str | None) -> LessonPosition:
    return LessonPosition(d.fen, _title(f"{d.id} · {d.source}" if d.source else d.id),
                          diagram_focus(d), method or logic.DEFAULT_METHOD, d.caption, d.id)


def _name(color: bool) -> str:
    return "White" if color else "Black"


def _side(side: str, board: chess.Board) -> bool:
    return pawn_side(board) if side == "auto" else side == "white"


def lesson_positions(*, fens: Sequence[str] = (), diagrams: Sequence[str] = (),
                     playlist: str | Path | None = None, side: str = "auto",
                     method: str | None = None) -> list[LessonPosition]:
    """The positions named: each FEN (``side``: ``"white"``, ``"black"`` or ``"auto"``),
    each diagram id (``"all"``: the whole library), each case of ``playlist``; with none
    of them the whole library.  ``method`` (None: the default, or a suspect's own)
    is the method each shows.  Raises ``ValueError`` naming a bad FEN, an unknown diagram
    or a playlist line that is not a position, ``OSError`` for a playlist that cannot be
    read."""
    if method is not None and method not in logic.METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(logic.METHODS)}")
    out: list[LessonPosition] = []
    for i, fen in enumerate(fens, 1):
        board, ops = parse_epd_line(fen)
        name = str(ops.get("id") or f"position {i}")
        color = _side(side, board)
        out.append(LessonPosition(board.fen(), _title(f"{name} ({_name(color)})"), color,
                                  method or logic.DEFAULT_METHOD, str(ops.get("c0", "")),
                                  f"FEN {i}"))
    out += _diagrams(diagrams, method, bool(fens or playlist))
    if playlist is not None:
        out += _playlist(playlist, side, method)
    return out


def _diagrams(ids: Iterable[str], method: str | None, others: bool) -> list[LessonPosition]:
    """The library's diagrams named by ``ids`` ("all": every one; none and no ``others``:
    every one); raises ``ValueError`` naming an unknown id and the known ones."""
    library = load_diagrams()
    by_id = {d.id: d for d in library}
    ids = list(ids)
    if not ids and not others or "all" in ids:
        return [_diagram_position(d, method) for d in library]
    unknown = [i for i in ids if i not in by_id]
    if unknown:
        raise ValueError(f"no diagram {unknown[0]!r}; known: {', '.join(by_id)}")
    return [_diagram_position(by_id[i], method) for i in ids]


def _playlist(path: str | Path, side: str, method: str | None) -> list[LessonPosition]:
    """Every case of the EPD file at ``path``: a scan's suspect on its own side and
    method, any other position on ``side``; raises ``ValueError`` naming a line that is
    not a position."""
    cases = read_playlist(path)
    out = []
    suspects = {c.value for c in Category}
    for i in range(len(cases)):
        case = cases[i]  # raises CaseError (a ValueError) naming the line
        board = parse_epd_line(case.fen)[0]
        info = case.info
        suspect = str(info.get("c0", "")) in suspects
        own_side = str(info.get("c3", "")).lower() if suspect else ""
        own_method = str(info.get("c4", "")).lower() if suspect else ""
        color = own_side == "white" if own_side in ("white", "black") else _side(side, board)
        chosen = own_method if own_method in logic.METHODS and method is None else method
        caption = str(info.get("c0", "")) + (f" — {info['c2']}" if suspect and info.get("c2")
                                             else "")
        out.append(LessonPosition(board.fen(), _title(f"{case.name} ({_name(color)})"), color,
                                  chosen or logic.DEFAULT_METHOD, caption,
                                  f"{cases.source} line {case.line}"))
    return out
