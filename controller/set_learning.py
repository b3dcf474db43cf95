"""The table learns its set while it plays: the record's confirmed faces feed vision's set learner.

    learning = TableLearning(learner, path, camera)      # camera: CameraReader (its crops, its reader)
    store.listeners.append(learning.on_event)             # every event the store takes, (stream, seq, event)
    learning.status()                                     # {"hands": N, "crops": n}: "learned from N hands"

Every tile whose face the record confirms is a labelled crop of the table's own set under its own lamp:

* a pond tile the camera could not read is asked (``QuestionAsked`` kind ``tile``, zone ``pond``, in
  ``<hand>/verdicts``); the judge's or the operator's answer (``QuestionAnswered`` in ``<hand>/referee``) names
  its face, and the crop the camera holds for that seat and pond place is learned as that face;
* a judge's correction that replaces a pond observation with another face (``JudgeCorrection`` ``replace`` of
  a ``pond_tile_seen``) withdraws what was learned for that place and learns the corrected face; one that
  deletes it withdraws it;
* when the hand's result is confirmed (``ResultConfirmed``: every seat signed, or the judge), the signed record
  (``<hand>/game``, or ``<hand>/game.r<N>`` after corrections: its events as the store took them) gives the
  table as it lay at the end (:func:`vision.scene_game.scenes_from_events`): every pond, meld, revealed hand and
  set-aside flower. Each tile of it is learned with the crop the camera read there last
  (:attr:`controller.referee.camera.CameraReader.zone_crops`, ``.meld_crops``) where the camera's reading of that zone fits
  the record: as many tiles, and every face the camera was sure of the record's face at that place (a free
  pond or the flowers: as multisets; a doubted tile there only where the record leaves one face for it). A zone
  whose reading disagrees anywhere is not learned from at all (its crops may not be the record's tiles), nor is
  a face-down tile. A correction after the signature withdraws what the hand's record taught; the next
  signature learns from the corrected record.

Then the learned crops are saved beside the table's set file and the camera reads with them from then on.
Nothing the record does not confirm is learned. The work of a signature (embedding ~100 crops in four turns)
runs on one worker thread, never on the store's writer; :meth:`TableLearning.flush` waits for it. Reads the
store's events only: the referee is not touched.
"""
from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rules.events import Event, HandStarted, JudgeCorrection, QuestionAnswered, QuestionAsked, ResultConfirmed
from vision.arrays import Image
from vision.set_learner import SetLearner
from vision.tile_labels import UNKNOWN, is_label

if TYPE_CHECKING:
    from controller.referee.camera import MeldCrops, ZoneCrops
    from vision.tile_reader import SetReader

log = logging.getLogger("mahjong_table.set_learning")

KEEP_HANDS = 3  # hands whose record streams are kept (a correction after the signature re-signs the latest)
RECORD = re.compile(r"^(?P<hand>.+)/game(?:\.r(?P<rev>\d+))?$")  # a hand's record stream, at a revision


class LearningCamera(Protocol):
    """What is read of the referee's camera (:class:`controller.referee.camera.CameraReader`), each where it has
    it: ``pond_crops`` ((seat, pond index) -> the latest crop), ``zone_crops`` and ``meld_crops`` (zone -> its
    latest reading and crops), ``set_reader()`` (the classifier's reader with the table's set)."""

    pond_crops: dict[tuple[int, int], Image]
    zone_crops: dict[str, ZoneCrops]
    meld_crops: dict[str, MeldCrops]

    def set_reader(self) -> SetReader | None: ...


def learned_path(set_path: str | Path) -> Path:
    """Where a set file's learned crops are kept: beside it (``table.npz`` -> ``table.learned.npz``)."""
    p = Path(set_path)
    return p.with_name(p.stem + ".learned.npz")


