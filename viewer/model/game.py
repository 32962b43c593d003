"""A game walked move by move in the window (part of
:class:`viewer.model.state.ViewerState`, without pygame): the PGN file's games
(:class:`logic.games.GameFile`), the game on show, the ply on the board, and for the strip
along the board every method's verdict for both sides at every ply of the pawn ending.

The static methods' cells are decided when the game opens (microseconds a position); the
exact prover's are proved in the background (a :class:`viewer.model.jobs.Job`, as the
Compare pane does), the ply on show first, then the plies after it, then those before; a
position met twice is proved once.  Invariants: ``ply`` is within the game;
``active`` says whether the board shows the game's position at ``ply`` (an edit of the
board leaves the game, the arrows walk it again); a new game or :meth:`GameWalk.close`
cancels the proofs of the one before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import chess

import logic
from logic.compare import Cell, cell_of, compare, marked
from logic.games import GameFile, GameRecord, first_proved, game_boards, read_games
from logic.vocab import Status
from viewer.model.jobs import Job, Ticket
from viewer.model.proof import board_key, provable

if TYPE_CHECKING:
    from viewer.model.state import ViewerState

__all__ = ["GameWalk", "STRIP_SECONDS", "NOT_YET", "strip_methods", "Column",
           "open_game_file", "open_games", "walk_to", "walk"]

#: the exact prover's time per side for a cell of the strip (seconds)
STRIP_SECONDS = 2.0
#: how many games of a file the Open dialog tries for one that can be walked
FIRST_TRIED = 50
#: what a ply with pieces other than kings and pawns says
NOT_YET = "pieces on the board: not a pawn ending yet"


def strip_methods() -> tuple[str, ...]:
    """The strip's rows for each side: the static methods in the registry's order, then
    the others (exact)."""
    return (*(m for m in logic.METHODS if logic.METHODS[m].static),
            *(m for m in logic.METHODS if not logic.METHODS[m].static))


class Column(NamedTuple):
    """One ply of the strip: ``kp`` (a king-and-pawn position: the methods apply) and
    its cells, method -> side -> :class:`~logic.compare.Cell` (None: being proved), each
    set against exact's proof where it is in."""

    kp: bool
    cells: dict[str, dict[bool, Cell | None]]


#: a board's key (:func:`viewer.model.proof.board_key`)
Key = tuple[Any, ...]


class _Request(NamedTuple):
    #: (board key, board, the sides to prove) in the order to prove them
    order: tuple[tuple[Key, chess.Board, tuple[bool, ...]], ...]


def _prove_side(board: chess.Board, color: chess.Color, key: Key,
                cancel: Callable[[], bool]) -> Cell:
    """The exact prover's cell for ``color`` on ``board`` within :data:`STRIP_SECONDS`
    (the one place the strip asks the prover)."""
    method = logic.METHODS["exact"]
    v = method.decide_board(board, color, key, False, max_seconds=STRIP_SECONDS,
                            cancel=cancel)
    return cell_of(v, "exact", 0.0)


def _adding(key: Key, color: bool, cell: Cell
            ) -> Callable[[dict[Key, dict[bool, Cell]] | None], dict[Key, dict[bool, Cell]]]:
    """The job's delivered cells, then ``cell`` of ``key`` for ``color``."""

    def change(got: dict[Key, dict[bool, Cell]] | None) -> dict[Key, dict[bool, Cell]]:
        got = dict(got or {})
        got[key] = {**got.get(key, {}), color: cell}
        return got

    return change


