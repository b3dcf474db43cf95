"""The referee in the table service: the play source that follows the hand from the camera and the call
buttons, keeps every input durable, and hands the confirmed result to the service.

:class:`RefereePlay` is the service's :class:`~controller.play_source.PlaySource`. For each hand it runs a
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
import time
from typing import Protocol

from controller.play_source import HandResult, PlaySource, PlayTable
from controller.referee import web as _web  # noqa: F401  (the judge's actions and the public notices)
from controller.referee.core import TICK_S, Referee
from controller.referee.verdicts import verdict_lines
from controller.referee.view import public_view
from rules.events import (
    ButtonPressed,
    CorrectionApplied,
    DiceRolled,
    Event,
    HandStarted,
    JSONObject,
    JudgeCorrection,
    QuestionAnswered,
    QuestionAsked,
    RefereeTick,
    ResultConfirmed,
    Violation,
)

#: A call button waits at most this long for the camera to read the frames taken before it (two reads of a
#: changed 1080p frame on a Pi 4: under 0.5 s, simulate --cpu-slowdown 6; a frame the camera failed to give).
HOLD_MAX_S = 2.0

log = logging.getLogger("mahjong_table.referee")


class StoredInputs(Protocol):
    """Where a hand's stored streams are read (:class:`controller.event_store.EventStore`)."""

    def events(self, hand_id: str) -> list[Event]: ...


class SessionPart(Protocol):
    """What runs beside a refereed hand and puts its inputs: the camera feed
    (:class:`controller.referee.feed.CameraFeed`), the bots (:class:`controller.referee.actor.BotActor`)."""

    async def run(self, session: RefereeSession) -> None: ...


class Actor(SessionPart, Protocol):
    """Bots playing at the emulated table: a fresh player for each hand."""

    def for_hand(self) -> SessionPart: ...


def record_stream(hand_id: str, revision: int) -> str:
    """The store stream of a hand's record at a revision (0: the first; N: after the N-th correction)."""
    return f"{hand_id}/game" if revision == 0 else f"{hand_id}/game.r{revision}"


def rebuild(store: StoredInputs, hand_id: str, profile: str | None = None) -> Referee:
    """A hand's referee rebuilt from its stored inputs (``<hand>/referee``): its record at the latest
    revision, corrections applied — the authority the stored streams are derived from."""
    inputs = store.events(f"{hand_id}/referee")
    if profile is None:
        start = next((e for e in inputs if isinstance(e, HandStarted)), None)
        if start is None:
            raise ValueError(f"hand {hand_id!r} has no refereed record in the store")
        profile = start.profile
    ref = Referee(profile)
    for ev in inputs:
        ref.feed(ev)
    return ref


def seconds(v: object) -> float:
    """A number of seconds from the configuration (as its TOML gives it: a whole number or not)."""
    if isinstance(v, int | float) and not isinstance(v, bool):
        return v
    raise TypeError(f"{v!r} is not a number of seconds")


def _raise_failed(tasks: list[asyncio.Task[None]]) -> None:
    """Raise the error of the first of ``tasks`` that ended with one."""
    for t in tasks:
        exc = t.exception() if t.done() and not t.cancelled() else None
        if exc is not None:
            raise exc


