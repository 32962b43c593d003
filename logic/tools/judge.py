"""The exact prover as the judge of a scan (``pawnfence scan --judge exact``).

The static methods (paper, flood, extended) are heuristics: sound, but blind to most
fortresses.  The judge settles (position, side) pairs with the exact prover
(:mod:`logic.exact`) and sorts what it finds:

* ``claims-blocked-exact-breaks``: a static method calls the side blocked and exact
  proves a forced promotion or mate -- a false positive, i.e. a bug;
* ``exact-blocked-heuristic-misses``: the side has more pawns, exact proves it cannot
  win, and no static method recognises it (each method's failing rule is kept);
* ``exact-horizon``: exact proves only a horizon for a judged side (it cannot force a
  promotion or mate within so many plies; the whole game too big for the budget).

Which pairs are judged: ``"claimed"`` (every side some static method calls blocked: the
false-positive check, cheap) or ``"edge"`` (those and every side with more pawns: the
recall measurement, dear).  An exact ``"unknown"`` (budget spent) or ``"horizon"``
(budget spent, a horizon proved: no blockage) counts neither way.
:func:`summarize` turns the results into the per-method figures of the README.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import chess

from logic.exact import EXACT, MAX_STRUCTURES, horizon_of, line_san
from logic.tools.runlog import finite_number
from logic.vocab import Category

__all__ = ["JudgeConfig", "JUDGE_PAIRS", "STATUSES", "judge_position", "judge_categories",
           "judge_problem", "summarize", "edge", "judge_note"]

#: which (position, side) pairs the judge settles
JUDGE_PAIRS = ("claimed", "edge")
#: what the judge may answer for a side
STATUSES = ("blocked", "breaks", "unknown", "horizon", "error")


class JudgeConfig(NamedTuple):
    """How to judge: the exact prover's time per side and which pairs."""

    seconds: float = 0.5
    pairs: str = "claimed"

    def to_dict(self) -> dict[str, Any]:
        return {"method": "exact", "seconds": self.seconds, "pairs": self.pairs}


def edge(board: chess.Board, color: chess.Color) -> bool:
    """Whether ``color`` has more pawns than the other side (the pairs whose recall the
    issue measures: material says "win")."""
    return len(board.pieces(chess.PAWN, color)) > len(board.pieces(chess.PAWN, not color))


def _claimed(verdicts: dict[str, Any], name: str) -> bool:
    return any(v[name]["blocked"] for v in verdicts.values())


def judge_position(board: chess.Board, verdicts: dict[str, Any], config: JudgeConfig
                   ) -> dict[str, dict[str, Any]]:
    """The exact verdicts of the pairs ``config`` selects, by side name: ``status``
    (one of :data:`STATUSES`), ``ms``, ``plies`` and ``pv`` (UCI, a breakthrough's
    line; a horizon's depth in ``plies``).  ``verdicts`` are the static methods'
    (``{method: {side: {"blocked", "rule"}}}``)."""
    method = EXACT
    out: dict[str, dict[str, Any]] = {}
    for color in chess.COLORS:
        name = chess.COLOR_NAMES[color]
        if not (_claimed(verdicts, name) or config.pairs == "edge" and edge(board, color)):
            continue
        try:
            # several processes prove at once: each keeps the default 10 s structure
            # budget whatever its time (memory, README "More time buys more structures")
            r = method.solve(board, color, max_seconds=config.seconds,
                             max_structures=MAX_STRUCTURES)
        except ValueError as exc:  # an ExactError: not a position the prover takes
            out[name] = {"status": "error", "ms": 0.0, "plies": None, "pv": [],
                         "error": str(exc)}
            continue
        n = horizon_of(r)
        out[name] = {"status": "horizon" if n is not None else r.status, "ms": round(r.ms, 1),
                     "plies": n if n is not None else r.plies, "pv": list(r.pv)}
    return out


def judge_categories(board: chess.Board, verdicts: dict[str, Any],
                     exact: dict[str, dict[str, Any]]) -> list[Category]:
    """The judge's categories of one result (see the module's docstring)."""
    cats: list[Category] = []
    names = [(c, chess.COLOR_NAMES[c]) for c in chess.COLORS]
    if any(_claimed(verdicts, n) and exact.get(n, {}).get("status") == "breaks"
           for _c, n in names):
        cats.append(Category.CLAIMS_BLOCKED_EXACT_BREAKS)
    if any(edge(board, c) and not _claimed(verdicts, n)
           and exact.get(n, {}).get("status") == "blocked" for c, n in names):
        cats.append(Category.EXACT_BLOCKED_HEURISTIC_MISSES)
    if any(exact.get(n, {}).get("status") == "horizon" for _c, n in names):
        cats.append(Category.EXACT_HORIZON)
    return cats


