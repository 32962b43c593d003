"""The reliability campaign of issues 16 and 18, rerunnable: bad input, bad engines, bad
disks and kills at random moments against every command, family by family.

    python benchmarks/fault_campaign.py                      # every family, default counts
    python benchmarks/fault_campaign.py --family pgn --cases 500 --seed 7
    python benchmarks/fault_campaign.py --list               # the families and what they do
    options: --seed N (default 18)  --cases N (per family)  --family NAME (repeatable)
             --json (the report as JSON)  --keep (keep the work folder)

Every case is seeded (``random.Random(f"{seed}:{family}")``), so one family alone tries the
same cases as in a full run.  A case fails on a traceback, an exit code other than the
conventional ones (0; 2 for bad input; 74 for an output error; 130 after Ctrl-C; 141 for
a closed pipe), a hang past its timeout, memory over 1 GiB, processes left running, or
data lost, repeated or corrupted, or a good file silently replaced ("nothing lost" counts
the data checks of each family and how many of them failed).  Prints one table: family |
cases | failures | nothing lost | notes, then every failure with its case.

The harness is the fault tests' (``tests/faults.py``, ``tests/engines.py``,
``tests/test_viewer.py``'s event helpers); commands run as the user runs them
(``python -m viewer.cli``, in their own process group, killed on timeout) or, for the
families of thousands of small cases, in this process through ``viewer.cli.main``.  The
full and read-only disks are small tmpfs mounts (root only; without them those cases are
skipped and counted as skipped).  Run it on an otherwise idle core: the kill families
measure time.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
for _key, _value in (("SDL_VIDEODRIVER", "dummy"), ("SDL_AUDIODRIVER", "dummy"),
                     ("PYGAME_HIDE_SUPPORT_PROMPT", "1"), ("PAWNFENCE_PYTHON", sys.executable)):
    os.environ.setdefault(_key, _value)

import logging  # noqa: E402

import chess  # noqa: E402

import logic  # noqa: E402
from logic.tools.runlog import finite_number  # noqa: E402
from tests.engines import fake_engine  # noqa: E402
from tests.faults import (  # noqa: E402
    D16,
    DAMAGED_LINES,
    DAMAGED_SETTINGS,
    ENV,
    MALFORMED_PGNS,
    SCAN_DATA,
    TRACEBACK_MARKERS,
    WIKI,
    processes,
)

for _name in ("chess.engine", "chess.pgn", "asyncio"):  # the engines' chatter: not ours
    logging.getLogger(_name).setLevel(logging.CRITICAL)
#: the address space a command under test may use (a runaway reader fails, not the machine)
MEMORY_LIMIT = 3 << 30
#: resident memory above this is a failure
RSS_LIMIT_MB = 1024
POSITIONS = SCAN_DATA / "positions.epd"
GAMES = SCAN_DATA / "games.pgn"
SELFPLAY = SCAN_DATA / "selfplay.pgn.gz"


# -- cases and the report ----------------------------------------------------------------------

@dataclass
class Case:
    """One case: what was tried, why it failed ("" when it did not), how many data items
    were checked and how many of them were lost, repeated or corrupted."""

    family: str
    name: str
    failure: str = ""
    checks: int = 0
    lost: int = 0
    seconds: float = 0.0
    skipped: str = ""
    counts: dict[str, int] = field(default_factory=dict)

    def fail(self, why: str) -> None:
        """Record a failure (the first one is kept, later ones counted)."""
        if why and not self.failure:
            self.failure = why

    def check(self, good: bool, why: str, n: int = 1) -> None:
        """A data check of ``n`` items: lost ones are failures too."""
        self.checks += n
        if not good:
            self.lost += n
            self.fail(why)


@dataclass(frozen=True)
class Family:
    """A family of cases: ``run(rng, n, work)`` yields ``n`` cases (fewer when the family
    enumerates fewer); ``cases`` is the default count."""

    name: str
    run: Callable[[random.Random, int, Path], Iterator[Case]]
    cases: int
    covers: str


def shown(data: bytes | str, limit: int = 60) -> str:
    """A short, printable rendering of test input."""
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    text = repr(text)[1:-1]
    return text if len(text) <= limit else text[:limit] + f"...({len(text) - limit} more)"


def last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return shown(lines[-1], 160) if lines else ""


def pick(rng: random.Random, items: list, n: int) -> list:
    """``n`` of ``items``: all of them (shuffled) when ``n`` is at least their number, else a
    sample; beyond their number they repeat."""
    out = list(items)
    rng.shuffle(out)
    while len(out) < n:
        out += rng.sample(items, min(len(items), n - len(out)))
    return out[:n]


# -- running commands ------------------------------------------------------------------------

@dataclass
class Outcome:
    """What a command did."""

    rc: int | None
    out: str
    err: str
    seconds: float
    hung: bool = False
    timeout: float = 0.0
    rss_mb: float = 0.0
    left: int = 0


def _group(pgid: int) -> list[int]:
    """Live processes of the process group ``pgid``."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == pgid and fields[0] != "Z":
                    out.append(int(d))
    return out


