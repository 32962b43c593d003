"""``pawnfence scan``: find detector failures in real games, at scale.

Inputs are PGN or EPD files (plain or ``.gz``).  Games are replayed and their
king-and-pawn positions collected (each position once, with the first game and
ply it occurred in); EPD lines are taken as they are.  Every position is
classified by both methods for both sides and optionally evaluated by a UCI
engine.  Output, in ``DIR``:

* ``results.jsonl``: one object per position (``key``, ``fen``, ``source``,
  ``verdicts``, ``engine``, ``categories``), appended as each position is done, so
  an interrupted scan resumes where it stopped (done keys are skipped, a torn last
  line is dropped) and is finally rewritten in input order;
* ``suspects.epd``: the interesting positions with ``id`` and a ``c0`` category
  (``claims-blocked-engine-wins``, ``drawish-with-edge-not-detected``,
  ``methods-disagree``), ``c1`` the engine score, and ``c3`` / ``c4`` the side and the
  method the category is about (:data:`logic.position.SUSPECT_OPERANDS`; the viewer
  opens a case on them);
* ``errors.log``: malformed games and lines with their location (a damaged line of
  ``results.jsonl`` is kept with its original bytes in ``results.jsonl.bad``);
* ``engine.log``: what python-chess and asyncio say about a failing engine (unexpected
  output, lines they cannot parse), which would otherwise flood standard error; an
  engine that fails is one line of the command's output;
* ``summary.json`` (with ``--judge exact``): the judge's figures per method (false
  positives, confirmed claims, recall against exact, disagreements, exact's unknown
  rate) and the run's throughput (see :mod:`logic.tools.judge`).

With ``--judge exact`` the exact prover settles the pairs the judge selects and adds the
categories ``claims-blocked-exact-breaks``, ``exact-blocked-heuristic-misses`` and
``exact-horizon``
(``c2``: exact's answer, with a breakthrough's first moves, and each method's verdict or
failing rule).  ``every`` keeps every K-th position of the input (a sample).

Work is spread over all cores (``--jobs``) or a Dask cluster (``--dask ADDRESS``).
"""

from __future__ import annotations

import gc
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import chess
import chess.pgn

import logic
from logic.files import atomic_write_text, escaped, make_folder
from logic.position import open_text, read_epd
from logic.tools.judge import (
    JudgeConfig,
    edge,
    judge_categories,
    judge_note,
    judge_position,
    judge_problem,
    summarize,
)
from logic.tools.runlog import Progress, carried_notes, load_rows, parse_row, route_engine_noise
from logic.uci import Engine, EngineError, IllegalPositionError
from logic.vocab import Category

__all__ = ["Item", "read_items", "iter_games", "classify_item", "categories", "scan",
           "ScanError", "WIN_CP", "DRAW_CP", "JudgeConfig", "iter_results"]

WIN_CP = 300  # an engine score at least this (side's view), or a mate, is a win
DRAW_CP = 50  # |score| at most this is drawish


@dataclass(frozen=True)
class Item:
    """A position to classify: ``key`` identifies it (EPD of the position), ``seq`` is its
    place in the input order, ``source`` where it was first seen."""

    seq: int
    key: str
    fen: str
    source: dict[str, Any]


def _is_kp(board: chess.Board) -> bool:
    return board.occupied == board.pawns | board.kings and bool(board.pawns)


def read_items(paths: Sequence[str | Path], errors: list[str],
               failed: list[str] | None = None,
               skipped: list[str] | None = None) -> Iterator[Item]:
    """The K+P positions of ``paths``, deduplicated; problems go to ``errors``, and a file
    that cannot be read or stops reading (damaged) to ``failed`` too; an EPD line that is
    well formed but not kings and pawns (other pieces, or no pawns) to ``skipped``."""
    failed = [] if failed is None else failed
    seen: set[str] = set()
    seq = 0
    for path in map(Path, paths):
        try:
            fh = open_text(path)
        except OSError as exc:
            _fail(f"{path}: cannot read: {exc.strerror or exc}", errors, failed)
            continue
        with fh:
            is_pgn = ".pgn" in path.name.lower()
            source_iter = (_pgn_items(path, fh, errors, failed) if is_pgn
                           else _epd_items(path, fh, errors, failed, skipped))
            for key, fen, source in source_iter:
                if key in seen:
                    continue
                seen.add(key)
                yield Item(seq, key, fen, source)
                seq += 1


