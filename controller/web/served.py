"""The table service as the page uses it: :class:`ServedTable`, what the routes, the live state and the judge's
actions read and call of :class:`controller.service.TableService` — so the page's modules depend on this
interface, never on the service (a play source reaches the judge's actions through the referee's session,
and a play source never reaches the service: tests/controller/test_import_graph.py).

What a test's stand-in service may lack (the hall link, the clock, the play source, the panel) is read with
``getattr(svc, name, None)`` where it is used, and typed there.
"""
from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from controller.play_source import TableBasics
from rules.events import ButtonPressed, Event

if TYPE_CHECKING:
    from controller.clock import Clock
    from controller.event_store import EventStore
    from controller.hall_link.link import HallLink
    from controller.play_source import PlaySource
    from controller.store_writer import StoreWriter
    from controller.table_camera import TableCamera
    from controller.table_machine import TableMachine
    from controller.table_snapshot import Snapshot


class ServedTable(TableBasics, Protocol):
    """What the page uses of the table service (:class:`controller.service.TableService`): its configuration,
    rule set and players (:class:`TableBasics`) and what follows."""

    @property
    def hand_id(self) -> str: ...

    @property
    def dealer(self) -> int: ...

    @property
    def auto(self) -> bool: ...

    @property
    def machine(self) -> TableMachine: ...

    @property
    def store(self) -> EventStore: ...

    @property
    def writer(self) -> StoreWriter: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def play_source(self) -> PlaySource: ...

    @property
    def hall(self) -> HallLink | None: ...

    @property
    def table_check(self) -> Mapping[str, object] | None:
        """The last re-read after a restart (result, differences, detail, whether it holds the table)."""
        ...

    def snapshot(self) -> Snapshot: ...

    def press(self, button: str, ev: ButtonPressed | None = None) -> None: ...

    def trigger(self, name: str, detail: str = "") -> None: ...

    def append_next(self, stream: str, ev: Event) -> asyncio.Future[bool]: ...

    async def open_camera(self) -> TableCamera: ...
