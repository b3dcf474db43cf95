"""Observers: the table at each moment of a simulated hand → what the referee is told.

* :class:`ExactObserver` — a perfect camera: each moment's scene diffed against the last (vision's
  tracker), the racks and the dead-wall indicators as they are. For the referee's logic alone (tests, the
  demo without a camera).
* :class:`CameraObserver` — the real path: every moment filmed (:class:`.render.TableFilm`) with a real
  table's nuisances — arms reaching over the zones that change, frames dropped, a blur, a lighting change,
  tiles pushed out of line, tiles that cannot be read — and read by :class:`controller.referee.camera.CameraReader`.

A Pi-class CPU (``slowdown`` K, ``simulate --cpu-slowdown K``): the camera films at its own pace (``FPS``, in
camera time) while the reader works; each read takes K times the CPU time it took here (in camera time: the
simulation does not sleep; CPU time, not wall time, so that other work on a shared machine does not stretch
it further) and the one-frame queue between them keeps only the newest frame — a frame the
camera takes while the reader is busy replaces the one waiting, which is dropped (counted). The reader takes
the newest frame when it is free, so it never falls behind the camera; what it reports reaches the referee
when its read ends (:meth:`CameraObserver.take_timed`: arrival times, in camera time), which is what the
live service does (:class:`controller.table_camera.LatestFrame`, :class:`controller.referee.feed.CameraFeed`).
Without ``slowdown`` every frame filmed is read at once (the reader is taken as infinitely fast).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Protocol, TypedDict

from controller.referee.sim.timeline import Moment
from rules.events import IndicatorSeen, ObservationEvent, PondTileSeen, RackCounted
from vision.scene_model import Scene
from vision.tracking import Tracker

FPS = 10.0
#: a frame the camera takes within this of the moment the reader gets free is there for it (the reader takes it,
#: not the one before: a wait of 99.99 ms, a float short of the frame interval, is no wait of an interval)
SAME_MOMENT_S = 1e-4
SETTLE_FRAMES = 3  # frames filmed after a moment's two while the camera's last reading is not yet confirmed


@dataclass
class Read:
    """One frame read on a Pi-class CPU: ``arrival`` (camera time its read ended), ``frame`` (camera time the
    frame was taken), ``settled`` (no change seen but not yet confirmed after it), ``events`` (each with its
    origin: the camera time of the change it reports, the moment the first frame that showed it belongs to)."""

    arrival: float
    frame: float
    settled: bool
    events: list[tuple[float, ObservationEvent]]


class FrameStamp(TypedDict):
    """What an observation is stamped with: the camera's frame and its time."""

    frame: int
    t_mono: float
    t_wall: float


class Observer(Protocol):
    frames: int

    def observe(self, m: Moment) -> list[ObservationEvent]: ...

    def settle(self, t: float) -> list[ObservationEvent]: ...


class ExactObserver:
    """The camera as a perfect reader (``unreadable``: discards, by truth log index, reported ``unknown``
    as the classifier reports a tile it cannot read)."""

    def __init__(self, profile: str, n_views: int, unreadable: set[int] | None = None):
        self.tracker = Tracker(profile, n_views, debounce=1)
        self.frames = 0
        self.unreadable = unreadable or set()
        self.dora: tuple[str, ...] = ()
        self.ura: tuple[str, ...] = ()
        self.racks: dict[int, tuple[int, int]] = {}
        self.smudged: list[tuple[int, int]] = []  # (seat, pond index) of each tile reported unreadable on purpose

    def observe(self, m: Moment) -> list[ObservationEvent]:
        self.frames += 1
        st: FrameStamp = {"frame": self.frames, "t_mono": m.t, "t_wall": m.t}
        out: list[ObservationEvent] = []
        for e in self.tracker.update(m.table, frame=self.frames, t_mono=m.t, t_wall=m.t):
            if isinstance(e, PondTileSeen) and m.truth in self.unreadable:
                e = PondTileSeen(seat=e.seat, index=e.index, tile="unknown", sideways=e.sideways, **st)
                self.smudged.append((e.seat, e.index))
            out.append(e)
        apart = dict(m.apart)
        for seat, v in enumerate(m.table.seats):
            rack = (v.standing, apart.get(seat, 0))
            if v.standing and self.racks.get(seat) != rack:
                self.racks[seat] = rack
                out.append(RackCounted(seat=seat, standing=rack[0], apart=rack[1], **st))
        out += [IndicatorSeen(index=i, tile=t, kind="dora", **st) for i, t in enumerate(m.dora) if i >= len(self.dora)]
        out += [IndicatorSeen(index=i, tile=t, kind="ura", **st) for i, t in enumerate(m.ura) if i >= len(self.ura)]
        self.dora, self.ura = m.dora, m.ura
        return out

    def settle(self, t: float) -> list[ObservationEvent]:
        return []


