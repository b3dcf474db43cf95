"""Red Mahjong's table procedures around the hands: who sits where (001 «Распределение мест»), and the
counting sticks the players pay with (001 «Схема выплат» 7–10, spec A32).

The seats, the dice, the wall, the break, the deal and the dealer's rotation are played by the hand
machine: ``rules.wall`` (``WALLS["red"]``: sections, dice by parity with two players, two throws) and the
``RedGameRules`` hooks (``next_dealer``, ``game_over``). ``tests/oracles/red_table.py`` keeps the seed's
procedures written out plainly, as the oracle those are checked against.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rules.wall import SEATS


def seats(players: int) -> tuple[int, ...]:
    """The occupied seats: 3 players sit E, S, W; 2 players E and W (001 §Распределение мест 4)."""
    if players not in SEATS:
        raise ValueError(f"Red Mahjong is for 2 to 4 players, not {players}")
    return SEATS[players]


def seat_by_dice(
    rolls: Mapping[str, int],
    players: int,
    reroll: Callable[[list[str], int], Mapping[str, int]] | None = None,
    rerolls: Sequence[Mapping[str, int]] = (),
) -> dict[int, str]:
    """Seats by dice: highest sum East, then South, West, North (item 2); tied players re-roll among
    themselves until their sums differ, the re-roll ordering them within the places they tied for
    (item 3, fn2). Re-rolls come from ``rerolls`` (in order) or from ``reroll(names, round)``."""
    if len(rolls) != players:
        raise ValueError(f"{players} players need {players} rolls, got {len(rolls)}")
    queue = list(rerolls)
    rounds = [0]

    def next_rolls(group: list[str]) -> Mapping[str, int]:
        rounds[0] += 1
        if rounds[0] > 1000:
            raise ValueError("ties never resolved")
        if queue:
            got = queue.pop(0)
        elif reroll is not None:
            got = reroll(group, rounds[0])
        else:
            raise ValueError(f"players {', '.join(group)} tied and no re-roll was given")
        missing = [n for n in group if n not in got]
        if missing:
            raise ValueError(f"no re-roll for {', '.join(missing)}")
        return got

    def order(names: list[str], sums: Mapping[str, int]) -> list[str]:
        out: list[str] = []
        for total in sorted({sums[n] for n in names}, reverse=True):
            group = [n for n in names if sums[n] == total]
            out.extend(group if len(group) == 1 else order(group, next_rolls(group)))
        return out

    return dict(zip(seats(players), order(list(rolls), rolls), strict=True))


# --- counting sticks (001 §Схема выплат 7–10, spec A32) ---------------------------------------------------

STICK_VALUES = {"8_black_dots": 1, "1_red_dot": 10, "5_red_dots": 100, "9_red_green_dots": 500}
STICK_SETS = {
    88: {"8_black_dots": 40, "1_red_dot": 36, "5_red_dots": 8, "9_red_green_dots": 4},
    84: {"8_black_dots": 40, "1_red_dot": 32, "5_red_dots": 8, "9_red_green_dots": 4},
}
START_STICKS = {88: {1: 10, 10: 9, 100: 2, 500: 1}, 84: {1: 10, 10: 8, 100: 2, 500: 1}}


def start_total(set_size: int) -> int:
    return sum(v * n for v, n in START_STICKS[set_size].items())


def stick_result(held: Mapping[int, int], set_size: int) -> int:
    """A player's net result: the value of the sticks held minus the start amount (item 10)."""
    return sum(v * n for v, n in held.items()) - start_total(set_size)
