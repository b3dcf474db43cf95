"""Property tests over random complete hands (``scaled(small, long)``: ≥ 10 000 in ``make test-long``).

* the scorer agrees with an independent riichi scorer (the ``mahjong`` package configured as EMA 2016:
  open tanyao, no red fives, no kiriage, 11+ han = sanbaiman, no double yakuman) on validity, han, fu and
  points; where several yakuman meet, that package stacks them and EMA does not, so only the limit is
  compared there;
* han/fu and points agree with the spec's printed points table (§11.3), an independent statement of the
  formula;
* each hand's settlement is zero-sum, riichi sticks included.
"""

from __future__ import annotations

import random

import pytest

from rules.profiles import registry
from rules.profiles.riichi import settlement
from tests.conftest import scaled
from tests.profiles.riichi.gen import mahjong_score, random_complete_hand, random_context

N = scaled(400, 10_000)

# spec §11.3 non-limit table, as printed: fu -> per han 1..4 (None = impossible, "M" = mangan)
NONDEALER_RON = {
    20: (None, None, None, None),
    25: (None, 1600, 3200, 6400),
    30: (1000, 2000, 3900, 7700),
    40: (1300, 2600, 5200, "M"),
    50: (1600, 3200, 6400, "M"),
    60: (2000, 3900, 7700, "M"),
    70: (2300, 4500, "M", "M"),
    80: (2600, 5200, "M", "M"),
    90: (2900, 5800, "M", "M"),
    100: (3200, 6400, "M", "M"),
    110: (3600, 7100, "M", "M"),
}
DEALER_RON = {
    20: (None, None, None, None),
    25: (None, 2400, 4800, 9600),
    30: (1500, 2900, 5800, 11600),
    40: (2000, 3900, 7700, "M"),
    50: (2400, 4800, 9600, "M"),
    60: (2900, 5800, 11600, "M"),
    70: (3400, 6800, "M", "M"),
    80: (3900, 7700, "M", "M"),
    90: (4400, 8700, "M", "M"),
    100: (4800, 9600, "M", "M"),
    110: (5300, 10600, "M", "M"),
}
NONDEALER_TSUMO = {  # (non-dealer pays, dealer pays)
    20: (None, (400, 700), (700, 1300), (1300, 2600)),
    25: (None, None, (800, 1600), (1600, 3200)),
    30: ((300, 500), (500, 1000), (1000, 2000), (2000, 3900)),
    40: ((400, 700), (700, 1300), (1300, 2600), "M"),
    50: ((400, 800), (800, 1600), (1600, 3200), "M"),
    60: ((500, 1000), (1000, 2000), (2000, 3900), "M"),
    70: ((600, 1200), (1200, 2300), "M", "M"),
    80: ((700, 1300), (1300, 2600), "M", "M"),
    90: ((800, 1500), (1500, 2900), "M", "M"),
    100: ((800, 1600), (1600, 3200), "M", "M"),
    110: ((900, 1800), (1800, 3600), "M", "M"),
}
DEALER_TSUMO = {
    20: (None, 700, 1300, 2600),
    25: (None, None, 1600, 3200),
    30: (500, 1000, 2000, 3900),
    40: (700, 1300, 2600, "M"),
    50: (800, 1600, 3200, "M"),
    60: (1000, 2000, 3900, "M"),
    70: (1200, 2300, "M", "M"),
    80: (1300, 2600, "M", "M"),
    90: (1500, 2900, "M", "M"),
    100: (1600, 3200, "M", "M"),
    110: (1800, 3600, "M", "M"),
}
# limit -> (non-dealer ron, non-dealer tsumo (nd, d), dealer ron, dealer tsumo each)
LIMITS = {
    "mangan": (8000, (2000, 4000), 12000, 4000),
    "haneman": (12000, (3000, 6000), 18000, 6000),
    "baiman": (16000, (4000, 8000), 24000, 8000),
    "sanbaiman": (24000, (6000, 12000), 36000, 12000),
    "yakuman": (32000, (8000, 16000), 48000, 16000),
}


def _cases(seed: int, n: int):
    rng = random.Random(seed)
    prof = registry.get("riichi-ema2016")
    for _ in range(n):
        hand, pool = random_complete_hand(rng)
        ctx = random_context(rng, hand, pool)
        yield rng, hand, ctx, prof.score_checked(hand, prof.context(ctx))


