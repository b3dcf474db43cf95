"""One entry point from camera frames to observation events.

    pipe = VisionPipeline(calibration, "riichi-ema2016", tilesets=[TileSet.load("table3.npz")])
    pipe = VisionPipeline(calibration, "riichi-ema2016", ["classic"])   # a rendered style's enrolled set
    events = pipe.process(frame, t_mono=clock())     # list of rules.events observation events

Tiles are read by the classifier with the table's enrolled tile set(s) (:class:`vision.tile_reader.SetReader`);
a rendered style named in ``styles`` stands for its enrolled set (:func:`vision.style_sets.style_tileset`:
enrolled from rendered photos of the layout, never given the art). ``reader="template"`` reads with the
shipped styles' exact art instead -- an upper bound for rendered scenes, not a real table's reader.

Per frame: per-zone change detection on the 1/4-scale grey camera frame against the image each zone was
last read from → rectify each zone that changed straight into its owner's view (one precomputed remap
table per zone) and re-read only those (the incremental path; ``full=True`` re-reads every zone), on one
or two threads → tracker (debounce, diff, timestamps). A zone with a hand over it fails the tile
shape checks and is not trusted that frame; a reading counts once it repeats (``debounce`` frames).
No global state, no blocking calls; one object per table (``close()`` stops its zone thread).
"""
from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import cast

import cv2
import numpy as np

from rules.events import ObservationEvent
from vision.arrays import Image
from vision.calibration import Calibration, Rectifier, RemapMaps
from vision.scene_model import Scene
from vision.scene_parse import ParseInfo, SceneParser
from vision.tile_finder import MARGIN_PX, ZoneImage, quarter_turns, zone_slice, zone_view
from vision.tile_match import TileReader
from vision.tile_render import load_style
from vision.tileset import TileSet
from vision.tracking import Tracker
from vision.zones import Zone

CHANGE_LEVEL = 28  # grey difference (1/4 scale) that counts a pixel as changed
CHANGE_PIXELS = 6  # changed pixels (1/4 scale, ~ a quarter of a tile) that mark a zone changed


def _changed(a: Image, b: Image) -> bool:
    return int(np.count_nonzero(cv2.absdiff(a, b) > CHANGE_LEVEL)) >= CHANGE_PIXELS


