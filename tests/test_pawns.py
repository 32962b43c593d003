"""Tests for logic.pawns against the wiki / paper examples plus exhaustive properties."""

from __future__ import annotations

import dataclasses
import json

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic import pawns as P
from logic.bitboards import BB_ALL, attack_front_span, file_fill, front_fill, pawn_attacks

W, B = chess.WHITE, chess.BLACK
flip = chess.flip_vertical


def bb(names: str) -> int:
    """Bitboard of space-separated square names: bb("a4 f4")."""
    out = 0
    for name in names.split():
        out |= chess.BB_SQUARES[chess.parse_square(name)]
    return out


def files(letters: str) -> int:
    """Whole-file bitboard of the given file letters: files("ae")."""
    out = 0
    for ch in letters:
        out |= chess.BB_FILES[chess.FILE_NAMES.index(ch)]
    return out


def diagram(text: str, count: int = 1) -> list[int]:
    """Parse ``count`` side-by-side 8x8 dot diagrams (rank 8 first); other tokens ignored."""
    toks = [t for t in text.split() if t in (".", "1")]
    assert len(toks) == 64 * count
    boards = [0] * count
    for i, tok in enumerate(toks):
        row, col = divmod(i, 8 * count)
        board, file_ = divmod(col, 8)
        if tok == "1":
            boards[board] |= chess.BB_SQUARES[chess.square(file_, 7 - row)]
    return boards


def pawn_sets(fen: str) -> tuple[int, int]:
    board = chess.Board(fen)
    return board.pieces_mask(chess.PAWN, W), board.pieces_mask(chess.PAWN, B)


# --------------------------------------------------------------------------------------
# "Pawns and Files (Bitboards)" worked examples
# --------------------------------------------------------------------------------------

# The page's "white pawns / black pawns" pair, re-laid out from its flattened text.
FILES_PAWNS = """
. . . . . . . .     . . . . . . . .
. . . . . . . .     . 1 . . . 1 1 .
. . . . . . . .     1 . 1 . . . . 1
. . . . . . . .     . . . 1 . . . .
1 . . . . 1 . .     . . . . . . . .
. . 1 . . . . .     . . . . . . . .
. 1 1 . . . 1 1     . . . . . . . .
. . . . . . . .     . . . . . . . .
"""
FW, FB = diagram(FILES_PAWNS, 2)

# "white file fill & black file fill = closed files" (all ranks identical).
CLOSED_ROW = "1 1 1 . . 1 1 1   1 1 1 1 . 1 1 1   1 1 1 . . 1 1 1\n"
# "~white file fill & ~black file fill = open files"
OPEN_ROW = ". . . 1 1 . . .   . . . . 1 . . .   . . . . 1 . . .\n"
# "white halfopen or open files ^ open files = white halfopen files"
HALF_OPEN_ROW = ". . . 1 1 . . .   . . . . 1 . . .   . . . 1 . . . .\n"
# "white halfopen or open files" / "black halfopen or open files"
HALF_OR_OPEN_ROW = ". . . 1 1 . . .   . . . . 1 . . .\n"


def test_files_page_pawn_sets_reconstructed() -> None:
    assert bb("a4 f4 c3 b2 c2 g2 h2") == FW
    assert bb("b7 f7 g7 a6 c6 h6 d5") == FB


def test_closed_files_worked_example() -> None:
    wfill, bfill, closed = diagram(CLOSED_ROW * 8, 3)
    assert file_fill(FW) == wfill and file_fill(FB) == bfill
    assert wfill & bfill == closed
    assert P.closed_files(FW, FB) == closed == files("abcfgh")
    assert P.closed_file_set(FW, FB) == 0b1110_0111


def test_open_files_worked_example() -> None:
    not_w, not_b, open_ = diagram(OPEN_ROW * 8, 3)
    assert not_w & not_b == open_
    assert P.open_files(FW, FB) == open_ == files("e")
    assert P.open_file_set(FW, FB) == 0b0001_0000


