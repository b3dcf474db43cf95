"""The table service: one asyncio loop that owns the table's cycle and never loses a result.

It composes a table back-end (serial MCU or direct GPIO), the GPIO panel, the durable event store, the
pure cycle machine (:mod:`controller.table_machine`), a play source (the referee; in demo mode, bots),
the table camera (:mod:`controller.table_camera`: physical dice, the re-read after a restart) and the web
page. Every state change, device event and dice throw is appended to the store before it is acted on, so
after a crash or power cut the service replays the unfinished hand: dice already drawn are reused (never
redrawn), the table comes back *paused* at the state it was in, the camera re-reads the table and it is
compared with the record (a ``table_reconciled`` event); when they match the operator (or demo mode)
resumes it, when not it stays paused and the differences are shown until the table is put right.

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
import secrets
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from controller.backends import BackendFault, TableBackend
from controller.clock import Clock
from controller.config import Config
from controller.estop import EStopSupervisor
from controller.event_store import EventStore, StoreError
from controller.loop_monitor import LoopLag, watch_loop
from controller.notify import Notifier
from controller.store_writer import StoreWriter
from controller.table_machine import MACHINE_STATES, S, TableMachine
from rules.events import (
    ButtonPressed,
    DeviceEvent,
    DeviceFault,
    DiceRolled,
    Event,
    HandStarted,
    ShuffleProgress,
    TableReconciled,
    TableStateChanged,
)
from rules.profiles import registry

log = logging.getLogger("mahjong_table.service")

REPEATED_FAULT_LIMIT = 3  # demo mode: the same fault this many times in a row stops the cycle in FAULT
# The loop is latency-critical (claim windows, the camera path, stops) while worker threads compute (the bots,
# the camera's classifier): a thread holding the GIL keeps the loop waiting up to one switch interval at a
# time, so the service uses 1 ms instead of CPython's 5 ms.
SWITCH_INTERVAL_S = 0.001


def stacks_per_seat(profile: str, players: int, dealer: int) -> tuple[int, tuple[int, ...]]:
    """(tile count, stacks on each seat's side) for the MCU's configure command.

    The profile's sections are counted from the dealer in turn order (rules.wall); the MCU wants them
    by physical side.
    """
    spec = registry.get(profile).wall_spec(players)  # the rule set's own wall (rules.wall for the built-in ones)
    stacks = [0, 0, 0, 0]
    first = spec.sides.index(dealer) if dealer in spec.sides else 0
    for i, n in enumerate(spec.sections):
        stacks[spec.sides[(first + i) % len(spec.sides)]] = n
    return spec.n_tiles, tuple(stacks)


def dice_throws(profile: str, players: int) -> int:
    return registry.get(profile).wall_spec(players).throws


class PlaySource:
    """Who decides that the hand in play is over, and with what result (the referee's place)."""

    async def play(self, svc: TableService, hand_id: str) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def button(self, ev: ButtonPressed) -> None:
        """A call button or the judge's confirmation during play (the referee takes them)."""

    def view(self) -> dict[str, Any] | None:
        """The hand as the play source follows it, for the web page (the referee's public view)."""
        return None

    def judged(self, ev: Event) -> None:
        """A judge's decision at the console during the hand (a penalty, a sanction): the referee acts on a
        dead hand or a chombo (controller/referee/sanctions.py); without a referee it is the record's only."""

    def record(self, svc: TableService, hand_id: str) -> list[Event]:
        """The hand's game record: what lies on the table by the record."""
        return svc.store.events(f"{hand_id}/game")


class ManualPlay(PlaySource):
    """Without the camera referee: the hand is over when the operator presses START."""

    async def play(self, svc: TableService, hand_id: str) -> dict[str, Any]:
        await svc.wait_button("start")
        return {"hand_id": hand_id, "source": "manual"}


@dataclass
class Snapshot:
    table: str
    profile: str
    state: str
    prompt: str
    hand_id: str = ""
    dice: tuple[tuple[int, ...], ...] = ()
    shuffle: dict[str, Any] = field(default_factory=dict)
    fault: str = ""
    hands_done: int = 0
    last_result: dict[str, Any] | None = None
    log: list[str] = field(default_factory=list)
    table_check: dict[str, Any] | None = None  # the re-read after a restart: result, differences, detail
    estop: dict[str, Any] = field(default_factory=dict)  # the supervised e-stop: state, error, attempts
    resume_error: str = ""  # why the last resume/retry was refused (the operator must act)
    store: dict[str, Any] = field(default_factory=dict)  # the store writer: commits, latency, errors
    loop: dict[str, Any] = field(default_factory=dict)  # the event loop's lag: worst and mean stall
    hall: dict[str, Any] | None = None  # the hall link: session clock, hall messages, outbox (controller.hall_link)
    referee: dict[str, Any] | None = None  # the refereed hand's public view (controller/referee/view.py)


class TableService:
    def __init__(
        self,
        cfg: Config,
        backend: TableBackend,
        store: EventStore,
        *,
        panel=None,
        clock: Clock | None = None,
        play: PlaySource | None = None,
        notifier: Notifier | None = None,
        auto: bool = False,
        dice_source: Callable[[int], tuple[tuple[int, int], ...]] | None = None,
        camera_factory: Callable[[TableService], Any] | None = None,
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
        self.play_source = play or ManualPlay()
        self.notifier = notifier or Notifier()
        self.auto = auto  # demo mode: press START/confirm by itself
        self.dice_source = dice_source or _secure_dice
        self.machine = TableMachine()
        self.profile = cfg.table.profile
        self.players = cfg.table.players
        self.dealer = 0
        self.hand_id = ""
        self.seq = 0
        self.dice: tuple[tuple[int, int], ...] = ()
        self.shuffle_progress: dict[str, Any] = {}
        self.last_result: dict[str, Any] | None = None
        self._log: list[str] = []
        self._triggers: asyncio.Queue[tuple[str, str]] | None = None
        self._buttons: dict[str, asyncio.Event] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._op: asyncio.Task | None = None
        self.healthy_at = 0.0
        self.camera_factory = camera_factory or _config_camera
        self.camera: Any = None  # controller.table_camera.TableCamera, opened when first needed
        self._camera_fault_reason = ""  # why the camera could not be opened (recorded once per reason)
        self.table_check: dict[str, Any] | None = None  # the last re-read after a restart (web page, prompts)
        self._check_task: asyncio.Task | None = None
        self._resume_after_check = False
        self._check_pending = False  # restored paused: the re-read after the restart is still to come
        self._restored = False
        self.stopper = EStopSupervisor(backend, on_failed=self._estop_failed, on_confirmed=self._estop_confirmed)
        self._recovering: asyncio.Task | None = None
        self.resume_error = ""
        self._fault_streak: tuple[str, int] = ("", 0)  # (fault, times in a row without a finished hand)
        self._hands = 0  # hands in the store (numbering), kept in memory: no store read per hand
        self._played = 0  # hands recorded as played
        self._tasks: set[asyncio.Task] = set()  # background tasks kept until done (never garbage-collected)
        self._device_seq = 0  # events outside a hand go to the table's own stream
        self.loop_lag = LoopLag()
        self.hall: Any = None  # controller.hall_link.HallLink while running with a [hall] address
        self.reconcile_after_restart = cfg.camera.reconcile
        self.watchdog_enabled = cfg.service.watchdog
        backend.add_listener(self._device_event)
        if panel is not None:
            panel.add_listener(self._button_from_thread)

    # --- recording ----------------------------------------------------------------------------------------
    def note(self, text: str) -> None:
        """A line for the operator (the web page's log and the console)."""
        self._say(text)

    def _say(self, text: str) -> None:
        line = time.strftime("%H:%M:%S ") + text
        self._log = (self._log + [line])[-30:]
        log.info(text)

    def record(self, ev: Event) -> asyncio.Future:
        """Queue ``ev`` for the store; the future resolves once it is durable. Await it before acting on the
        event; a write nobody awaits is still watched (a failed write faults the table)."""
        if self.hand_id:
            stream, seq = self.hand_id, self.seq
            self.seq += 1
        else:  # no hand yet (a device fault at start-up): the table's own stream
            stream, seq = f"{self.cfg.table.id}/table", self._device_seq
            self._device_seq += 1
        return self._watch(self.writer.append(stream, seq, ev), f"{ev.TYPE} {stream}#{seq}")

    def append(self, stream: str, seq: int, ev: Event) -> asyncio.Future:
        """A play source's event (``<hand_id>/game``): idempotent, durable when the future resolves."""
        return self._watch(self.writer.append(stream, seq, ev), f"{ev.TYPE} {stream}#{seq}")

    def append_next(self, stream: str, ev: Event) -> asyncio.Future:
        """Append ``ev`` at the end of ``stream`` (a judge's or the table's own stream): the sequence number
        is counted here, so writes still queued for the writer are never given the same number twice."""
        seq = self._next_seq.get(stream)
        if seq is None:
            seq = self.store.next_seq(stream)
        self._next_seq[stream] = seq + 1
        return self.append(stream, seq, ev)

    def _watch(self, fut: asyncio.Future, what: str) -> asyncio.Future:
        def done(f: asyncio.Future) -> None:
            if not f.cancelled() and f.exception() is not None:
                self._store_failed(what, f.exception())

        fut.add_done_callback(done)
        return fut

    def _store_failed(self, what: str, exc: BaseException) -> None:
        """A write that did not reach the disk: nothing may move without a record — stop, fault, say why."""
        log.error("event store write failed (%s): %s", what, exc)
        self._say(f"event store write failed: {exc}")
        if self.machine.can("fault") and self._triggers is not None:
            self.trigger("fault", f"event store write failed: {exc}")
        elif self._loop is not None:
            self.stopper.request(f"event store write failed: {exc}")

    def _spawn(self, coro, name: str) -> asyncio.Task:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _device_event(self, ev: DeviceEvent) -> None:
        # called from the back-end's thread or the loop
        loop = self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(self._on_device_event, ev)
        except RuntimeError:  # the loop is closed (shutdown)
            pass

    def _on_device_event(self, ev: DeviceEvent) -> None:
        if isinstance(ev, ShuffleProgress):
            self.shuffle_progress = {"built": list(ev.stacks_built), "target": list(ev.stacks_target)}
            return  # progress is a state, not history: only faults and outcomes are kept
        if isinstance(ev, DeviceFault | ButtonPressed):
            self.record(ev)
        if isinstance(ev, DeviceFault) and ev.code == "estop_failed":
            self._say(f"emergency stop not delivered: {ev.message}")
            self.stopper.request("a stop was not delivered")  # supervised: retried until confirmed

    def _button_from_thread(self, ev: ButtonPressed) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.press, ev.button, ev)

    # --- the e-stop ---------------------------------------------------------------------------------------
    def _estop_failed(self, exc: BackendFault, attempt: int) -> None:
        self.record(DeviceFault(code="estop_failed", part=exc.part, message=exc.message, **self.clock.stamp()))
        self._say(f"EMERGENCY STOP NOT CONFIRMED (attempt {attempt}): {exc.message}; retrying")
        if self.panel is not None:
            self.panel.status("fault")
            self.panel.beep("warning")
        self.notifier.status(f"EMERGENCY STOP NOT CONFIRMED: {exc.message}")

    def _estop_confirmed(self, attempts: int) -> None:
        if attempts > 1:
            self._say(f"emergency stop confirmed after {attempts} attempts")
            if self.panel is not None:
                self.panel.status({S.FAULT: "fault", S.IDLE: "ok"}.get(self.machine.state, "busy"))

    # --- inputs -------------------------------------------------------------------------------------------
    def press(self, button: str, ev: ButtonPressed | None = None) -> None:
        """A button press (GPIO, the web page, or demo mode)."""
        if ev is not None:
            self.record(ev)
        st = self.machine.state
        if button == "judge":
            if st is S.PAUSED:
                self.request_resume()
            else:
                self.trigger("pause")
            return
        if button == "start":
            if st is S.IDLE:
                self.trigger("start")
            elif st is S.FAULT:
                self._resume("retry")
            elif st is S.PAUSED:
                self.request_resume()
        if button == "abort" and st is S.FAULT:
            self.trigger("abort")
        if button == "accept" and st is S.PAUSED:
            self.accept_table()
        if button in ("call", "confirm"):  # the referee's: claims, and signing a hand's result
            self.play_source.button(ev or ButtonPressed(button=button, **self.clock.stamp()))
        self._buttons.setdefault(button, asyncio.Event()).set()

    async def wait_button(self, button: str) -> None:
        """Until ``button`` is pressed in the current state (a press since the state was entered counts, even
        one made before the state's operation got here; presses of earlier states do not)."""
        ev = self._buttons.setdefault(button, asyncio.Event())
        if self.auto:
            await asyncio.sleep(0.05)
            return
        await ev.wait()

    def request_resume(self) -> None:
        """Resume a paused table, unless the table must first be seen to match the record: while the re-read
        after a restart runs, resume when it matches; after a mismatch, read the table again (the operator
        put it right) and resume only if it matches now."""
        if self._check_pending or (self._check_task is not None and not self._check_task.done()):
            self._resume_after_check = True  # the re-read after a restart comes first
            return
        chk = self.table_check
        if chk is not None and chk.get("hold"):
            if chk["result"] == "mismatch":
                self._check_task = self._spawn(self.reconcile(resume=True), "reconcile")
                return
            chk["hold"] = False  # unreadable: the operator checked the table by eye and resumes
        self._resume("resume")

    def _resume(self, trigger: str) -> None:
        """``resume`` (from PAUSED) or ``retry`` (from FAULT), after the stop is cleared through the back-end."""
        if self._recovering is not None and not self._recovering.done():
            return  # already on its way
        if self.stopper.state == "failed":  # (a stop still under way is awaited by the recovery)
            self.resume_error = f"the emergency stop is not confirmed by the table: {self.stopper.error}"
            self._say(f"cannot {trigger}: {self.resume_error}")
            return
        self._recovering = self._spawn(self._recover_then(trigger), f"recover-{trigger}")

    async def _recover_then(self, trigger: str) -> None:
        if not await self.stopper.wait():
            self.resume_error = f"the emergency stop is not confirmed by the table: {self.stopper.error}"
            self._say(f"cannot {trigger}: {self.resume_error}")
            return
        try:
            await self._recover()
        except BackendFault as exc:
            self.resume_error = exc.message
            self.record(DeviceFault(code=exc.code, part=exc.part, message=exc.message, **self.clock.stamp()))
            self._say(f"cannot {trigger}: {exc.message}")
            self.notifier.status(f"cannot {trigger}: {exc.message}")
            return
        self.resume_error = ""
        self.trigger(trigger)

    async def _recover(self) -> None:
        """Clear a stop through the back-end (the MCU: reset, re-handshake, re-read the status)."""
        if not self.stopper.latched:
            return
        info = await self.backend.recover()
        self.stopper.recovered()
        self._say(f"table recovered after the stop: {info}")

    def accept_table(self) -> None:
        """The judge's override after a re-read that does not match (the camera misreads, or the judge decides
        the table is right as it lies): recorded as ``table_reconciled`` ``accepted`` with the differences
        the judge overrode, then the table resumes."""
        chk = self.table_check
        if chk is None or not chk.get("hold") or chk["result"] != "mismatch":
            return
        self.record(TableReconciled(hand_id=self.hand_id, result="accepted", state=str(self.machine.resume_to),
                                    differences=tuple(chk["differences"]),
                                    detail="judge accepted the table as it lies: " + chk["detail"],
                                    **self.clock.stamp()))
        chk.update(result="accepted", hold=False)
        self._say("the judge accepted the table as it lies")
        self._resume("resume")

    def trigger(self, name: str, detail: str = "") -> None:
        assert self._triggers is not None
        self._triggers.put_nowait((name, detail))

    # --- the loop -----------------------------------------------------------------------------------------
    async def run(self, stop: asyncio.Event, hands: int | None = None) -> None:
        """Run until ``stop`` is set (or ``hands`` hands are finished, for demos and tests)."""
        self._loop = asyncio.get_running_loop()
        self._triggers = asyncio.Queue()
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL_S))
        self._loop.set_default_executor(_started_executor())  # no thread start on the loop later
        self.writer.start()
        try:
            caps = await self.backend.start()
        except BaseException:
            await self.writer.close()
            sys.setswitchinterval(switch)
            raise
        self.stopper.latched = True  # a stop may be latched from before (a crash): recover before moving
        self._say(f"table back-end {self.backend.name} up: {caps}")
        watchdog = ticker = None
        try:
            await self._restore()
            if self.cfg["hall.address"]:  # with a [hall] section results flow to the hall (docs/hall.md)
                from controller.hall_link.attach import attach

                self.hall = attach(self).start()
            if self._restored or self.cfg.table.dice == "physical":  # not on the loop when first needed
                await asyncio.to_thread(_import_camera_path)
            self.notifier.ready(self.snapshot().prompt)
            watchdog = asyncio.create_task(self._watchdog(stop))
            ticker = asyncio.create_task(watch_loop(self.loop_lag))
            if self.auto and self.machine.state is S.IDLE:
                self.trigger("start")
            if self._restored and self.machine.state is S.PAUSED:
                if self.reconcile_after_restart:
                    self._check_task = self._spawn(self.reconcile(resume=self.auto), "reconcile")
                elif self.auto:
                    self.request_resume()
            done0 = self._played
            while not stop.is_set():
                if hands is not None and self._played - done0 >= hands and self.machine.state is S.IDLE:
                    break
                try:  # (asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation)
                    async with asyncio.timeout(0.2):
                        name, detail = await self._triggers.get()
                except TimeoutError:
                    self.healthy_at = time.monotonic()
                    continue
                self.healthy_at = time.monotonic()
                try:
                    await self._apply(name, detail)
                except StoreError as exc:  # the transition is not durable: stop, fault, say why
                    self._store_failed(f"state change {name}", exc)
        finally:
            for t in (watchdog, ticker):
                if t is not None:
                    t.cancel()
            await self._shutdown()
            sys.setswitchinterval(switch)

    async def _shutdown(self) -> None:
        if self._op is not None and not self._op.done():
            self._op.cancel()  # its finally switches the outputs off (the MCU: ESTOP)
        for t in [self._op, self._check_task, self._recovering, *self._tasks]:
            if t is not None and not t.done():
                t.cancel()
        for t in [self._op, self._check_task, self._recovering, *list(self._tasks)]:
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

    async def _apply(self, name: str, detail: str) -> None:
        if not self.machine.can(name):
            self._say(f"ignored {name!r} in state {self.machine.state}")
            return
        if name == "start" and self.hall is not None and self.hall.seat_check_due():
            await self.check_seats()  # the session's first hand: the badges against the hall's seating
        if name == "start" and self.hall is not None and not self.hall.may_start_hand():
            st = self.hall.session_state()
            self._say(("the seat check holds the first hand: " if st.reason == "seat_check" else
                       "the session is over at this table: no new hand starts (") + st.text_en
                      + ("" if st.reason == "seat_check" else ")"))
            return
        if name == "start":
            await self._new_hand()
        fault = self.machine.fault
        t = self.machine.fire(name, detail)
        for ev in self._buttons.values():  # presses count for the state they are made in
            ev.clear()
        if t.after in (S.FAULT, S.PAUSED):  # stop first: a stop never waits for the disk
            if self._op is not None and not self._op.done():
                self._op.cancel()
            self.stopper.request(f"{t.after}" + (f": {detail}" if detail else ""))
        durable = [self.record(TableStateChanged(hand_id=self.hand_id, state=str(t.after), previous=str(t.before),
                                                 trigger=name, detail=detail, **self.clock.stamp()))]
        self._say(f"{t.before} --{name}--> {t.after}" + (f": {detail}" if detail else ""))
        if self.panel is not None:
            self.panel.status({S.FAULT: "fault", S.IDLE: "ok", S.PAUSED: "busy"}.get(t.after, "busy"))
        if t.before is S.PAUSED and self.table_check is not None:
            self.table_check["hold"] = False
        if name in ("abort", "not_started"):  # the hand never reached play: closed, with the reason, never resumed
            durable.append(self.writer.finish_hand(
                self.hand_id, {"hand_id": self.hand_id, "status": "aborted" if name == "abort" else name,
                               "reason": fault or detail}, self.clock.wall()))
            if self.hall is not None:
                self.hall.hand_finished(self.hand_id, {"status": "aborted"})
        self.notifier.status(self.machine.prompt)
        await asyncio.gather(*durable)  # the record first, then the motion it orders
        if t.after in (S.COLLECTING, S.SHUFFLING, S.WALLS_UP, S.DICE, S.DEALING, S.PLAY, S.SCORING):
            self._op = asyncio.create_task(self._operate(t.after), name=f"op-{t.after}")
        if t.after is S.FAULT and self.auto and not self._fault_repeats(detail):
            self._loop.call_later(0.05, self.trigger, "abort")
        if t.after is S.IDLE and self.auto:
            self._loop.call_later(0.05, self.trigger, "start")

    async def check_seats(self) -> Any:
        """Read the players' badges with the overhead camera and compare them with the hall's seating
        (controller/hall_link/seat_check.py); the result is kept, shown and sent to the hall."""
        from controller.hall_link.seat_check import check_frame
        from controller.table_camera import CameraError

        seating = list(self.hall.context().get("players") or [])
        try:
            cam = await self._open_camera()
            frame = await asyncio.to_thread(cam.next_frame)
            cal = getattr(cam, "calibration", None)
            if cal is None:  # not fitted yet: to the table's markers now, else the frame's sides decide
                from vision.calibration import CalibrationError, calibrate

                try:
                    cal = await asyncio.to_thread(calibrate, frame.image)
                except CalibrationError:
                    cal = None
            if cal is not None and tuple(cal.frame_size) != (frame.image.shape[1], frame.image.shape[0]):
                cal = None
            result = await asyncio.to_thread(check_frame, frame.image, seating, cal)
        except CameraError as exc:
            return self.hall.record_seats(None, unreadable=str(exc))
        except Exception as exc:  # a bug in the camera path must not take the table down: the judge decides
            logging.getLogger("mahjong_table.camera").exception("seat check")
            return self.hall.record_seats(None, unreadable=f"internal error in the camera path: {exc}")
        seats = self.hall.record_seats(result, calibrated=cal is not None)
        self._say(f"seat check: {seats.status}" + (": " + "; ".join(seats.problems_en) if seats.problems_en else ""))
        return seats

    def _fault_repeats(self, detail: str) -> bool:
        """Demo mode: the same fault again without a finished hand in between? At the limit the cycle stays
        in FAULT with its reason (no abort → start → fault loop appending an aborted hand each time)."""
        same, n = self._fault_streak
        n = n + 1 if detail == same else 1
        self._fault_streak = (detail, n)
        if n < REPEATED_FAULT_LIMIT:
            return False
        self._say(f"the same fault {n} times in a row: the cycle stops here until it is fixed: {detail}")
        return True

    async def _new_hand(self) -> None:
        self._hands += 1
        self.hand_id = f"{self.cfg.table.id}-{self._hands:05d}"
        self.seq = 0
        self.dice = ()
        self.shuffle_progress = {}
        self.table_check = None
        options = dict((self.last_result or {}).get("next_options", {}))
        if self.hall is not None:
            if self.hall.first_hand():  # a hall session is a new game: East as seated deals, nothing carried
                self.dealer, options = 0, {}  # over (the sticks left were the last game's, 004 Rules 3.6)
            self.hall.hand_started(self.hand_id)  # the hand's players and chairs are fixed as it starts
        started = self.writer.start_hand(self.hand_id, self.profile, self.clock.wall())
        await asyncio.gather(started, self.record(HandStarted(hand_id=self.hand_id, profile=self.profile,
                                                               n_players=self.players, dealer=self.dealer,
                                                               options=options, **self.clock.stamp())))

    async def _operate(self, st: S) -> None:
        try:
            if st in MACHINE_STATES or st is S.SCORING:  # motion: only after the last stop was cleared
                if not self.stopper.ok:
                    raise BackendFault("estop_failed", "none", "the emergency stop is not confirmed by the table: "
                                       + self.stopper.error)
                await self._recover()
            if st is S.COLLECTING:
                await self.backend.collect()
            elif st is S.SHUFFLING:
                n, stacks = stacks_per_seat(self.profile, self.players, self.dealer)
                await self.backend.configure(n, stacks, tile_set=(self._hands - 1) % self.cfg.table.tile_sets)
                await self.backend.shuffle()
            elif st is S.WALLS_UP:
                await self.backend.raise_walls()
            elif st is S.DICE:
                if not self.dice and self.hall is not None and not self.hall.may_start_hand():
                    # a hand starts at its first dice throw with the walls built (000 §2.4.4, 004 Rules 5.9):
                    # the session ended (gong, time, red zone) before it, so this hand is not played
                    self.trigger("not_started", self.hall.session_state().text_en)
                    return
                await self._throw_dice()
            elif st is S.DEALING:
                await self.backend.indicators(turn=self.dealer, dealer=self.dealer)
                if self.panel is not None:
                    self.panel.show_dealer(self.dealer)
                    self.panel.show_turn(self.dealer)
                await self.wait_button("start")  # players took their tiles (the camera will tell)
            elif st is S.PLAY:
                self.last_result = await self.play_source.play(self, self.hand_id)
                self.trigger("hand_over")
                return
            elif st is S.SCORING:
                result = {"hand_id": self.hand_id, "status": "played", "dealer": self.dealer,
                          "dice": [list(d) for d in self.dice], **(self.last_result or {})}
                if await self.writer.finish_hand(self.hand_id, result, self.clock.wall()):
                    self._played += 1
                    if self.hall is not None:  # the session's count (its last hand, the chairs) at once
                        self.hall.hand_finished(self.hand_id, result)
                    self._fault_streak = ("", 0)
                    self._say(f"hand {self.hand_id} recorded" + (f": {result['deltas']}" if "deltas" in result else ""))
                self.dealer = result.get("next_dealer", self.dealer)
                await self.wait_button("start")
                await self.backend.lower_walls()
                self.trigger("confirmed")
                return
            self.trigger("done")
        except asyncio.CancelledError:
            raise
        except BackendFault as exc:
            if not exc.reported:  # (the MCU's own FAULT event is recorded as it arrives)
                self.record(DeviceFault(code=exc.code, part=exc.part, message=exc.message, **self.clock.stamp()))
            self.trigger("fault", exc.message)
        except StoreError as exc:
            self._store_failed(f"operation {st}", exc)
        except Exception as exc:  # a bug in one operation must not take the table down: fault, tell the operator
            log.exception("operation %s failed", st)
            self.trigger("fault", f"internal error in {st}: {exc}")

    async def _throw_dice(self) -> None:
        throws = dice_throws(self.profile, self.players)
        if len(self.dice) >= throws:  # drawn before a crash: replayed from the store, never redrawn
            self._say(f"dice (from the record): {self.dice}")
            return
        physical = self.cfg.table.dice == "physical"
        while len(self.dice) < throws:  # a throw recorded before a crash is kept; only the rest are thrown
            i = len(self.dice)
            if physical:
                pair, source = await self._physical_throw(), "camera"
            else:
                pair, source = tuple(self.dice_source(throws - i)[0]), "electronic"
            durable = self.record(DiceRolled(hand_id=self.hand_id, seat=self.dealer, values=tuple(pair),
                                             purpose="break" if i == 0 else f"break{i + 1}", source=source,
                                             **self.clock.stamp()))
            self.dice = self.dice + (tuple(pair),)  # at once: a pause meanwhile never draws this throw again
            await durable
        self._say(f"dice: {self.dice}" + (" (read by the camera)" if physical else ""))

    async def _physical_throw(self) -> tuple[int, ...]:
        """Pulse the dice motor, let the dice settle, read them by camera (a few frames)."""
        from controller.table_camera import CameraError

        await self.backend.dice(self.cfg.table.dice_pulse_ms)
        await asyncio.sleep(self.cfg.camera.dice_settle_s)
        try:
            cam = await self._open_camera()
        except CameraError as exc:  # (recorded as a camera_fault as it was opened)
            raise BackendFault("camera_fault", "camera", f"dice not read: {exc}", reported=True) from None
        try:
            cam.sync()
            values = await asyncio.to_thread(cam.read_dice, 2)
        except CameraError as exc:
            raise BackendFault("camera_fault", "camera", f"dice not read: {exc}") from None
        if values is None:
            raise BackendFault("dice_unreadable", "dice",
                               "dice not readable (cocked, stacked or out of view): press START to roll again")
        return values

    async def _open_camera(self) -> Any:
        """The table camera, opened on a worker thread the first time (a classifier loads, a device opens).
        A camera that cannot be opened is a ``camera_fault`` (a DeviceFault event and one log line, once per
        distinct reason) and raises :class:`controller.table_camera.CameraError`."""
        from controller.table_camera import CameraError

        if self.camera is None:
            try:
                cam = await asyncio.to_thread(self.camera_factory, self)
            except CameraError as exc:
                self._camera_fault(str(exc))
                raise
            except Exception as exc:  # a camera that cannot be opened must never take the table down
                self._camera_fault(f"camera {self.cfg['camera.source']!r}: cannot open it: {type(exc).__name__}: {exc}")
                raise CameraError(self._camera_fault_reason) from None
            if self.camera is None:
                self.camera = cam
                self._camera_fault_reason = ""
        return self.camera

    def _camera_fault(self, reason: str) -> None:
        if reason == self._camera_fault_reason:  # the same reason again (the camera view retries): said once
            return
        self._camera_fault_reason = reason
        logging.getLogger("mahjong_table.camera").error("camera_fault: %s", reason)
        self._log = (self._log + [time.strftime("%H:%M:%S ") + f"camera fault: {reason}"])[-30:]
        self.record(DeviceFault(code="camera_fault", part="camera", message=reason, **self.clock.stamp()))

    open_camera = _open_camera  # the web page's camera view shares the one camera

    def table_record(self) -> tuple[list[Event], tuple[int, ...]]:
        """What the record says lies on the table: the hand's game events so far and its dice."""
        if not self.hand_id:
            return [], ()
        return self.play_source.record(self, self.hand_id), (self.dice[-1] if self.dice else ())

    def _expected_scene(self, resume_to: S) -> tuple[Any, str]:
        """(the table the record gives, or None with the reason it cannot be compared)."""
        from controller.table_camera import empty_scene

        if resume_to is S.COLLECTING:
            return None, "tiles were being collected"
        if resume_to in (S.SHUFFLING, S.WALLS_UP, S.DICE):
            return empty_scene(self.profile, self.players), ""  # the tiles are in the machine and the walls
        game, _ = self.table_record()
        if not game:
            return None, "no game record for this hand to compare with"
        from vision.scene_game import scenes_from_events

        return scenes_from_events(self.profile, game)[-1], ""

    async def reconcile(self, resume: bool = False) -> dict[str, Any]:
        """Re-read the table with the camera and compare it with the record (after a restart, while paused):
        record a ``table_reconciled`` event; a match (or nothing to compare) lets the table resume
        (``resume``, or a resume requested meanwhile), a mismatch or an unreadable table holds it paused with
        the reasons for the operator."""
        from controller.table_camera import CameraError, describe, differences

        resume_to = self.machine.resume_to or S.IDLE
        expected, why = self._expected_scene(resume_to)
        result, diffs, frames, detail = "unchecked", [], 0, why
        if expected is not None:
            try:
                cam = await self._open_camera()
                cam.sync()
                read = await asyncio.to_thread(cam.read_table)
            except CameraError as exc:
                result, detail = "unreadable", str(exc)
            except Exception as exc:  # a bug in the camera path must not leave the table silently paused
                log.exception("re-reading the table failed")
                result, detail = "unreadable", f"internal error in the camera path: {exc}"
            else:
                frames = read.frames
                if read.scene is None or not read.stable:
                    result, detail = "unreadable", f"no stable reading of the table ({read.detail})"
                else:
                    diffs = differences(expected, read.scene)
                    result = "mismatch" if diffs else "match"
                    detail = describe(diffs)
        await self.record(TableReconciled(hand_id=self.hand_id, result=result, state=str(resume_to),
                                          differences=tuple(diffs), frames=frames, detail=detail,
                                          **self.clock.stamp()))
        hold = result in ("mismatch", "unreadable")
        self._check_pending = False
        self.table_check = {"result": result, "differences": diffs, "detail": detail, "hold": hold,
                            "frames": frames}
        if result == "mismatch":
            self._say(f"the table differs from the record: {detail}")
        elif result == "unreadable":
            self._say(f"the camera could not read the table: {detail}")
        else:
            self._say(f"table re-read after the restart: {result}" + (f" ({detail})" if detail else ""))
        self.notifier.status(self.snapshot().prompt)
        want = resume or self._resume_after_check
        self._resume_after_check = False
        if not hold and want and self.machine.state is S.PAUSED:
            self._resume("resume")
        return self.table_check

    # --- restart --------------------------------------------------------------------------------------------
    async def _restore(self) -> None:
        """Resume the unfinished hand from the store: paused at the state it was in, dice kept."""
        done = self.store.results()
        self._hands = self.store.hand_count()
        self._played = sum(1 for _, r in done if r.get("status") == "played")
        self._device_seq = self.store.next_seq(f"{self.cfg.table.id}/table")
        if done:  # the deal passes as the last recorded hand said
            self.dealer = done[-1][1].get("next_dealer", done[-1][1].get("dealer", 0))
        unfinished = self.store.unfinished_hands()
        if not unfinished:
            return
        self.hand_id = unfinished[-1]
        events = self.store.events(self.hand_id)
        self.seq = self.store.next_seq(self.hand_id)
        last = S.IDLE
        dice = []
        for ev in events:
            if isinstance(ev, TableStateChanged):
                last = S(ev.state)
            elif isinstance(ev, DiceRolled):
                dice.append(tuple(ev.values))
            elif isinstance(ev, HandStarted):
                self.dealer = ev.dealer
        self.dice = tuple(dice)
        if last in (S.FAULT, S.PAUSED):
            prev = [S(e.previous) for e in events if isinstance(e, TableStateChanged) and S(e.state) is last]
            last = prev[-1] if prev else S.IDLE
        if last is S.IDLE:
            return
        # the table was stopped while the service was down: come back paused, resume to where it was
        self.machine = TableMachine(state=S.PAUSED, resume_to=last)
        self._restored = True
        self._check_pending = bool(self.reconcile_after_restart)
        await self.record(TableStateChanged(hand_id=self.hand_id, state="paused", previous=str(last),
                                            trigger="restart", detail="service restarted", **self.clock.stamp()))
        self._say(f"restarted: hand {self.hand_id} paused at {last}; press JUDGE to resume")

    def hands_played(self) -> int:
        return self._played

    # --- the view -------------------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        prompt, fault = self.machine.prompt, self.machine.fault
        chk = self.table_check
        if self.machine.state is S.PAUSED and chk is not None and chk.get("hold"):
            if chk["result"] == "mismatch":
                prompt = ("Paused: the table differs from the record. Put it back as listed, then press JUDGE to "
                          "re-read (or the judge accepts the table as it lies: Accept on the web page).")
                fault = "Table differs from the record: " + chk["detail"]
            else:
                prompt = "Paused: check the table by eye against the record, then press JUDGE to resume."
                fault = "Camera could not read the table: " + chk["detail"]
        if self.resume_error and self.machine.state in (S.PAUSED, S.FAULT):
            prompt = f"{prompt} Not resumed: {self.resume_error}"
        if self.stopper.state == "failed":
            fault = (f"EMERGENCY STOP NOT CONFIRMED (attempt {self.stopper.attempts}, retrying): "
                     f"{self.stopper.error}" + (f" — {fault}" if fault else ""))
        return Snapshot(
            table=self.cfg.table.id, profile=self.profile, state=str(self.machine.state),
            prompt=prompt, hand_id=self.hand_id, dice=self.dice, shuffle=self.shuffle_progress,
            fault=fault, hands_done=self._played, last_result=self.last_result,
            log=list(self._log), table_check=chk, estop=self.stopper.view(), resume_error=self.resume_error,
            store=self.writer.stats.view(), loop=self.loop_lag.view(),
            hall=self.hall.view() if self.hall is not None else None, referee=self.play_source.view(),
        )


def _config_camera(svc: TableService) -> Any:
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


def _secure_dice(throws: int) -> tuple[tuple[int, int], ...]:
    """Electronic dice from the OS's cryptographically secure generator."""
    return tuple((secrets.randbelow(6) + 1, secrets.randbelow(6) + 1) for _ in range(throws))
