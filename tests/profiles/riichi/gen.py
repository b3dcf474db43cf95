"""Random complete riichi hands with a random (legal) context, and an adapter to the ``mahjong``
package (PyPI, v2.1.0, a dev dependency) configured like EMA 2016 — the independent oracle of the
property tests and the peer of ``bench/bench_riichi.py``."""

from __future__ import annotations

import random
from typing import Any

from rules.notation import Hand, Meld
from rules.tiles import KINDS, TERMINALS_AND_HONORS, Tile


def _take(pool: list[int], kinds: list[int]) -> bool:
    need: dict[int, int] = {}
    for k in kinds:
        need[k] = need.get(k, 0) + 1
    if any(pool[k] < n for k, n in need.items()):
        return False
    for k in kinds:
        pool[k] -= 1
    return True


def _theme(rng: random.Random) -> tuple[list[int], list[int]]:
    """Kinds allowed for pairs/pons and chi starts: any (half the hands), or one suit with or without
    honours, terminals and honours, honours only — so that flushes, outside hands and yakuman occur."""
    x = rng.random()
    honours = list(range(27, 34))
    if x < 0.5:
        return list(range(34)), [s * 9 + n for s in range(3) for n in range(7)]
    s = rng.randrange(3) * 9
    suit = list(range(s, s + 9))
    if x < 0.7:
        return suit + honours, [s + n for n in range(7)]
    if x < 0.85:
        return suit, [s + n for n in range(7)]
    if x < 0.95:
        return [k for k in range(27) if k % 9 in (0, 8)] + honours, [
            t * 9 + n for t in range(3) for n in (0, 6)
        ]
    return honours, []


def random_complete_hand(
    rng: random.Random, p_meld: float = 0.3, p_kan: float = 0.06, p_special: float = 0.06
) -> tuple[Hand, list[int]]:
    """A complete 14-tile hand and the pool of the tiles left (counts per kind)."""
    while True:
        pool = [4] * 34
        r = rng.random()
        if r < p_special * 0.8:  # seven pairs
            kinds = rng.sample(range(34), 7)
            tiles = [KINDS[k] for k in kinds for _ in range(2)]
            for k in kinds:
                pool[k] -= 2
            win = tiles.pop(rng.randrange(len(tiles)))
            return Hand(tuple(tiles), (), win), pool
        if r < p_special:  # thirteen orphans
            extra = rng.choice(TERMINALS_AND_HONORS)
            kinds = list(TERMINALS_AND_HONORS) + [extra]
            for k in kinds:
                pool[k] -= 1
            tiles = [KINDS[k] for k in kinds]
            win = tiles.pop(rng.randrange(len(tiles)))
            return Hand(tuple(tiles), (), win), pool
        allowed, chi_starts = _theme(rng)
        pair = rng.choice(allowed)
        _take(pool, [pair, pair])
        concealed: list[int] = [pair, pair]
        melds: list[Meld] = []
        ok = True
        for _ in range(4):
            for _attempt in range(20):
                x = rng.random()
                if x < p_kan:
                    k = rng.choice(allowed)
                    if _take(pool, [k] * 4):
                        kind = rng.choice(["open", "concealed", "added"])
                        melds.append(
                            Meld.build([KINDS[k]] * 4, concealed=kind == "concealed", added=kind == "added")
                        )
                        break
                elif x < 0.45 or not chi_starts:
                    k = rng.choice(allowed)
                    if _take(pool, [k] * 3):
                        if rng.random() < p_meld:
                            melds.append(Meld.build([KINDS[k]] * 3))
                        else:
                            concealed += [k] * 3
                        break
                else:
                    b = rng.choice(chi_starts)
                    ks = [b, b + 1, b + 2]
                    if _take(pool, ks):
                        if rng.random() < p_meld:
                            melds.append(Meld.build([KINDS[k] for k in ks]))
                        else:
                            concealed += ks
                        break
            else:
                ok = False
                break
        if not ok:
            continue
        tiles = [KINDS[k] for k in concealed]
        win = tiles.pop(rng.randrange(len(tiles)))
        return Hand(tuple(tiles), tuple(melds), win), pool


