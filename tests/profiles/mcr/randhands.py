"""Random complete MCR hands for the differential and property tests (and the benchmark).

Closed and open hands, chows/pungs/kongs of each kind, flowers, self-drawn or by discard, last tile,
kong replacement, robbing the kong, last of its kind; the special shapes are over-represented (seven
pairs, seven shifted pairs, thirteen orphans, honors and knitted, knitted straight, nine gates) and so
are themed tile pools (one suit, honours, terminals, green, reversible, upper/lower ranks) that reach the
big fans. ``to_gb`` turns a hand into PyMahjongGB's ``MahjongFanCalculator`` arguments.
"""
from __future__ import annotations

import random
from typing import Any

from rules.notation import Hand, Meld
from rules.tiles import KINDS, TILES, counts34

SUITED = list(range(27))
HONORS = list(range(27, 34))
TERMINALS = [0, 8, 9, 17, 18, 26]
GREEN = [19, 20, 21, 23, 25, 32]
REVERSIBLE = [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]


def _pools(rng: random.Random) -> list[int]:
    s = rng.randrange(3) * 9
    choice = rng.random()
    if choice < 0.30:
        return list(range(34))
    if choice < 0.42:
        return list(range(s, s + 9))
    if choice < 0.54:
        return list(range(s, s + 9)) + HONORS
    if choice < 0.60:
        return HONORS + TERMINALS
    if choice < 0.64:
        return HONORS
    if choice < 0.68:
        return TERMINALS
    if choice < 0.72:
        return GREEN
    if choice < 0.76:
        return REVERSIBLE
    if choice < 0.82:
        lo, hi = rng.choice([(0, 3), (5, 9), (0, 4), (6, 9), (3, 6), (1, 8)])
        return [k for k in SUITED if lo <= k % 9 < hi]
    if choice < 0.88:  # two suits: shifted / mixed patterns
        t = (s + 9 * rng.randrange(1, 3)) % 27
        return list(range(s, s + 9)) + list(range(t, t + 9))
    return SUITED


def _chow_starts(pool: set[int]) -> list[int]:
    return [k for k in pool if k < 27 and k % 9 <= 6 and k + 1 in pool and k + 2 in pool]


def _regular(rng: random.Random) -> tuple[list[tuple[str, int, str]], int] | None:
    """Four sets ``(kind, base, how)`` (how: concealed / melded / kong_open / kong_added /
    kong_concealed) and a pair kind, or None when the pool could not give them."""
    pool = set(_pools(rng))
    starts = _chow_starts(pool)
    used = [0] * 34
    sets = []
    p_chow = rng.choice([0.0, 0.3, 0.6, 0.9]) if starts else 0.0
    p_open = rng.choice([0.0, 0.0, 0.2, 0.5, 0.9, 1.0])
    p_kong = rng.choice([0.0, 0.1, 0.3, 0.8])
    for _ in range(4):
        for _attempt in range(20):
            if starts and rng.random() < p_chow:
                b = rng.choice(starts)
                if all(used[b + i] < 4 for i in range(3)):
                    for i in range(3):
                        used[b + i] += 1
                    sets.append(("chow", b, "melded" if rng.random() < p_open else "concealed"))
                    break
            else:
                k = rng.choice(sorted(pool))
                kong = rng.random() < p_kong
                need = 4 if kong else 3
                if used[k] + need <= 4:
                    used[k] += need
                    if kong:
                        how = rng.choice(["kong_open", "kong_added", "kong_concealed"])
                    else:
                        how = "melded" if rng.random() < p_open else "concealed"
                    sets.append(("pung", k, how))
                    break
        else:
            return None
    pairs = [k for k in pool if used[k] <= 2]
    if not pairs:
        return None
    return sets, rng.choice(pairs)


def _build(concealed: list[int], melds: list[Meld], win: int, rng: random.Random) -> Hand:
    rest = list(concealed)
    rest.remove(win)
    return Hand(tuple(KINDS[k] for k in rest), tuple(melds), KINDS[win])


