"""Siamese MCR played through its hand machine (rules.game.siamese): the seed's rules one by one
(003 «Правила сиамского формата» 1-24, spec mcr.md §11), replay identity, and random bot hands."""
from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from rules.events import Claimed, Dealt, DiceRolled, Discarded, Drew, HandStarted, MeldMade, WallBroken, Won
from rules.game.siamese import SiameseHandMachine, replay_siamese, siamese_table_view
from rules.notation import parse_tiles
from rules.profiles.mcr.siamese import MCRSiamese, siamese_win_payments
from rules.siamese_play import complete_subsets
from rules.simulate import play_game, play_hand
from rules.wall import break_wall, tile_set
from tests.conftest import scaled

DICE = ((3, 4), (2, 5))
PROFILE = MCRSiamese()


def tiles(text: str) -> tuple[str, ...]:
    return tuple(str(t) for t in parse_tiles(text))


def fillers(used: list[str], n: int, skip: str = "") -> list[str]:
    """``n`` tiles of the 136 not in ``used`` (nor of the kinds in ``skip``), in a fixed order."""
    left = Counter(str(t) for t in tile_set("std136")) - Counter(used)
    banned = set(tiles(skip)) if skip else set()
    out = [t for t in sorted(left.elements(), key=lambda x: (x[1], x[0])) if t not in banned]
    return out[:n]


class Hand:
    """A scripted Siamese hand: pools per seat (the dealer's 28th tile, his first draw, last)."""

    def __init__(self, pools: dict[int, str], n_players: int = 3, dealer: int = 0, mode: str = "full",
                 keep: str = "9m7z4z5z"):
        self.keep = keep  # kinds the fillers leave alone
        self.m = SiameseHandMachine(PROFILE, mode)
        self.t = 0.0
        self.sub(HandStarted(profile=PROFILE.name, n_players=n_players, dealer=dealer))
        spec = PROFILE.wall_spec(n_players)
        brk = break_wall(spec, dealer, DICE)
        for thrower, d in zip(brk.throwers, DICE, strict=True):
            self.sub(DiceRolled(seat=thrower, values=d))
        self.sub(WallBroken(wall_side=brk.side, stack=brk.count, position=0))
        used = [t for p in pools.values() for t in tiles(p)]
        for s in spec.seats:
            given = tiles(pools[s]) if s in pools else ()
            extra = tuple(fillers(used, (28 if s == dealer else 27) - len(given), skip=keep))
            used += list(extra)
            self.sub(Dealt(seat=s, tiles=extra + given))  # the given tiles last: the dealer's 28th too

    @property
    def st(self):
        return self.m.state

    def sub(self, ev):
        self.t += 1.0
        return self.m.submit(dataclasses.replace(ev, t_mono=self.t))

    def one(self, ev):
        return self.sub(ev)[0]

    def win(self, seat: int, slot: int, tile: str, hand: str, from_seat=None, drawn_tile=None):
        return self.one(Won(seat=seat, tile=tile, from_seat=from_seat, hand=hand, slot=slot, drawn_tile=drawn_tile))

    def discard(self, seat: int, tile: str):
        return self.one(Discarded(seat=seat, tile=tile))

    def draw(self, seat: int, tile: str):
        return self.one(Drew(seat=seat, tile=tile))

    def pass_turns(self, seats: list[int]) -> None:
        """Each seat draws a tile it can spare and discards it at once (the claim window passes)."""
        for s in seats:
            spare = fillers([t for ss in self.st.seat_state.values() for t in map(str, ss.tiles())]
                            + [str(t) for ss in self.st.seat_state.values() for t in ss.pond], 1, skip=self.keep)[0]
            assert self.draw(s, spare).TYPE == "drew"
            assert self.discard(s, spare).TYPE == "discarded"

    def codes(self) -> list[str]:
        return [v.code for v in self.st.violations]


A14 = "123m123p123s789s99m"  # Mixed Triple Chow etc., complete
B13 = "1122m3344p5566s7z"  # seven pairs waiting on 7z


def _replays(h: Hand) -> None:
    """The log (violations included) replays to the identical state, and the state is JSON."""
    again = replay_siamese(PROFILE, h.m.log)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(h.m.to_json(), sort_keys=True)


def _value(w) -> int:
    return w.result.total_fan


