"""The exact prover as a method of the registry (``method="exact"``).

:mod:`logic.exact` decides by retrograde analysis whether a side can force a
promotion (by either side) or a mate; this module turns its answer into a
:class:`~logic.verdict.Verdict`: ``blocked`` True is a proof that the side cannot win,
False with code ``"breaks"`` a proof that it forces a promotion (the line in
``detail.result.pv``, in SAN in ``detail.san``, what the promotion leads to in
``detail.outcome``: :mod:`logic.exact.outcome`) -- or, where the line ends in the
defender's forced promotion (``ends == "defender-promotion"``), that the blockage ends
with no win for the side proved (:func:`defender_promotes` words it) -- status
``"horizon"`` (code ``"horizon"``) when the budget ran out where the forward search had
proved at least :data:`MIN_HORIZON` plies without a forced promotion or mate (the
side cannot force one within ``ExactResult.horizon`` plies: a proof, but no blockage,
so ``blocked`` False), and ``"unknown"`` when the budget ran out short of that
(``blocked`` False then, and never a guess).
Untraced verdicts are cached per board and side; the solved structures are cached by
the prover itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import chess

from logic.bitboards import file_set
from logic.exact.budget import Clock
from logic.exact.display import EXACT_LEGEND, EXACT_LISTING, exact_legend, exact_summary
from logic.exact.outcome import UNCLEAR, Outcome, Tables, outcome
from logic.exact.prover import MAX_SECONDS, ExactError, ExactResult, check_board, solve
from logic.exact.prover import clear_cache as clear_structures
from logic.exact.why import NO_REASON, x_move_reason
from logic.pawns import passed_pawns
from logic.records import NO_BOARDS, Boards
from logic.registry import METHODS, Method
from logic.steps import Recorder
from logic.verdict import Verdict
from logic.vocab import ExactCode, ExactRule, Status

__all__ = ["ExactMethod", "ExactDetail", "EXACT", "line_san", "STRUCTURE_STEPS",
           "DEFENDER_PROMOTES", "defender_promotes", "MIN_HORIZON", "horizon_of",
           "horizon_headline"]

#: at most this many structures are drawn one by one in a trace
STRUCTURE_STEPS = 12
#: the fewest plies of a horizon that make it a verdict (status ``"horizon"``); a
#: shallower one says too little (no promotion within a move or three) and the verdict
#: stays ``"unknown"``
MIN_HORIZON = 8
_VERDICT_CACHE = 1 << 14


class ExactDetail(NamedTuple):
    """What an exact verdict carries beyond the shared fields (``Verdict.detail``).

    ``result``: the prover's answer; ``san``: its line in SAN, one move per entry
    (empty unless it forces a promotion); ``fen``: the position decided; ``outcome``:
    what the forced promotion leads to (:func:`logic.exact.outcome.outcome`; None
    unless the status is ``"breaks"``); ``stats``: whether the verdict's headline and
    reason give the run's counts and time (structures solved, positions searched,
    seconds: they change from run to run with the cache and the clock); without them the
    texts say only what was proved and how."""

    result: ExactResult
    san: tuple[str, ...]
    fen: str
    outcome: Outcome | None = None
    stats: bool = True


def line_san(board: chess.Board, pv: tuple[str, ...], limit: int = 0) -> str:
    """The UCI line ``pv`` from ``board`` in numbered SAN ("1. h5 gxh5 2. gxh5"); at most
    ``limit`` moves when ``limit`` is positive (then " ..." follows)."""
    moves = [chess.Move.from_uci(u) for u in pv]
    shown = moves[:limit] if limit > 0 else moves
    text = board.variation_san(shown) if shown else ""
    return text + (" ..." if len(shown) < len(moves) else "")


def _sans(board: chess.Board, pv: tuple[str, ...]) -> tuple[str, ...]:
    b = board.copy(stack=False)
    out = []
    for uci in pv:
        move = chess.Move.from_uci(uci)
        out.append(b.san(move))
        b.push(move)
    return tuple(out)


def _real_structure(key: tuple[int, int], color: chess.Color) -> tuple[int, int]:
    """A structure ``(X's pawns, D's pawns)`` of the solver (X = White) as real
    ``(white pawns, black pawns)``."""
    xp, dp = key
    if color:
        return xp, dp
    return chess.flip_vertical(dp), chess.flip_vertical(xp)


class ExactMethod(Method):
    """The exact retrograde prover: milliseconds to seconds a side, so not for search
    nodes (``static`` False), but a proof either way."""

    name = "exact"
    label = "exact (retrograde proof)"
    title = "exact retrograde analysis over every reachable pawn structure"
    static = False
    proves = True
    rules = tuple(ExactRule)
    codes = tuple(ExactCode)
    king_section = ExactRule.EXACT
    region = "below"
    listing, legend = EXACT_LISTING, EXACT_LEGEND
    legend_for, summary = staticmethod(exact_legend), staticmethod(exact_summary)

    def __init__(self, max_seconds: float = MAX_SECONDS) -> None:
        #: the default budget of :func:`logic.detect` calls (seconds per side)
        self.max_seconds = max_seconds
        #: makes the clock each proof reads its time from (one per call); None: the
        #: wall clock (``logic.exact.budget.WorkClock`` makes every proof deterministic)
        self.clock: Callable[[], Clock] | None = None
        #: the memory each proof may hold (bytes, by the prover's count); None: the
        #: prover's default (``logic.exact.budget.MEMORY_ENV``, else a share of the
        #: machine's free memory)
        self.max_bytes: int | None = None
        #: the per-board cache of :func:`logic.detect` (never filled: exact decides
        #: one side at a time, in :meth:`decide_board`)
        self.boards: dict[Any, Any] = {}
        self._verdicts: dict[tuple[Any, ...], Verdict] = {}
        #: endgame tables the outcome of a forced promotion asks for the root's value
        #: (:meth:`use_tables`; None: the rules alone)
        self.tables: Tables | None = None

    def use_tables(self, tables: Tables | None) -> None:
        """Ask ``tables`` (e.g. :func:`logic.exact.outcome.open_tables`; None: none) for
        the outcome of every forced promotion from now on; the cached verdicts go."""
        self.tables = tables
        self._verdicts.clear()

    def solve(self, board: chess.Board, color: chess.Color, *, max_seconds: float | None = None,
              cancel: Callable[[], bool] | None = None, pv: bool = True,
              report: Callable[[int], None] | None = None,
              seen: list[tuple[int, int]] | None = None,
              method: str | None = None,
              on_line: Callable[[], None] | None = None,
              max_structures: int | None = None) -> ExactResult:
        """The prover's raw answer (see :func:`logic.exact.solve`); raises
        :class:`~logic.exact.ExactError` for anything but a legal K+P position.
        ``method`` picks the prover's strategies (:data:`logic.exact.STRATEGIES`);
        by default :meth:`schedule` does."""
        secs = self.max_seconds if max_seconds is None else max_seconds
        return solve(board, color, max_seconds=secs, cancel=cancel, pv=pv, report=report,
                     seen=seen, method=method or self.schedule(board, color), on_line=on_line,
                     max_structures=max_structures, max_bytes=self.max_bytes,
                     clock=None if self.clock is None else self.clock())

    @staticmethod
    def schedule(board: chess.Board, color: chess.Color) -> str:
        """``"claimed"`` when a static method of the registry calls ``color`` blocked on
        ``board``, else ``"auto"``: the strategies the prover tries first
        (:data:`logic.exact.STRATEGIES`).  A static claim is only a hint about which
        games will give the proof soonest; the answer is the prover's alone."""
        try:
            check_board(board)
        except ExactError:
            return "auto"  # the prover rejects it
        w = board.pawns & board.occupied_co[chess.WHITE]
        b = board.pawns & board.occupied_co[chess.BLACK]
        wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
        assert wk is not None and bk is not None
        for m in METHODS.values():
            if m.static and m.is_blocked(w, b, wk, bk, color):
                return "claimed"
        return "auto"

    def decide_board(self, board: chess.Board, color: chess.Color, key: tuple[Any, ...],
                     trace: bool, *, max_seconds: float | None = None,
                     cancel: Callable[[], bool] | None = None,
                     report: Callable[[int], None] | None = None,
                     on_line: Callable[[], None] | None = None) -> Verdict:
        """The verdict for a legal K+P ``board`` (``key``: any hashable naming the
        board, e.g. the board cache's key).  Cached unless traced, cancelled,
        given its own budget or out of memory.  ``report`` / ``on_line``: progress (see
        :func:`logic.exact.solve`)."""
        ckey = (*key, bool(color))
        plain = max_seconds is None and cancel is None
        if not trace and plain:
            v = self._verdicts.get(ckey)
            if v is not None:
                return v
        seen: list[tuple[int, int]] | None = [] if trace else None
        r = self.solve(board, color, max_seconds=max_seconds, cancel=cancel, report=report,
                       seen=seen, on_line=on_line)
        v = self.verdict_of(board, color, r)
        if trace:
            rec = Recorder(bool(color))
            rec.flipped = False  # the prover answers in real coordinates
            self._record(rec, board, color, v, seen or [])
            v = v._replace(steps=tuple(rec.steps))
        elif (plain and r.ran_out != "memory") or r.status in ("blocked", "breaks"):
            if len(self._verdicts) >= _VERDICT_CACHE:
                self._verdicts.clear()
            self._verdicts[ckey] = v
        return v

    def verdict_of(self, board: chess.Board, color: chess.Color, r: ExactResult) -> Verdict:
        """A :class:`Verdict` carrying the prover's answer ``r`` (``detail``: an
        :class:`ExactDetail`).  ``king_mask`` is the king map: for a blockage the
        squares from which the defending king holds, for a forced promotion the squares
        from which the attacking king forces it; ``detail.outcome``: what the forced
        promotion leads to (with :attr:`tables`, where they hold the material)."""
        wk, bk = board.king(color), board.king(not color)
        assert wk is not None and bk is not None
        flip = 0 if color else 0x38
        code = {"blocked": ExactCode.PROVED, "breaks": ExactCode.BREAKS}.get(r.status,
                                                                             ExactCode.UNKNOWN)
        status = Status.UNKNOWN if r.status == "unknown" else Status.OK
        if horizon_of(r) is not None:
            code, status = ExactCode.HORIZON, Status.HORIZON
        km = r.king_map if color else chess.flip_vertical(r.king_map)  # oriented
        raw: Boards = NO_BOARDS._replace(kmask=km) if r.status != "unknown" else NO_BOARDS
        told = (outcome(board, color, r.pv, r.ends, tables=self.tables)
                if r.status == "breaks" else None)
        detail = ExactDetail(result=r, san=_sans(board, r.pv) if r.pv else (), fen=board.fen(),
                             outcome=told)
        return Verdict(color=bool(color), method=self.name, blocked=r.status == "blocked",
                       rule=ExactRule.EXACT, status=status, code=code, args=(), raw=raw, notes=(),
                       kings=(wk ^ flip, bk ^ flip), detail=detail)

    def fields(self, v: Verdict) -> dict[str, Any]:
        """``status`` (blocked / breaks / unknown), ``pv`` (UCI moves), ``plies`` (its
        length, None without a line) and ``ends`` (promotion, defender-promotion, mate; ""
        without a line), ``fastest`` (whether ``pv`` is the real game's fastest line),
        ``proof`` (the game or strategy that proved it: "" the whole DAG, kings, levers,
        nopush, bounds, gap, forward), ``structures`` (solves), ``distinct`` (different
        structures among them), ``nodes`` (positions of the forward search) and ``ms``
        of an exact verdict; ``outcome``: what a forced promotion leads to (``kind``:
        wins, race, defender, draws, loses or unclear; ``text``; ``by``: rule, table or
        search), None without one.  A horizon (:func:`horizon_of`): ``status``
        ``"horizon"``, ``plies`` its depth (no promotion or mate can be forced within that
        many), ``proof`` ``"forward"``."""
        d: ExactDetail | None = v.detail
        if d is None:
            return {}
        r = d.result
        n = horizon_of(r)
        if n is not None:
            r = r._replace(status=Status.HORIZON, plies=n, restricted="forward")
        return {"status": r.status, "pv": list(r.pv), "plies": r.plies, "ends": r.ends,
                "fastest": r.fastest, "proof": r.restricted, "structures": r.structures,
                "distinct": r.distinct, "nodes": r.nodes, "ms": round(r.ms, 1),
                "outcome": None if d.outcome is None else d.outcome.to_dict()}

    def headline(self, v: Verdict) -> str | None:
        d: ExactDetail | None = v.detail
        if d is None:
            return None
        r = d.result
        if v.code == "horizon":
            return horizon_headline(v.side, r)
        if v.code == "proved":
            return f"{v.side} cannot win — proved ({_run(d)})"
        if v.code == "breaks":
            told = d.outcome or UNCLEAR
            if not d.san:
                return (f"{v.side} {_forces(r)} — proved ({_run(d, work=False)}) — "
                        f"{told.text}")
            first, shown = _first_blow(d, v.color)
            if r.ends == DEFENDER_PROMOTES:
                more = " …" if len(d.san) > shown else ""
                said = defender_promotes(v.color)
                return f"{said[0].upper()}{said[1:]}: {first}{more} in {_plies(r.plies)}"
            last = f" … {_last_move(d)}" if len(d.san) > shown else ""
            return f"{v.side} {_forces(r)}: {first}{last} — {told.text}"
        if r.ran_out == "memory":
            return (f"{v.side}: unknown — memory: the exact prover ran out of memory "
                    f"({_run(d, lead='')}{'; ' if d.stats else ''}no guess)")
        why = "budget ran out" if r.ran_out else "strategies all ended undecided"
        return (f"{v.side}: unknown — the exact prover's {why} "
                f"({_run(d, lead='')}{'; ' if d.stats else ''}no guess)")

    def reason(self, v: Verdict, name: Any) -> str | None:
        d: ExactDetail | None = v.detail
        if d is None:
            return None
        r = d.result
        secs = r.ms / 1000
        if v.code == "horizon":
            return _horizon_reason(d, name.us)
        if v.code == "proved":
            how = {"kings": ", against the defending king alone",
                   "levers": ", against a defender who never pushes and takes only with "
                             "pawns",
                   "guard": ", against a defender who never pushes, takes only with pawns "
                            "and lets the attacking king take nothing",
                   "nopush": ", against a defender who never pushes",
                   "bounds": ", from a partial expansion",
                   "gap": ", from a partial expansion following the undecided play",
                   }.get(r.restricted, "")
            return (f"proved: {name.us} cannot force a promotion or mate ({_run(d)}{how})")
        if v.code == "breaks":
            line = f": {_numbered(d)}" if d.san else ""
            searched = f" of {_plural(r.nodes, 'position')}" if d.stats else ""
            how = f", by a forward search{searched}" if r.restricted == "forward" else ""
            if r.ends == DEFENDER_PROMOTES:
                return (f"{defender_promotes(v.color)}, in {_plies(r.plies)} ({_run(d)}{how})"
                        f"{line}")
            told = d.outcome or UNCLEAR
            when = f", {_ends(r)} in {_plies(r.plies)}" if r.plies else ""
            return (f"{name.us} {_forces(r)}{when} ({_run(d)}{how})"
                    f"{line} — {told.text}")
        if not d.stats:
            return _unknown_without_stats(r)
        if r.ran_out == "structures":
            return (f"unknown: the exact prover's structure budget ran out: {r.structures:,} "
                    f"solves of {_work(r)} in {secs:.2f} s (no guess)")
        if not r.ran_out:
            return (f"unknown: every strategy of the exact prover ended undecided after "
                    f"{_work(r)} and {secs:.2f} s (no guess)")
        return (f"unknown: the exact prover's {_ran_out(r)} after {_work(r)} and {secs:.2f} s "
                f"(no guess)")

    def _record(self, rec: Recorder, board: chess.Board, color: chess.Color, v: Verdict,
                seen: list[tuple[int, int]]) -> None:
        """The trace: the structures as they were solved, the king map, then the line
        move by move (real coordinates throughout)."""
        d = v.detail
        assert d is not None, "an exact verdict carries its detail"
        r = d.result
        order = list(dict.fromkeys(seen))  # each structure once, as first solved
        shown = order[:STRUCTURE_STEPS]
        for i, key in enumerate(shown, 1):
            wp, bp = _real_structure(key, color)
            more = (f" (and {r.distinct - len(shown):,} more)" if i == len(shown)
                    and r.distinct > len(shown) else "")
            rec.add("exact-structure", ExactRule.EXACT, "structures",
                    f"Structure {i} of {r.distinct:,} solved{more}: White "
                    f"{_squares(wp)}, Black {_squares(bp)}; every placement of both kings.",
                    facts=(("index", i), ("total", r.distinct)),
                    structure_white=wp, structure_black=bp)
        again = (f" in {r.structures:,} solves (some again, in a deeper expansion or "
                 f"another game)" if r.structures > r.distinct else "")
        rec.add("exact-solve", ExactRule.EXACT, "structures solved",
                f"Retrograde analysis over the pawn structures reachable from here: "
                f"{r.distinct:,} solved{again}, {r.cached:,} from the cache, {r.states:,} "
                f"king placements.",
                facts=(("structures", r.structures), ("distinct", r.distinct),
                       ("cached", r.cached), ("nodes", r.nodes),
                       ("restricted", r.restricted), ("status", r.status)))
        if horizon_of(r) is not None:
            rec.add("exact-forward", ExactRule.EXACT, "forward search",
                    f"Forward search, a ply deeper each time: {rec.us} cannot force a "
                    f"promotion or mate within {_plies(r.horizon)} against every defence "
                    f"({_plural(r.nodes, 'position')} searched); the whole game was too big "
                    f"to solve within the budget.",
                    facts=(("nodes", r.nodes), ("horizon", r.horizon)))
        if r.restricted == "forward" and r.plies:
            rec.add("exact-forward", ExactRule.EXACT, "forward search",
                    f"Forward search, a ply deeper each time: {rec.us} forces the end of the "
                    f"blockage within {_plies(r.plies)} against every defence, and not within "
                    f"fewer ({_plural(r.nodes, 'position')} searched).",
                    facts=(("nodes", r.nodes), ("plies", r.plies)))
        marked = _plural(chess.popcount(r.king_map), "marked square")
        if r.status == "blocked":
            rec.add("exact-kings", ExactRule.EXACT, "king map",
                    f"{rec.them}'s king holds from the {marked} (with {rec.us}'s king and "
                    f"the side to move as now; the squares this proof covers, others may "
                    f"hold too).",
                    changed=r.king_map, kingmap=r.king_map, facts=(("holds", True),))
        elif r.status == "breaks":
            does = ("forces the end of the blockage" if r.ends == DEFENDER_PROMOTES
                    else _forces(r))
            rec.add("exact-kings", ExactRule.EXACT, "king map",
                    f"With {rec.them}'s king where it stands, {rec.us} {does} from the "
                    f"{marked} of its king (the squares this proof covers, others may "
                    f"too).",
                    changed=r.king_map, kingmap=r.king_map, facts=(("holds", False),))
            _record_line(rec, board, r, color, d.outcome)
        rec.add("verdict", ExactRule.EXACT, "verdict", v.headline + ".")

    def clear_cache(self) -> None:
        self._verdicts.clear()
        clear_structures()

    def cache_info(self) -> dict[str, int]:
        return {"verdicts": len(self._verdicts)}


