"""How the table service attaches its hall link (issue #19): :func:`attach`.

With a ``[hall]`` address in its config it starts a :class:`~controller.hall_link.link.HallLink` over the
service's store; without one the table works alone. Kept apart from the package's ``__init__`` so that the
package imports none of its modules (each of them imports the package first: issue #31's import graph).
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from controller.hall_link.link import HallLink, LinkConfig
from hall.messages import Command, TableStatus

if TYPE_CHECKING:
    from controller.config import Config
    from controller.table_machine import TableMachine


class _Beeper(Protocol):
    def beep(self, kind: str = "warning") -> None: ...


class _Store(Protocol):
    @property
    def path(self) -> Path: ...


class TableHost(Protocol):
    """What the hall link reads of the table service (:class:`controller.service.TableService`): its config,
    panel and store, the table's state for the status, and the trigger that starts a hand."""

    @property
    def cfg(self) -> Config: ...
    @property
    def panel(self) -> _Beeper | None: ...
    @property
    def auto(self) -> bool: ...
    @property
    def machine(self) -> TableMachine: ...
    @property
    def profile(self) -> str: ...
    @property
    def hand_id(self) -> str: ...
    @property
    def camera(self) -> object | None: ...
    @property
    def store(self) -> _Store: ...
    @property
    def loop(self) -> asyncio.AbstractEventLoop | None: ...

    def trigger(self, name: str, detail: str = "") -> None: ...


def attach(svc: TableHost) -> HallLink | None:
    """The hall link of a :class:`controller.service.TableService` (None: no ``hall.address``, standalone).

    Hall commands reach the table through the service's loop: the session's end sounds the gong and no new
    hand starts after the one in play; a warning beeps; the page shows the clock and the messages."""
    cfg = svc.cfg
    if not cfg.hall.address:
        return None

    def on_command(cmd: Command) -> None:  # paho's thread: hand over to the service's loop
        loop = svc.loop
        if loop is None:
            return
        panel = svc.panel
        if panel is not None and cmd.kind in ("warning", "session_end"):
            loop.call_soon_threadsafe(panel.beep, "gong" if cmd.kind == "session_end" else "warning")
        if cmd.kind == "session_start" and svc.auto:  # demo mode: a new session starts the next hand itself
            loop.call_soon_threadsafe(_start_if_idle, svc)

    def status() -> TableStatus:  # the pump thread: plain attributes only, never the service's store
        state = str(svc.machine.state)
        fps = getattr(svc.camera, "fps", None) if svc.camera is not None else None
        return {"profile": svc.profile, "state": state, "hand_id": svc.hand_id, "fault": svc.machine.fault,
                "judge_called": state == "paused", "camera_fps": fps}

    return HallLink(LinkConfig.from_config(cfg), svc.store.path, on_command=on_command, status=status,
                    profile=svc.profile, seat_check=cfg.hall.seat_check)


def _start_if_idle(svc: TableHost) -> None:
    from controller.table_machine import S

    if svc.machine.state is S.IDLE:
        svc.trigger("start")