def _net(pays, seats) -> dict[int, int]:
    out = {s: 0 for s in seats}
    for p in pays:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out


# --- the deal, 2 and 3 players (§1, §7-8, §22) ---------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 2])
def test_deal_sizes_and_the_live_wall(players):
    h = Hand({0: A14 + B13 + "7z"}, n_players=players)
    st = h.st
    assert st.seats == ((0, 1, 2) if players == 3 else (0, 2))
    assert {s: st.seat_state[s].n_concealed for s in st.seats} == {s: 28 if s == 0 else 27 for s in st.seats}
    assert st.phase == "turn" and st.current == 0
    # 136 tiles: 82 dealt to three players; two players are dealt 55 and 27 more are a dead wall (§22)
    assert st.wall.remaining == 54
    assert st.wall.spec.dead_wall == (27 if players == 2 else 0)
    assert str(st.seat_state[0].drawn) == "7z"  # East's 28th tile is his first draw (§8)


def test_a_wrong_deal_size_is_a_violation():
    m = SiameseHandMachine(PROFILE)
    m.submit(HandStarted(profile=PROFILE.name, n_players=3, dealer=0))
    brk = break_wall(PROFILE.wall_spec(3), 0, DICE)
    for thrower, d in zip(brk.throwers, DICE, strict=True):
        m.submit(DiceRolled(seat=thrower, values=d))
    m.submit(WallBroken(wall_side=brk.side, stack=brk.count, position=0))
    out = m.submit(Dealt(seat=0, tiles=tiles(A14 + B13)))  # 27 for East, who takes 28 (§8)
    assert out[0].TYPE == "violation" and out[0].code == "tile_count"
    assert "003 §Сиамский 8" in out[0].rule


def test_a_four_player_table_is_refused():
    m = SiameseHandMachine(PROFILE)
    out = m.submit(HandStarted(profile=PROFILE.name, n_players=4, dealer=0))
    assert out[0].TYPE == "violation" and out[0].code == "bad_event"


# --- two wins, the golden rule, two wins in one turn, the drawn tile (§3-5, §9, §11, §17) -----------------


def test_double_strike_ends_the_hand_and_only_the_first_may_keep_the_drawn_tile():
    h = Hand({0: A14 + B13 + "7z"})
    first = h.win(0, 0, "9m", A14, drawn_tile=False)  # keeps the drawn 7z (§17)
    assert first.TYPE == "won", first
    w1 = h.st.wins[0]
    assert w1.valid and w1.drawn_tile_kept and w1.slot == 0
    assert "Single Wait" not in {f.name for f in w1.result.fans}  # #79 not counted (§17)
    assert h.st.phase == "turn" and h.st.current == 0  # the winner keeps the turn (§9)
    assert h.st.seat_state[0].n_concealed == 14  # the won hand's tiles left the pool, face up (§11)
    # a second win must use the drawn tile (§17 exempts only the first)
    bad = h.win(0, 1, "1m", B13 + "7z", drawn_tile=False)
    assert bad.TYPE == "violation" and bad.code == "siamese_drawn_tile" and bad.rule == "003 §Сиамский 17"
    second = h.win(0, 1, "7z", B13 + "7z", drawn_tile=True)
    assert second.TYPE == "won"
    w2 = h.st.wins[1]
    assert w2.valid and _value(w2) >= _value(w1)
    assert h.st.phase == "ended"  # a player with two wins ends the hand (§3)
    settled = h.m.settlement()
    want = _net([*siamese_win_payments(0, _value(w1), None), *siamese_win_payments(0, _value(w2), None)], (0, 1, 2))
    assert {s: settled.deltas[s] for s in (0, 1, 2)} == want
    assert want[0] == 2 * (_value(w1) + 8) + 2 * (_value(w2) + 8)  # §15 twice
    assert sum(settled.deltas) == 0


def test_a_first_win_with_the_drawn_tile_leaves_no_second_win_this_turn():
    h = Hand({0: A14 + B13 + "7z"})
    assert h.win(0, 1, "7z", B13 + "7z", drawn_tile=True).TYPE == "won"
    out = h.win(0, 0, "9m", A14)
    assert out.TYPE == "violation" and out.code == "siamese_no_draw" and out.rule == "003 §Сиамский 5"
    assert h.st.wins[0].valid and not h.st.wins[0].drawn_tile_kept
    assert h.st.seat_state[0].slot_wins == [None, 0]