#: ``ExactResult.ends`` of a line that ends in the defender's forced promotion
DEFENDER_PROMOTES = "defender-promotion"


def horizon_of(r: ExactResult) -> int | None:
    """The horizon a result proves, in plies, when it makes a verdict of its own: an
    unknown, not cancelled, whose forward search proved at least :data:`MIN_HORIZON`
    plies without a forced promotion (that stands) or mate; else None."""
    if r.status == "unknown" and r.horizon >= MIN_HORIZON and r.ran_out != "cancelled":
        return r.horizon
    return None


def too_big(r: ExactResult) -> str:
    """Why the whole game was not solved, in a few words: "too big for 10 s" (the
    call's time, by its clock), "too big for 200,000 structures", "too big to solve
    here" (every other strategy ended undecided)."""
    if r.ran_out == "time":
        return f"too big for {r.seconds:g} s"
    if r.ran_out == "structures":
        return f"too big for {r.structures:,} structures"
    return "too big to solve here"


def horizon_headline(side: str, r: ExactResult) -> str:
    """"White cannot force a promotion within 15 plies (proved; the whole game is too
    big for 10 s)"."""
    return (f"{side} cannot force a promotion within {_plies(r.horizon)} (proved; the "
            f"whole game is {too_big(r)})")


def _horizon_reason(d: ExactDetail, us: str) -> str:
    r = d.result
    searched = (f"a forward search of {_plural(r.nodes, 'position')}, {r.ms / 1000:.2f} s"
                if d.stats else "a forward search")
    counts = f" ({_work(r)})" if d.stats else ""
    return (f"horizon: {us} cannot force a promotion that stands (by either side) or mate "
            f"within {_plies(r.horizon)}, against every defence (exact: {searched}); no "
            f"blockage is proved: the whole game is {too_big(r)}{counts}")


