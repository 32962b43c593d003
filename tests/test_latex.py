"""``render --out FIG.tex``: a LaTeX ``chessboard`` diagram with the overlay's fields,
letters and arrow, the same text on every run, that compiles with ``pdflatex`` where
Debian's ``texlive-games`` (and ``texlive-latex-extra``, which ``chessboard`` needs) is
installed."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import chess
import pytest

import logic
from logic.diagrams import load_diagrams
from viewer.cli import main
from viewer.figures.latex import chessboard_command, latex_document
from viewer.model.overlay import live_overlay

D16 = "5k2/8/8/1p2p1p1/1P2P1P1/8/5P2/3K4 w - - 0 1"


def _fields(text: str, colour: str) -> set[str]:
    out: set[str] = set()
    for m in re.finditer(rf"color={colour}, markfields={{([a-h1-8,]*)}}", text):
        out |= set(m.group(1).split(","))
    return out


def test_the_diagram_carries_the_overlay_as_fields_letters_and_frames() -> None:
    board = chess.Board(D16)
    v = logic.detect(board, chess.WHITE, method="paper")
    ov = live_overlay(v)
    text = chessboard_command(board, ov)
    assert f"setfen={{{D16}}}" in text
    names = lambda bb: {chess.square_name(s) for s in chess.scan_forward(bb)}  # noqa: E731
    assert _fields(text, "pfmarked") == names(ov.marked)
    assert _fields(text, "pffence") == names(ov.fence)
    fixed = re.search(r"sffamily F, markfields=\{([a-h1-8,]*)\}", text)
    assert fixed and set(fixed.group(1).split(",")) == names(ov.fixed)
    # every dynamic pawn's letter, with a tick (holds) or a cross (breaks)
    for sq, (letter, ok) in ov.badges.items():
        mark = "\\checkmark" if ok else "$\\times$"
        assert re.search(rf"sffamily {re.escape(letter + mark)}, markfields=\{{[^}}]*"
                         rf"{chess.square_name(sq)}", text)


def test_every_library_diagram_gives_the_same_text_twice(tmp_path) -> None:
    for d in load_diagrams():
        board = chess.Board(d.fen)
        v = logic.detect(board, board.turn, method="extended")
        a = latex_document(board, live_overlay(v), v, caption=d.caption)
        b = latex_document(board, live_overlay(v), v, caption=d.caption)
        assert a == b and a.count("\\chessboard[") == 1 and "\\end{document}" in a


def test_render_writes_tex_and_it_compiles(tmp_path) -> None:
    out = tmp_path / "d16.tex"
    assert main(["render", D16, "--out", str(out)], out=io.StringIO()) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith(f"% pawnfence diagram: {D16}") and "usepackage{chessboard}" in text
    again = tmp_path / "again.tex"
    assert main(["render", D16, "--out", str(again)], out=io.StringIO()) == 0
    assert again.read_text(encoding="utf-8") == text  # reproducible
    if shutil.which("pdflatex") is None:
        pytest.skip("no pdflatex (Debian: texlive-games texlive-latex-extra)")
    probe = subprocess.run(["kpsewhich", "chessboard.sty", "xifthen.sty"], capture_output=True,
                           text=True)
    if len(probe.stdout.split()) < 2:
        pytest.skip("pdflatex without the chessboard package (Debian: texlive-games, "
                    "texlive-latex-extra)")
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", out.name],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:]
    assert (tmp_path / "d16.pdf").stat().st_size > 1000