def test_golden_rule_second_win_worth_less_is_refused():
    # East wins seven pairs with the drawn 7z, then later draws 9m for a cheaper hand (§4)
    h = Hand({0: B13 + "123m123p123s789s9m" + "5z" + "7z"})
    assert h.win(0, 0, "7z", B13 + "7z").TYPE == "won"
    first = _value(h.st.wins[0])
    assert h.discard(0, "5z").TYPE == "discarded"
    h.pass_turns([1, 2])
    assert h.draw(0, "9m").TYPE == "drew"
    out = h.win(0, 1, "9m", "123m123p123s789s99m")
    assert out.TYPE == "violation" and out.code == "golden_rule" and out.rule == "003 §Сиамский 4"
    assert f"first win {first}" in out.message
    assert len(h.st.wins) == 1 and h.st.seat_state[0].slot_wins == [0, None]  # nothing changed
    assert h.st.phase == "turn" and h.discard(0, "9m").TYPE == "discarded"  # play goes on
    _replays(h)


def test_win_on_a_discard_keeps_the_turn_but_allows_no_self_drawn_win_after_it():
    s_pool = "123m123p123s789s9m" + "1122m3344p5566s77z"  # 13 waiting on 9m + a complete seven pairs
    h = Hand({0: "9m", 1: s_pool})
    assert h.discard(0, "9m").TYPE == "discarded"
    assert h.one(Claimed(seat=1, kind="hu", from_seat=0, tile="9m", tiles=tiles("123m123p123s789s9m"),
                         slot=0)).TYPE == "claimed"
    (won,) = h.m.arbitrate()
    assert won.slot == 0 and sorted(tiles(won.hand)) == sorted(tiles("123m123p123s789s9m"))
    assert h.one(won).TYPE == "won"
    w = h.st.wins[0]
    assert w.valid and w.from_seat == 0 and len(w.concealed) == 14
    assert h.st.seat_state[0].pond_claimed == [True]  # the discard joined the exposed hand
    assert h.st.phase == "turn" and h.st.current == 1  # §9
    out = h.win(1, 1, "7z", "1122m3344p5566s77z")  # first by discard, second without a draw: §5
    assert out.TYPE == "violation" and out.code == "siamese_no_draw"
    assert h.discard(1, "1m").TYPE == "discarded"
    assert "tile_count" not in h.codes()  # 14 in the pool + 14 in the won hand before the discard


# --- slots (§10) ----------------------------------------------------------------------------------------------


def test_a_claimed_set_goes_to_the_named_hand_and_a_win_uses_only_its_melds():
    s_pool = "123m123p123s789s9m" + "77z"
    h = Hand({0: "7z", 1: s_pool})
    assert h.discard(0, "7z").TYPE == "discarded"
    bad = h.one(Claimed(seat=1, kind="pung", from_seat=0, tile="7z", tiles=("7z", "7z"), slot=2))
    assert bad.TYPE == "violation" and bad.code == "siamese_slot" and bad.rule == "003 §Сиамский 10"
    assert h.one(Claimed(seat=1, kind="pung", from_seat=0, tile="7z", tiles=("7z", "7z"), slot=1)).TYPE == "claimed"
    (meld,) = h.m.arbitrate()
    assert isinstance(meld, MeldMade) and meld.slot == 1
    assert h.one(meld).TYPE == "meld_made"
    ss = h.st.seat_state[1]
    assert ss.meld_slots == [1] and [str(m) for m in ss.slot_melds(1)] == ["[777z]"] and not ss.slot_melds(0)
    spare = next(str(t) for t in ss.tiles() if str(t) not in tiles("123m123p123s789s9m"))
    assert h.discard(1, spare).TYPE == "discarded"
    h.pass_turns([2])
    assert h.draw(0, "9m").TYPE == "drew" and h.discard(0, "9m").TYPE == "discarded"
    # hand 0 has no melds: the 13 shown tiles and the discard are the whole hand
    assert h.one(Claimed(seat=1, kind="hu", from_seat=0, tile="9m", tiles=tiles("123m123p123s789s9m"),
                         slot=0)).TYPE == "claimed"
    assert h.one(h.m.arbitrate()[0]).TYPE == "won"
    assert h.st.wins[0].valid and h.st.seat_state[1].slot_wins == [0, None]
    # the won hand takes no more sets
    state = h.m.to_json()
    assert state["seat_state"]["1"]["meld_slots"] == [1]