def defender_promotes(attacker: chess.Color) -> str:
    """What a line that ends in the defender's forced promotion says: the blockage ends,
    but that is no win for ``attacker`` (the promotion counts for the attacker only so
    that "cannot win" stays a proof)."""
    them = chess.COLOR_NAMES[not attacker].capitalize()
    us = chess.COLOR_NAMES[attacker].capitalize()
    return f"the blockage ends: {them} is forced to promote (no win for {us} proved)"


def _forces(r: ExactResult) -> str:
    """What the attacker forces: "forces mate" or "forces a promotion"."""
    return "forces mate" if r.ends == "mate" else "forces a promotion"


def _last_move(d: ExactDetail) -> str:
    """The line's last move, numbered ("5. g8=Q+", "7... a1=Q")."""
    board = chess.Board(d.fen)
    for uci in d.result.pv[:-1]:
        board.push(chess.Move.from_uci(uci))
    dots = "." if board.turn == chess.WHITE else "..."
    return f"{board.fullmove_number}{dots} {d.san[-1]}"


def _ends(r: ExactResult) -> str:
    return {"promotion": "promotes", "defender-promotion": "forces the defender to promote",
            "mate": "mates"}.get(r.ends, "ends the blockage")


def _plies(n: int | None) -> str:
    """"1 ply", "9 plies"."""
    return f"{n} ply" if n == 1 else f"{n} plies"


