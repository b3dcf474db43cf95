"""Frame sequences of bot-played hands → observation events with the right frame (±1)."""
import pytest

from rules.profiles import registry
from rules.simulate import random_hands
from tests.conftest import LONG, scaled
from vision.calibration import calibrate
from vision.pipeline import VisionPipeline
from vision.scene_game import render_sequence, scenes_from_events
from vision.tracking import scene_events


def event_key(e) -> tuple:
    d = e.to_json()
    return tuple((k, str(v)) for k, v in sorted(d.items()) if k not in ("t_mono", "t_wall", "frame", "v"))


def run_sequence(profile: str, seed: int, style: str, n_scenes: int):
    hr = next(random_hands(registry.get(profile), seed, 1))
    scenes = scenes_from_events(profile, hr.events)[:n_scenes]
    pipe = None
    got, truth, last = [], [], None
    for sf in render_sequence(scenes, seed=seed, style=style, hand_frames=1, still_frames=2):
        if pipe is None:
            pipe = VisionPipeline(calibrate(sf.frame), profile, [style])
        got += pipe.process(sf.frame, t_mono=sf.t_mono, t_wall=0.0).events
        if sf.settled and sf.truth.scene != last:
            truth.append((sf.truth.scene, sf.index, sf.t_mono))
            last = sf.truth.scene
    return got, scene_events(profile, truth)


def match(got, want) -> list:
    """Pairs each expected event with a recovered one of equal content within one frame; returns misses."""
    pool = list(got)
    missed = []
    for w in want:
        hit = next((g for g in pool if event_key(g) == event_key(w) and abs(g.frame - w.frame) <= 1), None)
        if hit is None:
            missed.append(w)
        else:
            pool.remove(hit)
    return missed + pool


CASES = [("riichi-ema2016", 3, "classic", scaled(20, 60))]
if LONG:
    CASES += [("red", 4, "kai", 40), ("sichuan-mpl2025", 5, "fluffy_black", 40), ("mcr", 6, "classic", 40)]


@pytest.mark.parametrize("profile,seed,style,n", CASES)
def test_events_recovered_with_frame_stamps(profile, seed, style, n):
    got, want = run_sequence(profile, seed, style, n)
    assert len(want) >= 7
    kinds = {type(e).__name__ for e in want}
    assert {"PondTileSeen", "DiceRead"} <= kinds
    assert match(got, want) == []
    assert all(g.t_mono == pytest.approx(g.frame / 10.0) for g in got)
