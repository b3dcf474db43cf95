"""The controller's API to the table: ``await bridge.shuffle()`` style calls and a stream of device events.

One :class:`Bridge` per table, no global state. It runs a threaded :class:`~firmware_bridge.link.Link`
underneath and never blocks the event loop: command futures and events cross over with
``call_soon_threadsafe``. Operations return when the MCU reports DONE and raise a typed error otherwise:
:class:`~firmware_bridge.errors.TableFault` (a FAULT event), :class:`~firmware_bridge.errors.CommandRejected`
(busy, e-stop latched, ...), :class:`~firmware_bridge.errors.OutcomeUnknown` (the MCU reset meanwhile).

Events are the schema's device events (``rules.events``): ShuffleProgress, DeviceDone, DeviceFault,
SensorChanged, ButtonPressed, LinkState, stamped with ``time.monotonic()`` at arrival.
"""
from __future__ import annotations

import asyncio
import os
import stat
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import TypedDict, TypeVarTuple

from firmware_bridge.errors import CommandRejected, NotConnected, OutcomeUnknown, TableFault, describe_fault
from firmware_bridge.link import Link, LinkConfig, Reply
from firmware_bridge.messages import (
    LIFT_BITS,
    NO_SEAT,
    SIDE_LIFTS,
    Ack,
    Button,
    ButtonEvent,
    Collect,
    Configure,
    Dice,
    Done,
    EStop,
    Fault,
    FaultCode,
    HelloInfo,
    Indicators,
    Lift,
    Message,
    Op,
    Part,
    Progress,
    Reset,
    Result,
    Sensor,
    SensorEvent,
    Shuffle,
    StatusRequest,
    TableStatus,
    code_name,
)
from firmware_bridge.state import TableView, op_bit
from rules.events import (
    ButtonPressed,
    DeviceDone,
    DeviceEvent,
    DeviceFault,
    LinkState,
    SensorChanged,
    ShuffleProgress,
)

Listener = Callable[[DeviceEvent], None]
_Ts = TypeVarTuple("_Ts")


class _Stamp(TypedDict):
    """The clock fields every device event carries."""

    t_mono: float
    t_wall: float


def to_device_event(msg: Message, t_mono: float, t_wall: float) -> DeviceEvent | None:
    """The schema event for an MCU event message (``None`` for the start-of-operation PROGRESS of an
    operation other than the shuffle)."""
    stamp: _Stamp = {"t_mono": t_mono, "t_wall": t_wall}
    if isinstance(msg, Progress):
        if msg.op != Op.SHUFFLE:
            return None
        return ShuffleProgress(stacks_built=tuple(msg.built), stacks_target=tuple(msg.target), **stamp)
    if isinstance(msg, Done):
        return DeviceDone(operation=code_name(Op, msg.op), **stamp)
    if isinstance(msg, Fault):
        return DeviceFault(code=code_name(FaultCode, msg.code), part=code_name(Part, msg.part),
                           message=describe_fault(msg.code, msg.part, code_name(Op, msg.op) if msg.op else ""),
                           **stamp)
    if isinstance(msg, SensorEvent):
        return SensorChanged(sensor=code_name(Sensor, msg.sensor), value=msg.value, **stamp)
    if isinstance(msg, ButtonEvent):
        return ButtonPressed(button=code_name(Button, msg.button), seat=None if msg.seat == NO_SEAT else msg.seat,
                             **stamp)
    return None


