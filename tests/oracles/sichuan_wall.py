"""The oracle of a Sichuan wall: dice, break and deal written out plainly (000 §2.4.8-9, §3.1.3; 002 §1).

The hand machine plays them through ``rules.wall`` (``WALLS["sichuan"]``); the tests check it against
these obviously-right functions (they were ``rules/profiles/sichuan/tables.py``).

Seats are absolute (0 = East at the first hand); "East/South/West/North" in the seeds mean the current
dealer and the players after him in turn order [Interp AMB-11]. The wall is a ring of 54 stacks of two
tiles; :func:`stack_order` numbers them L1..L54 in drawing (clockwise) order after the break, and
:func:`deal_positions` says which tile positions each seat receives (spec §4.3-4.5).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

N_TILES = 108  # 000 §2.3, 002 §1.1
N_STACKS = 54
# 000 §2.4.8, 002 §1.2: stacks per section, by offset from the dealer (dealer, next, opposite, previous)
WALL_STACKS_BY_OFFSET: tuple[int, int, int, int] = (14, 13, 14, 13)


def wall_sizes(dealer: int) -> dict[int, int]:
    """Seat → stacks in its wall section (a 3-player table keeps the full wall [Interp AMB-13])."""
    return {(dealer + off) % 4: n for off, n in enumerate(WALL_STACKS_BY_OFFSET)}


def dice_wall_offset(dice_sum: int) -> int:
    """000 §2.4.9.2: the sum counted in turn order from the dealer as 1 (5,9 → 0; 2,6,10 → 1; ...)."""
    if not 2 <= dice_sum <= 12:
        raise ValueError(f"two dice cannot sum to {dice_sum}")
    return (dice_sum - 1) % 4


def dice_wall_owner(dealer: int, dice: Sequence[int]) -> int:
    """Seat whose wall is broken (000 §2.4.9.1-2, 002 §1.3)."""
    _check_dice(dice)
    return (dealer + dice_wall_offset(sum(dice))) % 4


def break_stacks(dice: Sequence[int]) -> int:
    """000 §2.4.9.3, 002 §1.3: the smaller die = stacks counted from the owner's right end."""
    _check_dice(dice)
    return min(dice)


def _check_dice(dice: Sequence[int]) -> None:
    if len(dice) != 2 or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"one throw of two dice (1-6 each) expected, not {list(dice)}")


def stack_order(dealer: int, dice: Sequence[int]) -> list[tuple[int, int]]:
    """L1..L54 as (seat, stack number from that seat's right end, 1-based), spec §4.3.

    Clockwise goes from a section's right end to its left end and on into the section of the owner's
    left player (seat - 1): ``W[d+1..n], (W-1)[1..n], (W-2)[1..n], (W-3)[1..n], W[1..d]``.
    """
    w = dice_wall_owner(dealer, dice)
    d = break_stacks(dice)
    sizes = wall_sizes(dealer)
    out = [(w, i) for i in range(d + 1, sizes[w] + 1)]
    for k in (1, 2, 3):
        s = (w - k) % 4
        out.extend((s, i) for i in range(1, sizes[s] + 1))
    out.extend((w, i) for i in range(1, d + 1))
    return out


@dataclass(frozen=True)
class Position:
    """One tile position: stack L-number (1-based, drawing order) and layer."""

    stack: int
    top: bool

    @property
    def index(self) -> int:
        """Index in the drawing order of the 108 tiles (top before bottom [Interp AMB-12])."""
        return 2 * (self.stack - 1) + (0 if self.top else 1)

    def __str__(self) -> str:
        return f"L{self.stack}.{'top' if self.top else 'bottom'}"


def _stack_tiles(stack: int) -> list[Position]:
    return [Position(stack, True), Position(stack, False)]


def deal_positions(dealer: int, seats: Sequence[int]) -> tuple[dict[int, list[Position]], int]:
    """Which positions each seat receives, and the index of the first draw after the deal.

    Four players (000 §2.4.9.4): three rounds of two stacks each in turn order; the dealer "jumps" to
    the top tiles of the 1st and 3rd remaining stacks; the others take L25.bottom, L26.top, L26.bottom
    in turn order [Interp AMB-12]. Three players (000 §3.1.3): "4, 4, 4 three times, then 1 (13th)
    three times, then 1 (14th)" [Interp spec §4.5]: three rounds of 4, one single each, the dealer's 14th.
    """
    order = sorted(seats, key=lambda s: (s - dealer) % 4)
    if order[0] != dealer:
        raise ValueError("the dealer must be seated")
    got: dict[int, list[Position]] = {s: [] for s in order}
    stack = 1
    for _ in range(3):
        for s in order:
            got[s] += _stack_tiles(stack) + _stack_tiles(stack + 1)
            stack += 2
    if len(order) == 4:
        got[order[0]] += [Position(stack, True), Position(stack + 2, True)]
        got[order[1]].append(Position(stack, False))
        got[order[2]].append(Position(stack + 1, True))
        got[order[3]].append(Position(stack + 1, False))
        first = Position(stack + 2, False).index
    else:
        singles = [Position(stack, True), Position(stack, False), Position(stack + 1, True)]
        for s, p in zip(order, singles, strict=False):
            got[s].append(p)
        got[dealer].append(Position(stack + 1, False))
        first = Position(stack + 2, True).index
    return got, first


@dataclass(frozen=True)
class Deal:
    hands: dict[int, list]  # seat -> tiles
    live: list  # the remaining tiles in drawing order (normal and replacement draws, 000 §2.5.7)


def deal(wall_in_draw_order: Sequence, dealer: int, seats: Sequence[int] = (0, 1, 2, 3)) -> Deal:
    """Distribute 108 tiles given in drawing order (L1.top, L1.bottom, L2.top, ...) per :func:`deal_positions`.

    The live wall keeps the drawing order of the positions nobody was dealt (the dealer's jump leaves
    L27.bottom as the open end). There is no dead wall: replacement tiles come from the same open end.
    """
    if len(wall_in_draw_order) != N_TILES:
        raise ValueError(f"a Sichuan wall has {N_TILES} tiles, not {len(wall_in_draw_order)}")
    pos, _first = deal_positions(dealer, seats)
    taken = {p.index for ps in pos.values() for p in ps}
    hands = {s: [wall_in_draw_order[p.index] for p in ps] for s, ps in pos.items()}
    live = [wall_in_draw_order[i] for i in range(N_TILES) if i not in taken]
    return Deal(hands, live)