class CameraObserver:
    """Each moment filmed with nuisances and read by the referee's camera (see the module's docstring).

    ``unreadable``: discards (truth log indices) whose tile is rendered smudged; ``seed`` picks the style,
    the pose and every nuisance."""

    def __init__(self, profile: str, n_views: int, *, style: str, seed: int, unreadable: set[int] | None = None,
                 nuisances: bool = True, slowdown: float | None = None):
        from controller.referee.camera import CameraReader
        from controller.referee.sim.render import TableFilm
        from vision.calibration import calibrate

        self.rng = random.Random(seed)
        self.film = TableFilm(profile, n_views, style=style, seed=seed)
        self.nuisances = nuisances
        self.unreadable = unreadable or set()
        self.relight_at = self.rng.uniform(30.0, 200.0) if nuisances else -1.0
        cal = calibrate(self.film.frame())
        self.camera = CameraReader(cal, profile, [style], n_seats=n_views)
        self.frames = 0  # frames the camera took (dropped ones included)
        self.read = 0  # frames the pipeline read
        self.last_t = -1.0
        self.vision_s = 0.0
        self.render_s = 0.0
        self.settle_ms: list[float] = []  # per settled change: ms of vision from its first frame to the confirming one
        self.settle_frames: list[int] = []  # per settled change: frames between its first and the confirming one
        self.frame_ms: dict[int, float] = {}  # recent frames read: ms of vision each
        self.smudged: list[tuple[int, int]] = []  # (seat, pond index) of each tile rendered unreadable
        # a Pi-class CPU (see the module's docstring)
        self.slowdown = slowdown
        self.free_at = float("-inf")  # camera time the reader is done with its current frame
        self.queue_dropped = 0  # frames the camera took while the reader was busy, replaced by a newer one
        self.queue_wait: list[float] = []  # seconds each frame read waited in the queue for the reader
        self.read_s: list[float] = []  # camera seconds of each read (its CPU time here x slowdown)
        self._moment_t = 0.0  # the camera time of the change being filmed (the moment's)
        self._origin: dict[int, float] = {}  # frame number -> the moment it showed
        self._timed: list[Read] = []  # see take_timed

    def take_timed(self) -> list[Read]:
        """With ``slowdown``: the frames read since the last call, in order (:class:`Read`)."""
        out, self._timed = self._timed, []
        return out

    def observe(self, m: Moment) -> list[ObservationEvent]:
        t0 = time.perf_counter()
        scene = m.scene
        assert scene is not None
        self._moment_t = m.t
        if self.nuisances and self.last_t < self.relight_at <= m.t:
            self.film.relight()
        if m.truth in self.unreadable and m.note == "discard":
            self._smudge_new(scene)
        if self.nuisances and self.rng.random() < 0.04:
            self._push(scene)
        self.film.set_table(scene, apart=dict(m.apart), indicators=m.dora, ura=m.ura)
        self.render_s += time.perf_counter() - t0
        out: list[ObservationEvent] = []
        hands = m.zones if self.nuisances else ()
        n_arm = self.rng.randint(1, 3) if hands else 0
        times = [m.t - (n_arm - j) / FPS for j in range(n_arm)] + [m.t + j / FPS for j in range(2)]
        # the camera filmed the moment before past this one's time (a dropped frame, a reading confirmed late):
        # this moment's own frames follow those (red@3 seed 11 hand 9: a discard 0.2 s after a flower set
        # aside was never filmed — the next moment took the tile away)
        late = max(0.0, self.last_t + 1 / FPS - m.t)
        times = [tf + late for tf in times]
        shots = [(tf, hands if j < n_arm else ()) for j, tf in enumerate(times) if tf > self.last_t]
        j = 0
        while j < len(shots):
            tf, arms = shots[j]
            j += 1
            dropped = self.nuisances and self.rng.random() < 0.03
            if dropped:
                shots.append((shots[-1][0] + 1 / FPS, ()))  # the camera goes on: one more frame after
            elif self.slowdown is not None and j < len(shots) and shots[j][0] <= self.free_at:
                self._replaced(tf)  # the next frame comes before the reader is free: it takes that one
                continue
            out += self._shoot(tf, arms, dropped)
        pipe = self.camera.pipe
        for _ in range(SETTLE_FRAMES):  # the camera films on: a reading not yet seen twice alike is confirmed
            if pipe.scene == pipe.tracker.stable:  # (only the frames the referee needs to see change are read)
                break
            out += self._shoot(self.last_t + 1 / FPS, (), False)
        return out

    def settle(self, t: float) -> list[ObservationEvent]:
        out: list[ObservationEvent] = []
        for _k in range(2):
            out += self._shoot(max(t, self.last_t + 1 / FPS), (), False)
        return out

    def _replaced(self, t: float) -> None:
        """A frame taken while the reader is busy and replaced in the queue by a newer one (never rendered:
        nobody sees it)."""
        self.frames += 1
        self.queue_dropped += 1
        self.last_t = t

    def _shoot(self, t: float, arms: tuple[tuple[int, str], ...], dropped: bool) -> list[ObservationEvent]:
        start = t
        if self.slowdown is not None and not dropped:
            if self.free_at >= t + 1 / FPS - SAME_MOMENT_S:  # the camera filmed on while the reader was busy: it
                k = int((self.free_at - t + SAME_MOMENT_S) * FPS)  # takes the newest (the arms have moved on)
                t, arms = t + k / FPS, ()
                self.frames += k
                self.queue_dropped += k
            start = max(t, self.free_at)
            self.queue_wait.append(start - t)
        t0 = time.perf_counter()
        img = self.film.frame(arms, blur=self.nuisances and self.rng.random() < 0.02)
        t1 = time.perf_counter()
        self.render_s += t1 - t0
        self.frames += 1
        self.last_t = t
        if dropped:
            return []
        fno = self.camera.pipe.frame_no
        c1 = time.process_time()
        evs = self.camera.process(img, t_mono=t, t_wall=t)
        dt = time.perf_counter() - t1
        cpu = time.process_time() - c1  # (the CPU the read took: what a slower CPU stretches, whatever the load)
        self.vision_s += dt
        self.read += 1
        self.frame_ms[fno] = dt * 1e3
        self._origin[fno] = self._moment_t
        if self.slowdown is not None:  # the read, stretched to a slower CPU's, in camera time
            self.read_s.append(cpu * self.slowdown)
            self.free_at = start + cpu * self.slowdown
            pipe = self.camera.pipe
            self._timed.append(Read(self.free_at, t, pipe.scene == pipe.tracker.stable,
                                    [(self._origin.get(int(getattr(e, "frame", fno)), self._moment_t), e) for e in evs]))
        if evs:  # vision's work from the frame that first showed the change to the one that confirmed it
            first = min(int(getattr(e, "frame", fno)) for e in evs)
            self.settle_ms.append(sum(v for k, v in self.frame_ms.items() if first <= k <= fno))
            self.settle_frames.append(fno - first)
        for k in [k for k in self.frame_ms if k < fno - 8]:
            del self.frame_ms[k]
        for k in [k for k in self._origin if k < fno - 64]:
            del self._origin[k]
        return evs

    def _smudge_new(self, scene: Scene) -> None:
        """The discard just laid cannot be read (the last tile of the pond that grew)."""
        before = {s: len(v) for s, v in self._ponds().items()}
        for s, v in enumerate(scene.seats):
            if len(v.pond) > before.get(s, 0):
                self.film.smudge(s, "pond", len(v.pond) - 1, v.pond[-1].tile)
                self.smudged.append((s, len(v.pond) - 1))
                return

    def _ponds(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for seat, _zone, idx in (k for s in range(4) for k in self.film.pond_items(s)):
            out.setdefault(seat, []).append(idx)
        return out

    def _push(self, scene: Scene) -> None:
        """A tile in a pond nudged out of line by a sleeve (it stays so)."""
        seats = [s for s, v in enumerate(scene.seats) if v.pond]
        if not seats:
            return
        s = self.rng.choice(seats)
        i = self.rng.randrange(len(scene.seats[s].pond))
        self.film.push((s, "pond", i), (self.rng.uniform(-1.5, 1.5), self.rng.uniform(-1.2, 1.2)),
                       self.rng.uniform(-2.0, 2.0))
