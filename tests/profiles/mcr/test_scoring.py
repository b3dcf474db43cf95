"""Scoring rules beyond the vectors: the principles, the minimum, context, options, the tile set."""
from __future__ import annotations

from collections import Counter

import pytest

from rules.notation import parse_hand
from rules.profiles import registry
from rules.profiles.mcr.fan_table import BY_NO, FAN_DEFS
from rules.profiles.mcr.options import GREEN_BOOK, MCROptions
from rules.profiles.mcr.principles import chow_fans, exclusion_table, pung_fans
from rules.profiles.mcr.profile import MCR
from rules.scoring import ContextError

P = MCR()


def fans(text: str, p: MCR = P, **ctx) -> Counter:
    s = p.evaluate(parse_hand(text), p.context(ctx))
    assert not isinstance(s, str), s
    return Counter({BY_NO[no].name: n for no, n in s.fans.items()})


def score(text: str, p: MCR = P, **ctx):
    return p.score_checked(parse_hand(text), p.context(ctx))


def k(text: str) -> int:
    from rules.tiles import Tile

    return Tile.parse(text).kind


# --- the fan table --------------------------------------------------------------------------------------


def test_fan_table_is_complete_and_consistent():
    assert [f.no for f in FAN_DEFS] == list(range(1, 82))
    assert len({f.name for f in FAN_DEFS}) == 81
    assert {f.value for f in FAN_DEFS} == {88, 64, 48, 32, 24, 16, 12, 8, 6, 4, 2, 1}  # 003 L184
    for f in FAN_DEFS:
        assert f.definition and f.seed_line
        for x in f.all_excludes:
            assert 1 <= x <= 81 and x != f.no
    assert BY_NO[20].value == 24 and BY_NO[34].value == 12  # spec §12 A1


def test_registry_gives_both_profiles():
    assert registry.get("mcr").name == "mcr"
    assert registry.get("mcr-siamese").name == "mcr-siamese"


# --- combination principles ---------------------------------------------------------------------------------


def test_non_identical_a_chow_forms_one_fan_of_a_name():
    # 123m 123m 123p (+ 789s): Pure Double Chow + one Mixed Double Chow, not two (003 §Подсчёт 1e(3))
    got = Counter(chow_fans(tuple(sorted((k("1m"), k("1m"), k("1p"), k("7s")))), k("5s")))
    assert got == Counter({69: 1, 70: 1})


def test_account_once_four_chows_give_at_most_three_two_chow_fans():
    got = chow_fans(tuple(sorted((k("1m"), k("7m"), k("1s"), k("7s")))), k("5p"))
    # 123m 789m 123s 789s with 55p is Three-Suited Terminal Chows; with another pair: three 1-fan fans
    assert got == (29,)
    got = chow_fans(tuple(sorted((k("1m"), k("7m"), k("1s"), k("7s")))), k("2p"))
    assert len(got) == 3 and set(got) <= {70, 72}


def test_non_separation_four_chow_fan_takes_all():
    assert chow_fans((k("1m"), k("2m"), k("3m"), k("4m")), k("1m")) == (16,)
    assert chow_fans((k("4m"),) * 4, k("1m")) == (14,)


def test_three_chow_fan_plus_one_two_chow_fan_with_the_free_chow():
    # #28 example 1: 123m 456m 789m + 123m: Pure Straight and one of PDC / SS / TTC
    got = chow_fans(tuple(sorted((k("1m"), k("4m"), k("7m"), k("1m")))), k("7m"))
    assert got[0] == 28 and len(got) == 2 and got[1] in (69, 71, 72)


def test_pung_combinations():
    assert pung_fans(tuple(sorted((k("2p"), k("3s"), k("3p"), k("4m"))))) == (42, 65)  # #42 example 1
    assert Counter(pung_fans(tuple(sorted((k("6m"), k("6s"), k("8s"), k("8m")))))) == Counter({65: 2})  # #21 ex 3
    assert pung_fans((k("1p"), k("2p"), k("3p"), k("4p"))) == (15,)


def test_exclusions_hold_in_every_result():
    excl = exclusion_table(P.options)
    for text, ctx in [
        ("111z222z333z444z7z + 7z", {}),
        ("1112345678999m + 9m", {"self_drawn": True}),
        ("19m19p19s1234567z + 1p", {"self_drawn": True}),
        ("2233445566778p + 8p", {}),
    ]:
        s = P.evaluate(parse_hand(text), P.context(ctx))
        for no in s.fans:
            assert not (excl[no] & set(s.fans)), (text, no)


# --- 8-fan minimum and flowers ----------------------------------------------------------------------------


def test_below_eight_is_a_false_hu_and_flowers_do_not_count():
    # Pung of Terminals or Honors (a cold wind) + Mixed Double Chow = 2 fan, eight flowers do not help
    r = score("34s55s [234m] [456p] [111z] + 2s | 1f 2f 3f 4f 5f 6f 7f 8f", seat_wind="3z", round_wind="3z")
    assert not r.valid and r.reason.startswith("false hu")
    assert r.to_json()["hand_fan"] < 8 and r.to_json()["flower_fan"] == 8
    assert "15 tiles" in score("123m456p789s11z [456s] + 1z").reason


def test_flowers_add_after_the_minimum():
    r = score("34p77z [123p] [444s] [789m] + 2p | 1f 5f")
    assert r.valid and r.total_fan == 10
    assert [(f.name, f.count) for f in r.fans] == [("Chicken Hand", 1), ("Flower Tiles", 2)]
    assert r.points == {"total": 24 + 10, "discarder": 18, "each_other": 8}