def _fail(message: str, errors: list[str], failed: list[str] | None) -> None:
    """Note a file-level failure in ``errors`` and ``failed``."""
    errors.append(message)
    if failed is not None:
        failed.append(message)


def _stuck(fh: TextIO, offset: int) -> bool:
    """True when reading did not move past ``offset`` (no progress: stop, never loop)."""
    try:
        return fh.tell() <= offset
    except OSError:
        return True


def _epd_items(path: Path, fh: TextIO, errors: list[str], failed: list[str],
               skipped: list[str] | None = None) -> Iterator[tuple[str, str, dict]]:
    try:
        for entry in read_epd(fh):
            board = entry.board
            if board is None:
                errors.append(f"{path}:{entry.line}: {entry.error}")
                continue
            if not _is_kp(board):
                if skipped is not None:
                    why = "no pawns" if board.occupied == board.kings else "other pieces"
                    skipped.append(f"{path}:{entry.line}: skipped, not kings and pawns "
                                   f"({why}): {board.fen()}")
                continue
            yield board.epd(), board.fen(), {"file": str(path), "line": entry.line,
                                             "id": entry.ops.get("id")}
    except (UnicodeDecodeError, OSError, EOFError, ValueError) as exc:  # a damaged .gz, a
        _fail(f"{path}: stopped reading: {exc}", errors, failed)  # line without end


def iter_games(path: Path, fh: TextIO, errors: list[str], failed: list[str] | None = None
               ) -> Iterator[tuple[int, str, chess.pgn.Game]]:
    """``(number, where, game)`` for every game python-chess can read from ``fh`` (``where``
    names the file, the game's number and offset); a game it fails inside is skipped and a
    damaged file (bad bytes, a cut ``.gz``) ends the reading, each with a line in
    ``errors`` (the latter in ``failed`` too).  The one game reader of ``scan`` and
    ``bench --scan``."""
    import logging

    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # errors.log has them
    game_no = 0
    while True:
        try:
            offset = fh.tell() if fh.seekable() else None
        except OSError:
            offset = None
        try:
            game = chess.pgn.read_game(fh)
        except (UnicodeDecodeError, OSError, EOFError) as exc:  # the file itself is damaged
            _fail(f"{path}: game {game_no + 1}: stopped reading: {exc}", errors, failed)
            break
        except Exception as exc:  # noqa: BLE001 - python-chess fails inside one game (e.g.
            # IndexError in visit_nag): log it with its location and read on
            game_no += 1
            errors.append(f"{path}: game {game_no}"
                          + (f" (offset {offset})" if offset is not None else "")
                          + f": malformed game, skipped ({type(exc).__name__}: {exc})")
            if offset is not None and _stuck(fh, offset):
                break
            continue
        if game is None:
            break
        game_no += 1
        yield game_no, f"{path}: game {game_no}" + (f" (offset {offset})"
                                                    if offset is not None else ""), game


def _pgn_items(path: Path, fh: TextIO, errors: list[str], failed: list[str]
               ) -> Iterator[tuple[str, str, dict]]:
    for game_no, where, game in iter_games(path, fh, errors, failed):
        try:
            board = game.board()
        except ValueError as exc:  # python-chess noted it in game.errors too: once here
            errors.append(f"{where}: bad FEN header: {exc}")
            continue
        if game.errors:
            errors.append(f"{where}: {game.errors[0]}")
        headers = {k: game.headers.get(k, "?") for k in ("White", "Black", "Event", "Site")}
        ply = 0
        node: chess.pgn.GameNode = game
        while True:
            if _is_kp(board) and board.is_valid():
                yield board.epd(), board.fen(), {"file": str(path), "game": game_no,
                                                 "ply": ply, **headers}
            if not node.variations:
                break
            child = node = node.variations[0]
            try:
                board.push(child.move)
            except (AssertionError, ValueError) as exc:
                errors.append(f"{where}: ply {ply + 1}: {exc}")
                break
            ply += 1


# -- classification (runs in workers) ---------------------------------------------------------

_engine: Engine | None = None
_engine_time = 0.1


_judge: JudgeConfig | None = None


_unroute: Callable[[], None] | None = None


