"""An emulator of the table's MCU that speaks docs/protocol.md on a pty or a TCP port.

In a test fixture::

    with McuEmulator(time_scale=1000) as emu:            # a pty; emu.url is its (stable) path
        async with Bridge(emu.url) as bridge: ...
    with McuEmulator(make_port("tcp"), time_scale=1000) as emu:   # emu.url = "socket://127.0.0.1:PORT"
        emu.jam_lift(2); emu.set_noise(corrupt=0.01, drop=0.01); emu.reset(); emu.unplug(); ...
"""
from firmware_bridge.emulator.mcu import Executed, McuEmulator, TableSpec, make_port
from firmware_bridge.emulator.ports import EmulatorPort, PtyPort, TcpPort
from firmware_bridge.timings import Timings

__all__ = ["McuEmulator", "TableSpec", "Timings", "Executed", "make_port", "EmulatorPort", "PtyPort", "TcpPort"]
