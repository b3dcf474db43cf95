"""The payment scheme (001 «Схема выплат»; spec §7) and the per-hand settlement record.

* discard win: the discarder alone pays the value (items 1–4);
* self-drawn win: every loser pays the value — the winner gets 3× with 4 players, 2× with 3, 1× with 2
  (items 1–3, 5);
* no dealer factor, no payment between losers, no limit but the 300 cap; a draw pays nothing
  (§Морское дно и речное дно 4).

Every line is a :class:`rules.events.Payment` with its reason and the seed reference.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.events import Payment
from rules.profiles.red.seating import seats
from rules.scoring import JSONObject

RULE_4P = "001 §Схема выплат 1"
RULE_3P = "001 §Схема выплат 2"
RULE_2P = "001 §Схема выплат 3"
RULE_DISCARD = "001 §Схема выплат 4"
RULE_SELF = "001 §Схема выплат 5"
RULE_DRAW = "001 §Морское дно и речное дно 4"
_BY_PLAYERS = {4: RULE_4P, 3: RULE_3P, 2: RULE_2P}


@dataclass(frozen=True)
class Settlement:
    """One hand's (or one penalty's) money: the payment lines and the net change of every seat."""

    players: int
    payments: tuple[Payment, ...] = ()
    value: int = 0
    notes: tuple[str, ...] = ()
    extra: JSONObject = field(default_factory=dict)

    @property
    def deltas(self) -> dict[int, int]:
        out = {s: 0 for s in seats(self.players)}
        for p in self.payments:
            if p.payer is not None:
                out[p.payer] -= p.amount
            if p.payee is not None:
                out[p.payee] += p.amount
        return out

    def to_json(self) -> JSONObject:
        return {
            "value": self.value,
            "payments": [p.to_json() for p in self.payments],
            "deltas": {str(k): v for k, v in self.deltas.items()},
            "notes": list(self.notes),
            **self.extra,
        }


def win_multiplier(players: int, self_drawn: bool) -> int:
    """How many times the value the winner receives (items 1–3)."""
    if players not in _BY_PLAYERS:
        raise ValueError(f"Red Mahjong is for 2 to 4 players, not {players}")
    return players - 1 if self_drawn else 1


def points_summary(value: int, players: int, self_drawn: bool) -> dict[str, int]:
    """``ScoreResult.points``: ``total`` the winner receives, and what each payer pays."""
    total = value * win_multiplier(players, self_drawn)
    if self_drawn:
        return {"total": total, "each": value}
    return {"total": total, "discarder": value}


def settle_win(
    players: int, winner: int, value: int, *, self_drawn: bool, discarder: int | None = None
) -> Settlement:
    """The payments of a win worth ``value`` (already capped)."""
    ss = seats(players)
    if winner not in ss:
        raise ValueError(f"seat {winner} is not at a {players}-player table (seats {ss})")
    scheme = _BY_PLAYERS[players]
    lines: list[Payment] = []
    if self_drawn:
        for s in ss:
            if s != winner:
                lines.append(Payment(payer=s, payee=winner, amount=value,
                                     reason=f"self-drawn win: each loser pays the hand value {value}",
                                     rule=f"{RULE_SELF}; {scheme}"))
    else:
        if discarder is None or discarder not in ss or discarder == winner:
            raise ValueError("a discard win needs the discarder, another seat at the table")
        lines.append(Payment(payer=discarder, payee=winner, amount=value,
                             reason=f"discard win: the discarder pays the hand value {value}",
                             rule=f"{RULE_DISCARD}; {scheme}"))
    notes: tuple[str, ...] = ("no dealer factor and no payment between losers (001 §Схема выплат 1–5)",)
    if value == 0:
        notes += ("a win worth 0 is legal and still a win for dealer rotation (001 §Система подсчёта очков 3)",)
    return Settlement(players, tuple(lines), value, notes)


def settle_draw(players: int) -> Settlement:
    """An exhausted wall with no win: every player scores 0."""
    seats(players)
    return Settlement(players, (), 0, (f"draw: every player scores 0 ({RULE_DRAW})",))
