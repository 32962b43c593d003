"""Games from PGN files (plain or ``.gz``), walked move by move: the reader behind
``pawnfence --pgn``, the window's Open dialog and ``pawnfence explain --game``.

A :class:`GameFile` finds its games without parsing one (a pass over the bytes: a game
starts at a tag line after a blank line that follows movetext, the way Lichess splits
a study import); a game is parsed when it is asked for (``games[i]``, the last few
hundred kept) into a :class:`GameRecord`: its tags, its start position and its main line
as UCI and SAN.

Bad input never stops the file: a game that cannot be walked at all (a broken ``FEN``
tag, another variant, a game larger than :data:`MAX_GAME_BYTES`) raises
:class:`GameError` when asked for, naming the file and the game, and every other game
stays usable; a game that can be walked in part keeps its problems as ``notes``, each
naming the game and the move (an illegal or cut move: the game stops before it;
variations: the main line is walked; no moves: its start position; not UTF-8: read as
Latin-1, PGN's own encoding; more than :data:`MAX_PLIES` plies: cut there).  Every error
is a ``ValueError`` subclass that echoes the input (bounded).
"""

from __future__ import annotations

import errno
import gzip
import io
import os
import re
import stat
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

import chess
import chess.pgn

__all__ = ["PgnError", "GameError", "GameRecord", "GameFile", "read_games", "parse_games",
           "is_pgn_name", "MAX_PGN_BYTES", "MAX_GAME_BYTES", "MAX_PLIES", "game_boards",
           "first_proved"]

#: the largest PGN file read (bytes, after decompression)
MAX_PGN_BYTES = 1 << 30
#: the largest game parsed (bytes of its text); a larger one is a :class:`GameError`
MAX_GAME_BYTES = 4 << 20
#: the most plies of a game walked; a longer game is cut there (with a note)
MAX_PLIES = 2000
#: how many parsed games a :class:`GameFile` keeps
_KEPT = 256
#: the most characters of a comment kept for showing
_COMMENT = 400
#: the most characters of the input an error echoes
_ECHO = 80

#: a game's first tag line: after a blank line (or two) that follows the game before
_SPLIT = re.compile(rb"\n((?:[ \t\r]*\n)+)(?=[ \t]*\[)")
#: a line of movetext (not blank, not a tag, not a ``%`` escape or a ``;`` comment)
_MOVETEXT = re.compile(rb"(?m)^[ \t]*[^\s\[%;]")
#: Lichess's and ChessBase's commands inside comments (``[%csl ...]``, ``[%clk ...]``)
_COMMANDS = re.compile(r"\[%[^\]]*\]")


def _shown(text: str) -> str:
    """``text`` as an error echoes it: at most :data:`_ECHO` characters."""
    text = text.strip()
    return text if len(text) <= _ECHO else text[:_ECHO - 1] + "…"


class PgnError(ValueError):
    """A PGN file that cannot be read; the message names the file and echoes the input
    (bounded) when there is some."""

    def __init__(self, source: str, problem: str, text: str = "") -> None:
        echo = f": {_shown(text)!r}" if text else ""
        super().__init__(f"{source}: {problem}{echo}")
        self.source, self.problem, self.text = source, problem, text


class GameError(PgnError):
    """One game of a PGN file that cannot be walked; the message names the file and the
    game ("games.pgn game 9: ..."); the file's other games are unaffected."""

    def __init__(self, source: str, game: int, problem: str, text: str = "") -> None:
        super().__init__(f"{source} game {game}", problem, text)
        self.game = game


def is_pgn_name(path: str | Path) -> bool:
    """Whether ``path`` names a PGN file (``.pgn``, ``.pgn.gz``, any case)."""
    name = Path(path).name.lower()
    return name.endswith(".pgn") or name.endswith(".pgn.gz")


