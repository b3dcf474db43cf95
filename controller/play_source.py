"""The play source's place in the table service: who decides that the hand in play is over, and with what
result, while the table is in PLAY.

:class:`PlaySource` is the interface the service (:class:`controller.service.TableService`) calls;
:class:`PlayTable` is what a play source may use of the service in turn — so a play source depends on this
module, never on the service it plugs into. The play sources:

* :class:`ManualPlay` (here) — no referee: the operator presses START when the hand is over;
* :class:`controller.referee.session.RefereePlay` — the camera referee follows the hand (``serve``'s default);
* :class:`controller.play_sources.BotPlay` — demo mode and the crash tests: bots play, the referee follows.
"""
from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, TypedDict

from rules.events import ButtonPressed, Event, JSONObject, JSONValue

if TYPE_CHECKING:
    from controller.clock import Clock
    from controller.config import Config
    from controller.event_store import EventStore
    from controller.table_camera import TableCamera


class VerdictRow(TypedDict):
    """A verdict in a hand's result: who, which code, the seed's reference."""

    seat: int | None
    code: str
    rule: str


class ReplayedRow(TypedDict):
    """The penalty that ended a hand to be dealt again (a chombo): who, which code, the rule, which judge."""

    seat: int
    code: str
    rule: str
    judge: str


class HandResult(TypedDict, total=False):
    """What a play source says of the hand it followed (:meth:`PlaySource.play`); the service stores it with
    the hand's result (JSON) and deals the next hand from ``next_dealer`` and ``next_options``. The referee's
    (:meth:`controller.referee.core.Referee.result`) has every key but ``hand_id`` (``replayed`` only for a
    hand to be dealt again, ``verdicts`` from its session), the operator's only ``hand_id`` and ``source``."""

    hand_id: str
    source: str  # "manual", "referee", "bots"
    profile: str
    deltas: list[int]
    payments: list[JSONObject]  # rules.events.Payment.to_json() objects
    winners: list[int]
    exhaustive: bool
    next_dealer: int
    violations: list[VerdictRow]
    questions: int
    revision: int
    confirmed_by: str | None
    next_options: Mapping[str, JSONValue]
    events: int
    replayed: ReplayedRow
    verdicts: list[str]  # the referee's verdicts in English


class TableBasics(Protocol):
    """What every user of the table service reads first: its configuration, rule set and players."""

    @property
    def cfg(self) -> Config: ...

    @property
    def profile(self) -> str: ...

    @property
    def players(self) -> int: ...


class PlayTable(TableBasics, Protocol):
    """What a play source uses of the table service: its configuration and rule set (:class:`TableBasics`),
    the store (reads) and its durable appends, the shared clock, the operator's log, the buttons and the
    table camera."""

    @property
    def store(self) -> EventStore: ...

    @property
    def clock(self) -> Clock: ...

    def append(self, stream: str, seq: int, ev: Event) -> asyncio.Future[bool]:
        """A play source's event (``<hand_id>/game``, ``<hand_id>/referee``, ...): idempotent, durable when the
        future resolves (a failed write faults the table)."""
        ...

    def note(self, text: str) -> None:
        """A line for the operator (the web page's log and the console)."""
        ...

    async def wait_button(self, button: str) -> None:
        """Until ``button`` is pressed in the current state."""
        ...

    async def open_camera(self) -> TableCamera:
        """The table camera (opened once, shared with the web page's camera view)."""
        ...


class PlaySource:
    """Who decides that the hand in play is over, and with what result (the referee's place)."""

    async def play(self, svc: PlayTable, hand_id: str) -> HandResult:  # pragma: no cover - abstract
        raise NotImplementedError

    def button(self, ev: ButtonPressed) -> None:
        """A call button or the judge's confirmation during play (the referee takes them)."""

    def view(self) -> JSONObject | None:
        """The hand as the play source follows it, for the web page (the referee's public view)."""
        return None

    def judged(self, ev: Event) -> None:
        """A judge's decision at the console during the hand (a penalty, a sanction): the referee acts on a
        dead hand or a chombo (controller/referee/sanctions.py); without a referee it is the record's only."""

    def record(self, svc: PlayTable, hand_id: str) -> list[Event]:
        """The hand's game record: what lies on the table by the record."""
        return svc.store.events(f"{hand_id}/game")


class ManualPlay(PlaySource):
    """Without the camera referee: the hand is over when the operator presses START."""

    async def play(self, svc: PlayTable, hand_id: str) -> HandResult:
        await svc.wait_button("start")
        return {"hand_id": hand_id, "source": "manual"}