def test_half_open_files_worked_example() -> None:
    w_half_or_open, b_half_or_open = diagram(HALF_OR_OPEN_ROW * 8, 2)
    assert P.half_open_or_open_files(FW) == w_half_or_open == files("de")
    assert P.half_open_or_open_files(FB) == b_half_or_open == files("e")
    w_hoo, open_, w_half = diagram(HALF_OPEN_ROW * 8, 3)
    assert w_hoo ^ open_ == w_half
    assert P.half_open_files(FW, FB) == w_half == files("d")
    assert P.half_open_file_set(FW, FB) == 0b0000_1000
    # Black has a pawn on every file White has, so no black half-open file.
    assert P.half_open_files(FB, FW) == 0


def test_semi_closed_files_example() -> None:
    # Page: white d5, black d4 -- the d-file is closed but both pawns are open.
    w, b = diagram(
        """
        . . . . . . . .   . . . . . . . .
        . . . . . . . .   . . . . . . . .
        . . . . . . . .   . . . . . . . .
        . . . 1 . . . .   . . . . . . . .
        . . . . . . . .   . . . 1 . . . .
        . . . . . . . .   . . . . . . . .
        . . . . . . . .   . . . . . . . .
        . . . . . . . .   . . . . . . . .
        """,
        2,
    )
    assert (w, b) == (bb("d5"), bb("d4"))
    assert P.closed_files(w, b) == files("d")
    assert P.semi_closed_files(w, b) == files("d")
    assert P.semi_closed_file_set(w, b) == 0b0000_1000
    assert P.open_pawns(w, b, W) == w and P.open_pawns(b, w, B) == b
    # In the main example every closed file has opposed pawns.
    assert P.semi_closed_files(FW, FB) == 0
    # One opposed pair on the file is enough to keep it (fully) closed.
    assert P.semi_closed_files(bb("d5 d2"), bb("d4")) == 0
    assert P.semi_closed_files(bb("d5"), bb("d4 d7")) == 0
    assert P.semi_closed_files(bb("d5 e6"), bb("d4 e3")) == files("de")


def test_file_letters_and_square_names() -> None:
    assert P.file_letters(bb("e2 a7")) == ["a", "e"]
    assert P.square_names(bb("e4 a1")) == ["a1", "e4"]
    assert P.file_letters(files("abcfgh")) == list("abcfgh")


# --------------------------------------------------------------------------------------
# "Backward Pawns (Bitboards)" worked examples
# --------------------------------------------------------------------------------------

TELESTOP_FEN = "8/5p2/6p1/p1p3P1/P1P5/7P/1P6/8 w - -"

TELESTOP_STEP1 = """
. . . . 1 . . .     . . . . . . . .     . . . . . . . .
. . . . 1 . . .     . . . . . . . .     . . . . . . . .
. . . . 1 . . .     . . . . 1 . 1 .     . . . . 1 . . .
. . . . 1 1 . 1     . . . . . 1 . 1     . . . . . 1 . 1
. 1 . 1 1 1 . 1  &  . 1 . 1 . . . .     . 1 . 1 . . . .
. 1 . 1 1 1 1 1     . . . . . . . .     . . . . . . . .
1 1 1 1 1 1 1 1     . . . . . . . .     . . . . . . . .
1 1 1 1 1 1 1 1     . . . . . . . .     . . . . . . . .
"""
TELESTOP_STEP2 = """
. . . . . . . .     . . . . . . . .     . . . . . . . .
. . . . . . . .     . . . . . . . .     . . . . . . . .
. . . . 1 . . .     . . . . . . . .     . . . . . . . .
. . . . 1 1 . 1     . . . . . . 1 .     . . . . . . . .
. 1 . 1 1 1 . 1  &  1 . 1 . . . . .     . . . . . . . .
. 1 . 1 1 1 . 1     . . . . . . . 1     . . . . . . . 1
. 1 . 1 1 1 . 1     . 1 . . . . . .     . 1 . . . . . .
. 1 . 1 1 1 . 1     . . . . . . . .     . . . . . . . .
"""


