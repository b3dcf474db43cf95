"""Whole Red hands through the game machine: 2, 3 and 4 players, jokers, flower chains, sea and river bottom,
false wins, kongs and chows refused, settlement records and the next dealer."""
from __future__ import annotations

from rules.events import Discarded, HandRevealed, MeldMade, Violation, Won
from rules.profiles.registry import get
from rules.tiles import tile
from tests.profiles.red.driver import RedTable

RED = get("red")

# a 13-tile hand waiting on any natural tile to pair its joker (001 §Джокеры 5)
JOKER_WAIT = {1: "j123m456p789s111z", 2: "j234m567p678s222z", 3: "j345m678p123s333z"}


def _payments(settled):
    return [dict(p) for p in settled.payments]


def test_four_players_heavenly_self_draw_with_two_jokers():
    # East's first 14 tiles: 234s j j + three sets; fn9: j34s + 2sj, so the second joker wins (A21: self-draw)
    t = RedTable(4, {0: "234sjj123m555p777z"})
    t.pre_play()
    t.win_self(0, "j")
    w = t.state.wins[0]
    assert w.valid and w.result.extra["value"] == 6
    s, e = t.finish()
    assert t.deltas(s) == {0: 18, 1: -6, 2: -6, 3: -6}
    assert all(p["rule"].startswith("001 §Схема выплат 5") and p["amount"] == 6 for p in _payments(s))
    assert e.next_dealer == 0  # East won: East stays (001 §Дилер 4)


def test_three_players_joker_discard_unclaimable_then_discard_win():
    hands = {0: "j19m19p19s1234z567z", 1: JOKER_WAIT[1]}
    t = RedTable(3, hands, head="5s9p")
    t.pre_play()
    t.discard(0, "j")
    assert t.claim(1, "hu", 0, "j")[0].code == "claim_not_allowed"  # 001 §Джокеры 2
    assert t.claim(2, "pung", 0, "j", "jj")[0].code == "claim_not_allowed"
    t.discard(1, t.draw(1))
    assert str(t.draw(2)) == "9p"
    t.discard(2, "9p")
    t.win_discard(1, 2, "9p")
    w = t.state.wins[0]
    assert w.valid and w.result.extra["value"] == 3  # Honour Pung; 9p + joker pair is no Special Pair
    s, e = t.finish()
    assert t.deltas(s) == {0: 0, 1: 3, 2: -3}
    (p,) = _payments(s)
    assert (p["payer"], p["payee"], p["amount"]) == (2, 1, 3) and "§Схема выплат 4" in p["rule"]
    assert e.next_dealer == 1  # a non-dealer won: the deal passes to South


def test_two_players_flower_chain_and_self_draw():
    # East is dealt 1f 5f; the first replacement is 7f (a chain of three); West is dealt 2f
    t = RedTable(2, {0: "1f5f123m456m789m11p5s", 2: "2f234p567p888s77z4s"}, head="6s", tail="7f2s3s5s")
    draws = t.pre_play()
    assert draws == {0: 3, 2: 1}
    east = t.state.seat_state[0]
    assert sorted(map(str, east.flowers)) == ["1f", "5f", "7f"] and len(east.tiles()) == 14
    t.discard(0, "5s")
    assert str(t.draw(2)) == "6s"
    t.win_self(2, "6s")
    w = t.state.wins[0]
    assert w.valid and w.result.extra["value"] == 3  # one flower, nothing else (456s/567p are not a double)
    s, e = t.finish()
    assert t.deltas(s) == {0: -3, 2: 3}  # 2 players: the single value even on a self-draw (§Схема выплат 3)
    assert e.next_dealer == 2  # West won: West becomes East (§Дилер 5)


def _to_sea_bottom(players: int, hands: dict[int, str], want, first_discard: str):
    """A table (first matching fill seed) whose sea-bottom draw satisfies ``want(seat, tile)``."""
    for seed in range(60):
        t = RedTable(players, hands, seed=seed)
        t.pre_play()
        t.discard(0, first_discard)
        last = t.tsumogiri_until(1, after=0)
        seat = t.next_seat(last)
        if want(seat, t.m.draw_tile("wall")):
            return t, seat
    raise AssertionError("no seed gives the wanted sea bottom")


