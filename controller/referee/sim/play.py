"""One simulated hand end to end: the bots' ground truth, its moments at the table, what the camera (or an
exact observer) reports of them, the referee following, the questions answered from the truth, the result
compared with the truth.

An *observer* (:mod:`.observe`) turns the table at each moment into observation events: exactly (no camera)
or through rendered frames and the vision pipeline.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import NotRequired, TypedDict, Unpack

from controller.referee.core import TICK_S, Referee
from controller.referee.sim.compare import HandReport, compare_payments, compare_violations
from controller.referee.sim.observe import CameraObserver, ExactObserver, Observer, Read
from controller.referee.sim.oracle import respond
from controller.referee.sim.timeline import Timeline, build
from controller.referee.sim.truth import FaultPlan, TableMixin, driver_for, faults_for
from rules.events import ButtonPressed, Event, JSONObject, QuestionAsked, RefereeTick
from rules.game.protocols import RuleSet
from vision.scene_game import view_seats
from vision.scene_model import Scene

MAX_ASKED = 3  # the same question asked again after this many answers: the simulated operator cannot answer it


@dataclass
class TruthHand:
    driver: TableMixin
    timeline: Timeline

    @property
    def log(self) -> list[Event]:
        return self.driver.machine.log


class Unplayable(ValueError):
    """A hand the emulated table cannot show (a pond longer than the pond area holds: 30 tiles)."""


class TruthOptions(TypedDict):
    """:func:`truth_hand`'s keywords (:func:`playable_truth` passes them on)."""

    hand_id: str
    dealer: int
    players: int
    dice: tuple[tuple[int, ...], ...] | None
    faults: bool
    options: NotRequired[JSONObject | None]


def truth_hand(profile: RuleSet, seed: int, *, hand_id: str, dealer: int, players: int,
               dice: tuple[tuple[int, ...], ...] | None, faults: bool, options: JSONObject | None = None) -> TruthHand:
    """The bots' hand (seeded) and its moments at the table. Raises :class:`Unplayable` for a hand whose
    pond outgrows the table's pond area."""
    rng = random.Random(seed)
    plan = FaultPlan(faults_for(profile), random.Random(rng.random())) if faults else None
    drv = driver_for(profile)(profile, random.Random(rng.random()), dice=dice, plan=plan,
                      n_players=players, dealer=dealer, hand_id=hand_id, options=options)
    drv.run()
    fault_of: dict[int, str] = {}
    for inj in drv.injected:  # the truth log index of each rule fault's violation
        for i in range(inj.log_index, len(drv.machine.log)):
            e = drv.machine.log[i]
            if e.TYPE == "violation" and getattr(e, "code", "") == inj.code:
                fault_of[i] = inj.fault
                break
    try:
        tl = build(profile, drv.machine.log, drv.acts, random.Random(rng.random()), fault_of=fault_of)
    except ValueError as exc:  # vision.scene_game: a pond of more than 30 tiles
        raise Unplayable(str(exc)) from None
    return TruthHand(drv, tl)


def playable_truth(profile: RuleSet, seed: int, **kw: Unpack[TruthOptions]) -> tuple[TruthHand, int]:
    """:func:`truth_hand`, dealt again (the next seed) while the table cannot show it; (hand, redeals)."""
    for k in range(50):
        try:
            return truth_hand(profile, seed + 7919 * k, **kw), k
        except Unplayable:
            continue
    raise Unplayable(f"no playable hand from seed {seed}")