class TableLearning:
    """Feeds a :class:`SetLearner` from the record's events (see the module docstring)."""

    def __init__(self, learner: SetLearner, path: str | Path | None, camera: LearningCamera):
        self.learner = learner
        self.path = Path(path) if path is not None else None
        self.camera = camera
        self._asked: dict[tuple[str, int], tuple[int, int]] = {}  # (hand, question id) -> (seat, pond index)
        self._records: dict[tuple[str, int], dict[int, Event]] = {}  # (hand, revision) -> seq -> event
        self._taught: dict[str, set[str]] = {}  # hand -> keys its signed record taught
        self._signed: set[tuple[str, int]] = set()  # (hand, revision) learned from
        self._reopened: dict[str, int] = {}  # hand -> corrections seen (a signature before the last is void)
        self._lock = threading.Lock()  # the learner: the writer thread (answers) and the worker (signatures)
        self._pool: ThreadPoolExecutor | None = None
        self._jobs: list[Future[None]] = []
        self.learned_now = 0

    def status(self) -> dict[str, int]:
        """For the judge: hands learned from, crops kept."""
        with self._lock:
            return {"hands": self.learner.hands, "crops": sum(self.learner.counts().values())}

    def on_event(self, stream: str, seq: int, ev: Event) -> None:
        """A store listener: every event appended, with its stream (``<hand>/referee``, ``<hand>/verdicts``, ...)."""
        hand = stream.split("/", 1)[0]
        try:
            rec = RECORD.match(stream)
            if rec is not None:
                self._keep(rec["hand"], int(rec["rev"] or 0), seq, ev)
            if isinstance(ev, QuestionAsked) and ev.kind == "tile" and ev.subject.get("zone") == "pond":
                if ev.seat is not None and ev.subject.get("index") is not None:
                    self._asked[(hand, ev.question_id)] = (int(ev.seat), int(ev.subject["index"]))
            elif isinstance(ev, QuestionAnswered):
                place = self._asked.pop((hand, ev.question_id), None)
                if place is not None and is_label(ev.answer.strip()):
                    self._learn_place(hand, place, ev.answer.strip())
            elif isinstance(ev, JudgeCorrection):
                self._corrected(hand, ev)
            elif isinstance(ev, ResultConfirmed):
                self._signed_now(hand, rec is not None)
        except (ValueError, KeyError, TypeError) as exc:  # a face the set does not hold, a malformed subject
            log.info("set learning: %s", exc)

    def flush(self, timeout: float | None = None) -> None:
        """Wait for the signatures' work queued so far (tests, shutdown)."""
        jobs, self._jobs = self._jobs, []
        for j in jobs:
            j.result(timeout)

    # ---- a question answered, a correction -----------------------------------------------------------
    @staticmethod
    def _key(hand: str, place: tuple[int, int]) -> str:
        return f"{hand}/pond{place[0]}/{place[1]}"

    def _learn_place(self, hand: str, place: tuple[int, int], label: str) -> None:
        crop = getattr(self.camera, "pond_crops", {}).get(place)
        if crop is None:
            return
        with self._lock:
            self.learner.add(self._key(hand, place), label, crop, hand=hand)  # the same place again: replaced
        self.learned_now += 1

    def _corrected(self, hand: str, ev: JudgeCorrection) -> None:
        """A correction reopens the hand's record: what its signature taught is withdrawn (the next signature
        learns from the corrected record); a corrected pond observation is learned (or withdrawn) at once."""
        with self._lock:
            self._reopened[hand] = self._reopened.get(hand, 0) + 1  # a signature's work queued before: void
            for key in self._taught.pop(hand, set()):
                self.learner.withdraw(key)
        if ev.event.get("type") != "pond_tile_seen":
            return
        place = (int(ev.event.get("seat", -1)), int(ev.event.get("index", -1)))
        if ev.op == "delete":
            with self._lock:
                self.learner.withdraw(self._key(hand, place))
        elif ev.op in ("replace", "insert") and is_label(str(ev.event.get("tile", ""))):
            self._learn_place(hand, place, str(ev.event["tile"]))

    # ---- the signature -------------------------------------------------------------------------------
    def _keep(self, hand: str, rev: int, seq: int, ev: Event) -> None:
        """An event of a hand's record stream (the records of the last :data:`KEEP_HANDS` hands are kept)."""
        if (hand, rev) not in self._records:
            hands = list(dict.fromkeys(h for h, _ in self._records))
            for old in hands[:max(0, len(hands) - KEEP_HANDS + (hand not in hands))]:
                for k in [k for k in self._records if k[0] == old]:
                    del self._records[k]
        self._records.setdefault((hand, rev), {})[seq] = ev

    def _signed_now(self, hand: str, in_record: bool) -> None:
        """The hand is signed. Where its record is in the store (the confirmation comes last in the record's
        stream): learn from its latest revision (once each), save, read with it -- on the worker thread. Without
        a record (a table that keeps none): save and read with what its answers taught."""
        revs = [r for (h, r) in self._records if h == hand]
        if not in_record:
            if not revs:
                with self._lock:
                    self._publish()
            return
        rev = max(revs)
        if (hand, rev) in self._signed:
            return
        self._signed.add((hand, rev))
        got = self._records[(hand, rev)]
        record = [got[k] for k in sorted(got)]
        zones: dict[str, ZoneCrops] = dict(getattr(self.camera, "zone_crops", {}))  # the camera's last reading,
        melds: dict[str, MeldCrops] = dict(getattr(self.camera, "meld_crops", {}))  # as it is now
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="set-learning")
        self._jobs.append(self._pool.submit(self._sign, hand, record, zones, melds, self._reopened.get(hand, 0)))

    def _sign(self, hand: str, record: list[Event], zones: dict[str, ZoneCrops], melds: dict[str, MeldCrops],
              opened: int) -> None:
        try:
            learned = confirmed_crops(record, zones, melds)
            with self._lock:
                if self._reopened.get(hand, 0) != opened:  # corrected since it was signed: not this record
                    return
                for key in self._taught.pop(hand, set()):
                    self.learner.withdraw(key)
                taught = self._taught.setdefault(hand, set())
                for key, label, crop in learned:
                    try:
                        if self.learner.add(f"{hand}/{key}", label, crop, hand=hand):
                            taught.add(f"{hand}/{key}")
                    except ValueError:  # a face the table's set does not hold
                        continue
                self.learned_now += len(taught)
                self._publish()
        except Exception:  # the table plays on without what this hand would have taught
            log.exception("set learning: the signed record of %s was not learned from", hand)

    def _publish(self) -> None:
        """Save what was learned and read with it (the learner's lock held)."""
        if self.path is not None:
            try:
                self.learner.save(self.path)
            except OSError as exc:
                log.warning("set learning: cannot save %s: %s", self.path, exc)
        reader = self.camera.set_reader() if hasattr(self.camera, "set_reader") else None
        if reader is not None:
            reader.use(self.learner.tileset())


