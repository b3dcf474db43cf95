"""MCR's table around the machine (:mod:`rules.game.table_data`): how it looks from above, the referee's
words for its own verdicts, the demo's wins.

Sources: spec/mcr.md §13 (+ §4 kongs); ``rule`` cites the sections."""
from __future__ import annotations

import dataclasses

from rules.game.table_data import Example, RefereeNotes, TableConventions

TABLE = TableConventions(
    pond_layout="rows6", claimed_sideways=True, kongs=True, concealed_kong_down=(0, 1, 2, 3),
    concealed_kong_known=False, added_kong="beside_sideways", flowers=True, riichi_sticks=False,
    riichi_sideways_discard=False, hu_cards=False, missing_suit_cards=False, dice_throws=2,
    rule="mcr §13.6 rows of 6; §13.8 rotated tile = discarder; §13.9 concealed kong all four face down, "
         "read at the reveal; §13.5 flowers set aside; §13.2 two throws")
SIAMESE_CONVENTIONS = dataclasses.replace(TABLE, rule="as mcr")

REFEREE = RefereeNotes(references={"out_of_turn": "003 §Порядок игры", "tile_count": "003 §Отдельные нарушения 8"})

EXAMPLES: tuple[Example, ...] = (Example("1112345678999m + 9m"), Example("147m258p369s1234z + 5z", {"self_drawn": True}))
