"""An emulated table MCU: the firmware side of docs/protocol.md with simulated motors and sensors.

It is written the way the firmware would be: one main loop (a thread here) that reads bytes, handles
frames, runs due timers, sends events and heartbeats, and watches the Pi's heartbeat. Motor timings are
realistic and divided by ``time_scale`` (1000 runs a 40 s shuffle in 40 ms); link timings (heartbeat,
retransmission) stay in real time because the Pi's side runs in real time.

Fault injection, inspection and the test-harness logs are methods that run on the MCU thread (they wait
for it), so tests see a consistent state. What survives :meth:`reset` is what survives on a real board:
the physical positions, the sensors and the boot counter (kept in EEPROM); everything else is RAM.
"""
from __future__ import annotations

import heapq
import itertools
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TypeVar

from firmware_bridge import framing
from firmware_bridge.emulator.ports import EmulatorPort, PtyPort, TcpPort
from firmware_bridge.framing import Frame, FrameDecoder
from firmware_bridge.messages import (
    LIFT_BITS,
    TILE_SETS,
    Ack,
    ButtonEvent,
    Collect,
    Configure,
    Delivery,
    Dice,
    DiceKind,
    Done,
    EStop,
    Fault,
    FaultCode,
    Hello,
    HelloInfo,
    Indicators,
    Lift,
    McuHeartbeat,
    Message,
    Op,
    Part,
    PiHeartbeat,
    Progress,
    Reset,
    Result,
    Sensor,
    SensorEvent,
    Shuffle,
    StatusRequest,
    TableStatus,
    parse,
)
from firmware_bridge.state import TableView
from firmware_bridge.timings import Timings

_T = TypeVar("_T")
FW_VERSION = (1, 0, 0)
LIFT_SENSORS = (Sensor.LIFT0_UP, Sensor.LIFT1_UP, Sensor.LIFT2_UP, Sensor.LIFT3_UP, Sensor.CENTRE_UP)
LIFT_PARTS = (Part.LIFT0, Part.LIFT1, Part.LIFT2, Part.LIFT3, Part.CENTRE_LIFT)
OP_MOTORS = {
    Op.COLLECT: {"lift4", "turntable", "magnet_ring"},
    Op.SHUFFLE: {"turntable", "magnet_ring", "stacker", "chain"},
    Op.DICE: {"dice"},
}
PART_MOTORS = {Part.TURNTABLE: "turntable", Part.MAGNET_RING: "magnet_ring", Part.STACKER: "stacker",
               Part.CHAIN: "chain", Part.DICE: "dice", Part.CENTRE_LIFT: "lift4",
               **{p: f"lift{i}" for i, p in enumerate(LIFT_PARTS[:4])}}


@dataclass
class TableSpec:
    """What the emulated board reports in HELLO."""

    n_lifts: int = 4
    dice_kind: int = DiceKind.POPPER
    tile_sets: tuple[int, ...] = TILE_SETS
    n_tile_sets: int = 2
    max_stacks: int = 20


@dataclass
class Executed:
    """One command the MCU executed (duplicates are not executed and not logged)."""

    boot: int
    seq: int
    msg: Message
    t_mono: float


@dataclass
class _Run:
    """A running operation."""

    op: Op
    ref: int
    motors: set[str] = field(default_factory=set)
    lifts_moving: set[int] = field(default_factory=set)  # a LIFT: the lifts not yet at their limit