def _init_worker(engine_path: str | None, engine_time: float,
                 judge: JudgeConfig | None = None, engine_log: str | None = None) -> None:
    """Set up this process to classify: the engine (started on first use), its time,
    the judge, and with an engine and ``engine_log`` what python-chess and asyncio say
    about it routed to that file (:func:`logic.tools.runlog.route_engine_noise`)."""
    global _engine, _engine_time, _judge, _unroute
    _end_worker()
    _engine = Engine(engine_path) if engine_path else None
    _engine_time = engine_time
    _judge = judge
    if engine_path and engine_log:
        _unroute = route_engine_noise(Path(engine_log))


def _end_worker() -> None:
    """Close the engine and undo the routing of :func:`_init_worker`."""
    global _unroute
    _close_engine()
    if _unroute is not None:
        _unroute()
        _unroute = None


def _engine_eval(board: chess.Board) -> dict[str, Any] | None:
    """The engine's evaluation of ``board`` as a result field, or ``{"error": ...}`` (one
    line naming the engine) when it fails; None without an engine."""
    if _engine is None:
        return None
    try:
        return _engine.analyse(board, _engine_time).to_dict()
    except (EngineError, IllegalPositionError) as exc:
        return {"error": str(exc)}


def classify_item(item: Item) -> dict[str, Any]:
    """The result object of one position (both methods, both sides, engine score)."""
    board = chess.Board(item.fen)
    verdicts: dict[str, dict[str, Any]] = {}
    for method in logic.STATIC_METHODS:
        verdicts[method] = {}
        for color in chess.COLORS:
            v = logic.detect(board, color, method=method)
            verdicts[method][chess.COLOR_NAMES[color]] = {"blocked": v.blocked, "rule": v.rule}
    result = {"seq": item.seq, "key": item.key, "fen": item.fen, "source": item.source,
              "verdicts": verdicts, "engine": _engine_eval(board)}
    if _judge is not None:
        result["judge"] = _judge.to_dict()
        result["exact"] = judge_position(board, verdicts, _judge)
    result["categories"] = categories(result)
    return result


def classify_shard(items: list[Item], engine_path: str | None = None,
                   engine_time: float = 0.1, judge: JudgeConfig | None = None,
                   engine_log: str | None = None) -> list[dict[str, Any]]:
    """Classify a shard (the unit of work of a pool worker and of Dask); ``engine_log``:
    the file the engine's noise goes to (see :func:`_init_worker`)."""
    _init_worker(engine_path, engine_time, judge, engine_log)
    try:
        return [classify_item(it) for it in items]
    finally:
        _end_worker()


def _close_engine() -> None:
    global _engine
    if _engine is not None:
        _engine.close()
        _engine = None


def _side_wins(engine: dict[str, Any] | None, color: chess.Color) -> bool:
    if not engine or "error" in engine:
        return False
    sign = 1 if color else -1
    if engine.get("mate") is not None:
        return engine["mate"] * sign > 0
    return engine.get("cp") is not None and engine["cp"] * sign >= WIN_CP


def suspect_focus(result: dict[str, Any], category: str) -> tuple[str, str]:
    """``(side, method)`` a category of ``result`` is about: the side and static method
    that claim a blockage the engine or exact refutes, the side whose edge no method
    sees (with the default method), the side where the cross-checked methods disagree (with
    the method that claims the blockage), the side exact proves blocked (with exact)."""
    v = result["verdicts"]
    board = chess.Board(result["fen"])
    exact = result.get("exact") or {}
    statics = [m for m in logic.STATIC_METHODS if m in v]
    for color in chess.COLORS:
        name = chess.COLOR_NAMES[color]
        claims = [m for m in statics if v[m][name]["blocked"]]
        said = exact.get(name, {}).get("status")
        if category == Category.CLAIMS_BLOCKED_ENGINE_WINS and claims \
                and _side_wins(result.get("engine"), color):
            return name, claims[0]
        if category == Category.DRAWISH_WITH_EDGE_NOT_DETECTED and edge(board, color) \
                and not claims:
            return name, logic.DEFAULT_METHOD
        if category == Category.METHODS_DISAGREE and _disagree(v, name):
            return name, claims[0]
        if category == Category.CLAIMS_BLOCKED_EXACT_BREAKS and claims and said == "breaks":
            return name, claims[0]
        if category == Category.EXACT_BLOCKED_HEURISTIC_MISSES and said == "blocked" \
                and not claims:
            return name, "exact"
    return "white", logic.DEFAULT_METHOD