def run(args: list[str], *, timeout: float = 60.0, stdin: object = None,
        stdout: object = None, env: dict[str, str] | None = None, close: tuple[int, ...] = (),
        module: bool = True, cwd: Path = ROOT) -> Outcome:
    """Run ``python -m viewer.cli ARGS`` (``module``) or ``ARGS`` in a new process group
    with :data:`MEMORY_LIMIT`; ``stdin``/``stdout``: None (nothing / captured), a file
    object, or bytes for stdin; ``close``: descriptors closed in the child (0: a closed
    standard input, 1: a closed standard output).  On timeout the group is killed.
    Processes of the group alive after the command ended are counted and killed."""
    cmd = [sys.executable, "-m", "viewer.cli", *args] if module else list(args)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.TemporaryFile() as feed:
        if isinstance(stdin, bytes):
            feed.write(stdin)
            feed.seek(0)
            stdin = feed

        def child() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
            for fd in close:
                os.close(fd)

        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env or ENV,
                                stdin=subprocess.DEVNULL if stdin is None else stdin,
                                stdout=out if stdout is None else stdout, stderr=err,
                                start_new_session=True, preexec_fn=child)
        hung, status, usage = _wait(proc, timeout)
        seconds = time.monotonic() - t0
        left = _group(proc.pid)
        if left:  # give them a moment: an engine that is quitting
            time.sleep(0.5)
            left = _group(proc.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out.seek(0)
        err.seek(0)
        return Outcome(None if hung else os.waitstatus_to_exitcode(status),
                       out.read().decode("utf-8", "replace"),
                       err.read().decode("utf-8", "replace"), seconds, hung, timeout,
                       usage.ru_maxrss / 1024, len(left))


def _wait(proc: subprocess.Popen, timeout: float) -> tuple[bool, int, resource.struct_rusage]:
    """Wait for ``proc`` (with its resource usage); kill its group after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return False, status, usage
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            _pid, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = -9
            return True, status, usage
        time.sleep(0.01)


def children() -> list[int]:
    """Live child processes of this process (an engine the analysis left behind)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == os.getpid() and fields[0] != "Z":
                    out.append(int(d))
    return out


class _Hang(BaseException):
    """Raised by the alarm in :func:`guarded` (a BaseException: no ``except Exception``
    of the code under test swallows it)."""


def guarded(fn: Callable[[], object], timeout: float) -> tuple[object, str, float]:
    """``fn()`` in this process with an alarm: ``(value, failure, seconds)``, the failure
    being a hang or the exception's last traceback line."""
    def ring(*_args: object) -> None:
        raise _Hang

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    t0 = time.monotonic()
    try:
        return fn(), "", time.monotonic() - t0
    except _Hang:
        return None, f"hang: still running after {timeout:g} s", time.monotonic() - t0
    except Exception:  # noqa: BLE001 - a traceback is what the campaign looks for
        return None, f"traceback: {last_line(traceback.format_exc())}", time.monotonic() - t0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def call(argv: list[str], timeout: float = 60.0) -> Outcome:
    """``viewer.cli.main(argv)`` in this process (output and errors captured), as
    :func:`run` reports a command."""
    from viewer.cli import main

    out, err = io.StringIO(), io.StringIO()

    def go() -> int:
        with contextlib.redirect_stderr(err):
            try:
                return main(argv, out=out)
            except SystemExit as exc:  # argparse
                return exc.code if isinstance(exc.code, int) else 2 if exc.code else 0

    rc, failure, seconds = guarded(go, timeout)
    if failure.startswith("traceback"):
        err.write(f"\nTraceback (most recent call last): {failure[len('traceback: '):]}\n")
    return Outcome(rc if isinstance(rc, int) else None, out.getvalue(), err.getvalue(),
                   seconds, failure.startswith("hang"), timeout)


def judge(o: Outcome, ok: tuple[int, ...] = (0,)) -> str:
    """Why a command's outcome is a failure ("" when it is not)."""
    if o.hung:
        return f"hang: still running after {o.timeout:g} s"
    marker = next((m for m in TRACEBACK_MARKERS if m in o.err), None)
    if marker:
        return f"traceback: {last_line(o.err)}"
    if o.rc not in ok:
        return f"exit code {o.rc} (expected {'/'.join(map(str, ok))}): {last_line(o.err)}"
    if o.rss_mb > RSS_LIMIT_MB:
        return f"memory: {o.rss_mb:.0f} MB resident"
    if o.left:
        return f"{o.left} process(es) left running after the command ended"
    if o.rc not in (0, 141) and not o.err.strip():
        return f"exit code {o.rc} without a message"
    return ""


def jsonl(path: Path) -> tuple[list[object], int]:
    """The JSON values of a JSON-lines file and how many of its lines are not JSON."""
    rows, bad = [], 0
    if not path.is_file():
        return rows, 0
    for line in path.read_bytes().splitlines():
        try:
            rows.append(json.loads(line.decode("utf-8")))
        except (ValueError, RecursionError):
            bad += 1
    return rows, bad


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def strict_json(data: bytes) -> object:
    """``data`` as strict JSON (UTF-8, no NaN or Infinity); raises ``ValueError``."""
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None


# -- fuzzing -----------------------------------------------------------------------------------

BYTES = bytes(b for b in range(256) if b not in (10, 13))
ODD_CHARS = ["♙", "８", "١", "\u2028", "\x85", "é", "\ufeff", "\u200b", "\x1c", "\x0b", "\t"]
FEN_TOKENS = ["w", "b", "-", "KQkq", "Kk", "e3", "e6", "a9", "0", "1", "-1", "nan", "1e400",
              "99999999999999999999", ";", "id", '"x"', "c0", '"', "bm", "e4;", "#", "//",
              "8/8/8/8/8/8/8/8", "pppppppp/8/8/8/8/8/8/PPPPPPPP", "k7/8/8/8/8/8/8/7K",
              "K7/8/8/8/8/8/8/k6K", "hmvc", "fmvn", "999999", "--", "/", "9", "p9p",
              "KQkqKQkq", "h3", "a0", 'id "' + "x" * 300 + '";', "8/8/8/8/8/8/8/8/8",
              "id Kb1;", "id 5;", "bm Kb1;", "pv Kb1 Kb3;", "id a1b1;", "id 1e999;"]


def _insert(rng: random.Random, data: bytes, piece: bytes) -> bytes:
    i = rng.randint(0, len(data))
    return data[:i] + piece + data[i:]


def _byte_op(rng: random.Random, data: bytes) -> bytes:
    i = rng.randrange(len(data)) if data else 0
    op = rng.randrange(7)
    if op == 0:
        return _insert(rng, data, bytes([rng.choice(BYTES)]))
    if op == 1 and data:
        return data[:i] + bytes([rng.choice(BYTES)]) + data[i + 1:]
    if op == 2:
        return data[:i] + data[i + rng.randint(1, 5):]
    if op == 3:
        return data[:i] + data[i:i + rng.randint(1, 8)] * 2 + data[i + 8:]
    if op == 4:
        return data[:rng.randint(0, len(data))]
    if op == 5:
        return _insert(rng, data, rng.choice(ODD_CHARS).encode())
    j = rng.randrange(len(data)) if data else 0
    b = bytearray(data)
    if b:
        b[i], b[j] = b[j], b[i]
    return bytes(b)


def _token_op(rng: random.Random, data: bytes, pool: list[str]) -> bytes:
    tokens = data.split(b" ")
    i = rng.randrange(len(tokens))
    op = rng.randrange(6)
    new = rng.choice(pool).encode()
    if op == 0 and len(tokens) > 1:
        del tokens[i]
    elif op == 1:
        tokens.insert(i, tokens[i])
    elif op == 2:
        j = rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif op == 3:
        tokens[i] = new
    elif op == 4:
        tokens.insert(i, new)
    else:  # a square of the board field
        board = bytearray(tokens[0] or b"8")
        board[rng.randrange(len(board))] = rng.choice(b"pPkKqQrRbBnN0123456789/x ")
        tokens[0] = bytes(board)
    return b" ".join(tokens)


def fuzz_line(rng: random.Random, seed: str) -> bytes:
    """A FEN/EPD line damaged by one to three byte or token operations (never a line
    break: one input line stays one line)."""
    data = seed.encode()
    for _ in range(rng.randint(1, 3)):
        data = _byte_op(rng, data) if rng.random() < 0.5 else _token_op(rng, data, FEN_TOKENS)
    return data.replace(b"\n", b" ").replace(b"\r", b" ")


def seed_lines() -> list[str]:
    """Good EPD/FEN lines to damage: the diagram library (with its operations), the scan
    corpus, and bare FENs."""
    lines = [WIKI, D16, "8/8/8/8/8/k7/P7/K7 w - -", "8/8/8/8/8/8/8/8 w - -"]
    for path in (ROOT / "assets" / "diagrams.epd", POSITIONS):
        lines += [ln for ln in path.read_text().splitlines()
                  if ln.strip() and not ln.startswith("#")]
    return lines


# -- family: malformed FEN/EPD lines through classify and explain --------------------------------

def fen_lines(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    seeds = seed_lines()
    goods = [f'{WIKI.rsplit(" ", 2)[0]} id "good-before";',
             f'{D16.rsplit(" ", 2)[0]} id "good-after";']
    refs: dict[str, list[object]] = {}
    for i in range(n):
        line = fuzz_line(rng, rng.choice(seeds))
        # the exact prover spends up to 10 s a side on a position: one case in a hundred
        method = "exact" if i % 100 == 99 else rng.choice(list(logic.STATIC_METHODS))
        if method not in refs:
            path = work / "goods.epd"
            path.write_text("\n".join(goods) + "\n")
            refs[method] = [json.loads(x) for x in call(["classify", str(path), "--method",
                                                          method]).out.splitlines()]
        yield _fen_case(rng, line, method, goods, refs[method], work)


def _is_position_line(line: bytes) -> bool:
    text = line.decode("utf-8", "replace")
    return bool(text.strip()) and not text.lstrip().startswith("#")


def _fen_case(rng: random.Random, line: bytes, method: str, goods: list[str],
              ref: list[object], work: Path) -> Case:
    case = Case("fen-lines", f"{method}: {shown(line)}")
    path = work / "lines.epd"
    path.write_bytes(goods[0].encode() + b"\n" + line + b"\n" + goods[1].encode() + b"\n")
    o = call(["classify", str(path), "--method", method])
    case.seconds = o.seconds
    case.fail(judge(o))
    objs, bad = [], 0
    for text in o.out.splitlines():
        try:
            objs.append(strict_json(text.encode()))
        except ValueError:
            bad += 1
    case.check(bad == 0, "classify printed a line that is not strict JSON", max(bad, 1))
    want = 3 if _is_position_line(line) else 2
    case.check(len(objs) == want, f"classify printed {len(objs)} objects for {want} lines")
    case.check(bool(objs) and objs[0] == ref[0], "the good line before changed its verdict")
    case.check(bool(objs) and objs[-1] == ref[1], "the good line after changed its verdict")
    middle = objs[1] if want == 3 and len(objs) == 3 else None
    if isinstance(middle, dict) and "fen" not in middle:
        case.check(middle.get("line") == 2 and bool(middle.get("error")),
                   f"the bad line's error names line {middle.get('line')}")
    arg = os.fsdecode(line.replace(b"\0", b""))  # what a shell can pass
    sides = ["white", "black"] + ["both"] * (method != "exact")
    args = ["explain", arg, "--method", method, "--side", rng.choice(sides)]
    as_json = rng.random() < 0.5
    e = call(args + ["--json"] * as_json)
    case.seconds += e.seconds
    case.fail(judge(e, (0, 2)))
    if e.rc == 0:
        try:
            good = bool(strict_json(e.out.encode())) if as_json else "=>" in e.out
        except ValueError:
            good = False
        case.fail("" if good else "explain exited 0 without a verdict")
    if middle is not None and os.fsencode(arg) == line and not arg.lstrip().startswith("-"):
        case.fail("" if ("fen" in middle) == (e.rc == 0) else
                  f"classify and explain disagree (classify: {shown(str(middle), 80)}, "
                  f"explain exit {e.rc})")
    return case


# -- family: token-fuzzed PGN through scan (and bench --scan) ------------------------------------

PGN_TOKENS = ["(", ")", "{", "}", "$", "$1", "$999999999999", "?", "!", "!!", "??", "*", "1-0",
              "0-1", "1/2-1/2", "[", "]", '[Event "x"]', '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]',
              '[FEN "garbage"]', '[SetUp "1"]', '[Variant "crazyhouse"]', '"', ";", "%",
              "Ke6#", "g1)?", "O-O", "O-O-O", "e8=Q", "exd6", "...", "1.", "999.", "--", "Z0",
              "@", "P@e4", "\\", "<", ">", "{[%clk 0:00:01]}", "\n\n", "\n", "0000", "Kxe1",
              "e4e5", "1...", "e9", "N@", "♘f3"]


def pgn_games() -> list[str]:
    """The games of the scan corpus and a few self-play games, one text each."""
    text = GAMES.read_text()
    with gzip.open(SELFPLAY, "rt") as fh:
        text += "\n\n" + "\n\n".join(re.split(r"\n\n(?=\[Event )", fh.read())[:4])
    return [g.strip() + "\n" for g in re.split(r"\n\n(?=\[Event )", text) if g.strip()]


def fuzz_pgn(rng: random.Random, game: str) -> bytes:
    """A game damaged by one to four token operations (delete, repeat, swap, replace,
    insert a PGN token, change a separator) or a stray byte."""
    parts = re.split(r"(\s+)", game)
    for _ in range(rng.randint(1, 4)):
        words = [i for i, p in enumerate(parts) if p and not p.isspace()]
        i, j = rng.choice(words), rng.choice(words)
        op = rng.randrange(6)
        if op == 0:
            parts[i] = ""
        elif op == 1:
            parts[i] = parts[i] + " " + parts[i]
        elif op == 2:
            parts[i], parts[j] = parts[j], parts[i]
        elif op == 3:
            parts[i] = rng.choice(PGN_TOKENS)
        elif op == 4:
            parts[i] = rng.choice(PGN_TOKENS) + " " + parts[i]
        else:
            spaces = [k for k, p in enumerate(parts) if p.isspace()]
            parts[rng.choice(spaces)] = rng.choice([" ", "\n", "\n\n", "\t", ""])
    data = "".join(parts).encode()
    if rng.random() < 0.15:
        data = _byte_op(rng, data)
    if rng.random() < 0.1:  # a snippet python-chess fails inside (issue 18)
        data = _insert(rng, data, b" " + rng.choice(MALFORMED_PGNS).encode() + b" ")
    return data


def pgn(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    from logic.tools.scan import scan

    games = pgn_games()
    before, after = work / "before.pgn", work / "after.pgn"
    before.write_text("\n".join(games[:2]))
    after.write_text("\n".join(games[2:4]))
    scan([str(before), str(after)], work / "ref", jobs=1, progress=None)
    ref = {r["key"] for r in jsonl(work / "ref" / "results.jsonl")[0]}
    for i in range(n):
        bad = b"\n".join(fuzz_pgn(rng, rng.choice(games)) for _ in range(rng.randint(1, 2)))
        name, what = "fuzzed.pgn", shown(bad, 70)
        if rng.random() < 0.15:  # compressed, sometimes cut short
            bad, name = gzip.compress(bad), "fuzzed.pgn.gz"
            if rng.random() < 0.5:
                cut = rng.randint(10, len(bad))
                what = f"(cut at byte {cut} of {len(bad)}) {what}"
                bad = bad[:cut]
        fuzzed = work / name
        for old in work.glob("fuzzed.pgn*"):
            old.unlink()
        fuzzed.write_bytes(bad)
        case = _pgn_case(i, [str(before), str(fuzzed), str(after)], ref, work)
        case.name = f"{name}: {what}"
        yield case


def _pgn_case(i: int, inputs: list[str], ref: set[str], work: Path) -> Case:
    from logic.tools.scan import scan

    fuzzed = Path(inputs[1])
    case = Case("pgn", fuzzed.name)
    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    if i % 2:  # through the command line (exit status), else the library (summary)
        o = call(["scan", *inputs, "--out", str(out), "--jobs", "1", "--quiet"])
        summary, seconds = None, o.seconds
        case.fail(judge(o))
    else:
        summary, failure, seconds = guarded(
            lambda: scan(inputs, out, jobs=1, progress=None), 60)
        case.fail(failure)
    case.seconds = seconds
    rows, bad = jsonl(out / "results.jsonl")
    case.check((out / "results.jsonl").is_file(), "results.jsonl was not written")
    case.check(bad == 0, f"{bad} lines of results.jsonl are not JSON", max(bad, 1))
    keys = [r.get("key") for r in rows if isinstance(r, dict)]
    case.check(len(keys) == len(set(keys)), "a position repeated in results.jsonl")
    missing = ref - set(keys)
    case.check(not missing, f"{len(missing)} positions of the good files lost", len(ref))
    if isinstance(summary, dict):
        case.check(summary["positions"] == len(rows), "the summary's count is not the file's")
    log = (out / "errors.log").read_text() if (out / "errors.log").is_file() else ""
    logged = sum(fuzzed.name in line for line in log.splitlines())
    case.counts["malformed games logged"] = int("malformed game" in log)
    case.counts["errors logged"] = logged
    if i % 3 == 0:
        b = call(["bench", "--scan", str(fuzzed), inputs[2], "--json"])
        case.seconds += b.seconds
        case.fail(judge(b, (0, 2)))
    return case


# -- family: damaged results.jsonl and runs.jsonl lines ------------------------------------------

def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and abs(x) < 2**63


def _source_ok(src: object) -> bool:
    if not isinstance(src, dict) or not isinstance(src.get("file"), str):
        return False
    if "game" in src:
        return _is_int(src["game"]) and _is_int(src.get("ply")) and all(
            isinstance(src.get(k), str) for k in ("White", "Black", "Event", "Site"))
    return _is_int(src.get("line")) and (src.get("id") is None or
                                         isinstance(src["id"], str | int | float))


def _engine_ok(e: object) -> bool:
    if e is None:
        return True
    if not isinstance(e, dict):
        return False
    if "error" in e:
        return isinstance(e["error"], str)
    return all(e.get(k) is None or _is_int(e[k]) for k in ("cp", "mate", "depth")) and \
        isinstance(e.get("pv"), list) and all(isinstance(m, str) for m in e["pv"])


def _verdicts_ok(v: object) -> bool:
    return isinstance(v, dict) and all(
        isinstance(v.get(m), dict) and all(
            isinstance(v[m].get(side), dict) and isinstance(v[m][side].get("blocked"), bool)
            and (v[m][side].get("rule") is None or isinstance(v[m][side]["rule"], str))
            for side in ("white", "black")) for m in logic.STATIC_METHODS)


def result_line_ok(line: bytes) -> bool:
    """Whether a line of results.jsonl is a well-formed result (the campaign's own reading
    of the format: strict UTF-8 JSON, every field of the right type, the key the FEN's
    position)."""
    try:
        r = strict_json(line)
        if not isinstance(r, dict) or "engine" not in r:
            return False
        board = chess.Board(r["fen"]) if isinstance(r.get("fen"), str) else None
    except ValueError:
        return False
    return board is not None and board.epd() == r.get("key") and \
        _source_ok(r.get("source")) and _engine_ok(r["engine"]) and \
        _verdicts_ok(r.get("verdicts")) and isinstance(r.get("categories"), list) and \
        all(isinstance(c, str) for c in r["categories"])


def run_line_ok(line: bytes) -> bool:
    """Whether a line of runs.jsonl is a well-formed experiment row."""
    try:
        r = strict_json(line)
        if not isinstance(r, dict) or not isinstance(r.get("fen"), str):
            return False
        chess.Board(r["fen"])
    except ValueError:
        return False
    runs, exact = r.get("runs"), r.get("exact", {"white": "", "black": ""})
    return finite_number(r.get("seconds")) and r["seconds"] > 0 and isinstance(runs, dict) and \
        bool(runs) and all(
            isinstance(x, dict) and all(_is_int(x.get(k)) and 0 <= x[k] < 2**63
                                        for k in ("nodes", "blockages", "depth"))
            and _is_int(x.get("score")) and abs(x["score"]) < 2**63
            and finite_number(x.get("elapsed")) and x["elapsed"] >= 0
            for x in runs.values()) and isinstance(exact, dict) and all(
            isinstance(exact.get(s), str) for s in ("white", "black"))


WRONG_VALUES = [None, 0, -1, 1.5, "x", "", [], {}, [1], {"a": 1}, True, 10**400, "NaN"]


def _paths(obj: object, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path to a value inside a JSON value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


def _json_op(rng: random.Random, line: bytes) -> tuple[bytes, str]:
    """A structural change of a JSON line: a value removed, mistyped, nested deeply or
    made non-finite, or the whole line another JSON type."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):  # damaged already
        return line, "unchanged"
    paths = list(_paths(obj))
    if not paths or rng.random() < 0.1:
        new = rng.choice([[obj], str(obj)[:50], 7, None])
        return json.dumps(new).encode(), f"the line made a JSON {type(new).__name__}"
    path = rng.choice(paths)
    where = ".".join(map(str, path))
    parent = obj
    for k in path[:-1]:
        parent = parent[k]
    op = rng.randrange(4)
    if op == 0:
        del parent[path[-1]]
        return json.dumps(obj).encode(), f"{where} removed"
    if op == 1:
        parent[path[-1]] = value = rng.choice(WRONG_VALUES)
        return json.dumps(obj).encode(), f"{where} = {shown(json.dumps(value), 20)}"
    if op == 2:
        parent[path[-1]] = value = rng.choice([float("nan"), float("inf"), -float("inf")])
        return json.dumps(obj).encode(), f"{where} = {value}"
    parent[path[-1]] = ["DEEP"]
    deep = "[" * 50_000 + "]" * 50_000
    return json.dumps(obj).replace('["DEEP"]', deep).encode(), f"{where} nested 50,000 deep"


def damage_line(rng: random.Random, line: bytes) -> tuple[bytes, str]:
    """``line`` damaged, and how."""
    op = rng.randrange(6)
    if op == 0:
        new = rng.choice(DAMAGED_LINES)
        return new.encode(), f"replaced by {shown(new, 30)}"
    if op == 1:
        cut = rng.randrange(len(line))
        return line[:cut], f"cut at byte {cut}"
    if op == 2:
        piece = rng.choice([b"\xe9", b"\xff\xfe", b"\x00", b"\xc3"])
        i = rng.randint(0, len(line))
        return line[:i] + piece + line[i:], f"{shown(piece)} at byte {i}"
    if op == 3:
        new = _byte_op(rng, line).replace(b"\n", b"").replace(b"\r", b"")
        first = next((k for k, (a, b) in enumerate(zip(new, line, strict=False)) if a != b),
                     min(len(new), len(line)))
        return new, f"bytes changed from {first}: {shown(new[first:first + 12])}"
    return _json_op(rng, line)


def damage_jsonl(rng: random.Random, lines: list[bytes], ok: Callable[[bytes], bool]
                 ) -> tuple[bytes, set[int], str]:
    """The file of ``lines`` with one to four of them damaged beyond ``ok`` (and sometimes a
    line repeated, a blank or CRLF line, or a torn last line); returns the bytes, the
    1-based numbers of the damaged lines and a description."""
    entries = [(x, "good") for x in lines]
    what = []
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(entries))
        for _attempt in range(30):
            new, how = damage_line(rng, entries[i][0])
            if not ok(new):
                entries[i] = (new, "damaged")
                what.append(f"line {i + 1}: {how}")
                break
    if rng.random() < 0.3:
        i = rng.randrange(len(entries))
        entries.insert(i, (lines[rng.randrange(len(lines))], "repeat"))
        what.append(f"a line repeated at {i + 1}")
    if rng.random() < 0.2:
        i = rng.randrange(len(entries))
        entries.insert(i, (b"", "blank"))
        what.append(f"a blank line at {i + 1}")
    if rng.random() < 0.2:
        i = rng.randrange(len(entries))
        entries[i] = (entries[i][0] + b"\r", entries[i][1])
        what.append(f"CRLF at {i + 1}")
    data = b"".join(x + b"\n" for x, _kind in entries)
    if rng.random() < 0.3:
        last = entries[-1][0]
        data = data[:-1 - len(last)] + last[:rng.randrange(len(last) or 1)]
        entries[-1] = (b"", "torn")
        what.append("a torn last line")
    damaged = {n for n, (_x, kind) in enumerate(entries, 1) if kind == "damaged"}
    return data, damaged, "; ".join(what)


def state_lines(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    from logic.tools.scan import scan

    engine = fake_engine(work)
    inputs = [str(GAMES), str(POSITIONS)]
    scan(inputs, work / "ref", engine=engine, engine_time=0.01, jobs=1, progress=None)
    ref = (work / "ref" / "results.jsonl").read_bytes()
    small = work / "small.epd"
    boards = logic.position.load_boards(ROOT / "assets" / "experiment.epd", kp_only=True)[:6]
    small.write_text("".join(b.epd() + "\n" for b in boards))
    exp_args = ["experiment", str(small), "--time", "0.01", "--jobs", "1", "--quiet"]
    call([*exp_args, "--out", str(work / "exp-ref")])
    exp_ref = (work / "exp-ref" / "runs.jsonl").read_bytes()
    for i in range(n):
        if i % 3 == 2:
            yield _runs_case(rng, exp_ref, exp_args, [b.fen() for b in boards], work / f"x{i}")
        else:
            yield _results_case(rng, ref, inputs, engine, work / f"r{i}")


def _set_aside(case: Case, out: Path, name: str, damaged: set[int]) -> None:
    log = (out / "errors.log").read_text() if (out / "errors.log").is_file() else ""
    quiet = [n for n in sorted(damaged) if f"{name}:{n}: set aside" not in log]
    case.check(not quiet, f"damaged line(s) {quiet} of {name} not reported in errors.log",
               len(damaged))


def _results_case(rng: random.Random, ref: bytes, inputs: list[str], engine: str,
                  out: Path) -> Case:
    from logic.tools.scan import scan

    data, damaged, what = damage_jsonl(rng, ref.splitlines(), result_line_ok)
    case = Case("state-lines", f"results.jsonl: {what}")
    out.mkdir(parents=True)
    (out / "results.jsonl").write_bytes(data)
    _summary, failure, case.seconds = guarded(
        lambda: scan(inputs, out, engine=engine, engine_time=0.01, jobs=1, progress=None), 120)
    case.fail(failure)
    final = (out / "results.jsonl").read_bytes()
    want = {json.loads(x)["key"]: x for x in ref.splitlines()}
    got = [json.loads(x) if result_line_ok(x) else None for x in final.splitlines()]
    keys = [r["key"] for r in got if r]
    case.check(len(keys) == len(set(keys)) and None not in got,
               "results.jsonl holds a repeated or malformed line after the resume")
    differ = sum(want.get(r["key"]) != json.dumps(r).encode() for r in got if r)
    lost = len(set(want) - set(keys))
    case.check(final == ref, f"{lost} results lost, {differ} differ from an undamaged run",
               len(want))
    _set_aside(case, out, "results.jsonl", damaged)
    shutil.rmtree(out, ignore_errors=True)
    return case


def _runs_case(rng: random.Random, ref: bytes, args: list[str], fens: list[str],
               out: Path) -> Case:
    data, damaged, what = damage_jsonl(rng, ref.splitlines(), run_line_ok)
    case = Case("state-lines", f"runs.jsonl: {what}")
    out.mkdir(parents=True)
    (out / "runs.jsonl").write_bytes(data)
    kept = {}
    for line in data.split(b"\n")[:-1]:  # complete lines only
        if run_line_ok(line.rstrip(b"\r")):
            kept.setdefault(json.loads(line)["fen"], json.loads(line))
    o = call([*args, "--out", str(out)], timeout=120)
    case.seconds = o.seconds
    case.fail(judge(o))
    case.check(not re.search(r"\b(nan|inf)\b", o.out, re.I), "the table shows nan or inf")
    lines = (out / "runs.jsonl").read_bytes().splitlines()
    rows = [json.loads(x) for x in lines if run_line_ok(x)]
    case.check(len(rows) == len(lines) and [r["fen"] for r in rows] == fens,
               "runs.jsonl is not one well-formed row per position in input order", len(fens))
    changed = sum(1 for r in rows if r["fen"] in kept and r != kept[r["fen"]])
    case.check(changed == 0, f"{changed} good rows were recomputed or changed", len(kept))
    _set_aside(case, out, "runs.jsonl", damaged)
    shutil.rmtree(out, ignore_errors=True)
    return case


# -- family: bad numbers on the command line -----------------------------------------------------

BAD_NUMBERS = ["nan", "inf", "-inf", "0", "-0", "-1", "1e-320", "1e308", "1000000000",
               "99999999999999999999", "", "0x10"]


def numeric_options(work: Path) -> list[tuple[str, list[str], str]]:
    """Every numeric option of every command: ``(label, arguments before it, option)``;
    the rest of each command is quick, so a value that is accepted runs to its end."""
    small = work / "small.epd"
    if not small.exists():
        boards = logic.position.load_boards(ROOT / "assets" / "experiment.epd", kp_only=True)
        small.write_text("".join(b.epd() + "\n" for b in boards[:2]))
    out = str(work / "out")
    exp = ["experiment", str(small), "--out", out, "--quiet"]
    return [
        ("search --depth", ["search", WIKI], "--depth"),
        ("search --time", ["search", WIKI], "--time"),
        ("scan --engine-time", ["scan", str(POSITIONS), "--out", out, "--quiet", "--jobs", "1",
                                "--engine", fake_engine(work)], "--engine-time"),
        ("scan --jobs", ["scan", str(POSITIONS), "--out", out, "--quiet"], "--jobs"),
        ("experiment --time", [*exp, "--limit", "1", "--jobs", "1"], "--time"),
        ("experiment --limit", [*exp, "--time", "0.01", "--jobs", "1"], "--limit"),
        ("experiment --jobs", [*exp, "--time", "0.01", "--limit", "2"], "--jobs"),
        ("experiment --exact", [*exp, "--time", "0.01", "--limit", "1", "--jobs", "1"],
         "--exact"),
        ("bench --rounds", ["bench", "--file", str(small)], "--rounds"),
        ("render --size", ["render", WIKI, "--out", f"{out}/x.png"], "--size"),
        ("render --speed", ["render", WIKI, "--out", f"{out}/x.gif", "--size", "160"],
         "--speed"),
        ("viewer --size", ["--frames", "2"], "--size"),
    ]


def numbers(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    combos = [(o, v) for o in numeric_options(work) for v in BAD_NUMBERS]
    for (label, before, option), value in pick(rng, combos, n):
        shutil.rmtree(work / "out", ignore_errors=True)
        if option == "--size" and label.startswith("viewer"):
            value = f"{value}x700"
        case = Case("numbers", f"{label} {value!r}")
        env = dict(ENV, PAWNFENCE_HOME=str(work / "home"))
        o = run([*before, f"{option}={value}"], timeout=60, env=env)
        case.seconds = o.seconds
        case.fail(judge(o, (0, 2)))
        if o.rc == 2 and "error: argument" not in o.err and "pawnfence:" not in o.err:
            case.fail(f"refused without saying why: {last_line(o.err)}")
        case.counts["refused"] = int(o.rc == 2)
        yield case


# -- family: misbehaving engines through scan and the viewer's analysis -----------------------

#: engines that answer ``go`` with a score (the others fail, each in its own way)
GOOD_ENGINES = {"good", "slow", "flood-stderr", "hang-quit", "hang-quit+flood-stderr"}
FAKE_FLAGS = {"good": (), "slow": ("--slow",), "no-score": ("--no-score",),
              "illegal-bestmove": ("--illegal",), "garbage": ("--garbage",),
              "hang-go": ("--hang-go",), "hang-quit": ("--hang-quit",), "crash": ("--crash",),
              "flood-stderr": ("--flood-stderr",),
              "hang-quit+flood-stderr": ("--hang-quit", "--flood-stderr"),
              "garbage+hang-quit": ("--garbage", "--hang-quit"),
              "crash+flood-stderr": ("--crash", "--flood-stderr")}
SCRIPTS = {  # engines that are not the fake engine
    "missing": None, "not-executable": None, "directory": None,
    "exits-at-once": "#!/bin/sh\nexit 0\n",
    "echoes-input": "#!/bin/sh\nexec cat\n",
    "floods-stdout": "#!/bin/sh\nexec yes 'info string flood'\n",
    "dies-after-uciok": "#!/bin/sh\nread x\necho 'id name half'\necho uciok\nexit 1\n",
    "never-says-uciok": "#!/bin/sh\nwhile read x; do echo \"id name $x\"; done\n",
}


def make_engine(kind: str, folder: Path, tag: str) -> str:
    """The path of an engine of ``kind`` in ``folder`` (fake engines carry ``tag``)."""
    folder.mkdir(parents=True, exist_ok=True)
    if kind in FAKE_FLAGS:
        return fake_engine(folder, *FAKE_FLAGS[kind], tag)
    path = folder / f"{kind}.sh"
    if kind == "directory":
        path.mkdir(exist_ok=True)
    elif kind == "not-executable":
        path.write_text("uci\n")
    elif kind != "missing":
        path.write_text(SCRIPTS[kind])
        path.chmod(0o755)
    return str(path)


def engines(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    from logic.tools.scan import scan

    scan([str(POSITIONS)], work / "ref", jobs=1, progress=None)
    ref = {r["key"] for r in jsonl(work / "ref" / "results.jsonl")[0]}
    kinds = [*FAKE_FLAGS, *SCRIPTS]
    combos = [(k, w) for k in kinds for w in ("scan", "analysis")] + [("good", "illegal-board")]
    for i, (kind, where) in enumerate(pick(rng, combos, n)):
        tag = f"--tag-{uuid.uuid4().hex}"
        path = make_engine(kind, work / f"e{i}", tag)
        case = Case("engines", f"{kind} through {where}")
        if where == "scan":
            _engine_scan(case, kind, path, ref, work / f"s{i}")
        else:
            _engine_analysis(case, kind, path, where == "illegal-board")
        time.sleep(0.2)
        left = processes(tag) + children()
        case.fail(f"{len(left)} engine process(es) outlived the run" if left else "")
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        yield case


def _engine_scan(case: Case, kind: str, path: str, ref: set[str], out: Path) -> None:
    o = run(["scan", str(POSITIONS), "--out", str(out), "--engine", path, "--engine-time", "0.05",
             "--jobs", "1", "--quiet"], timeout=120)
    case.seconds = o.seconds
    case.fail(judge(o))
    case.fail(f"took {o.seconds:.0f} s" if o.seconds > 60 else "")
    rows = [r for r in jsonl(out / "results.jsonl")[0] if isinstance(r, dict)]
    keys = [r.get("key") for r in rows]
    case.check(set(keys) == ref and len(keys) == len(ref), "positions lost or repeated",
               len(ref))
    engine_rows = [r.get("engine") or {} for r in rows]
    if kind in GOOD_ENGINES:
        case.check(all(e.get("cp") == 900 for e in engine_rows), "an evaluation missing",
                   len(rows))
        return
    errors = [str(e.get("error", "")) for e in engine_rows]
    case.fail("" if all(path in e and "\n" not in e for e in errors) else
              f"an engine error is not one line naming the engine: {shown(errors[0], 100)}")
    said = [ln for ln in o.err.splitlines() if path in ln]
    case.fail("" if len(said) <= 1 else f"{len(said)} lines about the engine on stderr")


def _engine_analysis(case: Case, kind: str, path: str, illegal: bool) -> None:
    from viewer.model.analysis import Analysis

    board = chess.Board("8/8/8/8/8/8/8/Kk6 w - - 0 1" if illegal else D16)
    t0 = time.monotonic()
    a = Analysis(path, 0.1, engine_timeout=2.0)
    a.start(board)
    a.wait(30)
    r = a.result
    t1 = time.monotonic()
    a.close()
    case.seconds = time.monotonic() - t0
    case.fail(f"closing took {time.monotonic() - t1:.1f} s" if time.monotonic() - t1 > 4 else "")
    if r is None or not r.done:
        case.fail("the analysis did not finish within 30 s")
        return
    if illegal:
        case.fail("" if any("illegal position" in m for m in r.messages) and r.engine is None
                  else f"an illegal position was analysed: {r.messages}")
    elif kind in GOOD_ENGINES:
        case.fail("" if r.engine is not None else f"no engine line: {r.messages}")
    else:
        lines = [m for m in r.messages if path in m]
        case.fail("" if len(lines) == 1 and lines[0].split(": ", 1)[-1].strip() else
                  f"the failure is not one line naming the engine: {r.messages}")


# -- family: unwritable and full outputs ---------------------------------------------------------

class Disk:
    """A small tmpfs at ``path`` to fill up or make read-only (mounting needs root);
    without it :attr:`full_ok` is False and read-only falls back to ``chmod``."""

    def __init__(self, path: Path, size_kb: int = 1024) -> None:
        self.path, self.size_kb, self.mounted = path, size_kb, False

    def __enter__(self) -> Disk:
        self.path.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0 and shutil.which("mount"):
            r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size_kb}k", "tmpfs",
                                str(self.path)], capture_output=True)
            self.mounted = r.returncode == 0
        return self

    @property
    def full_ok(self) -> bool:
        return self.mounted

    def fill(self, leave: int = 0) -> None:
        """Fill the disk, leaving about ``leave`` bytes free."""
        fd = os.open(self.path / ".filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        if leave:
            size = (self.path / ".filler").stat().st_size
            os.truncate(self.path / ".filler", max(0, size - leave))

    def free(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.path / ".filler").unlink()

    def readonly(self) -> bool:
        """Make the disk read-only (a tmpfs remounted, else the folder chmod'ed: not for
        root); False when it cannot be."""
        if self.mounted:
            return subprocess.run(["mount", "-o", "remount,ro", str(self.path)],
                                  capture_output=True).returncode == 0
        if os.geteuid() == 0:
            return False
        self.path.chmod(0o555)
        return True

    def files(self) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(self.path.iterdir())
                if p.is_file() and p.name != ".filler"}

    def __exit__(self, *exc: object) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True)
        else:
            with contextlib.suppress(OSError):
                self.path.chmod(0o755)


STDOUT_COMMANDS = {
    "explain": ["explain", WIKI],
    "classify": ["classify", str(POSITIONS)],
    "diagrams": ["diagrams"],
    "search": ["search", WIKI, "--depth", "2"],
    "scan": ["scan", str(POSITIONS), "--out", "{out}", "--quiet", "--jobs", "1"],
    "render": ["render", WIKI, "--out", "{out}/x.png", "--size", "160"],
    "experiment": ["experiment", "{small}", "--time", "0.01", "--jobs", "1", "--quiet", "--out",
                   "{out}"],
    "bench": ["bench", "--file", "{small}", "--rounds", "1"],
}
FILE_CASES = ["render png: read-only", "render png: full", "render gif: full",
              "render svg: full", "render: folder is a file", "scan: read-only",
              "scan: full mid-run", "experiment: read-only", "experiment: full mid-run",
              "classify: stdout on a full disk", "export png: full", "export svg: full",
              "export gif: full", "export png: read-only", "viewer settings: full",
              "viewer add position: full"]


def output(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    small = work / "small.epd"
    boards = logic.position.load_boards(ROOT / "assets" / "experiment.epd", kp_only=True)
    small.write_text("".join(b.epd() + "\n" for b in boards[:3]))
    combos = [(c, s) for c in STDOUT_COMMANDS for s in ("/dev/full", "closed", "broken pipe")]
    combos += [(c, "") for c in FILE_CASES]
    for i, (what, sink) in enumerate(pick(rng, combos, n)):
        folder = work / f"o{i}"
        folder.mkdir()
        if sink:
            yield _stdout_case(what, sink, folder, small)
        else:
            with Disk(folder / "disk") as disk:
                yield _file_case(what, disk, folder, small)


def _stdout_case(what: str, sink: str, folder: Path, small: Path) -> Case:
    case = Case("output", f"{what} > {sink}")
    args = [a.format(out=folder / "out", small=small) for a in STDOUT_COMMANDS[what]]
    if sink == "/dev/full":
        with open("/dev/full", "wb") as full:
            o = run(args, stdout=full)
        ok = (74,)
    elif sink == "closed":
        o = run(args, close=(1,), stdout=subprocess.DEVNULL)
        ok = (74,)
    else:
        r, w = os.pipe()
        os.close(r)
        try:
            o = run(args, stdout=w)
        finally:
            os.close(w)
        ok = (0, 141)
    case.seconds = o.seconds
    case.fail(judge(o, ok))
    lines = [ln for ln in o.err.splitlines() if ln.strip()]
    case.fail("" if len(lines) <= 1 else f"{len(lines)} lines on stderr: {last_line(o.err)}")
    return case


def _good_png(path: Path) -> bytes:
    from viewer.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        main(["render", D16, "--size", "160", "--out", str(path)])
    return path.read_bytes()


def _file_case(what: str, disk: Disk, folder: Path, small: Path) -> Case:
    case = Case("output", what)
    needs_full = "full" in what and "stdout" not in what or "stdout on a full" in what
    if needs_full and not disk.full_ok:
        case.skipped = "no tmpfs (mounting needs root)"
        return case
    kind, _, how = what.partition(": ")
    if kind.startswith("render"):
        _render_case(case, kind.split()[-1], how, disk)
    elif kind in ("scan", "experiment"):
        _run_out_case(case, kind, how, disk, folder, small)
    elif kind == "classify":
        _classify_full(case, disk)
    else:
        _viewer_file_case(case, kind, how, disk, folder)
    return case


def _unchanged(case: Case, disk: Disk, before: dict[str, bytes]) -> None:
    after = disk.files()
    changed = [k for k in before if after.get(k) != before[k]]
    extra = [k for k in after if k not in before]
    case.check(not changed, f"good file(s) {changed} replaced or damaged", max(1, len(before)))
    case.fail(f"left behind: {extra}" if extra else "")


def _render_case(case: Case, kind: str, how: str, disk: Disk) -> None:
    if how == "render: folder is a file" or how == "folder is a file":
        (disk.path / "file.txt").write_text("x")
        o = run(["render", WIKI, "--out", str(disk.path / "file.txt" / "x.png")])
        case.seconds = o.seconds
        case.fail(judge(o, (2,)))
        return
    suffix = "png" if kind == "png" else kind
    good = disk.path / f"x.{suffix}"
    if suffix == "png":
        _good_png(good)
    else:
        good.write_bytes(b"an older picture, to be kept")
    before = disk.files()
    if how == "read-only" and not disk.readonly():
        case.skipped = "no read-only disk"
        return
    if how == "full":
        disk.fill()
    o = run(["render", "--diagram", "paper-12", "--size", "640", "--out", str(good)])
    case.seconds = o.seconds
    case.fail(judge(o, (2,)))
    _unchanged(case, disk, before)


def _classify_full(case: Case, disk: Disk) -> None:
    disk.fill(leave=2000)
    with open(disk.path / "out.jsonl", "wb") as fh:
        o = run(["classify", str(ROOT / "assets" / "bench.epd")], stdout=fh)
    case.seconds = o.seconds
    case.fail(judge(o, (74,)))


def _run_out_case(case: Case, kind: str, how: str, disk: Disk, folder: Path,
                  small: Path) -> None:
    if kind == "scan":
        first = ["scan", str(POSITIONS), "--jobs", "1", "--quiet", "--out"]
        full = ["scan", str(GAMES), str(POSITIONS), str(SELFPLAY), "--jobs", "1", "--quiet",
                "--out"]
        log = "results.jsonl"
    else:
        first = ["experiment", str(small), "--time", "0.01", "--jobs", "1", "--quiet",
                 "--limit", "1", "--out"]
        full = ["experiment", str(small), "--time", "0.01", "--jobs", "1", "--quiet", "--out"]
        log = "runs.jsonl"
    ref = run([*full, str(folder / "ref")], timeout=120)
    o = run([*first, str(disk.path)], timeout=120)
    case.fail(judge(o))
    before = disk.files()
    if how == "read-only":
        if not disk.readonly():
            case.skipped = "no read-only disk"
            return
    else:
        disk.fill(leave=3000)
    o = run([*full, str(disk.path)], timeout=120)
    case.seconds = o.seconds
    case.fail(judge(o, (2,)))
    if how == "read-only":
        _unchanged(case, disk, before)
        return
    kept = disk.path / log
    old = before[log].splitlines()
    now = kept.read_bytes().splitlines() if kept.is_file() else []
    case.check(now[:len(old)] == old, f"earlier rows of {log} lost on a full disk", len(old))
    disk.free()
    o = run([*full, str(disk.path)], timeout=120)
    case.fail(judge(o))
    want = [json.loads(x).get("key", json.loads(x)["fen"])
            for x in (folder / "ref" / log).read_bytes().splitlines()]
    got = [r.get("key", r.get("fen")) for r in jsonl(kept)[0] if isinstance(r, dict)]
    case.check(got == want and ref.rc == 0, "after freeing the disk the run is not complete",
               len(want))


def run_child(args: list[str], home: Path, timeout: float = 90.0) -> tuple[Outcome, dict]:
    """This script's ``--child ARGS`` (a headless viewer) with ``PAWNFENCE_HOME=home``;
    returns the outcome and the JSON report the child printed last ({} if none)."""
    o = run([sys.executable, __file__, "--child", *args], module=False, timeout=timeout,
            env=dict(ENV, PAWNFENCE_HOME=str(home)))
    report = {}
    for line in reversed(o.out.splitlines()):
        with contextlib.suppress(ValueError):
            report = json.loads(line)
            break
    return o, report if isinstance(report, dict) else {}


def _viewer_file_case(case: Case, kind: str, how: str, disk: Disk, folder: Path) -> None:
    if kind.startswith("export"):
        fmt = kind.split()[-1]
        target = disk.path / f"x.{fmt}"
        o, _r = run_child(["export", fmt, str(target)], folder / "home")
        case.fail(judge(o))
        step = ["export", fmt, str(target)]
        home = folder / "home"
    else:
        step = ["settings"] if "settings" in kind else ["add"]
        home = disk.path
        o, _r = run_child(step, home)
        case.fail(judge(o))
    before = disk.files()
    if how == "read-only" and not disk.readonly():
        case.skipped = "no read-only disk"
        return
    if how == "full":
        disk.fill()
    o, report = run_child(step, home)
    case.seconds = o.seconds
    case.fail(judge(o))
    message = str(report.get("message", ""))
    said = "cannot write" in message or "could not save" in message.lower()
    case.fail("" if said else f"the window did not say it failed: {shown(message, 100)}")
    _unchanged(case, disk, before)


def start_as_pawnfence() -> int:
    """``pawnfence --frames 5`` (the console entry point, settings and positions as they
    are), then, before the window closes, the message it shows, its size and the result
    of adding the position to the user's list; prints them as JSON."""
    from viewer.cli import main
    from viewer.window import app as app_module

    report: dict[str, object] = {}
    close = app_module.App.close

    def close_and_report(self: app_module.App) -> str | None:
        report.update(notice=self.state.message.text, size=list(self.screen.get_size()))
        self.save_position()
        report.update(message=self.state.message.text,
                      positions=len(self.state.position.user_positions))
        return close(self)

    app_module.App.close = close_and_report
    report["rc"] = main(["--frames", "5"])
    print(json.dumps(report))
    return int(report["rc"])


def _centre(app: object, square: str) -> tuple[int, int]:
    from tests.test_viewer import centre

    return centre(app, square)


def child(argv: list[str]) -> int:
    """The headless viewer side of a case (run in its own process): ``export KIND PATH``,
    ``settings`` (an edit, a second of frames, close), ``add`` (add the position),
    ``state`` (start as ``pawnfence`` does, add the position, close) or ``edit LOG
    INTERVAL`` (edit continuously until killed).  Prints a JSON report."""
    import pygame

    from tests.test_viewer import down, frames, key, up
    from viewer.model.settings import Settings, load_settings_checked
    from viewer.window.app import App

    what = argv[0]
    if what == "edit":
        return edit_until_killed(Path(argv[1]), float(argv[2]))
    if what == "state":
        return start_as_pawnfence()
    loaded = load_settings_checked()
    app = App(Settings(fen=D16), size=(900, 650), notices=loaded.problems,
              save=loaded.writable, export_dir=Path(argv[2]).parent if what == "export" else None)
    frames(app, [])
    report: dict[str, object] = {"notice": app.state.message.text}
    if what == "export":
        done = app.exporter.export(argv[1], argv[2])
        report["result"] = str(done) if done else None
    elif what == "settings":
        sq = _centre(app, "a3")
        frames(app, [key(pygame.K_2, unicode="2")], [down(sq), up(sq)],
               *[[] for _ in range(90)])
    elif what == "add":
        app.save_position()
    report["message"] = app.state.message.text
    report["positions"] = len(app.state.position.user_positions)
    report["size"] = list(app.screen.get_size())
    report["close"] = app.close()
    print(json.dumps(report))
    return 0


# -- family: damaged viewer settings and user positions --------------------------------------

def _settings_contents(rng: random.Random) -> dict[str, bytes | str]:
    """Damaged settings.json files: bytes, or "dir", "fifo" or "link:TARGET"."""
    big = json.dumps({"fen": WIKI, "pad": "x" * 30_000_000})
    return {
        **{k: v.encode() for k, v in DAMAGED_SETTINGS.items()},
        "not-utf8": b'{"fen": "\xff\xfe", "width": 900}',
        "random-bytes": rng.randbytes(2000),
        "nested-object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        "negative-window": b'{"width": -5, "height": 0}',
        "float-window": b'{"width": 1e308, "height": NaN}',
        "bigint-window": b'{"width": 1' + b"0" * 40 + b', "height": 900}',
        "wrong-types": b'{"fen": 5, "speed": "fast", "flipped": "yes", "method": [], '
                       b'"side": {}, "search_seconds": null, "export_size": "big"}',
        "bad-values": b'{"fen": "not a fen", "method": "nonexistent", "side": "purple", '
                      b'"tool": "Z", "speed": -1, "search_seconds": 1e308, "export_size": -5}',
        "huge-fen": json.dumps({"fen": "x" * 10_000_000}).encode(),
        "engine-null-byte": b'{"engine": "/no/such\\u0000engine", "search": true}',
        "engine-directory": b'{"engine": "/tmp", "search": true}',
        "unknown-key": b'{"fen": "8/8/8/8/8/k7/P7/K7 w - - 0 1", "from_the_future": 1}',
        "empty": b"", "null": b"null", "string": b'"str"', "truncated": b'{"fen": "4k3',
        "bom": b'\xef\xbb\xbf{"width": 900}',
        "big-file": big.encode(),
        "usable": b'{"engine": "/tmp/no-engine", "search": true, "speed": 5}',
        "directory": "dir", "fifo": "fifo", "dev-zero": "link:/dev/zero",
    }


def _positions_contents(rng: random.Random) -> dict[str, bytes | str]:
    line = f'{D16.rsplit(" ", 2)[0]} id "mine";\n'.encode()
    return {
        "not-utf8": line + b'8/8/8/8/8/k7/P7/K7 w - - id "caf\xe9";\n',
        "random-bytes": rng.randbytes(5000),
        "nul-bytes": line + b"\0" * 1000 + b"\n" + line,
        "long-line": line + b"x" * 300_000 + b"\n" + line,
        "huge-comment": line[:-2] + b' c0 "' + b"y" * 5_000_000 + b'";\n',
        "many": line * 20_000,
        "only-garbage": b"not a position\n" * 100,
        "crlf": line.replace(b"\n", b"\r\n") * 3,
        "no-newline": line.rstrip(b"\n"),
        "empty": b"",
        "directory": "dir", "fifo": "fifo", "dev-zero": "link:/dev/zero",
    }


def _plant(path: Path, content: bytes | str) -> None:
    if content == "dir":
        path.mkdir()
        (path / "inside").write_text("x")
    elif content == "fifo":
        os.mkfifo(path)
    elif isinstance(content, str) and content.startswith("link:"):
        path.symlink_to(content[5:])
    else:
        path.write_bytes(content)


def _same_settings(path: Path, content: bytes) -> bool:
    """Whether the settings file ``path`` holds every value of the JSON object ``content``
    (a save rewrites a usable file with the same values)."""
    try:
        old, new = strict_json(content), strict_json(path.read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(old, dict) and isinstance(new, dict) and \
        all(new.get(k) == v for k, v in old.items())


def _kept(path: Path, content: bytes | str) -> bool:
    """Whether the damaged ``content`` survives at ``path`` (for the position list, at the
    start of the file: adding appends; for settings, the same values) or beside it as
    ``NAME.bad*``."""
    if isinstance(content, bytes) and path.suffix == ".json" and _same_settings(path, content):
        return True
    for p in [path, *sorted(path.parent.glob(path.name + ".bad*"))]:
        if isinstance(content, bytes):
            data = p.read_bytes() if p.is_file() and not p.is_symlink() else None
            found = data == content or (p == path and path.suffix == ".epd" and data is not None
                                        and data.startswith(content))
        elif content == "dir":
            found = p.is_dir() and (p / "inside").exists()
        elif content == "fifo":
            found = p.is_fifo()
        else:
            found = p.is_symlink()
        if found:
            return True
    return False


def viewer_state(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    combos = [("settings.json", k, v) for k, v in _settings_contents(rng).items()]
    combos += [("my-positions.epd", k, v) for k, v in _positions_contents(rng).items()]
    for i, (name, label, content) in enumerate(pick(rng, combos, n)):
        home = work / f"h{i}"
        home.mkdir()
        _plant(home / name, content)
        case = Case("viewer-state", f"{name}: {label}")
        o, report = run_child(["state"], home, timeout=60)  # `pawnfence`, adding a position
        case.seconds = o.seconds
        case.fail(judge(o))
        if not o.hung:
            _state_checks(case, home, name, content, report)
            o = run(["--frames", "2"], env=dict(ENV, PAWNFENCE_HOME=str(home)), timeout=60)
            case.fail(judge(o))  # and every later start
        shutil.rmtree(home, ignore_errors=True)
        yield case


def _state_checks(case: Case, home: Path, name: str, content: bytes | str,
                  report: dict) -> None:
    from logic.position import read_positions

    path = home / name
    case.check(_kept(path, content), "the damaged file was replaced: its content is gone")
    w, h = report.get("size") or (0, 0)
    case.fail("" if 200 <= w <= 16384 and 200 <= h <= 16384 else f"window {w}x{h}")
    aside = list(home.glob(name + ".bad*"))
    if aside:
        notice = str(report.get("notice", ""))
        case.fail("" if name.split(".")[0] in notice else
                  f"kept aside but not said in the window: {shown(notice, 80)}")
    settings = home / "settings.json"
    if settings.is_file() and not settings.is_symlink():
        try:
            ok = isinstance(strict_json(settings.read_bytes()), dict)
        except ValueError:
            ok = False
        case.check(ok or settings.read_bytes() == content, "settings.json is not a JSON object")
    mine = home / "my-positions.epd"
    if name == "my-positions.epd" and isinstance(content, bytes):
        before = {e.board.epd() for e in read_positions(
            content.decode("utf-8", "replace").splitlines())}
        after = {e.board.epd() for e in read_positions(mine)} if mine.is_file() else set()
        lost = before - after
        case.check(not lost, f"{len(lost)} of the user's positions lost", max(1, len(before)))
        case.check(chess.Board(WIKI).epd() in after or not mine.is_file(),
                   f"adding a position failed: {shown(str(report.get('message')), 100)}")


# -- family: long lines, no newline, FIFOs and devices as input ----------------------------------

def _stream_inputs(work: Path) -> dict[str, Path | str]:
    """Inputs by name: a path, or "closed" (standard input closed)."""
    pos = f'{WIKI.rsplit(" ", 2)[0]} id "w";'
    made: dict[str, bytes] = {
        "no-newline-3MB": b"x" * 3_000_000,
        "no-newline-60MB": b"8" * 60_000_000,
        "position-then-1MB-comment": (pos[:-1] + ' c0 "' + "y" * 1_000_000).encode(),
        "nul-bytes": b"\0" * 1_000_000,
        "cr-separated": (pos + "\r").encode() * 50,
        "random-bytes": random.Random(0).randbytes(1_000_000),
        "empty": b"",
        "one-huge-pgn-line": b"1. e4 e5 " * 400_000,
    }
    out: dict[str, Path | str] = {}
    for name, data in made.items():
        out[name] = work / f"{name}.txt"
        out[name].write_bytes(data)
    gz = gzip.compress(GAMES.read_bytes())
    (work / "truncated.gz").write_bytes(gz[: len(gz) // 2])
    out["truncated-gz"] = work / "truncated.gz"
    (work / "plain-as.gz").write_bytes(POSITIONS.read_bytes())
    out["plain-text-named-gz"] = work / "plain-as.gz"
    fifo = work / "fifo"
    os.mkfifo(fifo)
    out.update({"dev-zero": Path("/dev/zero"), "fifo": fifo, "directory": work,
                "missing": work / "missing.epd", "closed": "closed"})
    return out


STREAM_COMMANDS = {
    "classify": ["classify", "{file}"],
    "classify -": ["classify", "-"],
    "scan .epd": ["scan", "{file.epd}", "--out", "{out}", "--quiet", "--jobs", "1"],
    "scan .pgn": ["scan", "{file.pgn}", "--out", "{out}", "--quiet", "--jobs", "1"],
    "bench --file": ["bench", "--file", "{file}", "--rounds", "1"],
    "bench --scan": ["bench", "--scan", "{file.pgn}", "--json"],
    "experiment": ["experiment", "{file}", "--time", "0.01", "--jobs", "1", "--quiet", "--out",
                   "{out}"],
    "viewer --playlist": ["--playlist", "{file}", "--frames", "3"],
}


def _as(path: Path, suffix: str, work: Path) -> str:
    """``path`` under a name ending in ``suffix`` (a symbolic link), as scan chooses its
    reader by the name."""
    if str(path).endswith(suffix) or path.name.endswith(".gz"):
        return str(path)
    link = work / f"as-{path.name}{suffix}"
    if not link.is_symlink():
        link.symlink_to(path)
    return str(link)


def streams(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    inputs = _stream_inputs(work)
    combos = [(c, i) for c in STREAM_COMMANDS for i in inputs
              if (c == "classify -") == (i in ("closed", "dev-zero", "random-bytes",
                                                "no-newline-60MB", "cr-separated"))]
    combos.append(("explain", "100 KB argument"))
    for i, (command, name) in enumerate(pick(rng, combos, n)):
        case = Case("streams", f"{command} < {name}")
        env = dict(ENV, PAWNFENCE_HOME=str(work / "home"))
        out = work / f"out{i}"
        if command == "explain":
            o = run(["explain", WIKI.rsplit(" ", 2)[0] + " " + "x" * 100_000], env=env)
        else:
            src = inputs[name]
            stdin, close = None, ()
            if command == "classify -":
                close = (0,) if src == "closed" else ()
                stdin = None if src == "closed" else open(src, "rb")  # noqa: SIM115
            args = [a.format(out=out, file=src) if "{file}" in a or "{out}" in a else a
                    for a in STREAM_COMMANDS[command]]
            args = [_as(Path(src), "." + a[6:-1], work) if a.startswith("{file.") else a
                    for a in args]
            o = _run_stream(args, stdin, close, env)
        case.seconds = o.seconds
        case.fail(judge(o, (0, 2)))
        lines = [ln for ln in o.err.splitlines() if ln.strip() and "[" not in ln[:1]]
        case.fail("" if o.rc == 0 or len(lines) <= 3 else f"{len(lines)} lines on stderr")
        shutil.rmtree(out, ignore_errors=True)
        yield case


def _run_stream(args: list[str], stdin: object, close: tuple[int, ...],
                env: dict[str, str]) -> Outcome:
    try:
        return run(args, stdin=stdin, close=close, env=env, timeout=90)
    finally:
        if hasattr(stdin, "close"):
            stdin.close()


# -- family: kills at random moments of scan and experiment, then resume -------------------------

def _kp_file(path: Path, count: int) -> Path:
    boards = logic.position.load_boards(ROOT / "assets" / "experiment.epd", kp_only=True)
    path.write_text("".join(b.epd() + "\n" for b in boards[:count]))
    return path


def kills(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    slow = str(SCAN_DATA / "slow_engine.sh")
    inputs = [str(GAMES), str(POSITIONS), str(SELFPLAY)]
    small = _kp_file(work / "small.epd", 12)

    def scan_cmd(out: Path) -> list[str]:
        return ["scan", *inputs, "--out", str(out), "--jobs", "1", "--engine", slow,
                "--engine-time", "0.01", "--quiet"]

    def exp_cmd(out: Path) -> list[str]:
        return ["experiment", str(small), "--time", "0.05", "--jobs", "1", "--quiet", "--out",
                str(out)]

    refs = {"scan": run(scan_cmd(work / "scan-ref"), timeout=300),
            "experiment": run(exp_cmd(work / "exp-ref"), timeout=300)}
    for i in range(n):
        kind = "experiment" if i % 3 == 2 else "scan"
        cmd = scan_cmd if kind == "scan" else exp_cmd
        ref_dir = work / ("scan-ref" if kind == "scan" else "exp-ref")
        yield _kill_case(rng, kind, cmd, refs[kind].seconds, ref_dir, work / f"k{i}")


def _killed_run(cmd: list[str], when: float, sig: signal.Signals) -> str:
    """Start ``cmd``, send ``sig`` to it after ``when`` seconds; a failure of its end."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", *cmd], cwd=ROOT, env=ENV,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=err, start_new_session=True)
        time.sleep(when)
        if proc.poll() is None:
            os.kill(proc.pid, sig)
        try:
            rc = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            rc = None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    if rc is None:
        return f"no exit within 30 s of {sig.name}"
    if any(m in text for m in TRACEBACK_MARKERS):
        return f"traceback after {sig.name}: {last_line(text)}"
    if sig == signal.SIGINT and rc not in (0, 130):
        return f"exit code {rc} after Ctrl-C"
    return ""


def _kill_case(rng: random.Random, kind: str, cmd: Callable[[Path], list[str]],
               duration: float, ref_dir: Path, out: Path) -> Case:
    log = out / ("results.jsonl" if kind == "scan" else "runs.jsonl")
    ok = result_line_ok if kind == "scan" else run_line_ok
    events = []
    for _ in range(rng.randint(1, 3)):
        when = rng.uniform(0.3, max(0.5, duration * 0.95))
        sig = rng.choice([signal.SIGKILL, signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
        events.append((when, sig))
    case = Case("kills", f"{kind}: " + ", ".join(f"{s.name} at {w:.1f} s" for w, s in events))
    for when, sig in events:
        case.fail(_killed_run(cmd(out), when, sig))
    data = log.read_bytes() if log.is_file() else b""
    before = [json.loads(x) for x in data.split(b"\n")[:-1] if ok(x)]
    o = run(cmd(out), timeout=300)
    case.seconds = o.seconds
    case.fail(judge(o))
    ref = (ref_dir / log.name).read_bytes()
    if kind == "scan":
        got = [json.loads(x)["key"] for x in log.read_bytes().splitlines() if ok(x)]
        want = [json.loads(x)["key"] for x in ref.splitlines()]
        case.check(log.read_bytes() == ref, f"results differ from an uninterrupted run "
                   f"({len(set(want) - set(got))} lost, {len(got) - len(set(got))} repeated)",
                   len(want))
        for name in ("suspects.epd", "errors.log"):
            case.check((out / name).read_bytes() == (ref_dir / name).read_bytes(),
                       f"{name} differs from an uninterrupted run")
        resumed = re.search(r"\((\d+) from an earlier run\)", o.out)
        done = len({r["key"] for r in before})
        case.check(bool(resumed) and int(resumed.group(1)) == done,
                   f"{done} positions were done, the resume took {resumed and resumed[1]}")
    else:
        rows = [json.loads(x) for x in log.read_bytes().splitlines() if ok(x)]
        want = [json.loads(x) for x in ref.splitlines()]
        case.check([r["fen"] for r in rows] == [r["fen"] for r in want] and
                   all(set(r["runs"]) == set(w["runs"]) for r, w in zip(rows, want,
                                                                         strict=False)),
                   "runs.jsonl is not one row per position as in an uninterrupted run",
                   len(want))
        first = {}
        for r in before:
            first.setdefault(r["fen"], r)
        redone = sum(1 for r in rows if r["fen"] in first and r != first[r["fen"]])
        case.check(redone == 0, f"{redone} finished positions were run again", len(first))
    case.counts["kills"] = len(events)
    case.counts["rows kept from killed runs"] = len(before)
    shutil.rmtree(out, ignore_errors=True)
    return case


# -- family: kills during continuous editing in the viewer ---------------------------------------

def edit_until_killed(log: Path, interval: float) -> int:
    """Edit the board every ``interval`` seconds of real time (a click toggling a white
    pawn, the squares in Gray-code order so that no position repeats) and add the
    position to the user's list every fifth edit, logging each step, until killed."""
    import pygame

    from tests.test_viewer import down, frames, key, up
    from viewer.model.settings import Settings
    from viewer.window.app import App

    app = App(Settings(fen=WIKI), size=(900, 650))
    frames(app, [key(pygame.K_2, unicode="2")])
    board = chess.Board(WIKI)
    squares = [chess.square_name(s) for s in chess.SQUARES
               if 2 <= chess.square_rank(s) <= 5 and board.piece_at(s) is None][:12]
    with open(log, "a", encoding="utf-8") as fh:
        fh.write(f"start {time.monotonic():.4f} {app.state.position.editor.fen}\n")
        fh.flush()
        k = 0
        while True:
            k += 1
            pos = _centre(app, squares[((k & -k).bit_length() - 1) % len(squares)])
            t = time.monotonic()
            fh.write(f"intent {t:.4f} {k}\n")
            fh.flush()
            pygame.event.post(down(pos))
            pygame.event.post(up(pos))
            app.run(seconds=interval)
            fh.write(f"edit {t:.4f} {app.state.position.editor.fen}\n")
            fh.flush()
            if k % 5 == 0:
                app.save_position()
                fh.write(f"added {time.monotonic():.4f} {app.state.position.editor.fen}\n")
                fh.flush()


def viewer_kill(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    for i in range(n):
        home, log = work / f"h{i}", work / f"edits{i}.log"
        interval = rng.uniform(0.15, 0.6)
        after = rng.uniform(0.5, 5.0)
        case = Case("viewer-kill", f"an edit every {interval:.2f} s, killed {after:.1f} s "
                    "after the third")
        with tempfile.TemporaryFile() as err:
            proc = subprocess.Popen([sys.executable, __file__, "--child", "edit", str(log),
                                     f"{interval:.3f}"], cwd=ROOT, stdout=subprocess.DEVNULL,
                                    stderr=err, start_new_session=True,
                                    env=dict(ENV, PAWNFENCE_HOME=str(home)))
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and proc.poll() is None and (
                    not log.is_file() or log.read_text().count("\nedit ") < 3):
                time.sleep(0.05)
            time.sleep(after)
            killed = time.monotonic()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            err.seek(0)
            case.fail(judge(Outcome(0, "", err.read().decode("utf-8", "replace"), 0)))
        case.seconds = killed - (deadline - 60)
        _edit_checks(case, home, log, killed)
        o = run(["--frames", "2"], env=dict(ENV, PAWNFENCE_HOME=str(home)))  # starts again
        case.fail(judge(o))
        yield case


def _edit_checks(case: Case, home: Path, log: Path, killed: float) -> None:
    from logic.position import read_positions

    lines = [ln.split(" ", 2) for ln in log.read_text().splitlines() if ln.count(" ") >= 2]
    start = next((fen for kind, _t, fen in lines if kind == "start"), "")
    edits = [(float(t), fen) for kind, t, fen in lines if kind == "edit"]
    added = [fen for kind, _t, fen in lines if kind == "added"]
    pending = lines and lines[-1][0] == "intent"
    try:
        saved = strict_json((home / "settings.json").read_bytes())["fen"]
    except (OSError, ValueError, KeyError, TypeError):
        saved = None
    case.check(saved is not None or not edits, "settings.json is missing or not a JSON object")
    fens = [fen for _t, fen in edits]
    if saved is None or saved == start:
        lost = edits  # nothing saved yet
    elif saved in fens:
        lost = edits[len(fens) - fens[::-1].index(saved):]
    else:  # the edit in progress when killed, else a position never on the board
        case.check(bool(pending), f"saved a position never on the board: {saved}")
        lost = []
    window = killed - lost[0][0] if lost else 0.0
    case.check(window <= 1.0, f"{len(lost)} edits lost over {window:.2f} s (at most 1 s)",
               max(1, len(edits)))
    case.counts["edits"] = len(edits)
    case.counts["max ms lost"] = round(window * 1000)
    mine = home / "my-positions.epd"
    kept = {e.board.epd() for e in read_positions(mine)} if mine.is_file() else set()
    missing = [f for f in added if chess.Board(f).epd() not in kept]
    case.check(not missing, f"{len(missing)} added positions lost", max(1, len(added)))


# -- family: files two windows share -------------------------------------------------------------

#: a child adding positions ``TAG-0``, ``TAG-1``, ... to the user's list once ``GO`` exists,
#: and saving the settings between additions
ADDER = """
import sys, time
from pathlib import Path
from viewer.model.settings import Settings, add_user_position, save_settings
tag, n, go = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
while not go.exists():
    time.sleep(0.001)
for i in range(n):
    add_user_position(f"{tag}-{i}", "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1")
    if i % 7 == 0:
        save_settings(Settings(speed=1.0 + i))
"""


def shared_files(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    from viewer.model.settings import load_settings_checked, load_user_positions_checked

    for i in range(n):
        home, go = work / f"h{i}", work / f"go{i}"
        writers = rng.randint(2, 4)
        counts = [rng.randint(10, 60) for _ in range(writers)]
        victim = rng.randrange(writers) if rng.random() < 0.5 else None
        stale = rng.random() < 0.5
        case = Case("shared-files", f"{writers} processes adding {counts} positions at once"
                    + (f", writer {victim} SIGKILLed midway" if victim is not None else "")
                    + (", stale temporary files planted" if stale else ""))
        home.mkdir()
        if stale:
            for name in (".settings.json.x1y2z3.json", ".my-positions.epd.a1b2c3.epd"):
                (home / name).write_text("half a file")
        env = dict(ENV, PAWNFENCE_HOME=str(home))
        procs = [subprocess.Popen([sys.executable, "-c", ADDER, f"w{k}", str(c), str(go)],
                                  cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, start_new_session=True)
                 for k, c in enumerate(counts)]
        time.sleep(0.3)
        t0 = time.monotonic()
        go.touch()
        if victim is not None:
            time.sleep(rng.uniform(0.05, 0.5))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(procs[victim].pid, signal.SIGKILL)
        for k, p in enumerate(procs):
            try:
                _out, err = p.communicate(timeout=300)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                _out, err = p.communicate()
                case.fail(f"writer {k} still running after 300 s")
            if k != victim:
                case.fail(judge(Outcome(p.returncode, "", err.decode("utf-8", "replace"), 0)))
        case.seconds = time.monotonic() - t0
        if stale:
            load_user_positions_checked_at(home, load_settings_checked,
                                           load_user_positions_checked)
        names = _user_position_names(home)
        for k, c in enumerate(counts):
            got = sorted(int(x.split("-")[1]) for x in names if x.startswith(f"w{k}-"))
            if k == victim:  # a prefix of its additions, none repeated
                case.check(got == list(range(len(got))), f"writer {k} (killed): additions "
                           f"{got[:5]}... are not a prefix", max(1, len(got)))
            else:
                case.check(got == list(range(c)), f"writer {k}: {c - len(set(got))} of {c} "
                           "positions lost", c)
        temps = [p.name for p in home.iterdir() if p.name.startswith(".")
                 and not p.name.endswith(".lock")]
        case.check(not temps or (victim is not None and not stale),
                   f"temporary files left: {temps}")
        case.counts["positions"] = len(names)
        yield case


def load_user_positions_checked_at(home: Path, *loaders: Callable[[], object]) -> None:
    """Start as the viewer starts (load the settings and the list) with ``home`` as the
    user's folder: stale temporary files are removed then."""
    old = os.environ.get("PAWNFENCE_HOME")
    os.environ["PAWNFENCE_HOME"] = str(home)
    try:
        for load in loaders:
            load()
    finally:
        if old is None:
            os.environ.pop("PAWNFENCE_HOME", None)
        else:
            os.environ["PAWNFENCE_HOME"] = old


def _user_position_names(home: Path) -> list[str]:
    path = home / "my-positions.epd"
    if not path.is_file():
        return []
    return [line.split('id "', 1)[1].split('"', 1)[0]
            for line in path.read_text(encoding="utf-8").splitlines() if 'id "' in line]


# -- family: displays that cannot be reached -----------------------------------------------------

def _free_display(start: int = 120) -> str:
    for k in range(start, 600):
        if not Path(f"/tmp/.X11-unix/X{k}").exists() and not Path(f"/tmp/.X{k}-lock").exists():
            return f":{k}"
    return ":599"


def _dead_xvfb() -> str:
    """The display of an Xvfb started and SIGKILLed (its socket and lock left behind);
    "" without Xvfb."""
    if shutil.which("Xvfb") is None:
        return ""
    display = _free_display(300)
    proc = subprocess.Popen(["Xvfb", display, "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not Path(f"/tmp/.X11-unix/X{display[1:]}").exists():
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    return display


DISPLAYS = ["free", "bogus", "unix:987", "localhost:77.0", "dead-xvfb", "asked-offscreen",
            "asked-dummy"]


def displays(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    for i, what in enumerate(pick(rng, DISPLAYS, n)):
        env = {k: v for k, v in ENV.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
        env["PAWNFENCE_HOME"] = str(work / f"h{i}")
        display = {"free": _free_display(), "dead-xvfb": _dead_xvfb()}.get(what, what)
        case = Case("display", f"DISPLAY={display!r} ({what})")
        if not display:
            case.skipped = "no Xvfb"
            yield case
            continue
        asked = what.startswith("asked-")
        if asked:
            env["SDL_VIDEODRIVER"] = what.split("-", 1)[1]
            env["DISPLAY"] = "bogus"
        else:
            env["DISPLAY"] = display
        o = run(["--frames", "3"], env=env, timeout=60)
        case.seconds = o.seconds
        if asked:
            case.fail(judge(o))
        else:
            case.fail(judge(o, ok=(3,)))
            case.check("no display to open a window on" in o.err,
                       f"no 'no display' message: {last_line(o.err)}")
        yield case


# -- family: a Dask scheduler that never answers -------------------------------------------------

class SilentServer:
    """A TCP server on 127.0.0.1 that accepts and then, by ``how``: stays silent, closes
    at once, or sends bytes that are not Dask's."""

    def __init__(self, how: str) -> None:
        import socket
        import threading

        self.how = how
        self.srv = socket.create_server(("127.0.0.1", 0))
        self.srv.settimeout(0.2)
        self.held: list[object] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        self.address = f"tcp://127.0.0.1:{self.srv.getsockname()[1]}"

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.srv.accept()
            except OSError:
                continue
            if self.how == "closes":
                conn.close()
                continue
            if self.how == "garbage":
                with contextlib.suppress(OSError):
                    conn.sendall(b"HTTP/1.1 200 OK\r\n\r\nnot a scheduler\n")
            self.held.append(conn)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for c in self.held:
            c.close()  # type: ignore[attr-defined]
        self.srv.close()


def dask_silent(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    try:
        import distributed  # noqa: F401
    except ImportError:
        yield Case("dask-silent", "Dask", skipped="Dask not installed")
        return
    ref = work / "ref"
    base = run(["scan", str(POSITIONS), "--out", str(ref), "--jobs", "1", "--quiet"])
    for i, how in enumerate(pick(rng, ["silent", "silent", "closes", "garbage"], n)):
        wait = rng.choice([1, 2, 3])
        case = Case("dask-silent", f"a scheduler that accepts and {how}, --dask-timeout {wait}")
        case.fail(judge(base))
        out = work / f"o{i}"
        shutil.copytree(ref, out)
        before = (out / "results.jsonl").read_bytes()
        server = SilentServer(how)
        try:
            o = run(["scan", str(POSITIONS), "--out", str(out), "--quiet", "--dask",
                     server.address, "--dask-timeout", str(wait)], timeout=wait + 60)
        finally:
            server.close()
        case.seconds = o.seconds
        case.fail(judge(o, ok=(2,)))
        lines = o.err.strip().splitlines()
        case.fail("" if len(lines) == 1 and server.address in lines[0] else
                  f"not one line naming the address: {shown(o.err, 160)}")
        case.check((out / "results.jsonl").read_bytes() == before,
                   "the results of the earlier run changed", before.count(b"\n"))
        yield case


# -- family: pool workers whose parent is killed -------------------------------------------------

def _descendants(pid: int) -> list[int]:
    """Live descendants of ``pid``."""
    parents: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
                if fields[0] != "Z":
                    parents[int(d)] = int(fields[1])
    out, frontier = [], [pid]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        out += kids
        frontier += kids
    return out


def pool_kill(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    epd = _kp_file(work / "kp.epd", 80)
    slow = str(SCAN_DATA / "slow_engine.sh")
    hang = make_engine("hang-go", work, f"--tag-{uuid.uuid4().hex}")
    ref = run(["scan", str(epd), "--out", str(work / "ref"), "--jobs", "1", "--quiet"],
              timeout=300)
    want = {json.loads(x)["key"] for x in (work / "ref" / "results.jsonl").read_bytes()
            .splitlines()}
    for i in range(n):
        sig = rng.choice([signal.SIGKILL, signal.SIGTERM])
        engine = rng.choice([slow, hang])
        when = rng.uniform(0.2, 3.0)
        case = Case("pool-kill", f"scan --jobs 2 ({'hanging' if engine == hang else 'slow'} "
                    f"engine) sent {sig.name} {when:.1f} s after its pool started")
        case.fail(judge(ref))
        out = work / f"o{i}"
        cmd = ["scan", str(epd), "--out", str(out), "--jobs", "2", "--quiet", "--engine",
               engine, "--engine-time", "0.01" if engine == slow else "30"]
        with tempfile.TemporaryFile() as err:
            proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", *cmd], cwd=ROOT,
                                    env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=err, start_new_session=True)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and proc.poll() is None and \
                    len(_descendants(proc.pid)) < 3:  # two workers (and a resource tracker)
                time.sleep(0.05)
            time.sleep(when)
            family = _descendants(proc.pid)
            t0 = time.monotonic()
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, sig)
            proc.wait()
            while time.monotonic() - t0 < 20 and any(_alive(p) for p in family):
                time.sleep(0.05)
            left = [p for p in family if _alive(p)]
            case.seconds = time.monotonic() - t0
            case.fail(f"{len(left)} worker or engine process(es) alive "
                      f"{case.seconds:.0f} s after the parent's end" if left else "")
            for p in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p, signal.SIGKILL)
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        case.fail("" if not any(m in text for m in (*TRACEBACK_MARKERS, "BrokenPipeError"))
                  else f"traceback after {sig.name}: {last_line(text)}")
        case.counts["max ms to end"] = round(case.seconds * 1000)
        if engine == slow:  # the same command then completes: nothing lost or repeated
            o = run(cmd, timeout=300)
            case.fail(judge(o))
            keys = [json.loads(x)["key"] for x in (out / "results.jsonl").read_bytes()
                    .splitlines() if result_line_ok(x)]
            case.check(sorted(keys) == sorted(want), "results lost or repeated after the "
                       "resume", len(want))
        yield case


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


# -- family: file names that are not UTF-8 -------------------------------------------------------

NAME_BYTES = [b"\xff", b"\xe9", b"\xc3(", b"\x80\x81", b"\xed\xa0\x80", b"caf\xe9 \\ \"q\";"]


def bad_names(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    kinds = ["scan input", "scan out", "render png", "render svg", "render gif", "classify",
             "playlist"]
    combos = [(k, b) for k in kinds for b in NAME_BYTES]
    from logic.tools.scan import scan

    ref = scan([str(POSITIONS)], work / "ref", jobs=1, progress=None)["positions"]
    for i, (kind, raw) in enumerate(pick(rng, combos, n)):
        folder = work / f"n{i}"
        folder.mkdir()
        name = os.fsdecode(bytes(folder) + b"/x" + raw)
        case = Case("names", f"{kind} named {shown(raw)}")
        _bad_name_case(case, kind, name, folder, ref)
        yield case


def _bad_name_case(case: Case, kind: str, name: str, folder: Path, ref: int) -> None:
    """One command with a name that is not UTF-8 (``ref``: the positions of a scan)."""
    if kind.startswith("scan"):
        src = name + ".epd" if kind == "scan input" else str(POSITIONS)
        if kind == "scan input":
            shutil.copy(POSITIONS, src)
        out = name + "-out" if kind == "scan out" else str(folder / "out")
        for _ in range(2):  # and the rerun
            o = run(["scan", src, "--out", out, "--jobs", "1", "--quiet"], timeout=120)
            case.fail(judge(o))
        case.seconds = o.seconds
        try:
            lines = Path(out, "suspects.epd").read_text(encoding="utf-8").splitlines()
            ids = [str(chess.Board.from_epd(x)[1]["id"]) for x in lines]
            rows, bad = jsonl(Path(out, "results.jsonl"))
        except (OSError, ValueError, KeyError) as exc:
            case.check(False, f"the outputs cannot be read back: {exc}")
            return
        case.check(bool(ids) and not bad and len(rows) == ref,
                   f"suspects or results lost: {len(rows)} of {ref} results", ref)
        if kind == "scan input":
            want = os.fsencode(src).rsplit(b"/", 1)[1].decode("utf-8", "backslashreplace")
            case.check(all(x.startswith(want + " line ") for x in ids),
                       f"the suspects do not name the input: {ids[:1]}")
    elif kind.startswith("render"):
        ext = kind.split()[1]
        out = name + "." + ext
        o = run(["render", "--diagram", "wiki-1", "--size", "160", "--out", out], timeout=120)
        case.seconds = o.seconds
        case.fail(judge(o))
        head = Path(out).read_bytes()[:8] if Path(out).is_file() else b""
        case.check(head.startswith({"png": b"\x89PNG", "svg": b"<", "gif": b"GIF"}[ext]) or
                   (ext == "svg" and b"svg" in Path(out).read_bytes()[:200]),
                   f"no {ext} written")
        strays = [p for p in os.listdir(bytes(folder)) if p.startswith(b".")]
        case.check(not strays, f"temporary files left: {strays}")
    elif kind == "classify":
        src = name + ".epd"
        shutil.copy(POSITIONS, src)
        o = run(["classify", src])
        case.seconds = o.seconds
        case.fail(judge(o))
        want = sum(1 for ln in POSITIONS.read_text().splitlines()
                   if ln.strip() and not ln.startswith("#"))
        case.check(o.out.count("\n") == want, f"{o.out.count(chr(10))} of {want} lines",
                   want)
    else:
        src = name + ".epd"
        shutil.copy(POSITIONS, src)
        o = run(["--playlist", src, "--frames", "2"], env=dict(ENV, PAWNFENCE_HOME=str(folder)))
        case.seconds = o.seconds
        case.fail(judge(o))


# -- family: the smaller faults ------------------------------------------------------------------

SMALL = ["stray CR", "help into /dev/full", "engine noise", "damaged line kept"]


def small_faults(rng: random.Random, n: int, work: Path) -> Iterator[Case]:
    for i, what in enumerate(pick(rng, SMALL, n)):
        case = Case("small", what)
        folder = work / f"s{i}"
        folder.mkdir()
        {"stray CR": _stray_cr, "help into /dev/full": _help_full,
         "engine noise": _engine_noise, "damaged line kept": _damaged_kept}[what](
            case, rng, folder)
        yield case


def _stray_cr(case: Case, rng: random.Random, folder: Path) -> None:
    """Random lines, good and bad, with stray CRs and CRLF endings: classify's line
    numbers are those of the ``\\n``-separated lines."""
    lines = [rng.choice([WIKI, D16, "not a fen", "# note \r inside", "8/8 w"])
             for _ in range(rng.randint(5, 40))]
    data = "".join(ln + rng.choice(["\n", "\r\n", "\r\r\n"]) for ln in lines).encode()
    src = folder / "in.epd"
    src.write_bytes(data)
    o = run(["classify", str(src)])
    case.seconds = o.seconds
    case.fail(judge(o))
    want = [n for n, ln in enumerate(data.split(b"\n"), 1) if ln.rstrip(b"\r").startswith(
        (b"not a fen", b"8/8 w"))]
    got = [r["line"] for r in map(json.loads, o.out.splitlines()) if "error" in r]
    case.check(got == want, f"error lines {got[:6]} where the file has {want[:6]}",
               max(1, len(want)))


def _help_full(case: Case, rng: random.Random, folder: Path) -> None:
    args = rng.choice([["--help"], ["--version"], ["help"], ["scan", "--help"],
                       ["render", "--help"], ["classify", "-h"]])
    case.name += f": {' '.join(args)}"
    with open("/dev/full", "w") as full:
        o = run(args, stdout=full)
    case.fail(judge(o, ok=(74,)))
    case.fail("" if o.err.count("\n") == 1 else f"not one line: {shown(o.err, 160)}")


def _engine_noise(case: Case, rng: random.Random, folder: Path) -> None:
    kind = rng.choice(["illegal-bestmove", "garbage", "no-score", "crash"])
    case.name += f": {kind}"
    path = make_engine(kind, folder, f"--tag-{uuid.uuid4().hex}")
    o = run(["scan", str(POSITIONS), "--out", str(folder / "o"), "--jobs", "1", "--quiet",
             "--engine", path, "--engine-time", "0.01"], timeout=120)
    case.seconds = o.seconds
    case.fail(judge(o, ok=(2,)))
    noise = [ln for ln in o.err.splitlines() if not ln.startswith("pawnfence: ")]
    case.fail(f"{len(noise)} lines of noise: {shown(noise[0], 100)}" if noise else "")
    case.fail("" if o.err.count("\n") == 1 else f"{o.err.count(chr(10))} lines on stderr")


def _damaged_kept(case: Case, rng: random.Random, folder: Path) -> None:
    from logic.tools.scan import scan

    out = folder / "o"
    scan([str(POSITIONS)], out, jobs=1, progress=None)
    good = (out / "results.jsonl").read_bytes().splitlines()
    bad = [damage_line(rng, rng.choice(good))[0] for _ in range(rng.randint(1, 4))]
    bad = [b for b in bad if b"\n" not in b and not result_line_ok(b)] or [b"{not json"]
    (out / "results.jsonl").write_bytes(b"".join(x + b"\n" for x in [*good, *bad]))
    _s, failure, case.seconds = guarded(lambda: scan([str(POSITIONS)], out, jobs=1,
                                                     progress=None), 120)
    case.fail(failure)
    kept = (out / "results.jsonl.bad").read_bytes() if (out / "results.jsonl.bad").is_file() \
        else b""
    case.check(kept == b"".join(x + b"\n" for x in bad),
               "the damaged lines' bytes are not kept in results.jsonl.bad", len(bad))


# -- the campaign --------------------------------------------------------------------------------

FAMILIES = [
    Family("fen-lines", fen_lines, 800,
           "FEN/EPD lines damaged byte by byte or token by token between two good lines, "
           "through `classify` and `explain` (every method, side, `--json`): one object per "
           "line, the good lines' verdicts unchanged, classify and explain agreeing"),
    Family("pgn", pgn, 600,
           "token-fuzzed games (and .gz, cut short) between good PGN files through `scan` "
           "and `bench --scan`: the good files' positions all kept, results.jsonl whole"),
    Family("state-lines", state_lines, 400,
           "results.jsonl / runs.jsonl with lines damaged (not JSON, not UTF-8, mistyped or "
           "missing fields, NaN, deep nesting, torn, repeated, CRLF) then resumed: the result "
           "equal to an undamaged run, each damaged line set aside with its number"),
    Family("numbers", numbers, len(BAD_NUMBERS) * 12,
           "nan, inf, -inf, 0, -0, -1, 1e-320, 1e308, 10^9, 10^20, '' and 0x10 for every "
           "numeric option (search, scan, experiment, bench, render, the viewer's --size)"),
    Family("engines", engines, (len(FAKE_FLAGS) + len(SCRIPTS)) * 2 + 1,
           "fake UCI engines (no score, illegal bestmove, garbage, no answer to go, ignores "
           "quit, crash, stderr flood, and missing, not executable, a folder, exits, echoes, "
           "floods stdout, dies after uciok, never uciok) through `scan` and the viewer's "
           "analysis; an illegal position"),
    Family("output", output, len(STDOUT_COMMANDS) * 3 + len(FILE_CASES),
           "/dev/full, a closed stdout and a closed pipe for every command; a read-only and a "
           "full disk (tmpfs) for render (PNG, GIF, SVG), scan, experiment, classify and the "
           "viewer's exports, settings and position list: good files kept"),
    Family("viewer-state", viewer_state, 38,
           "damaged settings.json and my-positions.epd (not UTF-8, deep JSON, huge window, "
           "NaN, 10 MB FEN, 30 MB file, a folder, a FIFO, /dev/zero, ...) with the headless "
           "viewer: it starts, says so, keeps the file aside, adds a position, starts again"),
    Family("streams", streams, 96,
           "/dev/zero, a FIFO, 3 MB and 60 MB lines without newline, NUL bytes, CR-only lines, "
           "random bytes, a cut .gz, a folder, a missing file and a closed stdin as the input "
           "of classify, scan, bench, experiment and the viewer's playlist"),
    Family("kills", kills, 6,
           "SIGKILL, SIGTERM or Ctrl-C at one to three random moments of `scan` (with a slow "
           "engine) and `experiment`, then the same command: compared with an uninterrupted "
           "run, nothing lost, nothing repeated"),
    Family("viewer-kill", viewer_kill, 5,
           "the headless viewer edited in real time (a click every 0.15-0.6 s, the position "
           "added to the list every fifth edit) and SIGKILLed: at most one second of edits "
           "lost, every added position kept, the next start fine"),
    Family("shared-files", shared_files, 8,
           "two to four processes adding positions to one user folder at once (saving the "
           "settings between), one of them sometimes SIGKILLed, stale temporary files "
           "planted: every position kept, a killed writer's a prefix, no temporary file left"),
    Family("display", displays, len(DISPLAYS),
           "the viewer with a DISPLAY no X server answers (a free number, a bogus name, a "
           "remote one, a SIGKILLed Xvfb) and with a headless driver asked for: status 3 and "
           "the no-display message, or a run when asked"),
    Family("dask-silent", dask_silent, 4,
           "scan --dask against a server that accepts and stays silent, closes, or answers "
           "garbage, with --dask-timeout 1 to 3 s: one line naming the address, the results "
           "of the earlier run kept"),
    Family("pool-kill", pool_kill, 4,
           "SIGKILL or SIGTERM of scan --jobs 2 (a slow or a hanging engine) at a random "
           "moment of its pool: every worker and engine gone within 20 s, no traceback, the "
           "rerun complete without loss or repetition"),
    Family("names", bad_names, 14,
           "file names with bytes that are not UTF-8 for scan's input and output folder, "
           "render (PNG, SVG, GIF), classify and the viewer's playlist: written, read back, "
           "named with backslash escapes, no temporary file left"),
    Family("small", small_faults, 8,
           "stray CRs and CRLF lines through classify (line numbers by newline), --help and "
           "--version into /dev/full, failing engines' noise (one line, the rest in "
           "engine.log), damaged results.jsonl lines kept byte for byte in .bad"),
]


def summarize(name: str, cases: list[Case], seconds: float) -> dict[str, object]:
    done = [c for c in cases if not c.skipped]
    counts: dict[str, int] = {}
    for c in done:
        for k, v in c.counts.items():
            counts[k] = max(counts.get(k, 0), v) if k.startswith("max") else \
                counts.get(k, 0) + v
    return {"family": name, "cases": len(done), "skipped": len(cases) - len(done),
            "failures": sum(bool(c.failure) for c in done),
            "checks": sum(c.checks for c in done), "lost": sum(c.lost for c in done),
            "seconds": round(seconds, 1), "counts": counts}


def table(rows: list[dict[str, object]]) -> str:
    out = ["| family | cases | failures | nothing lost | notes |", "|---|---|---|---|---|"]
    for r in rows:
        lost = (f"yes (0 of {r['checks']:,} checks)" if not r["lost"] else
                f"no ({r['lost']:,} of {r['checks']:,} checks)") if r["checks"] else "-"
        notes = [f"{v:,} {k}" for k, v in r["counts"].items()]
        notes += [f"{r['skipped']} skipped"] * bool(r["skipped"]) + [f"{r['seconds']:.0f} s"]
        out.append(f"| {r['family']} | {r['cases']:,} | {r['failures']:,} | {lost} | "
                   f"{', '.join(notes)} |")
    return "\n".join(out)


def _commit() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                       text=True)
    return r.stdout.strip() or "?"


def campaign(names: list[str], seed: int, cases: int | None, work: Path,
             quiet: bool) -> tuple[list[dict[str, object]], list[Case]]:
    rows, failed = [], []
    for fam in FAMILIES:
        if fam.name not in names:
            continue
        rng = random.Random(f"{seed}:{fam.name}")
        folder = work / fam.name
        folder.mkdir()
        n = cases or fam.cases
        done: list[Case] = []
        t0 = time.monotonic()
        for case in fam.run(rng, n, folder):
            done.append(case)
            if not quiet:
                bad = sum(bool(c.failure) for c in done if not c.skipped)
                print(f"\r{fam.name}: {len(done)}/{n} cases, {bad} failures "
                      f"({time.monotonic() - t0:.0f} s)", end="", file=sys.stderr, flush=True)
        if not quiet:
            print(file=sys.stderr)
        rows.append(summarize(fam.name, done, time.monotonic() - t0))
        failed += [c for c in done if c.failure and not c.skipped]
    return rows, failed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=18)
    p.add_argument("--cases", type=int, help="cases per family (default: each family's own)")
    p.add_argument("--family", action="append", choices=[f.name for f in FAMILIES],
                   help="run this family (repeatable; default: all)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--keep", action="store_true", help="keep the work folder")
    p.add_argument("--list", action="store_true", help="list the families")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return child(args.child)
    if args.list:
        for f in FAMILIES:
            print(f"{f.name:13s} {f.cases:4d} cases  {f.covers}")
        return 0
    names = args.family or [f.name for f in FAMILIES]
    work = Path(tempfile.mkdtemp(prefix="pawnfence-campaign-"))
    t0 = time.monotonic()
    try:
        rows, failed = campaign(names, args.seed, args.cases, work, args.quiet)
    finally:
        if args.keep:
            print(f"work folder: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    head = (f"pawnfence fault campaign, seed {args.seed}, commit {_commit()}, "
            f"{time.strftime('%Y-%m-%d')}, {time.monotonic() - t0:.0f} s")
    if args.json:
        print(json.dumps({"title": head, "families": rows,
                          "failures": [asdict(c) for c in failed]}, indent=1))
    else:
        print(head + "\n\n" + table(rows))
        for c in failed:
            print(f"\nFAIL {c.family}: {c.name}\n     {c.failure}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
