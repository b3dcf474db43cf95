"""The seat check's badges (issue #32 part 4): ``hall badges`` prints a badge per player (name, QR code of
the id) as PDF or PNG sheets; a frame with the badges laid at the seats is read back with OpenCV's QR
detector and compared with the hall's seating — a wrong seat named at both seats it concerns."""
from __future__ import annotations

import numpy as np
import pytest

from controller.cli import main
from hall import badges as b
from hall.db import HallDB

SEATING = ["P01", "P02", "P03", "P04"]
NAMES = {"P01": "Анна Иванова", "P02": "Boris", "P03": "Chen", "P04": "Dasha"}


def frame_with(at_seat: dict[int, str], size=(1280, 960)) -> np.ndarray:
    """An overhead frame (grey felt) with each player's badge laid at a seat's side (seat 0 bottom, 1 right,
    2 top, 3 left), each somewhat turned as a badge put down by hand is."""
    import cv2

    w, h = size
    frame = np.full((h, w), 90, np.uint8)
    places = {0: (w // 2, h - 130), 1: (w - 130, h // 2), 2: (w // 2, 130), 3: (130, h // 2)}
    for seat, pid in at_seat.items():
        img = np.asarray(b.badge(pid, NAMES.get(pid, pid), size=(300, 380)))
        img = cv2.resize(img, (180, 228), interpolation=cv2.INTER_AREA)
        turn = cv2.getRotationMatrix2D((90, 114), 8 * (seat + 1), 1.0)
        img = cv2.warpAffine(img, turn, (180, 228), borderValue=90)
        cx, cy = places[seat]
        frame[cy - 114:cy + 114, cx - 90:cx + 90] = img
    return frame


def test_the_seat_check_reads_every_badge_and_finds_a_wrong_seat():
    right = b.check(b.read(frame_with(dict(enumerate(SEATING)))), SEATING)
    assert right.ok and right.found == tuple(SEATING) and right.problems() == []
    swapped = b.check(b.read(frame_with({0: "P01", 1: "P03", 2: "P02", 3: "P04"})), SEATING)
    assert not swapped.ok and swapped.found == ("P01", "P03", "P02", "P04")
    assert swapped.problems() == ["seat 1: P03 sits here (seated at seat 2); expected P02",
                                  "seat 2: P02 sits here (seated at seat 1); expected P03"]
    assert swapped.problems_ru()[0] == "место 1: сидит P03 (его место 2); должен сидеть P02"
    stranger = b.check(b.read(frame_with({0: "P01", 1: "P02", 2: "P09"})), SEATING)
    assert stranger.found == ("P01", "P02", "P09", None)
    assert stranger.problems() == ["seat 2: P09 sits here (not seated at this table); expected P03",
                                   "seat 3: no single badge read (expected P04)"]


def test_a_qr_code_that_is_not_a_badge_is_ignored():
    import cv2

    frame = np.full((600, 800), 255, np.uint8)
    code = cv2.resize(b.qr("https://example.org"), (200, 200), interpolation=cv2.INTER_NEAREST)
    frame[350:550, 300:500] = code
    assert b.read(frame) == []


@pytest.fixture
def hall_db(tmp_path):
    db = HallDB(tmp_path / "hall.sqlite")
    with db.tx() as c:
        for i, pid in enumerate(SEATING + ["P05"]):
            c.execute("INSERT INTO players (id, name, substitute, registered) VALUES (?,?,?,?)",
                      (pid, NAMES.get(pid, "Eva"), 0, float(i)))
        for seat, pid in enumerate(SEATING):
            c.execute("INSERT INTO seating VALUES (1, 'table-01', ?, ?)", (seat, pid))
    db.close()
    return tmp_path / "hall.sqlite"


def test_hall_badges_writes_a_pdf_and_png_sheets_that_read_back(hall_db, tmp_path, capsys):
    from PIL import Image

    out = tmp_path / "badges.pdf"
    assert main(["hall", "badges", "--db", str(hall_db), "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"badges: 5 players on 1 sheet(s) -> {out}"
    assert out.read_bytes().startswith(b"%PDF")
    png = tmp_path / "badges.png"
    assert main(["hall", "badges", "--db", str(hall_db), "--out", str(png), "--session", "1"]) == 0
    sheet = np.asarray(Image.open(png).convert("L"))
    assert sheet.shape == (b.A4[1], b.A4[0])
    assert sorted(x.player for x in b.read(sheet)) == SEATING  # the printed codes read back (session 1 only)


def test_hall_badges_bad_input_is_one_line(hall_db, tmp_path, capsys):
    assert main(["hall", "badges", "--db", str(hall_db), "--out", str(tmp_path / "b.jpg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mahjong-table: error: ") and "pdf or .png" in err and err.count("\n") == 1
    assert main(["hall", "badges", "--db", str(hall_db), "--out", str(tmp_path / "b.pdf"), "--session", "7"]) == 2
    assert "session 7 has not been seated" in capsys.readouterr().err
    assert main(["hall", "badges", "--db", str(tmp_path / "empty.sqlite"), "--out", str(tmp_path / "c.pdf")]) == 2
    assert "no players registered" in capsys.readouterr().err
