"""Each pond as the camera shows it against the record's tiles: pure comparisons, no effects."""
from __future__ import annotations

from collections import Counter

from controller.referee.state import (
    NO_TILE,
    TILE_TEXTS,
    RefereeState,
)
from rules.tiles import TILES, Tile


def same_pond(r: RefereeState, seen: list[str], tiles: list[str]) -> bool:
    """The camera's pond is the record's (an unreadable tile matches the tile the record has there; a free
    layout has no order)."""
    if len(seen) != len(tiles):
        return False
    if r.conv.pond_layout == "rows6":
        return all(a == b or a not in TILE_TEXTS for a, b in zip(seen, tiles))
    left = Counter(tiles)
    left.subtract(t for t in seen if t in TILE_TEXTS)
    return all(n >= 0 for n in left.values())


def real_seen(r: RefereeState, seat: int, keep: int | None = None) -> list[str]:
    """The camera's pond less the unreadable entries the operator said are no tile (a detection of
    something that is not a tile: a reflection, two touching tiles found as three), less what the reader
    calls no tile (:data:`NO_TILE`), and less an unreadable
    new tile waiting for the rest of its frame; ``keep``: the index of the entry just seen, never one of
    them."""
    seen, n = r.pond.seen[seat], r.pond.phantoms.get(seat, 0)
    u = r.pond.unread.get(seat)
    aside = u.index if u is not None and u.index != keep else None  # (asked once its frame is read)
    if not n and (aside is None or aside >= len(seen) or seen[aside] in TILE_TEXTS) and NO_TILE not in seen:
        return seen
    out = []
    for i, t in enumerate(seen):
        if t == NO_TILE:  # the reader says: bare cloth, no tile
            continue
        if t not in TILE_TEXTS and i != keep and (n or i == aside):
            n -= 0 if i == aside else 1
            continue
        out.append(t)
    return out


def won_on(r: RefereeState, seat: int, tile: str) -> bool:
    return any(w.from_seat == seat and str(w.tile) == tile for w in r.st.wins)


def tile_kind(tile: str) -> str:
    """A tile's kind in notation (a red five is a five)."""
    return "5" + tile[1] if tile[:1] == "0" else tile


def tiles_of(texts: tuple[str, ...]) -> list[Tile]:
    by = {str(t): t for t in TILES}
    return [by[t] for t in texts]
