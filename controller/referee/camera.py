"""The referee's camera: frames → observation events, through vision's pipeline, in one place.

:class:`CameraReader` wraps :class:`vision.pipeline.VisionPipeline` (and its tile reader: the switch to
another reader is :func:`make_reader` here) and adds what only the referee needs from a frame:

* a tile the reader is not sure of is ``unknown`` — the referee asks, it never takes a guess (vision's
  classifier with the table's enrolled set reports ``unknown`` below its calibrated threshold; a plain
  template matcher is held to ``min_score``);
* the racks (:class:`~rules.events.RackCounted`): tiles standing in each rack, and how many stand apart at
  its right end (the tile just drawn is kept apart, 000 §2.5.3), from the standing tiles vision found;
* riichi's dead-wall indicators (:class:`~rules.events.IndicatorSeen`), read in the emulated table's
  indicator strip (:data:`INDICATOR_SLOTS`: a real table calibrates where its dead wall lies).

Each reading counts once it is seen alike in two frames in a row (like vision's tracker).
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Generic, TypeVar, cast

import cv2
import numpy as np
import numpy.typing as npt

from rules.events import IndicatorSeen, ObservationEvent, RackCounted
from vision.arrays import Float32Array, Image
from vision.tile_labels import BACK
from vision.tile_match import Reading

if TYPE_CHECKING:
    from vision.calibration import Calibration
    from vision.pipeline import FrameResult
    from vision.scene_model import Scene
    from vision.scene_parse import ParseInfo
    from vision.set_watch import SetCheck, SetCheckState
    from vision.tile_match import TemplateReader, TileReader
    from vision.tile_reader import SetReader
    from vision.tileset import TileSet

_T = TypeVar("_T")

#: a zone's latest reading and its crops, tile by tile (a pond, a revealed hand, the flowers set aside) ...
ZoneCrops = tuple[list[str], list[Image]]
#: ... and a seat's melds: each meld's tiles and their crops
MeldCrops = tuple[list[list[str]], list[list[Image]]]

#: Where the emulated table shows riichi's dead-wall indicators: slot centres (a, b) in East's frame (mm),
#: the dora row; the ura row lies one tile further from the centre. Free of every vision zone.
INDICATOR_SLOTS: tuple[tuple[float, float], ...] = tuple((140.0 + 29.0 * i, 130.0) for i in range(5))
INDICATOR_ROW_MM = 40.0  # from the dora row to the ura row
SLOT_PAD_MM = 3.0  # a slot is cut this much wider on every side, then trimmed to the tile found in it: the
# table's calibration lies a millimetre off where the tile does (a crop cut into its sides read 5p "unknown")
APART_GAP_MM = 5.0  # a gap this wide before the last standing tile(s): they stand apart
MIN_SCORE = 0.7  # template reader: a reading below this is "unknown" (clean tiles score above 0.8)
MIN_MARGIN = 0.0  # and one this close to the next face
PX_PER_MM = 1.2
CONFIRM_SCORE = 0.6  # the template matcher's best face confirms the classifier's from this score, where the
# classifier is sure of it (AGREE_FIRST; from the matcher's own minimum: however sure)
#: the second reader takes the first one's face as well when it scores it this close to its own best (and
#: above its own minimum): it cannot tell the two apart, the first one can ...
AGREE_MARGIN = 0.02
AGREE_FIRST = 0.95  # ... where the first one is sure of it (a 5f read at 0.54 where the matcher saw 8f: no)


def make_reader(styles: Sequence[str], kind: str = "auto", tilesets: Sequence[TileSet] = ()) -> TileReader:
    """The tile reader the referee's pipeline uses: vision's default reader for the table's enrolled sets
    ``tilesets`` (``camera.tilesets``, as the table's own pipeline reads), else for the enrolled sets of its
    ``styles`` (the classifier with the set) checked by the template matcher (the set's own enrolled faces,
    else the styles' art) — a tile is taken when both read it alike (each errs where the other does not:
    the classifier names a smudged face, the matcher confuses 五/九 in one style), else it is ``unknown``
    and asked. A set saved without its faces (an old file) is read by the classifier alone. ``kind``:
    ``template`` or ``onnx`` for one alone.

    Each call makes a reader of its own: the classifier's set reader holds one table's state (the wrong-set
    watch, the set it learned: :meth:`SetReader.use`); what takes a while to load and never changes (the
    model's session, the enrolled style sets, a template bank) is made once per process and shared."""
    from vision.tile_reader import SetReader, pipeline_classifier

    sets = list(tilesets)
    if kind == "template":
        return _templates(tuple(styles), sets)
    if kind == "onnx":
        return SetReader(classifier=pipeline_classifier())
    if kind != "auto":
        raise ValueError(f"unknown reader {kind!r}: auto, onnx or template")
    if not sets:
        from vision.style_sets import style_tileset

        sets = [style_tileset(s) for s in styles]
    if not sets:
        raise ValueError("no tile set to read with: enroll the table's set ('mahjong-table tiles enroll') "
                         "and name it (camera.tilesets)")
    first = SetReader(sets, classifier=pipeline_classifier())
    if tilesets and not any(getattr(ts, "faces", None) is not None for ts in tilesets):
        return first  # no faces to match against (and a real table's tiles are not the styles' art)
    return AgreeingReader(first, _templates(tuple(styles), list(tilesets)))


def is_felt(crop: Image, std: float = 20.0, inner: bool = False) -> bool:
    """An even, darker-than-a-face patch: the table's cloth, no tile on it (a tile's face and its symbols
    vary far more). ``inner``: judged on the middle of the crop (the edge of a neighbouring tile at its
    border is no tile) — where no back can lie (a back of a set's colour is even too: a pond); there an even
    patch darker than any face colour (light: value 0.75 and up) is cloth, a light grey one included."""
    if inner and crop.size:
        h, w = crop.shape[:2]
        crop = crop[int(0.15 * h):int(0.85 * h) + 1, int(0.15 * w):int(0.85 * w) + 1]
    return bool(crop.size) and float(crop.std(axis=(0, 1)).max()) < std and float(crop.mean()) < (175 if inner else 150)


def slot_tile(crop: Image, pad: int) -> Image:
    """The tile in a slot cut ``pad`` pixels wider than a tile on every side: trimmed to the rows and columns
    that differ from the cloth of its border ring (the tile as the tile finder boxes it); where no tile-sized
    object stands out, the slot's middle, a tile's size."""
    h, w = crop.shape[:2]
    th, tw = h - 2 * pad, w - 2 * pad
    centre = crop[pad:h - pad, pad:w - pad]
    ring = np.concatenate([crop[:2].reshape(-1, 3), crop[-2:].reshape(-1, 3), crop[:, :2].reshape(-1, 3),
                           crop[:, -2:].reshape(-1, 3)]).astype(np.float32)
    diff = np.abs(crop.astype(np.float32) - np.median(ring, axis=0)).max(axis=2) > SLOT_CLOTH_DIFF
    x0, x1 = _run_through(diff.mean(axis=0) > 0.5, w // 2)  # (the run through the middle: a neighbour's
    y0, y1 = _run_through(diff.mean(axis=1) > 0.5, h // 2)  # edge inside the ring is another tile)
    if abs((x1 - x0) - tw) > pad or abs((y1 - y0) - th) > pad:  # not one tile's size: a hand over it, a shade
        return np.ascontiguousarray(centre)
    return np.ascontiguousarray(crop[y0:y1, x0:x1])


def _run_through(on: npt.NDArray[np.bool_], mid: int) -> tuple[int, int]:
    """The run of ``on`` through index ``mid`` (empty there: (mid, mid))."""
    if not on[mid]:
        return mid, mid
    off = np.flatnonzero(~on)
    left, right = off[off < mid], off[off > mid]
    return (int(left[-1]) + 1 if left.size else 0), (int(right[0]) if right.size else len(on))


SLOT_CLOTH_DIFF = 40.0  # a pixel this far (0-255, its farthest channel) from the cloth's colour is not cloth


class AgreeingReader:
    """Two readers that must agree on a face (``back`` and ``unknown`` as the first one says): the classifier
    names a smudged tile with full confidence (a 七萬 under a smear read 白 at 1.0), so a second reader that
    cannot tell is no confirmation. The second one (a template matcher) confirms a face

    * naming it as its best, with a score of at least its own ``min_score``, or of at least ``confirm``
      (:data:`CONFIRM_SCORE`: kai's 8s at 0.66) where the first reader is sure of it (:data:`AGREE_FIRST`):
      two unsure readers agreeing are no reading (stains like kai's big red 1p, 0.58 and 0.64, or kai's
      plain 5z, 0.94 and 0.63 — the matcher scores anything flat 0.6-0.8 as that 5z);
    * or, where the first reader is sure (:data:`AGREE_FIRST`), scoring it within :data:`AGREE_MARGIN` of
      its own best reading (at least ``min_score``): it takes both faces, the first one tells them apart.

    Where they do not agree the tile is ``unknown`` — or ``none`` on a crop of bare cloth (the finder cut a
    tile out of an empty place): no tile."""

    def __init__(self, first: TileReader, second: TileReader, *, min_score: float = MIN_SCORE,
                 confirm: float = CONFIRM_SCORE):
        self.first = first
        self.second = second
        self.min_score = min_score
        self.confirm = confirm
        self.thread_safe = getattr(first, "thread_safe", False) and getattr(second, "thread_safe", False)
        self.threshold = getattr(first, "threshold", 0.0)  # it says "unknown" itself

    def read(self, crops: Sequence[Image], allowed: Sequence[frozenset[str] | None] | None = None) -> list[Reading]:
        a = self.first.read(crops, allowed)
        b = self.second.read(crops, allowed)
        out: list[Reading | None] = [x if x.label in ("back", "unknown", "none")
                                     or (x.label == y.label and self._confirms(x, y)) else None for x, y in zip(a, b)]
        for i, o in enumerate(out):  # the first reader's own unknown: bare cloth (a "tile" cut from a shade) is none
            if o is not None and o.label == "unknown":
                out[i] = self._undecided(o, b[i], crops[i], self._no_back(allowed, i))
        split = [i for i, o in enumerate(out) if o is None]
        if split:  # does the second reader take the first one's face as well as its own best?
            again = self.second.read([crops[i] for i in split], [frozenset({a[i].label}) for i in split])
            for i, r in zip(split, again):
                best = getattr(b[i], "score", 1.0)
                sure = a[i].score >= AGREE_FIRST and b[i].label != "unknown" and best >= self.min_score
                if sure and r.label == a[i].label and r.score >= max(self.min_score, best - AGREE_MARGIN):
                    out[i] = a[i]  # (a template matcher that cannot tell 六 from 八 in one style: 0.912/0.908)
                else:
                    out[i] = self._undecided(a[i], b[i], crops[i], self._no_back(allowed, i))
        return cast("list[Reading]", out)  # (every None was decided above)

    @staticmethod
    def _no_back(allowed: Sequence[frozenset[str] | None] | None, i: int) -> bool:
        ok = allowed[i] if allowed is not None else None
        return ok is not None and BACK not in ok

    def _confirms(self, x: Reading, y: Reading) -> bool:
        """Whether the second reader's reading ``y`` of the first one's face confirms the first one's ``x``."""
        score = getattr(y, "score", 1.0)
        return score >= self.min_score or (score >= self.confirm and x.score >= AGREE_FIRST)

    @staticmethod
    def _undecided(x: Reading, y: Reading, crop: Image, no_back: bool = False) -> _Reading:
        """No reading: bare cloth is ``none``, else ``unknown`` (``no_back``: where no back may lie, the middle
        of the crop tells)."""
        return _no_reading(min(getattr(x, "score", 0.0), getattr(y, "score", 0.0)), x.upside_down,
                           is_felt(crop, inner=no_back))


@lru_cache(maxsize=8)
def _style_templates(styles: tuple[str, ...]) -> TemplateReader:
    from vision.tile_match import TemplateReader

    return TemplateReader(styles)


_SET_TEMPLATES: dict[str, TemplateReader] = {}  # enrolled sets' faces (their digest) -> their template reader


def _templates(styles: tuple[str, ...], tilesets: Sequence[TileSet]) -> TemplateReader:
    """The template matcher (immutable: shared): the enrolled sets' own faces, else the styles' art."""
    from vision.tile_match import TemplateReader

    sets = [ts for ts in tilesets if getattr(ts, "faces", None) is not None]
    if not sets:
        return _style_templates(styles)
    h = hashlib.sha256()
    for ts in sets:
        h.update("|".join(ts.labels).encode())
        h.update(np.ascontiguousarray(ts.faces).tobytes())
    key = h.hexdigest()
    if key not in _SET_TEMPLATES:
        if len(_SET_TEMPLATES) >= 8:
            _SET_TEMPLATES.pop(next(iter(_SET_TEMPLATES)))
        _SET_TEMPLATES[key] = TemplateReader.from_sets(sets)
    return _SET_TEMPLATES[key]


@dataclass(frozen=True)
class _Reading(Reading):
    """The referee's own reading of a crop it did not take (:func:`_no_reading`): a :class:`Reading`."""


def _no_reading(score: float, upside_down: bool = False, felt: bool = False) -> _Reading:
    """``unknown`` with even class probabilities (no evidence for any face: vision's rules prior reads a set
    from its other tiles and leaves this one unknown), or ``none`` (bare cloth: no tile)."""
    from vision.tile_labels import CLASS_LABELS, NONE

    p = np.full(len(CLASS_LABELS), 0.0 if felt else 1.0 / (len(CLASS_LABELS) - 1))
    p[CLASS_LABELS.index(NONE)] = 1.0 if felt else 0.0
    return _Reading(NONE if felt else "unknown", score, upside_down, p)


def _twin(label: str) -> str:
    """A five and its red five are one face for the margin (their difference is the colour)."""
    return {"5m": "0m", "0m": "5m", "5p": "0p", "0p": "5p", "5s": "0s", "0s": "5s"}.get(label, label)


class ConfidentReader:
    """A tile reader that answers ``unknown`` where it is not sure: a best score below ``min_score``, or a
    runner-up face (the red or plain twin of a five aside) within ``min_margin`` of it."""

    def __init__(self, reader: TileReader, min_score: float = MIN_SCORE, min_margin: float = MIN_MARGIN):
        self.reader = reader
        # a reader that says "unknown" itself (vision's classifier with the table's enrolled set, its own
        # calibrated threshold) is taken as it answers; a plain matcher (the template reader) is held to ours
        self.min_score = -1.0 if hasattr(reader, "threshold") else min_score
        self.min_margin = min_margin
        self.thread_safe = getattr(reader, "thread_safe", False)
        self.labels = frozenset(getattr(reader, "labels", ()))
        self.face: tuple[int, int, int] | None = None  # the table's set's face colour (None: the style's)

    def read(self, crops: Sequence[Image], allowed: Sequence[frozenset[str] | None] | None = None) -> list[Reading]:
        first = self.reader.read(crops, allowed)
        out = list(first)
        rest = [i for i, r in enumerate(first) if r.label not in ("back", "unknown")]
        if self.min_margin > 0 and self.labels and rest:
            others = []
            for i in rest:
                zone = allowed[i] if allowed is not None else None
                ok = zone if zone is not None else self.labels
                others.append(frozenset(ok - {first[i].label, _twin(first[i].label), "back"}))
            second = self.reader.read([crops[i] for i in rest], others)
            for i, r2 in zip(rest, second):
                if first[i].score - r2.score < self.min_margin:
                    out[i] = _no_reading(first[i].score, first[i].upside_down)
        for i, r in enumerate(out):
            if getattr(r, "score", 1.0) < self.min_score and r.label != "back":
                out[i] = _no_reading(r.score, r.upside_down)
        return out


class _Steady(Generic[_T]):
    """A value counts once two frames in a row agree (and it differs from the last one counted)."""

    def __init__(self) -> None:
        self.cand: _T | None = None
        self.count = 0
        self.stable: _T | None = None
        self.since: tuple[int, float, float] = (0, 0.0, 0.0)

    def see(self, v: _T | None, stamp: tuple[int, float, float]) -> bool:
        if v != self.cand:
            self.cand, self.count, self.since = v, 1, stamp
        else:
            self.count += 1
        if self.count >= 2 and self.cand != self.stable:
            self.stable = self.cand
            return True
        return False


class CameraReader:
    """Frames of one table → observation events for the referee (see the module's docstring)."""

    def __init__(self, calibration: Calibration, profile: str, styles: Sequence[str], *, n_seats: int = 4,
                 min_score: float = MIN_SCORE, min_margin: float = MIN_MARGIN, indicators: bool | None = None,
                 threads: int = 1, kind: str = "auto", tilesets: Sequence[TileSet] = ()):
        """``tilesets``: the table's enrolled sets (``camera.tilesets``), read with instead of the enrolled
        sets of ``styles``; :class:`vision.tileset.TileSetError` for a set of another model."""
        from vision.conventions import conventions
        from vision.pipeline import VisionPipeline

        self.reader = ConfidentReader(make_reader(styles, kind, tilesets), min_score, min_margin)
        if tilesets:  # the set's own face colour sharpens the tile finder's masks (as in the table's pipeline)
            self.reader.face = getattr(self.set_reader(), "face", None)
        self.pipe = VisionPipeline(calibration, profile, list(styles), reader=self.reader, n_seats=n_seats,
                                   threads=threads, tilesets=list(tilesets))
        self.cal = calibration
        self.n_seats = n_seats
        # the dead wall's indicator slots are watched where the rule set's table has them (riichi's dora)
        self.indicators = conventions(profile).dora_indicators if indicators is None else indicators
        self.racks: dict[int, _Steady[tuple[int, int]]] = {s: _Steady() for s in range(n_seats)}  # (standing, apart)
        self.slots: dict[tuple[int, int], _Steady[str]] = {(row, i): _Steady() for row in (0, 1)
                                                          for i in range(len(INDICATOR_SLOTS))}  # -> its tile
        self.seen_slots: set[tuple[int, int]] = set()
        self._strip_ref: Image | None = None
        self.frames = 0
        self.ms: dict[str, float] = {}
        self.pond_crops: dict[tuple[int, int], Image] = {}  # (seat, pond index) -> its latest crop
        self.zone_crops: dict[str, ZoneCrops] = {}  # zone -> (its reading, its crops), latest (not the melds)
        self.meld_crops: dict[str, MeldCrops] = {}  # meld zone -> (its melds' tiles, their crops), latest

    def prime(self, scene: Scene) -> None:
        """Start from the table the record gives (after a restart): only changes from it are reported."""
        self.pipe.tracker.stable = scene
        self.pipe.scene = scene

    def process(self, image: Image, t_mono: float, t_wall: float = 0.0) -> list[ObservationEvent]:
        r = self.pipe.process(image, t_mono=t_mono, t_wall=t_wall)
        if r.info is not None:
            self._keep_crops(r.scene, r.info)
            # a zone an arm covered is read again once uncovered, whatever the change detector says: what
            # was put down under the arm may differ little from the cloth at a quarter scale (白 on a pale
            # cloth)
            self.pipe.reread(r.info.occluded)
        self.frames += 1
        self.ms = dict(r.ms)
        stamp = (self.pipe.frame_no - 1, t_mono, t_wall)
        out: list[ObservationEvent] = list(r.events)
        out += self._racks(r, stamp)
        if self.indicators:
            out += self._indicators(image, stamp)
        return out

    def close(self) -> None:
        self.pipe.close()

    def _keep_crops(self, scene: Scene, info: ParseInfo) -> None:
        """The latest crop of every pond tile, and of every zone read this frame its reading and crops (the melds'
        apart: what the record's confirmed faces can teach the set, controller/set_learning.py)."""
        for name, crops in info.crops.items():
            kind, seat = name.rstrip("0123456789"), int(name.lstrip("abcdefghijklmnopqrstuvwxyz"))
            if name in info.occluded or seat >= len(scene.seats):
                continue
            v = scene.seats[seat]
            tiles = {"pond": [p.tile for p in v.pond], "hand": list(v.revealed), "side": list(v.flowers)}.get(kind)
            if tiles is None or len(tiles) != len(crops):
                continue
            self.zone_crops[name] = (tiles, list(crops))
            if kind == "pond":
                for i, c in enumerate(crops):
                    self.pond_crops[(seat, i)] = c
        for name, per_meld in info.meld_crops.items():
            melds = info.melds.get(name, ())
            if name not in info.occluded and len(melds) == len(per_meld):
                self.meld_crops[name] = ([list(m.tiles) for m in melds], [list(c) for c in per_meld])

    def _readers(self) -> Iterator[object]:
        """The camera's reader and those it wraps: ConfidentReader -> AgreeingReader -> the classifier's SetReader."""
        rd: object = self.reader
        for _ in range(4):
            yield rd
            rd = getattr(rd, "reader", None) or getattr(rd, "first", None)
            if rd is None:
                break

    def set_reader(self) -> SetReader | None:
        """The classifier's reader with the enrolled set behind this camera (None: another reader)."""
        from vision.tile_reader import SetReader

        return next((rd for rd in self._readers() if isinstance(rd, SetReader)), None)

    def set_check(self) -> SetCheckState | None:
        """Whether the tiles in view still look like the enrolled set (vision's set watch: the reader asks
        about every face while they do not), as ``{"wrong", "similarity", "line", "seen"}``; None where the
        reader has no set to compare with."""
        for rd in self._readers():
            if hasattr(rd, "set_check"):  # (a SetReader, or what stands for one)
                chk: SetCheck | None = rd.set_check()
                return None if chk is None else chk.as_dict()
        return None

    # --- racks --------------------------------------------------------------------------------------
    def _racks(self, r: FrameResult, stamp: tuple[int, float, float]) -> list[ObservationEvent]:
        out: list[ObservationEvent] = []
        info = r.info
        for s in range(self.n_seats):
            name = f"hand{s}"
            st = self.racks[s]
            if info is None or name not in r.read:  # not re-read: its image did not change
                if st.cand is None or not st.see(st.cand, stamp):
                    continue
            elif name not in info.found or name in info.occluded:
                st.cand, st.count = None, 0
                continue
            else:
                boxes = sorted(f.box for f in info.found[name] if f.shape == "stand")
                apart = 0
                for k in range(len(boxes) - 1, 0, -1):
                    if (boxes[k][0] - boxes[k - 1][2]) / PX_PER_MM > APART_GAP_MM:
                        apart = len(boxes) - k
                        break
                if not st.see((len(boxes), apart), stamp):
                    continue
            if st.stable is not None and st.stable[0]:
                fr, t, tw = st.since
                out.append(RackCounted(seat=s, standing=st.stable[0], apart=st.stable[1], frame=fr, t_mono=t,
                                       t_wall=tw))
        return out

    # --- riichi's dead-wall indicators ------------------------------------------------------------------
    def _slot_quad(self, row: int, i: int, pad: float = 0.0) -> Float32Array:
        from vision.geometry import DEFAULT_GEOMETRY as GEO
        from vision.geometry import apply_homography, local_to_table

        a, b = INDICATOR_SLOTS[i]
        b += row * INDICATOR_ROW_MM
        w, h = GEO.tile_w / 2 + pad, GEO.tile_h / 2 + pad
        local = np.array([[a - w, b - h], [a + w, b - h], [a + w, b + h], [a - w, b + h]])
        return apply_homography(self.cal.h, local_to_table(0, local, GEO)).astype(np.float32)

    def _indicators(self, image: Image, stamp: tuple[int, float, float]) -> list[IndicatorSeen]:
        quads = {k: self._slot_quad(*k) for k in self.slots if k not in self.seen_slots}
        if not quads:
            return []
        pts = np.concatenate(list(quads.values()))
        x0, y0 = np.floor(pts.min(0)).astype(int) - 2
        x1, y1 = np.ceil(pts.max(0)).astype(int) + 2
        grey = cv2.cvtColor(image[max(0, y0):y1, max(0, x0):x1], cv2.COLOR_BGR2GRAY)
        small = cast(Image, cv2.resize(grey, (max(1, grey.shape[1] // 4), max(1, grey.shape[0] // 4)),
                                       interpolation=cv2.INTER_AREA))
        if self._strip_ref is not None and self._strip_ref.shape == small.shape and int(np.count_nonzero(
                cv2.absdiff(small, self._strip_ref) > 28)) < 6 and all(s.count >= 2 for s in self.slots.values()):
            return []
        self._strip_ref = small
        pad = int(round(SLOT_PAD_MM * PX_PER_MM))
        w, h = int(round(27 * PX_PER_MM)) + 2 * pad, int(round(36 * PX_PER_MM)) + 2 * pad
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        crops: list[Image] = []
        keys: list[tuple[int, int]] = []
        for k in quads:
            q = self._slot_quad(*k, pad=SLOT_PAD_MM)
            crop = slot_tile(cast(Image, cv2.warpPerspective(image, cv2.getPerspectiveTransform(q, dst), (w, h))),
                             pad)
            if is_felt(crop, 12.0):
                self.slots[k].see(None, stamp)  # felt: no tile there
                continue
            crops.append(crop)
            keys.append(k)
        out: list[IndicatorSeen] = []
        reads = self.reader.read(crops) if crops else []
        for k, r in zip(keys, reads):
            st = self.slots[k]
            # read as no tile (the reader's own check for bare cloth is the surer one): an empty slot, not a question
            if st.see(None if r.label == "none" else r.label, stamp) and st.stable is not None:
                if st.stable != "unknown":  # (an unreadable one is asked, and read again when it changes)
                    self.seen_slots.add(k)
                fr, t, tw = st.since
                out.append(IndicatorSeen(index=k[1], tile=st.stable, kind="ura" if k[0] else "dora", frame=fr,
                                         t_mono=t, t_wall=tw))
        return sorted(out, key=lambda e: (e.kind != "dora", e.index))
