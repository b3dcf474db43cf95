"""Scoring rules beyond the vectors: rule checks of the tile set, context that cannot happen, readings,
fu items, liability, and the yaku units one by one."""

from __future__ import annotations

import pytest

from rules.notation import parse_hand
from rules.profiles import registry
from rules.profiles.riichi import limits
from rules.profiles.riichi.dora import dora_of
from rules.profiles.riichi.yaku import BY_ID, HAND_YAKU, ORDER, READING_YAKU
from rules.tiles import Tile

P = registry.get("riichi-ema2016")


def score(hand: str, **ctx):
    return P.score_checked(parse_hand(hand), P.context(ctx))


@pytest.mark.parametrize(
    "hand, why",
    [
        ("23406m67888p234s + 1m", "red five"),
        ("23456m67888p234s + 1m | 1f", "flowers"),
        ("22222m67888p234s + 1m", "5 copies"),
        ("23456m67888p234s", "no winning tile"),
        ("2345m67888p234s + 1m", "13 tiles"),
        ("23456m67889p234s + 1m", "not a winning shape"),
        (
            "1111223344556z + 6z",
            "not a winning shape",
        ),  # four identical tiles are not two pairs (Rules 4.2.2)
    ],
)
def test_rule_errors(hand, why):
    r = score(hand, self_drawn=True)
    assert not r.valid
    key = why.split()[0] if why != "5 copies" else "copies"
    assert key in r.reason


@pytest.mark.parametrize(
    "hand, ctx, why",
    [
        ("234m567p2366s [678m] + 4s", {"riichi": True}, "closed"),
        ("23456m67888p234s + 4m", {"ippatsu": True}, "riichi"),
        ("23456m67888p234s + 4m", {"robbing_kong": True, "self_drawn": True}, "discard"),
        ("23456m67888p234s + 4m", {"kong_replacement": True, "self_drawn": True}, "kan"),
        ("23456m67888p234s + 4m", {"first_go_around": True, "seat_wind": "1z"}, "dealer"),
        ("23456m67888p234s + 4m", {"seat_wind": "5z"}, "wind"),
        ("23456m67888p234s + 4m", {"seat_wind": "1z", "dealer": False}, "dealer"),
        ("23456m67888p234s + 4m", {"dora_indicators": ["8p", "8p"]}, "copies"),
        ("23456m67888p234s + 4m", {"robbing_kong": True, "robbed_kan": "concealed"}, "thirteen orphans"),
    ],
)
def test_impossible_context(hand, ctx, why):
    r = score(hand, **ctx)
    assert not r.valid and why in r.reason


def test_no_yaku_is_not_a_win():
    r = score("123m456p789s234s5z + 5z", seat_wind="2z")
    assert not r.valid and "no yaku" in r.reason
    # dora do not make a yaku
    r = score("123m456p789s234s5z + 5z", seat_wind="2z", dora_indicators=["4z"])
    assert not r.valid


def test_open_pon_completed_by_ron_fu_and_sanankou():
    r = score("111m444p777s23m99s + 1m", seat_wind="2z", self_drawn=False, riichi=True)
    # 1m completes the terminal pon by ron: open (4 fu) — or 123m chi reading; best is taken
    assert r.valid and r.extra["fu"] >= 40


def test_double_wind_pair_gives_4_fu():
    r = score("234m567p23678s11z + 4s", seat_wind="1z", round_wind="1z", riichi=True)
    assert ["seat-wind pair", 2] in map(list, r.extra["fu_detail"])
    assert ["round-wind pair", 2] in map(list, r.extra["fu_detail"])


def test_kokushi_robs_a_concealed_kan():
    r = score("119m19p19s123456z + 7z", robbing_kong=True, robbed_kan="concealed")
    assert r.valid and r.extra["limit"] == "yakuman"


def test_yakuman_never_stack_and_ignore_dora():
    r = score("1122555666777z + 2z", dora_indicators=["4z"], seat_wind="2z")
    assert r.extra["han"] == 13 and r.points["total"] == 32000 and r.extra["dora"] == 0


