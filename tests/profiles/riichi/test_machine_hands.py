"""Whole hands through the hand machine with the riichi hooks: riichi, ippatsu (kept and broken by a
call), dora / kan dora / ura dora, double ron with sticks and counters, furiten (a chombo), the
exhaustive draw with noten payments and sticks left on the table."""

from __future__ import annotations

from rules.events import Claimed, Discarded
from rules.tiles import KINDS
from tests.profiles.riichi.script import RiichiScript

# seat 1 waits on 1m 4m 7m (pinfu, tanyao on 4m); the other hands are filler
HANDS = {
    0: "1199m1199p1199s55z",
    1: "23456m67888p234s",
    2: "345m345p345s66z7z1z",
    3: "2233m2233p2233s2z",
}


def riichi_ron_setup(**kw) -> RiichiScript:
    s = RiichiScript(HANDS, options=kw.get("options"), indicator="5m")  # dora 6m: seat 1 holds one
    s.discard(0, "9m")
    s.draw(1, "1z")
    s.discard(1, "1z", riichi=True)  # his very first discard, no call before: double riichi
    return s


def test_riichi_ippatsu_double_riichi_ron_with_dora_ura_honba_and_sticks():
    s = riichi_ron_setup(options={"honba": 1, "deposits": 2000})
    s.draw(2, "7z")
    s.discard(2, "4m")
    s.claim(1, "hu", 2, "4m")
    s.arbitrate()
    s.reveal_dora("1s", kind="ura")  # ura 2s: seat 1 holds one
    s.reveal(1, "23456m67888p234s")
    deltas, dealer = s.finish()
    w = s.state.wins[0]
    assert w.valid and not s.codes()
    e = w.result.extra
    assert sorted(y for y, _ in e["yaku"]) == ["double_riichi", "ippatsu", "pinfu", "riichi", "tanyao"]
    assert (e["dora"], e["ura_dora"], e["han"], e["limit"]) == (1, 1, 7, "haneman")
    # 12 000 + 300 counter from the discarder; 2000 old deposits + his own stake back from the table
    assert deltas == [0, 12300 + 2000, -12300, 0]
    assert dealer == 1  # a non-dealer won: South becomes East
    assert s.profile.next_hand_options(s.state) == {"honba": 0, "deposits": 0}
    reasons = {p["reason"] for p in s.state.settled.payments}
    assert {"ron", "1 counter(s) x 300", "riichi stake", "riichi deposits"} <= reasons
    assert all(p["rule"].startswith("004") for p in s.state.settled.payments)


def test_ippatsu_broken_by_a_call():
    s = riichi_ron_setup()
    s.draw(2, "5z")
    s.discard(2, "5z")  # seat 0 holds 55z: pon
    s.claim(0, "pung", 2, "5z", "55z")
    s.arbitrate()
    s.discard(0, "1m")
    s.draw(1, "3z")
    s.discard(1, "3z")
    s.draw(2, "4z")
    s.discard(2, "4m")
    s.claim(1, "hu", 2, "4m")
    s.arbitrate()
    s.reveal(1, "23456m67888p234s")
    s.finish()
    e = s.state.wins[0].result.extra
    ids = {y for y, _ in e["yaku"]}
    assert "ippatsu" not in ids and {"riichi", "double_riichi"} <= ids


def test_riichi_player_cannot_call():
    s = riichi_ron_setup()
    s.draw(2, "8p")
    s.discard(2, "8p")
    out = s.sub(Claimed(seat=1, kind="pung", from_seat=2, tile="8p", tiles=("8p", "8p")))
    assert out[0].TYPE == "violation" and out[0].code == "claim_not_allowed"
    assert "3.3.14" in out[0].message


def test_riichi_furiten_ron_is_chombo():
    s = RiichiScript(HANDS)
    s.discard(0, "5z")
    s.draw(1, "7m")
    s.discard(1, "7m", riichi=True)  # 7m is one of his waits: furiten (he may still tsumo)
    s.draw(2, "7z")
    s.discard(2, "4m")
    s.claim(1, "hu", 2, "4m")
    s.arbitrate()
    s.reveal(1, "23456m67888p234s")
    deltas, dealer = s.finish()
    assert "furiten" in s.codes()
    assert deltas == [4000, -8000, 2000, 2000]  # mangan-sized chombo, no stake taken (004 Rules 3.4.6)
    assert dealer == 0  # the same hand is replayed, East stays


