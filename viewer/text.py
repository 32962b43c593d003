"""Pure text builders of the viewer: the banner, the explanation, the captions, the
search panel and the board's status line, from the state's records (no pygame).

Every string that reaches the screen from outside the program (a FEN the user typed or
pasted, a playlist's names and comments, an engine's message) goes through
:func:`bounded` first, so the renderer (SDL_ttf) and pygame_gui's text layout never see
unbounded text: at most :data:`SHOWN` characters and "…(N more)".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess

import logic
from logic import kpk_rules
from logic.verdict import Verdict

if TYPE_CHECKING:
    from viewer.analysis import AnalysisResult
    from viewer.state import ViewerState

__all__ = ["SHOWN", "bounded", "esc", "banner_text", "window_banner", "explanation_html",
           "caption_html", "search_html", "status_line", "step_line", "status_names"]

#: at most this many characters of one piece of outside text are shown
SHOWN = 200


def bounded(text: object, limit: int = SHOWN) -> str:
    """``text`` as one line of at most about ``limit`` characters: longer text is cut
    and ends with "…(N more)" (N characters left out); newlines become spaces."""
    s = str(text)
    if len(s) > limit:
        s = f"{s[:limit]}…({len(s) - limit} more)"
    return s.replace("\r", " ").replace("\n", " ")


def esc(text: object) -> str:
    """``text`` bounded and escaped for pygame_gui's HTML subset."""
    return bounded(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def status_names(board: chess.Board) -> list[str]:
    """python-chess's ``status()`` flags of ``board`` in words ("kings adjacent", ...)."""
    status = board.status()
    return [f.name.lower().replace("_", " ") for f in chess.Status if f in status and f.name]


def banner_text(verdict: Verdict | None, caption: str = "") -> tuple[str, str, str]:
    """``(headline, sub-line, kind)`` for a verdict; kind is blocked / open / na."""
    caption = bounded(caption)
    if verdict is None:
        return "Set up a position", caption, "na"
    if verdict.status != "ok":
        return (verdict.headline, caption or "the detectors need a legal king-and-pawn position",
                "na")
    kind = "blocked" if verdict.blocked else "open"
    if verdict.blocked:
        head = verdict.headline.replace(": blockage", " — blockage")
    else:
        head = f"{verdict.side}: {verdict.reason}"
    return head, caption or verdict.reason, kind


def window_banner(state: ViewerState) -> tuple[str, str, str]:
    """The window's banner: the verdict's, the step being played back, the other side's
    headline and the KPK bitbase's answer when it applies."""
    v, tl = state.verdict, state.timeline
    head, sub, kind = banner_text(v, state.caption)
    if tl.index is not None and v is not None:
        step = v.steps[tl.index]
        sub = f"step {tl.index + 1}/{tl.count} · {step.phase}: {step.text}"
    if state.other is not None and tl.index is None:
        sub = f"{sub}   |   {state.other.headline}"
    kpk = state.kpk
    if kpk and tl.index is None:
        side = str(kpk["side"]).capitalize()
        win = kpk["result"] == "win"
        head = f"KPK: {side} wins" if win else f"KPK: a draw — {side} cannot win"
        kind = "open" if win else "blocked"
        rule = kpk["rule"]
        sub = (f"exact bitbase; heuristic rule {rule}: {kpk['rule_text']}" if rule
               else "exact bitbase; no heuristic rule fires")
    return head, sub, kind


def explanation_html(state: ViewerState) -> str:
    """The explanation box: the verdict with every pawn note, or the step played back."""
    v, tl = state.verdict, state.timeline
    if v is None:
        return ""
    if tl.index is None:
        lines = [f"<b>{esc(v.headline)}</b>", esc(v.reason)]
        if state.kpk:
            lines.insert(0, f"<b>{esc(kpk_rules.summary_line(state.kpk))}</b>")
        for note in v.pawns:
            mark = "holds" if note.ok else "<b>breaks</b>"
            lines.append(f"• {chess.square_name(note.square)} ({note.category}, {mark}): "
                         f"{esc(note.reason)}")
        return "<br>".join(lines)
    step = v.steps[tl.index]
    return f"<b>[{esc(step.section)}] {esc(step.phase)}</b><br>{esc(step.text)}"


def step_line(state: ViewerState) -> str:
    """The line under the play buttons: "step k of N · phase" or the live view's."""
    tl = state.timeline
    if tl.index is None or tl.verdict is None:
        return f"live verdict · {tl.count} steps (Space to play)"
    return f"step {tl.index + 1} of {tl.count} · {tl.verdict.steps[tl.index].phase}"


def status_line(board: chess.Board) -> str:
    """The FEN field's status line for the board on show."""
    names = status_names(board)
    return "OK: legal position" if not names else "Warning: " + ", ".join(names)[:70]


def caption_html(state: ViewerState, search: AnalysisResult | None = None) -> str:
    """The caption box: the search panel when it is on (``search``), else the playlist
    case, the library diagram with the verdict its source states, or the other side."""
    if state.search_on:
        return search_html(search)
    if state.playlist:
        return _playlist_html(state)
    d = state.current_diagram
    if d is None:
        other = state.other.headline if state.other is not None else ""
        return f"Other side: {esc(other)}"
    exp = d.expect.get(state.method)
    ours = state.verdict
    if exp is None:
        stated = "no verdict stated"
    elif exp.blocked is None:
        stated = "detector does not apply"
    else:
        stated = f"{'blocked' if exp.blocked else 'not blocked'} ({exp.rule})"
    mine = ("blocked" if ours is not None and ours.blocked else "not blocked") + \
        f" ({ours.rule if ours is not None else '-'})"
    return (f"<b>{esc(d.id)}</b> — {esc(d.caption)}<br><i>{esc(d.source)}</i><br>"
            f"Stated: {esc(stated)}; game result: {esc(d.result)}<br>"
            f"pawnfence ({state.side}): {esc(mine)}")


def _playlist_html(state: ViewerState) -> str:
    name, _fen, info = state.playlist[state.playlist_index]
    parts = [f"<b>{esc(name)}</b> ({state.playlist_index + 1}/{len(state.playlist)}, "
             "N / P for the next / previous case)"]
    labels = {"c0": "category", "c1": "score"}
    parts += [f"{esc(labels.get(k, k))}: <b>{esc(val)}</b>" for k, val in list(info.items())[:8]]
    board = state.editor.board
    for name_, method in logic.METHODS.items():
        said = []
        for color in chess.COLORS:
            v = logic.detect(board, color, method=name_)
            said.append(f"{v.side} {'blocked' if v.blocked else 'open'} ({v.rule})")
        parts.append(f"{esc(method.label)}: {esc('; '.join(said))}")
    return "<br>".join(parts)


def search_html(r: AnalysisResult | None) -> str:
    """The search panel: pawnfence's search with and without detection, the engine's
    line, and one line per problem (an illegal position, an engine failure)."""
    if r is None:
        return ""
    lines = ["<b>Search</b> (White's view, 0.8 s each)"]

    def line(label: str, d: dict[str, Any] | None) -> str:
        if d is None:
            return f"{label}: thinking…"
        pv = " ".join(d.get("pv", [])[:6])
        extra = f", {d['blockages']} blockages" if d.get("blockages") else ""
        return esc(f"{label}: {int(d['score']) / 100:+.2f} (depth {d['depth']}{extra}) {pv}")

    if r.searchable:
        lines.append(line("with detection", r.with_detection))
        lines.append(line("without", r.without_detection))
    e = r.engine
    if e is not None:
        score = (f"mate {e['mate']}" if e.get("mate") is not None
                 else f"{int(e['score'] or 0) / 100:+.2f}")
        lines.append(esc(f"{e['name']}: {score} (depth {e['depth']}) {' '.join(e['pv'][:6])}"))
    elif r.engine_path is None:
        lines.append("no UCI engine (install stockfish or set one in the settings)")
    elif not r.done and r.legal:
        lines.append(esc(f"{r.engine_name}: thinking…"))
    lines += [esc(m) for m in r.messages[-3:]]
    return "<br>".join(lines)
