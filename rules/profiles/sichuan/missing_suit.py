"""The missing-suit declaration (000 §2.4.10, §2.4.9.6, §2.5.4; 002 §5) as pure checks.

MPL: every player lays one suit card face down; when all are down they are turned together; sorting and
the decision take at most 15 s after the deal. The card may be removed once the player's first unclaimed
discard is of that suit (it then shows the suit). WMSG: every player sets aside one tile face down (the
dealer from 14, the others from 13) as his first discard; a player whose starting hand lacks a suit gets
a judge's card instead [AMB-27: then his first discard is free and the card announces the suit].
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.profiles.sichuan.params import SichuanParams
from rules.tiles import Tile

SUITS = ("m", "p", "s")


@dataclass(frozen=True)
class Problem:
    seat: int | None
    code: str
    rule: str
    message: str


def suits_held(tiles: Iterable[Tile]) -> set[str]:
    return {t.suit for t in tiles if t.suit in SUITS}


def check_cards(params: SichuanParams, placed: Mapping[int, float | None], revealed_at: float | None,
                dealt_at: float, seats: Iterable[int]) -> list[Problem]:
    """MPL cards: every seat placed a card (time in seconds, None = not yet), all turned together."""
    out: list[Problem] = []
    seats = list(seats)
    missing = [s for s in seats if placed.get(s) is None]
    if revealed_at is not None and missing:
        out.append(Problem(None, "cards_turned_early", "000 §2.4.10.2",
                           f"cards turned before seats {missing} placed theirs"))
    for s in seats:
        t = placed.get(s)
        if t is not None and t - dealt_at > params.declare_max_s:
            out.append(Problem(s, "slow_declaration", "000 §2.4.9.6",
                               f"missing suit chosen {t - dealt_at:.1f} s after the deal "
                               f"(limit {params.declare_max_s:g} s)"))
    return out


def card_may_be_removed(first_unclaimed_discard: Tile | None, missing_suit: str) -> bool:
    """000 §2.5.4: the card may go once the first unclaimed discard is of the missing suit."""
    return first_unclaimed_discard is not None and first_unclaimed_discard.suit == missing_suit


def check_set_aside(hand: Iterable[Tile], set_aside: Tile | None, announced: str | None,
                    judge_card: str | None, seat: int) -> list[Problem]:
    """WMSG (002 §5.2-5.3): the set-aside tile announces the suit; a judge's card only for a hand that
    lacks a suit [AMB-27]; anything else is flagged to the judge."""
    tiles = list(hand)
    held = suits_held(tiles)
    out: list[Problem] = []
    if judge_card is not None:
        if len(held) == 3:
            out.append(Problem(seat, "judge_card_not_needed", "002 §5.2 comment [AMB-27]",
                               "a judge's card is for a starting hand of one or two suits"))
        return out
    if set_aside is None:
        out.append(Problem(seat, "no_set_aside_tile", "002 §5.2", "no tile was set aside face down"))
        return out
    if set_aside not in tiles:
        out.append(Problem(seat, "set_aside_not_held", "002 §5.2", f"{set_aside} is not in the hand"))
    if announced is not None and set_aside.suit != announced:
        out.append(Problem(seat, "set_aside_wrong_suit", "002 §5.3 [AMB-27]",
                           f"the set-aside {set_aside} is not of the announced suit {announced}"))
    return out


def first_discard_problem(set_aside: Tile | None, first_discard: Tile) -> Problem | None:
    """002 §5.3: on his first turn the player discards the set-aside tile."""
    if set_aside is not None and first_discard != set_aside:
        return Problem(None, "first_discard_not_set_aside", "002 §5.3",
                       f"the first discard must be the set-aside {set_aside}, not {first_discard}")
    return None