def _first_blow(d: ExactDetail, color: chess.Color) -> tuple[str, int]:
    """The line up to the attacker's (``color``'s) first move, numbered, that move marked
    "!" (the defender's reply first when it is to move: "1. Kb1 Kh2!"); and how many moves
    of the line that is."""
    board = chess.Board(d.fen)
    shown = 1 if board.turn == color or len(d.result.pv) < 2 else 2
    text = board.variation_san([chess.Move.from_uci(u) for u in d.result.pv[:shown]])
    return (text + "!" if board.turn == color or shown == 2 else text), shown


def _numbered(d: ExactDetail, limit: int = 12) -> str:
    """The SAN line with move numbers, at most ``limit`` moves."""
    board = chess.Board(d.fen)
    moves = [chess.Move.from_uci(u) for u in d.result.pv[:limit]]
    text = board.variation_san(moves)
    return text + (" …" if len(d.result.pv) > limit else "")


def _record_line(rec: Recorder, board: chess.Board, r: ExactResult,
                 attacker: chess.Color, told: Outcome | None = None) -> None:
    """One step per move of the line: an arrow with its SAN and a sentence (a pawn
    that has passed is named with its side, ``attacker``'s first; at a move of the
    attacker, why it works where :func:`logic.exact.why.x_move_reason` knows; the last
    move with the outcome ``told``)."""
    b = board.copy(stack=False)
    # a partial expansion's line is fastest only among the lines that expansion knows
    best = ("best play (the attacker fastest, the defender longest)." if r.fastest else
            "best play within the proof's partial expansion (the attacker fastest there, "
            "the defender longest).")
    for i, uci in enumerate(r.pv):
        move = chess.Move.from_uci(uci)
        san = b.san(move)
        number = f"{b.fullmove_number}." if b.turn else f"{b.fullmove_number}..."
        mover = chess.COLOR_NAMES[b.turn].capitalize()
        before = {c: _passed_files(b, c) for c in chess.COLORS}
        capture = b.is_capture(move)
        taken = capture and b.piece_type_at(move.to_square) not in (chess.PAWN, None)
        b.push(move)
        passed = _new_passers(b, before, attacker)
        why = x_move_reason(b, move, attacker) if i < len(r.pv) - 1 else NO_REASON
        if i == len(r.pv) - 1:
            then = f" — {told.text}" if told is not None and r.ends != DEFENDER_PROMOTES else ""
            tail = {"promotion": f"{mover} promotes: the blockage is over{then}.",
                    "defender-promotion": f"{mover} is forced to promote: the blockage ends "
                                          f"(no win for {rec.us} proved).",
                    "mate": f"Checkmate{then}."}.get(r.ends, "The blockage is over.")
        elif move.promotion:
            tail = f"{mover} promotes, but the new piece is taken at once."
        elif taken:
            tail = f"{mover} takes the new piece: the game goes on with kings and pawns."
        elif passed:  # the passed pawns' sentence last (the named pawns end the text)
            tail = passed if why.kind in ("", "passed") else f"{why.text} {passed}"
        elif why.text:
            tail = why.text
        elif capture:
            tail = "a capture opens the structure."
        elif b.piece_type_at(move.to_square) == chess.PAWN:
            tail = "a pawn moves on."
        else:
            tail = best
        rec.add("exact-move", ExactRule.EXACT, "the line", f"{number} {san}: {tail}",
                changed=(1 << move.from_square) | (1 << move.to_square),
                square=move.to_square,
                facts=(("uci", uci), ("san", san), ("ply", i + 1), ("from", move.from_square),
                       ("to", move.to_square), ("fen", b.fen())))


