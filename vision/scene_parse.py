"""Parse a rectified top-down table image into a :class:`~vision.scene_model.Scene`, per profile.

    parser = SceneParser("riichi-ema2016", reader=TemplateReader(["classic"]))
    scene, info = parser.parse(top)                       # every zone
    scene, info = parser.parse(top, zones={"pond1"}, previous=scene)   # only changed zones re-read

Per zone (see :mod:`vision.zones`), by the profile's conventions (:mod:`vision.conventions`):

* pond: tiles in discard order — rows of 6 nearest the centre first, left to right in the owner's view
  ("rows6"); for a free layout the tiles in reading order (the tracker orders them by appearance);
  a sideways tile is a riichi discard;
* meld: sets separated by gaps, read from the owner's right end (the first declared) leftwards; kind from
  the tiles (run → chow, three equal → pung, four → kong: face-down tiles or no sideways tile → concealed,
  a tile beside the sideways one → added); source seat from the sideways tile's place (left / middle /
  right = left / opposite / right player) where the profile turns it;
* side: flowers set aside and the missing-suit or hu card;
* hand: standing tiles counted, or the tiles laid face up at a reveal;
* stick: the riichi stick; centre: the dice faces.

A zone with a hand over it, or whose blobs fit no tile shape, is reported ``occluded`` and keeps its
previous reading (if given).
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, TypedDict, cast

import cv2
import numpy as np

from vision.arrays import Float32Array, Image
from vision.conventions import conventions, source_of_index
from vision.geometry import DEFAULT_GEOMETRY, TableGeometry
from vision.rules_prior import RulesPrior
from vision.scene_model import MeldView, PondTile, Scene, SeatView
from vision.tile_finder import Found, ZoneImage, find_in_zone, foreground, zone_image
from vision.tile_labels import BACK, FACE_LABELS, FLOWERS, NONE, UNKNOWN
from vision.zones import Zone, table_zones

if TYPE_CHECKING:
    from vision.tile_match import Reading, TileReader

#: the share of a crop's width a revealed hand's end tile is read again without (:meth:`SceneParser._row_ends_again`)
ROW_END_TRIM = 0.1
#: a revealed hand's tile read ``unknown`` is read again framed as the set's enrolled crops are: padded with its
#: edge's own pixels this much all round (:meth:`SceneParser._hand_tiles_again`)
HAND_PAD_MM = 1.7

FACES = frozenset(l for l in FACE_LABELS if l not in FLOWERS)
POND_ALLOWED = frozenset(FACE_LABELS)  # a flower discarded instead is an offence the referee must see
MELD_ALLOWED = frozenset(FACES | {BACK})
FLOWER_ALLOWED = frozenset(FLOWERS)
CARDS = ("m", "p", "s", "1", "2", "3", "x")

#: A crop to read: its zone, the tile found, the labels it may take (None: any).
Job = tuple[str, Found, frozenset[str] | None]
#: What a zone's finding gives (:meth:`SceneParser._find_zone`): the zone image, the tiles found in reading
#: order, why the zone is not trusted, the crops to read, and the dice (centre) or the stick (stick zone).
ZoneFinding = tuple[ZoneImage, list[Found], list[str], list[Job], tuple[int, ...] | bool | None]


class _SeatUpdate(TypedDict, total=False):
    """The fields of a seat's view read again this frame (:class:`~vision.scene_model.SeatView`'s)."""

    pond: tuple[PondTile, ...]
    melds: tuple[MeldView, ...]
    flowers: tuple[str, ...]
    card: str | None
    standing: int
    revealed: tuple[str, ...]
    riichi_stick: bool


@dataclass
class ParseInfo:
    """What the parser saw beside the scene: found boxes, occluded zones, timings (ms)."""

    found: dict[str, list[Found]] = field(default_factory=dict)
    labels: dict[str, list[str]] = field(default_factory=dict)
    occluded: set[str] = field(default_factory=set)
    melds: dict[str, tuple[MeldView, ...]] = field(default_factory=dict)  # meld zones read this frame
    scores: dict[str, list[float]] = field(default_factory=dict)  # the reader's score of each tile read
    why: dict[str, list[str]] = field(default_factory=dict)
    ms: dict[str, float] = field(default_factory=dict)
    crops: dict[str, list[Image]] = field(default_factory=dict)  # ponds, revealed hands, flowers: each tile's
    # crop, in the order of the zone's reading (the scene's pond, revealed tiles, flowers)
    meld_crops: dict[str, list[list[Image]]] = field(default_factory=dict)  # per meld read, its tiles' crops
    # in the order of MeldView.tiles
    meld_found: dict[str, list[list[Found]]] = field(default_factory=dict)  # per meld read, its tiles (boxes)


def _two_hands(profile: str) -> bool:
    from rules.profiles import registry

    try:
        return bool(registry.get(profile).capabilities.two_hands)
    except (KeyError, ValueError):
        return False


def _crop(zi: ZoneImage, f: Found, margin: int = 0) -> Image:
    x0, y0, x1, y1 = f.box
    c = zi.pixels(x0 - margin, y0 - margin, x1 + margin, y1 + margin)
    if f.turns == 1:  # a sideways tile: turn it upright (its top to the left → rotate clockwise)
        c = np.rot90(c, -1)
    return np.ascontiguousarray(c)


class SceneParser:
    """Reads scenes of one profile's table with a given tile reader."""

    def __init__(self, profile: str, reader: TileReader, geo: TableGeometry = DEFAULT_GEOMETRY,
                 px_per_mm: float = 1.2, n_seats: int = 4, face: tuple[int, int, int] | None = None,
                 prior: RulesPrior | None = None):
        self.profile = profile
        self.conv = conventions(profile)
        self.reader = reader
        self.geo = geo
        self.px = px_per_mm
        self.n_seats = n_seats
        self.face = face  # the tile set's face colour (BGR), sharpens tile masks
        self.zones = {z.name: z for z in table_zones(n_seats)}
        self.prior = prior or RulesPrior(profile)
        self._allowed = {"pond": POND_ALLOWED, "meld": MELD_ALLOWED, "side": FLOWER_ALLOWED, "hand": MELD_ALLOWED,
                         "open": FACES}
        self._allowed = {k: self.prior.restrict(v) for k, v in self._allowed.items()}
        self.known: Counter[str] = Counter()  # tiles the record holds out of the camera's view (copy limit)
        self.two_racks = _two_hands(profile)  # Siamese: a player's two hands stand in two rows

    # ---- one frame -------------------------------------------------------------------------------------

    def parse(self, top: Image, zones: set[str] | None = None, previous: Scene | None = None
              ) -> tuple[Scene, ParseInfo]:
        """Read the zones ``zones`` (all by default) of the rectified image ``top``; other zones (and
        occluded ones) keep ``previous``'s reading."""
        names = [n for n in self.zones if zones is None or n in zones]
        return self.parse_views({n: partial(zone_image, top, self.zones[n], self.px, self.geo) for n in names},
                                previous)

    def parse_views(self, views: Mapping[str, Callable[[], ZoneImage]], previous: Scene | None = None,
                    pool: Executor | None = None, threads: int = 2) -> tuple[Scene, ParseInfo]:
        """Read the zones named in ``views``, each a function returning its :class:`ZoneImage` (the zone
        slice with ``MARGIN_PX`` in the owner's view: the pipeline rectifies straight into it); other
        zones (and occluded ones) keep ``previous``'s reading. With ``pool`` (a thread pool with
        ``threads`` - 1 threads) the zones are rectified and cut into tiles in ``threads`` groups, one of
        them on this thread (OpenCV and numpy release the GIL), and the crops read in as many batches."""
        t0 = time.perf_counter()
        info = ParseInfo()
        names = [n for n in self.zones if n in views]
        prev = previous or Scene(self.profile, tuple(SeatView() for _ in range(self.n_seats)))
        parts = min(len(names), threads) if pool is not None else 1
        if parts < 2 or pool is None:
            done = [self._find_zone(n, views[n]) for n in names]
        else:  # zones split by area: one group on each pool thread and one here (one hand-over each)
            def find_group(group: list[str]) -> dict[str, ZoneFinding]:
                return {n: self._find_zone(n, views[n]) for n in group}

            groups = self._split(names, parts)
            away = [pool.submit(find_group, g) for g in groups[1:]]
            found_by = find_group(groups[0])
            for f in away:
                found_by.update(f.result())
            done = [found_by[n] for n in names]
        zimgs: dict[str, ZoneImage] = {}
        jobs: list[Job] = []
        stick: dict[int, bool] = {}
        dice: tuple[int, ...] | None = None
        for name, (zi, found, why, zone_jobs, value) in zip(names, done):
            z = self.zones[name]
            zimgs[name] = zi
            if z.kind == "centre":
                dice = value if isinstance(value, tuple) else None  # (always its dice: _find_zone)
                continue
            if z.kind == "stick":
                stick[z.seat or 0] = bool(value)
                continue
            info.found[name] = found
            if why:  # its reading is not used (the zone keeps the previous one): its crops are not read -- an
                info.occluded.add(name)  # arm's skin cut into tile shapes told the set watch of a wrong set
                info.why[name] = why
                continue
            jobs += zone_jobs
        t1 = time.perf_counter()
        margin = int(getattr(self.reader, "crop_margin_px", 0))
        crops = [_crop(zimgs[n], f, margin) for n, f, _ in jobs]
        allowed = [a for _, _, a in jobs]
        read = self.reader.read
        if pool is not None and parts > 1 and getattr(self.reader, "thread_safe", False) and len(crops) >= 8 * parts:
            # batches at once (the GEMM and the numpy work release the GIL), the first one here
            cut = [len(crops) * i // parts for i in range(parts + 1)]
            away_r = [pool.submit(read, crops[a:b], allowed[a:b]) for a, b in zip(cut[1:-1], cut[2:])]
            reads = read(crops[:cut[1]], allowed[:cut[1]])
            for fr in away_r:
                reads += fr.result()
        else:
            reads = read(crops, allowed)
        reads = self._row_ends_again(jobs, crops, allowed, reads)
        reads = self._hand_tiles_again(jobs, crops, allowed, reads)
        t2 = time.perf_counter()
        for (n, _, _), r in zip(jobs, reads):
            info.scores.setdefault(n, []).append(float(r.score))
        by_zone = self._apply_prior(jobs, reads, names, prev, info)
        crop_of = {(n, f): c for (n, f, _), c in zip(jobs, crops)}  # what a confirmed face can teach the set
        seats = list(prev.seats)
        for s in range(self.n_seats):
            v = seats[s]
            upd: _SeatUpdate = {}
            for kind in ("pond", "meld", "side", "hand"):
                name = f"{kind}{s}"
                if name not in info.found or name in info.occluded:
                    continue
                found = info.found[name]
                labs = by_zone.get(name, {})
                info.labels[name] = [labs.get(f, f.shape) for f in found]
                if kind == "pond":
                    # a pond tile lies sideways only as a riichi declaration (conventions table)
                    side_ok = self.conv.riichi_sideways_discard
                    upd["pond"] = tuple(PondTile(labs[f], side_ok and f.turns == 1) for f in found if f in labs)
                    info.crops[name] = [crop_of[(name, f)] for f in found if f in labs and (name, f) in crop_of]
                elif kind == "meld":
                    upd["melds"] = info.melds.get(name, ())
                    info.meld_crops[name] = [[crop_of[(name, f)] for f in fs] for fs in info.meld_found.get(name, [])]
                elif kind == "side":
                    upd["flowers"] = tuple(labs[f] for f in found if f in labs)
                    info.crops[name] = [crop_of[(name, f)] for f in found if f in labs and (name, f) in crop_of]
                    cards = [f for f in found if f.shape == "card"]
                    upd["card"] = self._card(zimgs[name], cards[0]) if cards else None
                else:
                    stands = [f for f in found if f.shape == "stand"]
                    upd["standing"] = len(stands)
                    upd["revealed"] = tuple("x" if labs[f] == BACK else labs[f] for f in found if f in labs)
                    info.crops[name] = [crop_of[(name, f)] for f in found if f in labs and (name, f) in crop_of]
            if s in stick:
                upd["riichi_stick"] = stick[s]
            if upd:
                seats[s] = replace(v, **upd)
        scene = Scene(self.profile, tuple(seats), prev.dice if dice is None else dice)
        t3 = time.perf_counter()
        info.ms = {"find": (t1 - t0) * 1e3, "read": (t2 - t1) * 1e3, "assemble": (t3 - t2) * 1e3,
                   "tiles": float(len(jobs))}
        return scene, info

    def _row_ends_again(self, jobs: list[Job], crops: list[Image], allowed: list[frozenset[str] | None],
                        reads: list[Reading]) -> list[Reading]:
        """A revealed hand's end tile read ``unknown`` is read again without :data:`ROW_END_TRIM` of its width on
        one side, then the other: the finder splits a touching row evenly, so an end tile is cut with a strip of
        felt beside it, and the felt, not the face, keeps the reader from being sure (mcr seed 11 hand 2: a 3m at
        0.81 to its prototype; sichuan-wmsg seed 11 hand 0: a 2m at 0.79, 0.95 without its 3 px of felt). The
        trimmed crops go through the same reader, held to the same rule; the tile takes a face only where the
        sure reads name one face. Ponds and melds are not touched (measured there: the trimmed look made a wrong
        face of the own set, 1 in ~2,700 crops, and 14 -> 20 with a mixed set)."""
        ends: dict[str, list[int]] = {}
        for i, (n, _, _) in enumerate(jobs):
            if self.zones[n].kind == "hand":
                ends.setdefault(n, []).append(i)
        again = sorted({i for idx in ends.values() for i in (idx[0], idx[-1]) if reads[i].label == UNKNOWN})
        if not again:
            return reads
        cut: list[Image] = []
        for i in again:
            k = max(1, int(round(ROW_END_TRIM * crops[i].shape[1])))
            cut += [crops[i][:, k:], crops[i][:, :-k]]
        return self._take_sure(reads, again, cut, allowed, need=1)

    def _take_sure(self, reads: list[Reading], again: list[int], looks: list[Image],
                   allowed: list[frozenset[str] | None], need: int) -> list[Reading]:
        """``reads`` with each tile of ``again`` read from its two other ``looks`` (in order, two a tile) by the
        same reader, held to the same rule: it takes a face where at least ``need`` of the two are sure and
        the sure ones name one face."""
        second = self.reader.read(looks, [allowed[i] for i in again for _ in (0, 1)])
        out = list(reads)
        for j, i in enumerate(again):
            sure = [r for r in second[2 * j:2 * j + 2] if r.label not in (UNKNOWN, BACK, NONE)]
            if len(sure) >= need and len({r.label for r in sure}) == 1:
                out[i] = sure[0]
        return out

    def _hand_tiles_again(self, jobs: list[Job], crops: list[Image], allowed: list[frozenset[str] | None],
                          reads: list[Reading]) -> list[Reading]:
        """A revealed hand's tile read ``unknown`` is read again padded with its edge's own pixels
        (:data:`HAND_PAD_MM` all round): the finder boxes a hand's tile by its own pixels, tight, where the set's
        enrolled crops and the ponds' (boxed on the pond grid) show a little around the tile -- kai's revealed 6m
        cut tight 0.72 like its prototype and asked (mcr-siamese@3 seed 11 hand 3), padded 0.91 and 0.46 ahead of
        the next face. Not padded with what lies around it: its neighbours, laid beside it or standing behind.
        Two paddings (one pixel apart) go through the same reader, held to the same rule, and the tile takes a
        face only where both sure reads name it (as :meth:`_row_ends_again`'s two trims). Every hand tile padded, not only
        the doubted ones, asked about 21 tiles in 30 mcr-siamese@3 hands where 1 was asked (the blank white
        dragon and the sure ones read worse so)."""
        again = [i for i, (n, _, _) in enumerate(jobs) if self.zones[n].kind == "hand" and reads[i].label == UNKNOWN
                 and crops[i].size]
        if not again:
            return reads
        pad = max(1, int(round(HAND_PAD_MM * self.px)))
        padded = [cast(Image, cv2.copyMakeBorder(np.ascontiguousarray(crops[i]), k, k, k, k, cv2.BORDER_REPLICATE))
                  for i in again for k in (pad, pad + 1)]
        return self._take_sure(reads, again, padded, allowed, need=2)

    def tile_crops(self, top: Image) -> list[Image]:
        """Every face-up or face-down tile of the rectified table image, cut as the reader gets them."""
        margin = int(getattr(self.reader, "crop_margin_px", 0))
        out: list[Image] = []
        for name, z in self.zones.items():
            zi, _, _, jobs, _ = self._find_zone(name, partial(zone_image, top, z, self.px, self.geo))
            out += [_crop(zi, f, margin) for _, f, _ in jobs]
        return out

    def _split(self, names: list[str], parts: int) -> list[list[str]]:
        """The zones in ``parts`` groups of about equal area (the work of finding tiles grows with it)."""
        def area(n: str) -> float:
            x0, y0, x1, y1 = self.zones[n].table_rect(self.geo)
            return (x1 - x0) * (y1 - y0)

        groups: list[list[str]] = [[] for _ in range(parts)]
        load = [0.0] * parts
        for n in sorted(names, key=area, reverse=True):  # largest first, each to the lightest group
            i = load.index(min(load))
            groups[i].append(n)
            load[i] += area(n)
        return groups

    def _find_zone(self, name: str, view: Callable[[], ZoneImage]) -> ZoneFinding:
        """One zone's image → (zone image, tiles found in reading order, why not trusted, crops to read
        with their allowed labels, the dice or the stick where the zone holds them)."""
        z = self.zones[name]
        zi = view()
        mask = foreground(zi, px_per_mm=self.px, face=self.face if z.kind != "centre" else None)  # (zi.mask)
        if z.kind == "centre":
            return zi, [], [], [], self._dice(zi, mask)
        if z.kind == "stick":
            return zi, [], [], [], self._stick(mask)
        found, why = find_in_zone(zi, self.px, self.geo, two_racks=self.two_racks,
                                  sideways=self.conv.riichi_sideways_discard)
        found = self._order(z, found)
        allowed = self._allowed[z.kind]
        open_sets = self._open_set_tiles(found) if z.kind == "meld" else set()
        # a set with a sideways (claimed) tile lies all face up
        jobs: list[Job] = [(name, f, self._allowed["open"] if f in open_sets else allowed) for f in found
                           if f.shape == "tile"]
        return zi, found, why, jobs, None

    # ---- zone readers ----------------------------------------------------------------------------------

    def _order(self, z: Zone, found: list[Found]) -> list[Found]:
        px = self.px
        if z.kind == "pond":
            from vision.tile_finder import POND_B0, ROW_PITCH_B

            def key(f: Found) -> tuple[int, float]:
                a, b = f.centre_local_mm(px)
                return int(np.floor((b - POND_B0) / ROW_PITCH_B)), a
            return sorted(found, key=key)
        if z.kind == "meld":  # right end first, then left to right inside a set (grouped in _melds)
            return sorted(found, key=lambda f: (f.box[0], f.layer))
        return sorted(found, key=lambda f: f.box[0])

    def _groups(self, found: list[Found]) -> list[list[Found]]:
        """The row's tiles cut into sets at gaps wider than 3 mm (left to right)."""
        groups: list[list[Found]] = []
        last_x1 = None
        for f in sorted((f for f in found if f.shape == "tile" and f.layer == 0), key=lambda f: f.box[0]):
            if last_x1 is None or (f.box[0] - last_x1) / self.px > 3.0:
                groups.append([])
            groups[-1].append(f)
            last_x1 = f.box[2]
        return groups

    def _open_set_tiles(self, found: list[Found]) -> set[Found]:
        out: set[Found] = set()
        for g in self._groups(found):
            if any(f.turns == 1 for f in g):
                out.update(g)
                out.update(a for a in found if a.layer == 1 and g[0].box[0] - 2 <= (a.box[0] + a.box[2]) / 2
                           <= g[-1].box[2] + 2)
        return out

    def _apply_prior(self, jobs: list[Job], reads: Sequence[Reading], names: list[str], prev: Scene,
                     info: ParseInfo) -> dict[str, dict[Found, str]]:
        """Labels per zone and tile after the rules prior (:mod:`vision.rules_prior`): sets read as legal
        melds (``info.melds``), at most four copies of a face in view counting the zones not re-read and
        :attr:`known`."""
        readings: dict[tuple[str, Found], Reading] = {(n, f): r for (n, f, _), r in zip(jobs, reads)}
        by_zone: dict[str, dict[Found, str]] = {}
        fixed: Counter[str] = Counter(self.known)
        for name in names:
            z = self.zones[name]
            if z.kind != "meld" or name not in info.found or name in info.occluded:
                continue
            melds, meld_tiles = self._melds(info.found[name], {f: readings[(name, f)] for f in info.found[name]
                                                               if (name, f) in readings})
            info.melds[name] = melds
            info.meld_found[name] = meld_tiles
            fixed.update(t for m in melds for t in m.tiles if t not in ("x", UNKNOWN))
            by_zone[name] = {f: r.label for (n, f), r in readings.items() if n == name}
        for v, s in zip(prev.seats, range(self.n_seats)):  # zones kept from the previous reading still count
            for kind, tiles in (("pond", [p.tile for p in v.pond]), ("meld", [t for m in v.melds for t in m.tiles]),
                                ("side", list(v.flowers)), ("hand", list(v.revealed))):
                if f"{kind}{s}" not in names or f"{kind}{s}" in info.occluded:
                    fixed.update(t for t in tiles if t not in ("x", UNKNOWN))
        singles = {(n, f): r.label for (n, f), r in readings.items()
                   if self.zones[n].kind != "meld"}
        for (n, f), lab in self.prior.limit_copies(singles, readings, fixed).items():
            by_zone.setdefault(n, {})[f] = lab
        return by_zone

    def _melds(self, found: list[Found], reads: Mapping[Found, Reading]
               ) -> tuple[tuple[MeldView, ...], list[list[Found]]]:
        """The sets of a meld row, the first declared first, and each one's tiles in its ``tiles``' order."""
        tiles = [f for f in found if f.shape == "tile" and f in reads]
        groups = self._groups(tiles)
        added = [f for f in tiles if f.layer == 1]
        out = []
        boxes: list[list[Found]] = []
        for g in reversed(groups):  # the first set declared lies at the owner's right end
            side = [i for i, f in enumerate(g) if f.turns == 1]
            si = side[0] if side else None
            extra = [a for a in added if g[0].box[0] - 2 <= (a.box[0] + a.box[2]) / 2 <= g[-1].box[2] + 2][:1]
            src = source_of_index(si, len(g)) if si is not None and self.conv.claimed_sideways else None
            m = self.prior.meld([reads[f] for f in g + extra], si, bool(extra))
            if m.kind == "kong_concealed":
                src = None
            out.append(MeldView(m.kind, m.tiles, si, src, bool(extra)))
            boxes.append(g + extra)
        return tuple(out), boxes

    def _stick(self, mask: Image) -> bool:
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        return any(stats[i][2] / self.px > 60 and stats[i][3] / self.px < 22 for i in range(1, n))

    def _dice(self, zi: ZoneImage, mask: Image) -> tuple[int, ...]:
        n, lab, stats, cent = cv2.connectedComponentsWithStats(mask, connectivity=8)
        vals = []
        for i in sorted(range(1, n), key=lambda i: cent[i][0]):
            w, h = stats[i][2] / self.px, stats[i][3] / self.px
            if not (10 < w < 28 and 10 < h < 28):
                continue
            x, y, w_, h_ = (int(v) for v in stats[i][:4])
            blob = (lab[y:y + h_, x:x + w_] == i).astype(np.uint8)
            crop = cv2.cvtColor(zi.image[y:y + h_, x:x + w_], cv2.COLOR_BGR2GRAY)
            big = cv2.resize(crop, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)
            inside = cv2.resize(blob, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
            white = float(np.percentile(big[inside > 0], 90)) if inside.any() else 255.0
            dark = (big < 0.45 * white).astype(np.uint8)
            k, _, st, cen = cv2.connectedComponentsWithStats(dark)
            bh, bw = dark.shape
            core = cv2.erode(inside, np.ones((9, 9), np.uint8))
            count = 0
            for j in range(1, k):  # pips: dark spots enclosed by the white face (felt touches the crop edge)
                x0, y0, ww, hh, area = (int(v) for v in st[j])
                cx, cy = int(cen[j][0]), int(cen[j][1])
                if (x0 > 0 and y0 > 0 and x0 + ww < bw and y0 + hh < bh and 8 <= area <= 900
                        and core[min(cy, bh - 1), min(cx, bw - 1)]):
                    count += 1
            if 1 <= count <= 6:
                vals.append(count)
        return tuple(vals)

    def _card(self, zi: ZoneImage, f: Found) -> str:
        from vision.scene_render import card_image

        x0, y0, x1, y1 = f.box
        c = zi.pixels(x0, y0, x1, y1).astype(np.float32)
        if c.size == 0:
            return "x"
        c = cast(Float32Array, cv2.resize(c, (56, 38)))
        best, best_s = "x", -np.inf
        for card in CARDS:
            t = card_image(card, 56, 38)[..., :3].astype(np.float32)
            for tt in (t, t[::-1, ::-1]):
                a = c - c.mean()
                b = tt - tt.mean()
                sc = float((a * b).sum() / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-6))
                if sc > best_s:
                    best, best_s = card, sc
        return best
