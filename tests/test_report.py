"""``pawnfence report`` and ``scan --report``: one self-contained HTML page of a scan's
findings, read from what the scan wrote (finished, running or killed), written atomically,
and checked in a real browser (headless Chromium through Playwright) where one is
installed."""

from __future__ import annotations

import io
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from logic.tools.scan import scan
from tests.conftest import DATA
from viewer.cli import main
from viewer.figures.report import ReportError, write_report

GAMES = DATA / "scan" / "games.pgn"


@pytest.fixture(scope="module")
def scanned(tmp_path_factory) -> Path:
    """A finished scan of the test games (static methods only: no engine, no judge)."""
    out = tmp_path_factory.mktemp("scan")
    scan([GAMES], out, jobs=1, progress=None)
    return out


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


class _Page(HTMLParser):
    """What a test reads off the page: rows, templates, headers, fetches."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []
        self.svgs: list[dict[str, str]] = []
        self.th_scope = 0
        self.th = 0
        self.fetching: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "tr" and a.get("class") == "f":
            self.rows.append(a)
        if tag == "svg" and a.get("role") == "img":
            self.svgs.append(a)
        if tag == "th":
            self.th += 1
            self.th_scope += "scope" in a
        for key in ("src", "href"):
            if a.get(key, "").startswith(("http:", "https:", "//")):
                self.fetching.append(a[key])
        if tag in ("link", "iframe", "object", "embed", "img") or \
                (tag == "script" and "src" in a):
            self.fetching.append(f"<{tag}>")


def _read(path: Path) -> tuple[str, _Page]:
    text = path.read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    return text, page


def _expected_findings(folder: Path) -> list[tuple[str, str]]:
    """(FEN, category) per line of the scan's suspects.epd, in its order."""
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    return [(r["fen"], c) for r in rows for c in r["categories"]]


def test_the_page_has_every_finding_with_its_board_text_alternative_and_command(
        scanned, tmp_path) -> None:
    stats = write_report(scanned, tmp_path / "r.html")
    text, page = _read(stats.path)
    want = _expected_findings(scanned)
    assert want and stats.findings == len(want) == len(page.rows)
    assert [int(r["data-case"]) for r in page.rows] == list(range(1, len(want) + 1))
    assert [r["data-category"] for r in page.rows] == [c for _f, c in want]
    suspects = (scanned / "suspects.epd").read_text().splitlines()
    assert len(suspects) == len(want)
    # every finding's board: an SVG whose text alternative names the FEN and a verdict
    assert len(page.svgs) == len(want)
    for svg, (fen, _cat) in zip(page.svgs, want, strict=True):
        assert svg["aria-label"].startswith(fen) and "blocked" in svg["aria-label"]
    # the command that opens each one in the viewer, numbered as suspects.epd
    for n in (1, len(want)):
        assert f"--playlist {scanned / 'suspects.epd'} --case {n}<" in text
    assert page.th == page.th_scope  # every header cell says what it heads
    assert not page.fetching  # self-contained: nothing fetched
    assert stats.skipped == 0 and "skipped" not in text


