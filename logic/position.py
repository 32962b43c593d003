"""Parsing positions from user text (FEN or EPD lines) into ``chess.Board``.

Syntax errors raise :class:`PositionError` (a ``ValueError``) that echoes the
input; semantic problems (illegal positions, extra pieces) are not errors here:
``detect`` reports them in its verdict, as python-chess reports them through
``Board.status()``.
"""

from __future__ import annotations

import errno
import gzip
import io
import os
import stat
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, TextIO, overload

import chess

__all__ = ["PositionError", "parse_position", "parse_epd_line", "iter_epd", "open_text",
           "bounded_lines", "EpdEntry", "read_epd", "read_positions", "MAX_LINE",
           "PositionFileError", "load_boards", "load_counted", "is_kp",
           "skipped_note", "read_playlist", "Playlist", "PlaylistCase", "CaseError",
           "MAX_PLAYLIST_BYTES", "SUSPECT_OPERANDS"]


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
        ops = {k: _plain(board, v) for k, v in board.set_epd(" ".join(fields)).items()}
    except (ValueError, IndexError) as exc:
        # "FEN; free comment" (common in hand-made EPD files): the position before
        # the first semicolon, with the comment kept as c0.
        head, sep, tail = line.partition(";")
        if sep and head.strip() != line:
            try:
                return parse_epd_line(head)[0], {"c0": tail.strip(" ;")}
            except PositionError:
                pass
        why = str(exc)  # python-chess's message quotes the whole input: cut it too
        why = why if len(why) <= 160 else why[:157] + "..."
        raise PositionError(text, f"not a FEN or EPD position ({why})") from None
    return board, ops


def _plain(board: chess.Board, value: object) -> object:
    """An EPD operand as plain data (JSON-ready): python-chess reads an unquoted operand
    that looks like a move (``id Kb1;``) as a ``Move``: a single move becomes its SAN
    (as written), a list of moves (``pv``, ``bm``) UCI strings."""
    if isinstance(value, chess.Move):
        return board.san(value) if board.is_legal(value) else value.uci()
    if isinstance(value, list):
        return [m.uci() if isinstance(m, chess.Move) else m for m in value]
    return value


def iter_epd(lines: Iterable[str]) -> Iterator[tuple[int, chess.Board | PositionError,
                                                     dict[str, object]]]:
    """``(line number, board, operations)`` for every line of an EPD/FEN file that is
    neither blank nor a ``#`` comment; a bad line gives its :class:`PositionError` in
    place of the board (and no operations), so readers choose to skip or report it.  A
    byte-order mark opening the first line (a file saved by some Windows editors, read
    from standard input) is dropped."""
    for n, line in enumerate(lines, 1):
        if n == 1:
            line = line.removeprefix("\ufeff")
        cut = line.rfind(_LONG)
        if cut >= 0:
            yield (n, *_long_line(line[:cut], int(line[cut + len(_LONG):])))
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        yield (n, *_parse_line(line))


def _parse_line(line: str) -> tuple[chess.Board | PositionError, dict[str, object]]:
    """One position line (not blank, not a comment) as ``(board, operations)``, or its
    :class:`PositionError` and no operations."""
    try:  # without its line ending, which an error would echo
        return parse_epd_line(line.rstrip("\r\n"))
    except PositionError as exc:
        return exc, {}


def _long_line(head: str, size: int) -> tuple[chess.Board | PositionError, dict[str, object]]:
    """A line cut by :func:`bounded_lines` after its first ``MAX_LINE`` characters (of
    ``size``): the position with the operations that are complete in ``head`` and a
    ``warning``, or an error naming the size."""
    note = f"line of {size:,} characters cut at {MAX_LINE:,}"
    for text in (head[:head.rfind(";") + 1], " ".join(head.split()[:4])):
        if not text.strip():
            continue
        try:
            board, ops = parse_epd_line(text)
        except PositionError:
            continue
        return board, {**ops, "warning": note}
    return PositionError(head[:80], f"not a FEN or EPD position ({note})"), {}


