"""The detectors against the paper's and wiki's stated verdicts, and the API contract."""

from __future__ import annotations

import json

import chess
import pytest

import logic
from logic.diagrams import load_diagrams

DIAGRAMS = load_diagrams()
CASES = [(d, m) for d in DIAGRAMS for m in logic.STATIC_METHODS if d.expect.get(m) is not None]


def test_library_has_the_required_diagrams() -> None:
    ids = {d.id for d in DIAGRAMS}
    for n in (5, 9, 10, 11, 12, 13, 14, 16):
        assert f"paper-{n}" in ids
    assert "wiki-1" in ids
    assert all(d.caption and d.source for d in DIAGRAMS)


@pytest.mark.parametrize(("diagram", "method"), CASES, ids=[f"{d.id}-{m}" for d, m in CASES])
def test_stated_verdicts(diagram, method: str) -> None:
    exp = diagram.expect[method]
    v = logic.detect(diagram.board(), exp.side, method=method, trace=True)
    if exp.blocked is None:
        assert v.status != "ok" and not v.blocked
    else:
        assert v.blocked is exp.blocked, v.reason
    assert v.rule == exp.rule, v.reason


def test_paper_fence_lines_match_the_captions() -> None:
    """Diagrams 9-16 say "The fence line is a4-b4-...-h4"."""
    rank4 = chess.BB_RANK_4
    for d in DIAGRAMS:
        if "fence line is a4-b4-c4-d4-e4-f4-g4-h4" in d.caption:
            v = logic.detect(d.board(), chess.WHITE)
            assert v.fence == rank4, d.id
    wiki = next(d for d in DIAGRAMS if d.id == "wiki-1")
    fence = logic.detect(wiki.board(), chess.WHITE).fence
    names = ["a4", "b4", "c4", "c5", "d5", "e5", "f5", "g5", "g4", "h4"]
    assert chess.SquareSet(fence) == chess.SquareSet([chess.parse_square(s) for s in names])


def test_diagram_15_categories() -> None:
    """Paper 3.3: e2 stopped by e4, g2 reaches g4 (3.2 holds), b2 engages c4 after b3."""
    d = next(d for d in DIAGRAMS if d.id == "paper-15")
    notes = {chess.square_name(n.square): n for n in logic.detect(d.board(), True).pawns}
    assert notes["e2"].ok and "stopped by the White pawn on e4" in notes["e2"].reason
    assert notes["g2"].ok and notes["g2"].rule == "paper 3.2"
    assert not notes["b2"].ok and "b3" in notes["b2"].reason


def test_trace_is_ordered_frozen_and_json_serialisable() -> None:
    board = chess.Board("4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1")
    for method in logic.STATIC_METHODS:
        for color in chess.COLORS:
            v = logic.detect(board, color, method=method, trace=True)
            assert v.steps and v.steps[-1].kind == "verdict"
            text = json.dumps(v.to_dict())
            again = json.loads(text)
            assert again["blocked"] == v.blocked
            assert [logic.Step.from_dict(s) for s in again["steps"]] == list(v.steps)
            with pytest.raises(AttributeError):
                v.steps[0].kind = "x"  # type: ignore[misc]
            for s in v.steps:
                assert s.section and s.text and s.phase
    kinds = [s.kind for s in logic.detect(board, True, trace=True).steps]
    assert kinds[:3] == ["mark-fixed", "mark-attacks", "dfs-start"]
    assert "dfs-found" in kinds and "classify" in kinds
    flood = [s.kind for s in logic.detect(board, True, method="flood", trace=True).steps]
    assert "flood-cycle" in flood and "flood-stop" in flood


def test_trace_records_backtracks_and_drownings() -> None:
    # Diagram 3: the DFS enters d6 and backtracks; the flood drowns g4.
    board = chess.Board("4k3/2p5/1p2p1p1/p1p1P1P1/P1P3p1/1P6/5PK1/8 b - - 0 1")
    paper = logic.detect(board, True, trace=True)
    assert any(s.kind == "dfs-backtrack" and s.square == chess.D6 for s in paper.steps)
    assert any(s.kind == "remove-below" and s.changed == chess.BB_G4 for s in paper.steps)
    flood = logic.detect(board, True, method="flood", trace=True)
    drown = [s for s in flood.steps if s.kind == "flood-drown"]
    assert drown and drown[0].changed == chess.BB_G4 and "g4 drowned" in drown[0].phase


def test_trace_matches_fast_path() -> None:
    for d in DIAGRAMS:
        for method in logic.STATIC_METHODS:
            for color in chess.COLORS:
                fast = logic.detect(d.board(), color, method=method)
                traced = logic.detect(d.board(), color, method=method, trace=True)
                assert fast._replace(steps=()) == traced._replace(steps=())


