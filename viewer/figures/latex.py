"""``render --out FIG.tex``: a diagram for authors who typeset their figures with the
``chessboard`` package (Ulrike Fischer's, in Debian's ``texlive-games``; ``xskak``
loads it too).

The file is a complete LaTeX document (``standalone``: the page is the board) whose one
``\\chessboard`` command can be copied into a paper as it is: the pieces, the overlay's
squares as coloured fields (marked squares filled, the fence framed, the attacking
king's side dotted with a small disc), the pawns' letters (F fixed, A/O/B/E/L the dynamic
pawns' categories, a tick or a cross for holds or breaks, H/B on a king map) and the move
of a line as an arrow.  Each colour is one of Okabe and Ito's, and every overlay also
carries a letter, a frame or a mark, so the figure reads in greyscale.  A comment names
the FEN, the side, the method and the verdict.  Nothing in it depends on the run: the same
command writes the same text.
"""

from __future__ import annotations

import chess

from logic.verdict import Verdict
from viewer.model.overlay import Overlay
from viewer.model.theme import COLOURS, RGB

__all__ = ["latex_document", "chessboard_command"]

#: the LaTeX colour names of the roles the figure uses
_ROLES = ("marked", "fence", "below", "fixed", "ok", "breaks", "removed", "kingmap_holds",
          "kingmap_breaks", "arrow_line", "changed", "kpk")


def _name(role: str) -> str:
    return "pf" + role.replace("_", "")


def _fields(bb: int) -> str:
    return ",".join(chess.square_name(s) for s in chess.scan_forward(bb))


def _text(letter: str, role: str, fields: list[int], corner: bool = True) -> list[str]:
    """A ``pgfstyle=text`` marking: ``letter`` on ``fields`` (top-right corner, where the
    window draws its badges, or the centre)."""
    if not fields:
        return []
    where = "[x=0.3em,y=0.3em]" if corner else "[]"
    return [f"pgfstyle={{{where}text}}, opacity=1, padding=0em, color={_name(role)}, "
            f"text=\\fontsize{{7pt}}{{7pt}}\\bfseries\\sffamily {letter}, "
            f"markfields={{{','.join(chess.square_name(s) for s in sorted(fields))}}}"]


def _badges(ov: Overlay) -> list[str]:
    """The pawns' letters, grouped by letter and outcome: holds in the ``ok`` colour with
    a tick after the letter, breaks in the ``breaks`` colour with a cross."""
    groups: dict[tuple[str, bool | None], list[int]] = {}
    for sq, (letter, ok) in ov.badges.items():
        groups.setdefault((letter, ok), []).append(sq)
    out: list[str] = []
    for (letter, holds), squares in sorted(groups.items(),
                                           key=lambda g: (g[0][0], str(g[0][1]))):
        mark = "" if holds is None else ("\\checkmark" if holds else "$\\times$")
        role = "ok" if holds else "breaks"
        out += _text(f"{letter}{mark}", role, squares)
    return out


def _style(style: str, role: str, bb: int, *, opacity: float = 1.0, padding: str = "0em",
           linewidth: str = "0.1em") -> list[str]:
    """One ``chessboard`` marking of the squares ``bb`` (none when empty).  Every marking
    sets its own opacity, padding and line width: ``chessboard`` keeps them."""
    if not bb:
        return []
    return [f"pgfstyle={style}, opacity={opacity:g}, padding={padding}, "
            f"linewidth={linewidth}, color={_name(role)}, markfields={{{_fields(bb)}}}"]


def _markings(ov: Overlay, occupied: int) -> list[str]:
    """The ``chessboard`` options drawing ``ov`` (fields, frames, letters, arrow) on a
    board whose pieces stand on ``occupied`` (the attacking king's dots avoid them)."""
    out = _style("color", "marked", ov.marked, opacity=0.45)
    out += _style("{[fill]circle}", "below", ov.below & ~ov.marked & ~occupied,
                  padding="-0.42em", linewidth="0.05em")
    out += _style("border", "fence", ov.fence, linewidth="0.12em")
    if not ov.kingmap:
        out += _style("border", "ok", ov.king_mask, linewidth="0.05em")
    role = "kingmap_holds" if ov.kingmap_holds else "kingmap_breaks"
    out += _style("color", role, ov.kingmap, opacity=0.35)
    out += _text("H" if ov.kingmap_holds else "B", role, list(chess.scan_forward(ov.kingmap)),
                 corner=False)
    out += _style("cross", "removed", ov.removed)
    out += _style("border", "kpk", ov.kpk_square, linewidth="0.06em")
    out += _text("K", "kpk", list(chess.scan_forward(ov.kpk_keys)))
    out += _text("F", "fixed", list(chess.scan_forward(ov.fixed)))
    out += _badges(ov)
    if ov.arrow is not None:
        a, b, _san = ov.arrow
        out.append(f"pgfstyle=straightmove, opacity=1, padding=0em, linewidth=0.1em, "
                   f"color={_name('arrow_line')}, "
                   f"markmoves={{{chess.square_name(a)}-{chess.square_name(b)}}}")
    return out


def chessboard_command(board: chess.Board, overlay: Overlay, *, flipped: bool = False) -> str:
    """The ``\\chessboard[...]`` command of ``board`` with ``overlay`` (the position of
    the overlay's own FEN or ghost pawns when it has them)."""
    fen = overlay.fen or board.fen()
    if overlay.ghosts is not None:
        shown = board.copy(stack=False)
        for sq in chess.scan_forward(shown.pieces_mask(chess.PAWN, chess.WHITE)
                                     | shown.pieces_mask(chess.PAWN, chess.BLACK)):
            shown.remove_piece_at(sq)
        for colour, bb in zip((chess.WHITE, chess.BLACK), overlay.ghosts, strict=True):
            for sq in chess.scan_forward(bb):
                shown.set_piece_at(sq, chess.Piece(chess.PAWN, colour))
        fen = shown.fen()
    opts = [f"setfen={{{fen}}}", "showmover=false", "boardfontsize=24pt",
            "labelfontsize=8pt", "labelleft=true", "labelbottom=true"]
    if flipped:
        opts.append("inverse")
    opts += _markings(overlay, chess.Board(fen).occupied)
    return "\\chessboard[%\n  " + ",\n  ".join(opts) + "]"


def _colour(rgb: RGB) -> str:
    return ",".join(str(c) for c in rgb)


def latex_document(board: chess.Board, overlay: Overlay, verdict: Verdict | None, *,
                   flipped: bool = False, caption: str = "") -> str:
    """A complete LaTeX document with the diagram (see the module's docstring)."""
    said = ""
    if verdict is not None:
        side = "White" if verdict.color else "Black"
        said = (f"{side}, {verdict.method}: "
                f"{'blocked' if verdict.blocked else 'not blocked'} ({verdict.rule or '-'})")
    colours = "\n".join(f"\\definecolor{{{_name(r)}}}{{RGB}}{{{_colour(COLOURS[r])}}}"
                        for r in _ROLES)
    comment = "\n".join(f"% {line}" for line in (
        f"pawnfence diagram: {board.fen()}", said, caption) if line)
    return (f"{comment}\n\\documentclass[border=2pt]{{standalone}}\n\\usepackage{{xcolor}}\n"
            "\\usepackage{amssymb}\n\\usepackage{chessboard}\n"
            f"{colours}\n\\begin{{document}}\n{chessboard_command(board, overlay, flipped=flipped)}"
            "\n\\end{document}\n")