def test_agrees_with_independent_scorer():
    checked = yakuman_seen = 0
    for _, hand, ctx, res in _cases(20260, N):
        peer = mahjong_score(hand, ctx)
        assert res.valid == (peer.error is None), (str(hand), ctx, res.reason, peer.error)
        if not res.valid:
            continue
        checked += 1
        if res.extra["limit"] == "yakuman":
            yakuman_seen += 1
            assert peer.han >= 13, (str(hand), ctx)
            if len(res.extra["yaku"]) == 1:
                assert res.points["total"] == peer.cost["total"], (str(hand), ctx)
            continue
        got = (res.extra["han"], res.extra["fu"], res.points["total"])
        assert got == (peer.han, peer.fu, peer.cost["total"]), (str(hand), ctx, res.extra["yaku"], peer.yaku)
    assert checked > N // 3 and yakuman_seen > 0


def _table_points(han: int, fu: int, dealer: bool, self_drawn: bool, limit: str | None):
    if limit is None and han <= 4:
        table = (
            (DEALER_TSUMO if dealer else NONDEALER_TSUMO)
            if self_drawn
            else (DEALER_RON if dealer else NONDEALER_RON)
        )
        entry = table[fu][han - 1]
        assert entry not in (None, "M"), (han, fu)
        return entry
    nd_ron, nd_tsumo, d_ron, d_tsumo = LIMITS[limit]
    if self_drawn:
        return d_tsumo if dealer else nd_tsumo
    return d_ron if dealer else nd_ron


def test_han_fu_consistent_with_points_table():
    n = 0
    for _, _hand, ctx, res in _cases(777, N):
        if not res.valid:
            continue
        e, pts, honba = res.extra, res.points, ctx["honba"]
        if e["limit"] is None:
            assert e["han"] <= 4 and e["fu"] <= 110
            assert NONDEALER_RON[e["fu"]][e["han"] - 1] != "M"
        sd = ctx["self_drawn"] or ctx.get("kong_replacement", False)
        want = _table_points(e["han"], e["fu"], e["dealer"], sd, e["limit"])
        if not sd:
            assert pts["ron"] == want + 300 * honba
        elif e["dealer"]:
            assert pts["tsumo_each_pays"] == want + 100 * honba
        else:
            assert (pts["tsumo_nondealer_pays"], pts["tsumo_dealer_pays"]) == (
                want[0] + 100 * honba,
                want[1] + 100 * honba,
            )
        assert e["han"] == (
            13 if e["limit"] == "yakuman" else sum(h for _, h in e["yaku"]) + e["dora"] + e["ura_dora"]
        )
        n += 1
    assert n > N // 3


def test_settlement_zero_sum_with_sticks():
    n = 0
    for rng, _hand, ctx, res in _cases(4242, N):
        if not res.valid:
            continue
        seat_of_winner = int(ctx["seat_wind"][0]) - 1  # dealer seat 0 this hand
        others = [s for s in range(4) if s != seat_of_winner]
        riichi = [s for s in others if rng.random() < 0.3] + ([seat_of_winner] if ctx["riichi"] else [])
        before = rng.choice([0, 0, 1000, 3000])
        honba = ctx["honba"]
        sd = ctx["self_drawn"] or ctx.get("kong_replacement", False)
        if sd:
            s = settlement.settle_tsumo(seat_of_winner, 0, res.points, honba, before, riichi)
            received = res.points["total"]
        else:
            disc = rng.choice(others)
            s = settlement.Settlement(settlement.settle_ron_win(
                seat_of_winner, disc, res.points, honba, before, riichi, first=seat_of_winner))
            received = res.points["total"]
        d = s.deltas()
        assert sum(d) == before  # the deposits and the stakes of the hand end with the winner
        stake_paid = 1000 if seat_of_winner in riichi else 0
        assert d[seat_of_winner] == received + before + 1000 * len(riichi) - stake_paid
        assert all(p.reason and p.ref for p in s.payments)
        n += 1
    assert n > N // 3


@pytest.mark.parametrize("seed", range(3))
def test_reading_choice_is_best(seed):
    """The chosen reading pays at least as much as any other reading of the hand."""
    from rules.profiles.riichi.profile import value_of_reading
    from rules.profiles.riichi.reading import HandInfo, readings

    prof = registry.get("riichi-ema2016")
    for _, hand, ctx, res in _cases(seed, scaled(100, 2000)):
        if not res.valid:
            continue
        c = prof.context(ctx)
        for r in readings(HandInfo(hand, c)):
            v = value_of_reading(r, res.extra["dora"], res.extra["ura_dora"], c["honba"])
            if v is not None and res.extra["limit"] != "yakuman":
                assert v.points["total"] <= res.points["total"]
