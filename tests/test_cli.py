"""The ``pawnfence`` command line, run in-process through ``viewer.cli.main``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import chess
import pytest

from viewer.cli import main

WIKI = "4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_explain_prints_steps_board_and_verdict() -> None:
    code, text = run("explain", WIKI, "--side", "white")
    assert code == 0
    assert "[paper 2.2] marking" in text and "Advance east from a4 to b4" in text
    assert "White cannot win: blockage (paper 3.3)" in text
    board_rows = [ln for ln in text.splitlines() if ln[:2] in ("4 ", "5 ")]
    assert board_rows[0] == "5 .  p  .# P# .# P# .# p "
    assert board_rows[1] == "4 .# P# .# .: .: .: .# P#"
    assert "legend: # fence" in text


@pytest.mark.parametrize("fen, letter, square", [
    ("4k3/8/4P3/4K3/8/8/8/8 w - - 0 1", "H", "e8"),   # a KPK draw: where Black's king holds
    ("7k/ppp5/8/PPP5/8/8/8/K7 w - - 0 1", "B", "a1"),  # b6!: where White's king forces a promotion
])
def test_explain_exact_draws_the_king_map_with_a_letter_and_its_legend(
        fen: str, letter: str, square: str) -> None:
    code, text = run("explain", fen, "--method", "exact", "--side", "white")
    assert code == 0
    rows = [line for line in text.splitlines() if line[:2] in {f"{r} " for r in range(1, 9)}]
    board = {f"{f}{row[0]}": row[2 + 3 * i: 4 + 3 * i] for row in rows
             for i, f in enumerate("abcdefgh")}
    assert board[square][1] == letter, board
    marked = sum(cell[1] == letter for cell in board.values())
    holds = "holds" if letter == "H" else "forces a promotion"
    squares = "marked square" if marked == 1 else "marked squares"
    assert f"{letter} " in text and f"{holds} from the {marked} {squares}" in text
    assert f"{letter} {'defending king holds' if letter == 'H' else 'attacking king forces'}" \
        in text


@pytest.mark.slow
def test_exact_json_of_explain_and_classify_agree_and_take_a_budget(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``explain --json --method exact`` gives the prover's status, line and counts like
    ``classify`` (not "ok" for every proof); ``--exact-seconds`` sets the budget of both
    (and of ``render``), and is refused with a static method."""
    fine70 = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"
    code, text = run("explain", fine70, "--method", "exact", "--json")
    assert code == 0
    white, black = json.loads(text)["verdicts"]
    assert white["status"] == "breaks" and white["pv"][0] == "a1b1" and white["ms"] > 0
    # the line's length and end, as the text says them ("promotes in 49 plies")
    assert (white["plies"], white["ends"]) == (len(white["pv"]), "promotion")
    assert black["status"] == "blocked" and black["pv"] == [] and black["structures"] > 0
    assert black["plies"] is None and black["ends"] == "" and "proof" in black
    f = tmp_path / "f.epd"
    f.write_text(fine70 + "\n")
    code, text = run("classify", str(f), "--method", "exact")
    row = json.loads(text)
    assert {k: row["white"][k] for k in ("status", "pv")} == \
        {"status": "breaks", "pv": white["pv"]}
    slow = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
    f.write_text(slow + "\n")
    code, text = run("classify", str(f), "--method", "exact", "--exact-seconds", "0.1")
    row = json.loads(text)
    # the 0.1 s budget, not the 10 s default (too short for a horizon of MIN_HORIZON)
    assert code == 0 and row["white"]["status"] == "unknown" and row["white"]["ms"] < 9000
    code, text = run("explain", slow, "--method", "exact", "--exact-seconds", "0.1",
                     "--side", "white")
    assert code == 0 and "budget ran out" in text
    for command in (["explain", slow], ["classify", str(f)],
                    ["render", slow, "--out", str(tmp_path / "x.png")]):
        assert run(*command, "--exact-seconds", "1")[0] == 2
        assert "--exact-seconds applies only with --method exact" in capsys.readouterr().err
    assert run("render", slow, "--method", "exact", "--exact-seconds", "0.2", "--out",
               str(tmp_path / "x.png"))[0] == 0