def test_a_win_with_the_other_hands_melds_is_a_false_win():
    s_pool = "123m123p123s789s9m" + "77z"
    h = Hand({0: "7z", 1: s_pool})
    h.discard(0, "7z")
    h.one(Claimed(seat=1, kind="pung", from_seat=0, tile="7z", tiles=("7z", "7z"), slot=1))
    h.one(h.m.arbitrate()[0])
    spare = next(str(t) for t in h.st.seat_state[1].tiles() if str(t) not in tiles("123m123p123s789s9m"))
    h.discard(1, spare)
    h.pass_turns([2])
    h.draw(0, "9m")
    h.discard(0, "9m")
    # naming hand 1 puts the pung into the hand: 13 + 3 + 1 tiles is no hand (MCR §Отдельные нарушения 6)
    out = h.sub(Won(seat=1, tile="9m", from_seat=0, hand="123m123p123s789s9m", slot=1))
    assert [e.TYPE for e in out] == ["won", "violation"] and out[1].code == "false_win"
    assert h.st.seat_state[1].dead and not h.st.wins[0].valid
    assert h.st.phase == "claims"  # the discard is still on offer to the others
    pays = h.m.settlement()
    assert pays.deltas[1] == -40 and sum(pays.deltas) == 0  # a mistaken claim: 20 to each other player
    _replays(h)


def test_a_false_self_drawn_win_under_eight_fan():
    h = Hand({0: "123m456m789p23s11z" + "5z" * 2 + "9m" * 2 + "4s"})
    out = h.sub(Won(seat=0, tile="4s", hand="123m456m789p234s11z", slot=0, drawn_tile=True))
    assert [e.TYPE for e in out] == ["won", "violation"] and out[1].code == "false_win"
    assert h.st.seat_state[0].dead and h.st.seat_state[0].n_concealed == 28  # the tiles stay in the pool
    assert h.win(0, 1, "4s", "123m456m789p234s11z").code == "claim_inactive_player"
    assert h.m.settlement().deltas[:3] == (-20, 10, 10)  # under 8 fan: 10 to each other player


# --- scoring by maximum and payments (§12-16, §23) -----------------------------------------------------------


def test_two_wins_by_one_player_void_the_others_wins():
    a2 = "456m456p456s678s55z"  # East's cheap hand (Mixed Triple Chow)
    b2 = "33m55m66p88p22s88s4z"  # seven pairs waiting on 4z
    h = Hand({0: a2 + b2 + "9m", 1: "123m123p123s789s9m" + "1122m3344p5566s77z"})
    h.discard(0, "9m")
    h.one(Claimed(seat=1, kind="hu", from_seat=0, tile="9m", tiles=tiles("123m123p123s789s9m"), slot=0))
    assert h.one(h.m.arbitrate()[0]).TYPE == "won"
    h.discard(1, "1m")
    h.pass_turns([2])
    h.draw(0, "4z")
    assert h.win(0, 0, "6s", a2, drawn_tile=False).TYPE == "won"
    assert h.win(0, 1, "4z", b2 + "4z", drawn_tile=True).TYPE == "won"
    assert h.st.phase == "ended"
    s_win, e1, e2 = h.st.wins
    assert s_win.valid and s_win.seat == 1 and e1.valid and e2.valid
    settled = h.m.settlement()
    only_east = _net([*siamese_win_payments(0, _value(e1), None), *siamese_win_payments(0, _value(e2), None)],
                     (0, 1, 2))
    assert {s: settled.deltas[s] for s in (0, 1, 2)} == only_east  # §13: South's win scores nothing
    assert h.one(settled).TYPE == "settled" and h.one(h.m.hand_end()).TYPE == "hand_ended"
    assert h.st.next_dealer == 1
    _replays(h)
    with_south = _net([*siamese_win_payments(1, _value(s_win), 0)], (0, 1, 2))
    assert with_south[1] == _value(s_win) + 16  # §16 (what it would have been worth)