def test_sea_bottom_self_draw_four_players():
    hands = {0: "19m19p19s1234z567z9s", **JOKER_WAIT}
    t, seat = _to_sea_bottom(4, hands, lambda s, x: s != 0 and x.is_playing and not x.is_joker, "9s")
    tile = t.draw(seat)
    assert t.state.wall_remaining == 0
    t.win_self(seat, tile)
    w = t.state.wins[0]
    assert w.valid and w.last_tile
    v = w.result.extra["value"]
    assert v == 3 + 3 * len(t.state.seat_state[seat].flowers) + (3 if tile.number in (2, 5, 8) and tile.is_suited
                                                                  else 0)
    s, e = t.finish()
    assert sum(s.deltas) == 0 and t.deltas(s)[seat] == 3 * v  # no sea-bottom fan: an ordinary self-draw
    assert e.next_dealer == 1


def test_river_bottom_win_and_no_pung_on_it_three_players():
    hands = {0: "j19m19p19s1234z56z7z", 1: JOKER_WAIT[1], 2: JOKER_WAIT[2]}
    t, seat = _to_sea_bottom(3, hands, lambda s, x: x.is_playing and not x.is_joker, "7z")
    tile = t.draw(seat)
    t.discard(seat, tile)  # the river bottom
    winner = 1 if seat != 1 else 2
    other = 2 if winner == 1 else 0
    assert t.claim(other, "pung", seat, str(tile), f"{tile}{tile}")[0].code == "claim_last_tile"
    t.win_discard(winner, seat, tile)
    w = t.state.wins[0]
    assert w.valid and w.last_tile
    s, e = t.finish()
    v = w.result.extra["value"]
    assert t.deltas(s)[winner] == v and t.deltas(s)[seat] == -v
    assert e.next_dealer == (0 if winner == 0 else 1)


def test_river_bottom_joker_is_a_draw():
    hands = {0: "j19m19p19s1234z56z7z", 1: JOKER_WAIT[1], 2: JOKER_WAIT[2]}
    t, seat = _to_sea_bottom(3, hands, lambda s, x: x.is_playing and not x.is_joker, "7z")
    t.draw(seat)
    t.discard(seat, "j")  # a joker on the river bottom cannot be won on (001 §Морское дно и речное дно 3)
    for s in (1, 2):
        if s != seat:
            assert t.claim(s, "hu", seat, "j")[0].code == "claim_not_allowed"
    t.exhaustive()
    s, e = t.finish()
    assert s.payments == () and set(s.deltas) == {0}
    assert e.next_dealer == 0  # a draw: East keeps the deal


def test_sea_bottom_flower_stays_in_hand():
    hands = {0: "19m19p19s1234z567z9s"}
    t, seat = _to_sea_bottom(4, hands, lambda s, x: x.is_flower, "9s")
    f = t.draw(seat)
    assert f.is_flower and t.state.wall_remaining == 0
    assert f in t.held(seat)  # no replacement is possible: the flower stays among the tiles
    code = t.rejected(Discarded(seat=seat, tile=str(f), hand_id="t"))
    assert code == "flower_discard"  # 001 §Замена цветов 6
    t.discard(seat, next(x for x in t.held(seat) if not x.is_flower))
    t.exhaustive()
    s, e = t.finish()
    assert s.payments == () and e.next_dealer == 0


def test_false_win_pays_nine_and_play_goes_on_with_a_dead_hand():
    t = RedTable(4, {0: "19m19p19s1234z567z9s", 1: "9s19m19p1s1234z567z"})
    t.pre_play()
    t.ok(Won(seat=0, tile="9s", from_seat=None, hand_id="t"))
    got = t.submit(HandRevealed(seat=0, tiles=tuple(str(x) for x in t.held(0)), winning="9s", hand_id="t"))
    assert [v.code for v in got if isinstance(v, Violation)] == ["false_win"]
    assert t.state.seat_state[0].dead  # the offender's hand is dead (001 §Неправильные объявления 5)
    # the hand continues (§Неправильные объявления 7): the offender discards, and may claim nothing
    t.discard(0, "9s")
    t.discard(1, t.draw(1))
    code = t.claim(0, "hu", 1, str(t.state.seat_state[1].pond[-1]))[0].code
    assert code == "claim_inactive_player"
    t.tsumogiri_until(0, after=1)
    t.exhaustive()
    s, e = t.finish()
    assert t.deltas(s) == {0: -27, 1: 9, 2: 9, 3: 9}
    assert all(p["rule"].startswith("001 §Штрафы 1") for p in _payments(s))
    assert e.next_dealer == 0


def test_no_kongs_in_any_form():
    t = RedTable(4, {0: "1111m19p19s1234z56z", 1: "222m9p19s1234z567z"})
    t.pre_play()
    code = t.rejected(MeldMade(seat=0, kind="kong_concealed", tiles=("1m", "1m", "1m", "1m"), hand_id="t"))
    assert code == "kong_not_allowed"  # 001 §Панг 5
    t.discard(0, "1m")
    assert t.claim(1, "kong", 0, "1m", "111m")[0].code == "claim_not_allowed"


