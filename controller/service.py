"""The table service: one asyncio loop that owns the table's cycle and never loses a result.

It composes a table back-end (serial MCU or direct GPIO), the GPIO panel, the durable event store, the
pure cycle machine (:mod:`controller.table_machine`), a play source (the referee; in demo mode, bots:
:mod:`controller.play_source`), the table camera (:mod:`controller.table_camera`: physical dice, the re-read
after a restart) and the web page. Every state change, device event and dice throw is appended to the store
before it is acted on, so after a crash or power cut the service replays the unfinished hand: dice already
drawn are reused (never redrawn), the table comes back *paused* at the state it was in, the camera re-reads
the table and it is compared with the record (a ``table_reconciled`` event); when they match the operator (or
demo mode) resumes it, when not it stays paused and the differences are shown until the table is put right.

:class:`TableService` holds the table's state and its record, runs the loop and composes the service's jobs,
one module each:

* :mod:`controller.table_cycle` — a trigger fired and recorded, each state's operation on the back-end, a new
  hand, the dice;
* :mod:`controller.table_devices` — the back-end's and the panel's events brought onto the loop, the buttons'
  waits, the e-stop's notices, the table camera opened once;
* :mod:`controller.table_recovery` — the restart (the store read back, the table re-read) and the resume or
  retry after a stop;
* :mod:`controller.table_snapshot` — the table as the web page and the console see it.

Safety (docs/ARCHITECTURE.md, "Safety"): every FAULT and PAUSED cancels the running operation (whose
``finally`` switches every output off) and stops the motors through the supervised e-stop
(:mod:`controller.estop`), at once, before anything is written. The table moves again only after the stop was
confirmed and the back-end recovered (the MCU reset clears its e-stop latch, the status is re-read); a fault
that repeats in demo mode stops the cycle in FAULT instead of looping. Writes go through the single store
writer (:mod:`controller.store_writer`): the loop never waits on a disk flush, and a state change that starts
motion is awaited until it is durable before the motion starts.
"""
from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, TypeVar

from controller.backends import TableBackend
from controller.clock import Clock
from controller.config import Config
from controller.estop import EStopSupervisor
from controller.event_store import EventStore, StoreError
from controller.loop_monitor import LoopLag, watch_loop
from controller.notify import Notifier
from controller.play_source import HandResult, ManualPlay, PlaySource
from controller.store_writer import StoreWriter
from controller.table_cycle import REPEATED_FAULT_LIMIT, TableCycle, dice_throws, secure_dice, stacks_per_seat
from controller.table_devices import CameraFactory, CameraHost, StatusPanel, TableDevices
from controller.table_machine import S, TableMachine
from controller.table_recovery import Dice, TableRecovery
from controller.table_snapshot import OperatorLog, ShuffleStacks, Snapshot, TableCheck, prompt_and_fault
from rules.events import ButtonPressed, Event

if TYPE_CHECKING:
    from controller.hall_link.link import HallLink
    from controller.hall_link.seat_check import SeatState
    from controller.table_camera import TableCamera

__all__ = ["REPEATED_FAULT_LIMIT", "SWITCH_INTERVAL_S", "TableService", "dice_throws", "stacks_per_seat"]

log = logging.getLogger("mahjong_table.service")
T = TypeVar("T")

# The loop is latency-critical (claim windows, the camera path, stops) while worker threads compute (the bots,
# the camera's classifier): a thread holding the GIL keeps the loop waiting up to one switch interval at a
# time, so the service uses 1 ms instead of CPython's 5 ms.
SWITCH_INTERVAL_S = 0.001


