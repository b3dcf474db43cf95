"""Properties over random complete hands played by the bots through the hand machine (``rules.simulate``),
settled by the Sichuan ledger (scaled: make test-long plays 10,000 hands per profile).

* settlements are zero-sum apart from penalties paid to nobody, and the machine's settlement is the ledger's;
* no winner pays for anything after his hu;
* every valid hu hand has at most two suits and none of its declared missing suit;
* every payment carries a reason and a seed reference; the hand ends by three hu (two at a 3-player table)
  or by exhaustion; kong refunds never exceed what was paid.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.notation import Hand
from rules.profiles import registry
from rules.profiles.sichuan.game import ledger_from_state, win_hand
from rules.profiles.sichuan.params import PARAMS
from rules.profiles.sichuan.scoring import hand_suits
from rules.simulate import play_hand
from rules.tiles import KINDS
from tests.conftest import scaled

N_HANDS = scaled(150, 10_000)


@pytest.mark.parametrize("profile", sorted(PARAMS))
def test_random_hands(profile: str) -> None:
    prof = registry.get(profile)
    rng = random.Random(f"sichuan-{profile}")
    seen = {"hu": 0, "exhaustion": 0, "wins": 0, "three_player": 0, "false_hu": 0, "kongs": 0}
    for i in range(N_HANDS):
        n_players = 3 if i % 7 == 0 else 4
        seats = tuple(range(n_players))
        dealer = rng.choice(seats)
        res = play_hand(prof, random.Random(rng.random()), n_players=n_players, dealer=dealer,
                        error_rate=0.05 if i % 3 == 0 else 0.0, hand_id=f"{profile}-{i}")
        state = res.machine.state
        ledger = ledger_from_state(prof, state)
        s = ledger.settle()
        # zero-sum apart from penalties; the machine settled the hand as the ledger does
        assert sum(s.deltas.values()) == -s.penalties_total
        assert set(s.deltas) == set(seats)
        assert res.deltas == tuple(s.deltas.get(seat, 0) for seat in range(4))
        # every payment explained
        assert all(p.reason and p.rule and p.amount > 0 for p in s.payments)
        assert all(p.payer != p.payee for p in s.payments)
        # no winner pays after winning
        for h in ledger.hus:
            if h.valid:
                assert all(p.payer != h.seat for p in s.payments[h.at:]), (h.seat, s.lines())
        # every valid hu hand: two suits at most, never the missing suit
        wins = state.valid_wins()
        for w in wins:
            ss = state.seat_state[w.seat]
            suits = hand_suits(win_hand(ss, w))
            assert len(suits) <= 2 and ss.missing_suit not in suits
        # how the hand ended
        n_out = len(ledger.hus)
        if s.ended_by == "hu":
            assert n_out == len(seats) - 1
        else:
            assert s.ended_by == "exhaustion" and n_out < len(seats) - 1
        assert s.next_dealer in seats and s.next_dealer == res.next_dealer
        for k in ledger.kongs:
            assert k.status in ("valid", "refunded", "robbed")
        seen[s.ended_by] += 1
        seen["wins"] += len(wins)
        seen["three_player"] += len(seats) == 3
        seen["false_hu"] += sum(1 for h in ledger.hus if not h.valid)
        seen["kongs"] += len(ledger.kongs)
    # the sample really exercises both endings, wins, false hu and kongs
    assert seen["hu"] and seen["exhaustion"] and seen["wins"] > N_HANDS and seen["three_player"], seen
    assert seen["false_hu"] and seen["kongs"], seen


SUITED = st.integers(0, 26)


@given(st.lists(SUITED, min_size=14, max_size=14))
def test_scoring_agrees_with_shape_check(kinds: list[int]) -> None:
    """Any 14 tiles: valid wins have ≤ 2 suits and a base within the limit; invalid ones say why."""
    for name in PARAMS:
        prof = registry.get(name)
        hand = Hand(tuple(KINDS[k] for k in kinds[:13]), (), KINDS[kinds[13]])
        r = prof.score_checked(hand, prof.context({}))
        if r.valid:
            assert len(hand_suits(hand)) <= 2
            assert 1 <= r.extra["base_points"] <= 1 << prof.params.fan_limit
            assert r.total_fan == sum(f.value for f in r.fans)
        else:
            assert r.reason


@st.composite
def complete_hands(draw) -> Hand:
    """A random complete Sichuan hand: two suits (or one), four sets (some declared) and a pair."""
    from rules.notation import Meld

    suits = draw(st.lists(st.sampled_from("mps"), min_size=1, max_size=2, unique=True))
    counts = [0] * 27
    concealed: list[int] = []
    melds: list[Meld] = []
    for _ in range(4):
        s = "mps".index(draw(st.sampled_from(suits)))
        kind = draw(st.sampled_from(["chow", "pung", "kong_open", "kong_concealed", "pung_open"]))
        if kind == "chow":
            b = s * 9 + draw(st.integers(0, 6))
            tiles = [b, b + 1, b + 2]
        else:
            b = s * 9 + draw(st.integers(0, 8))
            tiles = [b] * (4 if kind.startswith("kong") else 3)
        if any(counts[t] + tiles.count(t) > 4 for t in tiles):
            continue
        for t in tiles:
            counts[t] += 1
        if kind == "chow" or kind == "pung":
            concealed += tiles
        else:
            melds.append(Meld.build([KINDS[t] for t in tiles], concealed=kind == "kong_concealed"))
    s = "mps".index(draw(st.sampled_from(suits)))
    p = s * 9 + draw(st.integers(0, 8))
    if counts[p] > 2:
        p = next(k for k in range(27) if counts[k] <= 2 and "mps"[k // 9] in suits)
    concealed += [p, p]
    counts[p] += 2
    n_sets = len(melds) + (len(concealed) - 2) // 3
    if n_sets < 4:  # some set was skipped for copies: fill with chows/pungs that fit
        for k in range(27):
            while n_sets < 4 and "mps"[k // 9] in suits and counts[k] <= 1:
                concealed += [k, k, k]
                counts[k] += 3
                n_sets += 1
    assume(n_sets == 4)  # a one-suit hand can run out of room for a fourth set
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    return Hand(tuple(KINDS[k] for k in concealed), tuple(melds), KINDS[win])


@given(complete_hands(), st.booleans(), st.booleans())
def test_complete_hands_score(hand: Hand, self_drawn: bool, last_tile: bool) -> None:
    """Every complete two-suit hand wins; MPL kong + quad equals WMSG quad; the limits hold."""
    mpl, wmsg = registry.get("sichuan-mpl2025"), registry.get("sichuan-wmsg")
    ctx = {"self_drawn": self_drawn, "last_tile": last_tile, "winner_seat": 0}
    if not self_drawn:
        ctx["discarder_seat"] = 1
    a = mpl.score_checked(hand, mpl.context(ctx))
    b = wmsg.score_checked(hand, wmsg.context(ctx))
    assert a.valid and b.valid, (str(hand), a.reason)
    fa = {f.extra["id"]: f.value for f in a.fans}
    fb = {f.extra["id"]: f.value for f in b.fans}
    assert fa.pop("kong", 0) + fa.pop("quad", 0) == fb.pop("quad", 0)
    assert fa == fb
    assert a.total_fan == b.total_fan
    assert a.extra["base_points"] == 1 << min(a.total_fan, 4)
    assert b.extra["base_points"] == 1 << min(b.total_fan, 3)
    assert sum(a.extra["payments"].values()) == 0
    assert a.points["total"] == a.extra["payments"]["0"]