def test_chow_from_the_previous_player_and_pung_priority_three_players():
    t = RedTable(3, {0: "3m19p19s1234z567z99p", 1: "45m9p19s1234z567z1m", 2: "33m1p19s1234z567z2m"})
    t.pre_play()
    t.discard(0, "3m")
    assert t.claim(2, "chow", 0, "3m", "12m")[0].code == "chow_not_from_left"  # seat 2's left is seat 1
    assert not isinstance(t.claim(1, "chow", 0, "3m", "45m")[0], Violation)  # seat 1's left player is East (spec A6)
    assert not isinstance(t.claim(2, "pung", 0, "3m", "33m")[0], Violation)
    (meld,) = t.m.arbitrate()
    assert (meld.seat, meld.kind) == (2, "pung")  # pung before chow (001 §Иерархия объявлений 2)
    t.ok(meld)


def test_two_players_chow_from_the_opponent():
    t = RedTable(2, {0: "3m19p19s1234z567z99p", 2: "45m9p19s1234z567z9s"})
    t.pre_play()
    t.discard(0, "3m")
    assert not isinstance(t.claim(2, "chow", 0, "3m", "45m")[0], Violation)
    (meld,) = t.m.arbitrate()
    t.ok(meld)
    assert str(t.state.seat_state[2].melds[0]) == "[345m]"


def test_four_jokers_self_drawn_four_players():
    # seat 1 holds three jokers and draws the fourth: 12mj 78sj 11zj 456p + 5sj (every group has a natural)
    t = RedTable(4, {1: "jjj12m456p78s11z5s"}, head="j")
    t.pre_play()
    t.discard(0, next(x for x in t.held(0) if not x.is_flower and not x.is_joker))
    assert t.draw(1).is_joker
    t.win_self(1, "j")
    w = t.state.wins[0]
    assert w.valid
    assert len(w.result.extra["arrangement"]["jokers_as"]) == 4
    direct = RED.score_checked(t.state.seat_state[1].hand(winning=tile("j")), RED.context({"self_drawn": True}))
    assert direct.extra["value"] == w.result.extra["value"]
    s, e = t.finish()
    v = w.result.extra["value"]
    assert t.deltas(s) == {0: -v, 1: 3 * v, 2: -v, 3: -v}
    assert e.next_dealer == 1


def test_pung_claimed_with_two_jokers_from_the_hand():
    # spec A12 (red-claim-19): j j + the natural discard is a pung of the discard; it stays exposed (§Джокеры 4)
    t = RedTable(4, {0: "6m19p19s1234z567z99p", 2: "jj19m19p1234z567z"})
    t.pre_play()
    t.discard(0, "6m")
    assert not isinstance(t.claim(2, "pung", 0, "6m", "jj")[0], Violation)
    (meld,) = t.m.arbitrate()
    t.ok(meld)
    m = t.state.seat_state[2].melds[0]
    assert str(m) == "[6mjj]" and m.base == 5
    assert t.state.current == 2 and not any(x.is_joker for x in t.held(2))


def test_hand_declared_dead_claims_nothing_cannot_win_and_plays_on():
    """A short/long hand found by the referee (a HandDead event, 001 §Перебор и недобор костей 1–5): the
    player draws and discards, his claims and wins are refused, the hand settles without him."""
    from rules.events import HandDead

    t = RedTable(4, {0: "3m19p19s1234z567z99p", 1: "9s19m19p1s1234z567z"}, head="2m")
    t.pre_play()
    t.ok(HandDead(seat=1, reason="tile_count", rule="001 §Перебор и недобор костей", hand_id="t"))
    assert t.state.seat_state[1].dead and t.state.seat_state[1].dead_since is not None
    assert t.rejected(HandDead(seat=1, reason="judge", hand_id="t")) == "out_of_phase"  # dead already
    t.discard(0, "9p")
    assert t.claim(1, "hu", 0, "9p")[0].code == "claim_inactive_player"  # the 13 orphans wait, refused
    assert t.claim(1, "chow", 0, "9p", "")[0].code == "claim_inactive_player"
    drawn = t.draw(1)  # a dead hand keeps drawing and discarding
    t.discard(1, drawn if not drawn.is_flower else t.held(1)[0])
    t.tsumogiri_until(0, after=1)
    t.exhaustive()
    s, e = t.finish()
    assert s.payments == () and e.next_dealer == 0
    assert all(not w.valid for w in t.state.wins)

