"""The window's PGN lesson: the position on show as one chapter of a Lichess study
(:mod:`logic.pgn_export`), with the verdicts on show, written where the save dialog says.

The chapter is about the side and method on show; its exact line is there when the
exact prover's verdict is the one on show (the window never blocks on a proof of its
own: switch to the exact method first); the teacher's own marks, when the window has
some, go in as ``marks``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import chess.svg

from logic.lessons import MAX_TITLE, LessonPosition
from logic.pgn_export import Chapter, write_lesson

if TYPE_CHECKING:
    from logic.verdict import Verdict
    from viewer.model.state import ViewerState

__all__ = ["state_chapter", "save_pgn", "default_pgn_path"]


def state_chapter(state: ViewerState, marks: tuple[chess.svg.Arrow, ...] = ()) -> Chapter:
    """The position on show as a chapter: its side, method and caption (or the library
    diagram's id, else "position"), the verdicts on show, and ``marks``."""
    pos, o, shown = state.position, state.options, state.playback
    d = pos.current_diagram
    side = o.side == "white"
    caption = pos.shown_caption()
    name = d.id if d is not None else (caption or "position")
    title = " ".join(f"{name} ({o.side})".split())
    if len(title) > MAX_TITLE:
        title = title[:MAX_TITLE - 1] + "…"
    verdicts: dict[str, Verdict] = {}
    if shown.verdict is not None and shown.other is not None:
        verdicts = {"main": shown.verdict, "other": shown.other}
    exact = o.method.proves and "main" in verdicts
    lesson = LessonPosition(pos.editor.board.fen(), title, side, o.method.name,
                            d.caption if d is not None else caption,
                            d.id if d is not None else "the window")
    return Chapter(lesson, marks=marks, exact=exact, verdicts=verdicts)


def default_pgn_path(state: ViewerState, folder: Path) -> Path:
    """A file name in ``folder`` not taken yet: ``pawnfence-ID-SIDE-METHOD-N.pgn``."""
    d, o = state.position.current_diagram, state.options
    base = d.id if d else "position"
    n = 1
    while (folder / f"pawnfence-{base}-{o.side}-{o.method.name}-{n}.pgn").exists():
        n += 1
    return folder / f"pawnfence-{base}-{o.side}-{o.method.name}-{n}.pgn"


def save_pgn(state: ViewerState, path: str | Path) -> Path | None:
    """Write the position on show to ``path`` as a one-chapter PGN lesson (``.pgn`` added
    when missing) and say so; None (said) after an error."""
    path = Path(path)
    if path.suffix.lower() != ".pgn":
        path = path.with_name(path.name + ".pgn")
    if path.exists() and not path.is_file():
        state.say(f"Not saved: {path} is not a regular file")
        return None
    if state.playback.verdict is None or state.playback.other is None:
        state.say("The prover is still working: save when its verdict is in (Esc cancels)")
        return None
    try:
        done = write_lesson(path, [state_chapter(state)])
    except (OSError, ValueError) as exc:
        state.say(f"Not saved: {getattr(exc, 'strerror', None) or exc}")
        return None
    state.say(f"Saved {done}: a Lichess study chapter (study, add chapter, PGN)", seconds=6)
    return done
