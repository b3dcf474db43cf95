"""The physical conventions of each profile, as the overhead camera has to read them (data, not code).

Sources: spec/sichuan.md §14 (+ §6.6 and the table in §9/§12 rows 28, AMB-34), spec/mcr.md §13 (+ §4 kongs),
spec/riichi.md §15, spec/red.md §12 (+ A27, §4.3). ``rule`` fields cite the seed section behind a value.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Where the sideways (claimed) tile lies in a claimed set, by the discarder's place relative to the
#: claimant: left player → leftmost, opposite → middle, right player → rightmost (sichuan §14.10,
#: mcr §13.8, riichi §15 "chi/pon").
SIDEWAYS_INDEX = {"left": 0, "opposite": 1, "right": -1}


@dataclass(frozen=True)
class Conventions:
    """How one profile's table looks from above."""

    profile: str
    pond_layout: str  # "rows6": rows of 6, first row nearest the centre, left to right; "free"
    claimed_sideways: bool  # the claimed tile of an open set is turned 90° towards its source
    kongs: bool
    concealed_kong_down: tuple[int, ...]  # indices (0..3, left to right) of tiles lying face down
    concealed_kong_known: bool  # identity readable before the reveal
    added_kong: str  # "beside_sideways": the 4th tile lies sideways next to the claimed tile
    flowers: bool
    riichi_sticks: bool
    riichi_sideways_discard: bool
    hu_cards: bool  # Sichuan MPL hu cards "1", "2", "3"
    missing_suit_cards: bool  # MPL missing-suit cards
    dice_throws: int
    rule: str  # where these come from


CONVENTIONS: dict[str, Conventions] = {
    "sichuan-mpl2025": Conventions(
        "sichuan-mpl2025", "rows6", True, True, (0, 3), True, "beside_sideways", False, False, False,
        True, True, 1,
        "sichuan §14.8 rows of 6 [000 §2.5.2]; §14.10 sideways to source [000 §2.5.5]; §14.11 outer two "
        "down [000 §2.5.7.1]; §14.5 missing-suit cards [000 §2.4.10]; §14.16 hu cards [000 §2.3]"),
    "sichuan-wmsg": Conventions(
        "sichuan-wmsg", "rows6", True, True, (), True, "beside_sideways", False, False, False,
        False, False, 1,
        "sichuan §14.11 and AMB-34: WMSG shows the concealed kong [002 §8]; no cards (set-aside tile, §14.5)"),
    "mcr": Conventions(
        "mcr", "rows6", True, True, (0, 1, 2, 3), False, "beside_sideways", True, False, False,
        False, False, 2,
        "mcr §13.6 rows of 6; §13.8 rotated tile = discarder; §13.9 concealed kong all four face down, "
        "read at the reveal; §13.5 flowers set aside; §13.2 two throws"),
    "mcr-siamese": Conventions(
        "mcr-siamese", "rows6", True, True, (0, 1, 2, 3), False, "beside_sideways", True, False, False,
        False, False, 2, "as mcr"),
    "riichi-ema2016": Conventions(
        "riichi-ema2016", "rows6", True, True, (1, 2), True, "beside_sideways", False, True, True,
        False, False, 1,
        "riichi §15: discards rows of 6 [Rules 3.3]; chi/pon sideways at left/middle/right [Rules 3.3.3-4]; "
        "added kan next to the sideways tile [Rules 3.3.6]; concealed kan middle two down [Rules 3.3.7]; "
        "riichi stick + sideways discard [Rules 3.3.14]"),
    # red: free pond (§12 "free layout"), claimed tile not turned (A27), no kongs (§4.3), flowers (§3.5)
    "red": Conventions(
        "red", "free", False, False, (), True, "beside_sideways", True, False, False, False, False, 2,
        "red §12: free river layout; A27 the claimed tile is not turned (track it from the river); "
        "§4.3 no kongs; §3.5 flowers in front of the hand; §2.2 East then the breaker throw"),
    "basic": Conventions(
        "basic", "rows6", True, True, (0, 3), True, "beside_sideways", False, False, False, False, False, 1,
        "basic: generic table (rows of 6, sideways claimed tile, outer two of a concealed kong down)"),
}


def conventions(profile: str) -> Conventions:
    """The conventions of ``profile`` (a registry name); ValueError for an unknown name."""
    try:
        return CONVENTIONS[profile]
    except KeyError:
        raise ValueError(f"no camera conventions for profile {profile!r}; known: {', '.join(CONVENTIONS)}") from None


def sideways_index(source: str, n_tiles: int) -> int:
    """Index (left to right, from the claimant's view) of the sideways tile of a set claimed from ``source``."""
    i = SIDEWAYS_INDEX[source]
    return n_tiles - 1 if i < 0 else min(i, n_tiles - 1)


def source_of_index(index: int, n_tiles: int) -> str:
    """The inverse of :func:`sideways_index`: which neighbour a sideways tile at ``index`` points at."""
    if index == 0:
        return "left"
    if index == n_tiles - 1:
        return "right"
    return "opposite"
