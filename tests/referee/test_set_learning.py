"""Vision IV: the table learns its set while it plays -- the record's confirmed faces (a question answered, a
judge's correction) teach the camera's set; the hand's signature saves them beside the set and reads with
them (controller/set_learning.py, fed by the store's listeners)."""
from __future__ import annotations

import numpy as np

from controller.set_learning import TableLearning, learned_path
from rules.events import JudgeCorrection, PondTileSeen, QuestionAnswered, QuestionAsked, ResultConfirmed
from vision.set_learner import SetLearner
from vision.style_sets import style_tileset
from vision.tile_eval import table_crops
from vision.tile_reader import SetReader, pipeline_classifier


class Camera:
    def __init__(self, crops, reader):
        self.pond_crops = crops
        self.reader = reader

    def set_reader(self):
        return self.reader


def _asked(qid: int, seat: int, index: int) -> QuestionAsked:
    obs = PondTileSeen(seat=seat, index=index, tile="unknown", frame=1, t_mono=1.0, t_wall=0.0)
    return QuestionAsked(question_id=qid, kind="tile", seat=seat, subject={"observation": obs.to_json(), "zone": "pond",
                         "index": index, "unknown": 1}, t_mono=1.0, t_wall=0.0, hand_id="h1")


def test_answers_and_corrections_teach_the_set_and_the_signature_saves_and_reads_with_it(tmp_path):
    data = table_crops("kai", 1, seed=85_000)
    base = style_tileset("classic")
    reader = SetReader([base])
    cam = Camera({(0, 0): data.crops[0], (1, 3): data.crops[1], (2, 1): data.crops[2]}, reader)
    learning = TableLearning(SetLearner(base, pipeline_classifier()), tmp_path / "t.learned.npz", cam)
    feed = learning.on_event
    feed("h1/verdicts", 0, _asked(1, 0, 0))
    feed("h1/referee", 5, QuestionAnswered(question_id=1, answer=data.labels[0], by="judge", t_mono=2.0, t_wall=0.0,
                                           hand_id="h1"))
    feed("h1/verdicts", 1, _asked(2, 1, 3))
    feed("h1/referee", 6, QuestionAnswered(question_id=2, answer="ignore", by="judge", t_mono=2.0, t_wall=0.0,
                                           hand_id="h1"))  # not a face: nothing learned
    feed("h1/referee", 7, QuestionAnswered(question_id=9, answer="3m", by="judge", t_mono=2.0, t_wall=0.0,
                                           hand_id="h1"))  # no such question: nothing learned
    fix = PondTileSeen(seat=2, index=1, tile=data.labels[2], frame=3, t_mono=3.0, t_wall=0.0)
    feed("h1/referee", 8, JudgeCorrection(by="judge", op="replace", index=4, event=fix.to_json(), t_mono=3.0,
                                          t_wall=0.0, hand_id="h1"))
    assert learning.learner.counts() == {lab: n for lab, n in
                                         __import__("collections").Counter([data.labels[0], data.labels[2]]).items()}
    assert reader.tileset is base  # not read with before the hand is signed
    feed("h1/referee", 9, ResultConfirmed(by="seats", seats=(0, 1, 2, 3), t_mono=4.0, t_wall=0.0, hand_id="h1"))
    learning.flush()
    assert (tmp_path / "t.learned.npz").is_file() and reader.tileset is not base
    assert learning.status() == {"hands": 1, "crops": 2}
    back = SetLearner.load(tmp_path / "t.learned.npz", base)
    assert np.allclose(back.tileset().prototypes, learning.learner.tileset().prototypes)
    feed("h1/referee", 10, JudgeCorrection(by="judge", op="delete", index=4, event=fix.to_json(), t_mono=5.0,
                                           t_wall=0.0, hand_id="h1"))  # the correction withdrawn
    assert learning.status()["crops"] == 1


def test_learned_crops_live_beside_the_set_file():
    assert learned_path("/etc/mahjong/table3.npz").name == "table3.learned.npz"


# ---- the signed record: every tile of the final table whose face the record holds --------------------------

