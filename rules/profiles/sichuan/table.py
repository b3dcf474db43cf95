"""Sichuan's table around the machine (:mod:`rules.game.table_data`): how MPL and WMSG tables look from
above, the referee's words for its own verdicts, the demo's wins.

Sources: spec/sichuan.md §14 (+ §6.6 and the table in §9/§12 rows 28, AMB-34); ``rule`` cites the seed."""
from __future__ import annotations

from rules.game.table_data import Example, RefereeNotes, TableConventions

MPL2025_TABLE = TableConventions(
    pond_layout="rows6", claimed_sideways=True, kongs=True, concealed_kong_down=(0, 3), concealed_kong_known=True,
    added_kong="beside_sideways", flowers=False, riichi_sticks=False, riichi_sideways_discard=False,
    hu_cards=True, missing_suit_cards=True, dice_throws=1,
    rule="sichuan §14.8 rows of 6 [000 §2.5.2]; §14.10 sideways to source [000 §2.5.5]; §14.11 outer two "
         "down [000 §2.5.7.1]; §14.5 missing-suit cards [000 §2.4.10]; §14.16 hu cards [000 §2.3]")

WMSG_TABLE = TableConventions(
    pond_layout="rows6", claimed_sideways=True, kongs=True, concealed_kong_down=(), concealed_kong_known=True,
    added_kong="beside_sideways", flowers=False, riichi_sticks=False, riichi_sideways_discard=False,
    hu_cards=False, missing_suit_cards=False, dice_throws=1,
    rule="sichuan §14.11 and AMB-34: WMSG shows the concealed kong [002 §8]; no cards (set-aside tile, §14.5)")

#: both editions: a discard out of turn (000 §2.5.3), a wrong tile count (000 §2.8.3.1); an added kong is
#: paid at once only when made with the tile just drawn, kept apart (000 §2.5.3, §2.7.2.3)
REFEREE = RefereeNotes(references={"out_of_turn": "000 §2.5.3", "tile_count": "000 §2.8.3.1"},
                       kong_drawn_tile_paid=True)

MPL2025_EXAMPLES = (Example("1122334455667m + 7m", {"missing_suit": "s"}),)
WMSG_EXAMPLES = (Example("123456789m1p [555p] + 1p", {"missing_suit": "s"}),)
