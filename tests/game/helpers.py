"""Scripted hands for the machine tests: known starting hands, events submitted one by one."""
from __future__ import annotations

import dataclasses

from rules.events import (
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    Drew,
    Event,
    HandRevealed,
    HandStarted,
    MeldMade,
    WallBroken,
    Won,
)
from rules.game.machine import HandMachine
from rules.notation import parse_tiles
from rules.profiles.basic import Basic
from rules.wall import break_wall


def tiles(text: str) -> tuple[str, ...]:
    return tuple(str(t) for t in parse_tiles(text))


class Script:
    """A hand under test. ``hands``: notation per seat (dealer 14 tiles, others 13)."""

    def __init__(self, hands: dict[int, str], profile=None, mode: str = "full", dealer: int = 0,
                 dice=((3, 4),), n_players: int = 4, options: dict | None = None):
        self.profile = profile or Basic()
        self.m = HandMachine(self.profile, mode)
        self.t = 0.0
        self.sub(HandStarted(profile=self.profile.name, dealer=dealer, n_players=n_players, options=options or {}))
        spec = self.profile.wall_spec(n_players)
        brk = break_wall(spec, dealer, dice)
        for thrower, d in zip(brk.throwers, dice):
            self.sub(DiceRolled(seat=thrower, values=d))
        self.sub(WallBroken(wall_side=brk.side, stack=brk.count, position=0))
        for s, h in hands.items():
            out = self.sub(Dealt(seat=s, tiles=tiles(h) if mode == "full" else tuple("x" for _ in tiles(h))))
            assert out[0].TYPE == "dealt", out

    @property
    def state(self):
        return self.m.state

    def sub(self, ev: Event) -> list[Event]:
        self.t += 1.0
        return self.m.submit(dataclasses.replace(ev, t_mono=self.t))

    def one(self, ev: Event) -> Event:
        out = self.sub(ev)
        return out[0]

    # shorthands
    def draw(self, seat: int, tile: str, source: str = "wall"):
        return self.one(Drew(seat=seat, tile=tile, source=source))

    def discard(self, seat: int, tile: str, riichi: bool = False):
        return self.one(Discarded(seat=seat, tile=tile, riichi=riichi))

    def claim(self, seat: int, kind: str, from_seat: int, tile: str, shown: str = ""):
        return self.one(Claimed(seat=seat, kind=kind, from_seat=from_seat, tile=tile,
                                tiles=tiles(shown) if shown else ()))

    def meld(self, seat: int, kind: str, shown: str, from_seat=None, claimed=None):
        return self.one(MeldMade(seat=seat, kind=kind, tiles=tiles(shown), from_seat=from_seat, claimed_tile=claimed))

    def win(self, seat: int, tile: str, from_seat=None, **kw):
        return self.one(Won(seat=seat, tile=tile, from_seat=from_seat, **kw))

    def reveal(self, seat: int, shown: str, winning: str = ""):
        return self.sub(HandRevealed(seat=seat, tiles=tiles(shown), winning=winning))

    def codes(self) -> list[str]:
        return [v.code for v in self.state.violations]


# Four hands of basic (dealer 0 holds 14). Seat 1 waits on 3m/6m; seat 2 holds 99p and 555z; seat 3 holds 45s.
HANDS = {
    0: "123m456p78s1122z9p3z",     # 14
    1: "45m123p456p789s77z",       # 13: waits 3m 6m
    2: "99p555z1m5m9m1s5s9s3z4z",  # 13
    3: "45s11m22m33p66p1z2z7z",    # 13
}
