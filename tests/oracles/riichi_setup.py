"""The oracle of a riichi table's setup written out plainly (004 Rules 2.4–2.8): the counts after the
deal and the breaker's seat. The machine plays them through ``rules.wall``; the tests check it against
these (they were part of ``rules/profiles/riichi/setup.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.profiles.riichi.setup import (
    DEAD_WALL_TILES,
    DEALER_HAND,
    OTHER_HAND,
    STACKS_PER_WALL,
    TILES_PER_STACK,
    WALLS,
)


@dataclass(frozen=True)
class SetupCounts:
    total_tiles: int
    dead_wall_tiles: int
    east_hand: int
    other_hands: int
    dealt_tiles: int
    live_wall_after_deal: int


def setup_counts(
    walls: int = WALLS, stacks_per_wall: int = STACKS_PER_WALL, tiles_per_stack: int = TILES_PER_STACK
) -> SetupCounts:
    """Tile counts after the deal: 136 tiles, 14 dead, 53 dealt, 69 in the live wall."""
    total = walls * stacks_per_wall * tiles_per_stack
    dealt = DEALER_HAND + 3 * OTHER_HAND
    return SetupCounts(
        total, DEAD_WALL_TILES, DEALER_HAND, OTHER_HAND, dealt, total - DEAD_WALL_TILES - dealt
    )


def breaker_seat(dice_sum: int) -> int:
    """Seat (relative to East) that breaks the wall: East counts the dice counter-clockwise starting
    with himself as 1 (004 Rules 2.5)."""
    if not 2 <= dice_sum <= 12:
        raise ValueError(f"two dice sum to 2..12, not {dice_sum}")
    return (dice_sum - 1) % 4
