"""Riichi's table around the machine (:mod:`rules.game.table_data`): how it looks from above, the referee's
words for its own verdicts, the formats its hands are written in, the demo's win.

Sources: spec/riichi.md §15; ``rule`` cites 004."""
from __future__ import annotations

from rules.game.table_data import MJAI, PANTHEON, TENHOU6, Example, RefereeNotes, TableConventions

TABLE = TableConventions(
    pond_layout="rows6", claimed_sideways=True, kongs=True, concealed_kong_down=(1, 2), concealed_kong_known=True,
    added_kong="beside_sideways", flowers=False, riichi_sticks=True, riichi_sideways_discard=True,
    hu_cards=False, missing_suit_cards=False, dice_throws=1, dora_indicators=True,
    rule="riichi §15: discards rows of 6 [Rules 3.3]; chi/pon sideways at left/middle/right [Rules 3.3.3-4]; "
         "added kan next to the sideways tile [Rules 3.3.6]; concealed kan middle two down [Rules 3.3.7]; "
         "riichi stick + sideways discard [Rules 3.3.14]")

REFEREE = RefereeNotes(references={"out_of_turn": "004 Rules 3.3", "tile_count": "004 Rules 3.4.7"})

#: tenhou.net/6 and mjai are riichi's formats; Pantheon records riichi tournaments
RECORD_FORMATS = frozenset({TENHOU6, MJAI, PANTHEON})

EXAMPLES = (Example("23456m67888p234s + 1m", {"self_drawn": True, "seat_wind": "2z", "round_wind": "1z",
                                                "dora_indicators": ["1p"]}),)
