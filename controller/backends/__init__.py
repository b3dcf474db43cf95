"""Table back-ends behind one interface: the serial MCU (``mcu``) and direct GPIO (``gpio``).

Both raise :class:`BackendFault` with the same fault codes and part names (those of docs/protocol.md),
so the table service handles a jammed lift the same way whichever board drives the motors.

The safety contract every back-end keeps (tests/controller/test_motor_safety.py checks it on both):

* every motor operation ends with every output off, in a ``finally``, whatever ends it — done, fault,
  exception or cancellation (the service cancels the running operation on FAULT and PAUSED);
* :meth:`TableBackend.halt` stops every motor *now*, synchronously, without awaiting anything (the cancel
  path cannot await); :meth:`TableBackend.estop` is the same stop, awaited until the board confirms it;
* :meth:`TableBackend.recover` clears a stop before the table moves again (resume, retry): the MCU is reset,
  re-handshaken and its status re-read; it raises :class:`BackendFault` when the table may not move (the lid
  is open, a part is still faulted), so the operator is asked instead.
"""
from __future__ import annotations

from collections.abc import Callable

from rules.events import DeviceEvent, ShuffleProgress

Listener = Callable[[DeviceEvent], None]
Progress = Callable[[ShuffleProgress], None]
#: what a board reports of itself at start and after a recover, for the log: ``{"firmware": "1.2.0", "lifts": 4}``
BoardInfo = dict[str, str | int]


class BackendFault(Exception):
    """An operation ended in a table fault: ``code`` and ``part`` as in docs/protocol.md."""

    def __init__(self, code: str, part: str, message: str, reported: bool = False):
        self.code = code
        self.part = part
        self.message = message
        self.reported = reported  # the board already sent it as a DeviceFault event (not recorded twice)
        super().__init__(message)


class TableBackend:
    """What the table service needs from the motors and sensors. Every method is a coroutine that
    returns when the operation is done or raises :class:`BackendFault`."""

    name = "abstract"

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def _emit(self, ev: DeviceEvent) -> None:
        for fn in list(self._listeners):
            fn(ev)

    async def start(self) -> BoardInfo:  # returns capabilities
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def configure(self, tile_count: int, stacks: tuple[int, ...], tile_set: int = 0) -> None:
        raise NotImplementedError

    async def collect(self) -> None:
        raise NotImplementedError

    async def shuffle(self, progress: Progress | None = None) -> None:
        raise NotImplementedError

    async def raise_walls(self) -> None:
        raise NotImplementedError

    async def lower_walls(self) -> None:
        raise NotImplementedError

    async def dice(self, pulse_ms: int = 600) -> None:
        raise NotImplementedError

    async def indicators(self, turn: int | None, dealer: int | None) -> None:
        raise NotImplementedError

    async def estop(self) -> None:
        """Stop every motor and return once the board confirmed it (raises BackendFault otherwise)."""
        raise NotImplementedError

    def halt(self, reason: str = "") -> None:
        """Stop every motor now, without awaiting (from a ``finally`` of a cancelled operation). A failure to
        deliver the stop is reported as a ``DeviceFault`` to the listeners (code ``estop_failed``)."""
        raise NotImplementedError

    async def recover(self) -> BoardInfo:
        """Clear a stop before the table moves again; returns what the board reports (for the log).
        Raises :class:`BackendFault` when the table may not move yet (the operator must act)."""
        raise NotImplementedError

    def motors_running(self) -> set[str]:
        """Motors currently powered (emulators and the GPIO back-end know; used by tests)."""
        return set()

    def physical_dice(self) -> tuple[int, ...] | None:
        """The emulated table's dice as they lie after the last throw (None: real hardware, never thrown,
        or still tumbling). Only the simulated camera may look at them: the service learns the dice from
        the camera's frame, as on a real table."""
        return None