def test_temporary_furiten_after_passing_a_winning_tile():
    s = RiichiScript(HANDS)
    s.discard(0, "5z")
    s.draw(1, "9s")
    s.discard(1, "9s")
    s.draw(2, "1m")
    s.discard(2, "1m")  # seat 1 could ron 1m (no yaku: no riichi, not tanyao) and lets it pass
    s.draw(3, "4m")
    s.discard(3, "4m")  # before his own next draw: still temporarily furiten
    s.claim(1, "hu", 3, "4m")
    s.arbitrate()
    s.reveal(1, "23456m67888p234s")
    s.finish()
    assert "furiten" in s.codes()


def test_double_ron_sticks_to_the_first_winner_and_counters_to_each():
    hands = dict(HANDS)
    hands[3] = "56m678p678s123s33z"  # waits 4m 7m, no yaku but riichi
    s = RiichiScript(hands, options={"honba": 1, "deposits": 1000})
    s.discard(0, "5z")
    s.draw(1, "1z")
    s.discard(1, "1z", riichi=True)
    s.draw(2, "7z")
    s.discard(2, "7z")
    s.draw(3, "2z")
    s.discard(3, "2z", riichi=True)
    s.draw(0, "4m")
    s.discard(0, "4m")  # both riichi players win on it
    s.claim(1, "hu", 0, "4m")
    s.claim(3, "hu", 0, "4m")
    assert len(s.arbitrate()) == 2
    s.reveal(1, "23456m67888p234s")
    s.reveal(3, "56m678p678s123s33z")
    deltas, dealer = s.finish()
    w1, w3 = s.state.wins
    assert w1.valid and w3.valid
    v1, v3 = w1.result.points["ron"], w3.result.points["ron"]
    # each gets his hand + 300 from the dealer; seat 1 (first after the discarder) takes the old 1000;
    # each riichi winner gets his own stake back
    assert deltas == [-(v1 + v3), v1 + 1000, 0, v3]
    assert sum(deltas) == 1000  # the old deposit came from the table
    assert dealer == 1


def test_kan_dora_counts_for_a_win_after_the_kan():
    hands = dict(HANDS)
    hands[1] = "234m678p234s5z777s"  # three chi, 777s to be a kan, a 5z tanki
    s = RiichiScript(hands, indicator="1z")
    s.discard(0, "1m")
    s.draw(1, "7s")
    s.meld(1, "kong_concealed", "7777s")
    s.reveal_dora("6s", kind="kan")  # kan dora: 7s — four of them
    s.draw(1, "5z", source="replacement")
    s.tsumo(1, "5z", kong_replacement=True)
    s.reveal(1, "234m678p234s5z5z", winning="5z")
    s.finish()
    w = s.state.wins[0]
    assert w.valid, w.result.reason
    e = w.result.extra
    assert {"rinshan_kaihou", "menzen_tsumo"} <= {y for y, _ in e["yaku"]}
    assert e["dora"] == 4


def test_exhaustive_draw_noten_payments_and_sticks_stay():
    hands = dict(HANDS)
    s = RiichiScript(hands, options={"honba": 2, "deposits": 0})
    s.discard(0, "5z")
    s.draw(1, "1z")
    s.discard(1, "1z", riichi=True)
    seat = 2
    while s.state.wall_remaining > 0:  # everybody draws and throws the drawn tile away
        k = next(k for k in s.pool if k not in (0, 3, 6, 9))  # never a tile that would complete seat 1
        t = str(KINDS[k])
        s.draw(seat, t)
        s.discard(seat, t)
        seat = (seat + 1) % 4
    s.exhaustive((1,))
    s.reveal(1, "23456m67888p234s")
    deltas, dealer = s.finish()
    assert deltas == [-1000, 3000 - 1000, -1000, -1000]  # tenpai +3000, his stake on the table
    assert dealer == 1  # the dealer was noten
    assert s.profile.next_hand_options(s.state) == {"honba": 3, "deposits": 1000}


def test_temporary_furiten_ends_with_his_own_draw():
    s = RiichiScript(HANDS)
    s.discard(0, "5z")
    s.draw(1, "9s")
    s.discard(1, "9s")
    s.draw(2, "1m")
    s.discard(2, "1m")  # let pass: temporarily furiten
    s.draw(3, "3z")
    s.discard(3, "3z")
    s.draw(0, "2z")
    s.discard(0, "2z")
    s.draw(1, "8s")  # his own draw ends it (spec A6)
    s.discard(1, "8s")
    s.draw(2, "4m")
    s.discard(2, "4m")
    s.claim(1, "hu", 2, "4m")
    s.arbitrate()
    s.reveal(1, "23456m67888p234s")
    deltas, _ = s.finish()
    assert not s.codes() and s.state.wins[0].valid
    assert deltas == [0, 2000, -2000, 0]  # pinfu tanyao 30 fu


