"""``pawnfence report RESULTS_DIR`` (and ``scan ... --report FILE``): a scan's findings as
one self-contained HTML page a team can share.

The page needs nothing but a browser: no network, no external script, style sheet or
font.  It holds the run's summary (positions, per method the claims, those exact
confirmed, refuted or left unknown, the categories, the time), a table of findings
(sortable by every column, filtered by category, shown a page at a time) and for each
finding its board (an inline SVG with the overlay of the method that decided it, a text
alternative naming the FEN and the verdict), the verdicts of every method for both
sides, exact's answer with its line, and the command that opens the position in the
viewer.  Boards sit in ``<template>`` elements and enter the page when a finding is
opened, so 10,000 findings stay usable.

A finding is one (result, category) pair, numbered as ``suspects.epd`` numbers its lines
(``pawnfence --playlist suspects.epd --case N``).  The file is written streaming (two
passes over ``results.jsonl``: the figures, then the findings) and atomically (a
temporary file renamed over the target): an unwritable target gives a clear error and no
partial file.  A damaged ``results.jsonl`` (a torn last line, foreign rows) gives the
report of what is readable and a line saying how many lines were skipped.
"""

from __future__ import annotations

import functools
import html
import json
import re
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

import chess

import logic
from logic.files import atomic_write
from logic.tools.judge import judge_note, summarize
from logic.tools.scan import iter_results
from viewer.figures.fonts import Fonts
from viewer.figures.svg import board_svg
from viewer.model.overlay import live_overlay
from viewer.model.theme import LIGHT, legend_items

__all__ = ["Finding", "ReportError", "ReportStats", "findings", "write_report"]

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)

#: the board's colours in the page: the light theme (the figures' colours)
PAGE_COLOURS = LIGHT

#: findings a page of the table shows
PAGE_ROWS = 100

#: the table's columns: (key, header, sorts as a number)
COLUMNS = (("case", "#", True), ("category", "Category", False), ("method", "Method", False),
           ("side", "Side", False), ("rule", "Rule", False), ("score", "Engine", True),
           ("exact", "Exact", False), ("game", "Game", False), ("move", "Move", True))


class ReportError(OSError):
    """The report cannot be written (the message names the file and why) or the results
    cannot be read; nothing is left behind."""


class Finding(NamedTuple):
    """One row of the findings table: a (result, category) pair."""

    case: int
    category: str
    method: str
    side: str
    rule: str
    score: str
    score_value: float | None
    exact: str
    game: str
    move: int | None
    row: dict[str, Any]


class ReportStats(NamedTuple):
    """What :func:`write_report` wrote: the path, the findings, the results read, the
    lines skipped, the bytes and the seconds it took."""

    path: Path
    findings: int
    results: int
    skipped: int
    bytes: int
    seconds: float


# -- the findings ------------------------------------------------------------------------

def _score(engine: Any) -> tuple[str, float | None]:
    """The engine's score as shown (``+0.12``, ``mate 3``, ``-``) and as sorted."""
    if not isinstance(engine, dict) or "error" in engine:
        return "-", None
    if engine.get("mate") is not None:
        m = engine["mate"]
        return f"mate {m}", (1e6 - abs(m)) * (1 if m > 0 else -1)
    if engine.get("cp") is not None:
        return f"{engine['cp'] / 100:+.2f}", engine["cp"] / 100
    return "-", None


def _decider(row: dict[str, Any], category: str) -> tuple[str, str]:
    """The (method, side) whose overlay explains ``category`` best: a side a static method
    calls blocked (the side exact refutes, for a refuted claim), the first such method
    in the registry's order; else the side exact proves blocked, or the side to move,
    with the default method."""
    verdicts, exact = row["verdicts"], row.get("exact") or {}
    sides = ["white", "black"]
    if category == "claims-blocked-exact-breaks":
        sides = [s for s in sides if exact.get(s, {}).get("status") == "breaks"] + sides
    elif category in ("exact-blocked-heuristic-misses", "exact-horizon"):
        status = "blocked" if category == "exact-blocked-heuristic-misses" else "horizon"
        proved = [s for s in sides if exact.get(s, {}).get("status") == status]
        return logic.DEFAULT_METHOD, (proved or sides)[0]
    for side in sides:
        for method in logic.STATIC_METHODS:
            if verdicts[method][side]["blocked"]:
                return method, side
    turn = row["fen"].split()[1] if len(row["fen"].split()) > 1 else "w"
    return logic.DEFAULT_METHOD, "white" if turn == "w" else "black"