def random_context(rng: random.Random, hand: Hand, pool: list[int]) -> dict[str, Any]:
    """A legal context for the hand: winds, riichi only when closed, indicators drawn from the pool."""
    pool = list(pool)
    closed = hand.is_closed
    kans = sum(1 for m in hand.melds if m.is_kong)
    self_drawn = rng.random() < 0.5
    riichi = closed and rng.random() < 0.4
    seat = rng.randrange(4)
    ctx: dict[str, Any] = {
        "self_drawn": self_drawn,
        "riichi": riichi,
        "ippatsu": riichi and rng.random() < 0.2,
        "double_riichi": riichi and rng.random() < 0.1,
        "seat_wind": f"{seat + 1}z",
        "round_wind": rng.choice(["1z", "2z"]),
        "dealer": seat == 0,
        "honba": rng.choice([0, 0, 1, 2, 5]),
    }

    def draw_indicator() -> str:
        while True:
            k = rng.randrange(34)
            if pool[k]:
                pool[k] -= 1
                return str(KINDS[k])

    n_ind = 1 + kans + (rng.random() < 0.2)
    n_ind = min(n_ind, 5)
    ctx["dora_indicators"] = [draw_indicator() for _ in range(n_ind)]
    ctx["ura_indicators"] = [draw_indicator() for _ in range(n_ind)] if riichi else []
    if self_drawn and kans and rng.random() < 0.3:
        ctx["kong_replacement"] = True
    elif rng.random() < 0.05:
        ctx["last_tile"] = True
    elif not self_drawn and rng.random() < 0.05:
        w = hand.winning.kind
        held = sum(1 for t in hand.all_concealed if t.kind == w) + sum(m.kinds.count(w) for m in hand.melds)
        if held == 1 and pool[w] == 3:  # the other three copies are the robbed pon + added tile
            ctx["robbing_kong"] = True
    return ctx


# ----------------------------------------------------------------------------------------------------------
# The ``mahjong`` package as an oracle / peer


def mahjong_request(hand: Hand, ctx: dict[str, Any]):
    """Translate a hand and context into ``HandCalculator.estimate_hand_value`` arguments (136-ids)."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld as MjMeld

    used = [0] * 34

    def tid(t: Tile) -> int:
        k = t.kind
        i = k * 4 + used[k]
        used[k] += 1
        return i

    melds = []
    tiles: list[int] = []
    for m in hand.melds:
        ids = [tid(t) for t in m.tiles]
        tiles += ids
        if m.kind == "chow":
            melds.append(MjMeld(MjMeld.CHI, ids, opened=True))
        elif m.kind == "pung":
            melds.append(MjMeld(MjMeld.PON, ids, opened=True))
        elif m.kind == "kong_added":
            melds.append(MjMeld(MjMeld.SHOUMINKAN, ids, opened=True))
        else:
            melds.append(MjMeld(MjMeld.KAN, ids, opened=m.kind == "kong_open"))
    tiles += [tid(t) for t in hand.concealed]
    win = tid(hand.winning)
    tiles.append(win)
    dora = [tid(Tile.parse(t)) for t in ctx.get("dora_indicators", [])]
    ura = [tid(Tile.parse(t)) for t in ctx.get("ura_indicators", [])]
    opts = OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=False,
        has_double_yakuman=False,
        kazoe_limit=HandConstants.KAZOE_SANBAIMAN,
        kiriage=False,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
    )
    sd = bool(ctx.get("self_drawn"))
    cfg = HandConfig(
        is_tsumo=sd,
        is_riichi=bool(ctx.get("riichi")) and not ctx.get("double_riichi"),
        is_daburu_riichi=bool(ctx.get("double_riichi")),
        is_ippatsu=bool(ctx.get("ippatsu")),
        is_rinshan=bool(ctx.get("kong_replacement")),
        is_chankan=bool(ctx.get("robbing_kong")),
        is_haitei=bool(ctx.get("last_tile")) and sd,
        is_houtei=bool(ctx.get("last_tile")) and not sd,
        player_wind=EAST + int(ctx["seat_wind"][0]) - 1,
        round_wind=EAST + int(ctx["round_wind"][0]) - 1,
        tsumi_number=int(ctx.get("honba", 0)),
        options=opts,
    )
    return tiles, win, melds, dora, cfg, ura


def mahjong_score(hand: Hand, ctx: dict[str, Any]):
    from mahjong.hand_calculating.hand import HandCalculator

    tiles, win, melds, dora, cfg, ura = mahjong_request(hand, ctx)
    return HandCalculator.estimate_hand_value(
        tiles, win, melds=melds, dora_indicators=dora, config=cfg, ura_dora_indicators=ura or None
    )
