"""Properties over random complete Red hands (148-tile set: jokers, flowers), for 2, 3 and 4 players."""
from __future__ import annotations

import random

import pytest

from rules.notation import Hand, Meld
from rules.profiles.red import arrangement as arr
from rules.profiles.red.options import RedOptions
from rules.profiles.red.payments import settle_win
from rules.profiles.red.scoring import score_arrangement
from rules.profiles.red.seating import seats
from rules.profiles.registry import get
from rules.tiles import FLOWERS, JOKER, KINDS, Tile
from tests.conftest import scaled

RED = get("red")
OPTS = RedOptions()



def random_hand(rng: random.Random) -> Hand:
    """A complete hand: 4 sets + a pair (or, rarely, a chaotic hand), drawn from one 148-tile set, with up to
    4 tiles turned into jokers, some sets declared, some flowers exposed."""
    flowers = tuple(rng.sample(FLOWERS, rng.choice((0, 0, 1, 2, 3, 8))))
    if rng.random() < 0.05:  # chaotic: singles from 147/258/369 patterns and honours
        tiles = [KINDS[s * 9 + n] for s in range(3) for n in rng.choice(((0, 3, 6), (1, 4, 7), (2, 5, 8)))]
        tiles += [KINDS[k] for k in range(27, 34)]
        rng.shuffle(tiles)
        tiles = tiles[:14]
        for i in rng.sample(range(14), rng.randrange(3)):
            tiles[i] = JOKER
        return Hand(tuple(tiles[:13]), (), tiles[13], flowers)
    left = [0] * 34
    for k in range(34):
        left[k] = 4
    groups: list[list[Tile]] = []
    while len(groups) < 4:
        if rng.random() < 0.55:
            s, n = rng.randrange(3), rng.randrange(7)
            ks = [s * 9 + n + i for i in range(3)]
        else:
            ks = [rng.randrange(34)] * 3
        if all(left[k] >= ks.count(k) for k in ks):
            for k in ks:
                left[k] -= 1
            groups.append([KINDS[k] for k in ks])
    while True:
        p = rng.randrange(34)
        if left[p] >= 2:
            groups.append([KINDS[p]] * 2)
            break
    # jokers: replace up to 4 tiles, never a whole group (each set and pair keeps a natural, §Джокеры 3)
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3, 4))):
        g = rng.choice(groups)
        nat = [i for i, t in enumerate(g) if not t.is_joker]
        if len(nat) > 1:
            g[rng.choice(nat)] = JOKER
    n_melds = rng.choice((0, 0, 1, 2, 3, 4))
    melds = tuple(Meld.build(g) for g in groups[:n_melds])
    concealed = [t for g in groups[n_melds:] for t in g]
    rng.shuffle(concealed)
    return Hand(tuple(concealed[:-1]), melds, concealed[-1], flowers)


def _check(hand: Hand, players: int, rng: random.Random) -> None:
    assert RED.check_hand(hand) == []
    assert hand.tile_count == 14  # tile conservation: 14 playing tiles, sets at 3
    self_drawn = hand.winning.is_joker or rng.random() < 0.5  # a joker can only be self-drawn (§Джокеры 2)
    ss = seats(players)
    winner = rng.choice(ss)
    discarder = None if self_drawn else rng.choice([s for s in ss if s != winner])
    ctx = RED.context({"players": players, "self_drawn": self_drawn, "winner": winner, "discarder": discarder})
    r = RED.score_checked(hand, ctx)
    assert r.valid, (str(hand), r.reason)
    value = r.extra["value"]
    assert value == min(r.total_fan, 300) and r.total_fan == sum(f.extra["points"] for f in r.fans)
    assert r.total_fan == sum(f.value * f.count for f in r.fans)
    # the best reading: no arrangement scores more
    arrs = arr.arrangements(hand)
    assert max(score_arrangement(a, OPTS).raw for a in arrs) == r.total_fan
    # tile conservation in every reading: naturals + joker identities = the reading's 14 tiles
    naturals = sorted(t.kind for t in list(hand.all_concealed) + [t for m in hand.melds for t in m.tiles]
                      if not t.is_joker)
    for a in arrs:
        if a.chaotic:
            continue
        resolved = sorted(a.tile_kinds())
        got = list(naturals)
        for m in hand.melds:  # a declared set's jokers take the identity the set forces
            nat = [t.kind for t in m.tiles if not t.is_joker]
            got.extend(k for k in _missing(m.kinds, nat))
        got.extend(a.joker_kinds)
        assert sorted(got) == resolved
    # flowers score 3 each (fan 1)
    fl = [f for f in r.fans if f.extra["no"] == 1]
    assert (fl[0].count if fl else 0) == len(hand.flowers)
    # payments: zero-sum, the winner receives points.total, every payer pays the value
    st = settle_win(players, winner, value, self_drawn=self_drawn, discarder=discarder)
    d = st.deltas
    assert sum(d.values()) == 0
    assert d[winner] == r.points["total"]
    assert r.points["payments"] == {str(k): v for k, v in d.items()}
    payers = [s for s in ss if s != winner] if self_drawn else [discarder]
    assert all(d[s] == -value for s in payers)
    assert all(d[s] == 0 for s in ss if s != winner and s not in payers)


def _missing(kinds: tuple[int, ...], natural: list[int]) -> list[int]:
    rest = list(kinds)
    for k in natural:
        rest.remove(k)
    return rest


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_complete_hands(players):
    rng = random.Random(players * 7919)
    for _ in range(scaled(300, 10_000)):
        _check(random_hand(rng), players, rng)


def test_resolving_the_jokers_never_lowers_the_value():
    """Replacing every joker by the tile the chosen reading gives it keeps that reading available, so the
    natural hand is worth at least as much (001 §Джокеры 1; §Подсчёт очков 6). The converse does not hold:
    turning a natural tile into a joker can lower a hand when it leaves a group with no natural tile
    (§Джокеры 3), e.g. 4s3zjj + 4s (333z from 3zjj) against 4sjjj + 4s."""
    rng = random.Random(11)
    checked = 0
    for _ in range(scaled(150, 3000)):
        h = random_hand(rng)
        r = RED.score_checked(h, RED.context({"self_drawn": True}))
        a = r.extra["arrangement"]
        if a["shape"] != "regular" or not a["jokers_as"]:
            continue
        swaps = [Tile.parse(t) for t in a["jokers_as"]]
        conc = [t if not t.is_joker else swaps.pop() for t in h.concealed]
        win = h.winning if not h.winning.is_joker else swaps.pop()
        natural = Hand(tuple(conc), h.melds, win, h.flowers)
        best = max(score_arrangement(x, OPTS).raw for x in arr.arrangements(natural))
        assert best >= r.total_fan, (str(h), str(natural))
        checked += 1
    assert checked > 20
