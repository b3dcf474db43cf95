"""The table learns its set while it plays: the record's confirmed faces feed vision's set learner.

    learning = TableLearning(learner, path, camera)      # camera: CameraReader (its pond crops, its reader)
    store.listeners.append(learning.on_event)             # every event the store takes, (stream, seq, event)
    learning.status()                                     # {"hands": N, "crops": n}: "learned from N hands"

A pond tile the camera could not read is asked (``QuestionAsked`` kind ``tile``, zone ``pond``, in
``<hand>/verdicts``); the judge's or the operator's answer (``QuestionAnswered`` in ``<hand>/referee``) names
its face: the crop the camera holds for that seat and pond place is learned as that face
(:class:`vision.set_learner.SetLearner`). A judge's correction that replaces a pond observation with
another face (``JudgeCorrection`` ``replace`` of a ``pond_tile_seen``) withdraws what was learned for that
place and learns the corrected face; one that deletes it withdraws it. When the hand's result is confirmed
(``ResultConfirmed``: every seat signed, or the judge) the learned crops are saved beside the table's set
file and the camera reads with them from then on. Nothing the record does not confirm is learned: a tile
the camera read by itself is not (it is what the camera already knows). Reads the store's events only: the
referee is not touched.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from rules.events import JudgeCorrection, QuestionAnswered, QuestionAsked, ResultConfirmed
from vision.set_learner import SetLearner
from vision.tile_labels import is_label

log = logging.getLogger("mahjong_table.set_learning")


def learned_path(set_path: str | Path) -> Path:
    """Where a set file's learned crops are kept: beside it (``table.npz`` -> ``table.learned.npz``)."""
    p = Path(set_path)
    return p.with_name(p.stem + ".learned.npz")


class TableLearning:
    """Feeds a :class:`SetLearner` from the record's events (see the module docstring)."""

    def __init__(self, learner: SetLearner, path: str | Path | None, camera: Any):
        self.learner = learner
        self.path = Path(path) if path is not None else None
        self.camera = camera
        self._asked: dict[tuple[str, int], tuple[int, int]] = {}  # (hand, question id) -> (seat, pond index)
        self.learned_now = 0

    def status(self) -> dict[str, int]:
        """For the judge: hands learned from, crops kept."""
        return {"hands": self.learner.hands, "crops": sum(self.learner.counts().values())}

    def on_event(self, stream: str, seq: int, ev: Any) -> None:
        """A store listener: every event appended, with its stream (``<hand>/referee``, ``<hand>/verdicts``, ...)."""
        hand = stream.split("/", 1)[0]
        try:
            if isinstance(ev, QuestionAsked) and ev.kind == "tile" and ev.subject.get("zone") == "pond":
                if ev.seat is not None and ev.subject.get("index") is not None:
                    self._asked[(hand, ev.question_id)] = (int(ev.seat), int(ev.subject["index"]))
            elif isinstance(ev, QuestionAnswered):
                place = self._asked.pop((hand, ev.question_id), None)
                if place is not None and is_label(ev.answer.strip()):
                    self._learn(hand, place, ev.answer.strip())
            elif isinstance(ev, JudgeCorrection) and ev.event.get("type") == "pond_tile_seen":
                place = (int(ev.event.get("seat", -1)), int(ev.event.get("index", -1)))
                if ev.op == "delete":
                    self.learner.withdraw(self._key(hand, place))
                elif ev.op in ("replace", "insert") and is_label(str(ev.event.get("tile", ""))):
                    self._learn(hand, place, str(ev.event["tile"]))
            elif isinstance(ev, ResultConfirmed):
                self._publish()
        except (ValueError, KeyError, TypeError) as exc:  # a face the set does not hold, a malformed subject
            log.info("set learning: %s", exc)

    @staticmethod
    def _key(hand: str, place: tuple[int, int]) -> str:
        return f"{hand}/pond{place[0]}/{place[1]}"

    def _learn(self, hand: str, place: tuple[int, int], label: str) -> None:
        crop = getattr(self.camera, "pond_crops", {}).get(place)
        if crop is None:
            return
        self.learner.add(self._key(hand, place), label, crop, hand=hand)  # the same place again: replaced
        self.learned_now += 1

    def _publish(self) -> None:
        """The hand is signed: save what was learned and read with it."""
        if self.path is not None:
            try:
                self.learner.save(self.path)
            except OSError as exc:
                log.warning("set learning: cannot save %s: %s", self.path, exc)
        reader = self.camera.set_reader() if hasattr(self.camera, "set_reader") else None
        if reader is not None:
            reader.use(self.learner.tileset())