class GameWalk:
    """The game on show and its strip (see the module's invariants)."""

    def __init__(self, notify: Callable[[], None] | None = None) -> None:
        self.file: GameFile | None = None
        #: the game's place in the file (0 = the first)
        self.index = 0
        self.record: GameRecord | None = None
        self.ply = 0
        self.active = False
        self._boards: list[chess.Board] = []
        self._keys: list[Key] = []
        self._static: dict[Key, dict[str, dict[bool, Cell]]] = {}
        self._exact: dict[Key, dict[bool, Cell]] = {}
        #: the key being proved first by the job (None: none)
        self._first: Key | None = None
        #: the columns as last built (rebuilt when exact's cells come in)
        self._columns: dict[int, Column] = {}
        self.job: Job[_Request, dict[Key, dict[bool, Cell]], Key] = Job(
            self._prove, name="pawnfence-game", notify=notify)

    # -- the game -----------------------------------------------------------------------
    @property
    def open(self) -> bool:
        """Whether a game is open (the strip is shown)."""
        return self.record is not None

    @property
    def plies(self) -> int:
        return self.record.plies if self.record is not None else 0

    def load(self, games: GameFile, index: int) -> GameRecord:
        """Open game ``index`` of ``games`` at its start; raises
        :class:`logic.games.GameError` (and keeps the game on show) when it cannot be
        walked."""
        record = games[index]
        self.job.cancel()
        self.file, self.index, self.record = games, index, record
        self._boards = game_boards(record)
        self._keys = [board_key(b) for b in self._boards]
        self._static, self._exact, self._first, self._columns = {}, {}, None, {}
        statics = tuple(m for m in strip_methods() if logic.METHODS[m].static)
        for key, board in zip(self._keys, self._boards, strict=True):
            if key not in self._static and provable(board, key):
                self._static[key] = compare(board, methods=statics).cells
        self.ply, self.active = 0, True
        return record

    def close(self) -> None:
        """No game any more (the strip goes); its proofs are cancelled."""
        self.job.cancel()
        self.file = self.record = None
        self._boards, self._keys, self._static, self._exact = [], [], {}, {}
        self._columns = {}
        self.active = False

    def board(self, ply: int | None = None) -> chess.Board:
        """The position after ``ply`` moves (None: the ply on show), a copy."""
        k = self.ply if ply is None else max(0, min(ply, self.plies))
        return self._boards[k].copy(stack=False)

    def seek(self, ply: int) -> int:
        """Put the walk on ``ply`` (clamped to the game) and on the board; prove that
        position first if its cells are missing; returns the ply."""
        self.ply = max(0, min(ply, self.plies))
        self.active = True
        self._prove_from(self.ply)
        return self.ply

    def target(self, where: str) -> int:
        """The ply ``first``, ``prev``, ``next`` or ``last`` leads to."""
        return {"first": 0, "prev": self.ply - 1, "next": self.ply + 1,
                "last": self.plies}[where]

    def label(self, ply: int | None = None) -> str:
        """The move that led to ``ply`` ("23...Kxd8"; "start")."""
        return self.record.move_label(self.ply if ply is None else ply) \
            if self.record is not None else ""

    # -- the strip ----------------------------------------------------------------------
    def kp(self, ply: int) -> bool:
        """Whether the position at ``ply`` is one the methods apply to."""
        return self._keys[ply] in self._static

    def column(self, ply: int) -> Column:
        """Every method's cells for both sides at ``ply`` (see :class:`Column`; kept until
        exact's cells come in: the strip asks every frame)."""
        got = self._columns.get(ply)
        if got is None:
            got = self._columns[ply] = self._column(ply)
        return got

    def _column(self, ply: int) -> Column:
        key = self._keys[ply]
        static = self._static.get(key)
        if static is None:
            return Column(False, {})
        exact = self._exact.get(key, {})
        got = marked({**static, "exact": dict(exact)})
        cells = {m: {c: got.get(m, {}).get(c) for c in (chess.WHITE, chess.BLACK)}
                 for m in strip_methods()}
        return Column(True, cells)

    def first_proved(self, color: chess.Color) -> int | None:
        """The first ply at which the exact prover proves ``color`` unable to win (None:
        none proved, so far)."""
        proofs = []
        for ply, key in enumerate(self._keys):
            cell = self._exact.get(key, {}).get(color)
            proofs.append((ply, None if cell is None else
                           cell.status == Status.OK and cell.blocked))
        return first_proved(proofs)

    def proving(self) -> bool:
        """Whether exact cells are still being proved."""
        return self.job.running

    def pending(self) -> int:
        """How many pawn-ending positions still wait for the exact prover."""
        return sum(1 for key in dict.fromkeys(self._keys)
                   if key in self._static and len(self._exact.get(key, {})) < 2)

    def position_key(self, ply: int) -> Key:
        """The board key of the position at ``ply``."""
        return self._keys[ply]

    def update(self) -> bool:
        """Take the exact cells that came in; True if any did."""
        got = self.job.take()
        if not got:
            return False
        for key, cells in got.items():
            self._exact.setdefault(key, {}).update(cells)
        self._columns = {}
        return True

    def _prove_from(self, ply: int) -> None:
        """Prove the pawn ending's positions not proved yet, from ``ply`` on, then those
        before it (unless the job already proves that position first)."""
        if not self._keys:
            return
        todo: dict[Key, tuple[chess.Board, tuple[bool, ...]]] = {}
        for k in [*range(ply, len(self._keys)), *range(ply - 1, -1, -1)]:
            key = self._keys[k]
            have = self._exact.get(key, {})
            sides = tuple(c for c in (chess.WHITE, chess.BLACK) if c not in have)
            if key in self._static and sides and key not in todo:
                todo[key] = (self._boards[k], sides)
        if not todo:
            return
        first = next(iter(todo))
        if first == self._first and self.job.running:
            return
        self._first = first
        self.job.submit(_Request(tuple((k, b, s) for k, (b, s) in todo.items())))

    def _prove(self, req: _Request, ticket: Ticket) -> None:
        """The worker: exact for each side still to prove at each position of ``req``,
        each cell published as it is in."""
        for key, board, sides in req.order:
            for color in sides:
                if ticket.cancelled():
                    return
                cell = _prove_side(board, color, key, ticket.cancelled)
                if ticket.cancelled():
                    return
                self.job.publish(ticket, _adding(key, color, cell))

    def shut(self) -> None:
        """Stop the proofs for good (the window closes)."""
        self.job.close()

    # -- words --------------------------------------------------------------------------
    def line(self) -> str:
        """The game on show in one line: "Fritz – Kramnik · 23...Kxd8 · ply 46 of 55",
        and "pieces on the board: not a pawn ending yet" where that is so."""
        if self.record is None:
            return ""
        where = f"{self.label()} · ply {self.ply} of {self.plies}" if self.active else \
            f"the board left the game at ply {self.ply} (← / → walk it again)"
        words = [self.record.title, where]
        if self.active and not self.kp(self.ply):
            board = self._boards[self.ply]
            if board.occupied != board.pawns | board.kings:
                words.append(NOT_YET)
        for color in (chess.WHITE, chess.BLACK):
            ply = self.first_proved(color)
            if ply is not None:
                side = chess.COLOR_NAMES[color].capitalize()
                words.append(f"{side} first proved unable to win at {self.label(ply)} (exact)")
        return " · ".join(words)


