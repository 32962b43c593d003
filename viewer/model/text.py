"""Pure text builders of the viewer: the banner, the explanation, the captions, the
search panel and the board's status line, from the state's records (no pygame).

Every string that reaches the screen from outside the program (a FEN the user typed or
pasted, a playlist's names and comments, an engine's message) goes through
:func:`bounded` first, so the renderer (SDL_ttf) and pygame_gui's text layout never see
unbounded text: at most :data:`SHOWN` characters and "…(N more)".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import chess

import logic
from logic import kpk_rules
from logic.steps import Step
from logic.verdict import Verdict
from viewer.model.playlist import case_facts, is_suspect, progress_text
from viewer.model.theme import Block
from viewer.model.words import OWN, SHOWN, bounded, esc

if TYPE_CHECKING:
    from viewer.model.analysis import AnalysisResult
    from viewer.model.state import ViewerState

__all__ = ["SHOWN", "bounded", "esc", "banner_text", "window_banner", "frame_banner", "Banner",
           "both_sides", "side_summary", "projector_blocks", "proof_banner", "proving_text",
           "explanation_html", "caption_html", "search_html", "status_line", "step_line",
           "status_names", "san_line", "score_text", "frame_explanation", "case_line",
           "side_note", "step_headline"]

def status_names(board: chess.Board) -> list[str]:
    """python-chess's ``status()`` flags of ``board`` in words ("kings adjacent", ...)."""
    status = board.status()
    return [f.name.lower().replace("_", " ") for f in chess.Status if f in status and f.name]


def banner_text(verdict: Verdict | None, caption: str = "") -> tuple[str, str, str]:
    """``(headline, sub-line, kind)`` for a verdict; kind is blocked / open / na."""
    caption = bounded(caption)
    if verdict is None:
        return "Set up a position", caption, "na"
    if verdict.status in ("unknown", "horizon"):  # the exact prover out of budget: its reason
        return verdict.headline, caption or verdict.reason, "na"
    if verdict.status != "ok":
        return (verdict.headline, caption or "the detectors need a legal king-and-pawn position",
                "na")
    kind = "blocked" if verdict.blocked else "open"
    if verdict.blocked:
        head = verdict.headline.replace(": blockage", " — blockage")
    elif _own_headline(verdict):  # e.g. the exact prover's forced promotion and its outcome
        head = verdict.headline
    else:
        head = f"{verdict.side}: {verdict.reason}"
    return head, caption or verdict.reason, kind


def _method(v: Verdict) -> logic.Method | None:
    return logic.METHODS.get(v.method)


def _own_headline(v: Verdict) -> bool:
    """Whether ``v``'s method words its own headline for it (the exact prover's line)."""
    m = _method(v)
    return m is not None and m.headline(v) is not None


def side_summary(v: Verdict | None) -> str:
    """One side's verdict in a few words: "Black cannot win — blockage (paper 2.3)" (the
    method's own words where it has them, :meth:`logic.registry.Method.summary`)."""
    if v is None:
        return ""
    m = _method(v)
    own = m.summary(v) if m is not None else None
    if own is not None:
        return own
    if v.status != "ok":
        return f"{v.side}: the detector does not apply ({v.status})"
    if v.blocked:
        return f"{v.side} cannot win — blockage ({v.rule})"
    return f"{v.side}: no blockage proved ({v.rule})"


def both_sides(verdict: Verdict | None, other: Verdict | None) -> str:
    """Both sides' verdicts, White's first."""
    pair = sorted((v for v in (verdict, other) if v is not None), key=lambda v: not v.color)
    return "   ·   ".join(side_summary(v) for v in pair)


class Banner(NamedTuple):
    """The banner: ``kind`` (blocked / open / na: the bar's colour and icon) and its
    paragraphs (:class:`~viewer.figures.textfit.Block`: ``head``, ``sub``, ``muted``, ``label``)."""

    kind: str
    blocks: tuple[Block, ...]

    @property
    def head(self) -> str:
        """The headline's text."""
        return next((b.text for b in self.blocks if b.role == "head"), "")


