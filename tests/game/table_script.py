"""Hands played through the hand machine on a rigged wall, to a chosen outcome.

The vectors that say what follows an outcome — the next dealer, the counters, the deposits, the payments
of a draw or a chombo — run as a real hand with that outcome: :class:`Table` deals the hands asked for
(the rest of the wall is the profile's tile set in a fixed order), plays the turns it is told to play
(a discard, a riichi, a self-drawn win, wins on a discard, tsumogiri until the wall is empty) and ends the
hand with the machine's own proposals (reveals, ``settlement()``, ``hand_end()``). Every event goes
through ``HandMachine.submit``; a refused one fails the test at once.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

from rules.events import (
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    Drew,
    Event,
    ExhaustiveDraw,
    FlowerDeclared,
    HandRevealed,
    HandStarted,
    MissingSuitDeclared,
    WallBroken,
    Won,
)
from rules.game.machines import machine_for
from rules.game.setup import cached_break
from rules.game.state import HandState, Phase
from rules.notation import parse_tiles
from rules.tiles import Tile
from rules.wall import WallCursor, WallSpec, deal_steps, roll_dice, tile_set


def rigged_wall(spec: WallSpec, dealer: int, hands: dict[int, list[Tile]], draws: list[Tile]) -> tuple[Tile, ...]:
    """A wall in draw order that deals ``hands`` (seat -> tiles, in the deal's order) and whose first wall
    draws are ``draws``; every other position holds the rest of the tile set (flowers and jokers first:
    they are dealt or drawn early, never on the last tiles of the wall)."""
    rest = sorted(tile_set(spec.tile_set), key=Tile.sort_key)
    seq: list[Tile | None] = [None] * spec.n_tiles
    steps = deal_steps(spec, dealer)

    def put(pos: int, t: Tile) -> None:
        rest.remove(t)
        seq[pos] = t

    for seat, tiles in hands.items():
        positions = [p for s in steps if s.seat == seat for p in s.positions]
        assert len(tiles) == len(positions), f"seat {seat} is dealt {len(positions)} tiles, not {len(tiles)}"
        for p, t in zip(positions, tiles, strict=True):
            put(p, t)
    cursor = WallCursor(spec, head=sum(len(s.positions) for s in steps))
    for t in draws:
        pos = cursor.take("wall")
        assert pos is not None
        put(pos, t)
    filler = iter([t for t in rest if t.is_flower or t.is_joker] + [t for t in rest if not (t.is_flower or t.is_joker)])
    return tuple(t if t is not None else next(filler) for t in seq)


class Table:
    """One hand of ``profile`` played by script (see the module docstring). ``hands``: notation per seat
    (the dealer's with 14 tiles, the others 13); ``draws``: the first wall draws in order."""

    def __init__(self, profile: Any, *, dealer: int = 0, n_players: int = 4, hands: dict[int, str] | None = None,
                 draws: str = "", options: dict[str, Any] | None = None, seed: int = 0):
        self.profile = profile
        self.t = 0.0
        spec = profile.wall_spec(n_players, (options or {}).get("tiles"))
        self.spec = spec
        dealt = {s: parse_tiles(h) for s, h in (hands or {}).items()}
        self.wall = rigged_wall(spec, dealer, dealt, parse_tiles(draws) if draws else [])
        self.m = machine_for(profile)(profile, "full", self.wall)
        self.ok(HandStarted(profile=profile.name, n_players=n_players, dealer=dealer, options=dict(options or {})))
        dice = roll_dice(random.Random(seed), spec)
        brk = cached_break(spec, dealer, dice)
        for thrower, d in zip(brk.throwers, dice, strict=True):
            self.ok(DiceRolled(seat=thrower, values=d))
        self.ok(WallBroken(wall_side=brk.side, stack=brk.count, position=0))
        by_seat: dict[int, list[str]] = {s: [] for s in spec.seats}
        for step in deal_steps(spec, dealer):
            by_seat[step.seat].extend(str(self.wall[p]) for p in step.positions)
        for s in spec.seats:
            self.ok(Dealt(seat=s, tiles=tuple(by_seat[s])))
        self._pre_play()

    @property
    def st(self) -> HandState:
        return self.m.state

    def ok(self, ev: Event) -> Event:
        """Submit ``ev`` stamped one second after the previous event; it must be accepted."""
        self.t += 1.0
        out = self.m.submit(dataclasses.replace(ev, t_mono=self.t))
        assert out and out[0].TYPE != "violation", out
        return out[0]

    def _pre_play(self) -> None:
        st = self.st
        for s in st.seat_order(st.dealer):
            self._flowers(s)
            if "missing_suit" in self.profile.capabilities.pre_play:
                held = {t.suit for t in st.seat_state[s].tiles()}
                self.ok(MissingSuitDeclared(seat=s, suit=next((x for x in "mps" if x not in held), "m")))

    def _flowers(self, seat: int) -> None:
        """Declare the seat's flowers and take their replacements, until it holds none."""
        while flowers := [t for t in self.st.seat_state[seat].tiles() if t.is_flower]:
            for f in flowers:
                self.ok(FlowerDeclared(seat=seat, tile=str(f)))
                self.ok(Drew(seat=seat, tile=str(self.m.draw_tile("replacement")), source="replacement"))

    # --- the turns ------------------------------------------------------------------------------------
    def draw(self) -> Tile:
        """The player whose turn it is draws from the wall (the window closes); flowers are replaced."""
        seat = self.m.next_drawer() if self.st.phase is not Phase.DRAW else self.st.current
        assert seat is not None
        t = self.m.draw_tile("wall")
        self.ok(Drew(seat=seat, tile=str(t)))
        if t is not None and t.is_flower:
            self._flowers(seat)
        drawn = self.st.seat_state[seat].drawn
        assert drawn is not None
        return drawn

    def discard(self, tile: str | None = None, riichi: bool = False) -> None:
        """The current player discards ``tile`` (default: the tile just drawn), after a draw when due."""
        if self.st.phase in (Phase.CLAIMS, Phase.DRAW):
            self.draw()
        ss = self.st.seat_state[self.st.current]
        t = Tile.parse(tile) if tile else ss.drawn
        assert t is not None
        self.ok(Discarded(seat=self.st.current, tile=str(t), tsumogiri=ss.drawn == t, riichi=riichi))

    def ron(self, *winners: int) -> None:
        """``winners`` claim the discard on offer for a win; the machine's arbitration is accepted."""
        w = self.st.window
        assert w is not None
        for s in winners:
            self.ok(Claimed(seat=s, kind="hu", from_seat=w.seat, tile=str(w.tile)))
        for ev in self.m.arbitrate():
            self.ok(ev)

    def tsumo(self) -> None:
        """The current player draws and declares a self-drawn win on the tile."""
        t = self.draw()
        self.ok(Won(seat=self.st.current, tile=str(t), from_seat=None))

    def exhaust(self) -> None:
        """Tsumogiri until the wall is empty, then the exhaustive draw (the ready players declared)."""
        while self.m.next_drawer() is not None or self.st.phase is Phase.DRAW:
            self.discard()
        ready = tuple(s for s in self.st.seats if self.st.seat_state[s].active
                      and self.profile.waits(self.st.seat_state[s].hand()))
        self.ok(ExhaustiveDraw(tenpai=ready))

    # --- the end ----------------------------------------------------------------------------------------
    def finish(self) -> HandState:
        """Reveal who must show, then the machine's settlement and next dealer; the state at the end."""
        st = self.st
        seats = [w.seat for w in st.wins]
        if st.exhaustive:
            seats += [s for s in st.seats if s not in seats
                      and (self.profile.capabilities.reveal_all_at_draw or s in st.tenpai_declared)]
        for s in dict.fromkeys(seats):
            ss = st.seat_state[s]
            if not ss.revealed:
                win = next((w for w in st.wins if w.seat == s and w.from_seat is None), None)
                self.ok(HandRevealed(seat=s, tiles=tuple(str(t) for t in ss.tiles()),
                                     winning=str(win.tile) if win else ""))
        self.ok(self.m.settlement())
        self.ok(self.m.hand_end())
        return st

    def outcome(self) -> dict[str, Any]:
        st = self.st
        assert st.settled is not None and st.next_dealer is not None
        return {"deltas": list(st.settled.deltas), "next_dealer": st.next_dealer,
                "options": self.profile.next_hand_options(st)}
