"""The camera referee: how soon a verdict follows the frame in which a tile settles, and its throughput.

* verdict latency: bots' hands filmed and read by vision (controller.referee.sim: the fast renderer, the
  referee's camera reader on one thread), and for each observation the camera reported, vision's work on
  the frames from the one that first showed the change to the one that confirmed it (two frames alike:
  the incremental reads) plus the referee's time to act on it (rules) — p50 and p95, each share
  separately; the wait between those frames (a frame interval each) is reported in the note. Baselines in the same run: the camera's frame interval at 10 fps (the physical limit the
  read must stay under) and a full re-read of the same frames (the non-incremental peer).
* events/s through the referee: the observations of exact hands (no camera) fed to the referee, against
  the hand machine alone playing the same hands in full information (rules.simulate: the peer).
"""
from __future__ import annotations

import random
import time

from bench.common import Row, percentile

PROFILES = ("sichuan-mpl2025", "mcr", "riichi-ema2016", "red")


def latency(quick: bool) -> list[Row]:
    from controller.referee.core import Referee
    from controller.referee.sim.harness import styles_for
    from controller.referee.sim.observe import CameraObserver
    from controller.referee.sim.oracle import respond
    from controller.referee.sim.play import playable_truth
    from rules.events import QuestionAsked
    from rules.profiles import registry

    total, vision, rules, full = [], [], [], []
    waits: list[int] = []
    frames = 0
    for k, name in enumerate(PROFILES[: 2 if quick else 4]):
        profile = registry.get(name)
        truth, _ = playable_truth(profile, 700 + k, hand_id=f"bench-{k}", dealer=0, players=4, dice=None,
                                  faults=False)
        style = styles_for(name)[k % len(styles_for(name))]
        obs = CameraObserver(name, 4, style=style, seed=900 + k, nuisances=True)
        ref = Referee(profile)
        scene = None
        for m in truth.timeline.moments:
            if m.kind == "input":
                ref.feed(m.event)  # type: ignore[arg-type]
                continue
            scene = m.scene
            n = len(obs.settle_ms)
            evs = obs.observe(m)
            t0 = time.perf_counter()
            pending = []
            for ev in evs:
                pending += ref.feed(ev)
            answers = 0
            while pending:
                q = pending.pop(0)
                if isinstance(q, QuestionAsked) and answers < 20:  # (an answer that settles nothing: not again)
                    answers += 1
                    for r in respond(q, ref, truth, scene, evs[-1]):
                        pending += ref.feed(r)
            dt = (time.perf_counter() - t0) * 1e3
            if evs and len(obs.settle_ms) > n:
                v = obs.settle_ms[-1]
                vision.append(v)
                rules.append(dt)
                total.append(v + dt)
            ref.tick(m.t)
        frames += obs.read
        waits += obs.settle_frames
        for _ in range(3 if quick else 8):  # the peer: a full re-read of the table as it lies now
            img = obs.film.frame()
            t0 = time.perf_counter()
            obs.camera.pipe.process(img, t_mono=1e6, full=True)
            full.append((time.perf_counter() - t0) * 1e3)
    frame_ms = 100.0
    note = (f"{len(total)} observations, {frames} frames read, {len(PROFILES[: 2 if quick else 4])} profiles; "
            f"vision = its work from the frame that first showed a change to the frame that confirmed it "
            f"(p50 {percentile(waits, 50):.0f} frame(s) later: add that many frame intervals of waiting)")
    return [
        Row("referee verdict latency p50 (vision+rules)", percentile(total, 50), "ms", frame_ms,
            "camera frame interval at 10 fps", note),
        Row("referee verdict latency p95 (vision+rules)", percentile(total, 95), "ms", frame_ms,
            "camera frame interval at 10 fps", "target <= 100 ms p95 on this 2-core x86 machine"),
        Row("referee latency p95: vision share (incremental read)", percentile(vision, 95), "ms",
            percentile(full, 50), "a full re-read of the frame (p50)", note),
        Row("referee latency p95: rules share (referee + hand machine)", percentile(rules, 95), "ms",
            percentile(vision, 95), "the vision share p95", note),
    ]


def throughput(quick: bool) -> list[Row]:
    from controller.referee.core import Referee
    from controller.referee.sim.play import exact_hand
    from rules.profiles import registry
    from rules.simulate import play_hand

    n = 3 if quick else 12
    fed = 0
    spent = 0.0
    machine_events = 0
    machine_s = 0.0
    for k, name in enumerate(PROFILES):
        profile = registry.get(name)
        for i in range(n):
            ref, _, _ = exact_hand(profile, 4000 + 31 * k + i, hand_index=i, faults=False)
            again = Referee(profile)
            t0 = time.perf_counter()
            for ev in ref.record:  # the referee alone, on the inputs it had
                again.feed(ev)
            spent += time.perf_counter() - t0
            fed += len(ref.record)
            t1 = time.perf_counter()
            res = play_hand(profile, random.Random(4000 + i), hand_id="peer")
            machine_s += time.perf_counter() - t1
            machine_events += len(res.events)
    return [Row("referee events/s (observations, buttons, answers fed)", fed / spent, "events/s",
                machine_events / machine_s, "hand machine alone, full information (rules.simulate)",
                f"{n * len(PROFILES)} exact hands, {fed} inputs")]


def run(quick: bool = False) -> list[Row]:
    return latency(quick) + throughput(quick)
