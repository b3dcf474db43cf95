"""The live camera feed of the referee: frames of the configured camera, read incrementally
(:class:`controller.referee.camera.CameraReader`), their observations put to the referee session.

The feed reads the newest frame as soon as it is done with the last (a live camera's frames wait in a
one-frame queue: :class:`controller.table_camera.LatestFrame`), at most ``fps`` frames a second; after each
frame it tells the session how far the camera has been read and whether its view is settled
(:meth:`RefereeSession.caught_up`), so a call button pressed while the reader was busy reaches the referee
after the frames taken before it and the change they showed (on a slow CPU
the discard a call claims may be read after the button was pressed: ``simulate --cpu-slowdown``)."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from controller.referee.camera import CameraReader

if TYPE_CHECKING:
    from controller.play_source import PlayTable
    from controller.referee.core import Referee
    from controller.set_learning import TableLearning
    from rules.events import Event
    from vision.calibration import Calibration

FPS = 10.0


class FedSession(Protocol):
    """What the camera feed uses of the refereed hand (:class:`controller.referee.session.RefereeSession`, which
    starts the feed: the feed does not import it)."""

    @property
    def svc(self) -> PlayTable: ...
    @property
    def referee(self) -> Referee: ...
    def put(self, ev: Event) -> None: ...
    def caught_up(self, t_mono: float | None, settled: bool = True) -> None: ...
WRONG_SET = ("camera: the tiles do not look like the enrolled tile set; tiles are asked, not read — check the "
             "set (mahjong-table tiles enroll) / камера: кости не похожи на записанный набор; камера спрашивает, "
             "а не читает — проверьте набор")
SET_OK = "camera: the tiles look like the enrolled set again / камера: кости снова похожи на записанный набор"


class CameraFeed:
    """Reads the service's camera for a refereed hand (frames on a worker thread, the loop never waits)."""

    def __init__(self, fps: float = FPS):
        self.fps = fps
        self.reader: CameraReader | None = None
        self.set_wrong = False
        self.learning: TableLearning | None = None

    def _start_learning(self, svc: PlayTable) -> None:
        """The table learns its set from the faces the record confirms (controller/set_learning.py): the
        learned crops are kept beside the table's set file (else beside the event store) and read with."""
        from controller.set_learning import TableLearning, learned_path
        from vision.set_learner import SetLearner
        from vision.tileset import TileSetError

        reader = self.reader
        rd = reader.set_reader() if reader is not None else None
        store = getattr(svc, "store", None)
        if reader is None or rd is None or rd.tileset is None or store is None or not hasattr(store, "listeners"):
            return
        sets = _set_paths(svc)  # the learned crops are keyed on the set the reader reads with
        styles = "+".join(Path(s).name for s in _strings(svc.cfg["camera.styles"]))
        path = learned_path(sets[0]) if sets else Path(store.path).with_name(f"tileset-{styles}.learned.npz")
        try:
            learner = SetLearner.load(path, rd.tileset, rd.clf)
        except TileSetError as exc:
            svc.note(f"referee: {exc}")
            learner = SetLearner(rd.tileset, rd.clf)
        self.learning = TableLearning(learner, path, reader)
        if learner.counts():
            rd.use(learner.tileset())
        store.listeners.append(self.learning.on_event)
        # what the page reads of the service by name (controller/web/live.py), not part of PlayTable
        setattr(svc, "set_learning", self.learning.status)  # noqa: B010

    def _watch_set(self, svc: PlayTable) -> None:
        """Say on the page and the judge's console when the tiles in view stop (or start again) looking like
        the enrolled set: the camera then asks about every face instead of reading it."""
        chk = self.reader.set_check() if self.reader is not None else None
        wrong = bool(chk and chk["wrong"])
        setattr(svc, "camera_set", chk)  # noqa: B010  (as set_learning above)
        if wrong != self.set_wrong:
            self.set_wrong = wrong
            svc.note(WRONG_SET if wrong else SET_OK)

    async def run(self, session: FedSession) -> None:
        from controller.table_camera import CameraError
        from vision.calibration import CalibrationError, calibrate
        from vision.scene_game import scenes_from_events, view_seats

        svc = session.svc
        try:
            cam = await svc.open_camera()
        except CameraError as exc:
            svc.note(f"referee: no camera ({exc}); the operator reports the hand")
            return
        while True:
            started = time.monotonic()
            try:
                cam.sync()
                frame = await asyncio.to_thread(cam.next_frame)
                if self.reader is None:
                    cal = cam.calibration
                    if cal is None:
                        cal = await asyncio.to_thread(calibrate, frame.image)
                    self.reader = _camera_reader(svc, cal, view_seats(svc.profile, svc.players))
                    log = session.referee.game_log
                    if log:  # after a restart: only what changed since the record is news
                        self.reader.prime(scenes_from_events(svc.profile, log)[-1])
                    self._start_learning(svc)
                evs = await asyncio.to_thread(self.reader.process, frame.image, frame.t_mono, frame.t_wall)
            except (CameraError, CalibrationError) as exc:
                svc.note(f"referee: camera: {exc}")
                session.caught_up(None)  # nothing held for a camera that gives no frame
                await asyncio.sleep(1.0)
                continue
            self._watch_set(svc)
            for ev in evs:
                session.put(ev)
            pipe = self.reader.pipe
            session.caught_up(frame.t_mono, pipe.scene == pipe.tracker.stable)
            # the rest of the frame interval (a read longer than it: the next frame at once, never a backlog)
            await asyncio.sleep(max(0.0, 1.0 / self.fps - (time.monotonic() - started)))


def _strings(v: object) -> list[str]:
    """A list-valued configuration key as its TOML gives it (names or paths), as strings."""
    if not isinstance(v, Iterable):
        raise TypeError(f"{v!r} is not a list")
    return [str(x) for x in v]


def _number(v: object) -> float:
    """A number from the configuration (as its TOML gives it: a whole number or not)."""
    if isinstance(v, int | float) and not isinstance(v, bool):
        return v
    raise TypeError(f"{v!r} is not a number")


def _set_paths(svc: PlayTable) -> list[str]:
    """The table's enrolled set files (``camera.tilesets``; none: the enrolled sets of ``camera.styles``)."""
    try:
        return _strings(svc.cfg["camera.tilesets"])
    except (KeyError, TypeError):
        return []


def _camera_reader(svc: PlayTable, cal: Calibration, n_seats: int) -> CameraReader:
    """The referee's reader of this table: the sets of ``camera.tilesets`` where it names any, as the table's
    pipeline reads (controller/table_camera.py), else the enrolled sets of ``camera.styles``; a set file that
    cannot be used is one line (:class:`CameraError` ``camera.tilesets: ...``), a camera fault."""
    from controller.table_camera import CameraError
    from vision.tileset import TileSet, TileSetError

    try:
        sets = [TileSet.load(p) for p in _set_paths(svc)]
        return CameraReader(cal, svc.profile, _strings(svc.cfg["camera.styles"]), n_seats=n_seats,
                            min_score=_number(svc.cfg["referee.min_score"]), tilesets=sets)
    except TileSetError as exc:
        raise CameraError(f"camera.tilesets: {exc}") from None
