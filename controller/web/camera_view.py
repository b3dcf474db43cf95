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
ponds' places). Page 0 is the calibration layout (one copy of each face).
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from controller.tasks import cancel_and_wait

log = logging.getLogger("mahjong_table.web")

WIDTH = 640
JPEG_QUALITY = 70


@dataclass
class Frame:
    number: int
    jpeg: bytes
    width: int
    height: int
    tiles: list[dict[str, Any]] = field(default_factory=list)
    t_wall: float = 0.0
    layout: dict[str, Any] | None = None


def layout_status(image: Any, calibration: Any, number: int) -> dict[str, Any]:
    """The enrollment grid of page ``number`` (0: the calibration layout) as a frame shows it: ``cells``
    (``label``, ``state``, ``why``, ``poly`` as fractions of the frame), the counts, the faces without one
    filled cell (``empty``) and the doubtful cells."""
    from vision.tile_layout import centre_blobs
    from vision.whole_set import assign, page, page_view

    pg = page(number)
    view = page_view(image, calibration)
    rd = assign(pg, view, *centre_blobs(view))
    h, w = image.shape[:2]
    cells = [{**c, "poly": [[round(x / w, 4), round(y / h, 4)] for x, y in c["poly"]]} for c in rd.outlines()]
    return {"page": number, "title": pg.title, "title_ru": pg.title_ru, "cells": cells,
            "filled": rd.count("filled"), "n": len(rd.cells), "empty": rd.empty_faces(),
            "doubtful": [{"label": c.label, "why": c.why} for c in rd.doubtful_cells()], "strays": len(rd.strays)}


def outlines(result: Any, calibration: Any, px_per_mm: float, size: tuple[int, int]) -> list[dict[str, Any]]:
    """Each recognised tile of a :class:`vision.pipeline.FrameResult` as ``{"zone", "label", "poly"}``,
    ``poly`` four corners as fractions of the frame ``size`` (width, height)."""
    info = result.info
    if info is None:
        return []
    w, h = size
    out = []
    for zone, found in info.found.items():
        labels = info.labels.get(zone, [])
        for i, f in enumerate(found):
            pts = calibration.table_to_frame(f.poly_mm(px_per_mm, calibration.geometry))
            out.append({"zone": zone, "label": labels[i] if i < len(labels) else f.shape,
                        "poly": [[round(float(x) / w, 4), round(float(y) / h, 4)] for x, y in pts]})
    return out


def encode(image: Any, width: int = WIDTH) -> tuple[bytes, int, int]:
    import cv2

    h, w = image.shape[:2]
    if w > width:
        image = cv2.resize(image, (width, round(h * width / w)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes(), image.shape[1], image.shape[0]


class CameraView:
    """Frames for the page while someone watches (``watchers`` > 0); ``on_frame`` is told of each."""

    def __init__(self, svc: Any, interval_s: float, on_frame=None):
        self.svc = svc
        self.interval_s = interval_s
        self.on_frame = on_frame
        self.frame: Frame | None = None
        self.error = ""
        self.watchers = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._n = 0
        self.layout_page: int | None = None  # the enrollment grid drawn over the frames (None: the tiles read)
        self._layout_owner: object = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        await cancel_and_wait(self._task)

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
        self._wake.set()

    def release_layout(self, owner: object) -> None:
        """The grid off again if ``owner`` chose it (its page closed)."""
        if self._layout_owner is owner and owner is not None:
            self.layout_page, self._layout_owner = None, None

    def status(self) -> dict[str, Any]:
        f = self.frame
        return {"camera": {"frame": f.number if f else None, "tiles": f.tiles if f else [],
                           "width": f.width if f else 0, "height": f.height if f else 0,
                           "t_wall": f.t_wall if f else None, "error": self.error,
                           "layout": f.layout if f else None}}

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
            cam = await self.svc.open_camera()
            cam.sync()  # in the loop's thread: the simulated table follows the record
            image, result, cal, px = await asyncio.to_thread(cam.look)
            jpeg, w, h = await asyncio.to_thread(encode, image)
            number = self.layout_page
            layout = None if number is None else await asyncio.to_thread(layout_status, image, cal, number)
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
        if self.on_frame is not None:
            self.on_frame()
        return self.frame