def _signed_table(profile: str, style: str, seed: int):
    """A bot-played hand's record, its final table rendered and read by the referee's camera reader."""
    from controller.referee.camera import CameraReader
    from rules.profiles import registry
    from rules.simulate import random_hands
    from vision.calibration import calibrate
    from vision.scene_game import scenes_from_events
    from vision.scene_render import render_scene

    hr = next(random_hands(registry.get(profile), seed, 1))
    table = scenes_from_events(profile, hr.events, max_pond=None)[-1]
    frame, _ = render_scene(table, seed=seed, style=style)
    cam = CameraReader(calibrate(frame), profile, [style])
    cam.process(frame, 1.0)
    return list(hr.events), table, cam


def _sign(learning: TableLearning, record, hand: str = "h1", rev: int = 0) -> None:
    stream = f"{hand}/game" if rev == 0 else f"{hand}/game.r{rev}"
    for i, ev in enumerate(record):
        learning.on_event(stream, i, ev)
    learning.on_event(f"{hand}/verdicts", 99, ResultConfirmed(by="seats", seats=(0, 1, 2, 3), t_mono=9.0,
                                                              t_wall=0.0, hand_id=hand))  # not the record's: waits
    learning.on_event(stream, len(record), ResultConfirmed(by="seats", seats=(0, 1, 2, 3), t_mono=9.0, t_wall=0.0,
                                                           hand_id=hand))
    learning.flush()


def test_the_signed_record_teaches_every_tile_it_confirms_and_only_those(tmp_path):
    from collections import Counter

    record, table, cam = _signed_table("riichi-ema2016", "kai", 501)
    reader = cam.set_reader()
    base = reader.tileset
    # every confirmed crop kept (novel=None): what the record confirms, not what the learner finds new
    learning = TableLearning(SetLearner(base, pipeline_classifier(), per_face=50, novel=None),
                             tmp_path / "k.learned.npz", cam)
    cam.zone_crops["pond1"] = (["9s" if t != "9s" else "1s" for t in cam.zone_crops["pond1"][0]],
                               cam.zone_crops["pond1"][1])  # a pond the camera read otherwise than the record
    _sign(learning, record)
    faces: Counter[str] = Counter()
    for s, v in enumerate(table.seats):
        if s != 1:
            faces.update(p.tile for p in v.pond)
        faces.update(t for m in v.melds for t in m.tiles if t != "x")
        faces.update(t for t in v.revealed if t != "x")
    got = Counter(learning.learner.counts())
    assert sum(got.values()) >= 0.9 * sum(faces.values()) > 30, (got, faces)
    assert not got - faces  # nothing the record does not hold, nothing of the pond read otherwise
    assert learning.status()["hands"] == 1 and (tmp_path / "k.learned.npz").is_file()
    assert reader.tileset is not base  # read with from now on
    keys = set(learning._taught["h1"])
    assert keys and all(k.startswith("h1/") for k in keys) and not any(k.startswith("h1/pond1/") for k in keys)
    # a correction after the signature withdraws what the record taught; the corrected record teaches again
    fix = JudgeCorrection(by="judge", op="delete", index=3, event={"type": "dice_read"}, t_mono=10.0, t_wall=0.0,
                          hand_id="h1")
    learning.on_event("h1/referee", 200, fix)
    assert sum(learning.learner.counts().values()) == 0
    _sign(learning, record, rev=1)
    assert Counter(learning.learner.counts()) == got


def test_a_record_whose_table_the_camera_did_not_see_teaches_nothing(tmp_path):
    record, _, cam = _signed_table("riichi-ema2016", "kai", 502)
    other, _, _ = _signed_table("riichi-ema2016", "kai", 503)  # another hand's record against this table
    learning = TableLearning(SetLearner(cam.set_reader().tileset, pipeline_classifier()), None, cam)
    _sign(learning, other)
    assert sum(learning.learner.counts().values()) <= 2  # (a pond of one tile may agree by chance)
    learning.on_event("h2/game", 0, ResultConfirmed(by="judge", t_mono=1.0, t_wall=0.0, hand_id="h2"))
    learning.flush()  # a record with no start: nothing, no error
