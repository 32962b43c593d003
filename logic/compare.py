"""Every method on one board at once: a row per method (:func:`method_rows`: the static
ones in the registry's order, then the others, the prover last), a column per side, each
cell the verdict with its rule and time, and a mark where a method disagrees with the
prover's proof (the method whose verdicts are proofs, :func:`logic.registry.prover`: exact).

Only a proof counts as disagreement: a "blocked" that exact refutes (it breaks through),
or a "no" where exact proves a blockage (a miss).  An exact "unknown" disagrees with
nothing.  The same data feeds ``pawnfence explain --all`` and the viewer's Compare pane.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import chess

import logic
from logic.registry import prover
from logic.verdict import Verdict
from logic.vocab import Status

__all__ = ["Cell", "Comparison", "compare", "disagreement", "compare_table", "cell_of",
           "marked", "method_rows", "MARKS", "disagreement_keys"]


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


#: the letter in front of a cell the prover's proof contradicts, by :attr:`Cell.disagrees`
MARKS = {"refuted": "!", "missed": "?"}


def disagreement_keys() -> tuple[tuple[str, str], ...]:
    """``(disagrees, words)`` of the key under a table: what ``!`` and ``?`` mean, naming
    the prover."""
    judge = prover()
    name = judge.name if judge is not None else "the prover"
    return (("refuted", f"a blockage {name} refutes (it forces a promotion)"),
            ("missed", f"a blockage {name} proves that the method misses"))


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


def method_rows() -> tuple[str, ...]:
    """The methods of a comparison, by name: the static ones in the registry's order, then
    the others, the prover (:func:`~logic.registry.prover`) last."""
    methods = logic.METHODS.values()
    judge = prover()
    return (*(m.name for m in methods if m.static),
            *(m.name for m in methods if not m.static and m is not judge),
            *((judge.name,) if judge is not None else ()))


def marked(cells: dict[str, dict[bool, Cell]]) -> dict[str, dict[bool, Cell]]:
    """``cells`` with every method's cells set against the prover's (``disagrees``);
    without a cell of the prover for a side, that side's cells are unmarked."""
    judge = prover()
    name = judge.name if judge is not None else None
    truth = cells.get(name, {}) if name is not None else {}
    out: dict[str, dict[bool, Cell]] = {}
    for method, row in cells.items():
        out[method] = {color: c if method == name else
                       replace(c, disagrees=disagreement(c, truth.get(color)))
                       for color, c in row.items()}
    return out


def compare(board: chess.Board, *, seconds: float | None = None,
            methods: tuple[str, ...] | None = None,
            on_cell: Callable[[Cell], None] | None = None) -> Comparison:
    """Every method of ``methods`` (default: :func:`method_rows`) for both sides of
    ``board``; ``seconds`` is the budget per side of a method that searches (its default
    when None); ``on_cell`` hears each cell as it is done (a window fills its table)."""
    names = methods or method_rows()
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
    White and Black columns, ``!`` or ``?`` before a cell that the prover's proof
    contradicts, and a key under the table."""
    head = ("method", "White", "Black")
    rows = []
    for method, row in cmp.cells.items():
        cells = []
        for color in (chess.WHITE, chess.BLACK):
            c = row[color]
            mark = f"{MARKS[c.disagrees]} " if c.disagrees else ""
            cells.append(f"{mark}{c.text}" + (f"  {c.ms:,.1f} ms" if times else ""))
        rows.append((method, *cells))
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(3)]
    line = lambda r: "  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip()  # noqa: E731
    out = [cmp.fen, "", line(head), line(tuple("-" * w for w in widths)), *map(line, rows)]
    marks = {c.disagrees for row in cmp.cells.values() for c in row.values()}
    keys = [f"{MARKS[m]} {words}" for m, words in disagreement_keys() if m in marks]
    if keys:
        out += ["", "; ".join(keys)]
    return "\n".join(out) + "\n"