class RefereeSession:
    """One refereed hand in the service (see the module's docstring)."""

    def __init__(self, svc: PlayTable, hand_id: str, *, actor: SessionPart | None = None,
                 camera: SessionPart | None = None):
        self.svc = svc
        self.hand_id = hand_id
        cfg = svc.cfg
        self.referee = Referee(svc.profile, wait_s=seconds(cfg["referee.claim_wait_s"]) or None,
                               reveal_wait_s=seconds(cfg["referee.reveal_wait_s"]))
        self.actor = actor
        self.camera = camera
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self._taking = asyncio.Lock()
        self.inputs = f"{hand_id}/referee"
        self.outputs = f"{hand_id}/verdicts"
        self.out_seq = 0
        self.written: dict[int, int] = {}  # revision -> record events in the store
        self.verdicts: list[Violation] = []
        self.replayed = 0  # inputs rebuilt from the store after a restart
        self.pending: list[asyncio.Future[bool]] = []  # output writes not yet known durable
        self.own: list[Event] = []  # the referee's own outputs not yet in the record stream
        self.stream_seq: dict[int, int] = {}  # revision -> events in its record stream
        self.held: list[tuple[float, ButtonPressed]] = []  # (held since, button): waiting for the camera to read
        # the frames taken before it
        self.read_to: float | None = None  # the camera time of the last frame the feed read (None: no feed)

    # --- inputs -------------------------------------------------------------------------------------
    def put(self, ev: Event) -> None:
        """An input from anywhere on the loop's thread (buttons, the camera feed, the web page)."""
        self.queue.put_nowait(ev)

    async def take(self, ev: Event) -> list[Event]:
        """Store the input (durable: awaited), then let the referee act on it; store and show what it
        concluded (those writes are watched by the service: a failed one faults the table). One input at a
        time: the bots (or a tick) and the queue (the judge's page) take concurrently."""
        async with self._taking:  # else two inputs get the same place in <hand>/referee
            await self.svc.append(self.inputs, len(self.referee.inputs), ev)
            out = self.referee.feed(ev)
            self._emit(out)
            return out

    async def tick(self, t: float, t_wall: float | None = None) -> list[Event]:
        """Time passed: when something was due, that is an input like any other."""
        if self.referee.open_question is not None or not self.referee.due(t):
            return []
        wall = self.svc.clock.wall() if t_wall is None else t_wall
        return await self.take(RefereeTick(t_mono=t, t_wall=wall, hand_id=self.hand_id))

    def _emit(self, out: list[Event], replay: bool = False) -> None:
        log = self.referee.game_log
        for o in out:
            self.pending.append(self.svc.append(self.outputs, self.out_seq, o))
            if not replay:
                self._show(o)
            self.out_seq += 1
            if not any(x is o for x in log):
                self.own.append(o)  # the referee's own (its verdicts, questions, ...): into the record too
        self._write_record()

    def _show(self, o: Event) -> None:
        if isinstance(o, Violation):
            self.verdicts.append(o)
            en, ru = verdict_lines(o, self.referee.profile)
            print(f"VERDICT {self.hand_id}: {en} | {ru}", flush=True)
            self.svc.note(en)
        elif isinstance(o, QuestionAsked):
            self.svc.note(f"question to the operator: {o.message}")
            print(f"QUESTION {self.hand_id} #{o.question_id}: {o.message} | {o.message_ru}", flush=True)
        elif isinstance(o, CorrectionApplied):
            self.svc.note(f"judge correction: {o.change}")
        elif isinstance(o, ResultConfirmed):
            self.svc.note(f"result confirmed by {o.by}: {list(o.deltas)}")

    def _write_record(self) -> None:
        """The hand's record into the store (``<hand>/game``, ``<hand>/game.r<N>`` after the N-th correction):
        the hand machine's log as far as it is final — an event the camera may still complete (a kong's
        face-down tiles, the tile an added kong took) waits — with the referee's own events (verdicts,
        questions, the confirmation) where they came; the web page and the hall read it."""
        ref = self.referee
        rev = ref.revision
        stream = record_stream(self.hand_id, rev)
        done = self.written.setdefault(rev, 0)
        upto = len(ref.game_log) if ref.settled else ref.final_length()
        for i in range(done, upto):
            self._record(stream, rev, ref.game_log[i])
        self.written[rev] = max(done, upto)
        own, self.own = self.own, []
        for o in own:
            self._record(stream, rev, o)

    def _record(self, stream: str, rev: int, ev: Event) -> None:
        seq = self.stream_seq.get(rev, 0)
        self.pending.append(self.svc.append(stream, seq, ev))
        self.stream_seq[rev] = seq + 1

    # --- the hand -----------------------------------------------------------------------------------
    async def restore(self) -> None:
        """Rebuild the referee from the store (after a restart), else start it from the service's record."""
        store = self.svc.store
        stored = store.events(self.inputs)
        for ev in stored:
            self._emit(self.referee.feed(ev), replay=True)
        self.replayed = len(stored)
        had = sum(1 for ev in stored if isinstance(ev, HandStarted | DiceRolled))
        setup = [ev for ev in store.events(self.hand_id) if isinstance(ev, HandStarted | DiceRolled)]
        for ev in setup[had:]:  # the hand as the service recorded it: its start and the dice
            await self.take(ev)

    async def run(self) -> HandResult:
        await self.restore()
        tasks = []
        if self.camera is not None:
            tasks.append(asyncio.create_task(self.camera.run(self)))
        if self.actor is not None:
            tasks.append(asyncio.create_task(self.actor.run(self)))
        tasks.append(asyncio.create_task(self._ticks()))
        try:
            while self.referee.confirmed is None:
                _raise_failed(tasks)  # a crashed actor, camera or clock: noticed within TICK_S, input or not
                try:  # (asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation)
                    async with asyncio.timeout(TICK_S):
                        ev = await self.queue.get()
                except TimeoutError:
                    continue
                await self.take(ev)
        finally:
            for t in tasks:
                t.cancel()
        self._write_record()
        await asyncio.gather(*self.pending)  # every verdict and the whole record durable before the result
        return self.result()

    async def _ticks(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            self._release_stale()
            if self.actor is None:  # with bots the actor keeps the (simulated) time
                self.put(RefereeTick(t_mono=self.svc.clock.mono(), t_wall=self.svc.clock.wall(),
                                     hand_id=self.hand_id)) if self.referee.due(self.svc.clock.mono()) else None

    def result(self) -> HandResult:
        r = self.referee.result()
        r["verdicts"] = [verdict_lines(v, self.referee.profile)[0] for v in self.referee.violations()]
        return r

    # --- what people do -----------------------------------------------------------------------------
    def answer(self, text: str, by: str = "operator") -> bool:
        q = self.referee.open_question
        if q is None:
            return False
        self.put(QuestionAnswered(question_id=q.event.question_id, answer=text, by=by, hand_id=self.hand_id,
                                  **self.svc.clock.stamp()))
        return True

    def correct(self, by: str, op: str, index: int, event: JSONObject | None = None, to: int = -1,
                reason: str = "") -> None:
        self.put(JudgeCorrection(by=by, op=op, index=index, event=event or {}, to=to, reason=reason,
                                 hand_id=self.hand_id, **self.svc.clock.stamp()))

    def judged(self, ev: Event) -> None:
        """A judge's penalty or sanction at the console, given during this hand: an input (sanctions.py)."""
        if getattr(ev, "hand_id", None) == self.hand_id:
            self.put(ev)

    def button(self, ev: ButtonPressed) -> None:
        """A call button or the judge's confirmation, as the service recorded it. While the camera feed reads,
        the button waits until the feed has read a frame taken after it was pressed and the camera's view is
        settled (:meth:`caught_up`): the discard it claims, read late by a slow reader, reaches the referee
        first (at most ``HOLD_MAX_S``)."""
        if ev.button not in ("call", "confirm"):
            return
        if self.read_to is not None and (self.held or ev.t_mono > self.read_to):
            self.held.append((time.monotonic(), ev))
        else:
            self.put(ev)

    def caught_up(self, t_mono: float | None, settled: bool = True) -> None:
        """The camera feed has read its frames up to ``t_mono`` (None: the feed reads no frame now), its view
        ``settled`` (no change seen but not yet confirmed): the buttons pressed before then go to the referee,
        in order."""
        self.read_to = t_mono
        while self.held and (t_mono is None or (settled and self.held[0][1].t_mono <= t_mono)):
            self.put(self.held.pop(0)[1])

    def _release_stale(self) -> None:
        """A button held ``HOLD_MAX_S`` goes to the referee however far the camera has been read."""
        while self.held and time.monotonic() - self.held[0][0] >= HOLD_MAX_S:
            self.put(self.held.pop(0)[1])

    def view(self) -> JSONObject:
        return public_view(self.referee)


class RefereePlay(PlaySource):
    """The referee as the table's play source (``actor``: bots playing at the emulated table, demo mode;
    ``camera``: read the configured camera live)."""

    def __init__(self, actor: Actor | None = None, camera: bool = True):
        self.actor = actor
        self.camera = camera
        self.session: RefereeSession | None = None

    async def play(self, svc: PlayTable, hand_id: str) -> HandResult:
        camera: SessionPart | None = None
        if self.camera and self.actor is None:
            from controller.referee.feed import CameraFeed

            camera = CameraFeed()
        actor = self.actor.for_hand() if self.actor is not None else None
        self.session = RefereeSession(svc, hand_id, actor=actor, camera=camera)
        return await self.session.run()

    def button(self, ev: ButtonPressed) -> None:
        if self.session is not None:
            self.session.button(ev)

    def view(self) -> JSONObject | None:
        return self.session.view() if self.session is not None else None

    def judged(self, ev: Event) -> None:
        if self.session is not None:
            self.session.judged(ev)

    def answer(self, text: str, by: str = "operator") -> bool:
        return self.session is not None and self.session.answer(text, by)

    def record(self, svc: PlayTable, hand_id: str) -> list[Event]:
        """The hand's record (what lies on the table by the referee) for the service's re-read: the live
        referee's, else rebuilt from the stored inputs (the latest revision, corrections applied)."""
        s = self.session
        if s is not None and s.hand_id == hand_id:
            return list(s.referee.game_log)
        return rebuild(svc.store, hand_id, svc.profile).game_log