def frame_banner(verdict: Verdict | None, other: Verdict | None = None, index: int | None = None,
                 caption: str = "", kpk: dict[str, object] | None = None,
                 pending: str = "") -> Banner:
    """The banner of a frame.  Live (``index`` None): the verdict's headline, its reason
    and the other side's verdict.  During playback the headline is step ``index`` (its
    phase and sentence) under a "step k of N" label, and one line below gives the final
    verdicts of both sides.  A KPK position shows the bitbase's answer.  ``caption`` (a
    library or playlist caption) is kept for the panes, not the banner.  ``pending``
    says what stands for the other side's verdict while it is being proved."""
    head, reason, kind = banner_text(verdict, "")
    pair = [side_summary(v) for v in (verdict, other) if v is not None]
    if other is None and pending:
        pair.append(pending)
    finals = "Final verdict — " + "  ·  ".join(pair)
    other_side = Block(f"Other side: {side_summary(other)}" if other is not None else
                       f"Other side: {pending}" if pending else "", "muted")
    if index is not None and verdict is not None and 0 <= index < len(verdict.steps):
        step = verdict.steps[index]
        return Banner(kind, (
            Block(f"step {index + 1} of {len(verdict.steps)} · {step.section}", "label"),
            Block(step_headline(step), "head"), Block(finals, "sub")))
    if kpk:
        side = str(kpk["side"]).capitalize()
        win = kpk["result"] == "win"
        rule = kpk["rule"]
        return Banner("open" if win else "blocked", (
            Block(f"KPK: {side} wins" if win else f"KPK: a draw — {side} cannot win", "head"),
            Block(f"exact bitbase; heuristic rule {rule}: {kpk['rule_text']}" if rule
                  else "exact bitbase; no heuristic rule fires", "sub"),
            Block(finals, "muted")))
    if verdict is not None and verdict.status == "ok" and not verdict.blocked \
            and not _own_headline(verdict):
        head = f"{verdict.side}: no blockage proved"
    return Banner(kind, (Block(head, "head"), Block(reason, "sub"), other_side))


def step_headline(step: Step) -> str:
    """A step as a headline: its phase, then its sentence; a sentence that opens with
    its own phase ("Flood cycle 1: ...") is not prefixed with it again."""
    if step.text.casefold().startswith(step.phase.casefold()):
        return step.text
    return f"{step.phase}: {step.text}"


def proving_text(progress: Any) -> str:
    """A running proof in a few words: "proving for Black … 1,234 structures, 2.1 s"
    (``progress``: a :class:`viewer.model.proof.Progress`)."""
    side = chess.COLOR_NAMES[progress.color].capitalize()
    if progress.line:  # the proof is in: a forced promotion, its line being worked out
        return (f"{side} forces a promotion or mate (proved) — finding the line … "
                f"{progress.seconds():.1f} s")
    return (f"proving for {side} … {progress.structures:,} structures, "
            f"{progress.seconds():.1f} s")


def proof_banner(method: str, progress: Any, note: str) -> Banner:
    """The banner while a method that is not static has no verdict yet: proving (with
    ``progress``), or why there is none (``note``: cancelled, failed)."""
    name = method.capitalize()
    if progress is not None:
        return Banner("busy", (
            Block(f"{name}: {proving_text(progress)}", "head"),
            Block("Esc or an edit cancels; the board stays editable", "sub")))
    if note:
        return Banner("na", (Block(f"{name}: no verdict — {note}", "head"),
                             Block("R proves again; an edit proves the new board", "sub")))
    return Banner("busy", (Block(f"{name}: starting …", "head"),))


