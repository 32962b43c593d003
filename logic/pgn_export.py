"""Lessons as PGN: one game per position, each a chapter when imported into a Lichess
study (ChessBase, SCID and python-chess read it as a database of games).

A chapter is the position (``[FEN]`` / ``[SetUp "1"]``), its title (``[ChapterName]``,
which Lichess names the chapter by, and ``[Event "pawnfence: TITLE"]`` as Lichess's own
study export writes it), the side at the bottom (``[Orientation]``), and at the root one
comment: the caption, the verdict with its rule, each dynamic pawn's note, the other
side's verdict and the exact prover's, with the verdict's squares as Lichess shapes
(:data:`CIRCLES`): ``[%csl]`` circles for the fence (R), the marked squares (Y), the
king's side (G) and the dynamic pawns or the prover's king map (B); ``[%cal]`` arrows for
the first moves of the exact prover's breakthrough line (G the side under test's, R the
defender's) or for the teacher's own marks (``marks``).  Where the exact prover forces a
promotion its line is the main line, each move with its explanation where it says
something new.  Shapes are written and read with python-chess
(:meth:`chess.pgn.GameNode.set_arrows` / ``arrows``), so a game read back has the same
shapes.

Every game keeps within Lichess's limits (:data:`LICHESS`): a study holds at most 64
chapters, a chapter's name 80 characters, a comment 4,000, a main line 400 plies
(:func:`lichess_problems` checks a game).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import chess
import chess.pgn
import chess.svg

import logic
from logic.files import atomic_write_text
from logic.lessons import LessonPosition
from logic.verdict import Verdict
from logic.vocab import Status

__all__ = ["Chapter", "chapter_game", "lesson_pgn", "write_lesson", "verdict_shapes",
           "line_arrows", "lichess_problems", "LICHESS", "CIRCLES", "ARROWS", "Limits",
           "clean_comment", "LessonError", "exact_verdict"]


class Limits(NamedTuple):
    """What a Lichess study takes (lila: ``Study.maxChapters``, ``Chapter.fixName``,
    ``Comment.sanitize``, ``Node.MAX_PLIES``, ``Chapter.maxNodes``)."""

    chapters: int = 64
    name: int = 80
    comment: int = 4000
    plies: int = 400
    nodes: int = 3000


#: Lichess's limits
LICHESS = Limits()
#: the most characters of a comment written (half of Lichess's: room for its own edits)
COMMENT = 2000
#: the circles' colours (Lichess's brushes: R red, Y yellow, G green, B blue), in the
#: order a square takes the first that names it
CIRCLES = (("fence", "red"), ("marked", "yellow"), ("dynamic pawns, king map", "blue"),
           ("king's side", "green"))
#: the arrows' colours: the exact line's moves by the side under test, by the defender
ARROWS = (("the side under test's moves of the exact line", "green"),
          ("the defender's replies", "red"))
#: the exact line's first plies drawn as arrows at the root
ARROW_PLIES = 4


class LessonError(ValueError):
    """A lesson that cannot be written as asked; the message says why."""


@dataclass(frozen=True)
class Chapter:
    """A position to write as a chapter: the :class:`~logic.lessons.LessonPosition`, the
    teacher's own ``marks`` (circles: tail == head; arrows), drawn besides the computed
    shapes or instead of them (``computed`` False), and the exact prover's budget per
    side (``exact_seconds``: None its default; ``exact`` False: no exact verdict)."""

    position: LessonPosition
    marks: tuple[chess.svg.Arrow, ...] = ()
    computed: bool = True
    exact: bool = True
    exact_seconds: float | None = None
    #: the verdicts to use instead of deciding them (the window passes the ones on show)
    verdicts: dict[str, Verdict] = field(default_factory=dict)


def clean_comment(text: str, limit: int = COMMENT) -> str:
    """``text`` as a PGN comment: on one line (a blank line before a tag could split the
    game where Lichess imports it), without braces, at most ``limit`` characters."""
    words = " ".join(text.replace("{", "(").replace("}", ")").split())
    return words if len(words) <= limit else words[:limit - 1] + "…"


def _squares(bb: int) -> list[int]:
    return list(chess.scan_forward(bb))


def verdict_shapes(v: Verdict) -> list[chess.svg.Arrow]:
    """The circles of a verdict (:data:`CIRCLES`): the fence red, the marked squares
    yellow, the dynamic pawns (a prover's king map) blue, the king's side green; each
    square once, the first of these that names it."""
    if v.status != Status.OK:
        return []
    static = logic.METHODS[v.method].static
    layers = ((v.fence, "red"), (v.marked, "yellow"),
              (sum(1 << n.square for n in v.pawns) if static else v.king_mask, "blue"),
              (v.below if static else 0, "green"))
    seen = 0
    out = []
    for bb, colour in layers:
        for sq in _squares(bb & ~seen):
            out.append(chess.svg.Arrow(sq, sq, color=colour))
        seen |= bb
    return out


def line_arrows(board: chess.Board, pv: Sequence[str], side: chess.Color,
                plies: int = ARROW_PLIES) -> list[chess.svg.Arrow]:
    """The first ``plies`` moves of the line ``pv`` (UCI, from ``board``) as arrows: the
    moves of ``side`` green, the others red."""
    b = board.copy(stack=False)
    out = []
    for uci in pv[:plies]:
        move = chess.Move.from_uci(uci)
        out.append(chess.svg.Arrow(move.from_square, move.to_square,
                                   color="green" if b.turn == side else "red"))
        b.push(move)
    return out


def exact_verdict(board: chess.Board, side: chess.Color, seconds: float | None) -> Verdict:
    """The exact prover's traced verdict for ``side`` (its steps explain the line's moves);
    the one place this module asks the prover."""
    return logic.detect(board, side, method="exact", trace=True, seconds=seconds)


def _sentence(text: str) -> str:
    """``text`` ending as a sentence does (a full stop unless it has one)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?" or text.endswith(".)") else text + "."


