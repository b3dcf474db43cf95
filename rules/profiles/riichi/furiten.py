"""Furiten in its three forms (004 Rules 3.2, 3.3.14, 3.4.5; spec §6).

Waits are every tile that completes the hand into any valid shape, yaku ignored. A furiten player may
not ron but may always tsumo; nobody is furiten on his own draw.

1. Discard furiten: a wait is among the player's own discards (also those claimed by others, A25).
2. Temporary furiten: he let a completing tile pass; it lasts until his own next draw or claim (A6).
3. Riichi furiten: a riichi player who lets a completing tile pass stays furiten for the hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.notation import Hand, parse_hand
from rules.shapes import waits as shape_waits
from rules.tiles import KINDS, Tile, counts34


def hand_waits(hand: Hand) -> frozenset[int]:
    """Kinds completing the 13-tile hand (shape only, yaku ignored)."""
    return frozenset(shape_waits(counts34(hand.concealed), len(hand.melds)))


def discard_furiten(hand: Hand, own_discards: Iterable[Tile]) -> bool:
    w = hand_waits(hand)
    return any(t.kind in w for t in own_discards)


class FuritenTracker:
    """One player's furiten state through a hand, fed with the events the referee sees."""

    def __init__(self, hand: Hand | str, own_discards: Iterable[Tile | str] = (), riichi: bool = False):
        self.riichi = riichi
        self.discards: set[int] = {(Tile.parse(t) if isinstance(t, str) else t).kind for t in own_discards}
        self.temporary = False
        self.riichi_furiten = False
        self.set_hand(parse_hand(hand) if isinstance(hand, str) else hand)

    # --- state --------------------------------------------------------------------------------------------
    def set_hand(self, hand: Hand) -> None:
        """The player's 13-tile hand changed (after his discard)."""
        self.hand = hand
        self.waits = hand_waits(hand)

    @property
    def discard_furiten(self) -> bool:
        return bool(self.waits & self.discards)

    @property
    def furiten(self) -> bool:
        return self.discard_furiten or self.temporary or self.riichi_furiten

    def wait_tiles(self) -> list[Tile]:
        return [KINDS[k] for k in sorted(self.waits)]

    # --- questions ------------------------------------------------------------------------------------------
    def can_ron(self, tile: Tile | str) -> bool:
        """May the player ron this discard (or robbable kan tile) now? Shape only: yaku is the scorer's."""
        t = Tile.parse(tile) if isinstance(tile, str) else tile
        return t.kind in self.waits and not self.furiten

    def can_tsumo(self, tile: Tile | str) -> bool:
        """Furiten never forbids a self-drawn win."""
        t = Tile.parse(tile) if isinstance(tile, str) else tile
        return t.kind in self.waits

    # --- events ---------------------------------------------------------------------------------------------
    def passed(self, tile: Tile | str) -> None:
        """Another player's discard (or kan tile) was not won on by this player."""
        t = Tile.parse(tile) if isinstance(tile, str) else tile
        if t.kind in self.waits:
            self.temporary = True
            if self.riichi:
                self.riichi_furiten = True  # 004 Rules 3.3.14: until the end of the hand

    def own_draw(self) -> None:
        """His own draw (wall or replacement) ends temporary furiten (spec A6)."""
        self.temporary = False

    def own_claim(self) -> None:
        """His own chi/pon/kan ends temporary furiten (spec A6)."""
        self.temporary = False

    def own_discard(self, tile: Tile | str, hand_after: Hand | None = None) -> None:
        t = Tile.parse(tile) if isinstance(tile, str) else tile
        self.discards.add(t.kind)
        if hand_after is not None:
            self.set_hand(hand_after)

    def declare_riichi(self) -> None:
        self.riichi = True
