"""Claims on a discard (003 §Словарь 20-22, §Порядок игры 5-8, §Как собрать 1, 2e; spec §4.2).

* Chow only from the upper (left) player's discard; pung and melded kong from any other player.
* Priority: Hu > pung/kong > chow. Only one player wins a hand: among several Hu the one nearest to the
  discarder in turn order wins (003 §Как собрать 2e).
* A robbed kong is a discard win (§Как собрать 2d(2)); only an added (promoted) kong can be robbed (#47).
* No furiten: a player may claim or win on a tile of a kind he discarded earlier (§Порядок игры 6).
"""
from __future__ import annotations

from dataclasses import dataclass

PRIORITY = {"chow": 1, "pung": 2, "kong": 2, "hu": 3}


@dataclass(frozen=True)
class Claim:
    seat: int
    kind: str  # "chow" | "pung" | "kong" | "hu"


def turn_distance(discarder: int, seat: int, n_seats: int = 4) -> int:
    """1 for the next player in turn order (counter-clockwise), up to n_seats-1."""
    return (seat - discarder) % n_seats


def may_claim(claim: Claim, discarder: int, n_seats: int = 4) -> tuple[bool, str]:
    if claim.kind not in PRIORITY:
        return False, f"unknown claim {claim.kind!r}"
    if claim.seat == discarder:
        return False, "a player cannot claim his own discard"
    if claim.kind == "chow" and turn_distance(discarder, claim.seat, n_seats) != 1:
        return False, "a chow may only be claimed from the upper (left) player (003 §Словарь 20)"
    return True, ""


def resolve(claims: list[Claim], discarder: int, n_seats: int = 4) -> Claim | None:
    """The claim that takes the discard: highest priority, then nearest to the discarder in turn order."""
    legal = [c for c in claims if may_claim(c, discarder, n_seats)[0]]
    if not legal:
        return None
    return max(legal, key=lambda c: (PRIORITY[c.kind], -turn_distance(discarder, c.seat, n_seats)))


def can_rob(kong_kind: str) -> bool:
    """Only the tile added to a melded pung can be robbed (003 #47 «добавил к открытому пангу»)."""
    return kong_kind == "added"