def _new_passers(board: chess.Board, before: dict[chess.Color, int],
                 attacker: chess.Color) -> str:
    """What the move just played passed: "White's g-pawn and Black's f-pawn have passed."
    (the pawns of each side on files where it had no passed pawn, ``before[color]``, and
    now has one; ``attacker``'s first), or "" when none."""
    parts = []
    for c in (attacker, not attacker):
        new = _passed_files(board, c) & ~before[c]
        if new:
            files = [f"{chess.FILE_NAMES[f]}-" for f in chess.scan_forward(new)]
            names = (f"{files[0]}pawn" if len(files) == 1 else
                     f"{', '.join(files[:-1])} and {files[-1]}pawns")
            parts.append(f"{chess.COLOR_NAMES[c].capitalize()}'s {names}")
    if not parts:
        return ""
    single = len(parts) == 1 and parts[0].endswith("pawn")
    return f"{' and '.join(parts)} {'has' if single else 'have'} passed."


def _passed_files(board: chess.Board, color: chess.Color) -> int:
    """The files (bit i: file i) that hold a passed pawn of ``color``."""
    own = board.pieces_mask(chess.PAWN, color)
    passed = passed_pawns(own, board.pieces_mask(chess.PAWN, not color), color)
    return file_set(passed)


def _squares(bb: int) -> str:
    return " ".join(chess.square_name(s) for s in chess.scan_forward(bb)) or "none"