def _plain(v: Verdict) -> Verdict:
    """``v`` with texts that leave out the run's counts and time (the exact prover's
    structures and seconds change from run to run): the same lesson, the same bytes."""
    d = v.detail
    return v if d is None or not d.stats else v._replace(detail=d._replace(stats=False))


def _root_text(pos: LessonPosition, v: Verdict, other: Verdict, exact: Verdict | None) -> str:
    """The root's comment: caption, verdict and rule, the pawn notes, the other side's
    verdict, the exact prover's."""
    parts = [_sentence(pos.caption), _sentence(v.headline)]
    if v.status == Status.OK and v.blocked:
        parts.append(_sentence(v.reason[:1].upper() + v.reason[1:]))
    parts += [_sentence(n.reason) for n in v.pawns if not v.reason.startswith(n.reason[:-1])]
    parts.append(_sentence(f"Other side: {other.headline}"))
    if exact is not None and exact is not v and exact.status not in (Status.PIECES,
                                                                      Status.ILLEGAL):
        parts.append(_sentence(f"Exact prover: {exact.headline}"))
    return " ".join(p for p in parts if p)


def _move_comments(exact: Verdict, board: chess.Board) -> dict[int, str]:
    """Ply (1 = the line's first move, from ``board``) -> its explanation, from the exact
    trace's ``exact-move`` steps, each without the "12. h5: " that names its move; a
    comment that says the same as the one before is left out."""
    said = {step.fact("ply"): step.text for step in exact.steps if step.kind == "exact-move"}
    out: dict[int, str] = {}
    last = ""
    b = board.copy(stack=False)
    for ply, uci in enumerate(_line(exact), 1):
        move = chess.Move.from_uci(uci)
        named = f"{b.fullmove_number}{'.' if b.turn else '...'} {b.san(move)}: "
        b.push(move)
        words = str(said.get(ply, "")).removeprefix(named)
        if words and words != last:
            out[ply] = words
        last = words
    return out


def _line(exact: Verdict | None) -> tuple[str, ...]:
    """The exact prover's line when it forces a promotion (or mate), else none."""
    if exact is None or exact.status != Status.OK or exact.code != "breaks" or \
            exact.detail is None:
        return ()
    return tuple(exact.detail.result.pv)


