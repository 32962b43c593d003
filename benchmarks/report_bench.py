"""The HTML report's size and writing time on the master-game drawn set (the docs' table
``report``, written by ``python benchmarks/doc_tables.py report``, and the screenshot
``docs/images/report.png``).

Usage, from the repository root::

    python benchmarks/report_bench.py [--scan DIR] [--engine /usr/games/stockfish]
                                      [--synthetic 10000]

It scans ``../shared/corpora/master-pawn-endings-drawn.epd`` with ``--judge exact`` (and
the engine when given) into ``DIR`` (a finished scan there is reused), writes the report,
times it, prints a Markdown table, takes a screenshot in headless Chromium (when
Playwright and Chromium are installed) and, with ``--synthetic N``, also writes the
report of N findings made by repeating the scan's rows, to show the page's size and time
at that scale.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from viewer.figures.report import write_report  # noqa: E402

DRAWN = ROOT.parent / "shared" / "corpora" / "master-pawn-endings-drawn.epd"


def _scan(folder: Path, engine: str | None) -> None:
    if (folder / "summary.json").is_file():
        return
    cmd = [sys.executable, "-m", "viewer.cli", "scan", str(DRAWN), "--out", str(folder),
           "--judge", "exact", "--quiet"]
    if engine:
        cmd += ["--engine", engine]
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def _synthetic(folder: Path, target: Path, findings: int) -> Path:
    """A results folder of about ``findings`` findings: the scan's categorised rows
    repeated (each copy a distinct key, as a scan of many games would give)."""
    rows = [json.loads(line) for line in
            (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    found = [r for r in rows if r["categories"]]
    target.mkdir(parents=True, exist_ok=True)
    n = 0
    with open(target / "results.jsonl", "w", encoding="utf-8") as fh:
        while n < findings:
            for r in found:
                fh.write(json.dumps(r) + "\n")
                n += len(r["categories"])
                if n >= findings:
                    break
    return target


def _screenshot(page: Path, png: Path) -> bool:
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return False
    if chromium is None:
        return False
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium,
                                    args=["--no-sandbox", "--disable-gpu"])
        pg = browser.new_page(viewport={"width": 1200, "height": 1100})
        pg.goto(page.as_uri())
        pg.click("tr.f:not([hidden]) button.open >> nth=0")
        png.parent.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(png))
        browser.close()
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scan", type=Path, default=Path("/tmp/pawnfence-master-scan"))
    ap.add_argument("--engine", help="a UCI engine for the scan (e.g. /usr/games/stockfish)")
    ap.add_argument("--synthetic", type=int, default=10_000)
    ap.add_argument("--image", type=Path, default=ROOT / "docs" / "images" / "report.png")
    args = ap.parse_args()
    _scan(args.scan, args.engine)
    rows = []
    real = write_report(args.scan, args.scan / "report.html")
    rows.append(("master drawn set (592 positions)", real))
    if args.synthetic:
        big = _synthetic(args.scan, args.scan.parent / f"{args.scan.name}-x{args.synthetic}",
                         args.synthetic)
        rows.append((f"{args.synthetic:,} findings (the set's rows repeated)",
                     write_report(big, big / "report.html")))
    shot = _screenshot(real.path, args.image)
    lines = ["| results | findings | page size | time to write |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {s.findings:,} | {s.bytes / 1e6:.1f} MB | {s.seconds:.1f} s |"
              for name, s in rows]
    if shot:
        lines += ["", f"The screenshot: `{args.image.relative_to(ROOT)}`."]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
