"""Scripted riichi hands through the hand machine (``rules.game.machine.HandMachine``)."""

from __future__ import annotations

from rules.events import DoraRevealed, Event, ExhaustiveDraw, Won
from rules.notation import parse_tiles
from rules.profiles import registry
from rules.tiles import KINDS, counts34
from tests.game.helpers import Script


class RiichiScript(Script):
    """A riichi hand with known starting hands (dealer 14 tiles, others 13); events submitted one by one,
    each one expected to be accepted. Drawn tiles and dora indicators come from the unseen pool.

    ``options``: ``HandStarted.options`` (``honba``, ``deposits`` carried in)."""

    def __init__(
        self,
        hands: dict[int, str],
        dealer: int = 0,
        options: dict | None = None,
        indicator: str | None = None,
    ):
        c = counts34(t for h in hands.values() for t in parse_tiles(h))
        assert max(c) <= 4, "a script must respect the four copies"
        self.pool = [k for k in range(34) for _ in range(4 - c[k])]
        super().__init__(hands, registry.get("riichi-ema2016"), dealer=dealer, options=options)
        if indicator:
            self.reveal_dora(indicator)

    def one(self, ev: Event) -> Event:  # every scripted riichi action must be accepted
        return self.ok(ev)

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
        return super().draw(seat, self.take(tile), source)

    def reveal_dora(self, indicator: str, kind: str = "initial"):
        return self.ok(DoraRevealed(indicator=self.take(indicator), kind=kind))

    def arbitrate(self):
        evs = self.m.arbitrate()
        for ev in evs:
            self.ok(ev)
        return evs

    def tsumo(self, seat: int, tile: str, **kw):
        return self.ok(Won(seat=seat, tile=tile, from_seat=None, **kw))

    def exhaustive(self, tenpai: tuple[int, ...]):
        return self.ok(ExhaustiveDraw(tenpai=tenpai))

    def finish(self):
        """Settle and end the hand as the engine proposes; returns (deltas, next dealer)."""
        s = self.m.settlement()
        self.ok(s)
        e = self.m.hand_end()
        self.ok(e)
        return list(s.deltas), e.next_dealer