def _ran_out(r: ExactResult) -> str:
    """What ran out: "time ran out", "run was cancelled", "memory ran out", "budget ran
    out"."""
    return {"time": "time ran out", "cancelled": "run was cancelled",
            "memory": "memory ran out"}.get(r.ran_out or "", "budget ran out")


def _unknown_without_stats(r: ExactResult) -> str:
    """An unknown verdict's reason without the run's counts and time."""
    if r.ran_out == "structures":
        return "unknown: the exact prover's structure budget ran out (no guess)"
    if not r.ran_out:
        return "unknown: every strategy of the exact prover ended undecided (no guess)"
    return f"unknown: the exact prover's {_ran_out(r)} (no guess)"


def _run(d: ExactDetail, *, work: bool = True, lead: str = "exact") -> str:
    """How the verdict was found: "exact: 16 structures, 0.12 s" (``work`` False: "exact,
    0.12 s"; ``lead`` empty: "16 structures, 0.12 s"), or only ``lead`` when the detail
    leaves the run's counts and time out (``d.stats`` False)."""
    if not d.stats:
        return lead
    r = d.result
    said = f"{_work(r)}, {r.ms / 1000:.2f} s" if work else f"{r.ms / 1000:.2f} s"
    return f"{lead}: {said}" if lead and work else (f"{lead}, {said}" if lead else said)


def _work(r: ExactResult) -> str:
    """The structures a result took: "16 structures", or "4 cached structures" when the
    cache held every one it needed."""
    if not r.distinct and r.cached:
        return _plural(r.cached, "cached structure")
    return _plural(r.distinct, "structure")


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


EXACT = ExactMethod()
