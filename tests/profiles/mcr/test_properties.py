"""Properties of the scorer on random complete hands (hypothesis; example counts from the test size)."""
from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from rules.notation import Hand, Meld, format_hand, parse_hand
from rules.profiles.mcr.fan_table import MIN_FAN
from rules.profiles.mcr.options import GREEN_BOOK
from rules.profiles.mcr.principles import exclusion_table
from rules.profiles.mcr.profile import MCR
from rules.profiles.mcr.scorer import fan_value
from rules.tiles import KINDS
from tests.profiles.mcr.randhands import random_case

P = MCR()
GB = MCR(GREEN_BOOK)
SUIT_SPECIFIC = {3, 40}  # All Green, Reversible Tiles: defined on particular suits and ranks
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _case(seed: int):
    return random_case(random.Random(seed))


def _map_hand(h: Hand, f) -> Hand:
    def mt(t):
        return KINDS[f(t.kind)]

    melds = []
    for m in h.melds:
        melds.append(Meld.build([mt(t) for t in m.tiles], concealed=m.is_concealed, added=m.kind == "kong_added"))
    return Hand(tuple(mt(t) for t in h.concealed), tuple(melds), mt(h.winning), h.flowers)


def _mirror(k: int) -> int:
    return k if k >= 27 else (k // 9) * 9 + 8 - k % 9


def _rotate_suits(k: int) -> int:
    return k if k >= 27 else (k + 9) % 27


@given(seeds)
def test_result_is_consistent(seed):
    h, ctx = _case(seed)
    for p in (P, GB):
        r = p.score_checked(h, p.context(ctx))
        s = p.evaluate(h, p.context(ctx))
        assert r.total_fan == sum(f.value * f.count for f in r.fans) == s.total_fan
        assert r.valid == (s.hand_fan >= MIN_FAN)
        if r.valid:
            pts = r.points
            assert pts["total"] == (3 * pts["each"] if ctx["self_drawn"] else pts["discarder"] + 16)
        excl = exclusion_table(p.options)
        for no in s.fans:
            assert not excl[no] & set(s.fans), (format_hand(h), no)
        assert s.hand_fan == sum(fan_value(no, p.options) * n for no, n in s.fans.items())


@given(seeds)
def test_mirroring_ranks_keeps_the_value(seed):
    """1↔9, 2↔8 ... maps every fan to itself or its mirror of the same value (Upper ↔ Lower Tiles...)."""
    h, ctx = _case(seed)
    a = P.evaluate(h, P.context(ctx))
    b = P.evaluate(_map_hand(h, _mirror), P.context(ctx))
    if not (SUIT_SPECIFIC & (set(a.fans) | set(b.fans))):
        assert a.hand_fan == b.hand_fan, format_hand(h)


@given(seeds)
def test_renaming_suits_keeps_the_fans(seed):
    h, ctx = _case(seed)
    a = P.evaluate(h, P.context(ctx))
    b = P.evaluate(_map_hand(h, _rotate_suits), P.context(ctx))
    if not (SUIT_SPECIFIC & (set(a.fans) | set(b.fans))):
        assert a.fans == b.fans or a.hand_fan == b.hand_fan, format_hand(h)


@given(seeds)
def test_notation_round_trip_and_meld_order_do_not_matter(seed):
    h, ctx = _case(seed)
    a = P.evaluate(h, P.context(ctx))
    b = P.evaluate(parse_hand(format_hand(h)), P.context(ctx))
    c = P.evaluate(Hand(h.concealed, tuple(reversed(h.melds)), h.winning, h.flowers), P.context(ctx))
    assert a.fans == b.fans and a.hand_fan == c.hand_fan