def test_explain_and_search_take_a_diagram_of_the_library(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--diagram ID`` names a library position in explain and search, as in render and
    the viewer; an unknown id, both a FEN and an id, or neither is an error (exit 2)."""
    code, text = run("explain", "--diagram", "paper-16", "--side", "white")
    assert code == 0 and text.startswith("5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w")
    assert "White cannot win: blockage (paper 3.4)" in text
    code, text = run("search", "--diagram", "paper-1", "--depth", "4")
    assert code == 0 and text.startswith("score ") and "\npv a1" in text
    assert run("explain", "--diagram", "nope")[0] == 2
    assert "no diagram 'nope'" in capsys.readouterr().err
    assert run("explain", "--diagram", "paper-16", WIKI)[0] == 2
    assert "not both" in capsys.readouterr().err
    assert run("explain")[0] == 2 and "give a FEN or --diagram" in capsys.readouterr().err


def test_explain_fields_form_and_flood_json() -> None:
    code, text = run("explain", *WIKI.split()[:2], "--method", "flood", "--json")
    assert code == 0
    data = json.loads(text)
    assert [v["side"] for v in data["verdicts"]] == ["white", "black"]
    assert data["verdicts"][0]["blocked"] is True
    assert any(s["kind"] == "flood-cycle" for s in data["verdicts"][0]["steps"])


def test_explain_bad_fen_is_an_error_message(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("explain", "8/8/9/8 w")
    assert code == 2
    assert "8/8/9/8" in capsys.readouterr().err


def test_classify_epd_and_bad_lines(tmp_path: Path) -> None:
    f = tmp_path / "in.epd"
    f.write_text(
        f"{WIKI.rsplit(' ', 2)[0]} id \"wiki\";\n"
        "not a position\n"
        "\n"
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        "8/8/8/8/8/8/8/8 w - -\n"
    )
    code, text = run("classify", str(f))
    assert code == 0
    rows = [json.loads(line) for line in text.splitlines()]
    assert rows[0] == {"id": "wiki", "fen": WIKI,
                       "white": {"blocked": True, "rule": "paper 3.3"},
                       "black": {"blocked": True, "rule": "paper 2.3"}}
    assert rows[1]["line"] == 2 and rows[1]["error"].endswith("'not a position'")  # no line ending
    assert rows[2]["white"]["status"] == "pieces" and rows[2]["id"] is None
    assert rows[3]["white"]["status"] == "illegal"


def test_classify_destruction_corpus_never_stops() -> None:
    from tests.conftest import SHARED

    path = SHARED / "corpora" / "destruction-test.epd"
    if not path.is_file():
        pytest.skip(f"{path} not found (the project's ../shared/corpora)")
    code, text = run("classify", str(path))
    assert code == 0
    lines = [ln for ln in path.read_text(errors="replace").splitlines()
             if ln.strip() and not ln.startswith("#")]
    rows = [json.loads(x) for x in text.splitlines()]
    assert len(rows) == len(lines)
    assert sum("error" in r for r in rows) > 10 and sum("fen" in r for r in rows) > 10


def test_classify_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("classify", "/nonexistent/x.epd")[0] == 2
    assert "cannot read" in capsys.readouterr().err


def test_bench_runs_and_reports_ratios() -> None:
    code, text = run("bench", "--rounds", "1", "--json")
    assert code == 0
    r = json.loads(text)
    assert r["positions"] >= 100
    for key in ("parse_us", "paper_uncached_us", "paper_cached_us", "flood_uncached_us"):
        assert r[key] > 0


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run("--help")
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for command in ("explain", "classify", "bench", "render", "diagrams"):
        assert command in text
    assert "opens the viewer" in text and "--playlist" in text


@pytest.mark.parametrize("size", ["0", "-5", "159", "4001", "100000"])
def test_render_refuses_a_board_size_out_of_range(tmp_path: Path, size: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.png"
    assert run("render", "8/8/8/8/8/8/4P3/k3K3 w - - 0 1", "--size", size, "--out",
               str(out))[0] == 2
    assert "--size must be from 160 to 4000" in capsys.readouterr().err and not out.exists()


def test_viewer_opens_on_a_diagram_and_quits(tmp_path, monkeypatch) -> None:
    """``pawnfence --diagram ID`` opens the window straight onto the position."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("PAWNFENCE_HOME", str(tmp_path))
    shot = tmp_path / "shot.png"
    code, _ = run("--diagram", "paper-16", "--frames", "3", "--screenshot", str(shot))
    assert code == 0 and shot.is_file()
    from viewer.model.settings import load_settings

    assert load_settings().fen.startswith("5k2/8/8/1p2p1p1")
    code, _ = run("8/8/8/8/8/8 w", "--frames", "1")  # bad FEN: a message, no window
    assert code == 2


def test_scan_judge_options_without_the_judge_are_an_error(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """``--exact-seconds`` or ``--judge-pairs`` without ``--judge exact`` would be ignored:
    an error instead, and nothing is scanned."""
    f = tmp_path / "in.epd"
    f.write_text("4k3/8/4P3/4K3/8/8/8/8 w - -\n")
    out = tmp_path / "out"
    for extra in (["--exact-seconds", "1"], ["--judge-pairs", "edge"]):
        assert run("scan", str(f), "--out", str(out), "--quiet", *extra)[0] == 2
        assert "apply only with --judge exact" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(("argv", "said"), [
    (["--exact-seconds", "2"], "--exact-seconds does not apply to the detector bench"),
    (["--sample", "3"], "--sample does not apply"),
    (["--jobs", "2"], "--jobs does not apply"),
    (["--viewer", "--rounds", "1"], "--rounds does not apply to --viewer"),
    (["--exact", "--search", "1"], "--search does not apply to --exact"),
    (["--exact", "--scan", "x.pgn"], "--scan does not apply to --exact"),
    (["--viewer", "--exact"], "--exact does not apply to --viewer"),
    (["--viewer", "--json"], "--json does not apply to --viewer"),
    (["--exact-sets", "built-in"], "--exact-sets does not apply"),
    (["--exact", "--exact-sets", "nosuch"], "--exact-sets: no set nosuch (the sets: built-in"),
])
def test_bench_refuses_options_its_mode_would_ignore(argv: list[str], said: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert run("bench", *argv)[0] == 2
    assert said in capsys.readouterr().err


def test_bench_exact_proves_only_the_sets_asked_for(tmp_path: Path) -> None:
    """``--exact-sets`` picks the sets by name (a file's by its name without suffix)."""
    f = tmp_path / "mine.epd"
    f.write_text("4k3/8/4P3/4K3/8/8/8/8 w - -\n")
    code, text = run("bench", "--exact", str(f), "--exact-sets", "mine", "--exact-seconds",
                     "0.5", "--json")
    assert code == 0
    sets = json.loads(text)["sets"]
    assert list(sets) == ["mine"] and sets["mine"]["side_positions"] == 2


def test_bench_scan_without_positions_is_an_error(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing to time is said (status 2), not a rate of 0 positions/s."""
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    assert run("bench", "--scan", str(empty))[0] == 2
    assert "no king-and-pawn positions" in capsys.readouterr().err


def test_small_option_mistakes_are_said(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A FEN beside --diagram, an empty --methods or --dask: refused, not silently
    ignored; spaces after the commas of --methods are fine."""
    assert run("render", "8/8/8/8/8/8/4P3/k3K3 w - - 0 1", "--diagram", "paper-16", "--out",
               str(tmp_path / "d.png"))[0] == 2
    assert "not both" in capsys.readouterr().err
    assert run("experiment", "--methods", "", "--limit", "1", "--out", str(tmp_path / "e"),
               "--quiet")[0] == 2
    assert "not a detecting method: ''" in capsys.readouterr().err
    code, text = run("experiment", "--methods", "paper, flood", "--limit", "1", "--time",
                     "0.05", "--jobs", "1", "--out", str(tmp_path / "f"), "--quiet")
    assert code == 0 and "On (flood)" in text
    assert run("scan", str(tmp_path / "x.epd"), "--dask", " ")[0] == 2
    assert "--dask needs an address" in capsys.readouterr().err


def test_the_flood_engage_sentence_is_true_of_the_board() -> None:
    """Paper diagram 16, the flood: f2 (below the fence) walks up to f4, which a Black pawn
    attacks; the sentence said the Black pawn was below the fence (it is on e5 / g5)."""
    from logic.diagrams import get_diagram

    board = get_diagram("paper-16").board()
    code, text = run("explain", board.fen(), "--method", "flood", "--side", "white")
    assert code == 0
    assert "f2 is below the fence and reaches f4, a square a Black pawn attacks" in text
    assert board.attackers(chess.BLACK, chess.F4) & board.pawns & board.occupied_co[chess.BLACK]