@dataclass(frozen=True)
class GameRecord:
    """One game of a PGN file, ready to walk.

    ``number``: its place in the file (1 = the first); ``source``: the file's name;
    ``tags``: its tag pairs in file order; ``root``: the FEN of its start position;
    ``moves`` / ``sans``: its main line (the legal prefix) in UCI and SAN; ``comments``:
    the comment after each move (``""`` where none; commands such as ``[%clk]`` left
    out); ``notes``: what could not be walked as written, each naming the game and the
    move.  Position ``k`` (``0 <= k <= plies``) is the one after ``k`` moves."""

    number: int
    source: str
    tags: tuple[tuple[str, str], ...]
    root: str
    moves: tuple[str, ...]
    sans: tuple[str, ...]
    comments: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def plies(self) -> int:
        """How many moves the main line has."""
        return len(self.moves)

    def tag(self, name: str, default: str = "") -> str:
        """The value of tag ``name`` (``default`` when missing or ``"?"``)."""
        for key, value in self.tags:
            if key == name and value.strip() not in ("", "?"):
                return value
        return default

    @property
    def name(self) -> str:
        """"game N of FILE" (how messages name it)."""
        return f"{self.source} game {self.number}"

    @property
    def title(self) -> str:
        """"White – Black, Event Site Year" from its tags, or "game N"."""
        players = " – ".join(p for p in (self.tag("White"), self.tag("Black")) if p)
        year = self.tag("Date")[:4].strip("?.")
        where = " ".join(x for x in (self.tag("Event"), self.tag("Site"), year) if x)
        if players and where:
            return f"{players}, {where}"
        return players or where or f"game {self.number}"

    def board_at(self, ply: int) -> chess.Board:
        """The position after ``ply`` moves (clamped to the game), with its move stack."""
        board = chess.Board(self.root)
        for uci in self.moves[:max(0, min(ply, self.plies))]:
            board.push(chess.Move.from_uci(uci))
        return board

    def move_label(self, ply: int) -> str:
        """How move ``ply`` (1 = the first) is written with its number: "23...Kxd8",
        "24. g4"; "start" for ply 0."""
        if ply <= 0 or ply > self.plies:
            return "start"
        root = chess.Board(self.root)
        index = ply - 1 + (0 if root.turn == chess.WHITE else 1)
        number = root.fullmove_number + index // 2
        dots = ". " if index % 2 == 0 else "..."
        return f"{number}{dots}{self.sans[ply - 1]}"


def game_boards(record: GameRecord) -> list[chess.Board]:
    """Every position of ``record``'s main line, from the start (``plies + 1`` boards,
    each without its move stack)."""
    board = chess.Board(record.root)
    out = [board.copy(stack=False)]
    for uci in record.moves:
        board.push(chess.Move.from_uci(uci))
        out.append(board.copy(stack=False))
    return out


def first_proved(blocked: Sequence[tuple[int, bool | None]]) -> int | None:
    """The first ply of ``blocked`` (``(ply, proof)`` pairs: True where the exact prover
    proved the side unable to win, False where it proved otherwise or ran out of budget,
    None while unknown or not a pawn ending) at which the side is proved unable to win;
    None when there is none."""
    return min((ply for ply, proof in blocked if proof), default=None)


class _Builder(chess.pgn.GameBuilder):
    """python-chess's game builder that walks the main line only, keeps each problem with
    the move being read, and logs nothing (the problems become the record's notes)."""

    def begin_game(self) -> None:
        super().begin_game()
        self.san = ""  # the move being read
        self.problems: list[tuple[str, Exception]] = []
        self.variations = 0
        self.result_seen = False

    def begin_variation(self) -> Any:
        self.variations += 1
        return chess.pgn.SKIP  # the main line is walked; variations are counted

    def end_variation(self) -> None:
        """(Nothing: variations are skipped, none was begun.)"""

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        self.san = san
        return super().parse_san(board, san)

    def visit_result(self, result: str) -> None:
        self.result_seen = True
        super().visit_result(result)

    def handle_error(self, error: Exception) -> None:
        self.problems.append((self.san, error))
        self.san = ""


def _decode(data: bytes) -> tuple[str, bool]:
    """``data`` as text: UTF-8, else Latin-1 (ISO 8859-1, the PGN standard's encoding,
    which decodes any bytes); True when it was not UTF-8."""
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("latin-1"), True