def judge_note(board: chess.Board, verdicts: dict[str, Any],
               exact: dict[str, dict[str, Any]]) -> str:
    """One line for a suspect's ``c2``: per judged side, exact's answer (with the
    breakthrough's first moves in SAN) and the static methods' verdicts or failing
    rules."""
    parts = []
    for color in chess.COLORS:
        name = chess.COLOR_NAMES[color]
        e = exact.get(name)
        if not e:
            continue
        said = ", ".join(f"{m} blocked" if v[name]["blocked"] else
                         f"{m} no ({v[name]['rule'] or '-'})" for m, v in verdicts.items())
        what = e["status"]
        if what == "breaks" and e.get("pv"):
            what = f"breaks ({_line(board, e['pv'])}, {e['plies']} plies)"
        elif what == "horizon":
            what = f"horizon (no promotion within {e['plies']} plies)"
        parts.append(f"{name}: exact {what}; {said}")
    return " | ".join(parts)


def _line(board: chess.Board, pv: Sequence[str]) -> str:
    """The first moves of ``pv`` in numbered SAN (UCI as read when a move is not legal:
    a line read back from a results file is only checked to be text)."""
    try:
        return line_san(board, tuple(pv), 6)
    except ValueError:
        return " ".join(pv[:6]) + (" ..." if len(pv) > 6 else "")


def judge_problem(exact: Any) -> str:
    """Why a result's ``exact`` field is malformed (``""`` when it is well formed)."""
    if not isinstance(exact, dict):
        return "'exact' is not an object"
    for side, e in exact.items():
        if side not in ("white", "black") or not isinstance(e, dict):
            return "'exact' has a side that is not white/black"
        if e.get("status") not in STATUSES or not finite_number(e.get("ms")) \
                or not (e.get("plies") is None or isinstance(e["plies"], int)) \
                or not isinstance(e.get("pv"), list) \
                or not all(isinstance(m, str) for m in e["pv"]):
            return f"'exact' {side} malformed"
    return ""


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def summarize(rows: Iterable[dict[str, Any]], methods: Sequence[str], *, recall: bool = True
              ) -> dict[str, Any]:
    """The judge's figures over scan results: per method the claims, false positives
    (exact breaks), confirmed claims, claims exact left unknown, and (with ``recall``:
    only meaningful when every edge side was judged) recall: of the judged edge sides
    exact proves blocked, the share the method recognises; the disagreements between
    each pair of methods; exact's answers and unknown rate."""
    per: dict[str, dict[str, Any]] = {
        m: {"claims": 0, "false_positives": 0, "confirmed": 0, "unknown": 0, "recognised": 0}
        for m in methods}
    pairs = [(a, b) for i, a in enumerate(methods) for b in methods[i + 1:]]
    disagree = {f"{a}/{b}": 0 for a, b in pairs}
    answers = {s: 0 for s in STATUSES}
    proven_edge = judged_edge = positions = 0
    for row in rows:
        positions += 1
        board = chess.Board(row["fen"])
        v, exact = row["verdicts"], row.get("exact") or {}
        for color in chess.COLORS:
            name = chess.COLOR_NAMES[color]
            for a, b in pairs:
                disagree[f"{a}/{b}"] += v[a][name]["blocked"] != v[b][name]["blocked"]
            e = exact.get(name)
            if e is None:
                continue
            answers[e["status"]] += 1
            for m in methods:
                if v[m][name]["blocked"]:
                    per[m]["claims"] += 1
                    per[m]["false_positives"] += e["status"] == "breaks"
                    per[m]["confirmed"] += e["status"] == "blocked"
                    per[m]["unknown"] += e["status"] == "unknown"
            if edge(board, color):
                judged_edge += 1
                if e["status"] == "blocked":
                    proven_edge += 1
                    for m in methods:
                        per[m]["recognised"] += v[m][name]["blocked"]
    for m in methods:
        per[m]["recall"] = _ratio(per[m]["recognised"], proven_edge) if recall else None
    judged = sum(answers.values())
    return {"positions": positions, "judged_sides": judged, "exact": answers,
            "exact_unknown_rate": _ratio(answers["unknown"], judged),
            "edge_sides_judged": judged_edge, "edge_sides_exact_blocked": proven_edge,
            "methods": per, "disagreements": disagree}
