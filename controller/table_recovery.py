"""The table service's recovery: after a restart and after a stop.

* **After a restart** (:meth:`TableRecovery.restore`): the store is read back (:func:`read_back`: the hands
  numbered and played, the deal, the unfinished hand with its dice — reused, never redrawn) and an
  unfinished hand comes back *paused* at the state it was in. The camera then re-reads the table and it is
  compared with the record (:meth:`TableRecovery.reconcile`, a ``table_reconciled`` event): a match (or
  nothing to compare) lets the table resume, a mismatch or an unreadable table holds it paused with the
  reasons until the table is put right (or the judge accepts it as it lies: :meth:`TableRecovery.accept_table`).
* **After a stop** (:meth:`TableRecovery.resume`: ``resume`` from PAUSED, ``retry`` from FAULT): only once the
  supervised e-stop is confirmed and the back-end recovered (:meth:`TableRecovery.recover`: the MCU reset
  clears its e-stop latch, the status is re-read).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from controller.backends import BackendFault
from controller.play_source import PlaySource, PlayTable
from controller.table_machine import S, TableMachine
from controller.table_snapshot import TableCheck
from rules.events import (
    DeviceFault,
    DiceRolled,
    Event,
    HandStarted,
    JSONObject,
    TableReconciled,
    TableStateChanged,
    as_int,
)

if TYPE_CHECKING:
    from controller.backends import TableBackend
    from controller.estop import EStopSupervisor
    from controller.event_store import EventStore
    from controller.notify import Notifier
    from controller.table_snapshot import Snapshot
    from vision.scene_model import Scene

log = logging.getLogger("mahjong_table.service")

Dice = tuple[tuple[int, ...], ...]
T = TypeVar("T")


@dataclass(frozen=True)
class StoredTable:
    """What the store says of the table as the service starts."""

    hands_started: int  # hands in the store (the next one is numbered after them)
    hands_done: int  # hands recorded as played
    device_seq: int  # the next place in the table's own stream
    dealer: int | None  # who deals next, as the recorded hands say (None: the store does not say)
    hand_id: str = ""  # the unfinished hand ("": none)
    seq: int = 0  # the next place in its stream
    dice: Dice = ()  # its throws so far
    resume_to: S = S.IDLE  # the state it was in (IDLE: nothing to resume)


def read_back(store: EventStore, table_id: str) -> StoredTable:
    """The table as the store left it: the counts, the deal, the unfinished hand and where it stood."""
    done = store.results()
    dealer = None
    if done:  # the deal passes as the last recorded hand said
        dealer = as_int(done[-1][1].get("next_dealer", done[-1][1].get("dealer", 0)))
    started, played = store.hand_count(), sum(1 for _, r in done if r.get("status") == "played")
    device_seq = store.next_seq(f"{table_id}/table")
    unfinished = store.unfinished_hands()
    if not unfinished:
        return StoredTable(started, played, device_seq, dealer)
    hand_id = unfinished[-1]
    events = store.events(hand_id)
    last = S.IDLE
    dice = []
    for ev in events:
        if isinstance(ev, TableStateChanged):
            last = S(ev.state)
        elif isinstance(ev, DiceRolled):
            dice.append(tuple(ev.values))
        elif isinstance(ev, HandStarted):
            dealer = ev.dealer
    if last in (S.FAULT, S.PAUSED):
        prev = [S(e.previous) for e in events if isinstance(e, TableStateChanged) and S(e.state) is last]
        last = prev[-1] if prev else S.IDLE
    return StoredTable(started, played, device_seq, dealer, hand_id=hand_id, seq=store.next_seq(hand_id),
                       dice=tuple(dice), resume_to=last)


class RecoveryHost(PlayTable, Protocol):
    """What recovery uses of the table service (besides what a play source may: the record is the play
    source's)."""

    backend: TableBackend
    notifier: Notifier
    stopper: EStopSupervisor
    play_source: PlaySource
    machine: TableMachine
    hand_id: str
    seq: int
    dice: Dice
    dealer: int
    hands_started: int
    hands_done: int
    device_seq: int

    def record(self, ev: Event) -> asyncio.Future[bool]: ...

    def note(self, text: str) -> None: ...

    def trigger(self, name: str, detail: str = "") -> None: ...

    def spawn(self, coro: Coroutine[object, None, T], name: str) -> asyncio.Task[T]: ...

    def snapshot(self) -> Snapshot: ...

class TableRecovery:
    """Restart recovery and the resume after a stop, for one table service (see the module's docstring)."""

    def __init__(self, table: RecoveryHost, reconcile_after_restart: bool):
        self.table = table
        self.reconcile_after_restart = reconcile_after_restart
        self.table_check: TableCheck | None = None  # the last re-read after a restart (web page, prompts)
        self.check_task: asyncio.Task[TableCheck] | None = None
        self.resume_after_check = False
        self.check_pending = False  # restored paused: the re-read after the restart is still to come
        self.restored = False
        self.recovering: asyncio.Task[None] | None = None
        self.resume_error = ""

    def tasks(self) -> list[asyncio.Task[TableCheck] | asyncio.Task[None]]:
        """Its tasks still to be stopped at shutdown: the re-read, the recovery."""
        return [t for t in (self.check_task, self.recovering) if t is not None]

    # --- after a restart --------------------------------------------------------------------------------
    async def restore(self) -> None:
        """Resume the unfinished hand from the store: paused at the state it was in, dice kept."""
        t = self.table
        back = read_back(t.store, t.cfg.table.id)
        t.hands_started, t.hands_done, t.device_seq = back.hands_started, back.hands_done, back.device_seq
        if back.dealer is not None:
            t.dealer = back.dealer
        if not back.hand_id:
            return
        t.hand_id, t.seq, t.dice = back.hand_id, back.seq, back.dice
        last = back.resume_to
        if last is S.IDLE:
            return
        # the table was stopped while the service was down: come back paused, resume to where it was
        t.machine = TableMachine(state=S.PAUSED, resume_to=last)
        self.restored = True
        self.check_pending = bool(self.reconcile_after_restart)
        await t.record(TableStateChanged(hand_id=t.hand_id, state="paused", previous=str(last),
                                         trigger="restart", detail="service restarted", **t.clock.stamp()))
        t.note(f"restarted: hand {t.hand_id} paused at {last}; press JUDGE to resume")

    def after_restart(self, auto: bool) -> None:
        """The loop runs: re-read a table restored paused (demo mode: resume it when it matches)."""
        if not (self.restored and self.table.machine.state is S.PAUSED):
            return
        if self.reconcile_after_restart:
            self.check_task = self.table.spawn(self.reconcile(resume=auto), "reconcile")
        elif auto:
            self.request_resume()

    def table_record(self) -> tuple[list[Event], tuple[int, ...]]:
        """What the record says lies on the table: the hand's game events so far and its dice."""
        t = self.table
        if not t.hand_id:
            return [], ()
        return t.play_source.record(t, t.hand_id), (t.dice[-1] if t.dice else ())

    def expected_scene(self, resume_to: S) -> tuple[Scene | None, str]:
        """(the table the record gives, or None with the reason it cannot be compared)."""
        from controller.table_camera import empty_scene

        t = self.table
        if resume_to is S.COLLECTING:
            return None, "tiles were being collected"
        if resume_to in (S.SHUFFLING, S.WALLS_UP, S.DICE):
            return empty_scene(t.profile, t.players), ""  # the tiles are in the machine and the walls
        game, _ = self.table_record()
        if not game:
            return None, "no game record for this hand to compare with"
        from vision.scene_game import scenes_from_events

        return scenes_from_events(t.profile, game)[-1], ""

    async def reconcile(self, resume: bool = False) -> TableCheck:
        """Re-read the table with the camera and compare it with the record (after a restart, while paused):
        record a ``table_reconciled`` event; a match (or nothing to compare) lets the table resume
        (``resume``, or a resume requested meanwhile), a mismatch or an unreadable table holds it paused with
        the reasons for the operator."""
        t = self.table
        resume_to = t.machine.resume_to or S.IDLE
        expected, why = self.expected_scene(resume_to)
        diffs: list[JSONObject] = []
        result, frames, detail = "unchecked", 0, why
        if expected is not None:
            result, diffs, frames, detail = await self.read_against(expected)
        await t.record(TableReconciled(hand_id=t.hand_id, result=result, state=str(resume_to),
                                       differences=tuple(diffs), frames=frames, detail=detail, **t.clock.stamp()))
        hold = result in ("mismatch", "unreadable")
        self.check_pending = False
        check: TableCheck = {"result": result, "differences": diffs, "detail": detail, "hold": hold,
                             "frames": frames}
        self.table_check = check
        if result == "mismatch":
            t.note(f"the table differs from the record: {detail}")
        elif result == "unreadable":
            t.note(f"the camera could not read the table: {detail}")
        else:
            t.note(f"table re-read after the restart: {result}" + (f" ({detail})" if detail else ""))
        t.notifier.status(t.snapshot().prompt)
        want = resume or self.resume_after_check
        self.resume_after_check = False
        if not hold and want and t.machine.state is S.PAUSED:
            self.resume("resume")
        return check

    async def read_against(self, expected: Scene) -> tuple[str, list[JSONObject], int, str]:
        """(result, differences, frames read, detail) of the camera's stable read against ``expected``."""
        from controller.table_camera import CameraError, describe, differences, unread_tiles

        try:
            cam = await self.table.open_camera()
            cam.sync()
            read = await asyncio.to_thread(cam.read_table)
        except CameraError as exc:
            return "unreadable", [], 0, str(exc)
        except Exception as exc:  # a bug in the camera path must not leave the table silently paused
            log.exception("re-reading the table failed")
            return "unreadable", [], 0, f"internal error in the camera path: {exc}"
        if read.scene is None or not read.stable:
            return "unreadable", [], read.frames, f"no stable reading of the table ({read.detail})"
        diffs = differences(expected, read.scene)
        unread = unread_tiles(read.scene)
        detail = describe(diffs) if diffs else (f"{unread} tile(s) not read" if unread else "")
        return "mismatch" if diffs else "match", diffs, read.frames, detail

    def accept_table(self) -> None:
        """The judge's override after a re-read that does not match (the camera misreads, or the judge decides
        the table is right as it lies): recorded as ``table_reconciled`` ``accepted`` with the differences
        the judge overrode, then the table resumes."""
        t = self.table
        chk = self.table_check
        if chk is None or not chk.get("hold") or chk["result"] != "mismatch":
            return
        t.record(TableReconciled(hand_id=t.hand_id, result="accepted", state=str(t.machine.resume_to),
                                 differences=tuple(chk["differences"]),
                                 detail="judge accepted the table as it lies: " + chk["detail"],
                                 **t.clock.stamp()))
        chk.update({"result": "accepted", "hold": False})
        t.note("the judge accepted the table as it lies")
        self.resume("resume")

    def left_pause(self) -> None:
        """The table left PAUSED: a re-read no longer holds it."""
        if self.table_check is not None:
            self.table_check["hold"] = False

    # --- after a stop -----------------------------------------------------------------------------------
    def request_resume(self) -> None:
        """Resume a paused table, unless the table must first be seen to match the record: while the re-read
        after a restart runs, resume when it matches; after a mismatch, read the table again (the operator
        put it right) and resume only if it matches now."""
        if self.check_pending or (self.check_task is not None and not self.check_task.done()):
            self.resume_after_check = True  # the re-read after a restart comes first
            return
        chk = self.table_check
        if chk is not None and chk.get("hold"):
            if chk["result"] == "mismatch":
                self.check_task = self.table.spawn(self.reconcile(resume=True), "reconcile")
                return
            chk["hold"] = False  # unreadable: the operator checked the table by eye and resumes
        self.resume("resume")

    def resume(self, trigger: str) -> None:
        """``resume`` (from PAUSED) or ``retry`` (from FAULT), after the stop is cleared through the back-end."""
        if self.recovering is not None and not self.recovering.done():
            return  # already on its way
        stopper = self.table.stopper
        if stopper.state == "failed":  # (a stop still under way is awaited by the recovery)
            self.resume_error = f"the emergency stop is not confirmed by the table: {stopper.error}"
            self.table.note(f"cannot {trigger}: {self.resume_error}")
            return
        self.recovering = self.table.spawn(self.recover_then(trigger), f"recover-{trigger}")

    async def recover_then(self, trigger: str) -> None:
        t = self.table
        if not await t.stopper.wait():
            self.resume_error = f"the emergency stop is not confirmed by the table: {t.stopper.error}"
            t.note(f"cannot {trigger}: {self.resume_error}")
            return
        try:
            await self.recover()
        except BackendFault as exc:
            self.resume_error = exc.message
            t.record(DeviceFault(code=exc.code, part=exc.part, message=exc.message, **t.clock.stamp()))
            t.note(f"cannot {trigger}: {exc.message}")
            t.notifier.status(f"cannot {trigger}: {exc.message}")
            return
        self.resume_error = ""
        t.trigger(trigger)

    async def recover(self) -> None:
        """Clear a stop through the back-end (the MCU: reset, re-handshake, re-read the status)."""
        t = self.table
        if not t.stopper.latched:
            return
        info = await t.backend.recover()
        t.stopper.recovered()
        t.note(f"table recovered after the stop: {info}")