def test_pieces_and_illegal_positions_get_a_verdict() -> None:
    v = logic.detect(chess.Board(), chess.WHITE)
    assert v.status == "pieces" and not v.blocked and "pieces other than kings" in v.reason
    illegal = chess.Board("4k3/8/8/8/8/8/8/4K2P w - - 0 1")  # pawn on the back rank
    v = logic.detect(illegal, chess.WHITE, trace=True)
    assert v.status == "illegal" and "pawns on backrank" in v.reason
    no_king = chess.Board("8/8/8/8/8/8/P7/4K3 w - - 0 1")
    assert logic.detect(no_king, chess.BLACK).status == "illegal"
    check = chess.Board("8/8/8/8/3k4/4P3/8/4K3 w - - 0 1")  # side not to move in check
    assert "opposite check" in logic.detect(check, chess.WHITE).reason


def test_pieces_on_the_same_squares_are_told_apart() -> None:
    """A knight and a bishop on the same square occupy the same bitboards the
    per-board cache keys on: each board still names its own piece."""
    knight = chess.Board("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1")
    bishop = chess.Board("4k3/8/8/8/8/8/4P3/4K1B1 w - - 0 1")
    assert logic.detect(knight, chess.WHITE).args == ("N",)
    assert logic.detect(bishop, chess.WHITE).args == ("B",)
    assert logic.detect(bishop, chess.BLACK, method="flood").args == ("B",)


def test_malformed_requests_raise_value_errors() -> None:
    with pytest.raises(ValueError, match="unknown method 'dfs'"):
        logic.detect(chess.Board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), True, method="dfs")
    with pytest.raises(ValueError, match="needs a chess.Board"):
        logic.detect("8/8/8/8/8/8/8/8 w - -", True)  # type: ignore[arg-type]
    with pytest.raises(logic.PositionError, match="not-a-fen"):
        logic.parse_position("not-a-fen")


def test_bitboard_entry_points_name_the_static_methods() -> None:
    """``is_blocked`` raised a bare KeyError for an unknown method and, like
    ``detect_bitboards``, an empty NotImplementedError for ``"exact"`` (which decides
    whole boards): both are DetectErrors naming the static methods now."""
    static = ", ".join(logic.STATIC_METHODS)
    for method in ("bogus", "exact", ["paper"]):
        with pytest.raises(logic.DetectError, match=static) as info:
            logic.is_blocked(0, 0, 4, 60, True, method)
        assert repr(method) in str(info.value)
        with pytest.raises(logic.DetectError, match=static) as info:
            logic.detect_bitboards(0, 0, 4, 60, True, method=method)
        assert repr(method) in str(info.value)
    assert logic.is_blocked(0, 0, 4, 60, True, "flood")  # no pawns: cannot win


def test_no_pawns_cannot_win() -> None:
    board = chess.Board("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1")
    v = logic.detect(board, chess.WHITE)
    assert v.blocked and v.rule == "material"
    assert not logic.detect(board, chess.BLACK).blocked


def _titled(rule: object) -> bool:
    """Whether ``rule`` is a Rule with a heading that a registered method (or the shared
    family) introduces."""
    known = {r for m in logic.METHODS.values() for r in m.rules} | set(logic.SharedRule)
    return isinstance(rule, logic.Rule) and bool(rule.heading) and rule in known


def test_rules_have_titles_and_headlines() -> None:
    for d in DIAGRAMS:
        for method in logic.STATIC_METHODS:
            v = logic.detect(d.board(), True, method=method)
            assert _titled(v.rule), v.rule
            assert isinstance(v.status, logic.Status) and isinstance(v.code, logic.Code)
            assert v.headline.startswith("White")
    # the exact prover's verdicts too, a proof or out of budget ("unknown")
    board = chess.Board("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")
    proved = logic.detect(board, chess.WHITE, method="exact")
    assert (proved.rule, proved.status) == ("exact", "ok") and _titled(proved.rule)
    hard = chess.Board("8/2k5/6p1/p1p1p1p1/P1P1P1PP/8/5K2/8 w - -")
    unknown = logic.detect(hard, chess.WHITE, method="exact", seconds=0.0)
    assert unknown.status == "unknown" and not unknown.blocked and _titled(unknown.rule)


def test_cache_hits_and_clear() -> None:
    board = chess.Board("4k3/8/3pPp2/1p1P1P1p/1P5P/5P2/3K4/8 w - - 0 1")
    first = logic.detect(board, True)
    assert logic.detect(board, True) is first
    # the first call decided both colours: Black's verdict is a cache hit too
    black = logic.detect(board, False)
    assert logic.detect(board, False) is black
    info = logic.cache_info()
    assert info["verdicts"] == 2 and info["structures"] == 2
    # another king placement, same pawns: both structure analyses are reused (paper 4)
    moved = board.copy()
    moved.remove_piece_at(chess.D2)
    moved.set_piece_at(chess.C2, chess.Piece(chess.KING, chess.WHITE))
    assert logic.detect(moved, True).blocked
    assert logic.cache_info()["structure_hits"] == 2
    logic.clear_cache()
    assert logic.cache_info() == {"structures": 0, "verdicts": 0, "structure_hits": 0}


