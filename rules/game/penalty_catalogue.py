"""One penalty catalogue per rule set, as data: what the judge picks at the table's console.

Each :class:`PenaltyKind` says what its seed says: the amount (fixed, chosen by the judge from the seed's
list, or an escalation ladder counted per player), who receives it (nobody, each other player, one player,
East and the others), when it is charged (at once, or at the end of the game) and whether the player's
hand is dead for the rest of the hand. :func:`charge` turns a kind and the player's earlier offences into
the points taken and paid, by seat — the console records that, the hall credits it (nothing typed twice).

The catalogues themselves live with each profile (``rules/profiles/*/penalties.py``: ``CATALOGUE``) and are
read through ``GameRules.penalty_catalogue``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PAYEES = ("nobody", "each_other", "one_player", "east_and_others")
WHEN = ("now", "game_end")


@dataclass(frozen=True)
class PenaltyKind:
    code: str
    text: str  # English
    text_ru: str  # the seed's words
    rule: str  # the seed and line
    payee: str = "nobody"  # one of PAYEES
    amount: int | None = None  # fixed points; None: the ladder, or the judge picks one of ``choices``
    choices: tuple[int, ...] = ()  # the amounts the seed lets the judge choose from
    bounds: tuple[int, int] = (0, 0)  # or a range the judge chooses in (003 line 2152: 5 to 60); (0, 0): none
    ladder: tuple[int, ...] = ()  # by occurrence (1st, 2nd, ...; 0 = a warning); the last step repeats
    cumulative: bool = False  # ladder values are the player's running totals: the step charged is the rise
    group: str = ""  # offences counted together on the ladder (000 §2.8.2 «по совокупности»); default: the code
    per_hands: int = 0  # the count restarts every this many hands (MCR late pung: in each round, 4); 0: session
    when: str = "now"  # one of WHEN: charged at once, or at the end of the game (004 Rules 5.x)
    dead_hand: bool = False  # the player may not win the hand in play
    east: int = 0  # east_and_others: what East (the dealer) receives; the others get ``amount``
    replay: bool = False  # the hand in play ends and is dealt again: same dealer, same counters (004 line 278)

    def __post_init__(self) -> None:
        if self.payee not in PAYEES or self.when not in WHEN:
            raise ValueError(f"{self.code}: payee {self.payee!r} / when {self.when!r}")

    @property
    def counter(self) -> str:
        return self.group or self.code

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "text": self.text, "text_ru": self.text_ru, "rule": self.rule,
                "payee": self.payee, "points": self.amount, "choices": list(self.choices), "bounds": list(self.bounds),
                "ladder": list(self.ladder), "cumulative": self.cumulative, "group": self.counter,
                "per_hands": self.per_hands, "when": self.when, "dead_hand": self.dead_hand, "east": self.east,
                "replay": self.replay,
                "to_others": self.payee == "each_other"}


@dataclass(frozen=True)
class Charge:
    """What one offence costs: ``points`` taken from ``seat``; ``paid`` what each seat receives (by seat,
    zeros when paid to nobody); ``occurrence`` the player's count on the kind's ladder; ``warning``."""

    seat: int
    points: int
    paid: tuple[int, ...]
    occurrence: int
    warning: bool
    beyond_ladder: bool  # past the last step (000 §2.8.2: beyond 48 a TP penalty or disqualification may follow)


class ChargeError(ValueError):
    pass


def ladder_step(kind: PenaltyKind, occurrence: int) -> int:
    """The points the ``occurrence``-th offence (1-based) costs on the kind's ladder."""
    top = len(kind.ladder) - 1
    value = kind.ladder[min(occurrence - 1, top)]
    if not kind.cumulative:
        return value
    prev = kind.ladder[min(occurrence - 2, top)] if occurrence > 1 else 0
    return value - prev if occurrence - 1 <= top else 0


def charge(kind: PenaltyKind, seat: int, seats: Sequence[int], *, previous: int = 0, dealer: int = 0,
           chosen: int | None = None, to_seat: int | None = None) -> Charge:
    """The charge for ``seat``'s offence of ``kind``: ``previous`` offences already on its ladder (this
    session, or this round), ``chosen`` the judge's amount where the seed leaves it to him, ``to_seat`` the
    player who receives it (``one_player``)."""
    occurrence = previous + 1
    if kind.ladder:
        points = ladder_step(kind, occurrence)
    elif kind.amount is not None:
        points = kind.amount
    else:
        lo, hi = kind.bounds
        if chosen is None or (kind.choices and chosen not in kind.choices) or chosen < 0 \
                or (hi and not lo <= chosen <= hi):
            allowed = (", ".join(map(str, kind.choices)) if kind.choices else f"{lo} to {hi}" if hi
                       else "a whole number ≥ 0")
            raise ChargeError(f"{kind.code}: the judge chooses the points ({allowed}; {kind.rule})")
        points = chosen
    paid = [0] * (max(seats) + 1 if seats else 0)
    others = [s for s in seats if s != seat]
    if kind.payee == "each_other":
        for s in others:
            paid[s] = points
        points *= len(others)
    elif kind.payee == "one_player":
        if to_seat is None or to_seat not in others:
            raise ChargeError(f"{kind.code}: name the player who receives it (another seat; {kind.rule})")
        paid[to_seat] = points
    elif kind.payee == "east_and_others":
        for s in others:
            paid[s] = kind.east if dealer in (s, seat) else points  # the dealer offends: East's amount to each
        points = sum(paid)
    beyond = bool(kind.ladder) and occurrence > len(kind.ladder)
    return Charge(seat, points, tuple(paid), occurrence, bool(kind.ladder) and points == 0 and occurrence == 1, beyond)


def receipts(seat: int, points: int, paid: Sequence[int], to_others: bool, seats: int) -> tuple[int, ...]:
    """What each of ``seats`` seats receives from a recorded penalty (zeros: paid to nobody): its ``paid``, or —
    a custom penalty recorded with ``to_others`` and no ``paid`` — its ``points`` to each other seat. The
    offender pays what the others receive (:func:`taken`): the table's page and the hall count it alike, and
    a penalty paid to the players sums to zero (000 §2.8.4, 004 line 278)."""
    if any(paid):
        return tuple(int(x) for x in paid)
    if to_others:
        return tuple(0 if s == seat else int(points) for s in range(seats))
    return (0,) * seats


def taken(points: int, got: Sequence[int]) -> int:
    """What the offender loses: what the others receive, else (paid to nobody) the points."""
    return sum(got) if any(got) else int(points)