def chapter_game(ch: Chapter, number: int = 1, study: str = "pawnfence") -> chess.pgn.Game:
    """The chapter as a python-chess game (see the module): tags, the root's comment and
    shapes, the exact line as the main line."""
    pos = ch.position
    board = pos.board()
    side = pos.side
    v = _plain(ch.verdicts.get("main") or logic.detect(board, side, method=pos.method))
    other = _plain(ch.verdicts.get("other") or logic.detect(board, not side,
                                                            method=pos.method))
    exact = None
    if pos.method == "exact" and v.steps:
        exact = v
    elif ch.exact:
        exact = _plain(ch.verdicts.get("exact") or exact_verdict(board, side,
                                                                 ch.exact_seconds))
    game = chess.pgn.Game()
    game.setup(board)
    game.headers["Event"] = f"{study}: {pos.title}"
    game.headers["Round"] = str(number)
    game.headers["ChapterName"] = pos.title
    game.headers["Orientation"] = "white" if side else "black"
    game.headers["Annotator"] = "pawnfence"
    game.comment = clean_comment(_root_text(pos, v, other, exact))
    pv = _line(exact)
    marks = list(ch.marks)
    taken = {m.tail for m in marks if m.tail == m.head}
    shapes = [*marks, *(s for s in verdict_shapes(v) if s.tail not in taken)] \
        if ch.computed else marks
    if ch.computed and not any(m.tail != m.head for m in marks):
        shapes += line_arrows(board, pv, side)
    game.set_arrows(shapes)
    _add_line(game, board, pv, _move_comments(exact, board) if exact is not None and pv else {})
    return game


def _add_line(game: chess.pgn.Game, board: chess.Board, pv: Sequence[str],
              comments: dict[int, str]) -> None:
    """Add the line ``pv`` (UCI, legal from ``board``) as the main line, at most
    :data:`LICHESS` ``.plies`` moves, with ``comments`` by ply."""
    node: chess.pgn.GameNode = game
    b = board.copy(stack=False)
    for ply, uci in enumerate(pv[:LICHESS.plies], 1):
        move = chess.Move.from_uci(uci)
        if not b.is_legal(move):
            break
        b.push(move)
        node = node.add_variation(move, comment=clean_comment(comments.get(ply, "")))


def lichess_problems(game: chess.pgn.Game) -> list[str]:
    """Why Lichess would not import ``game`` as written (empty: it would): a name longer
    than 80 characters, a comment longer than 4,000 or with a brace, a main line longer
    than 400 plies, more than 3,000 positions."""
    out = []
    name = game.headers.get("ChapterName", "")
    if len(name) > LICHESS.name:
        out.append(f"chapter name of {len(name)} characters (at most {LICHESS.name})")
    nodes = 0
    stack: list[chess.pgn.GameNode] = [game]
    while stack:
        node = stack.pop()
        nodes += 1
        if len(node.comment) > LICHESS.comment or "{" in node.comment or "}" in node.comment:
            out.append(f"a comment of {len(node.comment)} characters or with a brace")
        stack.extend(node.variations)
    if sum(1 for _ in game.mainline()) > LICHESS.plies:
        out.append(f"a main line longer than {LICHESS.plies} plies")
    if nodes > LICHESS.nodes:
        out.append(f"{nodes:,} positions (at most {LICHESS.nodes:,})")
    return out


def lesson_pgn(chapters: Iterable[Chapter], study: str = "pawnfence") -> str:
    """Every chapter as a game, one blank line between games (how Lichess splits an
    import into chapters)."""
    games = [chapter_game(ch, i, study) for i, ch in enumerate(chapters, 1)]
    return "\n\n".join(str(g) for g in games) + "\n"


def write_lesson(path: str | Path, chapters: Sequence[Chapter], study: str = "pawnfence"
                 ) -> Path:
    """Write the chapters to ``path`` as one PGN file (atomically); raises
    :class:`LessonError` for no chapters and ``OSError`` when it cannot be written."""
    if not chapters:
        raise LessonError("no positions to write")
    return atomic_write_text(path, lesson_pgn(chapters, study))
