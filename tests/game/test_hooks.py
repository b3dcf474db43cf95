"""The machine's newer hooks and events on the ``basic`` profile: ``settle_hand``, the ``hand_dead``
event and ``dead_hand_codes``, the riichi/discard/kong checks' defaults, dora indicators outside riichi,
and ``play_game``'s ``seating`` / ``next_hand_options``."""
from __future__ import annotations

import pytest

from rules.events import (
    Discarded,
    DoraRevealed,
    Event,
    HandDead,
    HandStarted,
    Payment,
    RiichiDeclared,
)
from rules.game.machine import replay
from rules.profiles.basic import Basic
from rules.simulate import play_game
from tests.game.helpers import HANDS, Script


class FlatFee(Basic):
    """A profile whose settlement is not a sum of per-win parts: every hand costs the dealer 1 to the table."""

    def settle_hand(self, state):
        return [Payment(payer=state.dealer, payee=None, amount=1, reason="table fee", rule="test")]


class Picky(Basic):
    """Refuses discards of 9p and every concealed kong (the new hooks' plumbing)."""

    def check_discard(self, state, seat, tile, tsumogiri):
        return ("kuikae", "no 9p here") if str(tile) == "9p" else None

    def check_kong(self, state, seat, kind, tile):
        return ("kong_not_allowed", "no kongs here")


class Rotating(Basic):
    """Players swap seats 0 and 1 every hand; a counter rides from hand to hand in the options."""

    def seating(self, hands_played, players):
        return (1, 0, 2, 3) if hands_played % 2 else None

    def next_hand_options(self, state):
        return {"counter": int(state.options.get("counter", 0)) + 1}


def test_settle_hand_replaces_the_per_part_hooks():
    s = Script(HANDS, profile=FlatFee())
    s.discard(0, "3z")
    s.win(1, "3z", from_seat=0)  # not a win: would be a false win with penalties under Basic
    settled = s.m.settlement()
    assert [(p["payer"], p["payee"], p["amount"]) for p in settled.payments] == [(0, None, 1)]
    assert settled.deltas == (-1, 0, 0, 0)
    basic = Script(HANDS)
    basic.discard(0, "3z")
    basic.win(1, "3z", from_seat=0)
    basic.reveal(1, "45m123p456p789s77z")
    assert basic.m.settlement().deltas != settled.deltas  # the default sums settle_win/penalty_payments


@pytest.mark.parametrize("mode", ["full", "table"])
def test_hand_dead_event(mode: str):
    s = Script(HANDS, mode=mode)
    s.discard(0, "3z")
    assert s.one(HandDead(seat=1, reason="judge", rule="test")).TYPE == "hand_dead"
    ss = s.state.seat_state[1]
    assert ss.dead and not ss.active and ss.dead_since == len(s.state.history) - 1
    assert s.one(HandDead(seat=1, reason="judge")).code == "out_of_phase"  # dead already
    assert s.claim(1, "hu", 0, "3z").code == "claim_inactive_player"  # basic refuses a dead hand's win
    assert s.claim(1, "pung", 0, "3z").code == "claim_inactive_player"
    assert s.draw(1, "x" if mode == "table" else "1m").TYPE == "drew"  # it still draws ...
    assert s.discard(1, "7z").TYPE == "discarded"  # ... and discards
    js = Event.from_json(HandDead(seat=2, reason="tile_count", rule="x").to_json())
    assert js == HandDead(seat=2, reason="tile_count", rule="x")
    again = replay(Basic(), s.m.log, mode=mode)
    assert again.to_json() == s.m.to_json()


def test_hand_dead_needs_a_seated_player_in_play():
    s = Script(HANDS)
    assert s.one(HandDead(seat=7, reason="judge")).code == "bad_event"
    s.discard(0, "3z")
    s.win(1, "3z", from_seat=0)
    s.reveal(1, "45m123p456p789s77z")  # judged: the hand is over
    assert s.state.phase == "ended"
    assert s.one(HandDead(seat=2, reason="judge")).code == "out_of_phase"


def test_default_profile_refuses_riichi_and_checks_indicators_only_against_kans():
    s = Script(HANDS)
    out = s.sub(Discarded(seat=0, tile="3z", riichi=True))
    assert out[0].code == "riichi_not_allowed" and s.state.phase == "turn"
    assert s.one(RiichiDeclared(seat=0)).code == "riichi_not_allowed"
    assert s.one(DoraRevealed(indicator="1m", kind="initial")).TYPE == "dora_revealed"
    assert s.one(DoraRevealed(indicator="2m", kind="initial")).code == "dora_mismatch"
    assert s.one(DoraRevealed(indicator="2m", kind="kan")).code == "dora_mismatch"  # no kan yet


def test_check_discard_and_check_kong_refuse_on_the_spot():
    hands = dict(HANDS)
    hands[0] = "1111m456p78s1122z9p"
    s = Script(hands, profile=Picky())
    assert s.discard(0, "9p").code == "kuikae"
    assert s.meld(0, "kong_concealed", "1111m").code == "kong_not_allowed"
    assert s.discard(0, "8s").TYPE == "discarded"


def test_play_game_seating_and_options_ride_along():
    g = play_game(Rotating(), 3, max_hands=4)
    for i, h in enumerate(g.hands):
        start = next(e for e in h.events if isinstance(e, HandStarted))
        assert start.options.get("counter", 0) == i
        assert start.seats[:2] == (("P1", "P0") if i % 2 else ("P0", "P1"))
    per_player = {p: 0 for p in range(4)}
    for i, h in enumerate(g.hands):
        for seat in range(4):
            player = (1, 0, 2, 3)[seat] if i % 2 else seat
            per_player[player] += h.deltas[seat]
    assert per_player == g.totals