def test_two_player_payments_are_the_hand_value():
    h = Hand({0: A14 + B13 + "7z"}, n_players=2)
    h.win(0, 0, "9m", A14, drawn_tile=False)
    h.win(0, 1, "7z", B13 + "7z", drawn_tile=True)
    w1, w2 = h.st.wins
    d = h.m.settlement().deltas
    assert d[0] == _value(w1) + _value(w2) == -d[2] and d[1] == d[3] == 0  # §23: ± the value, no +8


def test_session_rotation_and_length():
    g = play_game(PROFILE, 5, n_players=3)
    assert len(g.hands) == 12  # 16 hands less North's deals 4, 8, 12, 16 (§6)
    assert [h.machine.state.dealer for h in g.hands] == [0, 1, 2] * 4
    assert [h.machine.state.round_wind for h in g.hands[::3]] == ["1z", "2z", "3z", "4z"]
    assert sum(g.totals.values()) == 0
    for h in g.hands:
        _check_hand(h, 3)
    g2 = play_game(PROFILE, 6, n_players=2, max_hands=4)
    assert [h.machine.state.dealer for h in g2.hands] == [0, 2, 0, 2]  # East alternates (§24)


# --- random bot hands --------------------------------------------------------------------------------------


def _check_hand(r, players: int) -> Counter:
    st = r.machine.state
    seen: Counter = Counter()
    assert st.phase == "over"
    assert not st.violations, [v.code for v in st.violations]
    # tile conservation: pools + melds + exposed won hands + unclaimed discards + live wall (+ dead wall)
    held = 0
    for s in st.seats:
        ss = st.seat_state[s]
        held += ss.n_concealed + sum(len(m.tiles) for m in ss.melds)
        held += sum(len(st.wins[i].concealed) for i in ss.slot_wins if i is not None)
        held += sum(1 for c in ss.pond_claimed if not c)
        kinds = Counter(t.kind for t in ss.tiles())
        assert max(kinds.values(), default=0) <= 4
    assert held + st.wall.remaining + st.wall.spec.dead_wall == 136
    assert sum(r.deltas) == 0
    wins = st.valid_wins()
    per = Counter(w.seat for w in wins)
    double = [s for s, n in per.items() if n == 2]
    # the hand ends when a player has two wins, or the wall is exhausted (§3)
    if double:
        assert not st.exhaustive and len(double) == 1
        last_win = max(i for i, e in enumerate(st.history) if isinstance(e, Won))
        assert not any(isinstance(e, Drew | Discarded | Claimed) for e in st.history[last_win:])
        seen["double"] += 1
    else:
        assert st.exhaustive and st.wall.remaining == 0
    # golden rule (§4); scoring by maximum (§13-14)
    for s in per:
        mine = [w for w in wins if w.seat == s]
        assert all(_value(w) >= 8 for w in mine)
        if len(mine) == 2:
            assert _value(mine[1]) >= _value(mine[0])
    paid = [w for w in wins if not double or w.seat in double]
    want = _net([p for w in paid for p in siamese_win_payments(w.seat, _value(w), w.from_seat, st.seats)],
                st.seats)
    assert {s: r.deltas[s] for s in st.seats} == want
    seen["hands"] += 1
    seen["with_win"] += bool(wins)
    seen["wins"] += len(wins)
    seen["melds"] += sum(len(st.seat_state[s].melds) for s in st.seats)
    seen["kept"] += sum(1 for w in wins if w.drawn_tile_kept)
    return seen


@pytest.mark.parametrize("players", [3, 2])
def test_random_bot_hands(players):
    n = scaled(30, 500) if players == 3 else scaled(10, 150)
    seen: Counter = Counter()
    rng = random.Random(2026 + players)
    seats = PROFILE.wall_spec(players).seats
    for i in range(n):
        r = play_hand(PROFILE, random.Random(rng.random()), n_players=players, dealer=seats[i % len(seats)],
                      hand_id=f"h{i}")
        seen += _check_hand(r, players)
        if i < 6:  # replay identity, JSON, and the camera's view reaches the same verdicts
            m = r.machine
            again = replay_siamese(PROFILE, m.log, "full", r.wall)
            assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(m.to_json(), sort_keys=True)
            cam = replay_siamese(PROFILE, siamese_table_view(m.log), "table")
            assert cam.state.settled.deltas == m.state.settled.deltas
            assert [(w.seat, w.slot, w.valid, _value(w)) for w in cam.state.wins] == [
                (w.seat, w.slot, w.valid, _value(w)) for w in m.state.wins]
            assert not cam.state.violations
    assert seen["hands"] == n
    assert seen["with_win"] >= n // 2  # a fair share of hands with wins
    if players == 3:
        assert seen["double"] > 0 and seen["kept"] > 0


