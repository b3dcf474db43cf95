"""The referee in the table service: the play source that follows the hand from the camera and the call
buttons, keeps every input durable, and hands the confirmed result to the service.

:class:`RefereePlay` is the service's :class:`~controller.service.PlaySource`. For each hand it runs a
:class:`RefereeSession`:

* its inputs — the service's own ``hand_started`` and ``dice_rolled``, camera observations, call buttons,
  answers, judge corrections, the clock's ticks — are appended to the store (stream ``<hand>/referee``)
  *before* the referee (:class:`controller.referee.core.Referee`) acts on them;
* what the referee concludes (verdicts, questions, claim timings, the confirmation) goes to
  ``<hand>/verdicts`` and, each verdict, to the console; the hand's record (the hand machine's log) to
  ``<hand>/game`` (``<hand>/game.r<N>`` after the N-th judge correction: the store never rewrites);
* after a crash the session rebuilds the referee from ``<hand>/referee`` (nothing is fed twice, nothing
  lost) and play goes on; the service has re-read the table and compared it with the record meanwhile.

Where the inputs come from: a camera feed (:mod:`controller.referee.camera`) reading the configured
camera, and — in demo mode — a :class:`~controller.referee.actor.BotActor` whose bots play the hand at the
emulated table and press the buttons (:class:`controller.play_sources.BotPlay`).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from controller.referee.core import Referee
from controller.referee.verdicts import verdict_lines
from controller.referee.view import public_view
from controller.service import PlaySource
from rules.events import (
    ButtonPressed,
    DiceRolled,
    Event,
    HandStarted,
    JudgeCorrection,
    QuestionAnswered,
    QuestionAsked,
    RefereeTick,
    Violation,
)

log = logging.getLogger("mahjong_table.referee")

TICK_S = 0.2


def record_stream(hand_id: str, revision: int) -> str:
    """The store stream of a hand's record at a revision (0: the first; N: after the N-th correction)."""
    return f"{hand_id}/game" if revision == 0 else f"{hand_id}/game.r{revision}"


def latest_record(store: Any, hand_id: str) -> list[Event]:
    """A hand's record as the store has it, at its latest revision."""
    rev = 0
    while store.count(record_stream(hand_id, rev + 1)):
        rev += 1
    return store.events(record_stream(hand_id, rev))


