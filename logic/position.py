"""Parsing positions from user text (FEN or EPD lines) into ``chess.Board``.

Syntax errors raise :class:`PositionError` (a ``ValueError``) that echoes the
input; semantic problems (illegal positions, extra pieces) are not errors here:
``detect`` reports them in its verdict, as python-chess reports them through
``Board.status()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import chess

__all__ = ["PositionError", "parse_position", "parse_epd_line", "iter_epd"]


class PositionError(ValueError):
    """Text that is not a FEN/EPD position; the message quotes the input."""

    def __init__(self, text: str, problem: str) -> None:
        shown = text if len(text) <= 120 else text[:117] + "..."
        super().__init__(f"{problem}: {shown!r}")
        self.text = text
        self.problem = problem


def parse_position(text: str) -> chess.Board:
    """A board from a FEN (4 to 6 fields; missing side to move means White)."""
    return parse_epd_line(text)[0]


def parse_epd_line(text: str) -> tuple[chess.Board, dict[str, object]]:
    """``(board, operations)`` from an EPD line or a FEN; raises :class:`PositionError`."""
    if not isinstance(text, str):
        raise PositionError(repr(text), "not text")
    line = text.strip()
    if not line:
        raise PositionError(text, "empty position")
    fields = line.split()
    if len(fields) == 1:
        fields.append("w")
    if len(fields) == 2:
        fields += ["-", "-"]
    elif len(fields) == 3:
        fields.append("-")
    try:
        if len(fields) >= 5 and fields[4].isdigit() and (len(fields) == 5 or fields[5].isdigit()):
            board = chess.Board(" ".join(fields[:6]))
            return board, {}
        board = chess.Board()
        ops = board.set_epd(" ".join(fields))
    except (ValueError, IndexError) as exc:
        # "FEN; free comment" (common in hand-made EPD files): the position before
        # the first semicolon, with the comment kept as c0.
        head, sep, tail = line.partition(";")
        if sep and head.strip() != line:
            try:
                return parse_epd_line(head)[0], {"c0": tail.strip(" ;")}
            except PositionError:
                pass
        raise PositionError(text, f"not a FEN or EPD position ({exc})") from None
    return board, ops


def iter_epd(lines: Iterable[str]) -> Iterator[tuple[int, chess.Board | PositionError,
                                                     dict[str, object]]]:
    """``(line number, board, operations)`` for every line of an EPD/FEN file that is
    neither blank nor a ``#`` comment; a bad line gives its :class:`PositionError` in
    place of the board (and no operations), so readers choose to skip or report it."""
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            board, ops = parse_epd_line(line)
        except PositionError as exc:
            yield n, exc, {}
            continue
        yield n, board, ops