def referee_hand(profile: RuleSet, truth: TruthHand, observer: Observer, *, planned_questions: int = 0, players: int = 4) -> tuple[Referee, HandReport]:
    """Referee one truth hand through ``observer``; the report compares it with the truth."""
    t0 = time.perf_counter()
    ref = Referee(profile)
    rep = HandReport(truth.driver.hand_id, profile.name, players, questions_planned=planned_questions)
    scene: Scene | None = None

    asked: dict[str, int] = {}
    left_open: list[str] = []

    def settle(outs: list[Event], at: Event) -> None:
        pending = list(outs)
        while pending:
            out = pending.pop(0)
            if isinstance(out, QuestionAsked):
                again = asked[out.message] = asked.get(out.message, 0) + 1
                if again > MAX_ASKED:  # the operator's answer does not settle it: the hand waits (a failure)
                    left_open.append(f"question left open (asked {again} times): {out.message}")
                    continue
                rep.questions += 1
                rep.asked.append({"hand": rep.hand_id, "t": round(at.t_mono, 2), "kind": out.kind, "seat": out.seat,
                                  "zone": out.subject.get("zone"), "index": out.subject.get("index"),
                                  "message": out.message})
                if out.kind == "impossible":
                    rep.judged.append(out.message)
                replies = respond(out, ref, truth, scene, at)
                rep.asked[-1]["answer"] = "; ".join(str(getattr(r, "answer", None) or r.TYPE) for r in replies)
                for reply in replies:
                    pending += ref.feed(reply)

    clock = [0.0]

    def ticks_to(t: float) -> None:
        while clock[0] + TICK_S < t:  # the table service ticks the referee while nothing is seen
            clock[0] += TICK_S
            tick = RefereeTick(t_mono=clock[0], t_wall=clock[0])
            settle(ref.tick(tick.t_mono), tick)
        clock[0] = max(clock[0], t)

    def feed(ev: Event) -> None:
        ticks_to(ev.t_mono)
        settle(ref.feed(ev), ev)

    # a Pi-class CPU: the camera observer's reads reach the referee when they end (observe.Read)
    camera = observer if isinstance(observer, CameraObserver) and observer.slowdown is not None else None
    slowdown = camera.slowdown if camera is not None else None
    pending: list[Read] = []  # the frames read whose observations the referee has not had yet
    busy = [float("-inf")]  # camera time the referee is done with what it was given
    settled = [True]  # the camera's view settled after the last read delivered

    def deliver(upto: float, button: float | None = None) -> None:
        """A Pi-class CPU: the camera's observations reach the referee when their read ended (in that order,
        between the buttons pressed meanwhile); a button pressed at ``button`` waits for the frames the
        camera took before it and until its view is settled (no change seen but unconfirmed), as
        :meth:`controller.referee.session.RefereeSession.button` holds it; the referee's own work is
        stretched by the same factor. Each observation's verdict latency: from the change's camera time to
        the end of the referee's work on it."""
        while pending and (pending[0].arrival <= upto or (button is not None and (
                pending[0].frame < button or not settled[0]))):
            r = pending.pop(0)
            ticks_to(r.arrival)
            for origin, ev in r.events:
                c0 = time.process_time()
                feed(ev)
                busy[0] = max(busy[0], r.arrival) + (time.process_time() - c0) * (slowdown or 1.0)
                rep.latencies.append((busy[0] - origin) * 1e3)
            settled[0] = r.settled

    for m in truth.timeline.moments:
        if camera is not None:
            deliver(m.t, m.t if m.kind == "input" and m.input.TYPE == "button_pressed" else None)
        if m.kind == "input":
            feed(m.input)
        elif camera is not None:
            camera.observe(m)
            pending += camera.take_timed()
            ticks_to(min([m.t, *(r.arrival for r in pending)]))  # (answered from the table as it was till then)
            scene = m.scene
            deliver(m.t)
        else:
            seen = observer.observe(m)
            ticks_to(min([m.t, *(ev.t_mono for ev in seen)]))  # (answered from the table as it was till then)
            scene = m.scene
            for ev in seen:
                feed(ev)
        settle(ref.tick(m.t), RefereeTick(t_mono=m.t, t_wall=m.t))
    for ev in observer.settle(truth.timeline.end):
        if camera is None:
            feed(ev)
    if camera is not None:
        pending += camera.take_timed()
        deliver(float("inf"))
    for press in signed_again(ref, truth.timeline.end):
        feed(press)
    ref.tick(truth.timeline.end)
    rep.frames = observer.frames
    rep.events = len(ref.game_log)
    st_truth = truth.driver.machine.state
    rep.mismatches = compare_payments(st_truth.settled, ref.machine.state.settled) + sorted(set(left_open))
    if ref.confirmed is None and ref.settled:
        rep.mismatches.append("the result was not confirmed")
    hit, missed, false = compare_violations(truth.timeline.expected, ref.violations())
    rep.injected = len(truth.driver.injected)
    rep.faults.update(i.fault for i in truth.driver.injected)
    rep.flagged, rep.missed, rep.false = hit, missed, false
    rep.seconds = time.perf_counter() - t0
    return ref, rep


def signed_again(ref: Referee, t: float) -> list[ButtonPressed]:
    """The seats sign a result the judge's correction changed after they had signed it (their signatures
    were withdrawn): each presses its call button again."""
    if not ref.settled or ref.confirmed is not None or not ref.withdrawn:
        return []
    return [ButtonPressed(button="call", seat=s, t_mono=t + 0.3 * (k + 1), t_wall=t + 0.3 * (k + 1))
            for k, s in enumerate(ref.machine.state.seats)]


def exact_hand(profile: RuleSet, seed: int, *, hand_index: int = 0, players: int = 4, faults: bool = False,
               unreadable: int = 0) -> tuple[Referee, HandReport, TruthHand]:
    """One hand refereed from exact observations (no camera): the referee's logic alone."""
    seats = profile.wall_spec(players).seats
    rng = random.Random(seed)
    dealer = seats[hand_index % len(seats)]
    truth, _ = playable_truth(profile, rng.randrange(2**31), hand_id=f"sim-{seed}-{hand_index}", dealer=dealer,
                              players=players, dice=None, faults=faults)
    ds = sorted(truth.timeline.discard_times)
    marks = set(rng.sample(ds, min(unreadable, len(ds))))
    obs = ExactObserver(profile.name, view_seats(profile.name, players), marks)
    ref, rep = referee_hand(profile, truth, obs, planned_questions=len(marks), players=players)
    return ref, rep, truth
