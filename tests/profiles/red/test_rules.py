"""Red rules beyond the vectors: rule checks, options, waits, special cases, the pure game functions."""
from __future__ import annotations

import pytest

from rules import wall as core_wall
from rules.notation import parse_hand
from rules.profiles.red import claims as cl
from rules.profiles.red import flowers as fl
from rules.profiles.red import penalties as pen
from rules.profiles.red import seating
from rules.profiles.red.fans import FANS
from rules.profiles.red.options import RedOptions
from rules.profiles.red.payments import settle_win
from rules.profiles.registry import get
from rules.scoring import ContextError
from rules.tiles import tile
from tests.oracles import red_table as tb

RED = get("red")


def score(text: str, **ctx):
    return RED.score_checked(parse_hand(text), RED.context(ctx))


def fans(r) -> dict[int, int]:
    return {f.extra["no"]: f.count for f in r.fans}


# ----------------------------------------------------------------------------------------------------------
# Tile-set checks


@pytest.mark.parametrize("text, needle", [
    ("123m456p789s [(1111z)] 9p + 9p", "no kongs"),
    ("123m456p789s [1111z+] 9p + 9p", "no kongs"),
    ("123m456p789s3s [jjj] + 3s", "only of jokers"),
    ("jjj 456p789s3s [5pjj] + 3s", "5 jokers"),
    ("123m406p789s11z22z + 2z", "red five"),
    ("123m456p789s22s9s1f + 9s", "flower"),
])
def test_check_hand_rejects(text, needle):
    r = score(text, self_drawn=True)
    assert not r.valid and needle in r.reason


def test_fan_table_is_complete_data():
    assert [f.no for f in FANS] == list(range(1, 19))
    assert all(f.name and f.name_ru and f.definition and f.exclusions == () for f in FANS)
    assert sum(1 for f in FANS if f.multiplicity == "per_group") == 7  # fans 3, 4, 5, 6, 9, 10, 17 (A15)


# ----------------------------------------------------------------------------------------------------------
# Context and options


def test_context_validation():
    with pytest.raises(ContextError):
        RED.context({"players": 5})
    with pytest.raises(ContextError):
        RED.context({"players": 2, "winner": 1})  # two players sit at seats 0 and 2
    with pytest.raises(ContextError):
        RED.context({"options": {"chaotic_value": 5}})
    with pytest.raises(ContextError):
        RED.context({"options": {"min_points": -1}})
    with pytest.raises(ContextError):
        RED.context({"options": "{not json"})
    assert RED.context({"options": '{"min_points": 3}'})["options"]["min_points"] == 3
    assert RedOptions.parse(None) == RedOptions()


def test_fan_multiplicity_once_option():
    r = score("123s123s456s789s8s + 8s", options={"fan_multiplicity": "once"})
    assert fans(r)[10] == 1 and fans(r)[5] == 1 and r.total_fan == 124 - 12 - 3


def test_half_flush_and_straight_options():
    assert 12 not in fans(score("111p234p567p888p9p + 9p", options={"half_flush_requires_honour": True}))
    assert 12 in fans(score("234m567m888m222z5p + 5p", options={"half_flush_pair_included": False}))
    assert fans(score("123m456p789s111z9m + 9m", options={"pure_straight_same_suit": False}))[10] == 1


def test_min_points_counting_flowers_when_agreed():
    r = score("234m456p789s222s9m + 9m | 1f 6f", options={"min_points": 3, "min_excludes_flowers": False})
    assert r.valid and r.extra["basic_points"] == 6


# ----------------------------------------------------------------------------------------------------------
# Jokers in scoring


def test_two_red_dragon_pungs_with_jokers_count_two_big_three_dragons():
    # A19: one pung each of 5z 6z 7z per group; with jokers 555z + 5zjj make two groups
    r = score("555z 5zjj 666z 777z 1s + 1s", self_drawn=True)
    assert fans(r)[17] == 2 and fans(r)[6] == 4 and fans(r)[8] == 1 and fans(r)[12] == 1  # 1s + honours
    assert r.total_fan == 128 + 12 + 12 + 12


def test_jokers_take_the_best_identity():
    # 12p + j: the joker is 3p for Pure Straight + Full Flush (red-joker-04), not 1p for a pung
    r = score("12pj456p789p111p2p + 2p")
    assert r.extra["arrangement"]["jokers_as"] == ["3p"]
    # four jokers, three of them in one concealed hand: still the maximum over readings
    r = score("1mjj 2mj 3m 456m 789m 5m + 5m", self_drawn=True)
    assert r.valid and fans(r).get(18) == 1


def test_joker_winning_tile_needs_self_draw_and_river_bottom():
    h = "234s j [123m] [555p] [777z] + j"
    assert score(h, self_drawn=True).valid
    assert "§Джокеры 2" in score(h).reason
    assert "речное дно" in score(h, river_bottom=True).reason


