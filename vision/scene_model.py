"""What lies on the table, as an ideal overhead camera would read it: the common currency of the scene
renderer (its input and ground truth), the scene parser (its output) and the tracker (its input).

Tiles are notation strings (``"5m"``, ``"0p"``, ``"1f"``); ``"x"`` is a tile lying face down. Every list
runs in the owner's reading order: a pond in discard order, a meld left to right as its owner sees it.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PondTile:
    tile: str
    sideways: bool = False  # a riichi declaration discard


@dataclass(frozen=True)
class MeldView:
    """A declared set. ``tiles`` left to right from the owner's view (``x`` = face down); ``sideways``:
    index of the tile turned 90° (None when none is); ``added``: a kong's 4th tile lying sideways beside
    the sideways one (then ``tiles`` has 4 entries, the last being the added tile)."""

    kind: str  # chow / pung / kong_open / kong_concealed / kong_added
    tiles: tuple[str, ...]
    sideways: int | None = None
    source: str | None = None  # "left" / "opposite" / "right"; None for a concealed kong or unknown
    added: bool = False


@dataclass(frozen=True)
class SeatView:
    pond: tuple[PondTile, ...] = ()
    melds: tuple[MeldView, ...] = ()
    flowers: tuple[str, ...] = ()
    standing: int = 0  # concealed tiles standing (tops seen from above)
    revealed: tuple[str, ...] = ()  # concealed tiles laid face up (a reveal), left to right
    riichi_stick: bool = False
    card: str | None = None  # MPL missing-suit card "m"/"p"/"s", Sichuan hu card "1"/"2"/"3", "x" face down


@dataclass(frozen=True)
class Scene:
    """The physical table: one view per seat and the centre (the dice)."""

    profile: str
    seats: tuple[SeatView, ...] = field(default_factory=lambda: (SeatView(),) * 4)
    dice: tuple[int, ...] = ()

    def with_seat(self, seat: int, view: SeatView) -> Scene:
        s = list(self.seats)
        s[seat] = view
        return Scene(self.profile, tuple(s), self.dice)