# ---- what the record confirms -------------------------------------------------------------------------

def confirmed_crops(record: Sequence[Event], zones: dict[str, ZoneCrops], melds: dict[str, MeldCrops] | None = None
                    ) -> list[tuple[str, str, Image]]:
    """(key, face, crop) for every tile of the signed ``record``'s final table whose crop the camera holds in
    ``zones`` (zone -> (the camera's reading, its crops): ponds, revealed hands, flowers as lists of labels) or
    ``melds`` (``meld<seat>`` -> the melds' tiles and crops) and whose place the camera's reading fits (the module
    docstring). ``key`` names the place (``pond2/5``, ``meld1/0/2``, ...), the same place of a pond as a question
    about it."""
    from vision.conventions import conventions
    from vision.scene_game import scenes_from_events

    start = next((e for e in record if isinstance(e, HandStarted)), None)
    if start is None:
        return []
    table = scenes_from_events(start.profile, record, max_pond=None)[-1]
    free = conventions(start.profile).pond_layout == "free"
    out: list[tuple[str, str, Image]] = []
    for s, v in enumerate(table.seats):
        for kind, tiles, unordered in (("pond", [p.tile for p in v.pond], free), ("hand", list(v.revealed), False),
                                       ("side", list(v.flowers), True)):
            seen = zones.get(f"{kind}{s}")
            if seen is not None:
                faces = _fit(tiles, seen[0], unordered)
                out += [(f"{kind}{s}/{i}", f, seen[1][i]) for i, f in enumerate(faces) if f is not None]
        meld = (melds or {}).get(f"meld{s}")
        if meld is not None and len(meld[0]) == len(v.melds):
            for j, (m, read, crops) in enumerate(zip(v.melds, meld[0], meld[1])):
                faces = _fit(list(m.tiles), read, False)
                out += [(f"meld{s}/{j}/{i}", f, crops[i]) for i, f in enumerate(faces) if f is not None]
    return out


def _fit(record: list[str], read: list[str], unordered: bool) -> list[str | None]:
    """The record's face for each tile the camera read (None: not confirmed), where the zone's reading fits the
    record's -- as many tiles, every sure face the record's (in order, or as multisets where ``unordered``) --
    else all None. A face-down tile (``x``) is never a face."""
    none: list[str | None] = [None] * len(read)
    if len(record) != len(read):
        return none
    if not unordered:
        if any(c != r and c != UNKNOWN for r, c in zip(record, read)):
            return none
        return [r if is_label(r) else None for r in record]
    left = Counter(record)
    for c in read:
        if c != UNKNOWN:
            left[c] -= 1
    if any(n < 0 for n in left.values()):
        return none
    rest = [f for f, n in left.items() if n > 0]
    fill = rest[0] if len(rest) == 1 and is_label(rest[0]) else None  # a doubted tile: only one face is left
    return [c if c != UNKNOWN and is_label(c) else (fill if c == UNKNOWN else None) for c in read]
