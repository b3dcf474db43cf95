"""The camera view's enrollment grid (``vision.whole_set``) and the check of the set it shows: what the judge's
page says while a table's set is enrolled, the same cells and the same check as ``tiles enroll --whole-set``."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rules.events import JSONObject

if TYPE_CHECKING:
    from vision.arrays import Image
    from vision.calibration import Calibration


def layout_status(image: Image, calibration: Calibration, number: int) -> tuple[JSONObject, dict[str, list[Image]]]:
    """The enrollment grid of page ``number`` (0: the calibration layout) as a frame shows it -- ``cells``
    (``label``, ``state``, ``why``, ``poly`` as fractions of the frame), the counts, the page's faces without one
    filled cell (``empty``), the doubtful cells -- and the filled cells' crops per face."""
    from vision.tile_layout import centre_blobs
    from vision.whole_set import assign, page, page_view

    pg = page(number)
    view = page_view(image, calibration)
    rd = assign(pg, view, *centre_blobs(view))
    h, w = image.shape[:2]
    cells: list[JSONObject] = [{"label": c["label"], "state": c["state"], "why": c["why"],
                                "poly": [[round(x / w, 4), round(y / h, 4)] for x, y in c["poly"]]}
                               for c in rd.outlines()]
    return ({"page": number, "title": pg.title, "title_ru": pg.title_ru, "cells": cells,
             "filled": rd.count("filled"), "n": len(rd.cells), "empty": rd.empty_faces(),
             "doubtful": [{"label": c.label, "why": c.why} for c in rd.doubtful_cells()], "strays": len(rd.strays)},
            rd.examples())


def set_check(seen: Mapping[int, Mapping[str, Sequence[Image]]], profile: str | None) -> JSONObject:
    """The set the pages ``seen`` (page -> crops per face) hold, enrolled and checked against the faces
    ``profile`` plays with: ``pages_missing`` (the whole-set pages holding expected faces that were not shown),
    ``missing`` faces, ``doubtful`` pairs, and the check's lines in English and Russian. Seconds of CPU."""
    from vision.enrollment import enroll
    from vision.set_check import check_set, expected_faces
    from vision.tile_reader import pipeline_classifier
    from vision.whole_set import pages_for

    expected = expected_faces(profile)
    shown = set(seen) if 0 not in seen else {p.number for p in pages_for(expected)}  # the calibration layout: all
    lacking = [p.number for p in pages_for(expected) if p.number not in shown]
    examples: dict[str, list[Image]] = {}
    for crops in seen.values():
        for lab, cs in crops.items():
            examples.setdefault(lab, []).extend(cs)
    if not examples:
        from vision.set_check import SetCheck

        none = SetCheck(tuple(expected), ())
        return {"pages_missing": lacking, "missing": list(expected), "doubtful": [], "lines": none.lines(),
                "lines_ru": none.lines_ru()}
    clf = pipeline_classifier()
    ts = enroll(clf, examples, name="check")
    chk = check_set(ts, expected, clf, examples)
    return {"pages_missing": lacking, "missing": list(chk.missing), "doubtful": [f"{d.a}/{d.b}" for d in chk.doubtful],
            "lines": chk.lines(), "lines_ru": chk.lines_ru()}
