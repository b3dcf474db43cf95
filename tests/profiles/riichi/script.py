"""Scripted riichi hands through the hand machine (``rules.game.machine.HandMachine``)."""

from __future__ import annotations

import dataclasses

from rules.events import (
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    DoraRevealed,
    Drew,
    Event,
    ExhaustiveDraw,
    HandRevealed,
    HandStarted,
    MeldMade,
    WallBroken,
    Won,
)
from rules.game.machine import HandMachine
from rules.notation import parse_tiles
from rules.profiles import registry
from rules.tiles import KINDS, counts34
from rules.wall import break_wall


def tiles(text: str) -> tuple[str, ...]:
    return tuple(str(t) for t in parse_tiles(text))


class RiichiScript:
    """A riichi hand with known starting hands (dealer 14 tiles, others 13); events submitted one by one.

    ``options``: ``HandStarted.options`` (``honba``, ``deposits`` carried in)."""

    def __init__(
        self,
        hands: dict[int, str],
        dealer: int = 0,
        options: dict | None = None,
        indicator: str | None = None,
    ):
        self.profile = registry.get("riichi-ema2016")
        self.m = HandMachine(self.profile, "full")
        self.t = 0.0
        c = counts34(t for h in hands.values() for t in parse_tiles(h))
        assert max(c) <= 4, "a script must respect the four copies"
        self.pool = [k for k in range(34) for _ in range(4 - c[k])]
        self.sub(HandStarted(profile=self.profile.name, dealer=dealer, options=options or {}))
        spec = self.profile.wall_spec(4)
        dice = ((3, 4),)
        brk = break_wall(spec, dealer, dice)
        for thrower, d in zip(brk.throwers, dice, strict=True):
            self.sub(DiceRolled(seat=thrower, values=d))
        self.sub(WallBroken(wall_side=brk.side, stack=brk.count, position=0))
        for s, h in hands.items():
            out = self.sub(Dealt(seat=s, tiles=tiles(h)))
            assert out[0].TYPE == "dealt", out
        if indicator:
            self.reveal_dora(indicator)

    @property
    def state(self):
        return self.m.state

    def sub(self, ev: Event) -> list[Event]:
        self.t += 1.0
        return self.m.submit(dataclasses.replace(ev, t_mono=self.t))

    def ok(self, ev: Event) -> Event:
        out = self.sub(ev)
        assert out and out[0].TYPE == ev.TYPE, out
        return out[0]

    def take(self, tile: str) -> str:
        """Take a tile of that kind from the unseen pool (keeps the four-copies rule)."""
        k = parse_tiles(tile)[0].kind
        self.pool.remove(k)
        return str(KINDS[k])

    # shorthands
    def draw(self, seat: int, tile: str, source: str = "wall"):
        return self.ok(Drew(seat=seat, tile=self.take(tile), source=source))

    def discard(self, seat: int, tile: str, riichi: bool = False):
        return self.ok(Discarded(seat=seat, tile=tile, riichi=riichi))

    def reveal_dora(self, indicator: str, kind: str = "initial"):
        return self.ok(DoraRevealed(indicator=self.take(indicator), kind=kind))

    def claim(self, seat: int, kind: str, from_seat: int, tile: str, shown: str = ""):
        return self.ok(
            Claimed(seat=seat, kind=kind, from_seat=from_seat, tile=tile, tiles=tiles(shown) if shown else ())
        )

    def meld(self, seat: int, kind: str, shown: str, from_seat=None, claimed=None):
        return self.ok(
            MeldMade(seat=seat, kind=kind, tiles=tiles(shown), from_seat=from_seat, claimed_tile=claimed)
        )

    def arbitrate(self):
        evs = self.m.arbitrate()
        for ev in evs:
            self.ok(ev)
        return evs

    def tsumo(self, seat: int, tile: str, **kw):
        return self.ok(Won(seat=seat, tile=tile, from_seat=None, **kw))

    def reveal(self, seat: int, shown: str, winning: str = ""):
        return self.sub(HandRevealed(seat=seat, tiles=tiles(shown), winning=winning))

    def exhaustive(self, tenpai: tuple[int, ...]):
        return self.ok(ExhaustiveDraw(tenpai=tenpai))

    def finish(self):
        """Settle and end the hand as the engine proposes; returns (deltas, next dealer)."""
        s = self.m.settlement()
        self.ok(s)
        e = self.m.hand_end()
        self.ok(e)
        return list(s.deltas), e.next_dealer

    def codes(self) -> list[str]:
        return [v.code for v in self.state.violations]