def test_flower_replacement_scores_self_drawn_not_replacement():
    base = "234m456p34s55z [(7777z)] [111z] + 2s"
    got = fans(base, self_drawn=True, kong_replacement=True)
    assert got["Out with Replacement Tile"] == 1 and not got["Self-Drawn"]
    got = fans(base, self_drawn=True, kong_replacement=True, flower_replacement=True)
    assert not got["Out with Replacement Tile"] and got["Self-Drawn"] == 1  # 003 #81


# --- context ------------------------------------------------------------------------------------------------


def test_context_contradictions_are_reasons():
    assert "robbing" in score("34s55z [234m] [456p] [111z] + 2s", self_drawn=True, robbing_kong=True).reason
    assert "self-drawn" in score("34s55z [234m] [456p] [111z] + 2s", kong_replacement=True).reason
    assert "wind" in score("34s55z [234m] [456p] [111z] + 2s", seat_wind="5z").reason
    with pytest.raises(ContextError):
        P.context({"riichi": True})
    assert "declared kong" in score("34s55s [234m] [456p] [111z] + 2s", self_drawn=True, kong_replacement=True).reason
    assert "fourth of its kind" in score("123m456p789s22s11z + 2s", robbing_kong=True).reason


def test_seat_and_prevalent_wind():
    got = fans("123m456p78s55z [111z] + 9s", seat_wind="1z", round_wind="1z")
    assert got["Seat Wind"] == 1 and got["Prevalent Wind"] == 1 and not got["Pung of Terminals or Honors"]
    got = fans("123m456p78s55z [222z] + 9s", seat_wind="1z", round_wind="1z")
    assert got["Pung of Terminals or Honors"] == 1 and not got["Seat Wind"]


def test_concealed_pung_completed_by_a_discard_counts_as_melded():
    text = "111p222s33m456m77z + 3m"
    assert fans(text)["Two Concealed Pungs"] == 1 and not fans(text)["Three Concealed Pungs"]
    assert fans(text, self_drawn=True)["Three Concealed Pungs"] == 1


def test_wait_fans_only_for_a_single_waiting_kind():
    assert fans("123m456p789s12s11z + 3s")["Edge Wait"] == 1
    assert fans("123m456p789s13s11z + 2s")["Closed Wait"] == 1
    assert fans("123m456p789s123s1z + 1z")["Single Wait"] == 1
    got = fans("123m456p789s23s11z + 1s")  # 1s or 4s: two kinds, no wait fan
    assert not (got["Edge Wait"] or got["Closed Wait"] or got["Single Wait"])


def test_last_tile_fans():
    h = "123m456p789s23s11z + 1s"
    assert fans(h, last_tile=True)["Last Tile Claim"] == 1
    got = fans(h, last_tile=True, self_drawn=True)
    assert got["Last Tile Draw"] == 1 and not got["Self-Drawn"]
    assert fans(h, last_of_kind=True)["Last Tile"] == 1
    got = fans(h, last_of_kind=True, robbing_kong=True)
    assert got["Robbing the Kong"] == 1 and not got["Last Tile"]


def test_seven_pairs_with_four_of_a_kind_and_knitted_shapes():
    got = fans("1111557799m112p + 2p")
    assert got["Seven Pairs"] == 1 and got["Tile Hog"] == 1
    assert fans("147m258p369s1234z + 5z")["Lesser Honors and Knitted Tiles"] == 1


# --- options (spec §12) -------------------------------------------------------------------------------------


def test_options_switch_to_the_green_book_reading():
    gb = MCR(GREEN_BOOK)
    green = "66s66z [234s] [234s] [234s] + 6z"
    assert fans(green)["Half Flush"] == 1 and not fans(green, gb)["Half Flush"]  # A9
    seven = "1111557799m112p + 2p"
    assert fans(seven, self_drawn=True)["Fully Concealed Hand"] == 1  # A10
    got = fans(seven, gb, self_drawn=True)
    assert got["Self-Drawn"] == 1 and not got["Fully Concealed Hand"]
    kongs = "2244455z [1111p+] [(6666z)] + 2z"
    assert fans(kongs)["Two Melded Kongs"] == 1 and fans(kongs)["Concealed Kong"] == 1  # A3: 4 + 2
    assert fans(kongs, gb)["Concealed Kong and Melded Kong"] == 1
    two = parse_hand("7889m [222z] [(1111s)] [(1111z)] + 8m")
    assert P.evaluate(two, P.context({})).hand_fan - gb.evaluate(two, gb.context({})).hand_fan == 2  # A44
    with pytest.raises(ValueError):
        MCROptions(two_concealed_kongs_fan=7)


# --- tile set -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,needle", [
    ("123m406p789s11z [456s] + 1z", "red five"),
    ("123m456p789sj [456s] + 1z", "joker"),
    ("1111m456p789s1z [111m] + 1z", "copies"),
    ("123m456p789s1z [456s] + 1z | 1f 1f", "flower"),
])
def test_tile_set_rules(text, needle):
    errs = P.check_hand(parse_hand(text))
    assert any(needle in e for e in errs), errs


def test_not_a_winning_shape():
    r = score("123m456p789s1234z + 5z")
    assert not r.valid and "not a winning shape" in r.reason