def window_banner(state: ViewerState) -> Banner:
    """The window's banner for the state (see :func:`frame_banner`; while a background
    proof runs or was stopped, :func:`proof_banner`)."""
    p = state.proof.proving()
    if state.playback.verdict is None and (p is not None or state.proof.note):
        return proof_banner(state.options.method.name, p, state.proof.note)
    shown = state.playback
    pending = proving_text(p) if p is not None and shown.other is None else ""
    b = frame_banner(shown.verdict, shown.other, shown.timeline.index,
                     state.position.shown_caption(), shown.kpk, pending)
    line = case_line(state) if shown.timeline.index is None else ""
    if state.game.open and shown.timeline.index is None:  # the game's ply, its pieces
        line = state.game.line()
    if line:  # a scan's suspect: what it was found as (a game: its ply), in the third line
        b = Banner(b.kind, (*(x for x in b.blocks if x.role != "muted"), Block(line, "muted")))
    v = shown.verdict
    if v is not None and v.status in ("unknown", "horizon") and shown.timeline.index is None \
            and state.can_prove_longer():  # the window's own hint: not in an export
        blocks = tuple(Block(f"{x.text} · R: twice the time", "sub") if x.role == "sub" else x
                       for x in b.blocks)
        b = Banner(b.kind, blocks)
    return b


def projector_blocks(state: ViewerState) -> tuple[Block, ...]:
    """Projector mode's words: the current step's sentence in large type (its phase and
    number above it), or the live verdict and its reason."""
    v, tl = state.playback.verdict, state.playback.timeline
    if v is not None and tl.index is not None and v.steps:
        step = v.steps[tl.index]
        return (Block(f"step {tl.index + 1} of {tl.count} · {step.phase} · {step.section}",
                      "label"), Block(step.text, "head"))
    b = window_banner(state)
    return (Block(b.head, "head"), *(x for x in b.blocks if x.role == "sub"))


def explanation_html(state: ViewerState) -> str:
    """The explanation box: the verdict with every pawn note, or the step played back."""
    v, tl = state.playback.verdict, state.playback.timeline
    if v is None:
        if state.proof.note:
            return "<br>".join(esc(b.text, OWN) for b in window_banner(state).blocks)
        if state.proof.proving() is not None:
            return ("Proving in the background (the banner shows how far it is); the "
                    "steps and the king map come when the proof is in.")
        return ""
    cap = state.position.shown_caption()
    top = f"<i>{esc(cap, OWN if state.position.current_diagram else SHOWN)}</i><br>" if cap else ""
    top = _case_html(state) + top
    if tl.index is None:
        lines = [top + f"<b>{esc(v.headline, OWN)}</b>", esc(v.reason, OWN)]
        if state.playback.kpk:
            lines.insert(0, f"<b>{esc(kpk_rules.summary_line(state.playback.kpk), OWN)}</b>")
        for note in v.pawns:
            mark = "holds" if note.ok else "<b>breaks</b>"
            lines.append(f"• {chess.square_name(note.square)} ({note.category}, {mark}): "
                         f"{esc(note.reason, OWN)}")
        if state.playback.other is not None:
            lines.append(f"<i>{esc(side_summary(state.playback.other), OWN)}</i>")
        return "<br>".join(lines)
    step = v.steps[tl.index]
    return (f"{top}<b>step {tl.index + 1} of {tl.count} · [{esc(step.section)}] "
            f"{esc(step.phase, OWN)}</b><br>{esc(step.text, OWN)}")


def step_line(state: ViewerState) -> str:
    """The line under the play buttons: "step k of N · phase g of G" or the live view's
    (short: the banner says the phase in words)."""
    tl = state.playback.timeline
    if tl.verdict is None and state.proof.proving() is not None:
        return "proving … (Esc cancels)"
    if tl.index is None or tl.verdict is None:
        return f"live verdict · {tl.count} steps (Space to play)"
    g = tl.group_of(tl.index)
    return f"step {tl.index + 1} of {tl.count} · phase {(g or 0) + 1} of {len(tl.groups)}"


def status_line(board: chess.Board) -> str:
    """The FEN field's status line for the board on show (short: it shares its row; the
    analysis pane names every problem)."""
    names = status_names(board)
    if not names:
        return "OK: legal position"
    return f"Illegal: {names[0]}" + (f" (+{len(names) - 1})" if len(names) > 1 else "")