def _disagree(verdicts: dict[str, Any], side: str) -> bool:
    """Whether the cross-checked methods (``Method.cross_checked``: the paper and the wiki
    flood) of a result's ``verdicts`` disagree on ``side``."""
    said = {verdicts[m.name][side]["blocked"] for m in logic.STATIC_METHODS.values()
            if m.cross_checked and m.name in verdicts}
    return len(said) > 1


def categories(result: dict[str, Any]) -> list[Category]:
    """The suspect categories of a result (empty when nothing looks wrong)."""
    cats: list[Category] = []
    v = result["verdicts"]
    engine = result.get("engine")
    board = chess.Board(result["fen"])
    sides = [(c, chess.COLOR_NAMES[c]) for c in chess.COLORS]
    if any(v[m][name]["blocked"] and _side_wins(engine, c)
           for m in logic.STATIC_METHODS for c, name in sides):
        cats.append(Category.CLAIMS_BLOCKED_ENGINE_WINS)
    if engine and "error" not in engine and engine.get("mate") is None \
            and engine.get("cp") is not None and abs(engine["cp"]) <= DRAW_CP:
        for c, name in sides:
            if edge(board, c) and not any(v[m][name]["blocked"] for m in logic.STATIC_METHODS):
                cats.append(Category.DRAWISH_WITH_EDGE_NOT_DETECTED)
                break
    if any(_disagree(v, name) for _c, name in sides):
        cats.append(Category.METHODS_DISAGREE)
    if "exact" in result:
        cats += judge_categories(board, v, result["exact"])
    return cats


# -- the run ---------------------------------------------------------------------------------

def _is_int(x: Any) -> bool:
    """A whole number a 64-bit integer holds (JSON allows 10**400)."""
    return isinstance(x, int) and not isinstance(x, bool) and abs(x) < 2**63


def _source_problem(src: Any) -> str:
    if not isinstance(src, dict) or not isinstance(src.get("file"), str):
        return "'source' is not an object with a 'file'"
    if "game" in src:
        if not (_is_int(src["game"]) and _is_int(src.get("ply")) and all(
                isinstance(src.get(k), str) for k in ("White", "Black", "Event", "Site"))):
            return "'source' of a game malformed"
    elif not _is_int(src.get("line")) or not (src.get("id") is None or  # id 5; id "x";
                                              isinstance(src["id"], str | int | float)):
        return "'source' of a line malformed"
    return ""


def _engine_problem(engine: Any) -> str:
    if engine is None:
        return ""
    if not isinstance(engine, dict):
        return "'engine' is not an object"
    if "error" in engine:
        return "" if isinstance(engine["error"], str) else "'engine' error is not text"
    if not all(engine.get(k) is None or _is_int(engine[k]) for k in ("cp", "mate", "depth")) \
            or not isinstance(engine.get("pv"), list) \
            or not all(isinstance(m, str) for m in engine["pv"]):
        return "'engine' evaluation malformed"
    return ""


def _verdicts_problem(v: Any) -> str:
    for m in logic.STATIC_METHODS:
        for side in ("white", "black"):
            x = v.get(m, {}).get(side) if isinstance(v.get(m), dict) else None
            if not isinstance(x, dict) or not isinstance(x.get("blocked"), bool) or \
                    not (x.get("rule") is None or isinstance(x["rule"], str)):
                return f"verdict {m}/{side} malformed"
    return ""


def _result_problem(row: Any) -> str:
    """Why a line of ``results.jsonl`` is not a well-formed result ("" when it is): every
    field the scan writes, of the type it writes, and the key the FEN's position."""
    if not isinstance(row, dict):
        return f"a JSON {type(row).__name__}, not an object"
    for key, kind in (("key", str), ("fen", str), ("source", dict), ("verdicts", dict),
                      ("categories", list)):
        if not isinstance(row.get(key), kind):
            return f"{key!r} missing or not a {kind.__name__}"
    if not all(isinstance(c, str) for c in row["categories"]):
        return "'categories' holds a non-string"
    if "engine" not in row:
        return "'engine' missing"
    try:
        board = chess.Board(row["fen"])
    except ValueError:
        return "'fen' is not a FEN"
    if board.epd() != row["key"]:
        return "'key' is not the FEN's position"
    if "exact" in row and (why := judge_problem(row["exact"])):
        return why
    return _source_problem(row["source"]) or _engine_problem(row["engine"]) or \
        _verdicts_problem(row["verdicts"])


