"""Seats, dice, seating, walls, the break, the deal and dealer rotation for 2, 3 and 4 players
(001 «Очки на игральных кубиках», «Распределение мест», «Дилер», «Перемешивание и построение стены»,
«Разлом стены», «Раздача»; spec §2–§3). Pure functions and tables as data.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

# 001 §Распределение мест 4: 3 players sit E, S, W; 2 players E and W (docs/notation.md "Seats")
SEATS: dict[int, tuple[int, ...]] = {4: (0, 1, 2, 3), 3: (0, 1, 2), 2: (0, 2)}

# tile sets (spec §1.2, A1): id -> (tiles, jokers, flowers present)
TILE_SETS: dict[int, tuple[int, int, tuple[str, ...]]] = {
    144: (144, 0, ("1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f")),
    148: (148, 4, ("1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f")),
    136: (136, 0, ()),
}


def seats(players: int) -> tuple[int, ...]:
    if players not in SEATS:
        raise ValueError(f"Red Mahjong is for 2 to 4 players, not {players}")
    return SEATS[players]


def next_seat(seat: int, players: int) -> int:
    """The player on the right: the next occupied seat in turn order (spec §2.1)."""
    s = seats(players)
    return s[(s.index(seat) + 1) % len(s)]


def prev_seat(seat: int, players: int) -> int:
    """The player on the left: the previous occupied seat in turn order (spec A6)."""
    s = seats(players)
    return s[(s.index(seat) - 1) % len(s)]


def turn_distance(frm: int, to: int, players: int) -> int:
    """Steps along turn order from ``frm`` to ``to`` (0 = same seat)."""
    s = seats(players)
    return (s.index(to) - s.index(frm)) % len(s)


# ----------------------------------------------------------------------------------------------------------
# Dice — 001 §Очки на игральных кубиках


def dice_target(thrower: int, total: int, players: int) -> int:
    """The seat a two-dice sum points to, the thrower counting as 1, counter-clockwise (items 1–2);
    with 2 players an odd sum is the opposite player and an even sum the thrower (item 3, spec A3)."""
    if not 2 <= total <= 12:
        raise ValueError(f"two dice sum to 2..12, not {total}")
    if players == 2:
        return thrower if total % 2 == 0 else next_seat(thrower, 2)
    s = seats(players)
    return s[(s.index(thrower) + total - 1) % len(s)]


# ----------------------------------------------------------------------------------------------------------
# Seating — 001 §Распределение мест, fn2


def seating(
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
    round_no = [0]

    def order(names: list[str], sums: Mapping[str, int]) -> list[str]:
        by: dict[int, list[str]] = {}
        for n in names:
            by.setdefault(sums[n], []).append(n)
        out: list[str] = []
        for total in sorted(by, reverse=True):
            group = by[total]
            if len(group) == 1:
                out.extend(group)
                continue
            round_no[0] += 1
            if round_no[0] > 1000:
                raise ValueError("ties never resolved")
            if queue:
                nxt = queue.pop(0)
            elif reroll is not None:
                nxt = reroll(group, round_no[0])
            else:
                raise ValueError(f"players {', '.join(group)} tied and no re-roll was given")
            missing = [n for n in group if n not in nxt]
            if missing:
                raise ValueError(f"no re-roll for {', '.join(missing)}")
            out.extend(order(group, nxt))
        return out

    ranked = order(list(rolls), rolls)
    return dict(zip(seats(players), ranked, strict=True))


# ----------------------------------------------------------------------------------------------------------
# Walls — 001 §Перемешивание и построение стены 5–7 (stacks of two tiles per section, by seat)

_SECTIONS: dict[tuple[int, int], dict[int, int]] = {
    (4, 144): {0: 18, 1: 18, 2: 18, 3: 18},
    (4, 148): {0: 19, 1: 18, 2: 19, 3: 18},
    (3, 144): {0: 24, 1: 24, 2: 24},
    (3, 148): {0: 24, 1: 25, 2: 25},
    (2, 144): {0: 36, 2: 36},
    (2, 148): {0: 37, 2: 37},
}


def wall_sections(players: int, tile_set: int) -> dict[int, int]:
    """Stacks in each seat's wall section. The seed gives 144 and 148 tiles; other sets (fn1) split
    tiles/2 stacks as evenly as possible, the larger sections first at E and W (spec A1)."""
    key = (players, tile_set)
    if key in _SECTIONS:
        return dict(_SECTIONS[key])
    if tile_set % 2:
        raise ValueError("a tile set of an odd size cannot be built in stacks of two")
    s = seats(players)
    stacks = tile_set // 2
    base, extra = divmod(stacks, len(s))
    order = sorted(s, key=lambda x: (x % 2, x))  # E, W before S, N
    out = {seat: base for seat in s}
    for seat in order[:extra]:
        out[seat] += 1
    return out


@dataclass(frozen=True)
class WallBreak:
    """Where the wall breaks (001 §Разлом стены). ``flower_end``: (seat, stacks) segments counted from
    each section's right end; ``live_first``: (seat, stack number counted from that section's right end)."""

    breaker: int
    break_number: int
    flower_end: tuple[tuple[int, int], ...]
    live_first: tuple[int, int]
    crosses_into_left_section: bool


def wall_break(dealer: int, first_sum: int, second_sum: int, players: int, tile_set: int = 144) -> WallBreak:
    """East throws: the target is the breaker (item 1); the breaker throws; b = both sums (item 2);
    b stacks are counted clockwise from the right end of the breaker's section, going on into the
    left player's section (items 3, 5). With 2 or 3 players and their own section lengths."""
    breaker = dice_target(dealer, first_sum, players)
    b = first_sum + second_sum
    sections = wall_sections(players, tile_set)
    segs: list[tuple[int, int]] = []
    seat, left = breaker, b
    while left > 0:
        take = min(left, sections[seat])
        segs.append((seat, take))
        left -= take
        if left:
            seat = prev_seat(seat, players)
    last_seat, used = segs[-1]
    live = (last_seat, used + 1) if used < sections[last_seat] else (prev_seat(last_seat, players), 1)
    return WallBreak(breaker, b, tuple(segs), live, len(segs) > 1)


