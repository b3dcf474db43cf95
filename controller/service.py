"""The table service: one asyncio loop that owns the table's cycle and never loses a result.

It composes a table back-end (serial MCU or direct GPIO), the GPIO panel, the durable event store, the
pure cycle machine (:mod:`controller.table_machine`), a play source (the referee; in demo mode, bots),
the table camera (:mod:`controller.table_camera`: physical dice, the re-read after a restart) and the web
page. Every state change, device event and dice throw is appended to the store before it is acted on, so
after a crash or power cut the service replays the unfinished hand: dice already drawn are reused (never
redrawn), the table comes back *paused* at the state it was in, the camera re-reads the table and it is
compared with the record (a ``table_reconciled`` event); when they match the operator (or demo mode)
resumes it, when not it stays paused and the differences are shown until the table is put right.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.backends import BackendFault, TableBackend
from controller.clock import Clock
from controller.config import Config
from controller.event_store import EventStore
from controller.notify import Notifier
from controller.table_machine import S, TableMachine
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

log = logging.getLogger("mahjong_table.service")


def stacks_per_seat(profile: str, players: int, dealer: int) -> tuple[int, tuple[int, ...]]:
    """(tile count, stacks on each seat's side) for the MCU's configure command.

    The profile's sections are counted from the dealer in turn order (rules.wall); the MCU wants them
    by physical side.
    """
    from rules.wall import wall_spec

    spec = wall_spec(profile, players)
    stacks = [0, 0, 0, 0]
    first = spec.sides.index(dealer) if dealer in spec.sides else 0
    for i, n in enumerate(spec.sections):
        stacks[spec.sides[(first + i) % len(spec.sides)]] = n
    return spec.n_tiles, tuple(stacks)


def dice_throws(profile: str, players: int) -> int:
    from rules.wall import wall_spec

    return wall_spec(profile, players).throws


class PlaySource:
    """Who decides that the hand in play is over, and with what result (the referee's place)."""

    async def play(self, svc: TableService, hand_id: str) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def button(self, ev: ButtonPressed) -> None:
        """A call button or the judge's confirmation during play (the referee takes them)."""

    def view(self) -> dict[str, Any] | None:
        """The hand as the play source follows it, for the web page (the referee's public view)."""
        return None

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
    ):
        self.cfg = cfg
        self.backend = backend
        self.store = store
        self.panel = panel
        self.clock = clock or Clock()
        self.play_source = play or ManualPlay()
        self.notifier = notifier or Notifier()
        self.auto = auto  # demo mode: press START/confirm by itself
        self.dice_source = dice_source or _secure_dice
        self.machine = TableMachine()
        self.profile = cfg["table.profile"]
        self.players = cfg["table.players"]
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
        self.table_check: dict[str, Any] | None = None  # the last re-read after a restart (web page, prompts)
        self._check_task: asyncio.Task | None = None
        self._resume_after_check = False
        self._restored = False
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

    def record(self, ev: Event) -> None:
        """Append to the store (durably) before acting on it."""
        if not self.hand_id:
            return
        self.store.append(self.hand_id, self.seq, ev)
        self.seq += 1

    def _device_event(self, ev: DeviceEvent) -> None:
        # called from the back-end's thread or the loop
        if self._loop is None:
            return
        self._loop.call_soon_threadsafe(self._on_device_event, ev)

    def _on_device_event(self, ev: DeviceEvent) -> None:
        if isinstance(ev, ShuffleProgress):
            self.shuffle_progress = {"built": list(ev.stacks_built), "target": list(ev.stacks_target)}
            return  # progress is a state, not history: only faults and outcomes are kept
        if isinstance(ev, DeviceFault | ButtonPressed):
            self.record(ev)

    def _button_from_thread(self, ev: ButtonPressed) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.press, ev.button, ev)

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
                self.trigger("retry")
            elif st is S.PAUSED:
                self.request_resume()
        if button == "abort" and st is S.FAULT:
            self.trigger("abort")
        if button == "accept" and st is S.PAUSED:
            self.accept_table()
        if button in ("call", "confirm"):  # the referee's: claims, and signing a hand's result
            self.play_source.button(ev or ButtonPressed(button=button, **self.clock.stamp()))
        waiter = self._buttons.get(button)
        if waiter is not None:
            waiter.set()

    async def wait_button(self, button: str) -> None:
        ev = self._buttons.setdefault(button, asyncio.Event())
        ev.clear()
        if self.auto:
            await asyncio.sleep(0.05)
            return
        await ev.wait()

    def request_resume(self) -> None:
        """Resume a paused table, unless the table must first be seen to match the record: while the re-read
        after a restart runs, resume when it matches; after a mismatch, read the table again (the operator
        put it right) and resume only if it matches now."""
        if self._check_task is not None and not self._check_task.done():
            self._resume_after_check = True
            return
        chk = self.table_check
        if chk is not None and chk.get("hold"):
            if chk["result"] == "mismatch":
                self._check_task = asyncio.create_task(self.reconcile(resume=True))
                return
            chk["hold"] = False  # unreadable: the operator checked the table by eye and resumes
        self.trigger("resume")

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
        self.trigger("resume")

    def trigger(self, name: str, detail: str = "") -> None:
        assert self._triggers is not None
        self._triggers.put_nowait((name, detail))

    # --- the loop -----------------------------------------------------------------------------------------
    async def run(self, stop: asyncio.Event, hands: int | None = None) -> None:
        """Run until ``stop`` is set (or ``hands`` hands are finished, for demos and tests)."""
        self._loop = asyncio.get_running_loop()
        self._triggers = asyncio.Queue()
        caps = await self.backend.start()
        self._say(f"table back-end {self.backend.name} up: {caps}")
        self._restore()
        self.notifier.ready(self.snapshot().prompt)
        watchdog = asyncio.create_task(self._watchdog(stop))
        if self.auto and self.machine.state is S.IDLE:
            self.trigger("start")
        if self._restored and self.machine.state is S.PAUSED:
            if self.cfg["camera.reconcile"]:
                self._check_task = asyncio.create_task(self.reconcile(resume=self.auto))
            elif self.auto:
                self.trigger("resume")
        done0 = self.hands_played()
        try:
            while not stop.is_set():
                if hands is not None and self.hands_played() - done0 >= hands and self.machine.state is S.IDLE:
                    break
                try:
                    name, detail = await asyncio.wait_for(self._triggers.get(), timeout=0.2)
                except TimeoutError:
                    self.healthy_at = time.monotonic()
                    continue
                self.healthy_at = time.monotonic()
                self._apply(name, detail)
        finally:
            watchdog.cancel()
            if self._op is not None:
                self._op.cancel()
            if self._check_task is not None:
                self._check_task.cancel()
            if self.camera is not None:
                self.camera.close()
            self.notifier.stopping()
            await self.backend.close()

    async def _watchdog(self, stop: asyncio.Event) -> None:
        interval = self.notifier.watchdog_interval()
        if not interval or not self.cfg["service.watchdog"]:
            return
        while not stop.is_set():
            await asyncio.sleep(interval)
            if time.monotonic() - self.healthy_at < 2 * interval:  # ping only while the loop is healthy
                self.notifier.watchdog()
                self.notifier.status(self.snapshot().prompt)

    def _apply(self, name: str, detail: str) -> None:
        if not self.machine.can(name):
            self._say(f"ignored {name!r} in state {self.machine.state}")
            return
        if name == "start":
            self._new_hand()
        fault = self.machine.fault
        t = self.machine.fire(name, detail)
        self.record(TableStateChanged(hand_id=self.hand_id, state=str(t.after), previous=str(t.before),
                                      trigger=name, detail=detail, **self.clock.stamp()))
        self._say(f"{t.before} --{name}--> {t.after}" + (f": {detail}" if detail else ""))
        if self.panel is not None:
            self.panel.status({S.FAULT: "fault", S.IDLE: "ok", S.PAUSED: "busy"}.get(t.after, "busy"))
        if self._op is not None and not self._op.done() and t.after in (S.FAULT, S.PAUSED):
            self._op.cancel()
        if t.after is S.PAUSED:
            asyncio.create_task(self.backend.estop())
        if t.before is S.PAUSED and self.table_check is not None:
            self.table_check["hold"] = False
        if name == "abort":  # the hand never reached play: closed, with the reason, never resumed
            self.store.finish_hand(self.hand_id, {"hand_id": self.hand_id, "status": "aborted", "reason": fault},
                                   self.clock.wall())
        self.notifier.status(self.machine.prompt)
        if t.after in (S.COLLECTING, S.SHUFFLING, S.WALLS_UP, S.DICE, S.DEALING, S.PLAY, S.SCORING):
            self._op = asyncio.create_task(self._operate(t.after))
        if t.after is S.FAULT and self.auto:
            self._loop.call_later(0.05, self.trigger, "abort")
        if t.after is S.IDLE and self.auto:
            self._loop.call_later(0.05, self.trigger, "start")

    def _new_hand(self) -> None:
        n = len(self.store.results()) + len(self.store.unfinished_hands()) + 1
        self.hand_id = f"{self.cfg['table.id']}-{n:05d}"
        self.seq = 0
        self.dice = ()
        self.shuffle_progress = {}
        self.table_check = None
        self.store.start_hand(self.hand_id, self.profile, self.clock.wall())
        self.record(HandStarted(hand_id=self.hand_id, profile=self.profile, n_players=self.players,
                                dealer=self.dealer, options=dict((self.last_result or {}).get("next_options", {})),
                                **self.clock.stamp()))

    async def _operate(self, st: S) -> None:
        try:
            if st is S.COLLECTING:
                await self.backend.collect()
            elif st is S.SHUFFLING:
                n, stacks = stacks_per_seat(self.profile, self.players, self.dealer)
                await self.backend.configure(n, stacks)
                await self.backend.shuffle()
            elif st is S.WALLS_UP:
                await self.backend.raise_walls()
            elif st is S.DICE:
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
                if self.store.finish_hand(self.hand_id, result, self.clock.wall()):
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
            self.record(DeviceFault(code=exc.code, part=exc.part, message=exc.message, **self.clock.stamp()))
            self.trigger("fault", exc.message)
        except Exception as exc:  # a bug in one operation must not take the table down: fault, tell the operator
            log.exception("operation %s failed", st)
            self.trigger("fault", f"internal error in {st}: {exc}")

    async def _throw_dice(self) -> None:
        throws = dice_throws(self.profile, self.players)
        if len(self.dice) >= throws:  # drawn before a crash: replayed from the store, never redrawn
            self._say(f"dice (from the record): {self.dice}")
            return
        physical = self.cfg["table.dice"] == "physical"
        while len(self.dice) < throws:  # a throw recorded before a crash is kept; only the rest are thrown
            i = len(self.dice)
            if physical:
                pair, source = await self._physical_throw(), "camera"
            else:
                pair, source = tuple(self.dice_source(throws - i)[0]), "electronic"
            self.record(DiceRolled(hand_id=self.hand_id, seat=self.dealer, values=tuple(pair),
                                   purpose="break" if i == 0 else f"break{i + 1}", source=source,
                                   **self.clock.stamp()))
            self.dice = self.dice + (tuple(pair),)
        self._say(f"dice: {self.dice}" + (" (read by the camera)" if physical else ""))

    async def _physical_throw(self) -> tuple[int, ...]:
        """Pulse the dice motor, let the dice settle, read them by camera (a few frames)."""
        from controller.table_camera import CameraError

        await self.backend.dice(self.cfg["table.dice_pulse_ms"])
        await asyncio.sleep(self.cfg["camera.dice_settle_s"])
        try:
            cam = self._open_camera()
            cam.sync()
            values = await asyncio.to_thread(cam.read_dice, 2)
        except CameraError as exc:
            raise BackendFault("camera_fault", "camera", f"dice not read: {exc}") from None
        if values is None:
            raise BackendFault("dice_unreadable", "dice",
                               "dice not readable (cocked, stacked or out of view): press START to roll again")
        return values

    def open_camera(self) -> Any:
        """The table camera, opened on first use (raises controller.table_camera.CameraError)."""
        return self._open_camera()

    def _open_camera(self) -> Any:
        if self.camera is None:
            self.camera = self.camera_factory(self)
        return self.camera

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
                cam = self._open_camera()
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
        self.record(TableReconciled(hand_id=self.hand_id, result=result, state=str(resume_to),
                                    differences=tuple(diffs), frames=frames, detail=detail, **self.clock.stamp()))
        hold = result in ("mismatch", "unreadable")
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
            self.trigger("resume")
        return self.table_check

    # --- restart --------------------------------------------------------------------------------------------
    def _restore(self) -> None:
        """Resume the unfinished hand from the store: paused at the state it was in, dice kept."""
        done = self.store.results()
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
        self.record(TableStateChanged(hand_id=self.hand_id, state="paused", previous=str(last), trigger="restart",
                                      detail="service restarted", **self.clock.stamp()))
        self._say(f"restarted: hand {self.hand_id} paused at {last}; press JUDGE to resume")

    def hands_played(self) -> int:
        return sum(1 for _, r in self.store.results() if r.get("status") == "played")

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
        return Snapshot(
            table=self.cfg["table.id"], profile=self.profile, state=str(self.machine.state),
            prompt=prompt, hand_id=self.hand_id, dice=self.dice, shuffle=self.shuffle_progress,
            fault=fault, hands_done=self.hands_played(), last_result=self.last_result,
            log=list(self._log), table_check=chk, referee=self.play_source.view(),
        )


def _config_camera(svc: TableService) -> Any:
    """The table camera of the service's configuration (``camera.*``; the simulated table by default)."""
    from controller.table_camera import open_table_camera

    return open_table_camera(svc.cfg, backend=svc.backend, record=svc.table_record)


def _secure_dice(throws: int) -> tuple[tuple[int, int], ...]:
    """Electronic dice from the OS's cryptographically secure generator."""
    return tuple((secrets.randbelow(6) + 1, secrets.randbelow(6) + 1) for _ in range(throws))
