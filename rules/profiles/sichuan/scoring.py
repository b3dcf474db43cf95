"""Scoring of a Sichuan winning hand, the tenpai check and the exhaustion "theoretical maximum".

* :func:`win_problem` — why a hand cannot win here (three suits, the declared missing suit, no shape);
* :func:`best_fans` — the fans of the decomposition with the highest fan total (000 §2.5.8.5: the player
  chooses the split; fans of different splits are not combined);
* :func:`score_hand` — the :class:`ScoreResult` of a win, with the payments of the hu itself;
* :func:`tenpai` — waits per 000 §2.7.4.2 and the theoretical maximum per 000 §2.7.4.4.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.circumstances import BitTable, Impossible, robbing_on_the_last_tile, rule
from rules.notation import Hand
from rules.profiles.sichuan.fans import UNITS, WinFacts
from rules.profiles.sichuan.params import SichuanParams
from rules.scoring import (
    ContextValue,
    FanEntry,
    JSONObject,
    ScoreResult,
    ctx_int,
    ctx_seats,
    ctx_str,
    invalid,
)
from rules.shapes import Shape, decompositions, waits
from rules.tiles import KINDS, Tile, counts34

SHAPES = frozenset({Shape.REGULAR, Shape.SEVEN_PAIRS})  # 000 §2.6.1.1, 002 §3.1
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}


def hand_tiles(hand: Hand) -> list[Tile]:
    return list(hand.all_concealed) + [t for m in hand.melds for t in m.tiles]


def hand_suits(hand: Hand) -> frozenset[str]:
    return frozenset(t.suit for t in hand_tiles(hand))


def holds_suit(hand: Hand, suit: str | None) -> bool:
    """Whether any tile of the hand (concealed or declared) is of ``suit`` (the pig test, 000 §2.1.25)."""
    return suit is not None and suit in hand_suits(hand)


# what cannot happen together (000 App.1 #8, #9), in judging order. [Open: a robbed kong on the last tile
# (riichi's A20) is not refused here: the scorer never refused it; the seed's §2.5.7 to be read for it]
IMPOSSIBLE: tuple[Impossible, ...] = (
    rule({"self_drawn", "kong_discard"}, "kong_discard is a win on another player's tile; it cannot be self-drawn"),
    rule({"self_drawn", "robbing_kong"}, "robbing_kong is a win on another player's tile; it cannot be self-drawn"),
    rule({"kong_discard", "robbing_kong"}, "kong_discard and robbing_kong cannot both apply to one win"),
    robbing_on_the_last_tile("000 §2.5.7; 002 §8: the replacement comes from the wall"),
)
# the same table as bit masks over the fields of a Situation (bit i: the i-th name), every answer precomputed
SITUATION_FIELDS = ("self_drawn", "kong_replacement", "kong_discard", "robbing_kong", "last_tile")
_TABLE = BitTable(IMPOSSIBLE, SITUATION_FIELDS)


@dataclass(frozen=True)
class Situation:
    """The situational facts of a win (the context fields that change fans or payments)."""

    self_drawn: bool = False
    kong_replacement: bool = False
    kong_discard: bool = False
    robbing_kong: bool = False
    last_tile: bool = False

    @staticmethod
    def of(ctx: Mapping[str, ContextValue]) -> Situation:
        kr = bool(ctx.get("kong_replacement"))
        return Situation(
            # 000 App.1 #7: a win on the replacement tile counts as self-drawn
            self_drawn=bool(ctx.get("self_drawn")) or kr,
            kong_replacement=kr,
            kong_discard=bool(ctx.get("kong_discard")),
            robbing_kong=bool(ctx.get("robbing_kong")),
            last_tile=bool(ctx.get("last_tile")),
        )

    def problem(self) -> str | None:
        """Why these circumstances cannot happen together (:data:`IMPOSSIBLE`), or None."""
        return _TABLE.answers[self.self_drawn | self.kong_replacement << 1 | self.kong_discard << 2
                              | self.robbing_kong << 3 | self.last_tile << 4]


NO_SITUATION = Situation()


def win_problem(hand: Hand, missing_suit: str | None) -> str | None:
    """Why the 14 tiles cannot be a Sichuan win, or None. Shape is checked by :func:`best_fans`."""
    suits = hand_suits(hand)
    if len(suits) > 2:
        return "three suits: a winning hand holds at most two suits (000 §2.6.1.2, 002 §3.2)"
    if missing_suit is not None and missing_suit in suits:
        return (
            f"contains the declared missing suit {missing_suit} ({SUIT_NAMES[missing_suit]}) "
            "(000 §2.1.24, §2.4.10.3; 002 §5)"
        )
    return None


@dataclass(frozen=True)
class FanResult:
    fans: tuple[tuple[str, int, int], ...]  # (fan id, total value, count), table order
    total_fan: int
    shape: str


def best_fans(
    params: SichuanParams, hand: Hand, situation: Situation = NO_SITUATION, ignore_situational: bool = False
) -> FanResult | None:
    """The highest-fan reading of a complete hand (None when it has no winning shape).

    Does not check tile copies or suits: the exhaustion maximum scores "fifth tile" waits (Example 16).
    """
    concealed = counts34(hand.all_concealed)
    decs = decompositions(concealed, len(hand.melds), SHAPES, quads_as_two_pairs=True)
    if not decs:
        return None
    allc = list(concealed)
    for m in hand.melds:
        for k in m.kinds:
            allc[k] += 1
    suits = hand_suits(hand)
    best: FanResult | None = None
    for d in decs:
        facts = WinFacts(
            decomposition=d,
            melds=hand.melds,
            counts=tuple(allc),
            concealed_before_win=len(hand.concealed),
            suits=suits,
            kong_model=params.kong_fan_model,
            kong_replacement=situation.kong_replacement,
            kong_discard=situation.kong_discard,
            robbing_kong=situation.robbing_kong,
            last_tile=situation.last_tile,
        )
        fans = []
        for f in params.fans:
            if ignore_situational and f.situational:
                continue
            n = UNITS[f.id].check(facts)
            if n:
                fans.append((f.id, n * f.value, n))
        total = sum(v for _, v, _ in fans)
        if best is None or total > best.total_fan:
            best = FanResult(tuple(fans), total, d.shape.value)
    return best


def fan_entries(params: SichuanParams, fans: Iterable[tuple[str, int, int]]) -> list[FanEntry]:
    out = []
    for fid, value, count in fans:
        fd = params.fan(fid)
        out.append(FanEntry(fd.name, value, count, {"id": fid, "ru": fd.ru, "rule": fd.rule}))
    return out


def hu_payments(
    params: SichuanParams,
    base: int,
    winner: int,
    self_drawn: bool,
    payer: int | None,
    players_in_play: Iterable[int],
) -> dict[int, int]:
    """Seat → GP delta of one hu (000 §2.7.3.4-5, 002 §9.4-5).

    Self-drawn: ``base + bonus`` from each player still in play (the winner excluded); otherwise ``base``
    from ``payer`` (the discarder, or the kong declarer for a robbed kong [Interp AMB-06]).
    """
    deltas: dict[int, int] = {s: 0 for s in players_in_play}
    deltas.setdefault(winner, 0)
    if self_drawn:
        each = base + params.self_draw_bonus
        for s in list(deltas):
            if s != winner:
                deltas[s] -= each
                deltas[winner] += each
    else:
        if payer is None:
            raise ValueError("a win on a discard needs the discarder")
        deltas.setdefault(payer, 0)
        deltas[payer] -= base
        deltas[winner] += base
    return deltas


def score_hand(params: SichuanParams, hand: Hand, ctx: Mapping[str, ContextValue]) -> ScoreResult:
    """Score a 14-tile win (rule checks of the tile set are the profile's ``check_hand``)."""
    missing = ctx_str(ctx, "missing_suit")
    extra: JSONObject = {"missing_suit": missing}
    sit = Situation.of(ctx)
    bad = sit.problem() or win_problem(hand, missing)
    if bad:
        return invalid(bad, **extra)
    res = best_fans(params, hand, sit)
    if res is None:
        return invalid("not a winning shape: no four sets and a pair, nor seven pairs (000 §2.6.1.1)", **extra)
    base = params.base_points(res.total_fan)
    winner = ctx_int(ctx, "winner_seat")
    discarder = ctx_int(ctx, "kong_declarer_seat") if sit.robbing_kong else ctx_int(ctx, "discarder_seat")
    if sit.robbing_kong and discarder is None:
        discarder = ctx_int(ctx, "discarder_seat")
    in_play = ctx_seats(ctx, "players_in_play")
    if in_play is None:
        in_play = (0, 1, 2, 3)
    if winner is not None and winner not in in_play:
        return invalid(f"winner seat {winner} is not among players_in_play {list(in_play)}", **extra)
    if discarder is not None and discarder == winner:
        return invalid("the winner cannot win on his own discard", **extra)
    if sit.self_drawn:
        n_payers = len(in_play) - 1
        each = base + params.self_draw_bonus
        points: JSONObject = {"total": each * n_payers, "each": each, "payers": n_payers}
    else:
        points = {"total": base, "discarder": base}
    payments = None
    if winner is not None and (sit.self_drawn or discarder is not None):
        d = hu_payments(params, base, winner, sit.self_drawn, discarder, in_play)
        payments = {str(s): d[s] for s in sorted(d)}
    extra.update(
        base_points=base,
        limit_fan=params.fan_limit,
        self_drawn=sit.self_drawn,
        shape=res.shape,
        payments=payments,
    )
    return ScoreResult(True, fans=fan_entries(params, res.fans), total_fan=res.total_fan, points=points, extra=extra)


@dataclass(frozen=True)
class TenpaiInfo:
    tenpai: bool
    waits: tuple[Tile, ...]
    max_fans: tuple[tuple[str, int, int], ...] = ()
    max_total_fan: int = 0
    base_points: int = 0  # what each non-tenpai player pays this hand at exhaustion


def tenpai(params: SichuanParams, hand: Hand, missing_suit: str | None) -> TenpaiInfo:
    """Tenpai per 000 §2.7.4.2 and the theoretical maximum per 000 §2.7.4.4 / 002 §11.3.

    A kind of which the player holds four *concealed* tiles is no wait (declared tiles do not count,
    AMB-32: ``rules.shapes.waits`` works on the concealed counts). A hand holding its missing suit is a
    pig, never tenpai. The maximum is over every wait and decomposition, ignoring the four situational
    fans, capped by the limit; no self-draw bonus [Interp AMB-03].
    """
    if holds_suit(hand, missing_suit) or len(hand_suits(hand)) > 2:
        return TenpaiInfo(False, ())
    c = counts34(hand.concealed)
    ws = [KINDS[k] for k in waits(c, len(hand.melds), SHAPES, quads_as_two_pairs=True)]
    best: FanResult | None = None
    good: list[Tile] = []
    for t in ws:
        h = Hand(hand.concealed, hand.melds, t)
        if win_problem(h, missing_suit):
            continue
        r = best_fans(params, h, ignore_situational=True)
        if r is None:
            continue
        good.append(t)
        if best is None or r.total_fan > best.total_fan:
            best = r
    if best is None:
        return TenpaiInfo(False, ())
    return TenpaiInfo(True, tuple(good), best.fans, best.total_fan, params.base_points(best.total_fan))
