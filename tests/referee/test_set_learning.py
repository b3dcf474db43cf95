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
    assert (tmp_path / "t.learned.npz").is_file() and reader.tileset is not base
    assert learning.status() == {"hands": 1, "crops": 2}
    back = SetLearner.load(tmp_path / "t.learned.npz", base)
    assert np.allclose(back.tileset().prototypes, learning.learner.tileset().prototypes)
    feed("h1/referee", 10, JudgeCorrection(by="judge", op="delete", index=4, event=fix.to_json(), t_mono=5.0,
                                           t_wall=0.0, hand_id="h1"))  # the correction withdrawn
    assert learning.status()["crops"] == 1


def test_learned_crops_live_beside_the_set_file():
    assert learned_path("/etc/mahjong/table3.npz").name == "table3.learned.npz"