class McuEmulator:
    """The emulated board. ``start()`` runs its main loop on a thread; ``url`` is what the Pi opens."""

    def __init__(self, port: EmulatorPort | None = None, *, time_scale: float = 1.0, seed: int = 0,
                 spec: TableSpec | None = None, timings: Timings | None = None, ack_timeout: float = 0.05,
                 max_retries: int = 30, heartbeat_interval: float = 0.2, baud: int | None = None) -> None:
        self.port = port or PtyPort()
        self.baud = baud  # emulate a UART line rate (8N1) on a pty, which is otherwise instant
        self._tx_free_at = self._rx_free_at = 0.0
        self.time_scale = float(time_scale)
        self.spec = spec or TableSpec()
        self.timings = timings or Timings()
        self.ack_timeout = ack_timeout
        self.max_retries = max_retries
        self.heartbeat_interval = heartbeat_interval
        self._rng = random.Random(seed)
        self._calls: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()  # jobs run between two frames
        self._thread = threading.Thread(target=self._main, name="mcu-emulator", daemon=True)
        self._running = False
        self._t0 = time.monotonic()
        # harness: survives resets
        self.boot_counter = 0
        self.executed: list[Executed] = []
        self.events_sent: list[tuple[int, Message]] = []  # (boot, event) at first transmission
        self.estop_stops: list[float] = []  # monotonic time the motors stopped on an ESTOP frame
        self.heartbeat_stops = 0
        self.events_dropped = 0
        self.corrupt = 0.0
        self.drop = 0.0
        self._in_dropping = False
        # physical: survives resets
        self._lift_up = [False] * 4 + [True]  # side lifts down, centre lift up (closed)
        self._lid_open = False
        self._chain_zero_ok = True
        self._jammed: set[int] = set()
        self._miscount: dict[int, int] = {}
        self._push_wrong = False
        self._stalled = False
        # the physical dice as they lie after the last pulse of the dice motor (None: never thrown, or
        # tumbling); seeded, and told to nobody over the link: the table's camera reads them
        self.dice_values: tuple[int, int] | None = None
        self._dice_rng = random.Random(f"dice|{seed}")
        self._boot()

    @property
    def url(self) -> str:
        return self.port.url

    # --------------------------------------------------------------------------------------- lifecycle

    def start(self) -> McuEmulator:
        self._running = True
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._running:
            self._running = False
            self._thread.join(5)
        self.port.close()

    def __enter__(self) -> McuEmulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _boot(self) -> None:
        """Power-on: RAM state cleared, boot counter incremented, no session until HELLO."""
        self.boot_counter += 1
        self._booted_at = time.monotonic()
        self._decoder = FrameDecoder()
        self._session = False
        self._last_seq: int | None = None
        self._cached_ack = b""
        self._watchdog_s = 1.0
        self._last_rx = time.monotonic()
        self._events: deque[tuple[int, Message]] = deque()  # (seq, event), seq given when raised
        self._ev_out: tuple[int, bytes] | None = None
        self._ev_sent_at = 0.0
        self._ev_tries = 0
        self._ev_seq = 0
        self._timers: list[tuple[float, int, Callable[[], None]]] = []
        self._tick = itertools.count()
        self._ops: dict[Op, _Run] = {}
        self._motors: set[str] = set()
        self._estopped = False
        self._next_hb = 0.0
        flags = (TableStatus.CHAIN_ZERO_OK if self._chain_zero_ok else 0) | (
            TableStatus.LID_OPEN if self._lid_open else 0)
        lifts = sum(1 << i for i, up in enumerate(self._lift_up) if up)
        self.view = TableView(TableStatus(boot_counter=self.boot_counter, flags=flags, lifts=lifts))
        self.port.write(b"\x00")  # flush the Pi's decoder of a frame cut by the reset

    # ------------------------------------------------------------------------------------ inspection

    def call(self, fn: Callable[[], _T], timeout: float = 5.0) -> _T:
        """Run ``fn`` on the MCU thread (between two frames) and return its result."""
        if not self._running or threading.current_thread() is self._thread:
            return fn()
        fut: Future[_T] = Future()

        def job() -> None:
            try:
                fut.set_result(fn())
            except Exception as exc:
                fut.set_exception(exc)

        self._calls.put(job)
        return fut.result(timeout)

    def status(self) -> TableStatus:
        return self.call(lambda: self.view.status)

    def motors_running(self) -> set[str]:
        return self.call(lambda: set(self._motors))

    def idle(self) -> bool:
        """No operation running and no event waiting to be sent or acknowledged."""
        return self.call(lambda: not self._ops and not self._events and self._ev_out is None)

    # ------------------------------------------------------------------------------- fault injection

    def jam_lift(self, lift: int, jammed: bool = True) -> None:
        """The lift's motor turns but the lift never reaches its limit switch."""
        self.call(lambda: self._jammed.add(lift) if jammed else self._jammed.discard(lift))

    def lose_chain_zero(self, lost: bool = True) -> None:
        def do() -> None:
            self._chain_zero_ok = not lost
            self._emit(SensorEvent(Sensor.CHAIN_ZERO, int(not lost)))
            run = self._ops.get(Op.SHUFFLE)
            if lost and run:
                self._end(run, Fault(FaultCode.CHAIN_ZERO_LOST, Part.CHAIN, Op.SHUFFLE, run.ref))
        self.call(do)

    def miscount_stacks(self, side: int, delta: int = -1) -> None:
        """The next shuffles build ``delta`` stacks more on ``side`` than configured (0 = cured)."""
        self.call(lambda: self._miscount.__setitem__(side, delta))

    def wrong_push_count(self, wrong: bool = True) -> None:
        self.call(lambda: setattr(self, "_push_wrong", wrong))

    def stall_shuffle(self, stalled: bool = True) -> None:
        """The stacker stops making progress: the shuffle times out after 80 s (scaled)."""
        self.call(lambda: setattr(self, "_stalled", stalled))

    def overcurrent(self, part: int) -> None:
        def do() -> None:
            motor = PART_MOTORS.get(Part(part))
            for run in list(self._ops.values()):
                if motor in run.motors:
                    self._end(run, Fault(FaultCode.MOTOR_OVERCURRENT, part, run.op, run.ref))
        self.call(do)

    def set_lid(self, open_: bool) -> None:
        def do() -> None:
            self._lid_open = open_
            self._emit(SensorEvent(Sensor.LID, int(open_)))
            if open_:
                self._abort_all(FaultCode.LID_OPEN, Part.LID, always=True)
        self.call(do)

    def press_button(self, button: int, seat: int = 0xFF) -> None:
        self.call(lambda: self._emit(ButtonEvent(button, seat)))

    def set_noise(self, corrupt: float = 0.0, drop: float = 0.0) -> None:
        """Corrupt this fraction of bytes and drop this fraction of frames, in both directions."""
        def do() -> None:
            self.corrupt, self.drop = corrupt, drop
        self.call(do)

    def reset(self, announce: bool = True) -> None:
        """A power glitch or watchdog reset of the MCU. With ``announce=False`` the first heartbeat of the
        new boot waits a full interval, so the Pi learns of the reset from a NOT_SYNCED answer."""
        def do() -> None:
            self._boot()
            if not announce:
                self._next_hb = time.monotonic() + self.heartbeat_interval
        self.call(do)

    def unplug(self) -> None:
        self.call(self.port.unplug)

    def replug(self) -> None:
        self.call(self.port.replug)

    # ------------------------------------------------------------------------------------- main loop

    def _main(self) -> None:
        while self._running:
            while True:
                try:
                    job = self._calls.get_nowait()
                except queue.Empty:
                    break
                job()
            now = time.monotonic()
            data = self.port.read(min(0.02, max(0.0, self._next_deadline(now) - now)))
            if data and self.baud:  # the last byte arrives one character time per byte later
                self._rx_free_at = max(time.monotonic(), self._rx_free_at) + len(data) * 10 / self.baud
                _sleep_until(self._rx_free_at)
            if data:
                for frame in self._decoder.feed(self._noisy_in(data)):
                    self._frame(frame)
            self._service(time.monotonic())

    def _next_deadline(self, now: float) -> float:
        d = [self._next_hb]
        if self._timers:
            d.append(self._timers[0][0])
        if self._ev_out is not None:
            d.append(self._ev_sent_at + self.ack_timeout)
        elif self._events:
            d.append(now)
        if self._motors:
            d.append(self._last_rx + self._watchdog_s)
        return min(d)

    def _service(self, now: float) -> None:
        while self._timers and self._timers[0][0] <= now:
            _, _, fn = heapq.heappop(self._timers)
            fn()
        if self._motors and self._session and now - self._last_rx > self._watchdog_s:
            self.heartbeat_stops += 1
            self._abort_all(FaultCode.HEARTBEAT_LOST, Part.LINK)
        if now >= self._next_hb:
            flags = (McuHeartbeat.SYNCED if self._session else 0) | (McuHeartbeat.MOTORS if self._motors else 0) | (
                McuHeartbeat.ESTOPPED if self._estopped else 0)
            uptime = int((now - self._booted_at) * 1000) & 0xFFFFFFFF
            self._send(McuHeartbeat(self.boot_counter, uptime, flags), 0)
            self._next_hb = now + self.heartbeat_interval
        self._pump_events(now)

    def _after(self, sim_s: float, fn: Callable[[], None], since: float | None = None) -> None:
        """Run ``fn`` ``sim_s`` table seconds after ``since`` (a monotonic time; default now). Timers that
        fall due together run in due order, so a late main loop never reorders them."""
        start = time.monotonic() if since is None else since
        heapq.heappush(self._timers, (start + sim_s / self.time_scale, next(self._tick), fn))

    # ------------------------------------------------------------------------------------- the wire

    def _noisy_in(self, data: bytes) -> bytes:
        if not (self.corrupt or self.drop):
            return data
        out = bytearray()
        for b in data:
            if self._in_dropping:
                if b == 0:
                    self._in_dropping = False
                    out.append(0)
                continue
            if b == 0 and self.drop and self._rng.random() < self.drop:
                self._in_dropping = True  # drop the next frame: its bytes up to its delimiter
            out.append(b)
        return self._corrupt(bytes(out))

    def _corrupt(self, data: bytes) -> bytes:
        if not self.corrupt:
            return data
        buf = bytearray(data)
        for i in range(len(buf)):
            if self._rng.random() < self.corrupt:
                buf[i] ^= self._rng.randrange(1, 256)
        return bytes(buf)

    def _send(self, msg: Message, seq: int) -> bytes:
        data = framing.encode(Frame(int(msg.TYPE), seq, msg.pack()))
        self._write(data)
        return data

    def _write(self, data: bytes) -> None:
        if self.drop and self._rng.random() < self.drop:
            return
        if self.baud:  # a blocking UART transmit
            self._tx_free_at = max(time.monotonic(), self._tx_free_at) + len(data) * 10 / self.baud
            _sleep_until(self._tx_free_at)
        self.port.write(self._corrupt(data))

    # --------------------------------------------------------------------------------------- frames

    def _frame(self, f: Frame) -> None:
        self._last_rx = time.monotonic()
        try:
            msg = parse(f.type, f.payload)
        except ValueError:
            if 0x10 <= f.type < 0x40 or f.type == 0x01:
                self._send(Ack(Result.BAD_MESSAGE), f.seq)
            return
        if isinstance(msg, Ack):
            if self._ev_out is not None and f.seq == self._ev_out[0]:
                self._ev_out = None
            return
        if isinstance(msg, PiHeartbeat) or msg.DELIVERY == Delivery.EVENT:
            return
        if isinstance(msg, EStop):  # urgent: every copy is executed, stopping twice is harmless
            self._estop()
            self._send(Ack(Result.OK), f.seq)
            return
        if self._session and f.seq == self._last_seq:  # a retransmission: answer again, do not execute
            self._write(self._cached_ack)
            return
        if isinstance(msg, Hello):
            self._session = True
            self._watchdog_s = (msg.heartbeat_timeout_ms or 1000) / 1000.0
            self._events.clear()
            self._ev_out = None
            result: int = Result.OK
            data = self._hello_info().pack()
        elif not self._session:
            self._send(Ack(Result.NOT_SYNCED), f.seq)
            return
        else:
            result, data = self._execute(msg, f.seq)
        self._last_seq = f.seq
        self._cached_ack = self._send(Ack(result, data), f.seq)
        if isinstance(msg, Reset) and result == Result.OK:
            self._boot()

    def _hello_info(self) -> HelloInfo:
        s = self.spec
        sets = sum(1 << i for i, n in enumerate(TILE_SETS) if n in s.tile_sets)
        sensors = sum(1 << int(x) for x in Sensor)
        return HelloInfo(framing.PROTOCOL_VERSION, *FW_VERSION, self.boot_counter, s.n_lifts, s.dice_kind, sets,
                         s.n_tile_sets, sensors, s.max_stacks)

    # ------------------------------------------------------------------------------------- commands

    def _execute(self, msg: Message, seq: int) -> tuple[int, bytes]:
        result = self._check(msg)
        if result == Result.OK:
            self.executed.append(Executed(self.boot_counter, seq, msg, time.monotonic()))
            self.view.apply_command(msg, Result.OK)
            if isinstance(msg, StatusRequest):
                return result, self.view.status.pack()
            if isinstance(msg, Collect):
                self._start_collect(seq)
            elif isinstance(msg, Shuffle):
                self._start_shuffle(seq)
            elif isinstance(msg, Lift):
                self._start_lift(seq, msg)
            elif isinstance(msg, Dice):
                self._start_dice(seq, msg)
            elif isinstance(msg, Reset):
                pass  # after the ACK
        return result, b""

    def _check(self, msg: Message) -> int:
        """The result code for ``msg`` in the current state (OK = execute it)."""
        moves = isinstance(msg, Collect | Shuffle | Lift | Dice)
        if moves and self._estopped:
            return Result.ESTOPPED
        if moves and self._lid_open:
            return Result.FAULTED
        s = self.spec
        if isinstance(msg, Configure):
            if Op.SHUFFLE in self._ops or Op.COLLECT in self._ops:
                return Result.BUSY
            ok = (msg.tile_count in s.tile_sets and sum(msg.stacks) * 2 == msg.tile_count
                  and max(msg.stacks) <= s.max_stacks and msg.tile_set < s.n_tile_sets)
            return Result.OK if ok else Result.BAD_ARGUMENT
        if isinstance(msg, Collect | Shuffle):
            if Op.SHUFFLE in self._ops or Op.COLLECT in self._ops:
                return Result.BUSY
            if isinstance(msg, Shuffle) and not self.view.status.flags & TableStatus.CONFIGURED:
                return Result.BAD_ARGUMENT
        if isinstance(msg, Lift):
            valid = ((1 << s.n_lifts) - 1) | 0x10
            if not msg.mask or msg.mask & ~valid & LIFT_BITS or msg.mask & ~LIFT_BITS or msg.up > 1:
                return Result.BAD_ARGUMENT
            if Op.LIFT in self._ops:
                return Result.BUSY
        if isinstance(msg, Dice):
            if s.dice_kind == DiceKind.NONE:
                return Result.UNSUPPORTED
            if not 0 < msg.pulse_ms <= 5000:
                return Result.BAD_ARGUMENT
            if Op.DICE in self._ops:
                return Result.BUSY
        if isinstance(msg, Indicators) and not all(v < 4 or v == 0xFF for v in (msg.turn, msg.dealer, msg.wind)):
            return Result.BAD_ARGUMENT
        return Result.OK

    def _begin(self, op: Op, ref: int, motors: set[str], target: tuple[int, ...] = (0, 0, 0, 0)) -> _Run:
        run = _Run(op, ref, set(motors))
        self._ops[op] = run
        self._motors |= motors
        built = (0, 0, 0, 0) if op == Op.SHUFFLE else self.view.status.built
        self._emit(Progress(op, ref, built, target))
        return run

    def _end(self, run: _Run, event: Message) -> None:
        if self._ops.get(run.op) is not run:
            return
        del self._ops[run.op]
        self._motors -= run.motors
        self._emit(event)

    def _abort_all(self, code: int, part: int, always: bool = False) -> None:
        if not self._ops and always:
            self._emit(Fault(code, part))
        for run in list(self._ops.values()):
            if run.op == Op.LIFT:
                for i in run.lifts_moving:
                    self._lift_up[i] = False  # stopped between the limits
            self._end(run, Fault(code, part, run.op, run.ref))
        self._motors.clear()

    def _estop(self) -> None:
        self._estopped = True
        self.view.apply_command(EStop(), Result.OK)
        self._abort_all(FaultCode.EMERGENCY_STOP, Part.NONE)
        self.estop_stops.append(time.monotonic())

    def _start_collect(self, ref: int) -> None:
        run = self._begin(Op.COLLECT, ref, OP_MOTORS[Op.COLLECT])
        self._after(self.timings.collect_s, lambda: self._end(run, Done(Op.COLLECT, ref)))

    def _start_shuffle(self, ref: int) -> None:
        target = tuple(self.view.status.stacks)
        run = self._begin(Op.SHUFFLE, ref, OP_MOTORS[Op.SHUFFLE], target)
        order = [side for n in range(max(target)) for side in range(4) if n < target[side]]
        step_s = self.timings.shuffle_s / max(1, len(order))
        built = [0, 0, 0, 0]
        t0 = time.monotonic()  # steps are placed on an absolute time line: no drift from a late loop

        def step(k: int) -> None:
            if self._ops.get(Op.SHUFFLE) is not run or self._stalled:
                return
            if not self._chain_zero_ok:
                self._end(run, Fault(FaultCode.CHAIN_ZERO_LOST, Part.CHAIN, Op.SHUFFLE, ref))
                return
            if k < len(order):
                built[order[k]] += 1
                self._emit(Progress(Op.SHUFFLE, ref, tuple(built), target))
                self._after(step_s * (k + 2), lambda: step(k + 1), since=t0)
                return
            if self._push_wrong:
                self._end(run, Fault(FaultCode.PUSH_COUNT_WRONG, Part.STACKER, Op.SHUFFLE, ref))
                return
            for side, delta in sorted(self._miscount.items()):
                if delta:
                    built[side] = max(0, built[side] + delta)
                    self._emit(Progress(Op.SHUFFLE, ref, tuple(built), target))
                    self._end(run, Fault(FaultCode.STACK_COUNT_WRONG, Part.SIDE0 + side, Op.SHUFFLE, ref))
                    return
            self._end(run, Done(Op.SHUFFLE, ref))

        self._after(step_s, lambda: step(0), since=t0)
        self._after(self.timings.shuffle_timeout_s, lambda: self._end(
            run, Fault(FaultCode.SHUFFLE_TIMEOUT, Part.STACKER, Op.SHUFFLE, ref)))

    def _start_lift(self, ref: int, msg: Lift) -> None:
        up = bool(msg.up)
        moving = [i for i in range(5) if msg.mask >> i & 1 and self._lift_up[i] != up]
        run = self._begin(Op.LIFT, ref, {f"lift{i}" for i in moving})
        run.lifts_moving = set(moving)
        if not moving:
            self._end(run, Done(Op.LIFT, ref))
            return
        for i in moving:
            if not up:  # leaving the upper limit switch
                self._lift_up[i] = False
                self._emit(SensorEvent(LIFT_SENSORS[i], 0))

            def arrive(i: int = i) -> None:
                if self._ops.get(Op.LIFT) is not run or i in self._jammed:
                    return
                self._lift_up[i] = up
                run.lifts_moving.discard(i)
                run.motors.discard(f"lift{i}")
                self._motors.discard(f"lift{i}")
                if up:
                    self._emit(SensorEvent(LIFT_SENSORS[i], 1))
                if not run.lifts_moving:
                    self._end(run, Done(Op.LIFT, ref))

            self._after(self.timings.lift_s, arrive)

        def timeout() -> None:
            if self._ops.get(Op.LIFT) is run and run.lifts_moving:
                stuck = min(run.lifts_moving)
                for i in run.lifts_moving:
                    self._lift_up[i] = False
                self._end(run, Fault(FaultCode.LIFT_LIMIT_TIMEOUT, LIFT_PARTS[stuck], Op.LIFT, ref))

        self._after(self.timings.lift_timeout_s, timeout)

    def _start_dice(self, ref: int, msg: Dice) -> None:
        run = self._begin(Op.DICE, ref, OP_MOTORS[Op.DICE])
        self.dice_values = None  # tumbling

        def land() -> None:
            self.dice_values = (self._dice_rng.randint(1, 6), self._dice_rng.randint(1, 6))
            self._end(run, Done(Op.DICE, ref))

        self._after(msg.pulse_ms / 1000.0, land)

    # --------------------------------------------------------------------------------------- events

    def _emit(self, event: Message) -> None:
        """Apply an event to our own status and, within a session, queue it for the Pi with the next seq
        (the status's ``event_seq`` says which events it already includes)."""
        if not self._session:
            self.view.apply_event(event)
            return
        self._ev_seq = (self._ev_seq + 1) & 0xFFFF or 1
        self.view.apply_event(event, self._ev_seq)
        last = self._events[-1][1] if self._events else None
        if isinstance(event, Progress) and isinstance(last, Progress) and last.op == event.op and (
                last.ref == event.ref and event.op == Op.SHUFFLE):
            self._events[-1] = (self._ev_seq, event)  # progress is a state: the newest replaces an unsent one
            return
        if len(self._events) >= 256:
            self.events_dropped += 1
            return
        self._events.append((self._ev_seq, event))

    def _pump_events(self, now: float) -> None:
        if self._ev_out is not None:
            if now - self._ev_sent_at < self.ack_timeout:
                return
            if self._ev_tries > self.max_retries:
                self.events_dropped += 1
                self._ev_out = None
            else:
                self._ev_tries += 1
                self._ev_sent_at = now
                self._write(self._ev_out[1])
                return
        if self._events and self._session:
            seq, event = self._events.popleft()
            self.events_sent.append((self.boot_counter, event))
            self._ev_out = (seq, self._send(event, seq))
            self._ev_sent_at = now
            self._ev_tries = 1


def _sleep_until(t: float) -> None:
    while (left := t - time.monotonic()) > 0:
        time.sleep(left)


def make_port(kind: str = "pty", host: str = "127.0.0.1", port: int = 0) -> EmulatorPort:
    """``"pty"`` or ``"tcp"``."""
    if kind == "pty":
        return PtyPort()
    if kind == "tcp":
        return TcpPort(host, port)
    raise ValueError(f"unknown emulator port kind {kind!r} (pty or tcp)")


