"""The direct-GPIO back-end: for retrofitted tables without a controller board.

The Pi drives the motor drivers and reads the limit switches, counters and lid switch itself through
gpiozero (OutputDevice, DigitalInputDevice), with the same operations, timings and faults as the MCU
(docs/protocol.md). The pins sit on their own GPIO chip (an MCP23017 expander exposed as a Linux
gpiochip by its device-tree overlay, read through lgpio), so the Pi's header keeps the human interface.

:class:`GpioTableSim` is this back-end's emulator twin: a thread that watches the motor outputs on a
gpiozero ``MockFactory`` and moves the mock sensor pins as the mechanics would, with fault injection
(jam a lift, lose the chain zero sensor, miscount stacks, open the lid).
"""
from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from gpiozero import DigitalInputDevice, OutputDevice

from controller.backends import BackendFault, BoardInfo, Progress, TableBackend
from controller.backends.edges import EdgeBridge
from firmware_bridge.timings import Timings
from rules.events import DeviceDone, ShuffleProgress

if TYPE_CHECKING:
    from gpiozero.pins import Factory
    from gpiozero.pins.mock import MockFactory

log = logging.getLogger("mahjong_table.gpio")
#: a simulated table (time_scale > 1) runs its time-outs at most this many times faster than the table: the
#: chain zero sensor is due every 2 x 2 s, 0.4 s of real time -- at 20x (0.2 s) a loaded CI machine once held the
#: simulator's thread past it and a hand was aborted as "chain zero sensor lost"
TIMEOUT_SCALE_MAX = 10.0

# Default pin map on the expander chip (configuration can override): a pin, or one per side.
PinMap = Mapping[str, int | list[int] | tuple[int, ...]]
DEFAULT_PINS: dict[str, int | list[int] | tuple[int, ...]] = {
    "shuffle_motor": 0,  # turntable + magnet ring + stacking head drivetrain
    "chain_motor": 1,
    "pusher": 2,
    "centre_up": 3,
    "centre_down": 4,
    "lifts_up": 5,
    "lifts_down": 6,
    "dice_motor": 7,
    "lift_up_switch": [8, 9, 10, 11],  # upper limit switch per side
    "lift_down_switch": 12,  # shared lower limit switch
    "centre_up_switch": 13,
    "centre_down_switch": 14,
    "chain_zero": 15,
    "stack_counter": [16, 17, 18, 19],  # one pulse per stack built, per side
    "lid": 20,  # active = lid open
}


OUTPUTS = ("shuffle_motor", "chain_motor", "pusher", "centre_up", "centre_down", "lifts_up", "lifts_down",
           "dice_motor")


