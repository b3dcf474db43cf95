"""The serial MCU back-end: :class:`firmware_bridge.bridge.Bridge`, or the MCU emulator in-process."""
from __future__ import annotations

from typing import Any

from controller.backends import BackendFault, Progress, TableBackend

NO_SEAT = 0xFF


class McuBackend(TableBackend):
    name = "mcu"

    def __init__(self, port: str = "emulator", time_scale: float = 20.0, emulator_seed: int = 0):
        super().__init__()
        self.port = port
        self.time_scale = time_scale
        self.emulator = None
        self._seed = emulator_seed
        self.bridge = None

    async def start(self) -> dict[str, Any]:
        from firmware_bridge.bridge import Bridge
        from firmware_bridge.errors import LinkError

        url = self.port
        if url == "emulator":
            from firmware_bridge.emulator.mcu import McuEmulator

            self.emulator = McuEmulator(time_scale=self.time_scale, seed=self._seed).start()
            url = self.emulator.url
        self.bridge = Bridge(url)
        self.bridge.add_listener(self._emit)
        try:
            hello = await self.bridge.start()
        except LinkError as exc:
            raise BackendFault("not_connected", "link", str(exc)) from None
        return {"firmware": f"{hello.fw_major}.{hello.fw_minor}.{hello.fw_patch}", "protocol": hello.protocol_version,
                "lifts": hello.n_lifts, "url": url}

    async def close(self) -> None:
        if self.bridge is not None:
            await self.bridge.close()
        if self.emulator is not None:
            self.emulator.stop()

    async def _guard(self, coro):
        from firmware_bridge.errors import CommandRejected, LinkError, TableFault

        try:
            return await coro
        except TableFault as exc:
            raise BackendFault(exc.code_name, exc.part_name, str(exc)) from None
        except CommandRejected as exc:
            raise await self._why_rejected(exc) from None
        except LinkError as exc:
            raise BackendFault("link", "link", str(exc)) from None

    async def _why_rejected(self, exc) -> BackendFault:
        """A refused command: name the standing condition (lid, e-stop, a part's fault) from the status."""
        from firmware_bridge.errors import LinkError, describe_fault
        from firmware_bridge.messages import FaultCode, Part, Result, TableStatus, code_name

        try:
            st = await self.bridge.status()
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

    async def configure(self, tile_count: int, stacks: tuple[int, ...]) -> None:
        await self._guard(self.bridge.configure(tile_count, stacks))

    async def collect(self) -> None:
        await self._guard(self.bridge.collect())

    async def shuffle(self, progress: Progress | None = None) -> None:
        await self._guard(self.bridge.shuffle(progress=progress))

    async def raise_walls(self) -> None:
        await self._guard(self.bridge.raise_walls())

    async def lower_walls(self) -> None:
        await self._guard(self.bridge.lower_walls())

    async def dice(self, pulse_ms: int = 600) -> None:
        await self._guard(self.bridge.dice(pulse_ms))

    async def indicators(self, turn: int | None, dealer: int | None) -> None:
        await self._guard(
            self.bridge.indicators(turn=NO_SEAT if turn is None else turn, dealer=NO_SEAT if dealer is None else dealer)
        )

    async def estop(self) -> None:
        await self._guard(self.bridge.estop())

    def motors_running(self) -> set[str]:
        return set(self.emulator.motors_running()) if self.emulator is not None else set()

    def physical_dice(self) -> tuple[int, ...] | None:
        return self.emulator.dice_values if self.emulator is not None else None