def test_telestop_worked_example() -> None:
    w, b = pawn_sets(TELESTOP_FEN)
    not_spans, b_attacks, dominated = diagram(TELESTOP_STEP1, 3)
    area, w_pawns, result = diagram(TELESTOP_STEP2, 3)
    assert w_pawns == w
    assert BB_ALL & ~attack_front_span(w, W) == not_spans
    assert pawn_attacks(b, B) == b_attacks
    assert not_spans & b_attacks == dominated
    assert front_fill(dominated, B) == area
    assert P.telestop_weak(w, b, W) == result == bb("b2 h3")
    # The plain stop-square test (wBackward) misses both: their stops are safe now.
    assert P.backward(w, b, W) == 0
    # "apply wBackward with so far movable pawns shifted one rank up" agrees here.
    movable = w & ~P.rams(w, b, W)
    moved = (movable << 8 & BB_ALL) | (w & ~movable)
    assert (P.backward(moved, b, W) & movable << 8) >> 8 == bb("b2 h3")


DYNAMIC_FEN = "8/8/1p6/8/p1P1p3/3pP3/1P1P4/8 w - -"


def test_dynamic_backwardness_example() -> None:
    w, b = pawn_sets(DYNAMIC_FEN)
    assert w == bb("c4 e3 b2 d2") and b == bb("b6 a4 e4 d3")
    assert P.rams(w, b, W) == bb("e3 d2")
    assert P.rams(b, w, B) == bb("e4 d3")
    # First pass (wBackward): c4 and a4 escape because of static attack spans.
    assert P.backward(w, b, W) == bb("b2 d2")
    assert P.backward(b, w, B) == bb("b6 e4")
    # Second pass: the page's "white pawn c4, and mutually black pawn a4".
    assert P.dynamic_backward(w, b, W) == bb("b2 d2 c4")
    assert P.dynamic_backward(b, w, B) == bb("b6 e4 a4")
    assert P.dynamic_backward(w, b, W) & ~P.backward(w, b, W) == bb("c4")
    assert P.dynamic_backward(b, w, B) & ~P.backward(b, w, B) == bb("a4")


def test_backward_and_stragglers_small() -> None:
    assert P.backward(bb("d2"), bb("e4"), W) == bb("d2")
    assert P.backward(bb("d2 c2"), bb("e4"), W) == 0  # c2 can still come to support d3
    assert P.backward(bb("d2 c4"), bb("e4"), W) == bb("d2")  # c4 is past d3
    assert P.stragglers(bb("b2"), bb("c4"), W) == bb("b2")
    assert P.stragglers(bb("b2"), bb("c4 b6"), W) == 0  # not an open pawn
    assert P.stragglers(bb("b4"), bb("c6"), W) == 0  # 4th rank
    assert P.backward(bb("b4"), bb("c6"), W) == bb("b4")
    assert P.stragglers(bb("b7"), bb("c5"), B) == bb("b7")
    assert P.stragglers(bb("b6"), bb("c4"), B) == bb("b6")
    assert P.stragglers(bb("b5"), bb("c3"), B) == 0


# --------------------------------------------------------------------------------------
# Simple sets
# --------------------------------------------------------------------------------------


def test_simple_sets() -> None:
    assert P.rams(bb("e4"), bb("e5"), W) == bb("e4")
    assert P.rams(bb("e5"), bb("e4"), B) == bb("e5")
    assert P.rams(bb("e4"), bb("e6"), W) == 0
    assert P.levers(bb("e4"), bb("d5"), W) == bb("e4")
    assert P.levers(bb("d5"), bb("e4"), B) == bb("d5")
    assert P.levers(bb("a4 h4"), bb("h5 a5"), W) == 0  # no wrap-around
    assert P.passed_pawns(bb("e4"), bb("d4"), W) == bb("e4")
    assert P.passed_pawns(bb("e4"), bb("d5"), W) == 0
    assert P.passed_pawns(bb("e4"), bb("e3"), W) == bb("e4")
    assert P.passed_pawns(bb("e5"), bb("f4"), B) == 0
    assert P.open_pawns(bb("e4 d2"), bb("d4"), W) == bb("e4")
    assert P.isolated(bb("a2 c2")) == bb("a2 c2")
    assert P.isolated(bb("a2 b2 d2")) == bb("d2")
    assert P.isolated(bb("a2 h2")) == bb("a2 h2")
    assert P.doubled(bb("e2 e3 d2")) == bb("e2 e3")