def frame_explanation(verdict: Verdict | None, index: int | None, caption: str = "") -> str:
    """The explanation of a frame as plain text: the caption, then the step's section,
    phase and sentence, or the verdict's reason and one line per pawn note."""
    if verdict is None:
        return bounded(caption, OWN)
    top = [bounded(caption, OWN)] if caption else []
    if index is not None and 0 <= index < len(verdict.steps):
        step = verdict.steps[index]
        return "\n".join([*top, f"[{step.section}] {step_headline(step)}"])
    lines = [*top, verdict.reason]
    for note in verdict.pawns:
        lines.append(f"• {chess.square_name(note.square)} ({note.category}, "
                     f"{'holds' if note.ok else 'breaks'}): {note.reason}")
    return "\n".join(lines)


def caption_html(state: ViewerState, search: AnalysisResult | None = None, *,
                 with_search: bool = True) -> str:
    """The caption: the analysis in words when it is on and ``with_search``, else the
    playlist case or the library diagram while the board still shows it (with the
    verdict its source states), or both sides' verdicts."""
    if state.options.search_on and with_search:
        return search_html(search)
    if state.position.playlist and state.position.case_shown():
        return _playlist_html(state)
    if state.position.playlist and state.position.case_problem:
        pos = state.position
        return "<br>".join([f"<b>Case {pos.playlist_index + 1:,}/{len(pos.playlist):,} is not "
                            f"a position</b>", esc(pos.case_problem),
                            "N / PageUp for the next / previous case", *_checking(state)])
    d = state.position.current_diagram
    if d is None or d.fen != state.position.editor.fen:
        note = ""
        if state.position.playlist:
            note = (f"<br><i>Playlist: the board no longer shows case "
                    f"{state.position.playlist_index + 1}/{len(state.position.playlist)} "
                    "(N / PageUp)</i>")
        cap = state.position.shown_caption()
        return (f"<b>{esc(cap)}</b><br>" if cap else "") + \
            f"{esc(both_sides(state.playback.verdict, state.playback.other), OWN)}{note}"
    exp = d.expect.get(state.options.method.name)
    ours = state.playback.verdict
    if exp is None:
        stated = "no verdict stated"
    elif exp.blocked is None:
        stated = "detector does not apply"
    else:
        stated = f"{'blocked' if exp.blocked else 'not blocked'} ({exp.rule})"
    mine = ("blocked" if ours is not None and ours.blocked else "not blocked") + \
        f" ({ours.rule if ours is not None else '-'})"
    return (f"<b>{esc(d.id)}</b> — {esc(d.caption, OWN)}<br><i>{esc(d.source)}</i><br>"
            f"Stated: {esc(stated)} for White; game result: {esc(d.result)}<br>"
            f"pawnfence ({state.options.side}): {esc(mine)}")


def _playlist_html(state: ViewerState) -> str:
    pos = state.position
    case = pos.playlist[pos.playlist_index]
    parts = [f"<b>{esc(case.name)}</b> ({pos.playlist_index + 1:,}/{len(pos.playlist):,}, "
             "N / PageUp for the next / previous case)"]
    parts += [f"{esc(k)}: <b>{esc(val)}</b>" for k, val in case_facts(case)[:8]]
    parts += _checking(state)
    board = state.position.editor.board
    for name_, method in logic.STATIC_METHODS.items():
        said = []
        for color in chess.COLORS:
            v = logic.detect(board, color, method=name_)
            said.append(f"{v.side} {'blocked' if v.blocked else 'open'} ({v.rule})")
        parts.append(f"{esc(method.label)}: {esc('; '.join(said))}")
    return "<br>".join(parts)


