"""One entry point from camera frames to observation events.

    pipe = VisionPipeline(calibration, "riichi-ema2016", styles=["classic"])
    events = pipe.process(frame, t_mono=clock())     # list of rules.events observation events

Per frame: per-zone change detection on the 1/4-scale grey camera frame against the image each zone was
last read from → rectify (slices of one precomputed remap) and re-read only the zones that changed (the
incremental path; ``full=True`` re-reads every zone) → tracker (debounce, diff, timestamps). A zone with a hand over it fails the tile
shape checks and is not trusted that frame; a reading counts once it repeats (``debounce`` frames).
No global state, no blocking calls; one object per table.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.events import ObservationEvent
from vision.calibration import Calibration, Rectifier
from vision.scene_model import Scene
from vision.scene_parse import ParseInfo, SceneParser
from vision.tile_finder import MARGIN_PX, zone_slice
from vision.tile_render import load_style
from vision.tracking import Tracker

CHANGE_LEVEL = 28  # grey difference (1/4 scale) that counts a pixel as changed
CHANGE_PIXELS = 6  # changed pixels (1/4 scale, ~ a quarter of a tile) that mark a zone changed


def _changed(a: np.ndarray, b: np.ndarray) -> bool:
    return int(np.count_nonzero(cv2.absdiff(a, b) > CHANGE_LEVEL)) >= CHANGE_PIXELS


def make_reader(styles: list[str], reader: str = "auto") -> object:
    """``template`` (the enrolled sets' faces), ``onnx`` (vision I's classifier) or ``auto`` (template:
    measured more accurate on full-table renders; see docs/vision-pipeline.md)."""
    from vision.tile_match import OnnxReader, TemplateReader

    if reader == "onnx":
        return OnnxReader()
    return TemplateReader(styles)


@dataclass
class FrameResult:
    scene: Scene
    events: list[ObservationEvent]
    read: set[str]
    moving: set[str]
    info: ParseInfo | None
    ms: dict[str, float] = field(default_factory=dict)


class VisionPipeline:
    """Frames of one table → parsed scenes → observation events."""

    def __init__(self, calibration: Calibration, profile: str, styles: list[str], *, reader: str | object = "auto",
                 debounce: int = 2, px_per_mm: float = 1.2, n_seats: int = 4):
        self.cal = calibration
        self.rect = Rectifier(calibration, px_per_mm)
        rd = make_reader(styles, reader) if isinstance(reader, str) else reader
        face = load_style(styles[0]).face if len(styles) == 1 else None
        self.parser = SceneParser(profile, rd, calibration.geometry, px_per_mm, n_seats, face=face)
        self.tracker = Tracker(profile, n_seats, debounce)
        self.px = px_per_mm
        self.scene = Scene(profile, self.tracker.stable.seats)
        self._prev_small: np.ndarray | None = None
        self._ref_small: dict[str, np.ndarray] = {}
        self._slices = {n: self._small_slice(z) for n, z in self.parser.zones.items()}
        n_top = self.rect.size
        self._top_slices = {}
        for n, z in self.parser.zones.items():
            ys, xs = zone_slice(z, px_per_mm, calibration.geometry, MARGIN_PX + 1)
            self._top_slices[n] = (slice(max(0, ys.start), min(n_top, ys.stop)),
                                   slice(max(0, xs.start), min(n_top, xs.stop)))
        self._top = np.zeros((self.rect.size, self.rect.size, 3), np.uint8)
        ys, xs = self._slices["centre"]  # the dice: compared at full resolution (pips are ~3 px)
        self._centre_full = (slice(ys.start * 4, ys.stop * 4), slice(xs.start * 4, xs.stop * 4))
        self._centre_ref: np.ndarray | None = None
        self.frame_no = 0

    def _small_slice(self, z) -> tuple[slice, slice]:
        """The zone's bounding box in the 1/4-scale camera frame (change detection before rectifying)."""
        from vision.geometry import apply_homography

        x0, y0, x1, y1 = z.table_rect(self.cal.geometry)
        pts = apply_homography(self.cal.h, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])) / 4.0
        w, h = self.cal.frame_size[0] // 4, self.cal.frame_size[1] // 4
        xa, ya = (int(np.clip(v, 0, m)) for v, m in zip(np.floor(pts.min(0)), (w, h)))
        xb, yb = (int(np.clip(v, 0, m)) for v, m in zip(np.ceil(pts.max(0)) + 1, (w, h)))
        return slice(ya, yb), slice(xa, xb)

    def _rectify_zones(self, frame: np.ndarray, names: set[str]) -> np.ndarray:
        """Rectify only the zones to be read (map slices of the precomputed remap) into the top image."""
        for n in names:
            ys, xs = self._top_slices[n]
            self._top[ys, xs] = cv2.remap(frame, self.rect.map1[ys, xs], self.rect.map2[ys, xs], cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_CONSTANT)
        return self._top

    def process(self, frame: np.ndarray, t_mono: float | None = None, t_wall: float | None = None,
                full: bool = False) -> FrameResult:
        t0 = time.perf_counter()
        t_mono = time.monotonic() if t_mono is None else t_mono
        t_wall = time.time() if t_wall is None else t_wall
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (grey.shape[1] // 4, grey.shape[0] // 4), interpolation=cv2.INTER_AREA)
        to_read: set[str] = set()
        moving: set[str] = set()
        for name, (ys, xs) in self._slices.items():
            cur = small[ys, xs]
            ref = self._ref_small.get(name)
            changed = ref is None or _changed(cur, ref)
            if self._prev_small is not None and changed:
                if _changed(cur, self._prev_small[ys, xs]):
                    moving.add(name)  # changing right now: read, but only a repeated reading counts
            if name == "centre":  # dice pips are too small for the 1/4-scale check
                cy, cx = self._centre_full
                cur_full = grey[cy, cx]
                changed = changed or self._centre_ref is None or _changed(cur_full, self._centre_ref)
            if full or changed:
                to_read.add(name)
        self._prev_small = small
        t2 = time.perf_counter()
        info = None
        scene = self.scene
        if to_read:
            top = self._rectify_zones(frame, to_read)
            scene, info = self.parser.parse(top, zones=to_read, previous=self.scene)
            for name in to_read - info.occluded:
                ys, xs = self._slices[name]
                self._ref_small[name] = small[ys, xs].copy()
                if name == "centre":
                    self._centre_ref = grey[self._centre_full].copy()
            self.scene = scene
        t3 = time.perf_counter()
        untrusted = info.occluded if info else set()
        events = self.tracker.update(scene, frame=self.frame_no, t_mono=t_mono, t_wall=t_wall, read=to_read,
                                     untrusted=untrusted)
        t4 = time.perf_counter()
        self.frame_no += 1
        ms = {"change": (t2 - t0) * 1e3, "rectify+parse": (t3 - t2) * 1e3,
              "track": (t4 - t3) * 1e3, "total": (t4 - t0) * 1e3}
        return FrameResult(scene, events, to_read, moving, info, ms)
