"""A small scripted driver for whole Red hands through ``rules.game.machine.HandMachine`` (full information).

The wall is built from the hands we want: each seat's dealt tiles sit at its deal positions, chosen tiles at
the head (normal draws) and at the tail (flower replacements), the rest of the tile set fills the remaining
positions in a seeded shuffle.
"""
from __future__ import annotations

import random
from collections import Counter

from rules.events import (
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    Drew,
    Event,
    ExhaustiveDraw,
    FlowerDeclared,
    HandEnded,
    HandRevealed,
    HandStarted,
    Settled,
    Violation,
    WallBroken,
    Won,
)
from rules.game.machine import HandMachine
from rules.notation import parse_tiles
from rules.profiles.registry import get
from rules.tiles import Tile
from rules.wall import break_wall, deal_steps, tail_index, tile_set, wall_spec

DICE = ((3, 4), (2, 3))


class RedTable:
    def __init__(self, players: int, hands: dict[int, str], head: str = "", tail: str = "", *, dealer: int = 0,
                 tiles: str = "T148", seed: int = 0, options: dict | None = None):
        self.profile = get("red")
        spec = wall_spec("red", players, tiles)
        self.spec = spec
        n = spec.n_tiles
        seq: list[Tile | None] = [None] * n
        steps = deal_steps(spec, dealer)
        for seat, text in hands.items():
            pos = [p for st in steps if st.seat == seat for p in st.positions]
            ts = parse_tiles(text)
            assert len(ts) == len(pos), (seat, len(ts), len(pos))
            for p, t in zip(pos, ts, strict=True):
                seq[p] = t
        dealt = sum(len(st.positions) for st in steps)
        for i, t in enumerate(parse_tiles(head)):
            seq[dealt + i] = t
        for i, t in enumerate(parse_tiles(tail)):
            seq[tail_index(n, i)] = t
        pool = Counter(tile_set(tiles))
        for t in seq:
            if t is not None:
                pool[t] -= 1
                assert pool[t] >= 0, f"too many {t}"
        rest = sorted(pool.elements())
        random.Random(seed).shuffle(rest)
        it = iter(rest)
        for p in range(n):
            if seq[p] is None:
                seq[p] = next(it)
        self.sequence = tuple(seq)
        self.m = HandMachine(self.profile, "full", self.sequence)
        self.dealer = dealer
        names = tuple(f"P{s}" for s in spec.seats)
        self.ok(HandStarted(profile="red", n_players=players, dealer=dealer, seats=names,
                            options={"tiles": tiles, **(options or {})}, hand_id="t"))
        brk = break_wall(spec, dealer, DICE)
        self.ok(DiceRolled(seat=dealer, values=DICE[0], hand_id="t"))
        self.ok(DiceRolled(seat=brk.side, values=DICE[1], hand_id="t"))
        self.ok(WallBroken(wall_side=brk.side, stack=brk.count, position=0, hand_id="t"))
        for st_seat in spec.seats:
            pos = [p for st in steps if st.seat == st_seat for p in st.positions]
            self.ok(Dealt(seat=st_seat, tiles=tuple(str(self.sequence[p]) for p in pos), hand_id="t"))

    # --- plumbing ---------------------------------------------------------------------------------------
    @property
    def state(self):
        return self.m.state

    def submit(self, ev: Event) -> list[Event]:
        return self.m.submit(ev)

    def ok(self, ev: Event) -> list[Event]:
        got = self.m.submit(ev)
        bad = [e for e in got if isinstance(e, Violation)]
        assert not bad, [b.to_json() for b in bad]
        return got

    def rejected(self, ev: Event) -> str:
        got = self.m.submit(ev)
        assert got and isinstance(got[0], Violation), got
        return got[0].code

    def held(self, seat: int) -> list[Tile]:
        return self.state.seat_state[seat].tiles()

    # --- actions ------------------------------------------------------------------------------------------
    def replace_flowers(self, seat: int) -> int:
        """Expose every flower held and draw replacements from the flower end; returns the draws."""
        n = 0
        while True:
            fl = [t for t in self.held(seat) if t.is_flower]
            if not fl or self.state.wall_remaining == 0:
                return n
            self.ok(FlowerDeclared(seat=seat, tile=str(fl[0]), hand_id="t"))
            self.ok(Drew(seat=seat, tile=str(self.m.draw_tile("replacement")), source="replacement", hand_id="t"))
            n += 1

    def pre_play(self) -> dict[int, int]:
        return {s: self.replace_flowers(s) for s in self.state.seat_order(self.dealer)}

    def draw(self, seat: int) -> Tile:
        t = self.m.draw_tile("wall")
        self.ok(Drew(seat=seat, tile=str(t), source="wall", hand_id="t"))
        if t.is_flower and self.state.wall_remaining > 0:
            self.replace_flowers(seat)
            return self.state.seat_state[seat].drawn
        return t

    def discard(self, seat: int, tile: str | Tile) -> None:
        self.ok(Discarded(seat=seat, tile=str(tile), hand_id="t"))

    def next_seat(self, seat: int) -> int:
        order = self.state.seat_order(seat)
        return order[1]

    def tsumogiri_until(self, remaining: int, after: int) -> int:
        """From ``after``'s discard on, every player draws and discards a playing tile until ``remaining``
        wall tiles are left; returns the seat that discarded last."""
        seat = after
        while self.state.wall_remaining > remaining:
            seat = self.next_seat(seat)
            t = self.draw(seat)
            if t.is_flower:  # the sea bottom was a flower: it stays in the hand
                t = next(x for x in self.held(seat) if not x.is_flower)
            self.discard(seat, t)
        return seat

    def win_self(self, seat: int, tile: str | Tile) -> None:
        self.ok(Won(seat=seat, tile=str(tile), from_seat=None, hand_id="t"))
        self.ok(HandRevealed(seat=seat, tiles=tuple(str(t) for t in self.held(seat)), winning=str(tile),
                             hand_id="t"))

    def win_discard(self, seat: int, from_seat: int, tile: str | Tile) -> None:
        self.ok(Won(seat=seat, tile=str(tile), from_seat=from_seat, hand_id="t"))
        self.ok(HandRevealed(seat=seat, tiles=tuple(str(t) for t in self.held(seat)), hand_id="t"))

    def claim(self, seat: int, kind: str, from_seat: int, tile: str, tiles: str = "") -> list[Event]:
        return self.submit(Claimed(seat=seat, kind=kind, from_seat=from_seat, tile=tile,
                                   tiles=tuple(str(t) for t in parse_tiles(tiles)), hand_id="t"))

    def exhaustive(self) -> None:
        self.ok(ExhaustiveDraw(hand_id="t"))

    def finish(self) -> tuple[Settled, HandEnded]:
        s = self.m.settlement()
        self.ok(s)
        e = self.m.hand_end()
        self.ok(e)
        return s, e

    def deltas(self, settled: Settled) -> dict[int, int]:
        return {s: settled.deltas[s] for s in self.spec.seats}
