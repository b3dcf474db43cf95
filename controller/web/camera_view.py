"""The camera view: the latest frame, small, and the tiles the vision pipeline recognised in it.

While at least one page shows the camera view, :class:`CameraView` asks the table camera for a frame every
``web.camera_interval_s`` (on a worker thread: reading a frame is 0.1–0.3 s of CPU), keeps it as a JPEG
:data:`WIDTH` pixels wide and lists each recognised tile as its outline in that image (fractions of the
width and height, so the page scales it) with its label — what the referee believes it saw.

**Enrollment grid** (:meth:`CameraView.set_layout`, the page's ``?layout=K`` or the camera's page selector): while
a page of the enrollment layout is chosen, each frame is read as that page instead (``vision.whole_set``: the
cells fitted to the tiles found, as ``tiles enroll --whole-set`` reads them) and the view lists every cell as
its place in the image with its face and state -- *filled* (one upright tile on its place), *empty*, or
*doubtful* (two tiles, something that is not one upright tile, a tile between two cells) -- and the page's
faces without one filled cell; the pipeline's own tile outlines are left out (the layout's tiles lie in the
ponds' places). Page 0 is the calibration layout (one copy of each face). The judge's *check the set* enrolls
the crops of the pages seen and names the missing faces and the pairs too alike (:mod:`controller.web.layout_view`).
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from controller.tasks import cancel_and_wait
from rules.events import JSONObject

if TYPE_CHECKING:
    from controller.web.served import ServedTable
    from vision.arrays import Image
    from vision.calibration import Calibration
    from vision.pipeline import FrameResult

log = logging.getLogger("mahjong_table.web")

WIDTH = 640
JPEG_QUALITY = 70
LAYOUT_SEEN_S = 1800.0  # a page shown under the enrollment grid counts for the judge's check this long


@dataclass
class Frame:
    number: int
    jpeg: bytes
    width: int
    height: int
    tiles: list[JSONObject] = field(default_factory=list)
    t_wall: float = 0.0
    layout: JSONObject | None = None


def outlines(result: FrameResult, calibration: Calibration, px_per_mm: float, size: tuple[int, int]
             ) -> list[JSONObject]:
    """Each recognised tile of a :class:`vision.pipeline.FrameResult` as ``{"zone", "label", "poly"}``,
    ``poly`` four corners as fractions of the frame ``size`` (width, height)."""
    info = result.info
    if info is None:
        return []
    w, h = size
    out: list[JSONObject] = []
    for zone, found in info.found.items():
        labels = info.labels.get(zone, [])
        for i, f in enumerate(found):
            pts = calibration.table_to_frame(f.poly_mm(px_per_mm, calibration.geometry))
            out.append({"zone": zone, "label": labels[i] if i < len(labels) else f.shape,
                        "poly": [[round(float(x) / w, 4), round(float(y) / h, 4)] for x, y in pts]})
    return out


def encode(image: Image, width: int = WIDTH) -> tuple[bytes, int, int]:
    import cv2

    h, w = image.shape[:2]
    if w > width:
        image = cast("Image", cv2.resize(image, (width, round(h * width / w)), interpolation=cv2.INTER_AREA))
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes(), image.shape[1], image.shape[0]


class CameraView:
    """Frames for the page while someone watches (``watchers`` > 0); ``on_frame`` is told of each."""

    def __init__(self, svc: ServedTable, interval_s: float, on_frame: Callable[[], None] | None = None):
        self.svc = svc
        self.interval_s = interval_s
        self.on_frame = on_frame
        self.frame: Frame | None = None
        self.error = ""
        self.watchers = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._n = 0
        self.layout_page: int | None = None  # the enrollment grid drawn over the frames (None: the tiles read)
        self._layout_owner: object = None
        # each page's filled cells' crops from its latest frame, and when (time.monotonic())
        self.layout_seen: dict[int, dict[str, list[Image]]] = {}
        self._seen_at: dict[int, float] = {}
        self.layout_check: JSONObject | None = None  # the last check of the set (None: none asked)
        self._check_task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        await cancel_and_wait(self._task)
        await cancel_and_wait(self._check_task)

    def watch(self, on: bool) -> None:
        self.watchers = max(0, self.watchers + (1 if on else -1))
        if self.watchers:
            self._wake.set()

    def set_layout(self, number: int | None, owner: object = None) -> None:
        """Draw page ``number``'s enrollment grid over the frames from the next frame on (None: the tiles read);
        ``owner`` (a page's connection) gives it back with :meth:`release_layout`."""
        if number is not None:
            from vision.whole_set import PAGES

            if number not in (0, *(p.number for p in PAGES)):
                raise ValueError(f"no enrollment page {number}")
        self.layout_page, self._layout_owner = number, owner
        if number is None:  # the enrollment is over: its pages and check go
            self.layout_seen, self.layout_check = {}, None
        self._wake.set()

    def release_layout(self, owner: object) -> None:
        """The grid off again if ``owner`` chose it (its page closed; the pages seen are kept for a page that
        connects again, a judge who logs in, for :data:`LAYOUT_SEEN_S`)."""
        if self._layout_owner is owner and owner is not None:
            self.layout_page, self._layout_owner = None, None

    def check_layout(self, profile: str | None) -> None:
        """Enroll the crops of the pages seen and check the set (on a worker thread, seconds): missing faces and
        faces too alike, as ``tiles enroll --whole-set`` checks them; the result in :attr:`layout_check`."""
        if self._check_task is not None and not self._check_task.done():
            return
        self._check_task = asyncio.create_task(self._check(profile))

    async def _check(self, profile: str | None) -> None:
        from controller.web.layout_view import set_check

        self.layout_check = {"running": True}
        self._notify()
        try:
            now = time.monotonic()
            seen = {k: v for k, v in self.layout_seen.items() if now - self._seen_at.get(k, now) < LAYOUT_SEEN_S}
            self.layout_check = await asyncio.to_thread(set_check, seen, profile)
        except Exception as exc:  # the camera view must never take the table down
            log.exception("the enrollment check failed")
            self.layout_check = {"error": f"internal error: {exc}"}
        self._notify()

    def _notify(self) -> None:
        if self.on_frame is not None:
            self.on_frame()

    def status(self) -> JSONObject:
        f = self.frame
        return {"camera": {"frame": f.number if f else None, "tiles": f.tiles if f else [],
                           "width": f.width if f else 0, "height": f.height if f else 0,
                           "t_wall": f.t_wall if f else None, "error": self.error,
                           "layout": f.layout if f else None, "layout_check": self.layout_check}}

    async def _run(self) -> None:
        while True:
            if not self.watchers:
                self._wake.clear()
                await self._wake.wait()
            t0 = time.monotonic()
            await self.grab()
            await asyncio.sleep(max(0.05, self.interval_s - (time.monotonic() - t0)))

    async def grab(self) -> Frame | None:
        """Read one frame now (the service's camera, opened if needed)."""
        from controller.table_camera import CameraError

        try:
            number = self.layout_page  # the page asked for when the frame is taken, not after its reading
            cam = await self.svc.open_camera()
            cam.sync()  # in the loop's thread: the simulated table follows the record
            image, result, cal, px = await asyncio.to_thread(cam.look)
            jpeg, w, h = await asyncio.to_thread(encode, image)
            layout: JSONObject | None = None
            if number is not None:
                from controller.web.layout_view import layout_status

                layout, crops = await asyncio.to_thread(layout_status, image, cal, number)
                if self.layout_page == number:  # a frame taken under another page's grid holds no crops of this one
                    self.layout_seen[number] = crops
                    self._seen_at[number] = time.monotonic()
            tiles = [] if layout is not None else outlines(result, cal, px, (image.shape[1], image.shape[0]))
        except CameraError as exc:
            self.error = str(exc)
            return None
        except Exception as exc:  # the camera view must never take the table down
            log.exception("camera view failed")
            self.error = f"internal error: {exc}"
            return None
        self._n += 1
        self.error = ""
        self.frame = Frame(self._n, jpeg, w, h, tiles, time.time(), layout)
        self._notify()
        return self.frame