#: the longest line a reader accepts (characters); longer lines are cut and reported
MAX_LINE = 100_000
#: a reader gives up on a file after skipping this many characters of one line
_MAX_SKIP = 50_000_000


def open_text(path: str | Path) -> TextIO:
    """A regular text file for reading, plain or gzip (``.gz``), UTF-8 with undecodable
    bytes replaced (a stray byte never stops a reader) and a leading byte-order mark
    dropped.  Raises ``OSError`` naming the
    file, also for a directory, a FIFO or a device (which could block or never end)."""
    path = Path(path)
    _regular(path)
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig",
                                errors="replace")
    return open(path, encoding="utf-8-sig", errors="replace")


def _regular(path: Path) -> None:
    """Raise ``OSError`` naming ``path`` unless it is a regular file (a directory, a FIFO
    or a device could block a reader or never end)."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise OSError(errno.EINVAL, f"{kind}", str(path))


def bounded_lines(fh: TextIO, limit: int = MAX_LINE) -> Iterator[str]:
    """The lines of ``fh``, none much longer than ``limit`` characters: a longer line is
    cut after ``limit`` characters and marked, its rest skipped (a reader never holds an
    unbounded line in memory; :func:`iter_epd` keeps the position and reports the cut).
    After about 50 M characters of one line the reading stops with a ``ValueError``, as it
    does for a damaged ``.gz`` (cut short, not gzip at all)."""
    while True:
        line = _readline(fh, limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        size = len(line)
        while True:
            rest = _readline(fh, 1 << 20)
            size += len(rest)
            if not rest or rest.endswith("\n"):
                break
            if size > _MAX_SKIP:
                raise ValueError(f"a line longer than {_MAX_SKIP:,} characters: stopped reading")
        yield line[:limit] + _LONG + f"{size}\n"


_LONG = "\x00pawnfence-long-line:"


def _readline(fh: TextIO, size: int) -> str:
    """``fh.readline(size)`` with a damaged compressed stream as a ``ValueError``."""
    try:
        return fh.readline(size)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ValueError(f"damaged compressed file ({exc})") from None


class EpdEntry(NamedTuple):
    """One position line of an EPD/FEN file: its line number, the board (None for a
    bad line), its operations and, for a bad line, the :class:`PositionError`."""

    line: int
    board: chess.Board | None
    ops: dict[str, object]
    error: PositionError | None = None

    @property
    def name(self) -> str:
        """The line's ``id`` operation, else ``"line N"``."""
        return str(self.ops.get("id", f"line {self.line}"))


def read_epd(source: str | Path | Iterable[str]) -> Iterator[EpdEntry]:
    """Every position line of an EPD/FEN file (a path, plain or ``.gz``, or the lines
    themselves) as an :class:`EpdEntry`; bad lines come with their error, blank and
    ``#`` lines are skipped.  The one reader behind the CLI, playlists, the diagram
    library, the bench and experiment sets, the scan and the user's positions.
    Raises ``OSError`` if a path cannot be opened."""
    if isinstance(source, (str, Path)):
        with open_text(source) as fh:
            yield from read_epd(fh)
        return
    if hasattr(source, "readline"):
        source = bounded_lines(source)  # type: ignore[arg-type]
    for n, board, ops in iter_epd(source):
        if isinstance(board, PositionError):
            yield EpdEntry(n, None, {}, board)
        else:
            yield EpdEntry(n, board, ops)


def read_positions(source: str | Path | Iterable[str], *, kp_only: bool = False,
                   unique: bool = False) -> list[EpdEntry]:
    """The good lines of :func:`read_epd`; with ``kp_only`` only legal king-and-pawn
    boards, with ``unique`` each position (placement and side to move) once."""
    return [e for e in _sift(source, kp_only, unique) if e is not None]


#: what the operands of a scan's ``suspects.epd`` mean (:mod:`logic.tools.scan` writes
#: them; the viewer opens a case on its side and method and shows the rest)
SUSPECT_OPERANDS = {"c0": "category", "c1": "engine", "c2": "note", "c3": "side",
                    "c4": "method"}