def _load_done(results: Path, errors: list[str]) -> dict[str, dict[str, Any]]:
    """Results already written by an earlier run (see :func:`logic.tools.runlog.load_rows`:
    a torn last line is cut, a malformed line is set aside with its line number)."""
    return {row["key"]: row for row in load_rows(results, _result_problem, errors)}


def scan(
    inputs: Sequence[str | Path], out_dir: str | Path, *, engine: str | None = None,
    engine_time: float = 0.1, jobs: int | None = None, dask_address: str | None = None,
    progress: TextIO | None = sys.stderr, shard_size: int = 200,
    judge: JudgeConfig | None = None, every: int = 1, dask_timeout: float = 30.0,
) -> dict[str, Any]:
    """Scan ``inputs`` into ``out_dir``; returns a summary (counts per category, errors,
    the messages of input files that could not be read or stopped reading
    (``unreadable``), and with ``judge`` the judge's figures, also written to
    ``summary.json``).  Results of an earlier run are reused when they were made with
    the same ``judge``; ``every`` keeps every K-th distinct position of the input.  A
    Dask scheduler that does not answer within ``dask_timeout`` seconds is a
    :class:`ScanError` (the results written so far stay)."""
    out = Path(out_dir)
    make_folder(out)
    results_path = out / "results.jsonl"
    errors: list[str] = []
    failed: list[str] = []
    skipped: list[str] = []
    items = [it for it in read_items(inputs, errors, failed, skipped)
             if it.seq % every == 0]
    wanted = judge.to_dict() if judge else None
    done = {k: r for k, r in _load_done(results_path, errors).items()
            if r.get("judge") == wanted}
    todo = [it for it in items if it.key not in done]
    bar = Progress(len(items), progress)
    bar.step(len(items) - len(todo), resumed=True)
    start = time.perf_counter()
    with open(results_path, "a", encoding="utf-8") as fh:
        for row in _run(todo, engine, engine_time, jobs, dask_address, shard_size, judge,
                        dask_timeout, str(out / "engine.log")):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[row["key"]] = row
            bar.step()
    elapsed = time.perf_counter() - start
    order = {it.key: it.seq for it in items}
    rows = sorted((r for r in done.values() if r["key"] in order), key=lambda r: order[r["key"]])
    for r in rows:
        r["seq"] = order[r["key"]]
    atomic_write_text(results_path, "".join(json.dumps(r) + "\n" for r in rows))
    counts = _write_suspects(out / "suspects.epd", rows)
    # input errors are found again by every run; lines set aside from results.jsonl only
    # once, so those of earlier runs are carried over
    kept = carried_notes(out / "errors.log")
    atomic_write_text(out / "errors.log",  # a file name that is not UTF-8 as escapes
                      "".join(escaped(e) + "\n" for e in [*kept, *errors, *skipped]))
    gave_up = sorted({str(r["engine"]["error"]) for r in rows
                      if isinstance(r.get("engine"), dict)
                      and "given up" in str(r["engine"].get("error", ""))})
    summary = {"positions": len(rows), "categories": counts, "errors": len(errors),
               "skipped": len(skipped),
               "resumed": len(items) - len(todo), "classified": len(todo),
               "engine_failures": _engine_failures(rows),
               "engine_gave_up": gave_up, "unreadable": failed}
    if judge is not None:
        summary["judge"] = {**judge.to_dict(), **summarize(
            rows, list(logic.STATIC_METHODS), recall=judge.pairs == "edge")}
        summary["seconds"] = round(elapsed, 3)
        summary["positions_per_second"] = round(len(todo) / elapsed, 2) if todo else None
        summary["jobs"] = jobs or os.cpu_count() or 1
        atomic_write_text(out / "summary.json", json.dumps(summary, indent=1) + "\n")
    return summary


def _engine_failures(rows: list[dict[str, Any]]) -> list[str]:
    """One line for an engine that failed on some of ``rows`` without being given up
    (a given-up engine has its own line), naming it, the number of positions and its
    most frequent failure; none otherwise.  An illegal position never sent is no failure
    of the engine."""
    seen: dict[str, int] = {}
    for r in rows:
        eng = r.get("engine")
        if not isinstance(eng, dict) or "error" not in eng:
            continue
        why = str(eng["error"])
        if "given up" in why:
            return []
        if not why.startswith("illegal position not sent"):
            seen[why] = seen.get(why, 0) + 1
    if not seen:
        return []
    n = sum(seen.values())
    most = max(seen, key=lambda k: seen[k])
    return [f"{most} ({n} position{'s' if n > 1 else ''} without an engine score; see "
            "results.jsonl)"]


