"""Shared builders for the vision-scene tests."""
from __future__ import annotations

from vision.calibration import Rectifier, calibrate
from vision.conventions import conventions, sideways_index
from vision.pipeline import VisionPipeline
from vision.scene_model import MeldView, PondTile, Scene, SeatView
from vision.scene_parse import SceneParser
from vision.scene_render import render_scene
from vision.tile_match import TemplateReader
from vision.tile_render import load_style

SOURCES = ("left", "opposite", "right")


def feature_scene(profile: str) -> Scene:
    """A table using every physical convention the profile has (per seat a different source, etc.)."""
    c = conventions(profile)
    seats = []
    ponds = [["1m", "9p", "3s", "4z", "5z", "6m", "7p", "8s", "9m", "0p", "2s"],
             ["2m", "2m", "5s", "7z", "1p", "6s", "3m"],
             ["6z", "4p", "8m", "1s", "0s", "2p", "3p", "9s", "1z", "4m", "5m", "6p", "7s"],
             ["3z", "8p"]]
    for s in range(4):
        src = SOURCES[s % 3]
        melds = []
        pung_tiles = ["5p", "5p", "5p"]
        if c.claimed_sideways:
            k = sideways_index(src, 3)
            melds.append(MeldView("pung", tuple(pung_tiles), k, src))
            chow = ["3s", "4s", "5s"]
            melds.append(MeldView("chow", tuple(chow), 0, "left"))
        else:
            melds.append(MeldView("pung", tuple(pung_tiles), None, None))
            melds.append(MeldView("chow", ("3s", "4s", "5s"), None, None))
        if c.kongs and s in (0, 2):
            known = ("7z", "7z", "7z", "7z")
            shown = tuple("x" if i in c.concealed_kong_down else t for i, t in enumerate(known))
            melds.append(MeldView("kong_concealed", shown, None, None))
        if c.kongs and s == 1:
            melds[0] = MeldView("kong_added", ("5p",) * 4, melds[0].sideways, melds[0].source, True)
        if c.kongs and s == 3:
            k = sideways_index("right", 4)
            melds.append(MeldView("kong_open", ("2m",) * 4, k, "right"))
        pond = [PondTile(t) for t in ponds[s]]
        if c.riichi_sideways_discard and s == 0:
            pond[4] = PondTile(pond[4].tile, True)
        flowers = ("1f", "6f")[: s % 3] if c.flowers else ()
        card = None
        if c.missing_suit_cards:
            card = "mps"[s % 3]
        if c.hu_cards and s == 2:
            card = "2"
        revealed = ("1m", "2m", "3m", "4p", "4p", "x") if s == 3 else ()
        seats.append(SeatView(tuple(pond), tuple(melds), flowers, 0 if revealed else 7, revealed,
                              c.riichi_sticks and s == 0, card))
    return Scene(profile, tuple(seats), (2, 5) if c.dice_throws else ())


def parse_frame(frame, profile: str, style: str, **pipeline_args):
    """One full read of ``frame`` by the pipeline (the path a table runs): (scene, ParseInfo)."""
    r = VisionPipeline(calibrate(frame), profile, [style], threads=1, **pipeline_args).process(frame, full=True)
    return r.scene, r.info


def parse_top(frame, profile: str, style: str):
    """The same through the rectified table image and :meth:`SceneParser.parse` (the plain path)."""
    cal = calibrate(frame)
    top = Rectifier(cal).rectify(frame)
    parser = SceneParser(profile, TemplateReader([style]), face=load_style(style).face)
    return parser.parse(top)


def render_and_parse(scene: Scene, seed: int, style: str):
    frame, truth = render_scene(scene, seed=seed, style=style)
    got, info = parse_frame(frame, scene.profile, style)
    return frame, truth, got, info