class PlaylistCase(NamedTuple):
    """One case of a playlist: ``name`` (the line's ``id``, else "line N"), the ``fen``,
    the other operations as ``info`` and the case's ``line`` number in its file."""

    name: str
    fen: str
    info: dict[str, object]
    line: int


class CaseError(PositionError):
    """A playlist line that is not a position; the message names the file and the line
    ("suspects.epd line 17: not a FEN or EPD position (...): '...'")."""

    def __init__(self, source: str, line: int, error: PositionError) -> None:
        super().__init__(error.text, f"{source} line {line:,}: {error.problem}")
        self.source = source
        self.line = line


#: the largest playlist file read (bytes, after decompression)
MAX_PLAYLIST_BYTES = 1 << 30
#: how many parsed cases a :class:`Playlist` keeps
_KEPT_CASES = 256


class Playlist(Sequence[PlaylistCase]):
    """The positions of an EPD file for the viewer, read lazily.

    Building one finds the position lines (lines by ``\\n``; blank and ``#`` lines are not
    cases) without parsing any, so it costs a pass over the bytes whatever the file's
    size; a case is parsed when it is asked for (``playlist[i]``; the last few hundred
    are kept).  A line that is not a position is a case too: asking for it raises
    :class:`CaseError` (a ``ValueError``) naming the line.  :attr:`parsed` counts the
    parses made for ``playlist[i]``, :attr:`checked` those of :meth:`check`."""

    def __init__(self, data: bytes, source: str = "playlist") -> None:
        """``data``: the file's bytes (UTF-8; undecodable bytes are replaced, a leading
        byte-order mark dropped); ``source``: the file's name, for the messages."""
        skip = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        self.source = source
        #: the file's lines (counted by ``\\n``; a last line without one counts)
        self.lines = data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
        self._data = data
        self._starts = array("q")
        self._numbers = array("q")
        pos = skip
        for n, raw in enumerate((data[skip:] if skip else data).split(b"\n"), 1):
            head = raw.lstrip()
            if head and not head.startswith(b"#"):
                self._starts.append(pos)
                self._numbers.append(n)
            pos += len(raw) + 1
        self._kept: dict[int, PlaylistCase | CaseError] = {}
        self.parsed = 0
        self.checked = 0

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, i: int) -> PlaylistCase: ...

    @overload
    def __getitem__(self, i: slice) -> list[PlaylistCase]: ...

    def __getitem__(self, i: int | slice) -> PlaylistCase | list[PlaylistCase]:
        """Case ``i`` (parsed now unless kept); raises :class:`CaseError` for a line that
        is not a position and ``IndexError`` outside the playlist."""
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self))[i]  # negative indices; IndexError outside
        got = self._kept.get(k)
        if got is None:
            got = self._parse(k)
            self.parsed += 1
            if len(self._kept) >= _KEPT_CASES:
                del self._kept[next(iter(self._kept))]
            self._kept[k] = got
        if isinstance(got, CaseError):
            raise got
        return got

    def line_of(self, i: int) -> int:
        """The line number of case ``i`` in its file (no parsing)."""
        return self._numbers[i]

    def text(self, i: int) -> str:
        """Case ``i``'s line as written (without its line ending; no parsing)."""
        start = self._starts[i]
        end = self._data.find(b"\n", start)
        raw = self._data[start:end if end >= 0 else len(self._data)]
        return raw.decode("utf-8", errors="replace").rstrip("\r")

    def check(self, i: int) -> CaseError | None:
        """Parse case ``i`` without keeping it: its error, or None for a position (for
        a check of the whole file in the background; thread-safe: it reads only)."""
        self.checked += 1
        got = self._parse(i, board_only=True)
        return got if isinstance(got, CaseError) else None

    def _parse(self, i: int, *, board_only: bool = False) -> PlaylistCase | CaseError:
        line = self.text(i)
        if len(line) > MAX_LINE:
            board, ops = _long_line(line[:MAX_LINE], len(line))
        else:
            board, ops = _parse_line(line)
        n = self._numbers[i]
        if isinstance(board, PositionError):
            return CaseError(self.source, n, board)
        if board_only:
            return PlaylistCase("", "", {}, n)
        info = dict(ops)
        name = info.pop("id", f"line {n}")
        return PlaylistCase(str(name), board.fen(), info, n)


