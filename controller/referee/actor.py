"""Bots playing at the emulated table, for the referee to follow (demo mode, ``make run``, the crash tests).

The bots' hand is a pure function of the hand id and the dice the service threw (the ground truth,
:mod:`controller.referee.sim.truth`); its moments at the table (:mod:`controller.referee.sim.timeline`)
are shown one after another: the call buttons pressed, and the table either told to the referee exactly
(``exact``: the camera as a perfect reader, fast) or filmed and read by vision (``frames``: the simulated
camera, with a real table's nuisances). The operator answers the referee's questions from the truth.
Every input is stamped on the hand's clock (the service's time of the hand's start plus the moment's time),
so a restarted service regenerates the same inputs and skips those the store already holds.
"""
from __future__ import annotations

import asyncio
import dataclasses
import hashlib
from typing import TYPE_CHECKING

from rules.events import (
    ButtonPressed,
    DiceRolled,
    Event,
    HandStarted,
    ObservationEvent,
    QuestionAsked,
    RefereeTick,
)

if TYPE_CHECKING:
    from controller.referee.session import RefereeSession
    from controller.referee.sim.observe import Observer
    from controller.referee.sim.play import TruthHand


def hand_seed(hand_id: str, dice: tuple[tuple[int, ...], ...]) -> int:
    digest = hashlib.sha256(f"{hand_id}|{dice}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class BotActor:
    """Plays each hand with bots at the table (``camera``: ``exact`` or ``frames``; ``pace``: seconds
    between moments, so a person can watch)."""

    def __init__(self, camera: str = "exact", pace: float = 0.01):
        self.camera = camera
        self.pace = pace
        self.truth: TruthHand | None = None

    def for_hand(self) -> BotActor:
        return BotActor(self.camera, self.pace)

    def _truth(self, session: RefereeSession) -> tuple[TruthHand, float, float]:
        from controller.referee.sim.play import playable_truth

        svc = session.svc
        evs = svc.store.events(session.hand_id)
        start = next(e for e in evs if isinstance(e, HandStarted))
        dice = tuple(tuple(e.values) for e in evs if isinstance(e, DiceRolled))
        profile = session.referee.profile
        truth, _ = playable_truth(profile, hand_seed(session.hand_id, dice) % (1 << 62), hand_id=session.hand_id,
                                  dealer=start.dealer, players=start.n_players, dice=dice, faults=False,
                                  options=dict(start.options))
        last = [e for e in evs if isinstance(e, DiceRolled)][-1]
        return truth, last.t_mono, last.t_wall

    def _observer(self, session: RefereeSession, truth: TruthHand) -> Observer:
        from controller.referee.sim.observe import CameraObserver, ExactObserver
        from vision.scene_game import view_seats

        svc = session.svc
        n = view_seats(svc.profile, svc.players)
        if self.camera == "frames":
            return CameraObserver(svc.profile, n, style=svc.cfg.camera.styles[0],
                                  seed=hand_seed(session.hand_id, ()) % (1 << 31), nuisances=True)
        return ExactObserver(svc.profile, n)

    async def run(self, session: RefereeSession) -> None:
        from controller.referee.sim.oracle import respond

        truth, t0, w0 = await asyncio.to_thread(self._truth, session)
        self.truth = truth
        observer = await asyncio.to_thread(self._observer, session, truth)
        ref = session.referee
        done = sum(1 for e in ref.record if isinstance(e, ObservationEvent | ButtonPressed))
        scene = None

        def stamped(ev: Event, t: float) -> Event:
            return dataclasses.replace(ev, t_mono=t0 + t, t_wall=w0 + t)

        async def settle(out: list[Event], at: Event) -> None:
            pending = list(out)
            while pending:
                q = pending.pop(0)
                if isinstance(q, QuestionAsked):
                    for reply in respond(q, ref, truth, scene, at):
                        pending += await session.take(reply)

        if ref.open_question is not None:  # restarted while a question waited
            await settle([ref.open_question.event], ref.record[-1])
        for m in truth.timeline.moments:
            if m.kind == "input" and isinstance(m.event, HandStarted | DiceRolled):
                continue  # the service threw the dice and recorded the start
            if m.kind == "input":
                evs = [stamped(m.input, m.input.t_mono)]
            else:
                scene = m.scene
                evs = [stamped(e, e.t_mono) for e in await asyncio.to_thread(observer.observe, m)]
            for ev in evs:
                if done:
                    done -= 1  # fed before the restart
                    continue
                await settle(await session.take(ev), ev)
            at = RefereeTick(t_mono=t0 + m.t, t_wall=w0 + m.t)
            await settle(await session.tick(at.t_mono, at.t_wall), at)
            if ref.confirmed is not None:
                return
            await asyncio.sleep(self.pace)
        end = RefereeTick(t_mono=t0 + truth.timeline.end, t_wall=w0 + truth.timeline.end)
        await settle(await session.tick(end.t_mono, end.t_wall), end)
        from controller.referee.sim.play import signed_again

        for ev in signed_again(ref, truth.timeline.end):  # a result the judge changed after it was signed
            await settle(await session.take(stamped(ev, ev.t_mono)), ev)
