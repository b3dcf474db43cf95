"""Setup as data: the tile set, the wall, the dead wall and the deal (004 Rules 2.4–2.8)."""

from __future__ import annotations

from dataclasses import dataclass

WALLS = 4
STACKS_PER_WALL = 17  # 004 Rules 2.4
TILES_PER_STACK = 2
DEAD_WALL_TILES = 14  # seven stacks right of the break, always 14 (004 Rules 2.6, 3.3.5)
DEALER_HAND = 14  # 004 Rules 2.8
OTHER_HAND = 13
KAN_DORA_LIMIT = 4  # at most four kans (004 Rules 3.3.10): at most 5 indicators
START_POINTS = 30_000  # 004 Reg 6.2.3


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


def live_wall_after_kans(n_kans: int) -> int:
    """Live-wall tiles after the deal when ``n_kans`` kans were declared (each moves the last live tile
    to the dead wall, 004 Rules 3.3.5)."""
    return setup_counts().live_wall_after_deal - n_kans
