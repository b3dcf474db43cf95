"""Properties over random complete hands played by ``rules.profiles.sichuan.sim`` (scaled: make test-long
plays 10,000 hands per profile).

* settlements are zero-sum apart from penalties paid to nobody;
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
from rules.profiles.sichuan.params import PARAMS
from rules.profiles.sichuan.scoring import hand_suits
from rules.profiles.sichuan.sim import simulate_hand
from rules.tiles import KINDS
from tests.conftest import scaled

N_HANDS = scaled(150, 10_000)


@pytest.mark.parametrize("profile", sorted(PARAMS))
def test_random_hands(profile: str) -> None:
    params = PARAMS[profile]
    rng = random.Random(f"sichuan-{profile}")
    seen = {"hu": 0, "exhaustion": 0, "wins": 0, "three_player": 0}
    for i in range(N_HANDS):
        seats = (0, 1, 2) if i % 7 == 0 else (0, 1, 2, 3)
        dealer = rng.choice(seats)
        res = simulate_hand(params, rng, seats=seats, dealer=dealer)
        s = res.settlement
        # zero-sum apart from penalties
        assert sum(s.deltas.values()) == -s.penalties_total
        assert set(s.deltas) == set(seats)
        # every payment explained
        assert all(p.reason and p.rule and p.amount > 0 for p in s.payments)
        assert all(p.payer != p.payee for p in s.payments)
        # no winner pays after winning
        for h in res.ledger.hus:
            if h.valid:
                assert all(p.payer != h.seat for p in s.payments[h.at:]), (h.seat, s.lines())
        # every hu hand: two suits at most, never the missing suit
        for _seat, hand, missing in res.wins:
            suits = hand_suits(hand)
            assert len(suits) <= 2 and missing not in suits
        # how the hand ended
        n_out = len(res.ledger.hus)
        if s.ended_by == "hu":
            assert n_out == len(seats) - 1
        else:
            assert s.ended_by == "exhaustion" and n_out < len(seats) - 1
        assert s.next_dealer in seats
        for k in res.ledger.kongs:
            assert k.status in ("valid", "refunded", "robbed")
        seen[s.ended_by] += 1
        seen["wins"] += len(res.wins)
        seen["three_player"] += len(seats) == 3
    # the sample really exercises both endings and wins
    assert seen["hu"] and seen["exhaustion"] and seen["wins"] > N_HANDS and seen["three_player"]


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