# --------------------------------------------------------------------------------------
# Fixed / dynamic pawns (paper section 2.2, Diagram 6)
# --------------------------------------------------------------------------------------

# White a4 c4 e4 e5 fixed, g2 cannot move (own king on g3) but is dynamic.
DIAGRAM6_FEN = "8/4k3/4p3/p1p1P3/P1P1P3/6K1/6P1/8 w - - 0 1"


def test_diagram6_fixed_and_dynamic() -> None:
    board = chess.Board(DIAGRAM6_FEN)
    w, b = pawn_sets(DIAGRAM6_FEN)
    assert not any(m.from_square == chess.G2 for m in board.legal_moves)
    assert P.fixed_pawns(w, b, W) == bb("a4 c4 e4 e5")
    assert P.dynamic_pawns(w, b, W) == bb("g2")
    assert P.fixed_pawns(b, w, B) == bb("a5 c5 e6")
    ps = P.analyse(board)
    assert ps.white.fixed == bb("a4 c4 e4 e5") and ps.white.dynamic == bb("g2")


def test_fixed_pawns_capture_breaks_fixation() -> None:
    # A black pawn on d5 gives c4 and e4 a capture: both become dynamic, and the
    # chain e4-e5 is cut at e4 although e5 stays fixed.
    w, b = bb("a4 c4 e4 e5 g2"), bb("a5 c5 e6 d5")
    assert P.fixed_pawns(w, b, W) == bb("a4 e5")
    # e5 is a lever against d6 -> e5 dynamic, so e4 (blocked by a dynamic pawn) too.
    assert P.fixed_pawns(bb("e4 e5"), bb("e6 d6"), W) == 0
    # Long own chain behind a ram, broken by a gap.
    assert P.fixed_pawns(bb("h2 h3 h4 h6"), bb("h7"), W) == bb("h6")
    assert P.fixed_pawns(bb("h2 h3 h4 h5"), bb("h6"), W) == bb("h2 h3 h4 h5")
    assert P.fixed_pawns(bb("h7 h6 h5"), bb("h4"), B) == bb("h7 h6 h5")


# --------------------------------------------------------------------------------------
# Aggregate
# --------------------------------------------------------------------------------------


def test_analyse_board_vs_bitboards_and_to_dict() -> None:
    board = chess.Board(DYNAMIC_FEN)
    ps = P.analyse(board)
    assert ps == P.PawnStructure.analyse(pawn_sets(DYNAMIC_FEN))
    assert ps.side(W) is ps.white and ps.side(B) is ps.black
    with pytest.raises(dataclasses.FrozenInstanceError):
        ps.closed_files = 0  # type: ignore[misc]
    d = json.loads(json.dumps(ps.to_dict()))
    assert d["white"]["dynamic_backward"] == ["b2", "d2", "c4"]
    assert d["black"]["dynamic_backward"] == ["a4", "e4", "b6"]
    assert d["white"]["rams"] == ["d2", "e3"]
    assert d["files"]["closed"] == ["b", "d", "e"]
    assert d["files"]["white_half_open"] == ["a"]
    assert d["files"]["black_half_open"] == ["c"]
    assert len(d["file_squares"]["closed"]) == 24
    start = P.analyse(chess.Board())
    assert start.open_files == 0 and start.closed_files == BB_ALL
    assert start.white.fixed == 0 and start.white.dynamic == chess.BB_RANK_2
    with pytest.raises(ValueError):
        P.analyse((bb("e4"), bb("e4")))


# --------------------------------------------------------------------------------------
# Properties: symmetry, bounds, brute-force references
# --------------------------------------------------------------------------------------

INNER = chess.BB_ALL & ~(chess.BB_RANK_1 | chess.BB_RANK_8)

COLOURED = [
    P.rams,
    P.levers,
    P.passed_pawns,
    P.open_pawns,
    P.fixed_pawns,
    P.dynamic_pawns,
    P.backward,
    P.stragglers,
    P.telestop_weak,
    P.dynamic_backward,
]
OWN_OPP = [P.half_open_files, P.half_open_file_set]
W_B = [P.closed_files, P.open_files, P.semi_closed_files]
SINGLE = [P.isolated, P.doubled, P.half_open_or_open_files]