class TableService:
    def __init__(
        self,
        cfg: Config,
        backend: TableBackend,
        store: EventStore,
        *,
        panel: StatusPanel | None = None,
        clock: Clock | None = None,
        play: PlaySource | None = None,
        notifier: Notifier | None = None,
        auto: bool = False,
        dice_source: Callable[[int], tuple[tuple[int, int], ...]] | None = None,
        camera_factory: CameraFactory | None = None,
        store_writer: StoreWriter | None = None,
    ):
        self.cfg = cfg
        self.backend = backend
        self.store = store  # reads (the loop's own connection); writes go through self.writer
        self.writer = store_writer or StoreWriter.for_store(store)
        self.writer.listeners = store.listeners  # one list: direct appends and the writer's tell the same
        self._next_seq: dict[str, int] = {}  # append_next's counters, per stream
        self.panel = panel
        self.clock = clock or Clock()
        self.play_source: PlaySource = play or ManualPlay()
        self.notifier = notifier or Notifier()
        self.auto = auto  # demo mode: press START/confirm by itself
        self.dice_source = dice_source or secure_dice
        self.camera_factory: CameraFactory = camera_factory or _config_camera
        self.machine = TableMachine()
        self.profile: str = cfg.table.profile
        self.players: int = cfg.table.players
        # the hand in progress
        self.dealer = 0
        self.hand_id = ""
        self.seq = 0
        self.dice: Dice = ()
        self.last_result: HandResult | None = None
        self.hands_started = 0  # hands in the store (numbering), kept in memory: no store read per hand
        self.hands_done = 0  # hands recorded as played
        self.device_seq = 0  # events outside a hand go to the table's own stream
        self.oplog = OperatorLog()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._triggers: asyncio.Queue[tuple[str, str]] | None = None
        self._tasks: set[asyncio.Task[object]] = set()  # background tasks kept until done (never garbage-collected)
        self.healthy_at = 0.0
        self.loop_lag = LoopLag()
        self.hall: HallLink | None = None  # while running with a [hall] address
        self.watchdog_enabled: bool = cfg.service.watchdog
        # the jobs
        self.devices = TableDevices(self)
        self.stopper = EStopSupervisor(backend, on_failed=self.devices.estop_failed,
                                       on_confirmed=self.devices.estop_confirmed)
        self.recovery = TableRecovery(self, reconcile_after_restart=cfg.camera.reconcile)
        self.cycle = TableCycle(self)
        backend.add_listener(self.devices.from_backend)
        if panel is not None:
            panel.add_listener(self.devices.from_panel)

    # --- what the jobs keep, as the page, the hall link and the tests read it --------------------------------
    @property
    def camera(self) -> TableCamera | None:
        """The table camera once opened (:meth:`open_camera`)."""
        return self.devices.camera

    @property
    def shuffle_progress(self) -> ShuffleStacks:
        return self.devices.shuffle_progress

    @property
    def table_check(self) -> TableCheck | None:
        """The last re-read after a restart (result, differences, detail, whether it holds the table)."""
        return self.recovery.table_check

    @property
    def resume_error(self) -> str:
        return self.recovery.resume_error

    def hands_played(self) -> int:
        return self.hands_done

    # --- recording ----------------------------------------------------------------------------------------
    def note(self, text: str) -> None:
        """A line for the operator (the web page's log and the console)."""
        self.oplog.add(text)
        log.info(text)

    def record(self, ev: Event) -> asyncio.Future[bool]:
        """Queue ``ev`` for the store; the future resolves once it is durable. Await it before acting on the
        event; a write nobody awaits is still watched (a failed write faults the table)."""
        if self.hand_id:
            stream, seq = self.hand_id, self.seq
            self.seq += 1
        else:  # no hand yet (a device fault at start-up): the table's own stream
            stream, seq = f"{self.cfg.table.id}/table", self.device_seq
            self.device_seq += 1
        return self._watch(self.writer.append(stream, seq, ev), f"{ev.TYPE} {stream}#{seq}")

    def append(self, stream: str, seq: int, ev: Event) -> asyncio.Future[bool]:
        """A play source's event (``<hand_id>/game``): idempotent, durable when the future resolves."""
        return self._watch(self.writer.append(stream, seq, ev), f"{ev.TYPE} {stream}#{seq}")

    def append_next(self, stream: str, ev: Event) -> asyncio.Future[bool]:
        """Append ``ev`` at the end of ``stream`` (a judge's or the table's own stream): the sequence number
        is counted here, so writes still queued for the writer are never given the same number twice."""
        seq = self._next_seq.get(stream)
        if seq is None:
            seq = self.store.next_seq(stream)
        self._next_seq[stream] = seq + 1
        return self.append(stream, seq, ev)

    def _watch(self, fut: asyncio.Future[bool], what: str) -> asyncio.Future[bool]:
        def done(f: asyncio.Future[bool]) -> None:
            exc = None if f.cancelled() else f.exception()
            if exc is not None:
                self.store_failed(what, exc)

        fut.add_done_callback(done)
        return fut

    def store_failed(self, what: str, exc: BaseException) -> None:
        """A write that did not reach the disk: nothing may move without a record — stop, fault, say why."""
        log.error("event store write failed (%s): %s", what, exc)
        self.note(f"event store write failed: {exc}")
        if self.machine.can("fault") and self._triggers is not None:
            self.trigger("fault", f"event store write failed: {exc}")
        elif self.loop is not None:
            self.stopper.request(f"event store write failed: {exc}")

    def spawn(self, coro: Coroutine[object, None, T], name: str) -> asyncio.Task[T]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- inputs -------------------------------------------------------------------------------------------
    def press(self, button: str, ev: ButtonPressed | None = None) -> None:
        """A button press (GPIO, the web page, or demo mode): what it does in the state the table is in."""
        if ev is not None:
            self.record(ev)
        st = self.machine.state
        if button == "judge":
            if st is S.PAUSED:
                self.recovery.request_resume()
            else:
                self.trigger("pause")
            return
        if button == "start":
            if st is S.IDLE:
                self.trigger("start")
            elif st is S.FAULT:
                self.recovery.resume("retry")
            elif st is S.PAUSED:
                self.recovery.request_resume()
        if button == "abort" and st is S.FAULT:
            self.trigger("abort")
        if button == "accept" and st is S.PAUSED:
            self.recovery.accept_table()
        if button in ("call", "confirm"):  # the referee's: claims, and signing a hand's result
            self.play_source.button(ev or ButtonPressed(button=button, **self.clock.stamp()))
        self.devices.pressed(button)

    async def wait_button(self, button: str) -> None:
        """Until ``button`` is pressed in the current state (:meth:`TableDevices.wait_button`)."""
        await self.devices.wait_button(button)

    def request_resume(self) -> None:
        self.recovery.request_resume()

    def accept_table(self) -> None:
        self.recovery.accept_table()

    def trigger(self, name: str, detail: str = "") -> None:
        assert self._triggers is not None
        self._triggers.put_nowait((name, detail))

    # --- the loop -----------------------------------------------------------------------------------------
    async def run(self, stop: asyncio.Event, hands: int | None = None) -> None:
        """Run until ``stop`` is set (or ``hands`` hands are finished, for demos and tests)."""
        self.loop = asyncio.get_running_loop()
        self._triggers = asyncio.Queue()
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL_S))
        self.loop.set_default_executor(_started_executor())  # no thread start on the loop later
        self.writer.start()
        try:
            caps = await self.backend.start()
        except BaseException:
            await self.writer.close()
            sys.setswitchinterval(switch)
            raise
        self.stopper.latched = True  # a stop may be latched from before (a crash): recover before moving
        self.note(f"table back-end {self.backend.name} up: {caps}")
        watchdog = ticker = None
        try:
            await self.recovery.restore()
            if self.cfg["hall.address"]:  # with a [hall] section results flow to the hall (docs/hall.md)
                from controller.hall_link.attach import attach

                link = attach(self)
                if link is not None:  # (an address: a link)
                    self.hall = link.start()
            if self.recovery.restored or self.cfg.table.dice == "physical":  # not on the loop when first needed
                await asyncio.to_thread(_import_camera_path)
            self.notifier.ready(self.snapshot().prompt)
            watchdog = asyncio.create_task(self._watchdog(stop))
            ticker = asyncio.create_task(watch_loop(self.loop_lag))
            if self.auto and self.machine.state is S.IDLE:
                self.trigger("start")
            self.recovery.after_restart(self.auto)
            await self._serve(stop, hands)
        finally:
            for t in (watchdog, ticker):
                if t is not None:
                    t.cancel()
            await self._shutdown()
            sys.setswitchinterval(switch)

    async def _serve(self, stop: asyncio.Event, hands: int | None) -> None:
        """The triggers, one at a time, until ``stop`` (or ``hands`` more hands played, back in IDLE)."""
        assert self._triggers is not None
        done0 = self.hands_done
        while not stop.is_set():
            if hands is not None and self.hands_done - done0 >= hands and self.machine.state is S.IDLE:
                break
            try:  # (asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation)
                async with asyncio.timeout(0.2):
                    name, detail = await self._triggers.get()
            except TimeoutError:
                self.healthy_at = time.monotonic()
                continue
            self.healthy_at = time.monotonic()
            try:
                await self.cycle.apply(name, detail)
            except StoreError as exc:  # the transition is not durable: stop, fault, say why
                self.store_failed(f"state change {name}", exc)

    async def _shutdown(self) -> None:
        op = self.cycle.op
        if op is not None and not op.done():
            op.cancel()  # its finally switches the outputs off (the MCU: ESTOP)
        for t in [op, *self.recovery.tasks(), *self._tasks]:
            if t is not None and not t.done():
                t.cancel()
        for t in [op, *self.recovery.tasks(), *list(self._tasks)]:
            if t is not None:
                try:
                    await t
                except BaseException:  # noqa: S110 - cancelled or failed: it is over either way
                    pass
        await self.stopper.close()
        if self.camera is not None:
            self.camera.close()
        self.notifier.stopping()
        if self.hall is not None:
            self.hall.stop()
        try:
            await self.backend.close()
        finally:
            await self.writer.close()

    async def _watchdog(self, stop: asyncio.Event) -> None:
        interval = self.notifier.watchdog_interval()
        if not interval or not self.watchdog_enabled:
            return
        while not stop.is_set():
            await asyncio.sleep(interval)
            if time.monotonic() - self.healthy_at < 2 * interval:  # ping only while the loop is healthy
                self.notifier.watchdog()
                self.notifier.status(self.snapshot().prompt)

    # --- the jobs' faces ------------------------------------------------------------------------------------
    async def check_seats(self) -> SeatState | None:
        """The players' badges against the hall's seating (:meth:`TableCycle.check_seats`)."""
        return await self.cycle.check_seats()

    async def open_camera(self) -> TableCamera:
        """The table camera, opened once (the web page's camera view shares it): :meth:`TableDevices.open_camera`."""
        return await self.devices.open_camera()

    def table_record(self) -> tuple[list[Event], tuple[int, ...]]:
        """What the record says lies on the table: the hand's game events so far and its dice."""
        return self.recovery.table_record()

    async def reconcile(self, resume: bool = False) -> TableCheck:
        """Re-read the table and compare it with the record (:meth:`TableRecovery.reconcile`)."""
        return await self.recovery.reconcile(resume)

    def snapshot(self) -> Snapshot:
        prompt, fault = prompt_and_fault(self.machine, self.table_check, self.resume_error, self.stopper)
        return Snapshot(
            table=self.cfg.table.id, profile=self.profile, state=str(self.machine.state),
            prompt=prompt, hand_id=self.hand_id, dice=self.dice, shuffle=self.shuffle_progress,
            fault=fault, hands_done=self.hands_done, last_result=self.last_result,
            log=list(self.oplog.lines), table_check=self.table_check, estop=self.stopper.view(),
            resume_error=self.resume_error, store=self.writer.stats.view(), loop=self.loop_lag.view(),
            hall=self.hall.view() if self.hall is not None else None, referee=self.play_source.view(),
        )


def _config_camera(svc: CameraHost) -> TableCamera:
    """The table camera of the service's configuration (``camera.*``; the simulated table by default)."""
    from controller.table_camera import open_table_camera

    return open_table_camera(svc.cfg, backend=svc.backend, record=svc.table_record)


def _started_executor(workers: int = 6) -> ThreadPoolExecutor:
    """The loop's worker threads, all started now: starting a thread waits until the OS schedules it, which
    a loaded machine may delay by tens of milliseconds — not on the loop in the middle of a hand."""
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="table-worker")
    barrier = threading.Barrier(workers + 1)
    for _ in range(workers):
        pool.submit(barrier.wait, 5.0)
    try:
        barrier.wait(5.0)
    except threading.BrokenBarrierError:  # a very slow machine: the rest start on demand
        pass
    return pool


def _import_camera_path() -> None:
    """The camera path's modules (OpenCV, the classifier): imported on a worker thread at start-up."""
    import controller.table_camera  # noqa: F401
    import vision.scene_game  # noqa: F401