def make_reader(styles: Sequence[str] = (), reader: str = "auto", tilesets: Sequence[TileSet] = ()) -> TileReader:
    """The tile reader of a pipeline. ``auto``: the classifier with ``tilesets``, else with the enrolled
    sets of the rendered ``styles`` (:func:`vision.style_sets.style_tileset`); ``onnx``: the classifier
    alone (no set); ``template``: correlation with the mean enrolled crops of ``tilesets`` (the table's own
    photos), or where none is given with the shipped styles' exact art (an upper bound for renders of
    those styles). ValueError when ``auto`` has no set to read with."""
    from vision.tile_reader import SetReader

    if reader == "onnx":
        return SetReader()
    if reader == "template":
        from vision.tile_match import TemplateReader

        return TemplateReader.from_sets(tilesets) if tilesets else TemplateReader(styles)
    if reader != "auto":
        raise ValueError(f"unknown reader {reader!r}: auto, onnx or template")
    sets = list(tilesets)
    if not sets:
        from vision.style_sets import style_tileset

        sets = [style_tileset(s) for s in styles]
    if not sets:
        raise ValueError("no tile set to read with: enroll the table's set ('mahjong-table tiles enroll') "
                         "and name it (camera.tilesets)")
    return SetReader(sets)


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

    def __init__(self, calibration: Calibration, profile: str, styles: Sequence[str] = (), *,
                 tilesets: Sequence[TileSet] = (), reader: str | TileReader = "auto", debounce: int = 2,
                 px_per_mm: float = 1.2, n_seats: int = 4, threads: int = 2):
        """``tilesets``: the table's enrolled sets; ``styles``: rendered styles standing for their enrolled
        sets where no set is given (and the art of ``reader="template"``). ``threads``: zones are
        rectified and cut into tiles on this many threads (1: all on the caller's thread), and the tile
        crops read in as many batches at once."""
        self.cal = calibration
        self.rect = Rectifier(calibration, px_per_mm)
        rd = make_reader(styles, reader, tilesets) if isinstance(reader, str) else reader
        face = getattr(rd, "face", None)
        if face is None and len(styles) == 1 and not tilesets:
            face = load_style(styles[0]).face
        self.parser = SceneParser(profile, rd, calibration.geometry, px_per_mm, n_seats, face=face)
        self.tracker = Tracker(profile, n_seats, debounce)
        self.px = px_per_mm
        self.scene = Scene(profile, self.tracker.stable.seats)
        self._prev_small: Image | None = None
        self._ref_small: dict[str, Image] = {}
        self._slices = {n: self._small_slice(z) for n, z in self.parser.zones.items()}
        # per zone: the remap tables straight into the owner's view (zone slice + MARGIN_PX, turned)
        self._view_maps: dict[str, RemapMaps] = {n: self.rect.block_maps(*zone_slice(z, px_per_mm, calibration.geometry, MARGIN_PX),
                                                   quarter_turns(z))
                           for n, z in self.parser.zones.items()}
        ys, xs = self._slices["centre"]  # the dice: compared at full resolution (pips are ~3 px)
        self._centre_full = (slice(ys.start * 4, ys.stop * 4), slice(xs.start * 4, xs.stop * 4))
        self._centre_ref: Image | None = None
        self.frame_no = 0
        self.threads = max(1, threads)  # the caller's thread works too: threads - 1 in the pool
        self._pool = ThreadPoolExecutor(threads - 1, thread_name_prefix="vision-zones") if threads > 1 else None
        if self._pool is not None:
            weakref.finalize(self, self._pool.shutdown, wait=False)

    def close(self) -> None:
        """Stop the zone threads (the pipeline still works afterwards, on the caller's thread)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def reread(self, zones: Iterable[str] | None = None) -> None:
        """Read ``zones`` (zone names, e.g. ``pond2``; all zones when None) again at the next frame, whatever
        the change detector says: their reference images are forgotten. For a zone something covered (what
        was put down under an arm may differ little from the cloth at a quarter scale: 白 on a pale cloth).
        Unknown names are ignored."""
        if zones is None:
            self._ref_small.clear()
            self._centre_ref = None
            return
        for name in zones:
            self._ref_small.pop(name, None)
            if name == "centre":
                self._centre_ref = None

    def _small_slice(self, z: Zone) -> tuple[slice, slice]:
        """The zone's bounding box in the 1/4-scale camera frame (change detection before rectifying)."""
        from vision.geometry import apply_homography

        x0, y0, x1, y1 = z.table_rect(self.cal.geometry)
        pts = apply_homography(self.cal.h, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])) / 4.0
        w, h = self.cal.frame_size[0] // 4, self.cal.frame_size[1] // 4
        xa, ya = (int(np.clip(v, 0, m)) for v, m in zip(np.floor(pts.min(0)), (w, h)))
        xb, yb = (int(np.clip(v, 0, m)) for v, m in zip(np.ceil(pts.max(0)) + 1, (w, h)))
        return slice(ya, yb), slice(xa, xb)

    def _view(self, frame: Image, name: str) -> Callable[[], ZoneImage]:
        """A function rectifying zone ``name`` of ``frame`` into its owner's view (one ``cv2.remap``)."""
        m1, m2 = self._view_maps[name]
        zone = self.parser.zones[name]
        return lambda: zone_view(cast(Image, cv2.remap(frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)),
                                 zone)

    def process(self, frame: Image, t_mono: float | None = None, t_wall: float | None = None,
                full: bool = False) -> FrameResult:
        t0 = time.perf_counter()
        t_mono = time.monotonic() if t_mono is None else t_mono
        t_wall = time.time() if t_wall is None else t_wall
        grey = cast(Image, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        small = cast(Image, cv2.resize(grey, (grey.shape[1] // 4, grey.shape[0] // 4), interpolation=cv2.INTER_AREA))
        to_read: set[str] = self.tracker.unsettled() & set(self._slices)  # an unread tile: read again
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
            views = {n: self._view(frame, n) for n in to_read}
            scene, info = self.parser.parse_views(views, previous=self.scene, pool=self._pool, threads=self.threads)
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