@st.composite
def positions(draw: st.DrawFn, mask: int = INNER) -> tuple[int, int]:
    w = draw(st.integers(0, BB_ALL)) & mask
    b = draw(st.integers(0, BB_ALL)) & mask & ~w
    # Sparser sets too, to hit passed/open/backward patterns more often.
    if draw(st.booleans()):
        w &= draw(st.integers(0, BB_ALL))
        b &= draw(st.integers(0, BB_ALL))
    return w, b


@settings(max_examples=400, deadline=None)
@given(positions())
def test_colour_flip_symmetry(pos: tuple[int, int]) -> None:
    w, b = pos
    fw, fb = flip(w), flip(b)
    for f in COLOURED:
        assert f(b, w, B) == flip(f(fb, fw, W)), f.__name__
        assert f(w, b, W) == flip(f(fw, fb, B)), f.__name__
    for f in OWN_OPP:
        assert f(b, w) == f(fb, fw), f.__name__
    for f in W_B:
        assert f(w, b) == flip(f(fb, fw)) == f(fb, fw), f.__name__
    for f in SINGLE:
        assert f(b) == flip(f(fb)), f.__name__
    ps, pf = P.analyse((w, b)), P.analyse((fb, fw))
    for field in dataclasses.fields(P.SidePawns):
        assert getattr(ps.black, field.name) == flip(getattr(pf.white, field.name))
        assert getattr(ps.white, field.name) == flip(getattr(pf.black, field.name))


@settings(max_examples=300, deadline=None)
@given(positions(mask=BB_ALL), st.booleans())
def test_results_within_64_bits(pos: tuple[int, int], color: bool) -> None:
    own, opp = pos
    for f in COLOURED:
        r = f(own, opp, color)
        assert 0 <= r <= BB_ALL, f.__name__
        assert r & ~own == 0, f.__name__  # pawn properties are subsets of own pawns
    for f in OWN_OPP + W_B:
        assert 0 <= f(own, opp) <= BB_ALL, f.__name__
    for f in SINGLE:
        assert 0 <= f(own) <= BB_ALL, f.__name__
    for f in (P.closed_file_set, P.open_file_set, P.semi_closed_file_set):
        assert 0 <= f(own, opp) <= 0xFF


@settings(max_examples=400, deadline=None)
@given(positions(), st.booleans())
def test_fixed_pawn_invariants(pos: tuple[int, int], color: bool) -> None:
    own, opp = pos
    fixed = P.fixed_pawns(own, opp, color)
    assert fixed & ~own == 0
    assert P.dynamic_pawns(own, opp, color) == own & ~fixed
    step = 8 if color else -8
    for sq in chess.scan_forward(own):
        front = sq + step
        blocked = 0 <= front < 64 and bool(chess.BB_SQUARES[front] & (opp | fixed))
        captures = bool(chess.BB_PAWN_ATTACKS[color][sq] & opp)
        # Fixed exactly when blocked by opp/fixed and unable to capture (a fixpoint),
        if fixed >> sq & 1:
            assert blocked and not captures, chess.square_name(sq)
        else:
            assert not blocked or captures, chess.square_name(sq)
    # ... and the least one: it equals the naive square-by-square iteration.
    assert fixed == ref_fixed(own, opp, color)


# Brute-force, square-by-square reference implementations.


def _front(sq: int, color: bool) -> int | None:
    t = sq + (8 if color else -8)
    return t if 0 <= t < 64 else None


def _ahead(a: int, b: int, color: bool) -> bool:
    """Is square ``b`` on a rank strictly ahead of ``a`` from ``color``'s view?"""
    return (
        chess.square_rank(b) > chess.square_rank(a)
        if color
        else (chess.square_rank(b) < chess.square_rank(a))
    )


def _opp_attacks(sq: int, opp: int, color: bool) -> bool:
    return bool(chess.BB_PAWN_ATTACKS[color][sq] & opp)


def _in_spans(t: int, sources: int, color: bool) -> bool:
    return any(
        abs(chess.square_file(p) - chess.square_file(t)) == 1 and _ahead(p, t, color)
        for p in chess.scan_forward(sources)
    )


