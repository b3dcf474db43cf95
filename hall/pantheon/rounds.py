"""A refereed riichi hand as Pantheon's ``Round`` (``Common/proto/atoms.proto``): ron, tsumo, multiron,
draw, abort, chombo or nagashi with winner, loser, pao, han, fu, yaku ids, riichi bets, dora counts, tenpai.

:func:`summarize` replays the hand's record (its game events, as the table's referee logged them) through
the rules' hand machine — the same judge of the wins that scored the hand at the table — and keeps what
Pantheon asks for, by seat. :func:`to_round` names the seats by Pantheon player ids and writes the
``Round`` as proto3 JSON (lowerCamelCase field names, as Twirp's JSON and Pantheon's own clients send).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.events import Event, ExhaustiveDraw, HandStarted, JSONObject, JSONValue, MeldMade, as_int, as_seat
from rules.game.protocols import RuleSet
from rules.game.state import HandState
from rules.game.table_data import PANTHEON

# Pantheon's yaku ids (Common/YakuMap.php of MahjongPantheon/pantheon): ours → theirs. Yakuhai are one id
# per count of yakuhai han ("Yakuhai x1" = 13 .. "x5" = 17), as Pantheon's clients send them.
YAKU_IDS: dict[str, int] = {
    "toitoi": 1, "honroutou": 2, "sanankou": 3, "sanshoku_doukou": 4, "sankantsu": 5, "suukantsu": 6,
    "suuankou": 7, "pinfu": 8, "iipeikou": 9, "ryanpeikou": 10, "sanshoku_doujun": 11, "ittsu": 12,
    "shousangen": 18, "daisangen": 19, "shousuushii": 20, "daisuushii": 21, "tsuuiisou": 22, "tanyao": 23,
    "chanta": 24, "junchan": 25, "chinroutou": 26, "honitsu": 27, "chinitsu": 28, "chuuren_poutou": 29,
    "ryuuiisou": 30, "chiitoitsu": 31, "kokushi_musou": 32, "riichi": 33, "double_riichi": 34, "ippatsu": 35,
    "menzen_tsumo": 36, "haitei": 37, "rinshan_kaihou": 38, "tenhou": 39, "chiihou": 40, "houtei": 41,
    "chankan": 42, "renhou": 43,
}
YAKUHAI = ("yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun", "yakuhai_seat_wind", "yakuhai_round_wind")
OPEN_KINDS = ("chow", "pung", "kong_open", "kong_added")


class RoundError(ValueError):
    """The hand cannot be sent to Pantheon (not riichi, not finished, a yaku Pantheon has no id for)."""


@dataclass(frozen=True)
class Win:
    seat: int
    han: int  # with dora; a natural yakuman: −(count), as Pantheon counts it
    fu: int
    yaku: tuple[int, ...]
    dora: int
    uradora: int
    open_hand: bool
    pao: int | None = None


@dataclass(frozen=True)
class HandSummary:
    outcome: str  # ron, tsumo, multiron, draw, abort, chombo, nagashi
    dealer: int
    honba: int
    deltas: tuple[int, ...]  # by seat, riichi stakes included (Pantheon's scores_delta counts them too)
    wins: tuple[Win, ...] = ()
    loser: int | None = None
    riichi: tuple[int, ...] = ()
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    extra: JSONObject = field(default_factory=dict)


def _int(v: JSONValue) -> int:
    """A number of the scorer's JSON (a win's ``han``, ``fu``, dora counts)."""
    if isinstance(v, int | float | str):
        return int(v)
    raise TypeError(f"{v!r} is not a number")


def _pairs(yaku: JSONValue) -> list[Sequence[JSONValue]]:
    """The scorer's ``yaku``: ``[[name, han], ...]``."""
    if not isinstance(yaku, Sequence) or isinstance(yaku, str):
        raise TypeError(f"yaku {yaku!r} is not a list")
    out: list[Sequence[JSONValue]] = []
    for y in yaku:
        if not isinstance(y, Sequence) or isinstance(y, str):
            raise TypeError(f"yaku {y!r} is not a [name, han] pair")
        out.append(y)
    return out


def _yaku_ids(yaku: JSONValue) -> tuple[int, ...]:
    pairs = _pairs(yaku)
    names = [str(y[0]) for y in pairs]
    han = {str(y[0]): _int(y[1]) for y in pairs}
    if "double_riichi" in names and "riichi" in names:
        names.remove("riichi")  # Pantheon records double riichi alone
    out: list[int] = []
    yakuhai = sum(han[n] for n in names if n in YAKUHAI)
    for n in names:
        if n in YAKUHAI:
            continue
        if n not in YAKU_IDS:
            raise RoundError(f"yaku {n!r} has no Pantheon id")
        out.append(YAKU_IDS[n])
    if yakuhai:
        out.append(12 + min(yakuhai, 5))
    return tuple(sorted(out))