def _case_html(state: ViewerState) -> str:
    """The playlist's case on show for the Story pane: its name and number, then its
    operations (a suspect's category, engine score, note, side and method)."""
    case = state.position.case()
    if case is None:
        return ""
    pos = state.position
    facts = case_facts(case)[:6]
    short = " · ".join(f"{esc(k)}: <b>{esc(v)}</b>" for k, v in facts if k != "note")
    notes = [f"{esc(k)}: {esc(v, OWN)}" for k, v in facts if k == "note"]
    head = f"<i>Case {pos.playlist_index + 1:,}/{len(pos.playlist):,}: {esc(case.name)}</i>"
    return "<br>".join([head, *([short] if short else []), *notes, ""])


def _checking(state: ViewerState) -> list[str]:
    """The playlist's background check in words while it reads (no line otherwise)."""
    got = state.checking()
    return [f"<i>{esc(progress_text(got, state.playlist_name()))}</i>"] if got else []


def case_line(state: ViewerState) -> str:
    """A scan's suspect case on show in one line: "case 3/26 · methods-disagree ·
    engine +0.12 · note" ("" for any other board or case)."""
    case = state.position.case()
    if case is None or not is_suspect(case.info):
        return ""
    pos = state.position
    facts = dict(case_facts(case))
    if facts.get("note"):  # a judge's note: the part about the case's side
        facts["note"] = side_note(facts["note"], facts.get("side", ""))
    said = [f"engine {facts[k]}" if k == "engine" else facts[k]
            for k in ("category", "engine", "note") if facts.get(k)]
    return bounded(" · ".join([f"case {pos.playlist_index + 1:,}/{len(pos.playlist):,}",
                               *said]), CASE_LINE)


#: the most characters of a case's line in the banner
CASE_LINE = 160


def side_note(note: str, side: str) -> str:
    """The part of a judge's note (``"white: …| black: …"``) about ``side``, without its
    side's name; the whole note when no part is."""
    for part in note.split(" | "):
        head, sep, rest = part.partition(": ")
        if sep and head.strip().lower() == side.lower():
            return rest.strip()
    return note


def san_line(fen: str, pv: Sequence[str], limit: int = 12) -> str:
    """The first ``limit`` moves of the UCI line ``pv`` from ``fen`` in SAN with move
    numbers ("1. Kb1 Kb7 2. Kc2"); the legal prefix only."""
    try:
        board = chess.Board(fen)
    except ValueError:
        return " ".join(pv[:limit])
    moves = []
    for uci in pv[:limit]:
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            break
        if not board.is_legal(move):
            break
        moves.append(move)
        board.push(move)
    return chess.Board(fen).variation_san(moves) if moves else ""


def score_text(d: dict[str, Any]) -> str:
    """A search line's score: "+1.25" (White's view) or "mate 3"."""
    if d.get("mate") is not None:
        return f"mate {d['mate']}"
    return f"{int(d.get('score') or 0) / 100:+.2f}"


def search_html(r: AnalysisResult | None) -> str:
    """The analysis in words: pawnfence's search with and without detection and the
    engine, each with its line in SAN, and one line per problem (an illegal position,
    an engine failure)."""
    if r is None:
        return ""
    lines = [f"<b>Analysis</b> (White's view, {r.seconds:g} s per search)"]

    def line(label: str, d: dict[str, Any] | None) -> str:
        if d is None:
            return f"{label}: thinking…"
        pv = san_line(r.fen, list(d.get("pv", [])), 8) if r.fen else " ".join(d.get("pv", []))
        extra = f", {d['blockages']} blockages" if d.get("blockages") else ""
        return esc(f"{label}: {score_text(d)} (depth {d['depth']}{extra}) {pv}")

    if r.searchable:
        lines.append(line("with detection", r.with_detection))
        lines.append(line("without", r.without_detection))
    e = r.engine
    if e is not None:
        lines.append(line(str(e["name"]), e))
    elif r.engine_path is None:
        lines.append("no UCI engine (install stockfish or set one in the settings)")
    elif not r.done and r.legal:
        lines.append(esc(f"{r.engine_name}: thinking…"))
    for d in r.exact or ():
        lines.append(esc(f"exact: {d.get('headline', '')}", OWN))
    lines += [esc(m) for m in r.messages[-3:]]
    return "<br>".join(lines)
