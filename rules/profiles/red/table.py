"""Red's table around the machine (:mod:`rules.game.table_data`): how it looks from above, the referee's
words for its own verdicts, the demo's win.

Sources: spec/red.md §12 (+ A27, §4.3): a free pond (§12 "free layout"), the claimed tile not turned (A27),
no kongs (§4.3), flowers (§3.5)."""
from __future__ import annotations

from rules.game.table_data import Example, RefereeNotes, TableConventions

TABLE = TableConventions(
    pond_layout="free", claimed_sideways=False, kongs=False, concealed_kong_down=(), concealed_kong_known=True,
    added_kong="beside_sideways", flowers=True, riichi_sticks=False, riichi_sideways_discard=False,
    hu_cards=False, missing_suit_cards=False, dice_throws=2,
    rule="red §12: free river layout; A27 the claimed tile is not turned (track it from the river); "
         "§4.3 no kongs; §3.5 flowers in front of the hand; §2.2 East then the breaker throw")

REFEREE = RefereeNotes(references={"out_of_turn": "001 §Правила взятия и сноса 1",
                                   "tile_count": "001 §Перебор и недобор костей 1-5"})

EXAMPLES = (Example("234s j [123m] [555p] [777z] + j", {"self_drawn": True, "players": 4}),)