def test_liability_on_a_self_draw_with_counters():
    r = score("234m9p [555z] [666z] [777z] + 9p", self_drawn=True, liable_seat_wind="3z", honba=2)
    assert r.points == {"liable_pays": 32600, "others_pay": 0, "total": 32600}


def test_liability_when_the_liable_player_discards():
    r = score("234m9p [555z] [666z] [777z] + 9p", liable_seat_wind="3z", discarder_seat_wind="3z")
    assert r.points["liable_pays"] == 32000 and r.points["total"] == 32000


def test_chiitoitsu_needs_seven_different_pairs_and_tsuuiisou_accepts_it():
    r = score("1111223344556z + 6z")
    assert not r.valid
    r = score("1122334455667z + 7z")
    assert r.valid and [["tsuuiisou", 13]] == r.extra["yaku"]


def test_haitei_not_on_a_replacement_tile():
    r = score("345678p5688s [(2222m)] + 7s", self_drawn=True, kong_replacement=True, last_tile=True)
    ids = {y for y, _ in r.extra["yaku"]}
    assert "rinshan_kaihou" in ids and "haitei" not in ids


def test_renhou_is_five_han_cumulative():
    r = score("23456m67888p234s + 4m", first_go_around=True, seat_wind="3z")
    assert {"renhou", "pinfu", "tanyao"} == {y for y, _ in r.extra["yaku"]} and r.extra["han"] == 7


def test_tenhou_and_chiihou():
    assert score("123m456p789s234s5z + 5z", self_drawn=True, first_go_around=True, seat_wind="1z").extra[
        "yaku"
    ] == [["tenhou", 13]]
    assert score("123m456p789s234s5z + 5z", self_drawn=True, first_go_around=True, seat_wind="4z").extra[
        "yaku"
    ] == [["chiihou", 13]]


def test_nine_gates_and_all_green_and_all_terminals():
    assert score("1112345678999s + 9s").extra["yaku"] == [["chuuren_poutou", 13]]
    assert score("22334466688s66z + 8s").extra["yaku"] == [["ryuuiisou", 13]]
    r = score("111999m99s11p [999p] + 1p")
    assert r.extra["yaku"] == [["chinroutou", 13]] and r.extra["limit"] == "yakuman"


def test_waits_exclude_a_tile_held_four_times():
    assert [str(t) for t in P.waits(parse_hand("1111m234p567s789s"))] == []  # only 1m, and he holds all four
    assert [str(t) for t in P.waits(parse_hand("23456m67888p234s"))] == ["1m", "4m", "7m"]


def test_dora_wraps():
    assert dora_of(Tile.parse("9m").kind) == Tile.parse("1m").kind
    assert dora_of(Tile.parse("4z").kind) == Tile.parse("1z").kind
    assert dora_of(Tile.parse("7z").kind) == Tile.parse("5z").kind


def test_limits_table():
    assert limits.basic_points(4, 30) == (1920, None)  # no kiriage
    assert limits.basic_points(3, 70) == (2000, "mangan")
    assert limits.basic_points(13, 30) == (6000, "sanbaiman")  # no kazoe yakuman
    assert limits.payments(2000, False, False) == {"ron": 8000, "total": 8000}
    assert limits.payments(2000, True, True, 1) == {"tsumo_each_pays": 4100, "total": 12300}


def test_every_yaku_unit_is_registered_once_with_a_reference():
    assert len(ORDER) == len(set(ORDER)) == len(BY_ID)
    for d in BY_ID.values():
        assert d.ref and (d.closed or d.open)
    units = {d.id for t in (HAND_YAKU, READING_YAKU) for tab in t.values() for d, *_ in tab}
    assert {"pinfu", "tanyao", "chinitsu", "ittsu", "renhou"} <= units


def test_dealer_flag_alone_means_east_seat():
    r = score("234m678p3356s [111z] + 7s", dealer=True)
    assert {"yakuhai_seat_wind", "yakuhai_round_wind"} == {y for y, _ in r.extra["yaku"]}
    assert r.points == {"ron": 2900, "total": 2900}