def test_waits_and_shanten():
    h = parse_hand("147m69p258s23467z")
    assert [str(t) for t in RED.waits(h)] == ["1p", "2p", "3p", "1z", "5z"]
    assert RED.shanten(parse_hand("147m69p258s23467z + 3p")) == -1
    assert RED.shanten(parse_hand("123m456p789s11z22z")) == 0
    assert RED.shanten(parse_hand("123m456p789s11z2z3z")) == 1
    assert RED.shanten(parse_hand("123m456p789s1z2z jj")) == 0
    assert RED.joker_completes(parse_hand("234sj [123m] [555p] [777z]"))
    assert not RED.joker_completes(parse_hand("j [123m] [456p] [777s] [111z]"))
    assert RED.waits(parse_hand("12m [jjj]")) == []


# ----------------------------------------------------------------------------------------------------------
# Payments, penalties


def test_settlement_errors_and_records():
    with pytest.raises(ValueError):
        settle_win(4, 0, 10, self_drawn=False)  # a discard win needs the discarder
    with pytest.raises(ValueError):
        settle_win(3, 3, 10, self_drawn=True)  # seat 3 is empty at a 3-player table
    st = settle_win(3, 2, 10, self_drawn=True)
    assert st.deltas == {0: -10, 1: -10, 2: 20}
    assert st.to_json()["payments"][0]["rule"].startswith("001 §Схема выплат 5")


def test_penalties_and_dead_hands():
    v = pen.unpriced(4, 2, "misnamed_discard")
    assert v.settlement.payments == () and v.logged_for_referee == "misnamed_discard"
    st = pen.HandStatus()
    assert st.check_count(14, discarding=True) == "correct" and not st.dead
    assert st.check_count(12, discarding=False) == "short" and st.dead and not st.may_claim
    assert pen.false_win(2, 0).settlement.deltas == {0: -9, 2: 9}


# ----------------------------------------------------------------------------------------------------------
# Table functions, and agreement with the core wall module (rules.wall)


def test_dice_agree_with_core_wall():
    for players in (2, 3, 4):
        spec = core_wall.wall_spec("red", players, "T148")
        for thrower in tb.seats(players):
            for s in range(2, 13):
                assert tb.dice_target(thrower, s, players) == core_wall.dice_target(spec, thrower, s)


def test_sections_agree_with_core_wall():
    for players in (2, 3, 4):
        for ts, n in (("T144", 144), ("T148", 148)):
            spec = core_wall.wall_spec("red", players, ts)
            mine = tb.wall_sections(players, n)
            assert tuple(mine[s] for s in tb.seats(players)) == spec.sections


def test_break_agrees_with_core_wall():
    for players in (2, 3, 4):
        spec = core_wall.wall_spec("red", players, "T144")
        for d1 in ((1, 1), (3, 4), (6, 6)):
            for d2 in ((1, 2), (5, 6)):
                mine = tb.wall_break(0, sum(d1), sum(d2), players, 144)
                brk = core_wall.break_wall(spec, 0, (d1, d2))
                assert (mine.breaker, mine.break_number) == (brk.side, brk.count)
                assert mine.live_first == brk.first_stack


def test_other_tile_sets_and_rounds():
    assert tb.wall_sections(4, 140) == {0: 18, 1: 17, 2: 18, 3: 17}  # spec A1's example
    assert sum(tb.wall_sections(3, 136).values()) == 68
    state = tb.RoundState()
    dealer = 0
    for winner in (1, 2, 3, 0):  # four non-dealer wins pass the deal round the table
        nd = tb.next_dealer(dealer, 4, winner if winner != dealer else (dealer + 1) % 4)
        state = tb.advance_round(state, dealer, nd, 4)
        dealer = nd
    assert state.round_index == 1 and state.passes == 0  # the South round starts


def test_seating_with_reroll_callback():
    rolls = iter([{"A": 4, "B": 4}, {"A": 9, "B": 3}])
    got = seating.seat_by_dice({"A": 7, "B": 7, "C": 12}, 3, reroll=lambda names, n: next(rolls))
    assert got == {0: "C", 1: "A", 2: "B"}
    with pytest.raises(ValueError):
        seating.seat_by_dice({"A": 7, "B": 7}, 2)


def test_claim_edge_cases():
    silent_alone = cl.arbitrate(4, 0, "5m", [cl.Claim(1, "chow", called=False, tiles_from_hand=(tile("4m"), tile("6m")))])
    assert silent_alone.awarded is not None and str(silent_alone.exposed) == "[456m]"
    bad = cl.arbitrate(4, 0, "5m", [cl.Claim(2, "pung", tiles_from_hand=(tile("5m"), tile("6m")))])
    assert bad.awarded is None and bad.rejected[0][1] == cl.R_ILLEGAL
    own = cl.arbitrate(4, 0, "5m", [cl.Claim(0, "win")])
    assert own.rejected[0][1] == cl.R_SELF
    jokers = cl.arbitrate(3, 2, "6m", [cl.Claim(0, "chow", tiles_from_hand=(tile("j"), tile("7m")))])
    assert jokers.awarded is not None and jokers.next_turn == 1


def test_flower_replacement_stops_at_an_empty_wall():
    r = fl.replace_flowers([tile("1f"), tile("2m")], lambda: None)
    assert r.kept == (tile("1f"),) and r.draws == 0 and r.playing == (tile("2m"),)
