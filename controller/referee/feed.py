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
from typing import Any

from controller.referee.camera import CameraReader

FPS = 10.0


class CameraFeed:
    """Reads the service's camera for a refereed hand (frames on a worker thread, the loop never waits)."""

    def __init__(self, fps: float = FPS):
        self.fps = fps
        self.reader: CameraReader | None = None

    async def run(self, session: Any) -> None:
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
                    cal = cam.calibration or await asyncio.to_thread(calibrate, frame.image)
                    self.reader = CameraReader(cal, svc.profile, list(svc.cfg["camera.styles"]),
                                               n_seats=view_seats(svc.profile, svc.players),
                                               min_score=svc.cfg["referee.min_score"])
                    log = session.referee.game_log
                    if log:  # after a restart: only what changed since the record is news
                        self.reader.prime(scenes_from_events(svc.profile, log)[-1])
                evs = await asyncio.to_thread(self.reader.process, frame.image, frame.t_mono, frame.t_wall)
            except (CameraError, CalibrationError) as exc:
                svc.note(f"referee: camera: {exc}")
                session.caught_up(None)  # nothing held for a camera that gives no frame
                await asyncio.sleep(1.0)
                continue
            for ev in evs:
                session.put(ev)
            pipe = self.reader.pipe
            session.caught_up(frame.t_mono, pipe.scene == pipe.tracker.stable)
            # the rest of the frame interval (a read longer than it: the next frame at once, never a backlog)
            await asyncio.sleep(max(0.0, 1.0 / self.fps - (time.monotonic() - started)))
