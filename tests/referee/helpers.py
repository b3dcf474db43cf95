"""Scripted tables for the referee tests: what the camera and the buttons report, on one clock."""
from __future__ import annotations

from typing import Any

from controller.referee.core import Referee
from rules.events import (
    ButtonPressed,
    CardSeen,
    DiceRolled,
    Event,
    FlowerSeen,
    HandStarted,
    MeldSeen,
    PondTileRemoved,
    PondTileSeen,
    QuestionAnswered,
    RackCounted,
    TilesRevealed,
    Violation,
)


class Table:
    """A hand at a table, told to the referee as observations: ``discard``, ``call``, ``meld``..."""

    def __init__(self, profile: str, *, dealer: int = 0, dice=((3, 4),), players: int = 4,
                 options: dict[str, Any] | None = None, **kw: Any):
        self.ref = Referee(profile, **kw)
        self.t = 0.0
        self.frame = 0
        self.out: list[Event] = []
        self.ponds: dict[int, list[str]] = {s: [] for s in range(4)}
        self.feed(HandStarted(profile=profile, n_players=players, dealer=dealer, hand_id="test-1", options=options or {}))
        for d in dice:
            self.feed(DiceRolled(seat=dealer, values=d))

    def feed(self, ev: Event, dt: float = 0.0) -> list[Event]:
        self.t += dt
        self.frame += 1
        kw = {"t_mono": self.t, "t_wall": 1e9 + self.t}
        if hasattr(ev, "frame"):
            kw["frame"] = self.frame
        import dataclasses

        out = self.ref.feed(dataclasses.replace(ev, **kw))
        self.out += out
        return out

    # --- the table ----------------------------------------------------------------------------------
    def discard(self, seat: int, tile: str, dt: float = 4.0, sideways: bool = False) -> list[Event]:
        self.ponds[seat].append(tile)
        return self.feed(PondTileSeen(seat=seat, index=len(self.ponds[seat]) - 1, tile=tile, sideways=sideways), dt)

    def take(self, seat: int, dt: float = 0.1) -> list[Event]:
        tile = self.ponds[seat].pop()
        return self.feed(PondTileRemoved(seat=seat, index=len(self.ponds[seat]), tile=tile), dt)

    def call(self, seat: int, call: str | None, dt: float = 0.5) -> list[Event]:
        return self.feed(ButtonPressed(button="call", seat=seat, call=call), dt)

    def meld(self, seat: int, kind: str, tiles: str, source: str | None = None, claimed: int | None = None,
             dt: float = 0.1) -> list[Event]:
        return self.feed(MeldSeen(seat=seat, kind=kind, tiles=tuple(tiles.split()), source=source,
                                  claimed_index=claimed), dt)

    def reveal(self, seat: int, tiles: str, dt: float = 0.5) -> list[Event]:
        return self.feed(TilesRevealed(seat=seat, tiles=tuple(tiles.split())), dt)

    def card(self, seat: int, card: str, dt: float = 0.2) -> list[Event]:
        return self.feed(CardSeen(seat=seat, card=card), dt)

    def flower(self, seat: int, tile: str, dt: float = 0.5) -> list[Event]:
        return self.feed(FlowerSeen(seat=seat, tile=tile), dt)

    def rack(self, seat: int, standing: int, dt: float = 0.1) -> list[Event]:
        return self.feed(RackCounted(seat=seat, standing=standing), dt)

    def answer(self, answer: str, dt: float = 1.0) -> list[Event]:
        q = self.ref.open_question
        assert q is not None, "no open question"
        return self.feed(QuestionAnswered(question_id=q.event.question_id, answer=answer), dt)

    def wait(self, dt: float) -> list[Event]:
        self.t += dt
        out = self.ref.tick(self.t)
        self.out += out
        return out

    def confirm(self, seats=(0, 1, 2, 3)) -> list[Event]:
        out = []
        for s in seats:
            out += self.call(s, None, 0.3)
        return out

    # --- what the referee said ----------------------------------------------------------------------
    def verdicts(self) -> list[tuple[str, int | None]]:
        return [(v.code, v.seat) for v in self.out if isinstance(v, Violation)]

    def verdict(self, code: str) -> Violation:
        found = [v for v in self.out if isinstance(v, Violation) and v.code == code]
        assert found, f"no {code} among {self.verdicts()}"
        return found[0]

    def turn_round(self, first: int, tiles: list[str], players: int = 4) -> None:
        """Discards in turn from ``first``, one tile each (nobody claims)."""
        s = first
        for tile in tiles:
            self.discard(s, tile)
            s = (s + 1) % players