def _pattern(rng: random.Random) -> tuple[list[tuple[str, int]], int]:
    """Four sets and a pair shaped like one of the big set-combination fans."""
    a, b, c = rng.sample([0, 9, 18], 3)
    r = rng.randrange(7)
    pair = rng.randrange(34)
    choice = rng.randrange(12)
    if choice == 0:  # Pure Terminal Chows
        return [("chow", a), ("chow", a), ("chow", a + 6), ("chow", a + 6)], a + 4
    if choice == 1:  # Three-Suited Terminal Chows
        return [("chow", a), ("chow", a + 6), ("chow", b), ("chow", b + 6)], c + 4
    if choice == 2:  # Quadruple Chow
        return [("chow", a + r)] * 4, pair
    if choice == 3:  # Four Pure Shifted Chows
        d = rng.choice([1, 2])
        r = rng.randrange(7 - 3 * d)
        return [("chow", a + r + i * d) for i in range(4)], pair
    if choice == 4:  # Four Pure Shifted Pungs
        r = rng.randrange(6)
        return [("pung", a + r + i) for i in range(4)], pair
    if choice == 5:  # winds
        w = rng.sample(range(27, 31), 4)
        extra = ("pung", rng.randrange(34)) if rng.random() < 0.5 else ("chow", b + r)
        return [("pung", k) for k in w[:3]] + [extra if rng.random() < 0.4 else ("pung", w[3])], w[3]
    if choice == 6:  # dragons
        dr = rng.sample(range(31, 34), 3)
        return [("pung", k) for k in dr[:2]] + [("pung", dr[2]) if rng.random() < 0.5 else ("chow", a + r),
                                                 ("chow", b + rng.randrange(7))], rng.choice([dr[2], pair])
    if choice == 7:  # straights
        return [("chow", a), ("chow", rng.choice([a, b]) + 3), ("chow", rng.choice([a, c]) + 6),
                ("chow", rng.randrange(3) * 9 + r)], pair
    if choice == 8:  # mixed / pure triple chow
        return [("chow", a + r), ("chow", rng.choice([a, b]) + r), ("chow", c + r),
                ("chow", rng.randrange(3) * 9 + rng.randrange(7))], pair
    if choice == 9:  # shifted chows
        d = rng.choice([1, 2])
        r = rng.randrange(7 - 2 * d)
        suits = [a, a, a] if rng.random() < 0.5 else [a, b, c]
        return [("chow", suits[i] + r + i * d) for i in range(3)] + [("pung", rng.randrange(34))], pair
    if choice == 10:  # triple / shifted pungs
        r = rng.randrange(7)
        step = rng.choice([0, 1])
        suits = [a, b, c] if step == 0 or rng.random() < 0.5 else [a, a, a]
        return [("pung", suits[i] + r + i * step) for i in range(3)] + [("pung", rng.randrange(34))], pair
    # double pungs and terminal pungs
    r = rng.choice([0, 8, rng.randrange(9)])
    return [("pung", a + r), ("pung", b + r), ("pung", rng.choice([a, c]) + rng.choice([0, 8])),
            ("pung", rng.randrange(34))], pair


def _conceal(rng: random.Random, sets: list[tuple[str, int]], pair: int) -> tuple[list[tuple[str, int, str]], int] | None:
    used = [0] * 34
    p_open = rng.choice([0.0, 0.0, 0.3, 0.7])
    p_kong = rng.choice([0.0, 0.0, 0.2, 0.6])
    out = []
    for kind, b in sets:
        if kind == "chow":
            for i in range(3):
                used[b + i] += 1
            out.append((kind, b, "melded" if rng.random() < p_open else "concealed"))
        else:
            kong = rng.random() < p_kong
            used[b] += 4 if kong else 3
            how = (rng.choice(["kong_open", "kong_added", "kong_concealed"]) if kong else
                   "melded" if rng.random() < p_open else "concealed")
            out.append((kind, b, how))
    used[pair] += 2
    if any(x > 4 for x in used):
        return None
    return out, pair


def regular_hand(rng: random.Random) -> Hand | None:
    got = _conceal(rng, *_pattern(rng)) if rng.random() < 0.4 else _regular(rng)
    if got is None:
        return None
    return _assemble(rng, *got)


