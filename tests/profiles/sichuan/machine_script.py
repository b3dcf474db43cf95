"""A small driver for scripted Sichuan hands through the hand machine (``rules.game.machine``).

The wall is not given (``wall=None``): draws are whatever the script says, which lets a test build the
situation it needs. Every submitted event must be accepted unless the test expects a violation.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from rules.events import (
    Claimed,
    Dealt,
    DiceRolled,
    Discarded,
    Drew,
    ExhaustiveDraw,
    HandRevealed,
    HandStarted,
    MeldMade,
    MissingSuitDeclared,
    Settled,
    WallBroken,
    Won,
)
from rules.game.machine import HandMachine
from rules.notation import parse_tiles
from rules.profiles import registry
from rules.profiles.sichuan import session
from rules.wall import break_wall


class Script:
    def __init__(self, profile: str, hands: dict[int, str], missing: dict[int, str], dealer: int = 0):
        self.profile = registry.get(profile)
        n = len(hands)
        self.m = HandMachine(self.profile, "full", None)
        self.used: Counter[str] = Counter()  # every tile taken from the wall so far (108 in all)
        spec = self.profile.wall_spec(n)
        self.ok(HandStarted(profile=self.profile.name, n_players=n, dealer=dealer))
        self.ok(DiceRolled(seat=dealer, values=(3, 4)))
        brk = break_wall(spec, dealer, ((3, 4),))
        self.ok(WallBroken(wall_side=brk.side, stack=brk.count, position=0))
        for s, text in hands.items():
            tiles = tuple(str(t) for t in parse_tiles(text))
            self.used.update(tiles)
            assert max(self.used.values()) <= 4, f"the deal needs a fifth copy: {self.used.most_common(1)}"
            self.ok(Dealt(seat=s, tiles=tiles))
        for s in spec.seats:
            self.ok(MissingSuitDeclared(seat=s, suit=missing[s]))

    @property
    def st(self):
        return self.m.state

    def ok(self, ev: Any) -> None:
        out = self.m.submit(ev)
        assert out and out[0].TYPE != "violation", out

    def draw(self, seat: int, tile: str, source: str = "wall") -> None:
        self.used[tile] += 1
        assert self.used[tile] <= 4, f"a fifth {tile}"
        self.ok(Drew(seat=seat, tile=tile, source=source))

    def discard(self, seat: int, tile: str) -> None:
        self.ok(Discarded(seat=seat, tile=tile))

    def turn(self, seat: int, draw: str, discard: str | None = None) -> None:
        self.draw(seat, draw)
        self.discard(seat, discard or draw)

    def claim(self, seat: int, kind: str, frm: int, tile: str, tiles: tuple[str, ...] = ()) -> None:
        self.ok(Claimed(seat=seat, kind=kind, from_seat=frm, tile=tile, tiles=tiles))

    def arbitrate(self) -> None:
        for ev in self.m.arbitrate():
            self.ok(ev)

    def tsumo(self, seat: int, tile: str) -> None:
        self.ok(Won(seat=seat, tile=tile, from_seat=None))

    def kong(self, seat: int, kind: str, tiles: str, claimed: str | None = None) -> None:
        self.ok(MeldMade(seat=seat, kind=kind, tiles=tuple(str(t) for t in parse_tiles(tiles)),
                         claimed_tile=claimed))

    def next_player(self) -> int:
        """Who draws next, by the profile's rule (000 §2.6.2.4), from the machine's state."""
        st = self.st
        offer = (st.window.seat, st.window.tile) if st.window else None
        if st.phase not in ("claims", "rob") or offer is None:
            return st.current
        winners = list(self.m.pending_winners)  # the wins on the tile on offer
        active = [x for x in st.seats if not st.seat_state[x].won]
        nxt = session.next_to_play(offer[0], winners, active)
        assert nxt is not None
        return nxt

    def filler(self, suits: str) -> str:
        """A tile still in the wall, of the first suit in ``suits`` that has one."""
        for suit in suits:
            for n in range(1, 10):
                t = f"{n}{suit}"
                if self.used[t] < 4:
                    return t
        raise AssertionError("the wall is empty")

    def run_out(self, prefer: dict[int, str]) -> None:
        """Every player in turn draws a tile (of his preferred suits first) and discards it, until the
        wall is empty; then the exhaustive draw."""
        while self.st.wall_remaining > 0:
            seat = self.next_player()
            self.turn(seat, self.filler(prefer[seat] + "mps"))
        self.ok(ExhaustiveDraw(tenpai=()))

    def finish(self) -> Settled:
        st = self.st
        seats = []
        for w in st.wins:
            if w.seat not in seats:
                seats.append(w.seat)
        if st.exhaustive:
            seats += [s for s in st.seats if s not in seats]
        for s in seats:
            ss = st.seat_state[s]
            win = next((w for w in st.wins if w.seat == s and w.from_seat is None), None)
            self.ok(HandRevealed(seat=s, tiles=tuple(str(t) for t in ss.tiles()),
                                 winning=str(win.tile) if win else ""))
        settled = self.m.settlement()
        self.ok(settled)
        self.ok(self.m.hand_end())
        return settled

    def deltas(self) -> dict[int, int]:
        return {s: self.st.settled.deltas[s] for s in self.st.seats}