def test_dealer_ron_in_the_first_go_around_is_an_ordinary_win():
    hands = dict(HANDS)
    hands[0] = "23456m67888p234s9m"  # the dealer: 14 tiles, throws 9m and waits on 1m 4m 7m
    hands[1] = "1199m1199p1199s5z"
    s = RiichiScript(hands)
    s.discard(0, "9m")
    s.draw(1, "4z")
    s.discard(1, "4z")
    s.draw(2, "4m")
    s.discard(2, "4m")
    s.claim(0, "hu", 2, "4m")
    s.arbitrate()
    s.reveal(0, "23456m67888p234s")
    deltas, dealer = s.finish()
    assert s.state.wins[0].valid and not s.codes()
    assert {y for y, _ in s.state.wins[0].result.extra["yaku"]} == {"pinfu", "tanyao"}
    assert deltas == [2900, 0, -2900, 0] and dealer == 0


def test_renhou_on_the_dealers_first_discard():
    hands = dict(HANDS)
    hands[0] = "4m1199p1199s55z678m"  # the dealer throws 4m first
    s = RiichiScript(hands)
    s.discard(0, "4m")
    s.claim(1, "hu", 0, "4m")
    s.arbitrate()
    s.reveal(1, "23456m67888p234s")
    deltas, _ = s.finish()
    e = s.state.wins[0].result.extra
    assert {y for y, _ in e["yaku"]} == {"renhou", "pinfu", "tanyao"} and e["limit"] == "haneman"
    assert deltas == [-12000, 12000, 0, 0]


def test_kuikae_is_refused_when_it_happens():
    from rules.events import Discarded

    s = RiichiScript(HANDS)
    s.discard(0, "9m")
    s.draw(1, "5z")
    s.discard(1, "2m")
    s.claim(2, "chow", 1, "2m", "34m")
    s.arbitrate()
    assert s.profile.forbidden_discards(s.state, 2) == frozenset({1, 4})  # 2m and the other end 5m
    for bad in ("5m",):  # claimed 2m for 234m: not the other end 5m (004 Rules 3.3.2)
        out = s.sub(Discarded(seat=2, tile=bad))
        assert out[0].TYPE == "violation" and out[0].code == "kuikae" and out[0].seat == 2
    assert s.state.phase == "turn" and s.state.current == 2  # refused: he still has to discard
    s.discard(2, "1z")
    st = s.state
    assert s.profile.reveal_checks(st, 2, st.seat_state[2].hand()) == []


def test_riichi_discipline_is_refused_when_it_happens():
    from rules.events import Discarded

    s = riichi_ron_setup()
    s.draw(2, "7z")
    s.discard(2, "7z")
    s.draw(3, "3z")
    s.discard(3, "3z")
    s.draw(0, "2z")
    s.discard(0, "2z")
    s.draw(1, "8s")
    out = s.sub(Discarded(seat=1, tile="2s", tsumogiri=False))  # a tile from the locked hand
    assert out[0].TYPE == "violation" and out[0].code == "riichi_hand_changed"
    out = s.sub(Discarded(seat=1, tile="8s", riichi=True))  # riichi is declared once
    assert out[0].TYPE == "violation" and out[0].code == "riichi_not_allowed"
    s.ok(Discarded(seat=1, tile="8s", tsumogiri=True))
    st = s.state
    assert s.profile.reveal_checks(st, 1, st.seat_state[1].hand()) == []


def test_kan_after_riichi_that_changes_the_wait_is_refused():
    from rules.events import MeldMade

    s = riichi_ron_setup()
    for seat, t in ((2, "7z"), (3, "3z"), (0, "2z")):
        s.draw(seat, t)
        s.discard(seat, t)
    s.draw(1, "8p")  # 23456m 67888p 234s + 8p: a kan of 8p would change the waits (004 Rules 3.3.14)
    out = s.sub(MeldMade(seat=1, kind="kong_concealed", tiles=("8p", "8p", "8p", "8p")))
    assert out[0].TYPE == "violation" and out[0].code == "riichi_illegal_kan"
    s.ok(Discarded(seat=1, tile="8p", tsumogiri=True))


def test_dora_indicators_are_checked_against_the_kans():
    from rules.events import DoraRevealed

    s = riichi_ron_setup()
    out = s.sub(DoraRevealed(indicator="1p", kind="initial"))  # the initial indicator is shown already
    assert out[0].TYPE == "violation" and out[0].code == "dora_mismatch"
    out = s.sub(DoraRevealed(indicator="1p", kind="kan"))  # no kan has been made
    assert out[0].TYPE == "violation" and out[0].code == "dora_mismatch"