def _assemble(rng: random.Random, sets: list[tuple[str, int, str]], pair: int) -> Hand:
    concealed = [pair, pair]
    melds = []
    for kind, b, how in sets:
        if kind == "chow":
            ts = [b, b + 1, b + 2]
            if how == "melded":
                melds.append(Meld.build([KINDS[k] for k in ts]))
            else:
                concealed.extend(ts)
        elif how == "concealed":
            concealed.extend([b] * 3)
        elif how == "melded":
            melds.append(Meld.build([KINDS[b]] * 3))
        else:
            melds.append(Meld.build([KINDS[b]] * 4, concealed=how == "kong_concealed", added=how == "kong_added"))
    rng.shuffle(melds)
    return _build(concealed, melds, rng.choice(concealed), rng)


def seven_pairs_hand(rng: random.Random) -> Hand | None:
    pool = _pools(rng)
    kinds = []
    for _ in range(7):
        k = rng.choice(pool)
        if kinds.count(k) >= 2:
            return None
        kinds.append(k)
    if rng.random() < 0.7 and len(set(kinds)) < 7:
        return None  # mostly distinct pairs; sometimes four of a kind as two pairs
    tiles = [k for k in kinds for _ in range(2)]
    return _build(tiles, [], rng.choice(tiles), rng)


def shifted_pairs_hand(rng: random.Random) -> Hand:
    s = rng.randrange(3) * 9 + rng.randrange(3)
    tiles = [k for k in range(s, s + 7) for _ in range(2)]
    return _build(tiles, [], rng.choice(tiles), rng)


def thirteen_orphans_hand(rng: random.Random) -> Hand:
    orphans = TERMINALS + HONORS
    tiles = orphans + [rng.choice(orphans)]
    return _build(tiles, [], rng.choice(tiles), rng)


def _knitted(rng: random.Random) -> list[int]:
    perm = rng.sample(range(3), 3)
    return [perm[j] * 9 + j + 3 * i for j in range(3) for i in range(3)]


def honors_knitted_hand(rng: random.Random) -> Hand:
    kn = _knitted(rng)
    if rng.random() < 0.3:
        tiles = HONORS + rng.sample(kn, 7)
    else:
        n_hon = rng.randint(5, 7)
        tiles = rng.sample(HONORS, n_hon) + rng.sample(kn, 14 - n_hon)
    return _build(tiles, [], rng.choice(tiles), rng)


def knitted_straight_hand(rng: random.Random) -> Hand | None:
    kn = _knitted(rng)
    used = [0] * 34
    for k in kn:
        used[k] += 1
    pool = list(range(34))
    concealed = list(kn)
    melds = []
    if rng.random() < 0.5:
        b = rng.choice([k for k in SUITED if k % 9 <= 6])
        ts = [b, b + 1, b + 2]
    else:
        b = rng.choice(pool)
        ts = [b] * 3
    for k in ts:
        used[k] += 1
    if any(x > 4 for x in used):
        return None
    if rng.random() < 0.3:
        melds.append(Meld.build([KINDS[k] for k in ts]))
    else:
        concealed.extend(ts)
    pair = rng.choice([k for k in pool if used[k] <= 2])
    concealed.extend([pair, pair])
    return _build(concealed, melds, rng.choice(concealed), rng)


def nine_gates_hand(rng: random.Random) -> Hand:
    s = rng.randrange(3) * 9
    tiles = [s] * 3 + list(range(s + 1, s + 8)) + [s + 8] * 3 + [s + rng.randrange(9)]
    win = tiles[-1] if rng.random() < 0.8 else rng.choice(tiles)
    return _build(tiles, [], win, rng)


def plain_open_hand(rng: random.Random) -> Hand | None:
    """Open hands of simple sets over all three suits: the low-scoring end (Chicken Hand, false Hu)."""
    sets = []
    for suit in rng.sample([0, 9, 18], 3) + [rng.randrange(3) * 9]:
        if rng.random() < 0.7:
            sets.append(("chow", suit + rng.randrange(1, 6)))
        else:
            sets.append(("pung", suit + rng.randrange(1, 8)))
    pair = rng.choice([31, 32, 33, 27, 28, 29, 30] + list(range(27)))
    got = _conceal_open(rng, sets, pair)
    if got is None:
        return None
    return _assemble(rng, *got)


