"""Whole hands through the settlement ledger: blood battle, refunds, pigs, dead hand, 3 players."""
from __future__ import annotations

import pytest

from rules.notation import parse_hand
from rules.profiles.sichuan.params import MPL2025, WMSG
from rules.profiles.sichuan.settlement import EndHand, HandLedger

H = parse_hand
NOT_TENPAI = H("123m456m789m13p57p")  # missing suit s
TENPAI_1FAN = H("222p444p666p88m99m")  # all pungs, waits 8m/9m: max 1 fan = 2
WIN_SELF = H("123m456m789m11p45p + 6p")  # 0 fan
WIN_7P = H("11m33m55m22p44p66p8p + 8p")  # 2 fan


def ledger(params=MPL2025, seats=(0, 1, 2, 3), dealer=0) -> HandLedger:
    return HandLedger(params, seats, dealer, {s: "s" for s in seats})


def net(led: HandLedger) -> dict[int, int]:
    return led.settle().deltas


def test_one_winner_then_exhaustion() -> None:
    led = ledger()
    led.hu(1, WIN_SELF, self_drawn=True)  # 1 base + 1 from each of 3
    assert not led.finished
    st = led.exhaustion({0: EndHand(TENPAI_1FAN, "s"), 2: EndHand(NOT_TENPAI, "s"), 3: EndHand(NOT_TENPAI, "s")})
    assert {s: x.state for s, x in st.items()} == {0: "tenpai", 2: "not_tenpai", 3: "not_tenpai"}
    s = led.settle()
    assert s.deltas == {0: -2 + 4, 1: 6, 2: -2 - 2, 3: -2 - 2}
    assert s.ended_by == "exhaustion" and s.next_dealer == 1
    assert s.states[1] == "won"


def test_two_winners_self_draw_payers_shrink() -> None:
    led = ledger()
    led.hu(2, WIN_7P, discarder=0)  # base 4 from seat 0
    led.hu(3, WIN_SELF, self_drawn=True)  # (1+1) from 0 and 1 only: seat 2 has left
    assert led.settle().deltas == {0: -4 - 2, 1: -2, 2: 4, 3: 4}


def test_three_winners_end_the_hand() -> None:
    led = ledger()
    led.hu(1, WIN_SELF, discarder=0)
    led.hu(2, WIN_SELF, discarder=0)
    assert not led.finished
    led.hu(3, WIN_SELF, self_drawn=True)  # only seat 0 is left to pay
    s = led.settle()
    assert led.finished and s.ended_by == "hu"
    assert s.deltas == {0: -1 - 1 - 2, 1: 1, 2: 1, 3: 2}
    with pytest.raises(ValueError):
        led.hu(3, WIN_SELF, self_drawn=True)


def test_multiple_hu_one_discard_with_kong_discard_refund_once() -> None:
    led = ledger(dealer=1)
    led.kong(0, "concealed")  # 2 from each of 1, 2, 3
    led.kong(0, "added", fresh=True)  # 1 from each
    recs = led.hu_group(0, {3: WIN_SELF, 1: WIN_7P}, kong_discard=True)
    assert [r.seat for r in recs] == [1, 3]  # turn order from the discarder
    assert [r.total_fan for r in recs] == [3, 1]  # kong discard adds one fan to each
    s = led.settle()
    # kong points: only the added (last) kong is refunded, once (AMB-18)
    assert s.deltas == {0: 6 - 8 - 2, 1: -2 + 8, 2: -2, 3: -2 + 2}
    assert [k.status for k in led.kongs] == ["valid", "refunded"]
    assert s.next_dealer == 0  # several first winners on one discard -> the discarder
    assert sum(1 for p in s.payments if p.reason.startswith("kong discard")) == 3


def test_robbing_the_kong_voids_it_and_the_declarer_pays() -> None:
    led = ledger()
    led.kong(0, "added", fresh=True)
    rec = led.hu(2, H("123m456m789m11p45p + 6p"), discarder=0, robbing_kong=True)
    assert rec.valid and rec.total_fan == 1 and rec.base_points == 2
    s = led.settle()
    assert s.deltas == {0: -2, 1: 0, 2: 2, 3: 0}
    assert led.kongs[0].status == "robbed"
    assert any(p.rule == "000 App.1 #9" for p in s.payments)


def test_robbed_by_two_players_dealer_is_the_kong_declarer() -> None:
    led = ledger()
    led.kong(0, "added", fresh=False)  # delayed: no payment, but robbable
    led.hu_group(0, {1: WIN_SELF, 2: WIN_SELF}, robbing_kong=True)
    s = led.settle()
    assert s.deltas == {0: -4, 1: 2, 2: 2, 3: 0}
    assert s.next_dealer == 0


def test_kong_refund_not_tenpai_but_kept_when_tenpai_or_won() -> None:
    led = ledger()
    led.kong(1, "open", from_seat=0)  # 2 from 0
    led.kong(2, "concealed")  # 2 from 0, 1, 3
    led.kong(3, "concealed")
    led.hu(3, WIN_SELF, self_drawn=True)  # 2 from 0, 1, 2
    led.exhaustion({0: EndHand(NOT_TENPAI, "s"), 1: EndHand(NOT_TENPAI, "s"), 2: EndHand(TENPAI_1FAN, "s")})
    s = led.settle()
    assert [k.status for k in led.kongs] == ["refunded", "valid", "valid"]
    # seat 2's kong stays (tenpai, paid 2 by each non-tenpai seat); seat 3 won; seat 1's open kong is
    # returned to seat 0
    assert s.deltas == {
        0: -2 - 2 - 2 - 2 - 2 + 2,
        1: 2 - 2 - 2 - 2 - 2 - 2,
        2: 6 - 2 - 2 + 2 + 2,
        3: 6 - 2 + 6,
    }
    assert sum(s.deltas.values()) == 0


