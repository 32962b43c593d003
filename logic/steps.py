"""Frozen, JSON-serialisable step records and the recorder that collects them.

The detectors reason on a board oriented so that the side under test plays
"White" (paper 2: "The process applies similarly for Black").  A
:class:`Recorder` turns each internal event into a :class:`Step` in real board
coordinates: bitboards are flipped back (``logic.bitboards.flip``) and
squares/colour words in the text name the real position.

Recording is optional: detectors take ``rec: Recorder | None`` and guard every
call with ``if rec is not None``, so the untraced fast path pays one
comparison per event site and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import chess

from logic.bitboards import flip

__all__ = ["Step", "Recorder"]


@dataclass(frozen=True, slots=True)
class Step:
    """One event of a detector's reasoning.

    ``kind`` is a machine tag (``"mark"``, ``"dfs-advance"``, ``"flood-cycle"``,
    ...), ``section`` the source it follows (``"paper 2.3"``, ``"wiki flood"``),
    ``phase`` a short human label for a timeline ("flood cycle 3"), ``text`` a
    one-line explanation, ``boards`` named bitboards in real coordinates (the
    standing state to draw), ``changed`` the squares this step altered, and
    ``square`` the square the step is about, if any, and ``facts`` named values a
    reader needs without parsing the text (e.g. a classified pawn's ``category``,
    ``ok``, ``rule`` and ``code``).
    """

    kind: str
    section: str
    phase: str
    text: str
    boards: tuple[tuple[str, int], ...] = ()
    changed: int = 0
    square: int | None = None
    facts: tuple[tuple[str, Any], ...] = ()

    def fact(self, name: str, default: Any = None) -> Any:
        """The fact called ``name`` in this step, or ``default``."""
        for key, value in self.facts:
            if key == name:
                return value
        return default

    def board(self, name: str, default: int = 0) -> int:
        """The bitboard called ``name`` in this step, or ``default``."""
        for key, value in self.boards:
            if key == name:
                return value
        return default

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; bitboards are ints, squares are names."""
        return {
            "kind": self.kind,
            "section": self.section,
            "phase": self.phase,
            "text": self.text,
            "boards": {k: v for k, v in self.boards},
            "changed": self.changed,
            "square": None if self.square is None else chess.square_name(self.square),
            "facts": dict(self.facts),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        """Inverse of :meth:`to_dict`."""
        sq = data.get("square")
        return cls(
            kind=data["kind"],
            section=data["section"],
            phase=data["phase"],
            text=data["text"],
            boards=tuple((k, int(v)) for k, v in data.get("boards", {}).items()),
            changed=int(data.get("changed", 0)),
            square=None if sq is None else chess.parse_square(sq),
            facts=tuple(data.get("facts", {}).items()),
        )


class Recorder:
    """Collects :class:`Step` records for a detector run on an oriented board.

    ``flipped`` is True when the detector runs for Black on the vertically
    flipped position; the recorder then maps bitboards and squares back.
    """

    __slots__ = ("steps", "flipped", "us", "them")

    def __init__(self, color: chess.Color) -> None:
        self.steps: list[Step] = []
        self.flipped = color == chess.BLACK
        self.us = chess.COLOR_NAMES[color].capitalize()
        self.them = chess.COLOR_NAMES[not color].capitalize()

    @property
    def view_note(self) -> str:
        """For Black, a sentence saying that the paper's words are Black's view ("above
        the fence" lies towards rank 1, on a board drawn with White below); "" for
        White.  The first step of a detector run carries it."""
        if not self.flipped:
            return ""
        return (" Black attacks, so \"above\", \"below\" and \"first rank\" are seen "
                "from Black's side: above the fence is towards rank 1.")

    def bb(self, bb: int) -> int:
        """A bitboard of the oriented board in real coordinates."""
        return flip(bb) if self.flipped else bb

    def sq(self, square: int) -> int:
        """A square of the oriented board in real coordinates."""
        return square ^ 0x38 if self.flipped else square

    def name(self, square: int) -> str:
        """The real name of an oriented square, e.g. ``"f4"``."""
        return chess.square_name(self.sq(square))

    def names(self, bb: int) -> str:
        """Real names of the squares of an oriented bitboard, comma-separated."""
        sqs = sorted((self.sq(s) for s in chess.scan_forward(bb)), key=lambda s: (s & 7, s >> 3))
        return ", ".join(chess.square_name(s) for s in sqs) or "none"

    def add(
        self,
        kind: str,
        section: str,
        phase: str,
        text: str,
        *,
        changed: int = 0,
        square: int | None = None,
        facts: tuple[tuple[str, Any], ...] = (),
        **boards: int,
    ) -> None:
        """Record one step; ``boards`` and ``changed`` are oriented bitboards, ``facts``
        plain values (squares among them are not re-oriented)."""
        self.steps.append(
            Step(
                kind=kind,
                section=section,
                phase=phase,
                text=text,
                boards=tuple((k, self.bb(v)) for k, v in boards.items()),
                changed=self.bb(changed),
                square=None if square is None else self.sq(square),
                facts=facts,
            )
        )