def test_a_damaged_or_running_scan_gives_what_is_readable(scanned, tmp_path) -> None:
    folder = _copy(scanned, tmp_path / "run")
    (folder / "suspects.epd").unlink()  # still running, or killed
    with open(folder / "results.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"foreign": True}) + "\n")
        fh.write('{"seq": 99, "key": "8/8/8/8/8/8/8/8 w - -", "fen": "8/8')  # torn
    before = (folder / "results.jsonl").read_bytes()
    stats = write_report(folder)
    text, page = _read(stats.path)
    assert stats.path == folder / "report.html"
    assert stats.skipped == 2 and len(page.rows) == len(_expected_findings(scanned))
    assert "2 line(s) of results.jsonl skipped" in text
    assert "has not finished" in text
    assert "--playlist" not in text  # no finished suspects.epd to number the cases by
    assert (folder / "results.jsonl").read_bytes() == before  # a reader never cuts


def test_an_unwritable_target_is_a_clear_error_and_leaves_nothing(scanned, tmp_path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    with pytest.raises(ReportError, match="afile is a file"):
        write_report(scanned, blocker / "r.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
    with pytest.raises(ReportError, match="no scan results"):
        write_report(tmp_path, tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


def test_console_report_and_scan_report(scanned, tmp_path) -> None:
    out = io.StringIO()
    assert main(["report", str(scanned), "--out", str(tmp_path / "a.html")], out=out) == 0
    assert re.match(r"wrote .*a\.html: \d+ findings of \d+ results", out.getvalue())
    out = io.StringIO()
    assert main(["scan", str(GAMES), "--out", str(tmp_path / "s"), "--jobs", "1",
                 "--report", str(tmp_path / "b.html")], out=out) == 0
    assert (tmp_path / "b.html").is_file() and "wrote" in out.getvalue()
    assert _read(tmp_path / "b.html")[1].rows
    assert main(["report", str(tmp_path / "nothing-here")], out=io.StringIO()) == 2


def test_the_page_sorts_filters_and_draws_every_board_in_chromium(scanned, tmp_path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="Playwright is not installed (pip install playwright)")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no Chromium installed (Debian: apt-get install chromium)")
    path = write_report(scanned, tmp_path / "r.html").path
    want = _expected_findings(scanned)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium,
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            pg = browser.new_page(viewport={"width": 1280, "height": 900})
            fetched: list[str] = []
            pg.on("request", lambda r: fetched.append(r.url))
            pg.goto(path.as_uri())
            visible = "tr.f:not([hidden])"
            assert pg.locator(visible).count() == min(len(want), 100)
            # sort by category, then the other way
            pg.click("th[data-key=category] button")
            cats = pg.eval_on_selector_all(visible, "e=>e.map(x=>x.dataset.category)")
            assert cats == sorted(cats)
            assert pg.get_attribute("th[data-key=category]", "aria-sort") == "ascending"
            pg.click("th[data-key=category] button")
            cats = pg.eval_on_selector_all(visible, "e=>e.map(x=>x.dataset.category)")
            assert cats == sorted(cats, reverse=True)
            # filter one category out
            first = sorted({c for _f, c in want})[0]
            pg.uncheck(f"input.cat[value='{first}']")
            cats = pg.eval_on_selector_all(visible, "e=>e.map(x=>x.dataset.category)")
            assert first not in cats and len(cats) == sum(c != first for _f, c in want)
            pg.check(f"input.cat[value='{first}']")
            # a board opens on click; then every board, each an SVG that renders
            pg.click(f"{visible} button.open >> nth=0")
            assert pg.locator("tr.d:not([hidden]) svg[role=img]").count() == 1
            pg.screenshot(path=str(tmp_path / "report.png"))
            pg.evaluate("window.pawnfenceReport.openAll()")
            sizes = pg.eval_on_selector_all(
                "tr.d svg[role=img]", "e=>e.map(s=>{const b=s.getBoundingClientRect();"
                "return [b.width,b.height, s.querySelectorAll('use').length]})")
            assert len(sizes) == len(want)
            assert all(w > 100 and h > 100 and uses >= 3 for w, h, uses in sizes)
            # the pieces' shared definitions resolve (a <use> of a missing id draws 0x0)
            boxes = pg.eval_on_selector_all(
                "tr.d svg[role=img] use[href^='#pfp']",
                "e=>e.map(u=>u.getBBox().width)")
            assert boxes and all(w > 0 for w in boxes)
        finally:
            browser.close()
    assert fetched == [path.as_uri()]  # nothing from the network
    assert (tmp_path / "report.png").stat().st_size > 10_000


def test_case_opens_a_playlist_position_and_is_checked(scanned, capsys) -> None:
    suspects = str(scanned / "suspects.epd")
    n = len((scanned / "suspects.epd").read_text().splitlines())
    for bad in ("0", str(n + 1)):
        assert main(["--playlist", suspects, "--case", bad], out=io.StringIO()) == 2
        assert f"--case must be from 1 to the playlist's {n} positions" in \
            capsys.readouterr().err
    assert main(["--case", "2"], out=io.StringIO()) == 2  # without a playlist