def test_ccl_cross_check_agrees_with_the_fence_on_the_diagrams() -> None:
    """Paper 2.3: when the DFS fence holds with the kings on their sides, connected-
    component labelling gives the kings different labels."""
    for d in DIAGRAMS:
        board = d.board()
        if board.occupied != board.pawns | board.kings:
            continue
        for color in chess.COLORS:
            v = logic.detect(board, color, trace=True)
            ccl = [s for s in v.steps if s.kind == "ccl"]
            assert len(ccl) == 1, d.id
            king = board.king(color)
            assert ccl[0].board("region") >> king & 1
            if v.fence and v.code not in ("king-not-below", "defender-below"):
                assert "different regions" in ccl[0].text, (d.id, color)


def test_deferred_verdict_is_the_full_verdict() -> None:
    """A side the pre-fence shortcuts rule out gets a deferred verdict: not blocked at
    once, everything else computed on first read and equal to the traced analysis."""
    import copy
    import pickle

    # White's king on h8 is above every square it cannot enter on the h-file
    board = chess.Board("7K/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/k7 w - - 0 1")
    logic.clear_cache()
    v = logic.detect(board, chess.WHITE)
    assert v.is_deferred and not v.blocked
    traced = logic.detect(board, chess.WHITE, trace=True)
    assert (v.rule, v.code, v.args) == (traced.rule, traced.code, traced.args)
    assert v.fence == traced.fence and v.reason == traced.reason and v.pawns == traced.pawns
    full = traced._replace(steps=())
    assert v == full and full == v and (v != full) is False and hash(v) == hash(full)
    assert not v.is_deferred and repr(v) == repr(full)
    assert pickle.loads(pickle.dumps(v)) == full
    assert v._replace(steps=()) == full and v._asdict() == full._asdict()
    assert v.to_dict() == full.to_dict()
    assert json.loads(json.dumps(v.to_dict(steps=False)))["rule"] == "paper 2.3"
    # a verdict still deferred pickles and copies complete; it is no tuple
    logic.clear_cache()
    fresh = logic.detect(board, chess.WHITE)
    assert fresh.is_deferred and pickle.loads(pickle.dumps(fresh)) == full
    logic.clear_cache()
    fresh = logic.detect(board, chess.WHITE)
    assert copy.copy(fresh) == full and fresh._asdict() == full._asdict()
    assert not isinstance(fresh, tuple)
    with pytest.raises(AttributeError):
        fresh.no_such_field  # noqa: B018


#: Issue 17: Black to move wins by 1...bxa5! (Stockfish: mate in 14 after 1...bxa5 2. Kf2
#: a4 3. bxa4 b3), yet both methods called Black blocked: b6 can take the white pawn on a5,
#: which stands below the fence and was removed (paper 3) / drowned (wiki flood).
ISSUE_17 = "k7/8/1p6/P4p1p/1p1p1P1p/1P1P3P/6K1/8 b - - 0 1"


@pytest.mark.parametrize("method", logic.STATIC_METHODS)
def test_a_pawn_that_can_capture_a_removed_pawn_is_no_blockage(method: str) -> None:
    board = chess.Board(ISSUE_17)
    for trace in (False, True):
        v = logic.detect(board, chess.BLACK, method=method, trace=trace)
        assert not v.blocked
        assert v.code == "capture" and v.rule == ("wiki dynamic" if method == "flood"
                                                  else "paper 3")
        assert v.reason.startswith("b6 can take a5: the structure changes, no blockage")
    steps = logic.detect(board, chess.BLACK, method=method, trace=True).steps
    capture = [s for s in steps if s.kind == "capture"]
    assert len(capture) == 1 and capture[0].square == chess.B6
    assert capture[0].changed == chess.BB_B6 | chess.BB_A5
    assert "b6 can take a5" in capture[0].text