def _exact_text(row: dict[str, Any], side: str) -> str:
    e = (row.get("exact") or {}).get(side)
    if not e:
        return "not judged"
    if e["status"] == "breaks" and e.get("plies") is not None:
        return f"breaks ({e['plies']} plies)"
    if e["status"] == "horizon":
        return f"horizon ({e['plies']} plies)"
    return str(e["status"])


def findings(rows: Iterator[dict[str, Any]]) -> Iterator[Finding]:
    """The findings of ``rows`` (well-formed results) in ``suspects.epd``'s order."""
    case = 0
    for row in rows:
        score, value = _score(row.get("engine"))
        src = row["source"]
        game = (f"{Path(src['file']).name} game {src['game']}" if "game" in src
                else f"{Path(src['file']).name} line {src['line']}")
        move = src["ply"] // 2 + 1 if "game" in src else None
        for category in row["categories"]:
            case += 1
            method, side = _decider(row, category)
            rule = row["verdicts"][method][side]["rule"] or "-"
            yield Finding(case=case, category=category, method=method, side=side,
                          rule=rule, score=score, score_value=value,
                          exact=_exact_text(row, side), game=game, move=move, row=row)


# -- the boards --------------------------------------------------------------------------

class _Defs:
    """Definitions shared by every board of the page: each board's ``<defs>`` (hatches)
    are hoisted here once, its 64 squares become one rectangle filled with a checker
    pattern, its coordinates one ``<use>`` of a group defined once, and each piece a
    ``<use>`` of that piece's drawing, so a board costs its own overlay only."""

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.parts: list[str] = []
        self.shared: dict[str, str] = {}

    def _define(self, key: str, element: ET.Element, prefix: str) -> str:
        """The id of ``element`` (keyed by ``key``), defined once."""
        ref = self.shared.get(key)
        if ref is None:
            ref = self.shared[key] = f"{prefix}{len(self.shared)}"
            element.set("id", ref)
            self.parts.append(ET.tostring(element, encoding="unicode"))
        return ref

    def hoist(self, svg: ET.Element) -> None:
        """Move what ``svg`` shares with the page's other boards into the definitions."""
        for child in list(svg):
            if child.tag == f"{{{SVG_NS}}}defs":
                svg.remove(child)
                for d in child:
                    if d.get("id") not in self.ids:
                        self.ids.add(d.get("id") or "")
                        self.parts.append(ET.tostring(d, encoding="unicode"))
        for parent in list(svg.iter()):
            kinds = [el for el in parent if el.get("data-kind")]
            coords = [el for el in kinds if el.get("data-kind") == "Coord"]
            if coords:
                self._coordinates(parent, coords)
            for el in kinds:
                if el.get("data-kind") == "Checker":
                    self._checker(el)
                elif el.get("data-kind") == "Piece":
                    self._pieces(el)

    def _coordinates(self, parent: ET.Element, coords: list[ET.Element]) -> None:
        group = ET.Element(f"{{{SVG_NS}}}g")
        for el in coords:
            group.append(el)
        ref = self._define(ET.tostring(group, encoding="unicode"), group, "pfc")
        at = list(parent).index(coords[0])
        for el in coords:
            parent.remove(el)
        parent.insert(at, ET.Element(f"{{{SVG_NS}}}use", {"href": f"#{ref}",
                                                          "data-kind": "Coord"}))

    def _checker(self, group: ET.Element) -> None:
        """The squares (equal rectangles) as one rectangle with a checker pattern; the
        top-left square's colour is the pattern's first."""
        rects = [el for el in group if el.tag == f"{{{SVG_NS}}}rect"]
        sizes = {(el.get("width"), el.get("height")) for el in rects}
        squares = [el for el in rects if (el.get("width"), el.get("height")) ==
                   max(sizes, key=lambda wh: sum(1 for r in rects
                                                 if (r.get("width"), r.get("height")) == wh))]
        if len(squares) != 64:
            return
        side = float(squares[0].get("width") or 0)
        xs = [float(el.get("x") or 0) for el in squares]
        ys = [float(el.get("y") or 0) for el in squares]
        x, y = min(xs), min(ys)
        first = next(el.get("fill") for el in squares
                     if float(el.get("x") or 0) == x and float(el.get("y") or 0) == y)
        second = next(el.get("fill") for el in squares if el.get("fill") != first)
        pattern = ET.Element(f"{{{SVG_NS}}}pattern", {
            "patternUnits": "userSpaceOnUse", "x": f"{x:g}", "y": f"{y:g}",
            "width": f"{2 * side:g}", "height": f"{2 * side:g}"})
        for px, py, fill in ((0, 0, first), (side, 0, second), (0, side, second),
                             (side, side, first)):
            ET.SubElement(pattern, f"{{{SVG_NS}}}rect", {
                "x": f"{px:g}", "y": f"{py:g}", "width": f"{side:g}", "height": f"{side:g}",
                "fill": fill or "none"})
        ref = self._define(ET.tostring(pattern, encoding="unicode"), pattern, "pfk")
        at = list(group).index(squares[0])
        for el in squares:
            group.remove(el)
        group.insert(at, ET.Element(f"{{{SVG_NS}}}rect", {
            "x": f"{x:g}", "y": f"{y:g}", "width": f"{8 * side:g}",
            "height": f"{8 * side:g}", "fill": f"url(#{ref})"}))

    def _pieces(self, group: ET.Element) -> None:
        """Each piece drawing (a nested ``<svg>`` placed by ``x``/``y``) as a ``<use>``."""
        for i, el in enumerate(list(group)):
            if el.tag != f"{{{SVG_NS}}}svg":
                continue
            place = {k: el.attrib.pop(k) for k in ("x", "y") if k in el.attrib}
            ref = self._define(ET.tostring(el, encoding="unicode"), el, "pfp")
            group.remove(el)
            group.insert(i, ET.Element(f"{{{SVG_NS}}}use", {"href": f"#{ref}", **place}))

    def svg(self) -> str:
        return (f'<svg xmlns="{SVG_NS}" xmlns:xlink="{XLINK_NS}" width="0" height="0" '
                f'style="position:absolute" aria-hidden="true"><defs>{"".join(self.parts)}'
                "</defs></svg>")