def _conceal_open(rng: random.Random, sets, pair):
    used = [0] * 34
    out = []
    for i, (kind, b) in enumerate(sets):
        for k in ([b, b + 1, b + 2] if kind == "chow" else [b] * 3):
            used[k] += 1
        out.append((kind, b, "concealed" if i == 3 and rng.random() < 0.7 else "melded"))
    used[pair] += 2
    if any(x > 4 for x in used):
        return None
    return out, pair


GENERATORS = (
    (plain_open_hand, 0.05),
    (regular_hand, 0.57),
    (seven_pairs_hand, 0.08),
    (shifted_pairs_hand, 0.03),
    (thirteen_orphans_hand, 0.04),
    (honors_knitted_hand, 0.06),
    (knitted_straight_hand, 0.10),
    (nine_gates_hand, 0.07),
)


def random_context(hand: Hand, rng: random.Random) -> dict[str, Any]:
    assert hand.winning is not None
    allc = counts34(list(hand.all_concealed) + [t for m in hand.melds for t in m.tiles])
    win = hand.winning.kind
    ctx: dict[str, Any] = {
        "self_drawn": rng.random() < 0.45,
        "seat_wind": f"{rng.randint(1, 4)}z",
        "round_wind": f"{rng.randint(1, 4)}z",
    }
    if rng.random() < 0.1:
        ctx["last_tile"] = True
    has_kong = any(m.is_kong for m in hand.melds)
    if ctx["self_drawn"] and has_kong and rng.random() < 0.4:
        ctx["kong_replacement"] = True
    if not ctx["self_drawn"] and allc[win] == 1 and rng.random() < 0.25 and not ctx.get("last_tile"):
        ctx["robbing_kong"] = True  # (never on the last tile: no kong once the wall is empty)
    if allc[win] == 1 and rng.random() < 0.2:
        ctx["last_of_kind"] = True
    return ctx


def random_flowers(rng: random.Random) -> tuple:
    n = rng.choice([0, 0, 0, 1, 2, 3, 8])
    return tuple(TILES[34 + i] for i in sorted(rng.sample(range(8), n)))


def random_case(rng: random.Random) -> tuple[Hand, dict[str, Any]]:
    """One random complete hand with flowers and a context."""
    while True:
        gen = rng.choices([g for g, _ in GENERATORS], weights=[w for _, w in GENERATORS])[0]
        h = gen(rng)
        if h is None:
            continue
        h = Hand(h.concealed, h.melds, h.winning, random_flowers(rng))
        return h, random_context(h, rng)


# ---------------------------------------------------------------------------------------------------------
# PyMahjongGB arguments

_GB_SUIT = {0: "W", 1: "B", 2: "T"}
_GB_HONOR = {27: "F1", 28: "F2", 29: "F3", 30: "F4", 31: "J3", 32: "J2", 33: "J1"}  # 5z White = J3


def gb_tile(k: int) -> str:
    return _GB_HONOR[k] if k >= 27 else f"{_GB_SUIT[k // 9]}{k % 9 + 1}"


def to_gb(hand: Hand, ctx: dict[str, Any]) -> dict[str, Any]:
    packs = []
    for i, m in enumerate(hand.melds):
        offer = 1 + i % 3
        if m.kind == "chow":
            packs.append(("CHI", gb_tile(m.base + 1), 1))
        elif m.kind == "pung":
            packs.append(("PENG", gb_tile(m.base), offer))
        else:
            packs.append(("GANG", gb_tile(m.base), 0 if m.is_concealed else offer))
    sd = bool(ctx.get("self_drawn"))
    return dict(
        pack=tuple(packs),
        hand=tuple(gb_tile(t.kind) for t in hand.concealed),
        winTile=gb_tile(hand.winning.kind),
        flowerCount=len(hand.flowers),
        isSelfDrawn=sd,
        is4thTile=bool(ctx.get("last_of_kind")),
        isAboutKong=bool(ctx.get("kong_replacement") if sd else ctx.get("robbing_kong")),
        isWallLast=bool(ctx.get("last_tile")),
        seatWind=int(ctx.get("seat_wind", "1z")[0]) - 1,
        prevalentWind=int(ctx.get("round_wind", "1z")[0]) - 1,
        verbose=True,
    )