def test_recomputed_fence_steps_say_what_joined_and_left() -> None:
    """After a removal (paper) or a drowning (flood) the trace records the recomputed
    fence as a difference: boards ``joined`` and ``left`` and the fact ``unchanged``; the
    paper's identical search is one step, not a replay."""
    d3 = chess.Board("4k3/2p5/1p2p1p1/p1p1P1P1/P1P3p1/1P6/5PK1/8 b - - 0 1")
    paper = logic.detect(d3, chess.WHITE, trace=True)
    kinds = [s.kind for s in paper.steps]
    k = kinds.index("fence-recomputed")
    assert kinds[k - 1] == "remove-below" and kinds.count("dfs-start") == 1
    step = paper.steps[k]
    assert step.fact("unchanged") is True and step.board("fence") == paper.fence
    assert step.board("joined") == step.board("left") == 0
    assert paper.steps[k - 1].board("removed_now") == chess.BB_G4
    flood = logic.detect(d3, chess.WHITE, method="flood", trace=True)
    drown = next(s for s in flood.steps if s.kind == "flood-drown")
    assert drown.fact("unchanged") is False and drown.board("drowned_now") == chess.BB_G4
    assert drown.board("left") == chess.BB_F3 | chess.BB_H3 and drown.board("joined") == 0
    changed = logic.detect(chess.Board("2K5/p7/P1p5/p1P3P1/1p4k1/1P1pp1p1/3PP1P1/8 w - - 0 1"),
                           chess.WHITE, trace=True)
    step = next(s for s in changed.steps if s.kind == "fence-recomputed")
    assert step.fact("unchanged") is False
    assert step.board("joined") == chess.BB_A3
    assert step.board("left") == chess.BB_A6 | chess.BB_B4 | chess.BB_B5 | chess.BB_B6
    assert [s.kind for s in changed.steps].count("dfs-start") == 3  # a different search
    black = logic.detect(d3.mirror(), chess.BLACK, method="flood", trace=True)  # flipped back
    drown = next(s for s in black.steps if s.kind == "flood-drown")
    assert drown.board("left") == chess.BB_F6 | chess.BB_H6


class _Never(logic.Method):
    """A custom method with only the documented abstract interface: never blocked."""

    name = "test-never"
    label = "never (test)"
    title = "a test method"

    def verdict(self, w: int, b: int, wk: int, bk: int, color: bool) -> logic.Verdict:
        from logic.records import NO_BOARDS

        return logic.Verdict(color=color, method=self.name, blocked=False, rule="never",
                             status="ok", code="never", args=(), raw=NO_BOARDS, notes=(),
                             kings=(wk, bk))

    def pair(self, w: int, b: int, wk: int, bk: int) -> tuple[logic.Verdict, logic.Verdict]:
        from logic.bitboards import orient

        return (self.verdict(*orient(w, b, wk, bk, False), False),
                self.verdict(w, b, wk, bk, True))

    def analyse(self, w: int, b: int, wk: int, bk: int, color: bool, rec) -> logic.Verdict:
        rec.add("verdict", "never", "verdict", "never blocked.")
        return self.verdict(w, b, wk, bk, color)._replace(steps=tuple(rec.steps))

    def is_blocked(self, w: int, b: int, wk: int, bk: int, color: bool) -> bool:
        return False


@pytest.fixture
def never_method():
    from logic.registry import register

    method = register(_Never())
    try:
        yield method
    finally:
        logic.METHODS.pop(method.name, None)
        logic.STATIC_METHODS.pop(method.name, None)


def test_a_custom_method_works_with_detect(never_method) -> None:
    """A subclass of ``logic.Method`` implementing only the documented abstract methods is
    one registration away from ``detect`` (it had to know of a ``boards`` cache and a
    ``full_verdict`` before)."""
    board = chess.Board("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")
    for color in chess.COLORS:
        v = logic.detect(board, color, method="test-never")
        assert (v.method, v.blocked, v.rule, v.status) == ("test-never", False, "never", "ok")
        assert v.headline.startswith(("White", "Black"))
        traced = logic.detect(board, color, method="test-never", trace=True)
        assert traced._replace(steps=()) == v and [s.kind for s in traced.steps] == ["verdict"]
    assert logic.detect(chess.Board(), True, method="test-never").status == "pieces"
    logic.clear_cache()
    assert logic.cache_info() == {"structures": 0, "verdicts": 0, "structure_hits": 0}
    deferred = logic.Verdict.deferred(True, "test-never", (0, 0, 4, 60))
    assert deferred.rule == "never" and deferred == never_method.verdict(0, 0, 4, 60, True)


@pytest.mark.parametrize("method", ["paper", "flood", "extended"])
def test_a_black_run_says_once_that_above_is_seen_from_blacks_side(method: str) -> None:
    """On a board drawn with White below, Black's "above the fence" lies lower down: a
    teacher read "g4 above the fence" against the picture.  The first step of a Black
    run says whose view the words are (and only that step; White's runs say nothing)."""
    board = chess.Board("4k3/2p5/1p2p1p1/p1p1P1P1/P1P3p1/1P6/5PK1/8 b - - 0 1")  # Diagram 3
    black = logic.detect(board, chess.BLACK, method=method, trace=True).steps
    assert "seen from Black's side: above the fence is towards rank 1" in black[0].text
    assert not any("seen from Black's side" in s.text for s in black[1:])
    white = logic.detect(board, chess.WHITE, method=method, trace=True).steps
    assert not any("seen from" in s.text for s in white)
