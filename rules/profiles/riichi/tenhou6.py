"""Export of refereed hands in the tenhou.net/6 JSON log format, so standard replay viewers show them.

Pure data: :func:`hand_log` turns one hand's accepted events (``rules.events``, as the hand machine
logs them) and its judged wins into one ``log`` entry; :func:`game_log` wraps several hands into the
document ``{"title", "name", "rule", "log"}``. Format (tenhou.net/6 as the viewers read it):

* tiles are numbers: 11-19 man, 21-29 pin, 31-39 sou, 41-47 East South West North White Green Red
  (51-53 red fives, unused here);
* per hand: ``[[kyoku, honba, riichi sticks], [scores], [dora indicators], [ura indicators],`` then per
  player (seat 0 = the first East) ``haipai (13), draws, discards``, then the result;
* draws: a tile, or a call: chi ``"c" + claimed + own two``; pon ``p`` and open kan ``m`` placed before
  the claimed tile at the position of the player it came from (left: first, opposite: second, right:
  last); discards: a tile, ``60`` for the drawn tile thrown at once, ``"r" + tile`` for a riichi
  declaration, a concealed kan ``"a"`` and an added kan ``"k"`` strings, ``0`` after an open kan;
* result: ``["和了", deltas, [winner, from, liable, "<fu>符<han>飜<points>点" | "<limit><points>点", yaku...]]``
  (one deltas/details pair per winner), ``["流局", deltas]`` for an exhaustive draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.events import (
    Dealt,
    Discarded,
    DoraRevealed,
    Drew,
    Event,
    HandStarted,
    MeldMade,
    Settled,
    Won,
    as_int,
    as_seat,
)
from rules.game.state import WinRecord
from rules.scoring import JSONObject, JSONValue
from rules.tiles import Tile

YAKU_JA: dict[str, str] = {
    "riichi": "立直",
    "ippatsu": "一発",
    "double_riichi": "両立直",
    "menzen_tsumo": "門前清自摸和",
    "pinfu": "平和",
    "iipeikou": "一盃口",
    "tanyao": "断幺九",
    "sanshoku_doujun": "三色同順",
    "ittsu": "一気通貫",
    "yakuhai_haku": "役牌 白",
    "yakuhai_hatsu": "役牌 發",
    "yakuhai_chun": "役牌 中",
    "yakuhai_seat_wind": "自風",
    "yakuhai_round_wind": "場風",
    "chanta": "混全帯幺九",
    "rinshan_kaihou": "嶺上開花",
    "chankan": "槍槓",
    "haitei": "海底摸月",
    "houtei": "河底撈魚",
    "chiitoitsu": "七対子",
    "sanshoku_doukou": "三色同刻",
    "sanankou": "三暗刻",
    "sankantsu": "三槓子",
    "toitoi": "対々和",
    "honitsu": "混一色",
    "shousangen": "小三元",
    "honroutou": "混老頭",
    "junchan": "純全帯幺九",
    "ryanpeikou": "二盃口",
    "chinitsu": "清一色",
    "renhou": "人和",
    "kokushi_musou": "国士無双",
    "chuuren_poutou": "九蓮宝燈",
    "tenhou": "天和",
    "chiihou": "地和",
    "suuankou": "四暗刻",
    "suukantsu": "四槓子",
    "ryuuiisou": "緑一色",
    "chinroutou": "清老頭",
    "tsuuiisou": "字一色",
    "daisangen": "大三元",
    "shousuushii": "小四喜",
    "daisuushii": "大四喜",
}
LIMIT_JA = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満", "yakuman": "役満"}
WIND_JA = "東南西北"


def tile_code(t: Tile | str) -> int:
    """tenhou.net/6 number of a tile."""
    t = Tile.parse(t) if isinstance(t, str) else t
    if t.is_red:
        return 51 + "mps".index(t.suit)
    k = t.kind
    if k >= 27:
        return 41 + k - 27
    return (k // 9 + 1) * 10 + k % 9 + 1


def _call(letter: str, claimed: int, own: Sequence[int], rel: int) -> str:
    """A pon/open kan string: the letter and the claimed tile at the position of its source
    (``rel`` = (from - seat) % 4: 3 the left player, 2 opposite, 1 the right player)."""
    own_s = [str(x) for x in own]
    mark = f"{letter}{claimed}"
    if rel == 3:
        return mark + "".join(own_s)
    if rel == 2:
        return own_s[0] + mark + "".join(own_s[1:])
    return "".join(own_s) + mark


def _points_text(res: dict[str, Any], honba: int) -> str:
    """The value shown by the viewers: the hand before counters."""
    pts = res["points"]
    if "ron" in pts and "liable_pays" not in pts:
        amount = str(pts["ron"] - 300 * honba)
    elif "tsumo_each_pays" in pts:
        amount = f"{pts['tsumo_each_pays'] - 100 * honba}点∀"
    elif "tsumo_nondealer_pays" in pts:
        amount = f"{pts['tsumo_nondealer_pays'] - 100 * honba}-{pts['tsumo_dealer_pays'] - 100 * honba}"
    else:
        amount = str(pts["total"] - 300 * honba)
    if not amount.endswith("∀"):
        amount += "点"
    if res.get("limit"):
        return LIMIT_JA[res["limit"]] + amount
    return f"{res['fu']}符{res['han']}飜{amount}"


def _yaku_texts(res: dict[str, Any], seat_wind: int, round_wind: int) -> list[str]:
    out = []
    yaku = [list(y) for y in res.get("yaku", [])]
    ids = [y for y, _ in yaku]
    if "double_riichi" in ids and "riichi" in ids:  # tenhou lists double riichi alone, 2 han
        yaku = [[y, 2 if y == "double_riichi" else h] for y, h in yaku if y != "riichi"]
    for yid, han in yaku:
        name = YAKU_JA.get(yid, yid)
        if yid == "yakuhai_seat_wind":
            name += " " + WIND_JA[seat_wind]
        elif yid == "yakuhai_round_wind":
            name += " " + WIND_JA[round_wind]
        out.append(f"{name}(役満)" if res.get("limit") == "yakuman" else f"{name}({han}飜)")
    if res.get("dora"):
        out.append(f"ドラ({res['dora']}飜)")
    if res.get("ura_dora"):
        out.append(f"裏ドラ({res['ura_dora']}飜)")
    return out


def hand_log(events: Sequence[Event], start_scores: Sequence[int], wins: Sequence[WinRecord] = ()) -> list[JSONValue]:
    """One hand as a tenhou.net/6 ``log`` entry. ``wins``: the judged wins (objects with ``seat``,
    ``from_seat``, ``valid`` and ``result`` — the machine's ``WinRecord``) in declaration order."""
    start = next(e for e in events if isinstance(e, HandStarted))
    dealer = start.dealer
    rnd = "1234".index(start.round_wind[0]) if start.round_wind else 0
    honba = as_int(start.options.get("honba", 0))
    sticks = as_int(start.options.get("deposits", 0)) // 1000
    haipai: dict[int, list[int]] = {s: [] for s in range(4)}
    draws: dict[int, list[JSONValue]] = {s: [] for s in range(4)}
    discards: dict[int, list[JSONValue]] = {s: [] for s in range(4)}
    dora: list[int] = []
    ura: list[int] = []
    last_drawn: dict[int, int | None] = dict.fromkeys(range(4))
    settled: Settled | None = None
    for e in events:
        if isinstance(e, Dealt):
            codes = [tile_code(t) for t in e.tiles]
            haipai[e.seat] = codes[:13]
            if len(codes) > 13:  # the dealer's fourteenth tile is his first "draw"
                draws[e.seat].append(codes[13])
                last_drawn[e.seat] = codes[13]
        elif isinstance(e, Drew):
            c = tile_code(e.tile)
            draws[e.seat].append(c)
            last_drawn[e.seat] = c
        elif isinstance(e, Discarded):
            c = tile_code(e.tile)
            code: JSONValue = 60 if e.tsumogiri else c
            discards[e.seat].append(f"r{code}" if e.riichi else code)
            last_drawn[e.seat] = None
        elif isinstance(e, MeldMade):
            _meld(e, draws[e.seat], discards[e.seat])
        elif isinstance(e, DoraRevealed):
            (ura if e.kind == "ura" else dora).append(tile_code(e.indicator))
        elif isinstance(e, Settled):
            settled = e
    entry: list[JSONValue] = [[rnd * 4 + dealer, honba, sticks], list(start_scores), list(dora), list(ura)]
    for s in range(4):
        entry += [list(haipai[s]), draws[s], discards[s]]
    entry.append(_outcome(events, wins, settled, dealer, honba, rnd))
    return entry


def _meld(e: MeldMade, draws: list[JSONValue], discards: list[JSONValue]) -> None:
    """A call among the caller's draws (chow, pung, open kan), a kan of his own among his discards."""
    codes = [tile_code(t) for t in e.tiles]
    if e.kind == "chow":
        claimed = tile_code(e.claimed_tile) if e.claimed_tile else codes[0]
        own = list(codes)
        own.remove(claimed)
        draws.append("c" + str(claimed) + "".join(map(str, own)))
    elif e.kind in ("pung", "kong_open"):
        claimed = tile_code(e.claimed_tile) if e.claimed_tile else codes[0]
        own = list(codes)
        own.remove(claimed)
        rel = ((e.from_seat if e.from_seat is not None else e.seat) - e.seat) % 4
        draws.append(_call("p" if e.kind == "pung" else "m", claimed, own, rel))
        if e.kind == "kong_open":
            discards.append(0)
    elif e.kind == "kong_concealed":
        c = codes[0]
        discards.append(f"{c}{c}{c}a{c}")
    elif e.kind == "kong_added":
        c = codes[0]
        discards.append(f"k{c}{c}{c}{c}")


def _outcome(events: Sequence[Event], wins: Sequence[WinRecord], settled: Settled | None, dealer: int,
             honba: int, rnd: int) -> list[JSONValue]:
    """The hand's result entry: each valid win with its deltas and points, else a draw with the deltas."""
    deltas = list(settled.deltas) if settled is not None else [0, 0, 0, 0]
    valid = [w for w in wins if w.valid is not False and w.result is not None and w.result.valid]
    won_events = [e for e in events if isinstance(e, Won)]
    if valid:
        result: list[JSONValue] = ["和了"]
        for i, w in enumerate(valid):
            assert w.result is not None
            res = w.result.to_json()
            seat_wind = (w.seat - dealer) % 4
            per = _win_deltas(settled, w.seat, first=i == 0) if settled is not None else deltas
            src = w.from_seat if w.from_seat is not None else w.seat
            result += [
                per,
                [w.seat, src, w.seat, _points_text(res, honba), *_yaku_texts(res, seat_wind, rnd)],
            ]
        return result
    if won_events:  # a chombo: not a tenhou result; shown as a draw with the penalty deltas
        return ["流局", deltas]
    return ["流局", deltas]


def _win_deltas(settled: Settled, seat: int, first: bool) -> list[int]:
    """The part of the settlement that belongs to one winner (stakes and deposits with the first)."""
    d = [0, 0, 0, 0]
    for p in settled.payments:
        payer, payee, amount = as_seat(p.get("payer")), as_seat(p.get("payee")), as_int(p.get("amount", 0))
        mine = payee == seat or (first and payee is None)
        if not mine:
            continue
        if payer is not None:
            d[payer] -= amount
        if payee is not None:
            d[payee] += amount
    return d


def game_log(
    hands: Sequence[list[JSONValue]],
    names: Sequence[str] = ("A", "B", "C", "D"),
    title: Sequence[str] = ("mahjong-table", "riichi-ema2016"),
) -> JSONObject:
    """The tenhou.net/6 document for a game: ``hands`` are :func:`hand_log` entries in order."""
    return {
        "title": list(title),
        "name": list(names),
        "rule": {"disp": "EMA 2016 (004)", "aka": 0, "aka51": 0, "aka52": 0, "aka53": 0},
        "log": list(hands),
    }