def ref_fixed(own: int, opp: int, color: bool) -> int:
    fixed = 0
    changed = True
    while changed:
        changed = False
        for sq in chess.scan_forward(own & ~fixed):
            t = _front(sq, color)
            if t is None or _opp_attacks(sq, opp, color):
                continue
            if chess.BB_SQUARES[t] & (opp | fixed):
                fixed |= chess.BB_SQUARES[sq]
                changed = True
    return fixed


def ref_backward(own: int, opp: int, color: bool, span_sources: int | None = None) -> int:
    sources = own if span_sources is None else span_sources
    out = 0
    for sq in chess.scan_forward(own):
        t = _front(sq, color)
        if t is not None and _opp_attacks(t, opp, color) and not _in_spans(t, sources, color):
            out |= chess.BB_SQUARES[sq]
    return out


def ref_telestop(own: int, opp: int, color: bool) -> int:
    out = 0
    for sq in chess.scan_forward(own):
        for t in chess.SquareSet(chess.BB_FILES[chess.square_file(sq)]):
            if (
                (t == sq or _ahead(sq, t, color))
                and _opp_attacks(t, opp, color)
                and not (_in_spans(t, own, color))
            ):
                out |= chess.BB_SQUARES[sq]
    return out


def ref_rams(own: int, opp: int, color: bool) -> int:
    out = 0
    for sq in chess.scan_forward(own):
        t = _front(sq, color)
        if t is not None and chess.BB_SQUARES[t] & opp:
            out |= chess.BB_SQUARES[sq]
    return out


def ref_passed_open(own: int, opp: int, color: bool) -> tuple[int, int]:
    passed = open_ = 0
    for sq in chess.scan_forward(own):
        ahead = [o for o in chess.scan_forward(opp) if _ahead(sq, o, color)]
        df = [abs(chess.square_file(o) - chess.square_file(sq)) for o in ahead]
        if all(d > 1 for d in df):
            passed |= chess.BB_SQUARES[sq]
        if all(d != 0 for d in df):
            open_ |= chess.BB_SQUARES[sq]
    return passed, open_


@settings(max_examples=400, deadline=None)
@given(positions(), st.booleans())
def test_against_brute_force(pos: tuple[int, int], color: bool) -> None:
    own, opp = pos
    rams = ref_rams(own, opp, color)
    assert P.rams(own, opp, color) == rams
    levers = sum(
        chess.BB_SQUARES[sq]
        for sq in chess.scan_forward(own)
        if chess.BB_PAWN_ATTACKS[color][sq] & opp
    )
    assert P.levers(own, opp, color) == levers
    passed, open_ = ref_passed_open(own, opp, color)
    assert P.passed_pawns(own, opp, color) == passed
    assert P.open_pawns(own, opp, color) == open_
    back = ref_backward(own, opp, color)
    assert P.backward(own, opp, color) == back
    rel = (chess.BB_RANK_2 | chess.BB_RANK_3) if color else (chess.BB_RANK_7 | chess.BB_RANK_6)
    assert P.stragglers(own, opp, color) == back & open_ & rel
    assert P.telestop_weak(own, opp, color) == ref_telestop(own, opp, color)
    movable = own & ~back & ~rams
    dyn = ref_backward(own, opp, color, span_sources=movable)
    assert P.dynamic_backward(own, opp, color) == dyn
    assert back & ~dyn == 0  # the second pass only adds pawns
    w, b = (own, opp) if color else (opp, own)
    for f in range(8):
        wf, bf = w & chess.BB_FILES[f], b & chess.BB_FILES[f]
        file_ = chess.BB_FILES[f]
        assert bool(P.closed_files(w, b) & file_) == bool(wf and bf)
        assert bool(P.open_files(w, b) & file_) == (not wf and not bf)
        assert bool(P.half_open_files(w, b) & file_) == (not wf and bool(bf))
        all_open = wf & P.open_pawns(w, b, W) == wf and bf & P.open_pawns(b, w, B) == bf
        assert bool(P.semi_closed_files(w, b) & file_) == bool(wf and bf and all_open)