class Bridge:
    """The table seen from asyncio. Create it inside a running loop; ``async with Bridge(url) as b:``."""

    def __init__(self, url: str, config: LinkConfig | None = None) -> None:
        self.url = url
        self._loop = asyncio.get_running_loop()
        self._view = TableView()
        self._desired: dict[type, Message] = {}  # last acknowledged Configure / Indicators, re-applied after reset
        self._listeners: list[Listener] = []
        self._raw_listeners: list[Callable[[Message], None]] = []
        self._waiters: dict[int, tuple[Op, asyncio.Future[Message], int]] = {}  # ref -> (op, future, boot counter)
        self._reconciled_at: tuple[int, TableStatus] = (0, TableStatus())  # latest (session, status) handled
        self._early: OrderedDict[int, Message] = OrderedDict()
        self._progress: dict[int, Callable[[ShuffleProgress], None]] = {}
        self.link = Link(url, config, on_event=self._event_in, on_state=self._state_in, on_synced=self._synced,
                         on_ack=self._ack_in)

    # ------------------------------------------------------------------------------------- lifecycle

    async def start(self, timeout: float = 5.0) -> HelloInfo:
        """Open the port and wait for the session (HELLO + STATUS). Raises NotConnected on timeout, and at
        once for a device path that does not exist or a URL pyserial cannot open."""
        if "://" not in self.url:
            if not os.path.exists(self.url):
                raise NotConnected(f"no serial port {self.url}: no such device (is the table's USB cable plugged in?)")
            if not stat.S_ISCHR(os.stat(self.url).st_mode):
                raise NotConnected(f"{self.url} is not a serial device")
        self.link.start()
        if not await asyncio.to_thread(self.link.wait_synced, timeout):
            await self.close()
            if self.link.hopeless:
                raise NotConnected(f"cannot open {self.url}: {self.link.hopeless}")
            raise NotConnected(f"no answer from a table on {self.url} within {timeout:g} s"
                               + (f" ({self.link.last_error})" if self.link.last_error else ""))
        assert self.link.hello is not None
        return self.link.hello

    async def close(self) -> None:
        await asyncio.to_thread(self.link.close)
        for _, fut, _ in self._waiters.values():
            if not fut.done():
                fut.set_exception(NotConnected("bridge closed"))
        self._waiters.clear()

    async def __aenter__(self) -> Bridge:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def view(self) -> TableStatus:
        """The Pi's mirror of the table status (see firmware_bridge.state)."""
        return self._view.status

    @property
    def hello(self) -> HelloInfo | None:
        return self.link.hello

    # ---------------------------------------------------------------------------------------- events

    def add_listener(self, fn: Listener) -> None:
        """Call ``fn(event)`` on the event loop for every device event."""
        self._listeners.append(fn)

    def add_raw_listener(self, fn: Callable[[Message], None]) -> None:
        """Call ``fn(message)`` on the link thread for every MCU event message, in arrival order."""
        self._raw_listeners.append(fn)

    async def events(self) -> AsyncIterator[DeviceEvent]:
        """Every device event from now on (the listener is registered at the first ``anext``)."""
        q: asyncio.Queue[DeviceEvent] = asyncio.Queue()
        self._listeners.append(q.put_nowait)
        try:
            while True:
                yield await q.get()
        finally:
            self._listeners.remove(q.put_nowait)

    # -------------------------------------------------------------------------------------- commands

    async def command(self, msg: Message) -> Reply:
        """Send one command; return its reply, raise CommandRejected for a non-OK result."""
        reply: Reply = await asyncio.wrap_future(self.link.submit(msg))
        if reply.result != Result.OK:
            raise CommandRejected(type(msg).__name__.lower(), reply.result)
        return reply

    async def status(self) -> TableStatus:
        """Ask the MCU (also reconciles the view)."""
        reply = await self.command(StatusRequest())
        return TableStatus.unpack(reply.data)

    async def configure(self, tile_count: int, stacks: tuple[int, ...], tile_set: int = 0) -> None:
        await self.command(Configure(tile_count, tuple(stacks), tile_set))

    async def indicators(self, turn: int = NO_SEAT, dealer: int = NO_SEAT, wind: int = NO_SEAT,
                         light: int = 0) -> None:
        await self.command(Indicators(turn, dealer, wind, light))

    async def collect(self, timeout: float | None = None) -> None:
        await self._operation(Collect(), Op.COLLECT, timeout=timeout)

    async def shuffle(self, progress: Callable[[ShuffleProgress], None] | None = None,
                      timeout: float | None = None) -> None:
        """Shuffle and build the configured walls; ``progress`` gets each ShuffleProgress."""
        await self._operation(Shuffle(), Op.SHUFFLE, progress, timeout)

    async def lift(self, mask: int, up: bool, timeout: float | None = None) -> None:
        """Move the lifts in ``mask`` (bit = seat's side lift, bit 4 = centre) up or down."""
        await self._operation(Lift(mask & LIFT_BITS, int(up)), Op.LIFT, timeout=timeout)

    async def raise_walls(self, timeout: float | None = None) -> None:
        await self.lift(SIDE_LIFTS, True, timeout)

    async def lower_walls(self, timeout: float | None = None) -> None:
        await self.lift(SIDE_LIFTS, False, timeout)

    async def dice(self, pulse_ms: int = 600, timeout: float | None = None) -> None:
        await self._operation(Dice(pulse_ms), Op.DICE, timeout=timeout)

    async def estop(self) -> None:
        """Software emergency stop (a second layer behind the hardwired interlock): jumps the queue."""
        reply: Reply = await asyncio.wrap_future(self.link.urgent(EStop()))
        if reply.result != Result.OK:
            raise CommandRejected("estop", reply.result)

    async def reset(self, timeout: float = 5.0) -> None:
        """Reboot the MCU (clears the e-stop latch); returns when the new session is reconciled."""
        old = self.link.hello.boot_counter if self.link.hello else None
        await self.command(Reset())
        if not await asyncio.to_thread(self.link.wait_synced, timeout, old):
            raise NotConnected(f"the table did not come back within {timeout:g} s after a reset")

    async def _operation(self, msg: Message, op: Op, progress: Callable[[ShuffleProgress], None] | None = None,
                         timeout: float | None = None) -> None:
        reply = await self.command(msg)
        final = self._early.pop(reply.seq, None)
        if final is None:
            session, status = self._reconciled_at
            if session > reply.session:  # a new session was reconciled before we got here
                self._check_still_running(op, reply.boot, status)
            fut = self._loop.create_future()
            self._waiters[reply.seq] = (op, fut, reply.boot)
            if progress:
                self._progress[reply.seq] = progress
            try:
                final = await asyncio.wait_for(fut, timeout)
            finally:
                self._waiters.pop(reply.seq, None)
                self._progress.pop(reply.seq, None)
        if isinstance(final, Fault):
            raise TableFault(final.code, final.part, code_name(Op, op))

    # --------------------------------------------------------------- callbacks from the link thread

    def _ack_in(self, msg: Message, ack: Ack) -> None:
        self._view.apply_command(msg, ack.result)
        if ack.result == Result.OK and isinstance(msg, Configure | Indicators):
            self._desired[type(msg)] = msg
        if isinstance(msg, StatusRequest) and ack.result == Result.OK and len(ack.data) == TableStatus.FORMAT.size:
            self._view.replace_if_current(TableStatus.unpack(ack.data))

    def _event_in(self, msg: Message, seq: int, t_mono: float) -> None:
        self._view.apply_event(msg, seq)
        for fn in self._raw_listeners:
            fn(msg)
        self._post(self._dispatch, msg, t_mono, time.time())

    def _state_in(self, state: str, detail: str) -> None:
        self._post(self._emit, LinkState(state=state, detail=detail, t_mono=time.monotonic(), t_wall=time.time()))

    def _post(self, fn: Callable[[*_Ts], object], *args: *_Ts) -> None:
        """Hand work to the event loop; a loop that is gone (closed without ``close()``) drops it."""
        try:
            self._loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            pass

    def _synced(self, hello: HelloInfo, status: TableStatus, reset: bool) -> list[Message]:
        """Reconciliation: the MCU's status replaces our view; state it lost in a reset is re-applied."""
        self._view.replace_all(status)
        self._post(self._reconciled, self.link.stats.sessions, status)
        again: list[Message] = []
        cfg = self._desired.get(Configure)
        if isinstance(cfg, Configure) and (not status.flags & TableStatus.CONFIGURED or (
                status.tile_count, tuple(status.stacks), status.tile_set) != (cfg.tile_count, cfg.stacks, cfg.tile_set)):
            again.append(cfg)
        ind = self._desired.get(Indicators)
        if isinstance(ind, Indicators) and tuple(status.indicators) != (ind.turn, ind.dealer, ind.wind, ind.light):
            again.append(ind)
        return again

    # ---------------------------------------------------------------------------- on the event loop

    def _reconciled(self, session: int, status: TableStatus) -> None:
        """A new session: operations the MCU no longer runs will never report their end."""
        self._reconciled_at = (session, status)
        for op, fut, boot in list(self._waiters.values()):
            if not fut.done():
                try:
                    self._check_still_running(op, boot, status)
                except OutcomeUnknown as exc:
                    fut.set_exception(exc)

    @staticmethod
    def _check_still_running(op: Op, boot: int, status: TableStatus) -> None:
        if status.boot_counter != boot or not status.busy & op_bit(op):
            why = "was reset" if status.boot_counter != boot else "ended it while the link was down"
            raise OutcomeUnknown(f"{code_name(Op, op)}: the MCU {why} before reporting the end; "
                                 "check the table status")

    def _dispatch(self, msg: Message, t_mono: float, t_wall: float) -> None:
        if isinstance(msg, Done | Fault) and msg.ref != 0xFFFF:
            waiter = self._waiters.get(msg.ref)
            if waiter and not waiter[1].done():
                waiter[1].set_result(msg)
            elif waiter is None:
                self._early[msg.ref] = msg
                while len(self._early) > 64:
                    self._early.popitem(last=False)
        event = to_device_event(msg, t_mono, t_wall)
        if isinstance(msg, Progress) and isinstance(event, ShuffleProgress) and msg.ref in self._progress:
            self._progress[msg.ref](event)
        if event is not None:
            self._emit(event)

    def _emit(self, event: DeviceEvent) -> None:
        for fn in list(self._listeners):
            fn(event)