@functools.cache
def _fonts() -> Fonts:
    """The fonts whose metrics place a board's labels (the PNG's)."""
    return Fonts()


def board_figure(row: dict[str, Any], method: str, side: str, defs: _Defs) -> str:
    """The inline SVG of ``row``'s board with the overlay of ``method`` for ``side``,
    labelled with the FEN and the verdict (its text alternative)."""
    board = chess.Board(row["fen"])
    color = side == "white"
    verdict = logic.detect(board, color, method=method)
    svg = board_svg(board, live_overlay(verdict), PAGE_COLOURS, metrics=_fonts())
    defs.hoist(svg)
    said = "blocked" if verdict.blocked else "not blocked"
    label = f"{row['fen']}: {side.capitalize()}, {method}: {said} ({verdict.rule or '-'})"
    svg.set("role", "img")
    svg.set("aria-label", label)
    svg.set("width", "320")
    svg.set("height", "320")
    title = ET.Element(f"{{{SVG_NS}}}title")
    title.text = label
    svg.insert(0, title)
    text = ET.tostring(svg, encoding="unicode")
    # one xmlns per page is enough for inline SVG in HTML; keep the board self-describing
    return re.sub(r' xmlns:xlink="[^"]*"', "", text, count=1)


# -- the page ----------------------------------------------------------------------------

_CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
 color:#111;background:#fff;margin:1.5em auto;max-width:72em;padding:0 1em}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.4em 0 .4em}
table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.25em .5em;text-align:left}
th{background:#eee}td.n{text-align:right;font-variant-numeric:tabular-nums}
th button{font:inherit;font-weight:bold;background:none;border:0;cursor:pointer;padding:0}
th[aria-sort=ascending] button::after{content:" \\25B2"}
th[aria-sort=descending] button::after{content:" \\25BC"}
tr.f:hover{background:#f3f3f3}tr.d>td{background:#fafafa}
.bar{margin:.6em 0;display:flex;flex-wrap:wrap;gap:.4em 1em;align-items:center}
.note{color:#444}.warn{color:#8a3b00;font-weight:bold}
code{background:#f2f2f2;padding:0 .25em;word-break:break-all}
.detail{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.detail svg{flex:none}
.detail>div{flex:1 1 22em;min-width:0}caption{text-align:left;font-weight:bold;padding:.3em 0}
"""

_JS = r"""
(function(){
const body=document.getElementById('findings-body');
const rows=Array.from(body.querySelectorAll('tr.f'));
const PAGE=%(page)d;let page=0,shown=rows;
const info=document.getElementById('page-info');
function detail(tr){return document.getElementById('d'+tr.dataset.case);}
function hide(tr){const d=detail(tr);if(d)d.hidden=true;
 tr.querySelector('button.open').setAttribute('aria-expanded','false');}
function render(){
 rows.forEach(tr=>{tr.hidden=true;hide(tr);});
 const n=shown.length,pages=Math.max(1,Math.ceil(n/PAGE));
 page=Math.min(page,pages-1);
 shown.slice(page*PAGE,(page+1)*PAGE).forEach(tr=>{tr.hidden=false;body.appendChild(tr);
  const d=detail(tr);if(d)body.appendChild(d);});
 info.textContent=n?('findings '+(page*PAGE+1)+'\u2013'+Math.min(n,(page+1)*PAGE)+
  ' of '+n+' (page '+(page+1)+' of '+pages+')'):'no finding matches the filter';
 document.getElementById('prev').disabled=page===0;
 document.getElementById('next').disabled=page>=pages-1;}
function filter(){
 const on=new Set(Array.from(document.querySelectorAll('input.cat:checked')).map(c=>c.value));
 shown=rows.filter(tr=>on.has(tr.dataset.category));page=0;render();}
function sort(th){
 const key=th.dataset.key,num=th.dataset.num==='1';
 const dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
 document.querySelectorAll('#findings th').forEach(h=>h.removeAttribute('aria-sort'));
 th.setAttribute('aria-sort',dir===1?'ascending':'descending');
 const val=tr=>tr.dataset[key];
 const cmp=(a,b)=>{let x=val(a),y=val(b);
  const tie=a.dataset.case-b.dataset.case;
  if(num){x=x===''?-Infinity:+x;y=y===''?-Infinity:+y;return (x-y)*dir||tie;}
  return x.localeCompare(y)*dir||tie;};
 rows.sort(cmp);shown.sort(cmp);page=0;render();}
function open(tr){const d=detail(tr),btn=tr.querySelector('button.open');
 if(!d.hidden){d.hidden=true;btn.setAttribute('aria-expanded','false');return;}
 const cell=d.firstElementChild;const t=cell.querySelector('template');
 if(t){cell.replaceChildren(t.content.cloneNode(true));}
 d.hidden=false;btn.setAttribute('aria-expanded','true');}
document.querySelectorAll('#findings th button').forEach(b=>b.addEventListener('click',
 ()=>sort(b.parentElement)));
document.querySelectorAll('input.cat').forEach(c=>c.addEventListener('change',filter));
rows.forEach(tr=>tr.querySelector('button.open').addEventListener('click',()=>open(tr)));
document.getElementById('prev').addEventListener('click',()=>{page--;render();});
document.getElementById('next').addEventListener('click',()=>{page++;render();});
window.pawnfenceReport={openAll:()=>{shown=rows;page=0;
  rows.forEach(tr=>{const d=detail(tr);const cell=d.firstElementChild;
   const t=cell.querySelector('template');if(t)cell.replaceChildren(t.content.cloneNode(true));
   d.hidden=false;tr.hidden=false;});},render:render};
render();})();
"""


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _summary_html(figures: dict[str, Any], cats: Counter[str], results: int, skipped: int,
                  notes: list[str], run: dict[str, Any]) -> str:
    """The run's figures: positions, categories, per method claims against exact."""
    out = ["<section aria-labelledby='summary-h'><h2 id='summary-h'>Summary</h2><ul>",
           f"<li>{results:,} positions read"
           + (f", {run['positions']:,} in the finished run" if "positions" in run else "")
           + "</li>"]
    if run.get("seconds") is not None:
        out.append(f"<li>scan time {run['seconds']:,.1f} s"
                   + (f" on {run['jobs']} jobs" if run.get("jobs") else "") + "</li>")
    if figures.get("judged_sides"):
        ex = figures["exact"]
        out.append(f"<li>exact judged {figures['judged_sides']:,} sides: "
                   + ", ".join(f"{k} {v:,}" for k, v in ex.items()) + "</li>")
    out.append("</ul>")
    for note in notes:
        out.append(f"<p class='warn'>{_esc(note)}</p>")
    out.append("<table><caption>Per method (claims: sides called blocked; exact's answer "
               "on the judged ones)</caption><thead><tr><th scope='col'>Method</th>"
               "<th scope='col'>Claims</th><th scope='col'>Confirmed by exact</th>"
               "<th scope='col'>Refuted by exact</th><th scope='col'>Unknown</th></tr>"
               "</thead><tbody>")
    for m, f in figures.get("methods", {}).items():
        out.append(f"<tr><th scope='row'>{_esc(m)}</th><td class='n'>{f['claims']:,}</td>"
                   f"<td class='n'>{f['confirmed']:,}</td>"
                   f"<td class='n'>{f['false_positives']:,}</td>"
                   f"<td class='n'>{f['unknown']:,}</td></tr>")
    out.append("</tbody></table>")
    out.append("<table><caption>Findings per category (engine disagreements, method "
               "disagreements, exact's refutations and misses)</caption><thead><tr>"
               "<th scope='col'>Category</th><th scope='col'>Findings</th></tr></thead><tbody>")
    for cat, n in sorted(cats.items()):
        out.append(f"<tr><th scope='row'>{_esc(cat)}</th><td class='n'>{n:,}</td></tr>")
    out.append("</tbody></table>")
    dis = figures.get("disagreements") or {}
    if dis:
        out.append("<p>Method disagreements (sides): "
                   + ", ".join(f"{_esc(k)} {v:,}" for k, v in dis.items()) + "</p>")
    out.append("</section>")
    return "".join(out)


def _verdicts_html(row: dict[str, Any]) -> str:
    out = ["<table><caption>Every method, both sides</caption><thead><tr>"
           "<th scope='col'>Method</th><th scope='col'>White</th><th scope='col'>Black</th>"
           "</tr></thead><tbody>"]
    for m, sides in row["verdicts"].items():
        cells = "".join(
            f"<td>{'blocked' if sides[s]['blocked'] else 'no'} ({_esc(sides[s]['rule'] or '-')})"
            "</td>" for s in ("white", "black"))
        out.append(f"<tr><th scope='row'>{_esc(m)}</th>{cells}</tr>")
    exact = row.get("exact") or {}
    if exact:
        cells = "".join(f"<td>{_esc(_exact_text(row, s))}</td>" for s in ("white", "black"))
        out.append(f"<tr><th scope='row'>exact</th>{cells}</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _legend_html(method: str) -> str:
    """The board's key for the method called ``method`` (the letters, hatches and shapes of
    its overlay; the default method's for a name the registry does not know)."""
    m = logic.METHODS.get(method) or logic.METHODS[logic.DEFAULT_METHOD]
    items = "".join(f"<li>{_esc(i.letter + ': ' if i.letter else '')}{_esc(i.text)}</li>"
                    for i in legend_items(m))
    return f"<details><summary>Key to the board</summary><ul>{items}</ul></details>"


def _finding_html(f: Finding, defs: _Defs, playlist: str | None) -> str:
    """The table row of ``f`` and its detail row (the board in a template)."""
    row = f.row
    data = {"case": f.case, "category": f.category, "method": f.method, "side": f.side,
            "rule": f.rule, "score": "" if f.score_value is None else f.score_value,
            "exact": f.exact, "game": f.game, "move": "" if f.move is None else f.move}
    attrs = " ".join(f'data-{k}="{_esc(v)}"' for k, v in data.items())
    cells = "".join(f"<td{' class=n' if num else ''}>{_esc(v)}</td>" for (_k, _h, num), v in
                    zip(COLUMNS, (f.case, f.category, f.method, f.side, f.rule, f.score,
                                  f.exact, f.game, "" if f.move is None else f.move),
                        strict=True))
    board = chess.Board(row["fen"])
    note = judge_note(board, row["verdicts"], row["exact"]) if row.get("exact") else ""
    fen = row["fen"]
    commands = [f"pawnfence '{_esc(fen)}'"]
    if playlist:
        commands.insert(0, f"pawnfence --playlist {_esc(playlist)} --case {f.case}")
    pv = ((row.get("exact") or {}).get(f.side) or {}).get("pv") or []
    line = ""
    if pv:
        try:
            line = logic.exact.line_san(board, tuple(pv), 12)
        except ValueError:
            line = " ".join(pv[:12])
    detail = (f"<div class='detail'>{board_figure(row, f.method, f.side, defs)}<div>"
              f"<p><strong>{_esc(f.category)}</strong>: {_esc(f.side)} by {_esc(f.method)} "
              f"({_esc(f.rule)}); engine {_esc(f.score)}</p>"
              f"<p>FEN <code>{_esc(fen)}</code></p>"
              + (f"<p>Exact: {_esc(note)}</p>" if note else "")
              + (f"<p>Exact line for {_esc(f.side)}: {_esc(line)}</p>" if line else "")
              + _verdicts_html(row)
              + _legend_html(f.method)
              + "<p>Open it in the viewer: " + " or ".join(f"<code>{c}</code>" for c in commands)
              + "</p></div></div>")
    return (f"<tr class='f' {attrs}>{cells}<td><button class='open' type='button' "
            f"aria-expanded='false' aria-controls='d{f.case}'>Board</button></td></tr>"
            f"<tr class='d' id='d{f.case}' hidden><td colspan='{len(COLUMNS) + 1}'>"
            f"<template>{detail}</template></td></tr>")


def _read(results: Path, skipped: list[str]) -> Iterator[dict[str, Any]]:
    try:
        for item in iter_results(results):
            if isinstance(item, str):
                skipped.append(item)
            else:
                yield item
    except OSError as exc:
        raise ReportError(exc.errno or 0, f"cannot read {results}: {exc.strerror or exc}"
                          ) from None


def _suspects(folder: Path) -> int | None:
    """The position lines of ``folder/suspects.epd`` (None when it cannot be read): the
    finished scan's findings, which ``--case N`` numbers."""
    try:
        with open(folder / "suspects.epd", "rb") as fh:
            return sum(1 for line in fh if line.strip())
    except OSError:
        return None


def write_report(results_dir: str | Path, out: str | Path | None = None, *,
                 title: str | None = None) -> ReportStats:
    """Write the report of the scan in ``results_dir`` (its ``results.jsonl``, and its
    ``summary.json`` and ``suspects.epd`` when the run finished) to ``out`` (default
    ``results_dir/report.html``).  Raises :class:`ReportError` when the results cannot
    be read or the page cannot be written (then no file is left behind)."""
    start = time.perf_counter()
    folder = Path(results_dir)
    results = folder / "results.jsonl"
    target = Path(out) if out is not None else folder / "report.html"
    if not results.is_file():
        raise ReportError(2, f"no scan results in {folder} (results.jsonl is missing)")
    run: dict[str, Any] = {}
    try:
        run = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        if not isinstance(run, dict):
            run = {}
    except (OSError, ValueError):
        run = {}
    skipped: list[str] = []
    cats: Counter[str] = Counter()
    count = [0]

    def counted() -> Iterator[dict[str, Any]]:
        for row in _read(results, skipped):
            count[0] += 1
            cats.update(row["categories"])
            yield row

    figures = summarize(counted(), list(logic.STATIC_METHODS), recall=False)
    notes = []
    if skipped:
        notes.append(f"{len(skipped):,} line(s) of results.jsonl skipped (not readable "
                     f"results): first {skipped[0]}")
    total = sum(cats.values())
    playlist = str(folder / "suspects.epd") if _suspects(folder) == total else None
    if playlist is None:
        notes.append("The scan has not finished (its suspects.epd does not list these "
                      "findings yet): this report shows the results written so far.")
    name = title or f"pawnfence scan report: {folder.name or folder}"

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            _write_page(fh, name, folder, figures, cats, count[0], len(skipped), notes, run,
                        total, playlist)

    try:
        atomic_write(target, write)
    except ReportError:
        raise
    except OSError as exc:
        raise ReportError(exc.errno or 0, f"cannot write {target}: {exc.strerror or exc}"
                          ) from None
    return ReportStats(path=target, findings=total, results=count[0], skipped=len(skipped),
                       bytes=target.stat().st_size,
                       seconds=round(time.perf_counter() - start, 3))


def _write_page(fh: IO[str], name: str, folder: Path, figures: dict[str, Any],
                cats: Counter[str], results: int, skipped: int, notes: list[str],
                run: dict[str, Any], total: int, playlist: str | None) -> None:
    """Stream the page to ``fh``: head, summary, filters, the findings (a second pass over
    the results), the shared SVG definitions and the script."""
    fh.write("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             "<meta name='viewport' content='width=device-width,initial-scale=1'>"
             "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
             "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
             f"<title>{_esc(name)}</title><style>{_CSS}</style></head><body>"
             f"<header><h1>{_esc(name)}</h1><p class='note'>pawnfence {logic.__version__}; "
             f"results from <code>{_esc(folder)}</code>. Every board shows the overlay of "
             "the method and side in its row; letters, hatches and shapes carry the "
             "meaning, not colour alone.</p></header><main>")
    fh.write(_summary_html(figures, cats, results, skipped, notes, run))
    fh.write("<section aria-labelledby='findings-h'><h2 id='findings-h'>Findings</h2>"
             "<fieldset class='bar'><legend>Show categories</legend>")
    for cat, n in sorted(cats.items()):
        fh.write(f"<label><input type='checkbox' class='cat' value='{_esc(cat)}' checked> "
                 f"{_esc(cat)} ({n:,})</label>")
    fh.write("</fieldset><div class='bar'><button type='button' id='prev'>Previous</button>"
             "<button type='button' id='next'>Next</button>"
             "<span id='page-info' aria-live='polite'></span></div>"
             "<table id='findings'><caption>Findings: click a column's name to sort, "
             "Board to see the position</caption><thead><tr>")
    for key, header, num in COLUMNS:
        fh.write(f"<th scope='col' data-key='{key}' data-num='{int(num)}'>"
                 f"<button type='button'>{_esc(header)}</button></th>")
    fh.write("<th scope='col'>Board</th></tr></thead><tbody id='findings-body'>")
    defs = _Defs()
    for f in findings(_read(folder / "results.jsonl", [])):
        if f.case > total:  # a scan still running appended rows since the first pass
            break
        fh.write(_finding_html(f, defs, playlist))
    fh.write("</tbody></table></section></main>")
    fh.write(defs.svg())
    fh.write(f"<script>{_JS % {'page': PAGE_ROWS}}</script></body></html>\n")

