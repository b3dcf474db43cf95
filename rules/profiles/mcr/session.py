"""The 16-hand MCR session: rounds, dealer order, seat rotation, table points (spec §2, §10).

* A session is four rounds of four hands, rounds named East, South, West, North (003 §Словарь 4-5).
* The dealer passes to the next seat after **every** hand, won or drawn (003 §Порядок игры 2; spec §12 A30).
* Players change seats at each round start (003 «Способ распределения мест», the table below).
* Table points: 4, 2, 1, 0 for places 1-4 (003 §Подсчёт 2); ties share the points of the places they
  occupy (spec §12 A41, configurable).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

ROUND_WINDS = ("1z", "2z", "3z", "4z")
HANDS_PER_ROUND = 4
ROUNDS = 4
TABLE_POINTS = (4, 2, 1, 0)  # 003 §Подсчёт 2

# Seat (0 E, 1 S, 2 W, 3 N) of players A, B, C, D (0..3) at the start of each round (003 «Места», L2168).
SEAT_TABLE: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3),  # East round: A East, B South, C West, D North
    (1, 0, 3, 2),  # South round: B East, A South, D West, C North
    (3, 2, 0, 1),  # West round: C East, D South, B West, A North
    (2, 3, 1, 0),  # North round: D East, C South, A West, B North
)


@dataclass(frozen=True)
class HandSlot:
    """One of the 16 hands: its number (1..16), round (0..3), prevalent wind, and the table position
    (0..3, fixed chairs) of the dealer; ``seat_wind_of[p]`` is player p's seat wind index (0 = East)."""

    number: int
    round: int
    prevalent_wind: str
    dealer_player: int
    seat_wind_of: tuple[int, int, int, int]


def chair_of(player: int, rnd: int) -> int:
    """The chair (= seat at the round start) player ``player`` (0=A..3=D) takes in round ``rnd``."""
    return SEAT_TABLE[rnd][player]


def schedule() -> list[HandSlot]:
    """The 16 hands of a session. In hand k (0..3) of a round the dealer is the round's East moved k
    seats on (003 §Порядок игры 2: the dice pass to the player on the right)."""
    out = []
    for rnd in range(ROUNDS):
        start = SEAT_TABLE[rnd]
        for k in range(HANDS_PER_ROUND):
            # the seat wind index of a player in hand k: (start seat - k) mod 4 (spec §2.2)
            winds = tuple((start[p] - k) % 4 for p in range(4))
            dealer = winds.index(0)
            out.append(HandSlot(rnd * HANDS_PER_ROUND + k + 1, rnd, ROUND_WINDS[rnd], dealer, winds))  # type: ignore[arg-type]
    return out


def next_dealer_seat(dealer_seat: int, n_seats: int = 4) -> int:
    """The dealer passes after every hand, whether he won, lost or the hand was drawn (spec §2.2, A30)."""
    return (dealer_seat + 1) % n_seats


def session_over(hands_played: int, time_up: bool = False) -> bool:
    """Four rounds (16 hands) or the session's time (003 §Словарь 4; the limit itself is not given, A43)."""
    return time_up or hands_played >= ROUNDS * HANDS_PER_ROUND


def table_points(totals: Mapping[int, int] | Sequence[int], share_ties: bool = True) -> dict[int, Fraction]:
    """Table points per player from session totals: 4/2/1/0 (003 §Подсчёт 2).

    Tied players share the points of the places they occupy (spec §12 A41); with ``share_ties`` False
    the tie is broken by player order (a tournament's own tie-break should then be applied first).
    """
    items = list(totals.items()) if isinstance(totals, Mapping) else list(enumerate(totals))
    if len(items) != len(TABLE_POINTS):
        raise ValueError("table points need four players")
    order = sorted(items, key=lambda kv: -kv[1])
    out: dict[int, Fraction] = {}
    i = 0
    while i < len(order):
        j = i
        while share_ties and j + 1 < len(order) and order[j + 1][1] == order[i][1]:
            j += 1
        share = Fraction(sum(TABLE_POINTS[i:j + 1]), j - i + 1)
        for p, _ in order[i:j + 1]:
            out[p] = share
        i = j + 1
    return out


def add_hand(totals: dict[int, int], net: Mapping[int, int], penalties: Mapping[int, int] | None = None
             ) -> dict[int, int]:
    """Session totals after one hand: the hand's net payments, then deductions (003 §Подсчёт 1b(3))."""
    out = dict(totals)
    for p, v in net.items():
        out[p] = out.get(p, 0) + v
    for p, v in (penalties or {}).items():
        out[p] = out.get(p, 0) - v
    return out
