"""The table service's device and button plumbing: what the back-end and the GPIO panel report from their
own threads is handed to the service's loop (device faults and presses recorded, the shuffle's progress
kept as a state), the supervised e-stop's notices reach the operator, a press wakes the operation waiting
for it (:meth:`TableDevices.wait_button`), and the table camera is opened once, on a worker thread, for
everything that looks (the dice, the re-read after a restart, the referee, the web page's camera view).

What a press *does* (start, resume, retry, a call to the referee) is the service's
(:meth:`controller.service.TableService.press`); this module only brings it there.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from controller.backends import BackendFault
from controller.table_machine import S
from controller.table_snapshot import ShuffleStacks
from rules.events import ButtonPressed, DeviceEvent, DeviceFault, Event, ShuffleProgress

if TYPE_CHECKING:
    from controller.backends import TableBackend
    from controller.clock import Clock
    from controller.config import Config
    from controller.estop import EStopSupervisor
    from controller.notify import Notifier
    from controller.table_camera import TableCamera
    from controller.table_machine import TableMachine
    from controller.table_snapshot import OperatorLog

camera_log = logging.getLogger("mahjong_table.camera")


class StatusPanel(Protocol):
    """What the service uses of the GPIO panel (:class:`controller.devices.Panel`)."""

    def add_listener(self, fn: Callable[[ButtonPressed], None]) -> None: ...

    def status(self, mode: str) -> None: ...

    def beep(self, kind: str = "warning") -> None: ...

    def show_dealer(self, seat: int | None) -> None: ...

    def show_turn(self, seat: int | None) -> None: ...


class CameraHost(Protocol):
    """What a camera factory reads of the service: its configuration, the back-end (the emulated table's
    dice) and what the record says lies on the table."""

    @property
    def cfg(self) -> Config: ...

    @property
    def backend(self) -> TableBackend: ...

    def table_record(self) -> tuple[list[Event], tuple[int, ...]]: ...


#: opens the table camera of a service (may block: it runs on a worker thread); raises
#: :class:`controller.table_camera.CameraError` when there is none
CameraFactory = Callable[[CameraHost], "TableCamera"]


class DeviceHost(CameraHost, Protocol):
    """What the plumbing uses of the table service."""

    loop: asyncio.AbstractEventLoop | None
    machine: TableMachine
    clock: Clock
    panel: StatusPanel | None
    notifier: Notifier
    auto: bool
    stopper: EStopSupervisor
    camera_factory: CameraFactory
    oplog: OperatorLog

    def record(self, ev: Event) -> asyncio.Future[bool]: ...

    def note(self, text: str) -> None: ...

    def press(self, button: str, ev: ButtonPressed | None = None) -> None: ...


class TableDevices:
    """The plumbing of one table service (see the module's docstring)."""

    def __init__(self, table: DeviceHost):
        self.table = table
        self.buttons: dict[str, asyncio.Event] = {}  # a press since the state was entered (cleared per state)
        self.shuffle_progress: ShuffleStacks = {}  # the shuffle's stacks built / to build (a state, not history)
        self.camera: TableCamera | None = None  # opened when first needed
        self.camera_fault_reason = ""  # why the camera could not be opened (recorded once per reason)

    # --- from the devices' threads onto the loop --------------------------------------------------------
    def from_backend(self, ev: DeviceEvent) -> None:
        """The back-end's listener: called from its thread or the loop."""
        loop = self.table.loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(self.on_device_event, ev)
        except RuntimeError:  # the loop is closed (shutdown)
            pass

    def on_device_event(self, ev: DeviceEvent) -> None:
        if isinstance(ev, ShuffleProgress):
            self.shuffle_progress = {"built": list(ev.stacks_built), "target": list(ev.stacks_target)}
            return  # progress is a state, not history: only faults and outcomes are kept
        if isinstance(ev, DeviceFault | ButtonPressed):
            self.table.record(ev)
        if isinstance(ev, DeviceFault) and ev.code == "estop_failed":
            self.table.note(f"emergency stop not delivered: {ev.message}")
            self.table.stopper.request("a stop was not delivered")  # supervised: retried until confirmed

    def from_panel(self, ev: ButtonPressed) -> None:
        """The GPIO panel's listener (gpiozero's thread)."""
        if self.table.loop is not None:
            self.table.loop.call_soon_threadsafe(self.table.press, ev.button, ev)

    # --- buttons ----------------------------------------------------------------------------------------
    def pressed(self, button: str) -> None:
        self.buttons.setdefault(button, asyncio.Event()).set()

    def new_state(self) -> None:
        """Presses count for the state they are made in."""
        for ev in self.buttons.values():
            ev.clear()

    async def wait_button(self, button: str) -> None:
        """Until ``button`` is pressed in the current state (a press since the state was entered counts, even
        one made before the state's operation got here; presses of earlier states do not)."""
        ev = self.buttons.setdefault(button, asyncio.Event())
        if self.table.auto:
            await asyncio.sleep(0.05)
            return
        await ev.wait()

    # --- the e-stop's notices ---------------------------------------------------------------------------
    def estop_failed(self, exc: BackendFault, attempt: int) -> None:
        t = self.table
        t.record(DeviceFault(code="estop_failed", part=exc.part, message=exc.message, **t.clock.stamp()))
        t.note(f"EMERGENCY STOP NOT CONFIRMED (attempt {attempt}): {exc.message}; retrying")
        if t.panel is not None:
            t.panel.status("fault")
            t.panel.beep("warning")
        t.notifier.status(f"EMERGENCY STOP NOT CONFIRMED: {exc.message}")

    def estop_confirmed(self, attempts: int) -> None:
        t = self.table
        if attempts > 1:
            t.note(f"emergency stop confirmed after {attempts} attempts")
            if t.panel is not None:
                t.panel.status({S.FAULT: "fault", S.IDLE: "ok"}.get(t.machine.state, "busy"))

    # --- the table camera -------------------------------------------------------------------------------
    async def open_camera(self) -> TableCamera:
        """The table camera, opened on a worker thread the first time (a classifier loads, a device opens).
        A camera that cannot be opened is a ``camera_fault`` (a DeviceFault event and one log line, once per
        distinct reason) and raises :class:`controller.table_camera.CameraError`."""
        from controller.table_camera import CameraError

        if self.camera is None:
            t = self.table
            try:
                cam = await asyncio.to_thread(t.camera_factory, t)
            except CameraError as exc:
                self.camera_fault(str(exc))
                raise
            except Exception as exc:  # a camera that cannot be opened must never take the table down
                self.camera_fault(f"camera {t.cfg['camera.source']!r}: cannot open it: {type(exc).__name__}: {exc}")
                raise CameraError(self.camera_fault_reason) from None
            if self.camera is None:
                self.camera = cam
                self.camera_fault_reason = ""
        return self.camera

    def camera_fault(self, reason: str) -> None:
        if reason == self.camera_fault_reason:  # the same reason again (the camera view retries): said once
            return
        self.camera_fault_reason = reason
        camera_log.error("camera_fault: %s", reason)
        t = self.table
        t.oplog.add(f"camera fault: {reason}")
        t.record(DeviceFault(code="camera_fault", part="camera", message=reason, **t.clock.stamp()))
