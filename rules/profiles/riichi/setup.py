"""Setup as data: the tile set, the wall, the dead wall and the deal (004 Rules 2.4–2.8); the machine
plays them through ``rules.wall`` (``WALLS["riichi"]``)."""

from __future__ import annotations

WALLS = 4
STACKS_PER_WALL = 17  # 004 Rules 2.4
TILES_PER_STACK = 2
DEAD_WALL_TILES = 14  # seven stacks right of the break, always 14 (004 Rules 2.6, 3.3.5)
DEALER_HAND = 14  # 004 Rules 2.8
OTHER_HAND = 13
KAN_DORA_LIMIT = 4  # at most four kans (004 Rules 3.3.10): at most 5 indicators
START_POINTS = 30_000  # 004 Reg 6.2.3


def live_wall_after_kans(n_kans: int) -> int:
    """Live-wall tiles after the deal when ``n_kans`` kans were declared (each moves the last live tile
    to the dead wall, 004 Rules 3.3.5)."""
    total = WALLS * STACKS_PER_WALL * TILES_PER_STACK
    return total - DEAD_WALL_TILES - DEALER_HAND - 3 * OTHER_HAND - n_kans
