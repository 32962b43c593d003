"""Every method on one board at once: a row per method (the static ones in the registry's
order, then exact), a column per side, each cell the verdict with its rule and time, and a
mark where a static method disagrees with exact's proof.

Only a proof counts as disagreement: a static "blocked" that exact refutes (it breaks
through), or a static "no" where exact proves a blockage (a miss).  An exact "unknown"
disagrees with nothing.  The same data feeds ``pawnfence explain --all`` and the viewer's
Compare pane.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import chess

import logic
from logic.verdict import Verdict
from logic.vocab import Status

__all__ = ["Cell", "Comparison", "compare", "disagreement", "compare_table", "cell_of",
           "marked"]


@dataclass(frozen=True)
class Cell:
    """One method's verdict for one side: ``blocked``, ``status`` (ok, unknown, illegal,
    pieces ...), ``rule``, the milliseconds it took, and how it stands against exact's
    proof (``disagrees``: ``"refuted"``, ``"missed"`` or ``""``)."""

    method: str
    color: chess.Color
    blocked: bool
    status: str
    rule: str
    ms: float
    disagrees: str = ""

    @property
    def text(self) -> str:
        """The cell as shown: ``blocked (paper 3.2)``, ``no (wiki dynamic)``, ``unknown``."""
        if self.status != Status.OK:
            return self.status
        return f"{'blocked' if self.blocked else 'no'} ({self.rule or '-'})"


@dataclass(frozen=True)
class Comparison:
    """The cells of one board, by method name then side (``True`` White)."""

    fen: str
    cells: dict[str, dict[bool, Cell]]


def disagreement(static: Cell, exact: Cell | None) -> str:
    """How ``static`` stands against ``exact``: ``"refuted"`` (it claims a blockage exact
    refutes), ``"missed"`` (exact proves one it does not claim) or ``""`` (agrees, or exact
    proved nothing)."""
    if exact is None or exact.status != Status.OK:
        return ""
    if static.status != Status.OK:
        return ""
    if static.blocked and not exact.blocked:
        return "refuted"
    if exact.blocked and not static.blocked:
        return "missed"
    return ""


def cell_of(verdict: Verdict, method: str, ms: float) -> Cell:
    """The cell of ``verdict`` (``method``'s, for its side) that took ``ms``
    milliseconds, not yet set against exact."""
    return Cell(method=method, color=bool(verdict.color), blocked=bool(verdict.blocked),
                status=str(verdict.status), rule=str(verdict.rule or ""), ms=ms)


def _cell(board: chess.Board, color: chess.Color, method: str,
          seconds: float | None) -> Cell:
    start = time.perf_counter()
    v = logic.detect(board, color, method=method, seconds=seconds)
    return cell_of(v, method, (time.perf_counter() - start) * 1000)


def marked(cells: dict[str, dict[bool, Cell]]) -> dict[str, dict[bool, Cell]]:
    """``cells`` with every method's cells set against exact's (``disagrees``); without
    an exact cell for a side, that side's cells are unmarked."""
    exact = cells.get("exact", {})
    out: dict[str, dict[bool, Cell]] = {}
    for method, row in cells.items():
        out[method] = {color: c if method == "exact" else
                       replace(c, disagrees=disagreement(c, exact.get(color)))
                       for color, c in row.items()}
    return out


def compare(board: chess.Board, *, seconds: float | None = None,
            methods: tuple[str, ...] | None = None,
            on_cell: Callable[[Cell], None] | None = None) -> Comparison:
    """Every method of ``methods`` (default: the registry's, exact last) for both sides
    of ``board``; ``seconds`` is exact's budget per side (its default when None);
    ``on_cell`` hears each cell as it is done (a window fills its table)."""
    names = methods or tuple([m for m in logic.METHODS if m != "exact"] + ["exact"])
    cells: dict[str, dict[bool, Cell]] = {}
    for method in names:
        for color in (chess.WHITE, chess.BLACK):
            c = _cell(board, color, method, seconds)
            cells.setdefault(method, {})[color] = c
            if on_cell is not None:
                on_cell(c)
    return Comparison(fen=board.fen(), cells=marked(cells))


def compare_table(cmp: Comparison, *, times: bool = True) -> str:
    """``cmp`` as a plain-text table (``pawnfence explain --all``): a row per method,
    White and Black columns, ``!`` before a cell that exact's proof contradicts, and a
    key under the table."""
    head = ("method", "White", "Black")
    rows = []
    for method, row in cmp.cells.items():
        cells = []
        for color in (chess.WHITE, chess.BLACK):
            c = row[color]
            mark = {"refuted": "! ", "missed": "? "}.get(c.disagrees, "")
            cells.append(f"{mark}{c.text}" + (f"  {c.ms:,.1f} ms" if times else ""))
        rows.append((method, *cells))
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(3)]
    line = lambda r: "  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip()  # noqa: E731
    out = [cmp.fen, "", line(head), line(tuple("-" * w for w in widths)), *map(line, rows)]
    marks = {c.disagrees for row in cmp.cells.values() for c in row.values()}
    keys = [k for m, k in (("refuted", "! a blockage exact refutes (it forces a promotion)"),
                           ("missed", "? a blockage exact proves that the method misses"))
            if m in marks]
    if keys:
        out += ["", "; ".join(keys)]
    return "\n".join(out) + "\n"