# -- the state's moves through a game (the action table and the window call these) -------
def open_game_file(state: ViewerState, path: str) -> bool:
    """Open the first game of the PGN file at ``path`` that can be walked (among its first
    :data:`FIRST_TRIED`; the games before it that cannot are said); False (said) when
    none can, and the board stays."""
    try:
        games = read_games(path)
    except (OSError, ValueError) as exc:
        state.say(f"Not opened: {getattr(exc, 'strerror', None) or exc}", seconds=8)
        return False
    for i in range(min(len(games), FIRST_TRIED)):
        if open_games(state, games, i, quiet=True):
            if i:
                state.say(f"{state.message.text} · game{'s 1 to' if i > 1 else ''} {i} "
                          "cannot be walked (PageUp says why)", seconds=10)
            return True
    open_games(state, games, 0)  # says why the first cannot be walked
    return False


def open_games(state: ViewerState, games: GameFile, index: int = 0, *,
               quiet: bool = False) -> bool:
    """Show game ``index`` of ``games`` (wrapping) at its start, with its strip; a game
    that cannot be walked is said (naming the game; not with ``quiet``) and the board
    stays."""
    index %= len(games)
    try:
        record = state.game.load(games, index)
    except ValueError as exc:  # logic.games.GameError: names the file and the game
        if state.game.file is games:
            state.game.index = index  # N / PageUp step past it
        if not quiet:
            state.say(f"Not opened: {exc}", seconds=8)
        return False
    walk_to(state, 0)
    said = [f"{record.name}: {record.title}, {record.plies} plies "
            "(← / → walk it, N / PageUp the next / previous game)", *record.notes]
    state.say(" · ".join(said), seconds=10)
    return True


def walk_to(state: ViewerState, ply: int) -> None:
    """Show the open game's position after ``ply`` moves and decide it."""
    g, p = state.game, state.position
    if g.record is None:
        return
    g.seek(ply)
    p.editor.view(g.board())
    p.line, p.current_diagram = None, None
    p.position_revision += 1
    p.caption, p.caption_fen = f"{g.record.title} · {g.label()}", p.editor.fen
    state.analyse(keep=False)


def walk(state: ViewerState, where: str) -> None:
    """←/→/Home/End: ``first``/``prev``/``next``/``last`` move of the open game, else
    step of the detector's trace."""
    g = state.game
    if not g.open:
        state.playback.step_to(where)
        return
    k = g.target(where)
    if not 0 <= k <= g.plies:
        state.say("The game's start" if k < 0 else f"The game's last move ({g.plies} plies)",
                  seconds=2)
        return
    if k != g.ply or not g.active:
        walk_to(state, k)