class RefereeSession:
    """One refereed hand in the service (see the module's docstring)."""

    def __init__(self, svc: Any, hand_id: str, *, actor: Any = None, camera: Any = None):
        self.svc = svc
        self.hand_id = hand_id
        cfg = svc.cfg
        self.referee = Referee(svc.profile, window_s=cfg["referee.claim_window_s"] or None,
                               reveal_wait_s=cfg["referee.reveal_wait_s"])
        self.actor = actor
        self.camera = camera
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.inputs = f"{hand_id}/referee"
        self.outputs = f"{hand_id}/verdicts"
        self.out_seq = 0
        self.written: dict[int, int] = {}  # revision -> record events in the store
        self.verdicts: list[Violation] = []
        self.replayed = 0  # inputs rebuilt from the store after a restart

    # --- inputs -------------------------------------------------------------------------------------
    def put(self, ev: Event) -> None:
        """An input from anywhere on the loop's thread (buttons, the camera feed, the web page)."""
        self.queue.put_nowait(ev)

    def take(self, ev: Event) -> list[Event]:
        """Store the input, then let the referee act on it; store and show what it concluded."""
        store = self.svc.store
        store.append(self.inputs, len(self.referee.inputs), ev)
        out = self.referee.feed(ev)
        self._emit(out)
        return out

    def tick(self, t: float) -> list[Event]:
        """Time passed: when something was due, that is an input like any other."""
        if self.referee.open_question is not None or not self.referee.due(t):
            return []
        return self.take(RefereeTick(t_mono=t, t_wall=self.svc.clock.wall(), hand_id=self.hand_id))

    def _emit(self, out: list[Event], replay: bool = False) -> None:
        store = self.svc.store
        for o in out:
            if store.append(self.outputs, self.out_seq, o) or not replay:
                self._show(o)
            self.out_seq += 1
        self._write_record()

    def _show(self, o: Event) -> None:
        if isinstance(o, Violation):
            self.verdicts.append(o)
            en, ru = verdict_lines(o)
            msg = f"VERDICT {self.hand_id}: {en} | {ru}"
            print(msg, flush=True)
            self.svc._say(en)
        elif isinstance(o, QuestionAsked):
            self.svc._say(f"question to the operator: {o.message}")
            print(f"QUESTION {self.hand_id} #{o.question_id}: {o.message} | {o.message_ru}", flush=True)
        elif o.TYPE == "correction_applied":
            self.svc._say(f"judge correction: {o.change}")  # type: ignore[attr-defined]
        elif o.TYPE == "result_confirmed":
            self.svc._say(f"result confirmed by {o.by}: {list(o.deltas)}")  # type: ignore[attr-defined]

    def _write_record(self) -> None:
        """The record so far (at the referee's revision) into the store; an event the camera may still
        complete (a kong's face-down tiles, the tile an added kong took) waits until it is complete."""
        ref = self.referee
        rev = ref.revision
        stream = record_stream(self.hand_id, rev)
        n = self.written.get(rev, self.svc.store.count(stream))
        upto = len(ref.game_log) if ref.settled else ref.final_length()
        for i in range(n, upto):
            self.svc.store.append(stream, i, ref.game_log[i])
        self.written[rev] = max(n, upto)

    # --- the hand -----------------------------------------------------------------------------------
    def restore(self) -> None:
        """Rebuild the referee from the store (after a restart), else start it from the service's record."""
        store = self.svc.store
        stored = store.events(self.inputs)
        for ev in stored:
            self._emit(self.referee.feed(ev), replay=True)
        self.replayed = len(stored)
        had = sum(1 for ev in stored if isinstance(ev, HandStarted | DiceRolled))
        setup = [ev for ev in store.events(self.hand_id) if isinstance(ev, HandStarted | DiceRolled)]
        for ev in setup[had:]:  # the hand as the service recorded it: its start and the dice
            self.take(ev)

    async def run(self) -> dict[str, Any]:
        self.restore()
        tasks = []
        if self.camera is not None:
            tasks.append(asyncio.create_task(self.camera.run(self)))
        if self.actor is not None:
            tasks.append(asyncio.create_task(self.actor.run(self)))
        tasks.append(asyncio.create_task(self._ticks()))
        try:
            while self.referee.confirmed is None:
                try:
                    ev = await asyncio.wait_for(self.queue.get(), timeout=TICK_S)
                except TimeoutError:
                    continue
                self.take(ev)
                for t in tasks:
                    if t.done() and t.exception() is not None:
                        raise t.exception()  # type: ignore[misc]
        finally:
            for t in tasks:
                t.cancel()
        self._write_record()
        return self.result()

    async def _ticks(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            if self.actor is None:  # with bots the actor keeps the (simulated) time
                self.tick(self.svc.clock.mono())

    def result(self) -> dict[str, Any]:
        r = self.referee.result()
        r["verdicts"] = [verdict_lines(v)[0] for v in self.referee.violations()]
        return r

    # --- what people do -----------------------------------------------------------------------------
    def answer(self, text: str, by: str = "operator") -> bool:
        q = self.referee.open_question
        if q is None:
            return False
        self.put(QuestionAnswered(question_id=q.event.question_id, answer=text, by=by, hand_id=self.hand_id,
                                  **self.svc.clock.stamp()))
        return True

    def correct(self, by: str, op: str, index: int, event: dict[str, Any] | None = None, to: int = -1,
                reason: str = "") -> None:
        self.put(JudgeCorrection(by=by, op=op, index=index, event=event or {}, to=to, reason=reason,
                                 hand_id=self.hand_id, **self.svc.clock.stamp()))

    def button(self, ev: ButtonPressed) -> None:
        """A call button or the judge's confirmation, as the service recorded it."""
        if ev.button in ("call", "confirm"):
            self.put(ev)

    def view(self) -> dict[str, Any]:
        return public_view(self.referee)


class RefereePlay(PlaySource):
    """The referee as the table's play source (``actor``: bots playing at the emulated table, demo mode;
    ``camera``: read the configured camera live)."""

    def __init__(self, actor: Any = None, camera: bool = True):
        self.actor = actor
        self.camera = camera
        self.session: RefereeSession | None = None

    async def play(self, svc: Any, hand_id: str) -> dict[str, Any]:
        camera = None
        if self.camera and self.actor is None:
            from controller.referee.feed import CameraFeed

            camera = CameraFeed()
        actor = self.actor.for_hand() if self.actor is not None else None
        self.session = RefereeSession(svc, hand_id, actor=actor, camera=camera)
        return await self.session.run()

    def button(self, ev: ButtonPressed) -> None:
        if self.session is not None:
            self.session.button(ev)

    def view(self) -> dict[str, Any] | None:
        return self.session.view() if self.session is not None else None

    def answer(self, text: str, by: str = "operator") -> bool:
        return self.session is not None and self.session.answer(text, by)

    def record(self, svc: Any, hand_id: str) -> list[Event]:
        """The hand's record (what lies on the table by the referee) for the service's re-read."""
        s = self.session
        if s is not None and s.hand_id == hand_id:
            return list(s.referee.game_log)
        return latest_record(svc.store, hand_id)