def read_playlist(path: str | Path) -> Playlist:
    """The positions of an EPD file (plain or ``.gz``) as a lazy :class:`Playlist`: the
    viewer's playlist, found without parsing a position.  Raises ``ValueError`` when it
    holds no position line, is damaged (``.gz``) or larger than
    :data:`MAX_PLAYLIST_BYTES`, and ``OSError`` when it cannot be read."""
    path = Path(path)
    _regular(path)
    try:
        with (gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")) as fh:
            data = fh.read(MAX_PLAYLIST_BYTES + 1)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ValueError(f"damaged compressed file ({exc})") from None
    if len(data) > MAX_PLAYLIST_BYTES:
        raise ValueError(f"{path} is larger than {MAX_PLAYLIST_BYTES:,} bytes")
    playlist = Playlist(data, path.name)
    if not playlist:
        raise ValueError(f"no positions in {path}")
    return playlist


def _sift(source: str | Path | Iterable[str], kp_only: bool, unique: bool
          ) -> Iterator[EpdEntry | None]:
    """Each position line of :func:`read_epd`: its entry when kept, None when skipped (a
    bad line, or with ``kp_only`` not a legal king-and-pawn board); a repeated position
    ``unique`` merges yields nothing."""
    seen: set[tuple[str, bool]] = set()
    for entry in read_epd(source):
        board = entry.board
        if board is None or kp_only and not is_kp(board):
            yield None
            continue
        if unique:
            key = (board.board_fen(), board.turn)
            if key in seen:
                continue
            seen.add(key)
        yield entry


class PositionFileError(ValueError):
    """A position file a command cannot use; the message names the file and the reason."""


def load_boards(path: str | Path, *, kp_only: bool = False, unique: bool = False
                ) -> list[chess.Board]:
    """The boards of :func:`read_positions` for a command: raises
    :class:`PositionFileError` ("cannot read FILE: ...", "no positions in FILE") instead
    of returning nothing or letting an ``OSError`` through."""
    return load_counted(path, kp_only=kp_only, unique=unique)[0]


def load_counted(path: str | Path, *, kp_only: bool = False, unique: bool = False
                 ) -> tuple[list[chess.Board], int]:
    """:func:`load_boards` and how many position lines it skipped: bad lines and, with
    ``kp_only``, boards that are not legal king-and-pawn positions (a repeated position
    ``unique`` merges is not counted).  Raises :class:`PositionFileError` likewise."""
    boards: list[chess.Board] = []
    skipped = 0
    try:
        for entry in _sift(path, kp_only, unique):
            if entry is None:
                skipped += 1
            else:
                boards.append(entry.board)  # type: ignore[arg-type]
    except (OSError, ValueError) as exc:
        raise PositionFileError(f"cannot read {path}: "
                                f"{getattr(exc, 'strerror', None) or exc}") from None
    if not boards:
        what = "legal king-and-pawn positions" if kp_only else "positions"
        raise PositionFileError(f"no {what} in {path}")
    return boards, skipped


def skipped_note(path: str | Path, skipped: int) -> str:
    """The one line a command prints about the ``skipped`` lines of ``path``
    (:func:`load_counted`); empty when none were."""
    if not skipped:
        return ""
    lines = "line" if skipped == 1 else "lines"
    return f"{path}: {skipped:,} {lines} skipped (not a legal king-and-pawn position)"


def is_kp(board: chess.Board) -> bool:
    """Whether ``board`` is a legal position of kings and pawns only."""
    return board.occupied == board.pawns | board.kings and board.is_valid()