def _write_suspects(path: Path, rows: list[dict[str, Any]]) -> dict[str, int]:
    """Write every categorised result to the EPD file ``path`` (``id``, ``c0`` category,
    ``c1`` engine score, ``c2`` the judge's note, ``c3`` side, ``c4`` method); returns
    the count per category.  The ``id`` names the input file; bytes of its name that
    are not UTF-8 are written as backslash escapes (``\\xff``)."""
    suspects = []
    counts: dict[str, int] = {}
    for r in rows:
        for cat in r["categories"]:
            counts[cat] = counts.get(cat, 0) + 1
            board = chess.Board(r["fen"])
            eng = r.get("engine") or {}
            score = (f"mate {eng['mate']}" if eng.get("mate") is not None else
                     f"{eng['cp'] / 100:+.2f}" if eng.get("cp") is not None else "-")
            src = r["source"]
            name = (f"{Path(src['file']).name} game {src['game']} ply {src['ply']}"
                    if "game" in src else f"{Path(src['file']).name} line {src['line']}")
            if src.get("id") is not None:
                name += f" id {src['id']}"
            # a file name that is not UTF-8 as backslash escapes (EPD is UTF-8 text)
            ops: dict[str, Any] = {"id": escaped(name), "c0": cat, "c1": f"engine {score}"}
            if "exact" in r:
                ops["c2"] = judge_note(board, r["verdicts"], r["exact"])
            ops["c3"], ops["c4"] = suspect_focus(r, cat)
            suspects.append(board.epd(**ops))
    atomic_write_text(path, "".join(s + "\n" for s in suspects))
    return counts


class ScanError(RuntimeError):
    """The scan cannot go on (e.g. the Dask scheduler is unreachable or lost); what was
    written so far stays, and the same command resumes."""


def _run(todo: list[Item], engine: str | None, engine_time: float, jobs: int | None,
         dask_address: str | None, shard_size: int, judge: JudgeConfig | None = None,
         dask_timeout: float = 30.0, engine_log: str | None = None
         ) -> Iterable[dict[str, Any]]:
    if dask_address:
        shards = [todo[i:i + shard_size] for i in range(0, len(todo), shard_size)]
        yield from _run_dask(shards, engine, engine_time, dask_address, judge, dask_timeout)
        return
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(todo) < 50:
        _init_worker(engine, engine_time, judge, engine_log)
        try:
            for it in todo:
                yield classify_item(it)
        finally:
            _end_worker()
        return
    import multiprocessing as mp

    per = 5 if judge is not None else 25  # judged positions take longer: smaller shards
    small = [todo[i:i + per] for i in range(0, len(todo), per)]
    # never more processes than shards of work (a huge --jobs must not start thousands)
    with mp.get_context("spawn").Pool(min(jobs, len(small)), initializer=_start_worker,
                                      initargs=(os.getpid(),)) as pool:
        for rows in pool.imap_unordered(_shard_star, [(s, engine, engine_time, judge,
                                                        engine_log) for s in small]):
            yield from rows


def _start_worker(parent: int) -> None:
    """A pool worker's start: it leaves Ctrl-C to the parent (which stops the pool and
    says so once) and ends with its parent ``parent`` (see :func:`_watch_parent`)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent",
                     daemon=True).start()


#: seconds between a pool worker's checks that its parent lives
PARENT_POLL = 0.2


def _watch_parent(parent: int, poll: float = PARENT_POLL) -> None:
    """End this worker, quietly, once its parent ``parent`` is gone (killed by SIGTERM or
    SIGKILL, it could not stop the pool): the worker's parent then changes.  Its engine
    is killed first, and the process exits at once (status 0): no shard is finished for
    nobody, and no result is written into the dead parent's pipe (a BrokenPipeError)."""
    while os.getppid() == parent:
        time.sleep(poll)
    engine = _engine
    if engine is not None:
        engine.kill()
    os._exit(0)