def test_complete_subsets_finds_both_hands_of_a_pool():
    c = [0] * 34
    for t in parse_tiles(A14 + B13 + "7z"):
        c[t.kind] += 1
    subs = list(complete_subsets(c, 0, limit=1000))
    a = [0] * 34
    for t in parse_tiles(A14):
        a[t.kind] += 1
    b = [0] * 34
    for t in parse_tiles(B13 + "7z"):
        b[t.kind] += 1
    assert tuple(a) in subs and tuple(b) in subs
    assert all(sum(s) == 14 and all(x <= y for x, y in zip(s, c, strict=True)) for s in subs)
    assert all(s[33] for s in complete_subsets(c, 0, must=33))


def test_play_cli_plays_a_siamese_hand(capsys):
    from controller.cli import main

    assert main(["play", "--profile", "mcr-siamese", "--seed", "2", "--hands", "2"]) == 0
    out = capsys.readouterr().out
    assert "declares a win" in out and "with hand" in out and "hand 1:" in out


def test_concealed_kong_goes_to_its_hand_and_its_replacement_can_win():
    h = Hand({0: A14 + "5555z" + "456m456p456s" + "7z"})
    out = h.one(MeldMade(seat=0, kind="kong_concealed", tiles=("5z",) * 4, slot=1))
    assert out.TYPE == "meld_made" and h.st.seat_state[0].meld_slots == [1] and h.st.phase == "replace"
    assert h.one(Drew(seat=0, tile="7z", source="replacement")).TYPE == "drew"
    assert h.win(0, 1, "7z", "456m456p456s77z", drawn_tile=True).TYPE == "won"
    w = h.st.wins[0]
    assert w.valid and w.kong_replacement and w.slot == 1
    assert "Out with Replacement Tile" in {f.name for f in w.result.fans}  # #46 with the drawn tile
    assert h.win(0, 0, "9m", A14).code == "siamese_no_draw"  # the replacement tile was used up
    out = h.one(MeldMade(seat=0, kind="kong_concealed", tiles=("1m",) * 4, slot=1))
    assert out.TYPE == "violation" and out.code == "siamese_slot_won"
    assert h.discard(0, "9m").TYPE == "discarded" and "tile_count" not in h.codes()
    _replays(h)


def test_robbing_a_kong_wins_and_the_kong_goes_back_to_a_pung():
    wait = "123m123s789s99m46p"  # waits on 5p (closed wait)
    h = Hand({0: wait + "5p", 1: "5p5p"}, keep="9m7z4z5z5p")
    h.discard(0, "5p")
    h.one(Claimed(seat=1, kind="pung", from_seat=0, tile="5p", tiles=("5p", "5p"), slot=0))
    assert h.one(h.m.arbitrate()[0]).TYPE == "meld_made"
    spare = next(str(t) for t in h.st.seat_state[1].tiles())
    h.discard(1, spare)
    h.pass_turns([2, 0])
    h.draw(1, "5p")
    out = h.one(MeldMade(seat=1, kind="kong_added", tiles=("5p",) * 4, claimed_tile="5p", slot=1))
    assert out.TYPE == "meld_made" and h.st.phase == "rob"
    assert [str(m) for m in h.st.seat_state[1].slot_melds(0)] == ["[5555p+]"]  # the pung's hand, not slot 1
    h.one(Claimed(seat=0, kind="hu", from_seat=1, tile="5p", tiles=tiles(wait), slot=0))
    (won,) = h.m.arbitrate()
    assert won.robbing_kong and h.one(won).TYPE == "won"
    w = h.st.wins[0]
    assert w.valid and "Robbing the Kong" in {f.name for f in w.result.fans}
    assert [str(m) for m in h.st.seat_state[1].melds] == ["[555p]"] and h.st.wall.kongs == 0
    assert h.st.phase == "turn" and h.st.current == 0  # the robber plays on (§9)
    d = h.m.settlement().deltas
    assert d[0] == _value(w) + 16 and d[1] == -(_value(w) + 8) and d[2] == -8  # §16