class GpioBackend(TableBackend):
    """Switch waits are gpiozero edge callbacks bridged into asyncio (:mod:`controller.backends.edges`):
    nothing polls the event loop. The lid switch cuts every output from gpiozero's own thread the moment it
    opens, so a stalled loop cannot keep a motor running under an open lid."""

    name = "gpio"

    def __init__(self, pin_factory: Factory | None, pins: PinMap | None = None, time_scale: float = 1.0,
                 timings: Timings | None = None):
        super().__init__()
        self.pins = {**DEFAULT_PINS, **(pins or {})}
        self.scale = float(time_scale)
        self.t = timings or Timings()
        f = pin_factory
        one, per_side = self._pin, self._pins

        def switch(pin: int) -> DigitalInputDevice:
            return DigitalInputDevice(pin, pull_up=True, pin_factory=f)

        self.out = {name: OutputDevice(one(name), pin_factory=f, initial_value=False) for name in OUTPUTS}
        self.lift_up = [switch(x) for x in per_side("lift_up_switch")]
        self.lift_down = switch(one("lift_down_switch"))
        self.centre_up_sw = switch(one("centre_up_switch"))
        self.centre_down_sw = switch(one("centre_down_switch"))
        self.chain_zero = switch(one("chain_zero"))
        self.counters = [switch(x) for x in per_side("stack_counter")]
        self.lid = switch(one("lid"))
        self._lock = threading.Lock()
        self._built = [0, 0, 0, 0]
        self._last_zero = 0.0
        self._last_stack = 0.0
        self.edges = EdgeBridge()
        self.edges.watch([*self.lift_up, self.lift_down, self.centre_up_sw, self.centre_down_sw])
        for side, c in enumerate(self.counters):  # one pulse per stack: counted on its leading edge
            c.when_activated = self._on_stack(side)
        self.chain_zero.when_activated = self._on_zero
        self.edges.watch([self.lid], then=self._lid_changed)
        self.stacks: tuple[int, ...] = (17, 17, 17, 17)
        self.tile_count = 136
        self.twin: GpioTableSim | None = None  # the emulator twin on mock pins (its dice for the simulated camera)

    def _pin(self, name: str) -> int:
        """The one pin of ``name`` in the pin map (a list there: TypeError, as gpiozero would raise)."""
        p = self.pins[name]
        if isinstance(p, list | tuple):
            raise TypeError(f"pin map {name!r}: one pin expected, not {p!r}")
        return p

    def _pins(self, name: str) -> Sequence[int]:
        """The pins of ``name``, one per side (one pin there: TypeError, as iterating it would raise)."""
        p = self.pins[name]
        if not isinstance(p, list | tuple):
            raise TypeError(f"pin map {name!r}: one pin per side expected, not {p!r}")
        return p

    # --- sensor callbacks (gpiozero's thread) -------------------------------------------------------------
    def _on_stack(self, side: int) -> Callable[[], None]:
        def counted() -> None:
            self._stack(side)
            self.edges.edge()

        return counted

    def _on_zero(self) -> None:
        self._zero()
        self.edges.edge()

    def _stack(self, side: int) -> None:
        with self._lock:
            self._built[side] += 1
            self._last_stack = time.monotonic()

    def _zero(self) -> None:
        with self._lock:
            self._last_zero = time.monotonic()

    def _lid_changed(self) -> None:
        if self.lid.is_active:
            self._all_off()  # at once, on gpiozero's thread: the loop may be busy
            log.warning("lid opened: every output off")

    # --- helpers ------------------------------------------------------------------------------------------
    def _s(self, table_seconds: float) -> float:
        return table_seconds / self.scale

    def _limit(self, table_seconds: float) -> float:
        """A timeout in real seconds. Time-outs run at most :data:`TIMEOUT_SCALE_MAX` times faster than the
        table, so scheduling jitter on a loaded machine never fakes a fault; their order (lift < chain < stall
        < shuffle) is kept."""
        return table_seconds / min(self.scale, TIMEOUT_SCALE_MAX)

    def _all_off(self) -> None:
        for d in self.out.values():
            try:
                d.off()
            except Exception:  # a closed or failing output must not keep the others on
                log.exception("cannot switch %s off", d)

    def _check_lid(self, op: str) -> bool:
        if self.lid.is_active:
            self._all_off()
            raise BackendFault("lid_open", "lid", f"{op} failed: lid is open: close it to continue (part: lid)")
        return False

    @contextmanager
    def _motion(self, op: str) -> Iterator[None]:
        """One motor operation: refused under an open lid; every output off when it ends, however it ends."""
        self._check_lid(op)
        try:
            yield
        finally:
            self._all_off()

    async def _until(self, cond: Callable[[], bool], timeout_s: float, op: str,
                     on_timeout: Callable[[], BackendFault]) -> None:
        """Until ``cond()`` (re-checked at every switch edge); the lid opening or the time-out is a fault."""
        if not await self.edges.wait(lambda: self._check_lid(op) or cond(), self._limit(timeout_s)):
            raise on_timeout()

    async def _run_for(self, seconds: float, op: str) -> None:
        """Let the motors run for ``seconds``; the lid opening meanwhile is a fault."""
        await self.edges.wait(lambda: self._check_lid(op), seconds)

    def motors_running(self) -> set[str]:
        return {n for n, d in self.out.items() if d.value}

    def physical_dice(self) -> tuple[int, ...] | None:
        return self.twin.dice_values if self.twin is not None else None

    # --- the interface ------------------------------------------------------------------------------------
    async def start(self) -> BoardInfo:
        self._all_off()
        return {"backend": "gpio", "lifts": 4}

    async def close(self) -> None:
        self._all_off()
        for d in [*self.out.values(), *self.lift_up, self.lift_down, self.centre_up_sw, self.centre_down_sw,
                  self.chain_zero, *self.counters, self.lid]:
            d.close()

    async def configure(self, tile_count: int, stacks: tuple[int, ...], tile_set: int = 0) -> None:
        if sum(stacks) * 2 != tile_count:
            raise BackendFault("bad_config", "none", f"{tile_count} tiles do not fill stacks {stacks}")
        self.tile_count = tile_count
        self.stacks = tuple(stacks)

    async def collect(self) -> None:
        with self._motion("collect"):
            self.out["centre_down"].on()
            await self._until(lambda: self.centre_down_sw.is_active, self.t.lift_timeout_s, "collect",
                              lambda: BackendFault("lift_limit_timeout", "centre_lift",
                                                   "collect failed: centre lift did not reach its limit switch"))
            self.out["centre_down"].off()
            self.out["shuffle_motor"].on()
            await self._run_for(self._s(self.t.collect_s), "collect")
            self.out["shuffle_motor"].off()
            self.out["centre_up"].on()
            await self._until(lambda: self.centre_up_sw.is_active, self.t.lift_timeout_s, "collect",
                              lambda: BackendFault("lift_limit_timeout", "centre_lift",
                                                   "collect failed: centre lift did not reach its limit switch"))
        self._emit(DeviceDone(operation="collect", t_mono=time.monotonic(), t_wall=time.time()))

    async def shuffle(self, progress: Progress | None = None) -> None:
        with self._motion("shuffle"):
            target = self.stacks
            with self._lock:
                self._built = [0, 0, 0, 0]
                now = time.monotonic()
                self._last_zero = self._last_stack = now
            start = now
            self.out["shuffle_motor"].on()
            self.out["chain_motor"].on()
            self.out["pusher"].on()
            last_seen: tuple[int, ...] = ()
            deadline = start

            def step() -> bool:
                """At every counter or chain edge and every deadline: progress, faults, done."""
                nonlocal last_seen, deadline
                self._check_lid("shuffle")
                now = time.monotonic()
                with self._lock:
                    built = tuple(self._built)
                    last_zero, last_stack = self._last_zero, self._last_stack
                if built != last_seen:
                    last_seen = built
                    ev = ShuffleProgress(stacks_built=built, stacks_target=target, t_mono=now, t_wall=time.time())
                    self._emit(ev)
                    if progress:
                        progress(ev)
                for side in range(4):
                    if built[side] > target[side]:
                        raise BackendFault("stack_count_wrong", f"side{side}",
                                           f"shuffle failed: wrong number of stacks built on a side (part: side{side})")
                if built == target:
                    return True
                zero_by = last_zero + self._limit(2 * self.t.chain_period_s)
                stack_by = last_stack + self._limit(self.t.stall_s)
                end_by = start + self._limit(self.t.shuffle_timeout_s)
                if now > zero_by:
                    raise BackendFault("chain_zero_lost", "chain",
                                       "shuffle failed: distribution chain zero sensor lost (part: chain)")
                if now > stack_by:
                    short = next(s for s in range(4) if built[s] < target[s])
                    raise BackendFault("stack_count_wrong", f"side{short}",
                                       f"shuffle failed: wrong number of stacks built on a side (part: side{short})")
                if now > end_by:
                    raise BackendFault("shuffle_timeout", "stacker",
                                       "shuffle failed: shuffle did not finish in time (more than 80 s)")
                deadline = min(zero_by, stack_by, end_by)
                return False

            while not await self.edges.wait(step, max(0.0, deadline - time.monotonic()) + 1e-4):
                pass
        self._emit(DeviceDone(operation="shuffle", t_mono=time.monotonic(), t_wall=time.time()))

    async def raise_walls(self) -> None:
        def stuck() -> BackendFault:
            k = next((i for i, sw in enumerate(self.lift_up) if not sw.is_active), 0)
            return BackendFault("lift_limit_timeout", f"lift{k}",
                                f"raise failed: lift did not reach its limit switch in time: check for a jammed tile (part: lift{k})")

        with self._motion("raise"):
            self.out["lifts_down"].off()
            self.out["lifts_up"].on()
            await self._until(lambda: all(sw.is_active for sw in self.lift_up), self.t.lift_timeout_s, "raise", stuck)
        self._emit(DeviceDone(operation="raise", t_mono=time.monotonic(), t_wall=time.time()))

    async def lower_walls(self) -> None:
        with self._motion("lower"):
            self.out["lifts_up"].off()
            self.out["lifts_down"].on()
            await self._until(lambda: self.lift_down.is_active, self.t.lift_timeout_s, "lower",
                              lambda: BackendFault("lift_limit_timeout", "lift0",
                                                   "lower failed: lifts did not reach the lower limit switch"))

    async def dice(self, pulse_ms: int = 600) -> None:
        with self._motion("dice"):
            self.out["dice_motor"].on()
            await self._run_for(self._s(pulse_ms / 1000.0), "dice")

    async def indicators(self, turn: int | None, dealer: int | None) -> None:
        return None  # on a GPIO table the seat lights are the panel's LEDs (controller.devices)

    def halt(self, reason: str = "") -> None:
        self._all_off()

    async def estop(self) -> None:
        self._all_off()
        still = self.motors_running()
        if still:  # an output that does not switch off (a driver fault): the operator must cut the power
            raise BackendFault("estop_failed", "none", "emergency stop failed: outputs still on: "
                               + ", ".join(sorted(still)) + " (cut the table's power)")

    async def recover(self) -> BoardInfo:
        self._all_off()
        self._check_lid("resume")
        return {"lid": "closed", "walls": "down" if self.lift_down.is_active else "up or between"}