def _check_dask_address(address: str, timeout: float = 30.0) -> None:
    """Refuse, before any Dask client exists, an address that is not ``tcp://HOST:PORT``
    (or bare ``HOST:PORT``), whose port does not accept a connection, or whose
    scheduler does not open the handshake within ``timeout`` seconds (a Dask scheduler
    speaks first; a frozen one, or a port forward to nothing, accepts the connection and
    stays silent, and Dask's client would wait for it forever)."""
    scheme, sep, rest = address.rpartition("://")
    if sep and scheme != "tcp":
        raise ScanError(f"Dask address {address!r}: only tcp:// scheduler addresses are "
                        f"supported here ({scheme}:// needs its own security or transport "
                        "setup)")
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit():
        raise ScanError(f"Dask address {address!r} is not HOST:PORT (e.g. "
                        "tcp://127.0.0.1:8786)")
    try:
        conn = socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)),
                                        timeout=min(5.0, timeout))
    except OSError as exc:
        raise ScanError(f"cannot reach the Dask scheduler at {address!r}: "
                        f"{exc.strerror or exc}") from None
    with conn:
        conn.settimeout(timeout)
        try:
            first = conn.recv(1)
        except TimeoutError:
            first = None
        except OSError as exc:
            raise ScanError(f"the Dask scheduler at {address!r} dropped the connection: "
                            f"{exc.strerror or exc}") from None
    if first is None:
        raise ScanError(f"the Dask scheduler at {address!r} accepted the connection but did "
                        f"not answer within {timeout:g} s (frozen, or a port forward to "
                        "nothing?); the results so far are kept: run the same command "
                        "again to resume")
    if not first:
        raise ScanError(f"the Dask scheduler at {address!r} closed the connection without "
                        "answering")


#: seconds to wait for a first Dask worker before saying so and giving up
DASK_WORKER_WAIT = 60.0


def _run_dask(shards: list[list[Item]], engine: str | None, engine_time: float,
              address: str, judge: JudgeConfig | None = None, timeout: float = 30.0
              ) -> Iterable[dict[str, Any]]:
    """The shards on a Dask cluster; every failure of the cluster (also a scheduler that
    does not answer within ``timeout`` seconds) is a :class:`ScanError` with one line
    (results already yielded are kept by the caller)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ScanError("Dask is not installed: pip install 'pawnfence[dask]'") from None
    _check_dask_address(address, timeout)
    try:
        client = Client(address, timeout=f"{timeout}s")
    except Exception as exc:  # noqa: BLE001 - refused, timed out, not a scheduler...
        gc.collect()  # a half-made Client must be finalised now, not inside the next one
        raise ScanError(f"cannot reach the Dask scheduler at {address!r}: "
                        f"{type(exc).__name__}: {exc}") from None
    with client:
        try:
            if not client.scheduler_info().get("workers"):
                print(f"pawnfence: waiting for a Dask worker at {address} (up to "
                      f"{DASK_WORKER_WAIT:g} s)", file=sys.stderr)
                client.wait_for_workers(1, timeout=DASK_WORKER_WAIT)
            # the shards go to the workers as data, not inside the task graph (85,000
            # positions make a graph of 10 MB, which Dask warns about)
            futures = client.map(classify_shard, client.scatter(shards), engine_path=engine,
                                 engine_time=engine_time, judge=judge, pure=False)
            for fut in as_completed(futures):
                yield from fut.result()
        except Exception as exc:  # noqa: BLE001 - a lost scheduler, a dead worker...
            raise ScanError(f"the Dask cluster at {address} failed ({type(exc).__name__}: "
                            f"{exc}); the results so far are kept: run the same command "
                            "again to resume") from None


def _shard_star(args: tuple[list[Item], str | None, float, JudgeConfig | None, str | None]
                ) -> list[dict[str, Any]]:
    return classify_shard(*args)


def iter_results(path: str | Path) -> Iterator[dict[str, Any] | str]:
    """Stream the rows of a scan's ``results.jsonl`` without changing it (a report of a
    scan that is running, or was killed): each well-formed result, or for a line that is
    not one a one-line reason (``"line N: WHY"``; a torn last line included).  Lines end
    at ``"\\n"`` only.  Raises ``OSError`` when the file cannot be opened."""
    with open(path, "rb") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.endswith(b"\n"):
                yield f"line {n}: torn (no newline: a writer was stopped mid-line)"
                return
            row, why = parse_row(raw, _result_problem)
            if why:
                yield f"line {n}: {why}"
            else:
                yield row
