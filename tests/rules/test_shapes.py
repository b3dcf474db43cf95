"""Hand shapes: the table-driven engine against the brute-force reference on random hands."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.notation import parse_hand
from rules.reference import ref_regular_decompositions, ref_shanten, ref_waits, ref_win
from rules.shapes import (
    ALL_SHAPES,
    Shape,
    decompositions,
    is_win,
    regular_decompositions,
    shanten,
    waits,
)
from rules.tiles import counts34, kind_text
from tests.conftest import scaled
from tests.rules.strategies import complete_counts, concealed_counts


def C(text: str) -> list[int]:
    return counts34(parse_hand(text).all_concealed)


def W(text: str, **kw) -> list[str]:
    h = parse_hand(text)
    return [kind_text(k) for k in waits(counts34(h.concealed), len(h.melds), **kw)]


# --- known hands ------------------------------------------------------------------------------------------


def test_nine_gates_waits_on_all_nine():
    assert W("1112345678999m") == [f"{i}m" for i in range(1, 10)]


def test_thirteen_orphans_thirteen_sided_and_single():
    assert len(W("19m19p19s1234567z")) == 13
    assert W("119m19p19s123456z") == ["7z"]


def test_seven_pairs_and_quads():
    assert W("1122m3344p5566s7z") == ["7z"]
    # four identical tiles as two pairs: only where the profile allows it (Sichuan 000 §2.6.1)
    assert "7z" not in W("1111m3344p5566s7z")
    assert "7z" in W("1111m3344p5566s7z", quads_as_two_pairs=True)


def test_fifth_tile_rule_counts_only_concealed_copies():
    # 000 §2.7.4.2, AMB-32: a concealed kong is declared, so [(2222p)] ... 34p waits on 2p and 5p
    assert W("[(2222p)] 34p 567s 123s 99s") == ["2p", "5p"]
    # four concealed copies: never a wait on the fifth
    assert "1m" not in W("1111m234p567s789s")


def test_decompositions_of_an_ambiguous_hand():
    decs = regular_decompositions(C("111222333m456p11z"))
    readings = {d.sets for d in decs}
    assert (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 12)) in readings
    assert (("chow", 12), ("pung", 0), ("pung", 1), ("pung", 2)) in readings
    assert len(readings) == 2


def test_special_shapes():
    d = decompositions(C("147m258p369s11222z"), shapes=ALL_SHAPES)
    assert [x.shape for x in d] == [Shape.KNITTED]
    d = decompositions(C("147m258p369s12345z"), shapes=ALL_SHAPES)
    assert [x.shape for x in d] == [Shape.HONORS_KNITTED]  # lesser honours and knitted tiles
    assert decompositions(C("147m258p369s12345z")) == []  # not in the standard shapes
    d = decompositions(C("19m19p19s11234567z"))
    assert [x.shape for x in d] == [Shape.THIRTEEN_ORPHANS] and d[0].pair == 27


def test_shanten_examples():
    assert shanten(C("123m456p789s1122z")) == 0
    assert shanten(C("123m456p789s11223z")) == 0  # 14 tiles: discarding 3z leaves tenpai
    assert shanten(C("123m456p789s11222z")) == -1
    assert shanten(C("19m19p19s1234567z")) == 0
    assert shanten(C("1m4m7m2p5p8p3s6s9s1z2z3z4z")) >= 5


# --- properties against the reference -----------------------------------------------------------------------


@given(complete_counts())
def test_generated_complete_hands_are_wins(c):
    assert is_win(c)
    assert shanten(c) == -1
    assert set(
        (d.pair, d.sets) for d in regular_decompositions(c)
    ) == ref_regular_decompositions(c)


@given(concealed_counts(size=14))
def test_win_check_matches_reference(c):
    assert is_win(c) == ref_win(c)
    got = {(d.pair, d.sets) for d in regular_decompositions(c)}
    assert got == ref_regular_decompositions(c)


@given(concealed_counts(size=13), st.booleans())
def test_waits_match_reference(c, quads):
    assert waits(c, quads_as_two_pairs=quads) == ref_waits(c, quads_as_two_pairs=quads)


@given(st.integers(1, 4).flatmap(lambda m: st.tuples(st.just(m), concealed_counts(size=13 - 3 * m))))
def test_waits_with_melds_match_reference(mc):
    n_melds, c = mc
    assert waits(c, n_melds) == ref_waits(c, n_melds)


@settings(max_examples=scaled(60, 1500))
@given(concealed_counts(size=13))
def test_shanten_matches_reference(c):
    assert shanten(c) == ref_shanten(c)


@settings(max_examples=scaled(40, 1000))
@given(concealed_counts(size=14))
def test_shanten_of_14_tiles_matches_reference(c):
    assert shanten(c) == ref_shanten(c)


@given(concealed_counts(size=13))
def test_tenpai_iff_shanten_zero_when_no_fifth_tile(c):
    ws = waits(c)
    sh = shanten(c)
    if ws:
        assert sh == 0
    elif sh == 0:
        # tenpai in shape only on a kind the hand already holds four of (no tile left to win on)
        assert any(x == 4 for x in c)


def test_honour_pairs_never_complete_a_set_only_group():
    # regression: three honour pairs once counted as a complete pair-free group
    assert W("789s99s122333z55z") == []
    assert not is_win(C("789s99s1122333z55z"))