def parse_game(data: bytes, source: str, number: int) -> GameRecord:
    """The game in ``data`` (its bytes in a PGN file) as a :class:`GameRecord`; raises
    :class:`GameError` when it cannot be walked at all."""
    if len(data) > MAX_GAME_BYTES:
        raise GameError(source, number, f"{len(data):,} bytes long, more than a game can be "
                        f"({MAX_GAME_BYTES:,} bytes at most): not read",
                        data[:_ECHO].decode("latin-1"))
    text, latin = _decode(data.removeprefix(b"\xef\xbb\xbf"))
    builder: _Builder | None = None

    def make() -> _Builder:
        nonlocal builder
        builder = _Builder()
        return builder

    game = chess.pgn.read_game(io.StringIO(text), Visitor=make)
    if game is None or builder is None:
        raise GameError(source, number, "no game here (no tags and no moves)", text)
    return _record(game, builder, source, number, latin)


def _start(game: chess.pgn.Game, source: str, number: int) -> chess.Board:
    """The game's start position; raises :class:`GameError` for a variant other than
    chess or a ``FEN`` tag that is no position."""
    variant = game.headers.get("Variant", "")
    if variant and variant.lower() not in ("standard", "chess", "from position", "normal"):
        raise GameError(source, number, "not a game of chess (its Variant tag)", variant)
    try:
        return game.board()
    except ValueError:
        raise GameError(source, number, "its FEN tag is not a position",
                        game.headers.get("FEN", "")) from None


def _record(game: chess.pgn.Game, b: _Builder, source: str, number: int, latin: bool
            ) -> GameRecord:
    """The :class:`GameRecord` of a parsed ``game`` (``b``: its builder)."""
    board = _start(game, source, number)
    root = board.fen()
    name = f"{source} game {number}"
    notes = [f"{name}: not UTF-8, read as Latin-1 (the PGN standard's encoding)"] if latin \
        else []
    moves: list[str] = []
    sans: list[str] = []
    comments: list[str] = []
    for node in game.mainline():
        if len(moves) >= MAX_PLIES:
            notes.append(f"{name}: longer than {MAX_PLIES:,} plies: walked up to "
                         f"{_label(chess.Board(root), moves, sans)}")
            break
        sans.append(board.san(node.move))
        moves.append(node.move.uci())
        board.push(node.move)
        comments.append(_comment(node.comment))
    notes += _problems(b, name, root, moves, sans)
    if b.variations:
        notes.append(f"{name}: {b.variations} variation{'s' if b.variations > 1 else ''} "
                     "left out: the main line is walked")
    if not moves and not b.problems:
        notes.append(f"{name}: no moves: its start position only")
    elif moves and not b.result_seen and not b.problems:
        notes.append(f"{name}: no result at the end (the file may be cut short): walked up "
                     f"to {_label(chess.Board(root), moves, sans)}")
    tags = tuple((k, v) for k, v in game.headers.items())
    return GameRecord(number, source, tags, root, tuple(moves), tuple(sans),
                      tuple(comments), tuple(notes))


def _problems(b: _Builder, name: str, root: str, moves: list[str], sans: list[str]
              ) -> list[str]:
    """The builder's problems as notes: a move that is not legal (or not a move) names
    its number and the move before it; the game stops there."""
    out = []
    for san, error in b.problems[:1]:  # the first stops the main line: the rest follow it
        board = chess.Board(root)
        for uci in moves:
            board.push(chess.Move.from_uci(uci))
        at = f"{board.fullmove_number}{'.' if board.turn else '...'}"
        before = (f"after {_label(chess.Board(root), moves, sans)}" if moves
                  else "at the start")
        if san:
            what = "is illegal" if isinstance(error, chess.IllegalMoveError) else \
                "is ambiguous" if isinstance(error, chess.AmbiguousMoveError) else \
                "is not a move"
            out.append(f"{name}: move {at} {_shown(san)!r} {what} {before}: the game "
                       f"stops there ({len(moves)} plies)")
        else:
            out.append(f"{name}: {_shown(str(error))} ({before})")
    return out


def _label(root: chess.Board, moves: list[str], sans: list[str]) -> str:
    """The last of ``moves`` with its number ("23...Kxd8")."""
    index = len(moves) - 1 + (0 if root.turn == chess.WHITE else 1)
    number = root.fullmove_number + index // 2
    return f"{number}{'. ' if index % 2 == 0 else '...'}{sans[-1]}"


