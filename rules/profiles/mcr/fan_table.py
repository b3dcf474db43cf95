"""The 81 MCR fans as data (seed 003 fan table; English names and values per spec mcr.md §7).

Each row: number, English name, value, a one-line definition, and the fans it excludes ("не совмещается",
principle 1 "не повторения"). ``seed`` exclusions are written in the seed; ``implied`` ones follow from
principle 1 (spec §7.2 "Implied", §12 A18). Values follow the spec: #20 Greater = 24 and #34 Lesser = 12
(the seed prints the labels swapped, spec §12 A1); #48 is 8 as printed (the Green Book's 6 is an option,
§12 A44). Exclusions that depend on a profile option are added in :func:`exclusions`.

Exclusions that only remove *part* of a repeatable fan (Big Three Winds and the three wind pungs' Pung of
Terminals or Honors, the sets used by a chow/pung combination fan) are not row data: the combination
principles (``principles.py``) apply them while grouping the sets.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FanDef:
    no: int
    name: str
    value: int
    definition: str
    excludes: tuple[int, ...] = ()  # stated by the seed
    implied: tuple[int, ...] = ()  # principle 1, not written in the seed (spec §7.2 "Implied")
    repeatable: bool = False
    seed_line: int = 0

    @property
    def all_excludes(self) -> tuple[int, ...]:
        return self.excludes + self.implied


def _f(no: int, name: str, value: int, definition: str, excludes: tuple[int, ...] = (), implied: tuple[int, ...] = (),
       repeatable: bool = False, line: int = 0) -> FanDef:
    return FanDef(no, name, value, definition, tuple(excludes), tuple(implied), repeatable, line)


FAN_DEFS: tuple[FanDef, ...] = (
    # --- 88 ----------------------------------------------------------------------------------------------
    _f(1, "Big Four Winds", 88, "pungs/kongs of all four winds", (38, 49, 60, 61, 73), line=1304),
    _f(2, "Big Three Dragons", 88, "pungs/kongs of all three dragons", (54, 59), line=1204),
    _f(3, "All Green", 88, "every tile is 2s 3s 4s 6s 8s or Green Dragon", line=2060),
    _f(4, "Nine Gates", 88, "1112345678999 of one suit concealed, winning on any tile of that suit",
       (22, 62, 73), (76,), line=308),
    _f(5, "Four Kongs", 88, "four kongs of any kind", (74, 79), (17, 57, 48, 49, 67), line=1106),
    _f(6, "Seven Shifted Pairs", 88, "seven pairs of one suit with seven consecutive ranks",
       (22, 62, 79), (19, 76), line=329),
    _f(7, "Thirteen Orphans", 88, "one of each terminal and honor plus a duplicate", (52, 62, 79), (18,),
       line=350),
    # --- 64 ----------------------------------------------------------------------------------------------
    _f(8, "All Terminals", 64, "every tile is a suited 1 or 9", (49, 55, 73, 76), (18,), line=2018),
    _f(9, "Little Four Winds", 64, "three wind pungs/kongs and a pair of the fourth wind", (38, 73), line=1275),
    _f(10, "Little Three Dragons", 64, "two dragon pungs/kongs and a pair of the third dragon", (59, 54),
       line=1168),
    _f(11, "All Honors", 64, "every tile is an honor", (49, 55, 73), (18,), line=2040),
    _f(12, "Four Concealed Pungs", 64, "four concealed pungs/kongs", (49, 62), (33, 66), line=1008),
    _f(13, "Pure Terminal Chows", 64, "123 123 789 789 and pair 55, all one suit", (19, 22, 63, 69, 72),
       (76,), line=797),
    # --- 48 ----------------------------------------------------------------------------------------------
    _f(14, "Quadruple Chow", 48, "four identical chows of one suit", (24, 64, 69), (23, 19), line=538),
    _f(15, "Four Pure Shifted Pungs", 48, "four pungs of one suit, ranks n..n+3", (23, 24, 49), line=936),
    # --- 32 ----------------------------------------------------------------------------------------------
    _f(16, "Four Pure Shifted Chows", 32, "four chows of one suit rising by 1 or by 2", (71,), (30, 72),
       line=769),
    _f(17, "Three Kongs", 32, "three kongs", (), (57, 48, 74, 67), line=1085),
    _f(18, "All Terminals and Honors", 32, "every tile is a terminal or an honor, both present", (49, 73),
       (55,), line=1998),
    # --- 24 ----------------------------------------------------------------------------------------------
    _f(19, "Seven Pairs", 24, "seven pairs", (62, 79), line=242),
    _f(20, "Greater Honors and Knitted Tiles", 24, "all seven honors and seven knitted tiles, all single",
       (52, 62), (34,), line=189),
    _f(21, "All Even Pungs", 24, "four pungs and the pair of 2, 4, 6, 8", (49, 68), (76,), line=1843),
    _f(22, "Full Flush", 24, "every tile of one suit", (76,), line=1875),
    _f(23, "Pure Triple Chow", 24, "three identical chows of one suit", (24, 69), line=518),
    _f(24, "Pure Shifted Pungs", 24, "three pungs of one suit, ranks n..n+2", (23,), line=915),
    _f(25, "Upper Tiles", 24, "every tile is a suited 7, 8 or 9", (76,), (36,), line=1912),
    _f(26, "Middle Tiles", 24, "every tile is a suited 4, 5 or 6", (76, 68), line=1949),
    _f(27, "Lower Tiles", 24, "every tile is a suited 1, 2 or 3", (76,), (37,), line=1977),
    # --- 16 ----------------------------------------------------------------------------------------------
    _f(28, "Pure Straight", 16, "123 456 789 of one suit", line=652),
    _f(29, "Three-Suited Terminal Chows", 16, "123+789 in two suits and pair 55 in the third",
       (70, 69, 72, 76, 63), line=753),
    _f(30, "Pure Shifted Chows", 16, "three chows of one suit rising by 1 or by 2", line=718),
    _f(31, "All Fives", 16, "every set and the pair contain a suited 5", (68,), (76,), line=1814),
    _f(32, "Triple Pung", 16, "pungs of one rank in the three suits", line=857),
    _f(33, "Three Concealed Pungs", 16, "three concealed pungs/kongs", (), (66,), line=981),
    # --- 12 ----------------------------------------------------------------------------------------------
    _f(34, "Lesser Honors and Knitted Tiles", 12, "fourteen single honors and knitted tiles", (52, 62),
       line=279),
    _f(35, "Knitted Straight", 12, "147 258 369 in three different suits", (62,), line=206),
    _f(36, "Upper Four", 12, "every tile is a suited 6 to 9", (76,), line=1747),
    _f(37, "Lower Four", 12, "every tile is a suited 1 to 4", (76,), line=1784),
    _f(38, "Big Three Winds", 12, "pungs/kongs of three winds", line=1240),
    # --- 8 -----------------------------------------------------------------------------------------------
    _f(39, "Mixed Straight", 8, "123 456 789 each in a different suit", line=624),
    _f(40, "Reversible Tiles", 8, "every tile is 1234589p 245689s or White", (75,), line=1711),
    _f(41, "Mixed Triple Chow", 8, "the same chow in all three suits", line=577),
    _f(42, "Mixed Shifted Pungs", 8, "three pungs one per suit, ranks n..n+2", line=888),
    _f(43, "Chicken Hand", 8, "a winning hand scoring no other fan (flowers aside)", line=2098),
    _f(44, "Last Tile Draw", 8, "self-drawn win on the last tile of the wall", (80,), line=1417),
    _f(45, "Last Tile Claim", 8, "win on the last discard of the game", line=1429),
    _f(46, "Out with Replacement Tile", 8, "self-drawn win on a kong replacement tile", (), (80,), line=1440),
    _f(47, "Robbing the Kong", 8, "win on the tile added to a melded pung", (58, 56, 79), line=1451),
    _f(48, "Two Concealed Kongs", 8, "two concealed kongs", (), (67, 66), line=1065),
    # --- 6 -----------------------------------------------------------------------------------------------
    _f(49, "All Pungs", 6, "four pungs/kongs and a pair", line=1652),
    _f(50, "Half Flush", 6, "one suit plus honors", line=1671),
    _f(51, "Mixed Shifted Chows", 6, "three chows one per suit starting n, n+1, n+2", line=699),
    _f(52, "All Types", 6, "characters, dots, bamboo, winds and dragons all present", line=1690),
    _f(53, "Melded Hand", 6, "four claimed sets, won on a discard completing the pair", (79,), line=1467),
    _f(54, "Two Dragon Pungs", 6, "two dragon pungs/kongs", (59,), line=1148),
    # --- 4 -----------------------------------------------------------------------------------------------
    _f(55, "Outside Hand", 4, "every set and the pair contain a terminal or an honor", line=1616),
    _f(56, "Fully Concealed Hand", 4, "no claimed set and self-drawn", (), (80, 62), line=1527),
    _f(57, "Two Melded Kongs", 4, "two melded kongs", (), (74,), line=1034),
    _f(58, "Last Tile", 4, "win on the last tile of its kind, the other three visible", line=1402),
    # --- 2 -----------------------------------------------------------------------------------------------
    _f(59, "Dragon Pung", 2, "a dragon pung/kong", repeatable=True, line=420),
    _f(60, "Prevalent Wind", 2, "a pung/kong of the round wind", line=431),
    _f(61, "Seat Wind", 2, "a pung/kong of the seat wind", line=442),
    _f(62, "Concealed Hand", 2, "no claimed set, won on a discard", line=1508),
    _f(63, "All Chows", 2, "four chows and a suited pair", (76,), line=1577),
    _f(64, "Tile Hog", 2, "four tiles of a kind used without a kong", repeatable=True, line=397),
    _f(65, "Double Pung", 2, "pungs of one rank in two suits", repeatable=True, line=838),
    _f(66, "Two Concealed Pungs", 2, "two concealed pungs/kongs", line=961),
    _f(67, "Concealed Kong", 2, "a concealed kong", line=472),
    _f(68, "All Simples", 2, "no terminals and no honors", (), (76,), line=1597),
    # --- 1 -----------------------------------------------------------------------------------------------
    _f(69, "Pure Double Chow", 1, "two identical chows of one suit", repeatable=True, line=503),
    _f(70, "Mixed Double Chow", 1, "the same chow in two suits", repeatable=True, line=562),
    _f(71, "Short Straight", 1, "two chows of one suit making six consecutive ranks", repeatable=True,
       line=609),
    _f(72, "Two Terminal Chows", 1, "123 and 789 of one suit", repeatable=True, line=684),
    _f(73, "Pung of Terminals or Honors", 1, "a pung/kong of 1, 9 or a cold wind", repeatable=True, line=382),
    _f(74, "Melded Kong", 1, "a kong claimed from a discard or promoted from a pung", line=457),
    _f(75, "One Voided Suit", 1, "exactly two of the three suits present", line=1551),
    _f(76, "No Honors", 1, "no wind or dragon", line=1566),
    _f(77, "Edge Wait", 1, "waiting only on the 3 of 12 or the 7 of 89", line=1369),
    _f(78, "Closed Wait", 1, "waiting only on the middle tile of a chow", line=1380),
    _f(79, "Single Wait", 1, "waiting only on the tile completing the pair", line=1391),
    _f(80, "Self-Drawn", 1, "won with a tile from the wall", line=1345),
    _f(81, "Flower Tiles", 1, "each exposed flower/season; not toward the 8-fan minimum", repeatable=True,
       line=371),
)

# Not one of the 81: the Chinese-practice value of one melded + one concealed kong that PyMahjongGB scores
# (明暗杠 5), used only with the option ``kong_pairs="gb"`` (spec §12 A3); the seed gives #57 + #67 = 6.
VARIANT_FANS: tuple[FanDef, ...] = (
    _f(157, "Concealed Kong and Melded Kong", 5, "one melded and one concealed kong (GB option, not the seed)",
       (), (57, 74, 67)),
)

BY_NO: dict[int, FanDef] = {f.no: f for f in FAN_DEFS + VARIANT_FANS}
BY_NAME: dict[str, FanDef] = {f.name: f for f in FAN_DEFS + VARIANT_FANS}
FLOWERS_NO = 81
MIN_FAN = 8  # 003 §Подсчёт 1a: eight fan or more, flowers aside (§Способы победы)

# Names the seed itself uses for some fans (spec §7.1 note), for look-ups by seed wording.
SEED_ALIASES: dict[str, int] = {
    "Pure Quadruple Chow": 14, "Four Shifted Chows": 16, "All Greens": 3, "Fully Concealed": 56,
    "Prevalent Wind Pung": 60, "Seat Wind Pung": 61, "Flowers and Seasons": 81,
}

assert len(FAN_DEFS) == 81 and sorted(f.no for f in FAN_DEFS) == list(range(1, 82))