# ----------------------------------------------------------------------------------------------------------
# Deal — 001 §Раздача 1–5


def deal_order(dealer: int, players: int) -> list[tuple[int, int]]:
    """(seat, tiles) blocks in order: 3 rounds of 4 tiles, then 1 each, then East's first-turn tile."""
    s = seats(players)
    start = s.index(dealer)
    turn = [s[(start + i) % len(s)] for i in range(len(s))]
    blocks = [(seat, 4) for _ in range(3) for seat in turn]
    blocks += [(seat, 1) for seat in turn]
    blocks.append((dealer, 1))
    return blocks


def deal_sizes(dealer: int, players: int) -> dict[int, int]:
    out = {seat: 0 for seat in seats(players)}
    for seat, n in deal_order(dealer, players):
        out[seat] += n
    return out


def tiles_left_after_deal(players: int, tile_set: int) -> int:
    """Wall tiles before flower replacement: tiles − (13·players + 1) (spec §3.4)."""
    return tile_set - (13 * players + 1)


# ----------------------------------------------------------------------------------------------------------
# Dealer rotation — 001 §Дилер 4–5, §Морское дно и речное дно 4


def next_dealer(dealer: int, players: int, winner: int | None) -> int:
    """East keeps the deal on an East win and on a draw (a 2-player draw too, spec A5); otherwise the
    deal passes to the next player in turn order (2 players: the other player). A 0-point win is a win."""
    if winner is None or winner == dealer:
        return dealer
    return next_seat(dealer, players)


@dataclass(frozen=True)
class RoundState:
    """Where the game stands: round wind index (0 East .. 3 North), passes of the deal this round."""

    round_index: int = 0
    passes: int = 0
    hands: int = 0


def advance_round(state: RoundState, dealer: int, new_dealer: int, players: int) -> RoundState:
    """A round ends when the deal has passed ``players`` times (spec A4); after North comes East again."""
    passes = state.passes + (new_dealer != dealer)
    r = state.round_index
    if passes >= players:
        passes = 0
        r = (r + 1) % 4
    return RoundState(r, passes, state.hands + 1)