def _comment(text: str) -> str:
    """A comment as shown: its commands (``[%clk ...]``, shapes) left out, spaces
    collapsed, at most :data:`_COMMENT` characters."""
    words = " ".join(_COMMANDS.sub(" ", text).split())
    return words if len(words) <= _COMMENT else words[:_COMMENT - 1] + "…"


def _starts(data: bytes) -> list[int]:
    """Where each game of ``data`` begins: 0, then every tag line after a blank line
    that follows movetext (or after two blank lines: python-chess ends a game there)."""
    starts = [0]
    for m in _SPLIT.finditer(data):
        blanks = m.group(1).count(b"\n")
        if blanks >= 2 or _MOVETEXT.search(data, starts[-1], m.start() + 1):
            starts.append(m.end())
    return starts


class GameFile(Sequence[GameRecord]):
    """The games of a PGN file, found without parsing one and parsed when asked for
    (``games[i]``: a :class:`GameRecord`, or :class:`GameError` raised for a game that
    cannot be walked); :attr:`parsed` counts the parses."""

    def __init__(self, data: bytes, source: str = "games.pgn") -> None:
        self.source = source
        skip = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        self._data = data
        ends = _starts(data)
        ends[0] = skip  # a byte-order mark is no part of the first game
        self._bounds = [(a, b) for a, b in zip(ends, [*ends[1:], len(data)], strict=True)
                        if data[a:b].strip()]
        self._kept: dict[int, GameRecord | GameError] = {}
        self.parsed = 0

    def __len__(self) -> int:
        return len(self._bounds)

    @overload
    def __getitem__(self, i: int) -> GameRecord: ...

    @overload
    def __getitem__(self, i: slice) -> list[GameRecord]: ...

    def __getitem__(self, i: int | slice) -> GameRecord | list[GameRecord]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self))[i]
        got = self._kept.get(k)
        if got is None:
            start, end = self._bounds[k]
            try:
                got = parse_game(self._data[start:end], self.source, k + 1)
            except GameError as exc:
                got = exc
            self.parsed += 1
            if len(self._kept) >= _KEPT:
                del self._kept[next(iter(self._kept))]
            self._kept[k] = got
        if isinstance(got, GameError):
            raise got
        return got

    def heading(self, i: int) -> str:
        """Game ``i`` in a few words from its tags alone (no moves parsed): "game 3:
        White – Black, Event"."""
        start, end = self._bounds[i]
        text, _latin = _decode(self._data[start:min(end, start + 8192)])
        headers = chess.pgn.read_headers(io.StringIO(text))
        if headers is None:
            return f"game {i + 1}"
        record = GameRecord(i + 1, self.source, tuple(headers.items()), chess.STARTING_FEN,
                            (), ())
        return f"game {i + 1}: {record.title}"


def _regular_file(path: Path) -> None:
    """Raise ``OSError`` naming ``path`` unless it is a regular file (a folder, a FIFO or
    a device could block the reader or never end)."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise OSError(errno.EINVAL, kind, str(path))


def parse_games(text: str | bytes, source: str = "pasted PGN") -> GameFile:
    """The games of PGN ``text`` (a paste, a test); raises :class:`PgnError` when it holds
    none."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    games = GameFile(data, source)
    if not games:
        raise PgnError(source, "no games in it", data[:_ECHO].decode("latin-1"))
    return games


def read_games(path: str | Path) -> GameFile:
    """The games of the PGN file at ``path`` (plain or ``.gz``) as a lazy
    :class:`GameFile`.  Raises :class:`PgnError` when it holds no game, is damaged
    (``.gz``) or larger than :data:`MAX_PGN_BYTES`, and ``OSError`` when it cannot be
    read (also for a folder, a FIFO or a device)."""
    path = Path(path)
    _regular_file(path)
    try:
        with (gzip.open(path, "rb") if path.suffix.lower() == ".gz" else open(path, "rb")
              ) as fh:
            data = fh.read(MAX_PGN_BYTES + 1)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise PgnError(path.name, f"damaged compressed file ({exc})") from None
    if len(data) > MAX_PGN_BYTES:
        raise PgnError(path.name, f"larger than {MAX_PGN_BYTES:,} bytes: not read")
    return parse_games(data, path.name)