def test_pigs_mpl_active_and_passive() -> None:
    led = ledger()
    pig_hand = H("123m456m789m11p45s")
    led.kong(1, "concealed")
    st = led.exhaustion({
        0: EndHand(TENPAI_1FAN, "s"),
        1: EndHand(pig_hand, "s", discards=("m", "s")),  # discarded another suit: active
        2: EndHand(pig_hand, "s", discards=("s", "s")),  # only the missing suit: passive
        3: EndHand(pig_hand, "s", discards=()),  # no discard at all: the exception does not apply (AMB-22)
    })
    assert [st[s].state for s in range(4)] == ["tenpai", "active_pig", "passive_pig", "active_pig"]
    s = led.settle()
    assert led.kongs[0].status == "refunded"  # a pig counts as not tenpai
    assert s.deltas == {0: 6, 1: -2 - 48, 2: -2, 3: -2 - 48}
    assert s.penalties_total == 96 and sum(s.deltas.values()) == -96


def test_pig_wmsg_pays_only_the_penalty() -> None:
    led = ledger(WMSG)
    pig_hand = H("123m456m789m11p45s")
    st = led.exhaustion({0: EndHand(TENPAI_1FAN, "s"), 1: EndHand(pig_hand, "s", discards=("s",)),
                         2: EndHand(NOT_TENPAI, "s"), 3: EndHand(TENPAI_1FAN, "s")})
    assert st[1].state == "pig" and st[1].pig_penalty == 48
    assert led.settle().deltas == {0: 2, 1: -48, 2: -4, 3: 2}


def test_dead_hand() -> None:
    led = ledger()
    led.kong(2, "concealed")
    led.dead_hand(2)
    rec = led.hu(2, WIN_SELF, self_drawn=True)  # a hu under dead hand is false (000 §2.8.3)
    assert not rec.valid and "dead hand" in rec.reason
    s = led.settle()
    # kong refunded, false hu with a tenpai hand: 8 to each of the three in play
    assert s.deltas == {0: 8, 1: 8, 2: -24, 3: 8}


def test_dead_hand_at_exhaustion_is_not_tenpai() -> None:
    led = ledger()
    led.dead_hand(1)
    st = led.exhaustion({0: EndHand(TENPAI_1FAN, "s"), 1: EndHand(TENPAI_1FAN, "s"), 2: EndHand(TENPAI_1FAN, "s"),
                         3: EndHand(TENPAI_1FAN, "s")})
    assert st[1].state == "dead_hand"
    assert led.settle().deltas == {0: 2, 1: -6, 2: 2, 3: 2}


@pytest.mark.parametrize("params, refunded, amount", [(MPL2025, True, 16), (WMSG, False, 8)])
def test_false_hu_not_tenpai(params, refunded, amount) -> None:
    led = ledger(params)
    led.kong(1, "concealed")
    rec = led.hu(1, H("123m456m789m13p57p + 9p"), self_drawn=True)
    assert not rec.valid
    s = led.settle()
    kong = -6 if refunded else 0
    assert s.deltas[1] == 6 + kong - 3 * amount
    assert led.kongs[0].status == ("refunded" if refunded else "valid")
    assert s.next_dealer == 0  # a false hu is ignored for the dealer


def test_hu_with_the_missing_suit_is_false_and_a_pig() -> None:
    led = HandLedger(MPL2025, missing_suits={1: "p"})
    rec = led.hu(1, H("123m456m789m11p23p + 4p"), discarder=0)
    assert not rec.valid and "missing suit" in rec.reason
    s = led.settle()
    # a hand holding its missing suit is never tenpai (000 §2.7.4.1): 16 each; pig 48 to nobody (AMB-10)
    assert s.deltas[1] == -3 * 16 - 48


def test_furiten_hu_is_false() -> None:
    led = ledger()
    rec = led.hu(1, WIN_SELF, discarder=0, furiten=True)
    assert not rec.valid and "furiten" in rec.reason


def test_payers_fixed_at_the_kong() -> None:
    led = ledger()
    led.hu(3, WIN_SELF, discarder=0)
    led.kong(1, "concealed")
    assert [p.payer for p in led.kongs[0].lines] == [0, 2]


def test_three_player_table() -> None:
    led = ledger(seats=(0, 1, 2))
    led.kong(0, "concealed")  # 2 from each of two
    led.hu(1, WIN_SELF, self_drawn=True)  # 2 from each of two
    assert not led.finished
    led.hu(2, WIN_7P, discarder=0)  # the second hu ends a 3-player hand (000 §3.1.3)
    s = led.settle()
    assert led.finished and s.ended_by == "hu"
    assert s.deltas == {0: 4 - 2 - 4, 1: -2 + 4, 2: -2 - 2 + 4}
    assert s.next_dealer == 1


def test_settlement_record_is_readable() -> None:
    led = ledger()
    led.kong(1, "open", from_seat=0)
    led.hu(2, WIN_7P, discarder=1)
    s = led.settle()
    lines = s.lines()
    assert lines[0] == "seat 0 pays 2 to seat 1: open kong [000 §2.7.2.1]"
    assert "hu on a discard: 2 fan, base 4 [000 §2.7.3.4]" in lines[1]
    js = s.to_json()
    assert js["deltas"] == {"0": -2, "1": -2, "2": 4, "3": 0}
    assert all(p["rule"] and p["reason"] for p in js["payments"])
