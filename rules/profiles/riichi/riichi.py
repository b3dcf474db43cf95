"""Riichi: the conditions, the stake, ippatsu and the concealed kan after riichi (004 Rules 3.3.14, 5.3)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.notation import Hand, parse_tiles
from rules.shapes import regular_decompositions
from rules.shapes import waits as shape_waits
from rules.tiles import Tile, counts34

STAKE = 1000
MIN_LIVE_WALL = 4  # "fewer than four tiles in the wall: no riichi" (spec A27: counted after the draw)


def riichi_allowed(
    closed: bool,
    tenpai: bool,
    live_wall_tiles_left: int,
    already_riichi: bool = False,
    dead_hand: bool = False,
) -> bool:
    """Closed (concealed kans allowed), tenpai, at least four live-wall tiles left. A score below 1000
    does not forbid it (spec A13: the stick is borrowed); a furiten hand may declare (3.3.14)."""
    return (
        closed and tenpai and live_wall_tiles_left >= MIN_LIVE_WALL and not already_riichi and not dead_hand
    )


def _waits(c: list[int], n_melds: int) -> frozenset[int]:
    return frozenset(shape_waits(c, n_melds))


def concealed_kan_allowed(riichi_hand: Hand | str, drawn: Tile | str) -> tuple[frozenset[int], bool]:
    """Waits of the riichi hand and whether a concealed kan of the drawn tile is allowed (004 Rules 3.3.14):
    the player holds three of the drawn tile, the kan leaves the waits unchanged, and the three tiles are
    a pon in every reading of the riichi hand (111222333 can be three chi: no kan)."""
    hand = parse_tiles(riichi_hand) if isinstance(riichi_hand, str) else list(riichi_hand.concealed)
    n_melds = 0 if isinstance(riichi_hand, str) else len(riichi_hand.melds)
    d = Tile.parse(drawn) if isinstance(drawn, str) else drawn
    c = counts34(hand)
    before = _waits(c, n_melds)
    k = d.kind
    if c[k] != 3 or not before:
        return before, False
    after_c = list(c)
    after_c[k] = 0
    if _waits(after_c, n_melds + 1) != before:
        return before, False
    for w in before:
        full = list(c)
        full[w] += 1
        for dec in regular_decompositions(full):
            if ("pung", k) not in dec.sets:
                return before, False
        # a seven-pairs reading cannot hold three of a kind, thirteen orphans no set: nothing to check
    return before, True


@dataclass
class RiichiState:
    """One player's riichi: the stake, the ippatsu window, the sideways tile (004 Rules 3.3.14, 5.3)."""

    declared: bool = False
    valid: bool = False
    double: bool = False
    ippatsu_open: bool = False
    sideways_pending: bool = False  # the declaration tile was called: turn the next discard sideways

    def declare(self, first_turn_uninterrupted: bool) -> None:
        self.declared = self.valid = True
        self.double = first_turn_uninterrupted
        self.ippatsu_open = True

    def declaration_discard_claimed(self, claimed_for: str) -> dict[str, bool]:
        """The declaration tile was claimed: for ron the riichi is void and the stake returned; for a set
        the riichi stands, the next discard goes sideways, and the call breaks ippatsu."""
        if claimed_for == "ron":
            self.valid = False
            self.ippatsu_open = False
            return {"riichi_valid": False, "stake_returned": True}
        self.sideways_pending = True
        self.ippatsu_open = False
        return {
            "riichi_valid": True,
            "stake_returned": False,
            "next_discard_turned_sideways": True,
            "ippatsu_possible": False,
        }

    def any_call(self) -> None:
        """Any chi, pon or kan at the table (a concealed kan included) ends the ippatsu window."""
        self.ippatsu_open = False

    def own_discard_after_window(self) -> None:
        """The declarer discards again after his next draw: the first go-around is over."""
        self.ippatsu_open = False
