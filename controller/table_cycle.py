"""The table's cycle as the service runs it: a trigger fired on the pure cycle machine
(:mod:`controller.table_machine`) is recorded before it is acted on, then the new state's operation runs on
the back-end (collect, shuffle, raise the walls, throw the dice, deal, play, score) and its outcome comes back
as the next trigger. A new hand is numbered and started in the store; the dice are thrown electronically or
read by the camera (physical dice), and a throw recorded before a crash is never thrown again.

Safety: a transition to FAULT or PAUSED cancels the running operation (whose ``finally`` switches every output
off) and asks the supervised e-stop to stop the motors, before anything is written; motion starts only after
the last stop was cleared. A fault that repeats in demo mode stops the cycle in FAULT instead of looping.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

from controller.backends import BackendFault
from controller.event_store import StoreError
from controller.play_source import HandResult, PlaySource, PlayTable
from controller.table_devices import StatusPanel, TableDevices
from controller.table_machine import MACHINE_STATES, S, TableMachine
from controller.table_recovery import Dice, TableRecovery
from rules.events import DeviceFault, DiceRolled, Event, HandStarted, TableStateChanged
from rules.profiles import registry

if TYPE_CHECKING:
    from controller.backends import TableBackend
    from controller.estop import EStopSupervisor
    from controller.hall_link.link import HallLink
    from controller.hall_link.seat_check import SeatState
    from controller.notify import Notifier
    from controller.store_writer import StoreWriter
    from rules.events import JSONObject

log = logging.getLogger("mahjong_table.service")

REPEATED_FAULT_LIMIT = 3  # demo mode: the same fault this many times in a row stops the cycle in FAULT
#: the states whose operation runs on the back-end (or waits for the play source, the players, the operator)
OPERATED = (S.COLLECTING, S.SHUFFLING, S.WALLS_UP, S.DICE, S.DEALING, S.PLAY, S.SCORING)


def stacks_per_seat(profile: str, players: int, dealer: int) -> tuple[int, tuple[int, ...]]:
    """(tile count, stacks on each seat's side) for the MCU's configure command.

    The profile's sections are counted from the dealer in turn order (rules.wall); the MCU wants them
    by physical side. A table of fewer players than sides still builds its four walls (the machine's four
    lifts; the players' sections are the rule set's count over them): a table of two of Red put all its tiles
    on two sides, more stacks than a lift holds, and the MCU refused to configure.
    """
    spec = registry.get(profile).wall_spec(players)  # the rule set's own wall (rules.wall for the built-in ones)
    stacks = [0, 0, 0, 0]
    first = spec.sides.index(dealer) if dealer in spec.sides else 0
    for i, n in enumerate(spec.sections):
        stacks[spec.sides[(first + i) % len(spec.sides)]] = n
    if 0 in stacks:
        k = spec.n_tiles // 2
        stacks = [k // 4 + (1 if i < k % 4 else 0) for i in range(4)]
    return spec.n_tiles, tuple(stacks)


def dice_throws(profile: str, players: int) -> int:
    return registry.get(profile).wall_spec(players).throws


def secure_dice(throws: int) -> tuple[tuple[int, int], ...]:
    """Electronic dice from the OS's cryptographically secure generator."""
    return tuple((secrets.randbelow(6) + 1, secrets.randbelow(6) + 1) for _ in range(throws))


class CycleHost(PlayTable, Protocol):
    """What the cycle uses of the table service (the play source it hands the hand to uses the rest)."""

    backend: TableBackend
    writer: StoreWriter
    panel: StatusPanel | None
    notifier: Notifier
    stopper: EStopSupervisor
    play_source: PlaySource
    auto: bool
    hall: HallLink | None
    loop: asyncio.AbstractEventLoop | None
    machine: TableMachine
    dealer: int
    hand_id: str
    seq: int
    dice: Dice
    last_result: HandResult | None
    hands_started: int
    hands_done: int
    devices: TableDevices
    recovery: TableRecovery
    dice_source: Callable[[int], tuple[tuple[int, int], ...]]  # electronic dice: (throws) -> pairs

    def record(self, ev: Event) -> asyncio.Future[bool]: ...

    def note(self, text: str) -> None: ...

    def trigger(self, name: str, detail: str = "") -> None: ...

    def store_failed(self, what: str, exc: BaseException) -> None: ...


class TableCycle:
    """The cycle of one table service (see the module's docstring)."""

    def __init__(self, table: CycleHost):
        self.table = table
        self.op: asyncio.Task[None] | None = None  # the running state's operation
        self.fault_streak: tuple[str, int] = ("", 0)  # (fault, times in a row without a finished hand)

    # --- a trigger ----------------------------------------------------------------------------------------
    async def apply(self, name: str, detail: str) -> None:
        """Fire ``name`` if the state has it: stop first (FAULT, PAUSED), record, then start the operation."""
        t = self.table
        if not t.machine.can(name):
            t.note(f"ignored {name!r} in state {t.machine.state}")
            return
        if name == "start" and not await self.may_start():
            return
        if name == "start":
            await self.new_hand()
        fault = t.machine.fault
        tr = t.machine.fire(name, detail)
        t.devices.new_state()  # presses count for the state they are made in
        if tr.after in (S.FAULT, S.PAUSED):  # stop first: a stop never waits for the disk
            if self.op is not None and not self.op.done():
                self.op.cancel()
            t.stopper.request(f"{tr.after}" + (f": {detail}" if detail else ""))
        durable = [t.record(TableStateChanged(hand_id=t.hand_id, state=str(tr.after), previous=str(tr.before),
                                              trigger=name, detail=detail, **t.clock.stamp()))]
        t.note(f"{tr.before} --{name}--> {tr.after}" + (f": {detail}" if detail else ""))
        if t.panel is not None:
            t.panel.status({S.FAULT: "fault", S.IDLE: "ok", S.PAUSED: "busy"}.get(tr.after, "busy"))
        if tr.before is S.PAUSED:
            t.recovery.left_pause()
        if name in ("abort", "not_started"):  # the hand never reached play: closed, with the reason, never resumed
            durable.append(t.writer.finish_hand(
                t.hand_id, {"hand_id": t.hand_id, "status": "aborted" if name == "abort" else name,
                            "reason": fault or detail}, t.clock.wall()))
            if t.hall is not None:
                t.hall.hand_finished(t.hand_id, {"status": "aborted"})
        t.notifier.status(t.machine.prompt)
        await asyncio.gather(*durable)  # the record first, then the motion it orders
        self.then(tr.after, detail)

    def then(self, after: S, detail: str) -> None:
        """What follows a transition once it is durable: the state's operation, demo mode's next trigger."""
        t = self.table
        if after in OPERATED:
            self.op = asyncio.create_task(self.operate(after), name=f"op-{after}")
        assert t.loop is not None
        if after is S.FAULT and t.auto and not self.fault_repeats(detail):
            t.loop.call_later(0.05, t.trigger, "abort")
        if after is S.IDLE and t.auto:
            t.loop.call_later(0.05, t.trigger, "start")

    async def may_start(self) -> bool:
        """A hall session's first hand waits for the seat check; no hand starts once the session is over."""
        t = self.table
        if t.hall is not None and t.hall.seat_check_due():
            await self.check_seats()  # the session's first hand: the badges against the hall's seating
        if t.hall is not None and not t.hall.may_start_hand():
            st = t.hall.session_state()
            t.note(("the seat check holds the first hand: " if st.reason == "seat_check" else
                    "the session is over at this table: no new hand starts (") + st.text_en
                   + ("" if st.reason == "seat_check" else ")"))
            return False
        return True

    def fault_repeats(self, detail: str) -> bool:
        """Demo mode: the same fault again without a finished hand in between? At the limit the cycle stays
        in FAULT with its reason (no abort → start → fault loop appending an aborted hand each time)."""
        same, n = self.fault_streak
        n = n + 1 if detail == same else 1
        self.fault_streak = (detail, n)
        if n < REPEATED_FAULT_LIMIT:
            return False
        self.table.note(f"the same fault {n} times in a row: the cycle stops here until it is fixed: {detail}")
        return True

    async def new_hand(self) -> None:
        t = self.table
        t.hands_started += 1
        t.hand_id = f"{t.cfg.table.id}-{t.hands_started:05d}"
        t.seq = 0
        t.dice = ()
        t.devices.shuffle_progress = {}
        t.recovery.table_check = None
        options = dict((t.last_result or {}).get("next_options", {}))
        if t.hall is not None:
            if t.hall.first_hand():  # a hall session is a new game: East as seated deals, nothing carried
                t.dealer, options = 0, {}  # over (the sticks left were the last game's, 004 Rules 3.6)
            t.hall.hand_started(t.hand_id)  # the hand's players and chairs are fixed as it starts
        started = t.writer.start_hand(t.hand_id, t.profile, t.clock.wall())
        await asyncio.gather(started, t.record(HandStarted(hand_id=t.hand_id, profile=t.profile,
                                                           n_players=t.players, dealer=t.dealer,
                                                           options=options, **t.clock.stamp())))

    # --- the state's operation ------------------------------------------------------------------------------
    async def operate(self, st: S) -> None:
        t = self.table
        try:
            if st in MACHINE_STATES or st is S.SCORING:  # motion: only after the last stop was cleared
                if not t.stopper.ok:
                    raise BackendFault("estop_failed", "none", "the emergency stop is not confirmed by the table: "
                                       + t.stopper.error)
                await t.recovery.recover()
            if await self.step(st):
                t.trigger("done")
        except asyncio.CancelledError:
            raise
        except BackendFault as exc:
            if not exc.reported:  # (the MCU's own FAULT event is recorded as it arrives)
                t.record(DeviceFault(code=exc.code, part=exc.part, message=exc.message, **t.clock.stamp()))
            t.trigger("fault", exc.message)
        except StoreError as exc:
            t.store_failed(f"operation {st}", exc)
        except Exception as exc:  # a bug in one operation must not take the table down: fault, tell the operator
            log.exception("operation %s failed", st)
            t.trigger("fault", f"internal error in {st}: {exc}")

    async def step(self, st: S) -> bool:
        """The operation of ``st``; True when it ends with ``done`` (else it fired its own trigger)."""
        t = self.table
        if st is S.COLLECTING:
            await t.backend.collect()
        elif st is S.SHUFFLING:
            n, stacks = stacks_per_seat(t.profile, t.players, t.dealer)
            await t.backend.configure(n, stacks, tile_set=(t.hands_started - 1) % t.cfg.table.tile_sets)
            await t.backend.shuffle()
        elif st is S.WALLS_UP:
            await t.backend.raise_walls()
        elif st is S.DICE:
            if not t.dice and t.hall is not None and not t.hall.may_start_hand():
                # a hand starts at its first dice throw with the walls built (000 §2.4.4, 004 Rules 5.9):
                # the session ended (gong, time, red zone) before it, so this hand is not played
                t.trigger("not_started", t.hall.session_state().text_en)
                return False
            await self.throw_dice()
        elif st is S.DEALING:
            await t.backend.indicators(turn=t.dealer, dealer=t.dealer)
            if t.panel is not None:
                t.panel.show_dealer(t.dealer)
                t.panel.show_turn(t.dealer)
            await t.devices.wait_button("start")  # players took their tiles (the camera will tell)
        elif st is S.PLAY:
            t.last_result = await t.play_source.play(t, t.hand_id)
            t.trigger("hand_over")
            return False
        elif st is S.SCORING:
            await self.score()
            return False
        return True

    async def score(self) -> None:
        """The hand's result into the store (once), the deal passed on, then the operator's confirmation."""
        t = self.table
        result = {"hand_id": t.hand_id, "status": "played", "dealer": t.dealer,
                  "dice": [list(d) for d in t.dice], **(t.last_result or {})}
        if await t.writer.finish_hand(t.hand_id, cast("JSONObject", result), t.clock.wall()):  # (HandResult: JSON)
            t.hands_done += 1
            if t.hall is not None:  # the session's count (its last hand, the chairs) at once
                t.hall.hand_finished(t.hand_id, result)
            self.fault_streak = ("", 0)
            t.note(f"hand {t.hand_id} recorded" + (f": {result['deltas']}" if "deltas" in result else ""))
        t.dealer = (t.last_result or {}).get("next_dealer", t.dealer)  # (the result's: the play source's)
        await t.devices.wait_button("start")
        await t.backend.lower_walls()
        t.trigger("confirmed")

    async def throw_dice(self) -> None:
        t = self.table
        throws = dice_throws(t.profile, t.players)
        if len(t.dice) >= throws:  # drawn before a crash: replayed from the store, never redrawn
            t.note(f"dice (from the record): {t.dice}")
            return
        physical = t.cfg.table.dice == "physical"
        while len(t.dice) < throws:  # a throw recorded before a crash is kept; only the rest are thrown
            i = len(t.dice)
            if physical:
                pair, source = await self.physical_throw(), "camera"
            else:
                pair, source = tuple(t.dice_source(throws - i)[0]), "electronic"
            durable = t.record(DiceRolled(hand_id=t.hand_id, seat=t.dealer, values=tuple(pair),
                                          purpose="break" if i == 0 else f"break{i + 1}", source=source,
                                          **t.clock.stamp()))
            t.dice = t.dice + (tuple(pair),)  # at once: a pause meanwhile never draws this throw again
            await durable
        t.note(f"dice: {t.dice}" + (" (read by the camera)" if physical else ""))

    async def physical_throw(self) -> tuple[int, ...]:
        """Pulse the dice motor, let the dice settle, read them by camera (a few frames)."""
        from controller.table_camera import CameraError

        t = self.table
        await t.backend.dice(t.cfg.table.dice_pulse_ms)
        await asyncio.sleep(t.cfg.camera.dice_settle_s)
        try:
            cam = await t.devices.open_camera()
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

    # --- a hall session's first hand ----------------------------------------------------------------------
    async def check_seats(self) -> SeatState | None:
        """Read the players' badges with the overhead camera and compare them with the hall's seating
        (controller/hall_link/seat_check.py); the result is kept, shown and sent to the hall."""
        from controller.hall_link.seat_check import check_frame
        from controller.table_camera import CameraError

        t = self.table
        hall = t.hall
        assert hall is not None
        seating = list(hall.context().get("players") or [])
        try:
            cam = await t.devices.open_camera()
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
            return hall.record_seats(None, unreadable=str(exc))
        except Exception as exc:  # a bug in the camera path must not take the table down: the judge decides
            logging.getLogger("mahjong_table.camera").exception("seat check")
            return hall.record_seats(None, unreadable=f"internal error in the camera path: {exc}")
        seats = hall.record_seats(result, calibrated=cal is not None)
        t.note(f"seat check: {seats.status}" + (": " + "; ".join(seats.problems_en) if seats.problems_en else ""))
        return seats
