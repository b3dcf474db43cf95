"""The seat check at the table (issue #32 part 4): before a hall session's first hand the overhead camera
reads the players' badges (:mod:`hall.badges`), the table compares them with the hall's seating, and while a
seat does not match no hand starts — until the players sit as seated (a re-read), the hall's corrected
seating matches what was read, or the judge overrides from the console (audited in the judge stream and
sent to the hall).

Which seat a badge lies at: with the camera's calibration (:mod:`vision.calibration`) the badge's centre is
mapped to table millimetres and given to the seat whose side of the table it lies on (the seat axes of
:mod:`vision.geometry`: the one whose centre → player coordinate is largest) — so a camera mounted turned or
off-centre still puts each badge at its seat. Without a calibration, the side of the frame it is nearest
(:func:`hall.badges.side_of`, seat 0 at the bottom).

:func:`render_badges` draws an overhead frame of the empty table with badges at the seats, for
``hall simulate --seat-check`` and the tests.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from hall import badges as hb
from hall.messages import SeatCheckBody

if TYPE_CHECKING:
    from vision.arrays import Image
    from vision.calibration import Calibration

KIND = "seat_check"  # the outbox message kind the hall records (hall.messages.KINDS)
# states: "" not read yet this session; "ok"; "mismatch" (blocks); "unreadable" (no frame: blocks);
# "overridden" (the judge let the session start anyway)
BLOCKING = ("", "mismatch", "unreadable")


def seat_by_calibration(cal: Calibration, n_seats: int) -> Callable[[hb.Badge], int | None]:
    """A badge's seat from the camera's calibration: its centre in table millimetres, the seat whose side
    of the table it lies on (the largest centre → player coordinate of the four); None for a side no seat
    of this table uses (three players)."""
    from vision.geometry import table_to_local

    w, h = cal.frame_size

    def seat_of(b: hb.Badge) -> int | None:
        mm = cal.frame_to_table(np.array([[b.x * w, b.y * h]], np.float64))
        s = max(range(4), key=lambda k: float(table_to_local(k, mm, cal.geometry)[0, 1]))
        return s if s < n_seats else None

    return seat_of


def check_frame(frame: Image, seating: Sequence[str], calibration: Calibration | None = None) -> hb.SeatCheck:
    """The badges an overhead frame shows against ``seating`` (``seating[seat]`` = the player's id)."""
    found = hb.read(frame)
    if len({b.player for b in found}) < len(seating):  # a code missed: once more at 1.5 times the size
        import cv2

        seen = {b.player for b in found}
        big = cv2.resize(frame, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_CUBIC)
        found += [b for b in hb.read(big) if b.player not in seen]
    if calibration is None:
        return hb.check(found, seating)
    seat_of = seat_by_calibration(calibration, len(seating))
    at: dict[int, list[str]] = {}
    for b in found:
        s = seat_of(b)
        if s is not None:
            at.setdefault(s, []).append(b.player)
    return hb.SeatCheck(tuple(seating), tuple(at[s][0] if len(at.get(s, [])) == 1 else None
                                              for s in range(len(seating))))


@dataclass
class SeatState:
    """The seat check of one hall session at this table (what the page, the console and the hall see)."""

    session: int | None = None
    status: str = ""
    expected: list[str] = field(default_factory=list)
    found: list[str | None] = field(default_factory=list)
    problems_en: list[str] = field(default_factory=list)
    problems_ru: list[str] = field(default_factory=list)
    calibrated: bool = False  # the seats were told by the camera's calibration (else the frame's sides)
    judge: str = ""  # who overrode
    reason: str = ""
    t_wall: float = 0.0

    @property
    def blocks(self) -> bool:
        return self.status in BLOCKING

    def to_dict(self) -> SeatCheckBody:
        """What the outbox sends the hall (``seat_check``) and the page shows."""
        return {"session": self.session, "status": self.status, "expected": list(self.expected),
                "found": list(self.found), "problems_en": list(self.problems_en),
                "problems_ru": list(self.problems_ru), "calibrated": self.calibrated, "judge": self.judge,
                "reason": self.reason, "t_wall": self.t_wall}

    @classmethod
    def from_body(cls, body: SeatCheckBody) -> SeatState:
        """A seat check as :meth:`to_dict` wrote it (a restarted table's last one)."""
        return cls(**body)

    def text(self) -> tuple[str, str]:
        """One line each in English and Russian for the page's session line."""
        if self.status == "":
            return "seat check: the badges are read before the first hand", \
                "проверка мест: бейджи читаются перед первой раздачей"
        if self.status == "unreadable":
            return (f"seat check: the camera could not read the badges ({self.reason}); the judge may override",
                    f"проверка мест: камера не прочитала бейджи ({self.reason}); судья может разрешить начало")
        if self.status == "mismatch":
            return ("seat check: " + "; ".join(self.problems_en) + " — no hand starts until the players sit as "
                    "seated or the judge overrides",
                    "проверка мест: " + "; ".join(self.problems_ru) + " — раздача не начнётся, пока игроки не "
                    "сядут по рассадке или судья не разрешит")
        return "", ""


def render_badges(at_seat: dict[int, str], names: dict[str, str] | None = None, *, seed: int = 0,
                  size: tuple[int, int] = (1920, 1080), turn_deg: float | None = None,
                  px_per_mm: float = 1.08) -> Image:
    """An overhead frame (BGR) of the empty table — felt and calibration markers, seen through a camera
    mounted slightly turned (``turn_deg``: this much) and off-centre — with each player's badge laid at a seat (``{seat: id}``), turned
    to face its player, a bit askew as put down by hand."""
    import cv2

    from vision.geometry import DEFAULT_GEOMETRY as geo
    from vision.geometry import local_to_table
    from vision.scene_render import CameraPose, draw_markers

    rng = np.random.default_rng(seed)
    r = 1.6  # px/mm of the top-down canvas (vision.scene_render.RENDER_PX_PER_MM)
    n = int(round(geo.size * r))
    canvas = np.empty((n, n, 3), np.float32)
    canvas[:] = (40, 110, 50)
    draw_markers(canvas, geo, r)
    bw, bh = int(180 * r), int(210 * r)  # a badge 180 x 210 mm, drawn at the canvas's scale
    for seat, pid in at_seat.items():
        img = np.asarray(hb.badge(pid, (names or {}).get(pid, pid), size=(bw, bh)))
        img = np.rot90(img, k=seat)  # its top towards the table's centre, as its player reads it
        askew = cv2.getRotationMatrix2D((img.shape[1] / 2, img.shape[0] / 2), float(rng.uniform(-10, 10)), 1.0)
        img = cv2.warpAffine(np.ascontiguousarray(img), askew, (img.shape[1], img.shape[0]), borderValue=255)
        cx, cy = local_to_table(seat, np.array([[rng.uniform(-60, 60), 310.0]]), geo)[0] * r
        y0, x0 = int(cy - img.shape[0] / 2), int(cx - img.shape[1] / 2)
        canvas[y0:y0 + img.shape[0], x0:x0 + img.shape[1]] = img[..., None]
    turn = float(rng.uniform(-4, 4)) if turn_deg is None else turn_deg
    pose = CameraPose.make(geo, size, px_per_mm, turn, (float(rng.uniform(-30, 30)), 0.0),
                           (0.0, 0.0))
    m = pose.h @ np.diag([1.0 / r, 1.0 / r, 1.0])
    frame = cv2.warpPerspective(canvas, m, pose.size, flags=cv2.INTER_LINEAR, borderValue=(30, 30, 30))
    return np.clip(frame, 0, 255).astype(np.uint8)
