"""The serial MCU back-end: :class:`firmware_bridge.bridge.Bridge`, or the MCU emulator in-process.

Every motor operation that does not end with the MCU's own DONE or FAULT (cancelled by the service, the
link lost, the outcome unknown) sends the ESTOP at once from its ``finally``: the frame goes out
synchronously, ahead of anything queued, and the MCU executes every copy. A refused command never started
and a FAULT event means the MCU stopped the operation itself: those need no stop.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from concurrent.futures import Future
from typing import TYPE_CHECKING, TypeVar

from controller.backends import BackendFault, BoardInfo, Progress, TableBackend
from rules.events import DeviceFault

if TYPE_CHECKING:  # imported where used: the emulator and the link load only when a table starts
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.emulator.mcu import McuEmulator
    from firmware_bridge.errors import CommandRejected
    from firmware_bridge.link import LinkConfig, Reply

T = TypeVar("T")

NO_SEAT = 0xFF
log = logging.getLogger("mahjong_table.mcu")


class McuBackend(TableBackend):
    name = "mcu"

    def __init__(self, port: str = "emulator", time_scale: float = 20.0, emulator_seed: int = 0,
                 baud: int = 115200, estop_timeout: float = 2.0):
        super().__init__()
        self.port = port
        self.time_scale = time_scale
        self.baud = baud
        self.estop_timeout = estop_timeout
        self.emulator: McuEmulator | None = None
        self._seed = emulator_seed
        self.bridge: Bridge | None = None

    def link_config(self) -> LinkConfig:
        """The link settings for ``serial.baud``: the retransmission time-out grows with a slow line (a
        74-byte frame takes 77 ms at 9600 baud), so a slow link is not mistaken for a lost frame."""
        from firmware_bridge.framing import MAX_ENCODED
        from firmware_bridge.link import LinkConfig

        frame_s = (MAX_ENCODED + 1) * 10 / self.baud
        return LinkConfig(baudrate=self.baud, ack_timeout=max(0.05, 3 * frame_s))

    async def start(self) -> BoardInfo:
        from firmware_bridge.bridge import Bridge
        from firmware_bridge.errors import LinkError

        url = self.port
        if url == "emulator":
            from firmware_bridge.emulator.mcu import McuEmulator

            emulator = self.emulator = McuEmulator(time_scale=self.time_scale, seed=self._seed).start()
            url = emulator.url
        bridge = self.bridge = Bridge(url, self.link_config())
        bridge.add_listener(self._emit)
        try:
            hello = await bridge.start()
        except LinkError as exc:
            raise BackendFault("not_connected", "link", str(exc)) from None
        return {"firmware": f"{hello.fw_major}.{hello.fw_minor}.{hello.fw_patch}", "protocol": hello.protocol_version,
                "lifts": hello.n_lifts, "url": url, "baud": self.baud}

    async def close(self) -> None:
        if self.bridge is not None:
            await self.bridge.close()
        if self.emulator is not None:
            self.emulator.stop()

    def _link(self) -> Bridge:
        """The bridge of a started back-end."""
        if self.bridge is None:
            raise BackendFault("not_connected", "link", "the table is not connected (the back-end was not started)")
        return self.bridge

    async def _guard(self, coro: Awaitable[T]) -> T:
        from firmware_bridge.errors import CommandRejected, LinkError, TableFault

        try:
            return await coro
        except TableFault as exc:
            raise BackendFault(exc.code_name, exc.part_name, str(exc)) from None
        except CommandRejected as exc:
            raise await self._why_rejected(exc) from None
        except LinkError as exc:
            raise BackendFault("link", "link", str(exc)) from None

    async def _motion(self, coro: Awaitable[None], op: str) -> None:
        """A motor operation: the ESTOP goes out at once unless the MCU itself ended or refused it."""
        from firmware_bridge.errors import CommandRejected, LinkError, TableFault

        settled = False
        try:
            await coro
            settled = True
        except TableFault as exc:  # the MCU stopped the operation itself
            settled = True
            raise BackendFault(exc.code_name, exc.part_name, str(exc), reported=True) from None
        except CommandRejected as exc:  # never started
            settled = True
            raise await self._why_rejected(exc) from None
        except LinkError as exc:  # outcome unknown, link lost: it may still run
            raise BackendFault("link", "link", f"{op}: {exc}") from None
        finally:
            if not settled:  # cancelled, link lost, or a bug: stop the motors now
                self.halt(f"{op} ended without the table's DONE")

    async def _why_rejected(self, exc: CommandRejected) -> BackendFault:
        """A refused command: name the standing condition (lid, e-stop, a part's fault) from the status."""
        from firmware_bridge.errors import LinkError, describe_fault
        from firmware_bridge.messages import FaultCode, Part, Result, TableStatus, code_name

        try:
            st = await self._link().status()
        except LinkError:
            st = None
        if exc.result == Result.ESTOPPED or (st is not None and st.flags & TableStatus.ESTOPPED):
            return BackendFault("emergency_stop", "none", f"{exc.command}: {describe_fault(FaultCode.EMERGENCY_STOP, 0)}"
                                " (reset the table to clear it)")
        if st is not None and st.flags & TableStatus.LID_OPEN:
            return BackendFault("lid_open", "lid", f"{exc.command}: {describe_fault(FaultCode.LID_OPEN, Part.LID)}")
        if exc.result == Result.FAULTED and st is not None and st.fault_code:
            return BackendFault(code_name(FaultCode, st.fault_code), code_name(Part, st.fault_part),
                                f"{exc.command}: {describe_fault(st.fault_code, st.fault_part)}")
        return BackendFault(code_name(Result, exc.result), "none", str(exc))

    async def configure(self, tile_count: int, stacks: tuple[int, ...], tile_set: int = 0) -> None:
        await self._guard(self._link().configure(tile_count, stacks, tile_set))

    async def collect(self) -> None:
        await self._motion(self._link().collect(), "collect")

    async def shuffle(self, progress: Progress | None = None) -> None:
        await self._motion(self._link().shuffle(progress=progress), "shuffle")

    async def raise_walls(self) -> None:
        await self._motion(self._link().raise_walls(), "raise")

    async def lower_walls(self) -> None:
        await self._motion(self._link().lower_walls(), "lower")

    async def dice(self, pulse_ms: int = 600) -> None:
        await self._motion(self._link().dice(pulse_ms), "dice")

    async def indicators(self, turn: int | None, dealer: int | None) -> None:
        await self._guard(
            self._link().indicators(turn=NO_SEAT if turn is None else turn, dealer=NO_SEAT if dealer is None else dealer)
        )

    def halt(self, reason: str = "") -> None:
        """The ESTOP frame, written now (no await); a failure to deliver it becomes a DeviceFault."""
        from firmware_bridge.messages import EStop

        if self.bridge is None:
            return
        try:
            fut = self.bridge.link.urgent(EStop())
        except Exception as exc:  # the link is closed
            self._stop_failed(reason, exc)
            return
        log.info("ESTOP sent: %s", reason or "halt")

        def done(f: Future[Reply]) -> None:  # on the link's thread
            exc = f.exception()
            if exc is not None:
                self._stop_failed(reason, exc)

        fut.add_done_callback(done)

    def _stop_failed(self, reason: str, exc: BaseException) -> None:
        import time

        log.error("ESTOP not delivered (%s): %s", reason, exc)
        self._emit(DeviceFault(code="estop_failed", part="link",
                               message=f"emergency stop not confirmed by the table: {exc}",
                               t_mono=time.monotonic(), t_wall=time.time()))

    async def estop(self) -> None:
        from firmware_bridge.errors import LinkError

        if self.bridge is None:
            raise BackendFault("estop_failed", "link", "emergency stop not sent: the table is not connected")
        try:
            await asyncio.wait_for(self.bridge.estop(), self.estop_timeout)
        except TimeoutError:
            raise BackendFault("estop_failed", "link", "emergency stop not confirmed by the table within "
                               f"{self.estop_timeout:g} s") from None
        except LinkError as exc:
            raise BackendFault("estop_failed", "link", f"emergency stop not confirmed by the table: {exc}") from None

    async def recover(self) -> BoardInfo:
        """Reset the MCU (clears the e-stop latch; the bridge re-handshakes and re-applies the configuration
        and indicators), then re-read the status: the table may move only with the lid closed."""
        from firmware_bridge.errors import LinkError
        from firmware_bridge.messages import TableStatus

        bridge = self._link()
        try:
            st = await bridge.status()
            if st.flags & TableStatus.ESTOPPED:
                await bridge.reset()
                log.info("MCU reset to clear the emergency stop; session re-established")
            st = await bridge.status()
        except LinkError as exc:
            raise BackendFault("link", "link", f"cannot reach the table to resume: {exc}") from None
        if st.flags & TableStatus.ESTOPPED:
            raise BackendFault("emergency_stop", "none", "the emergency stop is still latched after a reset")
        if st.flags & TableStatus.LID_OPEN:
            raise BackendFault("lid_open", "lid", "the lid is open: close it, then resume")
        return {"boot": st.boot_counter, "lifts": st.lifts, "busy": st.busy}

    def motors_running(self) -> set[str]:
        return set(self.emulator.motors_running()) if self.emulator is not None else set()

    def physical_dice(self) -> tuple[int, ...] | None:
        return self.emulator.dice_values if self.emulator is not None else None

