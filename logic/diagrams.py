"""The diagram library (``assets/diagrams.epd``): the paper's and the wiki's
diagrams with captions and the verdicts their sources state."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import chess

from logic.assets import asset_path
from logic.position import read_epd
from logic.vocab import DEFAULT_METHOD

__all__ = ["Diagram", "Expectation", "load_diagrams", "get_diagram"]


@dataclass(frozen=True)
class Expectation:
    """A stated verdict: ``side`` cannot win (``blocked``) or can (``open``) by ``rule``;
    ``blocked`` is None where the detector does not apply."""

    side: chess.Color
    blocked: bool | None
    rule: str

    @classmethod
    def parse(cls, text: str) -> Expectation | None:
        """``"white:blocked:paper 3.2"`` -> Expectation; ``"-"`` -> None."""
        if not text or text == "-":
            return None
        side, state, rule = text.split(":", 2)
        blocked = {"blocked": True, "open": False, "n/a": None}[state]
        return cls(side == "white", blocked, rule)


@dataclass(frozen=True)
class Diagram:
    """One library entry."""

    id: str
    fen: str
    caption: str
    source: str
    expect: dict[str, Expectation | None]
    result: str

    def board(self) -> chess.Board:
        """A fresh board of the diagram's position."""
        return chess.Board(self.fen)


def load_diagrams(path: Path | None = None) -> list[Diagram]:
    """All diagrams of the library, in file order."""
    out = []
    for entry in read_epd(path or asset_path("diagrams.epd")):
        if entry.error is not None:
            raise entry.error
        assert entry.board is not None, "an entry without an error has a board"
        ops = entry.ops
        out.append(Diagram(
            id=str(ops["id"]),
            fen=entry.board.fen(),
            caption=str(ops.get("c0", "")),
            source=str(ops.get("c1", "")),
            expect={DEFAULT_METHOD: Expectation.parse(str(ops.get("c2", "-"))),
                    "flood": Expectation.parse(str(ops.get("c3", "-")))},
            result=str(ops.get("c4", "-")),
        ))
    return out


def get_diagram(diagram_id: str) -> Diagram:
    """The diagram with ``diagram_id``; raises ``KeyError`` naming the known ids."""
    for d in load_diagrams():
        if d.id == diagram_id:
            return d
    known = ", ".join(d.id for d in load_diagrams())
    raise KeyError(f"no diagram {diagram_id!r}; known: {known}")
