"""Flower replacement (001 §Раздача 7–8, «Замена цветов», «Морское дно и речное дно» 2; spec §3.5, §4.1).

Flowers (flowers and seasons, ``1f``–``8f``) are not playing tiles: each one is exposed and replaced from
the flower end (the tail of the wall) at once, repeatedly while replacements are flowers; they are never
discarded; none is replaced straight after a pung or chow; a flower drawn as the sea bottom stays in the
hand (no tile is left to replace it) and a playing tile is discarded.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.tiles import Tile


@dataclass(frozen=True)
class Replacement:
    playing: tuple[Tile, ...]  # the playing tiles in hand afterwards
    exposed: tuple[Tile, ...]  # flowers exposed in this replacement
    draws: int  # tiles taken from the flower end
    kept: tuple[Tile, ...] = ()  # flowers that stay in hand because the wall ran out


def replace_flowers(tiles: Sequence[Tile], draw_tail: Callable[[], Tile | None]) -> Replacement:
    """Expose every flower in ``tiles`` and draw replacements from the flower end until only playing
    tiles remain (001 §Раздача 7; §Замена цветов 2–3). ``draw_tail`` returns None when the wall is empty:
    the flower then stays in the hand (§Морское дно и речное дно 2)."""
    playing = [t for t in tiles if not t.is_flower]
    pending = [t for t in tiles if t.is_flower]
    exposed: list[Tile] = []
    kept: list[Tile] = []
    draws = 0
    while pending:
        f = pending.pop(0)
        nxt = draw_tail()
        if nxt is None:
            kept.append(f)
            kept.extend(pending)
            break
        exposed.append(f)
        draws += 1
        (pending if nxt.is_flower else playing).append(nxt)
    return Replacement(tuple(playing), tuple(exposed), draws, tuple(kept))


def may_discard(tile: Tile) -> bool:
    """Flowers can only be replaced, never discarded (§Замена цветов 6); a joker may be (§Джокеры 2)."""
    return not tile.is_flower


def may_replace_now(just_claimed: bool, wall_left: int) -> bool:
    """No replacement straight after a pung or chow (§Замена цветов 5; §Раздача 8); none from an empty wall."""
    return not just_claimed and wall_left > 0


def sea_bottom_flower() -> dict[str, object]:
    """A flower drawn as the sea bottom (§Морское дно и речное дно 2)."""
    return {
        "replace": False,
        "may_discard_flower": False,
        "must_discard": "any playing tile from the hand",
        "flower_scores": False,  # it is not exposed, and a concealed flower cannot win (spec A22)
    }