def summarize(events: Sequence[Event], profile: RuleSet) -> HandSummary:
    """The hand of ``events`` (its game record, a hand of ``profile``) as Pantheon sees a round."""
    from rules.game.machines import machine_for

    start = next((e for e in events if isinstance(e, HandStarted)), None)
    if start is None:
        raise RoundError("the record has no hand_started")
    if start.profile != profile.name or PANTHEON not in profile.record_formats:
        raise RoundError(f"Pantheon records riichi; this hand is {start.profile}")
    m = machine_for(profile)(profile, "table")
    for e in events:
        m.submit(e)
    st = m.state
    if st.settled is None:
        raise RoundError("the hand is not settled yet")
    payments = list(st.settled.payments)
    riichi = tuple(sorted({s for p in payments if as_seat(p.get("payee")) is None
                           and (s := as_seat(p.get("payer"))) is not None}))
    deltas = tuple(int(d) for d in st.settled.deltas)
    honba = as_int(start.options.get("honba", 0))
    opened = {e.seat for e in events if isinstance(e, MeldMade) and e.kind in OPEN_KINDS}
    liable = _liable(st)
    wins = []
    loser = None
    for w in st.valid_wins():
        res = w.result.to_json() if w.result is not None else {}
        han = _int(res.get("han", 0))
        if res.get("limit") == "yakuman":
            han = -max(1, han // 13)
        wins.append(Win(w.seat, han, _int(res.get("fu") or 0), _yaku_ids(res.get("yaku", [])),
                        _int(res.get("dora", 0)), _int(res.get("ura_dora", 0)), w.seat in opened,
                        liable.get(w.seat)))
        loser = w.from_seat
    if len(wins) > 1:
        outcome = "multiron"
    elif wins:
        outcome = "ron" if loser is not None else "tsumo"
    elif st.exhaustive:
        outcome = "draw"
    elif any("chombo" in str(p.get("reason", "")) for p in payments):
        outcome = "chombo"
        loser = next(as_seat(p.get("payer")) for p in payments if "chombo" in str(p.get("reason", "")))
    else:
        outcome = "abort"
    tenpai: tuple[int, ...] = ()
    if outcome == "draw":
        shown = next((e.tenpai for e in events if isinstance(e, ExhaustiveDraw) and e.tenpai), ())
        tenpai = tuple(sorted(shown or (s for s, ok in st.tenpai.items() if ok)))
    return HandSummary(outcome, start.dealer, honba, deltas, tuple(wins), loser, riichi, tenpai)


def _liable(state: HandState) -> dict[int, int]:
    """Pao: the player liable for a winner's yakuman (004 Rules 3.4.10), where the record names one."""
    try:
        from rules.profiles.riichi.game import HandHistory

        h = HandHistory.of(state.history)
        return {w.seat: x for w in state.valid_wins() if (x := h.liable_for(w.seat)) is not None}
    except (ImportError, AttributeError):
        return {}


def _win_json(w: Win, ids: Sequence[int]) -> JSONObject:
    return {"paoPlayerId": ids[w.pao] if w.pao is not None else 0, "han": w.han, "fu": w.fu, "yaku": list(w.yaku),
            "dora": w.dora, "uradora": w.uradora, "kandora": 0, "kanuradora": 0, "openHand": w.open_hand}


def _loser(s: HandSummary, ids: Sequence[int]) -> int:
    """The Pantheon id of the player who dealt in (ron, multiron) or paid the chombo."""
    if s.loser is None:
        raise RoundError(f"a {s.outcome} without the player who pays")
    return ids[s.loser]


def to_round(s: HandSummary, ids: Sequence[int], round_index: int) -> JSONObject:
    """Pantheon's ``Round`` (proto3 JSON) of the hand, seats named by Pantheon player ids (e-s-w-n)."""
    base: JSONObject = {"roundIndex": round_index, "honba": s.honba}
    bets = [ids[x] for x in s.riichi]
    if s.outcome == "ron":
        w = s.wins[0]
        return {"ron": {**base, "winnerId": ids[w.seat], "loserId": _loser(s, ids), **_win_json(w, ids),
                        "riichiBets": bets}}
    if s.outcome == "tsumo":
        w = s.wins[0]
        return {"tsumo": {**base, "winnerId": ids[w.seat], **_win_json(w, ids), "riichiBets": bets}}
    if s.outcome == "multiron":
        return {"multiron": {**base, "loserId": _loser(s, ids), "multiRon": len(s.wins), "riichiBets": bets,
                             "wins": [{"winnerId": ids[w.seat], **_win_json(w, ids)} for w in s.wins]}}
    if s.outcome == "draw":
        return {"draw": {**base, "riichiBets": bets, "tempai": [ids[x] for x in s.tenpai]}}
    if s.outcome == "nagashi":
        return {"nagashi": {**base, "riichiBets": bets, "tempai": [ids[x] for x in s.tenpai],
                            "nagashi": [ids[x] for x in s.nagashi]}}
    if s.outcome == "chombo":
        return {"chombo": {**base, "loserId": _loser(s, ids)}}
    return {"abort": {**base, "riichiBets": bets}}


def deltas_by_player(s: HandSummary, ids: Sequence[int]) -> dict[int, int]:
    return {ids[seat]: int(d) for seat, d in enumerate(s.deltas)}
