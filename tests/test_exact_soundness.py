"""Every "blocked" of a static method is a claim of proof: the exact prover must confirm it
(or run out of budget) on the library, our corpus, the shared corpora and 20,000 generated
near-fortresses.  (The 85,007 master-game positions are swept by
``pawnfence bench --exact ../shared/corpora/master-pawn-endings-all.epd``.)"""

from __future__ import annotations

import gzip
import random

import chess
import pytest

import logic
from logic.bench_exact import read_boards
from tests.conftest import ROOT, SHARED
from tests.strategies import random_near_fortress

SHARED_SETS = ["lichess-pawn-endings", "d3chess-pawn-only", "master-pawn-endings-drawn",
               "master-pawn-endings-decisive"]


def _check(boards: list[chess.Board], seconds: float = 2.0) -> tuple[int, int]:
    """(pairs confirmed, pairs unknown); fails on any breakthrough exact proves."""
    exact = logic.METHODS["exact"]
    confirmed = unknown = 0
    for b in boards:
        for side in chess.COLORS:
            said = [m for m in logic.STATIC_METHODS if logic.detect(b, side, method=m).blocked]
            if not said:
                continue
            r = exact.solve(b, side, max_seconds=seconds, pv=True)
            assert r.status != "breaks", (b.fen(), side, said, r.pv)
            confirmed += r.status == "blocked"
            unknown += r.status == "unknown"
    return confirmed, unknown


def test_library_and_our_corpus() -> None:
    boards = read_boards(ROOT / "assets" / "diagrams.epd")
    boards += read_boards(ROOT / "tests" / "data" / "sf_corpus.jsonl")
    confirmed, unknown = _check(boards)
    assert confirmed >= 150 and unknown <= confirmed // 20, (confirmed, unknown)


@pytest.mark.parametrize("name", SHARED_SETS)
def test_shared_corpora(name: str) -> None:
    path = SHARED / "corpora" / f"{name}.epd"
    if not path.is_file():
        pytest.skip(f"{path} not found (the project's ../shared/corpora)")
    _check(read_boards(path))


def test_twenty_thousand_generated_near_fortresses() -> None:
    rng = random.Random(2026)
    boards = [random_near_fortress(rng) for _ in range(20_000)]
    confirmed, unknown = _check(boards)
    assert confirmed >= 500, (confirmed, unknown)


def test_bench_files_count_the_lines_they_skip(tmp_path) -> None:
    """``bench --exact FILE`` keeps the legal king-and-pawn positions and says how many
    other lines it skipped (bad text, other pieces, an illegal position; not blanks)."""
    from logic.bench_exact import read_counted
    from logic.position import PositionFileError

    f = tmp_path / "mixed.epd"
    f.write_text("4k3/8/4P3/4K3/8/8/8/8 w - -\n\nnot a position\n"
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n"
                 "4k3/8/8/8/8/8/8/4K2k w - -\n")
    boards, skipped = read_counted(f)
    assert [b.board_fen() for b in boards] == ["4k3/8/4P3/4K3/8/8/8/8"] and skipped == 3
    j = tmp_path / "mixed.jsonl"
    j.write_text('{"fen": "4k3/8/4P3/4K3/8/8/8/8 w - - 0 1"}\n{"fen": 3}\n\n')
    assert [len(x) if isinstance(x, list) else x for x in read_counted(j)] == [1, 1]
    gz = tmp_path / "mixed.jsonl.gz"
    gz.write_bytes(gzip.compress(j.read_bytes()))
    assert [len(x) if isinstance(x, list) else x for x in read_counted(gz)] == [1, 1]
    cut = tmp_path / "cut.jsonl.gz"  # damaged: the file's error, not an EOFError
    cut.write_bytes(gzip.compress(j.read_bytes() * 50)[:40])
    with pytest.raises(PositionFileError, match="cannot read"):
        read_counted(cut)
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}\n')
    with pytest.raises(PositionFileError, match="no legal king-and-pawn positions"):
        read_counted(empty)