class GpioTableSim:
    """The mechanics behind :class:`GpioBackend` on mock pins: an emulator twin with fault injection."""

    def __init__(self, factory: MockFactory, pins: PinMap | None = None, time_scale: float = 1.0,
                 timings: Timings | None = None, tile_count: int = 136, seed: int = 0):
        self.f = factory
        self.p = {**DEFAULT_PINS, **(pins or {})}
        self.scale = float(time_scale)
        self.t = timings or Timings()
        self.tile_count = tile_count
        self.jammed: set[int] = set()
        self.chain_zero_ok = True
        self.miscount: dict[int, int] = {}
        self.lift_pos = 0.0  # 0 = down, 1 = up (table seconds of travel / lift_s)
        self.centre_pos = 1.0
        self._stack_clock = 0.0
        self._chain_clock = 0.0
        self._built = 0
        self._order_side = 0
        self._per_side = [0, 0, 0, 0]
        self._running = False
        # the dice under the dome: new values each time the dice motor's pulse ends (seeded), None while
        # tumbling; counted from the motor pin's recorded edges, so a pulse shorter than a poll is not missed
        self.dice_values: tuple[int, int] | None = None
        self._dice_rng = random.Random(f"dice|{seed}")
        self._dice_offs = 0
        self._thread = threading.Thread(target=self._main, name="gpio-table-sim", daemon=True)
        self._set("lid", False)

    # pins: inputs are pull-up, active low
    def _pin(self, name: str, idx: int | None = None) -> int:
        """The pin of ``name`` (``idx``: the side's, of a pin per side)."""
        p = self.p[name]
        if isinstance(p, list | tuple):
            if idx is None:
                raise TypeError(f"pin map {name!r}: one pin per side, give the side")
            return p[idx]
        if idx is not None:
            raise TypeError(f"pin map {name!r}: one pin, not one per side")
        return p

    def _set(self, name: str, active: bool, idx: int | None = None) -> None:
        pin = self._pin(name, idx)
        if active:
            self.f.pin(pin).drive_low()
        else:
            self.f.pin(pin).drive_high()

    def _on(self, name: str) -> bool:
        return bool(self.f.pin(self._pin(name)).state)

    def start(self) -> GpioTableSim:
        self._running = True
        self._apply_positions()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._running = False
        self._thread.join(timeout=2)

    def set_lid(self, open_: bool) -> None:
        self._set("lid", open_)

    def _apply_positions(self) -> None:
        for k in range(4):
            self._set("lift_up_switch", self.lift_pos >= 1.0 and k not in self.jammed, k)
        self._set("lift_down_switch", self.lift_pos <= 0.0)
        self._set("centre_up_switch", self.centre_pos >= 1.0)
        self._set("centre_down_switch", self.centre_pos <= 0.0)

    def _watch_dice(self) -> None:
        pin = self.f.pin(self._pin("dice_motor"))
        offs = sum(1 for st in list(pin.states)[1:] if not st.state)
        if pin.state:
            self.dice_values = None  # tumbling
        elif offs > self._dice_offs:
            self.dice_values = (self._dice_rng.randint(1, 6), self._dice_rng.randint(1, 6))
        self._dice_offs = offs

    def _main(self) -> None:
        last = time.monotonic()
        while self._running:
            time.sleep(0.0005)
            now = time.monotonic()
            dt = (now - last) * self.scale  # table seconds
            last = now
            step = dt / self.t.lift_s
            if self._on("lifts_up"):
                self.lift_pos = min(1.0, self.lift_pos + step)
            elif self._on("lifts_down"):
                self.lift_pos = max(0.0, self.lift_pos - step)
            if self._on("centre_up"):
                self.centre_pos = min(1.0, self.centre_pos + step)
            elif self._on("centre_down"):
                self.centre_pos = max(0.0, self.centre_pos - step)
            self._apply_positions()
            self._watch_dice()
            if self._on("chain_motor"):
                self._chain_clock += dt
                if self._chain_clock >= self.t.chain_period_s:
                    self._chain_clock = 0.0
                    if self.chain_zero_ok:
                        self._set("chain_zero", True)
                        self._set("chain_zero", False)
            if self._on("shuffle_motor") and self._on("chain_motor") and self._on("pusher"):
                self._stack_clock += dt
                total = self.tile_count // 2
                if self._stack_clock >= 40.0 / total and self._built < total:
                    self._stack_clock = 0.0
                    side = self._built % 4
                    self._built += 1
                    extra = self.miscount.get(side, 0)
                    pulses = 1
                    if extra and self._built > total - 4:  # the miscount shows at the end of the build
                        pulses = max(0, 1 + extra)
                        self.miscount[side] = 0
                    for _ in range(pulses):
                        self._set("stack_counter", True, side)
                        self._set("stack_counter", False, side)
            else:
                if not self._on("shuffle_motor"):
                    self._built = 0
