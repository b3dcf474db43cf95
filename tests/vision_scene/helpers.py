"""Shared builders for the vision-scene tests."""
from __future__ import annotations

from collections import Counter

from vision.calibration import Rectifier, calibrate
from vision.conventions import conventions, sideways_index
from vision.pipeline import VisionPipeline, make_reader
from vision.rules_prior import allowed_faces
from vision.scene_model import MeldView, PondTile, Scene, SeatView
from vision.scene_parse import SceneParser
from vision.scene_render import render_scene
from vision.tile_render import load_style

SOURCES = ("left", "opposite", "right")


def feature_scene(profile: str) -> Scene:
    """A table using every physical convention the profile has (per seat a different source, etc.), with
    tiles the profile's set holds and never more than four copies of a face (the rules prior reads by both)."""
    c = conventions(profile)
    faces = allowed_faces(profile)
    honours = "1z" in faces
    pungs = ["5p", "2s", "8m", "6p"]
    chows = [("3s", "4s", "5s"), ("6m", "7m", "8m"), ("1p", "2p", "3p"), ("7s", "8s", "9s")]
    concealed = {0: "7z" if honours else "9m", 2: "6z" if honours else "1s"}
    melds_by_seat, used = [], Counter()
    for s in range(4):
        src = SOURCES[s % 3]
        pung = MeldView("pung", (pungs[s],) * 3, sideways_index(src, 3) if c.claimed_sideways else None,
                        src if c.claimed_sideways else None)
        chow = MeldView("chow", chows[s], 0 if c.claimed_sideways else None, "left" if c.claimed_sideways else None)
        melds = [pung, chow]
        if c.kongs and s in concealed:
            shown = tuple("x" if i in c.concealed_kong_down else concealed[s] for i in range(4))
            melds.append(MeldView("kong_concealed", shown, None, None))
            used[concealed[s]] += 4
        if c.kongs and s == 1:
            melds[0] = MeldView("kong_added", (pungs[s],) * 4, pung.sideways, pung.source, True)
        if c.kongs and s == 3:
            melds.append(MeldView("kong_open", ("2m",) * 4, sideways_index("right", 4), "right"))
        for m in melds:
            used.update(t for t in m.tiles if t != "x")
        melds_by_seat.append(melds)
    revealed = ("1m", "2m" if not c.kongs else "3m", "3m" if not c.kongs else "4m", "4p", "4p", "x")
    used.update(t for t in revealed if t != "x")
    # the ponds: a fixed deal of what is left, red fives where the set has them
    pool = [t for t in ("1m", "9p", "3s", "4z", "5z", "6m", "7p", "8s", "9m", "0p", "2s", "2m", "5s", "7z", "1p",
                        "6s", "3m", "6z", "4p", "8m", "1s", "0s", "2p", "3p", "9s", "1z", "4m", "5m", "6p", "7s",
                        "3z", "8p", "2z", "7m", "5p", "9s", "1m", "4s", "6s", "8p")
            if t in faces]
    ponds: list[list[str]] = [[], [], [], []]
    sizes = (11, 7, 13, 2)
    k = 0
    for s, n in enumerate(sizes):
        while len(ponds[s]) < n:
            t = pool[k % len(pool)]
            k += 1
            face = t if t[0] != "0" else "5" + t[1]
            if used[face] + used[t] - (used[t] if t == face else 0) < 4:
                ponds[s].append(t)
                used[face if t[0] == "0" else t] += 1
                if t[0] == "0":
                    used[t] += 1
    seats = []
    for s in range(4):
        pond = [PondTile(t) for t in ponds[s]]
        if c.riichi_sideways_discard and s == 0:
            pond[4] = PondTile(pond[4].tile, True)
        flowers = ((), ("1f",), ("2f", "6f"), ())[s] if c.flowers else ()
        card = None
        if c.missing_suit_cards:
            card = "mps"[s % 3]
        if c.hu_cards and s == 2:
            card = "2"
        rev = revealed if s == 3 else ()
        seats.append(SeatView(tuple(pond), tuple(melds_by_seat[s]), flowers, 0 if rev else 7, rev,
                              c.riichi_sticks and s == 0, card))
    scene = Scene(profile, tuple(seats), (2, 5) if c.dice_throws else ())
    counts = Counter(("5" + t[1]) if t[0] == "0" else t for v in scene.seats
                     for t in [p.tile for p in v.pond] + [x for m in v.melds for x in m.tiles] + list(v.revealed)
                     if t != "x")
    assert max(counts.values()) <= 4, counts.most_common(3)
    return scene


def parse_frame(frame, profile: str, style: str, **pipeline_args):
    """One full read of ``frame`` by the pipeline (the path a table runs): (scene, ParseInfo)."""
    r = VisionPipeline(calibrate(frame), profile, [style], threads=1, **pipeline_args).process(frame, full=True)
    return r.scene, r.info


def parse_top(frame, profile: str, style: str):
    """The same through the rectified table image and :meth:`SceneParser.parse` (the plain path), with the
    pipeline's default reader (the classifier with the style's enrolled set)."""
    cal = calibrate(frame)
    top = Rectifier(cal).rectify(frame)
    reader = make_reader([style])
    parser = SceneParser(profile, reader, face=reader.face or load_style(style).face)
    return parser.parse(top)


def render_and_parse(scene: Scene, seed: int, style: str):
    frame, truth = render_scene(scene, seed=seed, style=style)
    got, info = parse_frame(frame, scene.profile, style)
    return frame, truth, got, info
