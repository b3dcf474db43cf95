"""A revealed hand's end tile is cut with a strip of felt beside it (the finder splits a touching row evenly):
read ``unknown``, it is read again without a tenth of its width on either side, by the same reader under the
same rule (tests/referee/test_cli.py: mcr and sichuan-wmsg seed 11 asked about such tiles)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from vision.scene_parse import ROW_END_TRIM, SceneParser
from vision.tile_labels import UNKNOWN

FELT = 7  # a column of this value is felt: the fake reader doubts a crop that has one at either edge


class FeltShy:
    """Sure of a crop's face (its value) unless felt lies at its left or right edge."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def read(self, crops, allowed=None):
        self.calls.append(len(crops))
        out = []
        for c in crops:
            felt = (c[:, 0] == FELT).all() or (c[:, -1] == FELT).all()
            out.append(SimpleNamespace(label=UNKNOWN if felt else f"{int(c[c.shape[0] // 2, c.shape[1] // 2])}m",
                                       score=0.5 if felt else 0.99))
        return out


def _tile(face: int, felt_left: bool = False, width: int = 20) -> np.ndarray:
    c = np.full((28, width), face, np.uint8)
    if felt_left:
        c[:, :max(1, int(round(ROW_END_TRIM * width)) - 1)] = FELT
    return c


def _parser(reader) -> SceneParser:
    p = SceneParser.__new__(SceneParser)
    p.zones = {"hand1": SimpleNamespace(kind="hand"), "pond1": SimpleNamespace(kind="pond")}
    p.reader = reader
    return p


def test_a_hands_end_tile_cut_with_felt_is_read_without_it():
    crops = [_tile(3, felt_left=True), _tile(4), _tile(5)]
    jobs = [("hand1", object(), None) for _ in crops]
    rd = FeltShy()
    first = rd.read(crops)
    assert first[0].label == UNKNOWN
    got = _parser(rd)._row_ends_again(jobs, crops, [None] * 3, first)
    assert [r.label for r in got] == ["3m", "4m", "5m"] and rd.calls == [3, 2]  # one crop read again, two ways


def test_only_a_hands_row_ends_are_read_again_and_only_when_doubted():
    """A doubted tile in the middle of a row, a doubted pond tile: left as they were (asked), nothing re-read."""
    felt = _tile(6, felt_left=True)
    crops = [_tile(3), felt, _tile(5), felt]
    jobs = [("hand1", object(), None)] * 3 + [("pond1", object(), None)]
    rd = FeltShy()
    first = rd.read(crops)
    got = _parser(rd)._row_ends_again(jobs, crops, [None] * 4, first)
    assert [r.label for r in got] == ["3m", UNKNOWN, "5m", UNKNOWN] and rd.calls == [4]


def test_two_trimmed_reads_naming_two_faces_leave_the_tile_unknown():
    class TwoFaced(FeltShy):
        def read(self, crops, allowed=None):
            if len(crops) == 2:  # the second look: the left and right trims disagree
                return [SimpleNamespace(label="3m", score=0.99), SimpleNamespace(label="8m", score=0.99)]
            return super().read(crops, allowed)

    crops = [_tile(3, felt_left=True)]
    rd = TwoFaced()
    got = _parser(rd)._row_ends_again([("hand1", object(), None)], crops, [None], rd.read(crops))
    assert got[0].label == UNKNOWN
