"""Rendered tables → parsed scenes, per profile and tile style (held-out seeds: none is tuned on)."""

import numpy as np
import pytest

from rules.profiles import registry
from rules.simulate import random_hands
from tests.conftest import scaled
from tests.vision_scene.helpers import feature_scene, parse_frame, render_and_parse
from vision.conventions import conventions
from vision.scene_eval import label_errors, rates, structure
from vision.scene_game import scenes_from_events
from vision.scene_model import PondTile, SeatView
from vision.scene_model import Scene as Scene_
from vision.scene_render import render_scene
from vision.tile_render import available_styles, load_style

PROFILES = ["sichuan-mpl2025", "sichuan-wmsg", "mcr", "riichi-ema2016", "red"]


def styles_for(profile: str) -> list[str]:
    """Styles that have every face the profile needs (flowers)."""
    c = conventions(profile)
    return [s for s in available_styles() if not c.flowers or "1f" in load_style(s).glyphs]


@pytest.mark.parametrize("profile", PROFILES)
def test_every_convention_is_read(profile):
    """Structure exact (zones, pond order, sideways tiles, meld kinds, sources, face-down tiles, cards,
    sticks, dice); tile labels at most one wrong in a table (the bench measures the rate)."""
    scene = feature_scene(profile)
    for i, style in enumerate(styles_for(profile)):
        _, _, got, info = render_and_parse(scene, 7000 + 13 * i + PROFILES.index(profile), style)
        assert not info.occluded, info.why
        assert structure(got) == structure(scene), style
        wrong, total = label_errors(got, scene)
        assert total > 60 and wrong <= 1, (style, wrong)


def test_meld_sources_and_concealed_kongs_are_recovered():
    scene = feature_scene("riichi-ema2016")
    _, _, got, _ = render_and_parse(scene, 4242, "classic")
    for s in range(4):
        assert [m.source for m in got.seats[s].melds] == [m.source for m in scene.seats[s].melds]
    kongs = [m for m in got.seats[0].melds if m.kind == "kong_concealed"]
    assert kongs and kongs[0].tiles == ("7z", "x", "x", "7z")  # riichi: the middle two face down


@pytest.mark.parametrize("profile", PROFILES)
def test_game_states_parse_exactly(profile):
    """Mid-hand and final states of bot-played hands (rules.simulate), every style the profile can use."""
    rng = np.random.default_rng(PROFILES.index(profile))
    n = scaled(2, 12)
    tiles = wrong = 0
    for k in range(n):  # noqa: B007
        hr = next(random_hands(registry.get(profile), 500 + k, 1))
        scenes = scenes_from_events(profile, hr.events)
        scene = scenes[int(rng.integers(len(scenes) // 2, len(scenes)))]
        style = styles_for(profile)[k % len(styles_for(profile))]
        frame, truth = render_scene(scene, seed=9000 + k, style=style)
        got, info = parse_frame(frame, profile, style)
        assert not info.occluded, info.why
        assert structure(got) == structure(scene), (profile, k, style)
        r = rates(got, scene)
        assert r["zones"][0] == r["zones"][1] and r["meld_source"][0] == r["meld_source"][1]
        w, t = label_errors(got, scene)
        wrong += w
        tiles += t
    assert tiles > 20 * n and wrong <= max(1, tiles // 200)


def test_occluding_hand_marks_the_zone():
    scene = feature_scene("mcr")
    frame, _ = render_scene(scene, seed=77, style="classic", hands=((1, "pond"),))
    got, info = parse_frame(frame, "mcr", "classic")
    assert "pond1" in info.occluded
    assert got.seats[1].pond == ()  # no previous reading to keep
    assert got.seats[3] == scene.seats[3]


def test_an_occluded_zones_crops_are_not_read():
    """Its reading is not used (the zone keeps its previous one), so its crops go to no reader: an arm's skin
    cut into tile shapes (similarity 0.55-0.78 to the set's faces) made the set watch call kai's own set wrong
    (sichuan-wmsg seed 11 hand 19: a meld asked about; 1 007 crops read in that hand, 352 without)."""
    from vision.tile_reader import SetReader

    scene = feature_scene("mcr")
    frame, _ = render_scene(scene, seed=77, style="classic", hands=((1, "pond"),))
    seen: list[int] = []
    read = SetReader.read

    def spy(self, crops, allowed=None):
        seen.append(len(crops))
        return read(self, crops, allowed)

    clear, _ = render_scene(scene, seed=77, style="classic")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SetReader, "read", spy)
        _, info = parse_frame(frame, "mcr", "classic")
        covered = sum(seen)
        seen.clear()
        parse_frame(clear, "mcr", "classic")
        bare = sum(seen)
    assert "pond1" in info.occluded and info.found["pond1"]  # tiles found there, under the arm
    assert bare - covered >= len(scene.seats[1].pond) - 1, (bare, covered)


def test_a_pond_tile_whose_edge_glyph_looks_like_felt_is_found_upright_and_whole():
    """fluffy's 6s: green bamboo reaching the tile's far edge on a green cloth left its mask 32 mm deep — the
    finder took it for a sideways tile and the reader got half a tile (a question about a plain 6s)."""
    from vision.calibration import calibrate
    from vision.pipeline import VisionPipeline
    from vision.scene_model import PondTile, SeatView
    from vision.scene_parse import _crop
    from vision.tile_finder import find_in_zone, foreground

    pond = ("1p", "5p", "2p", "3m", "9p", "1m", "6s")
    scene = Scene_("sichuan-mpl2025", (SeatView(pond=tuple(PondTile(t) for t in pond)),) + (SeatView(),) * 3)
    frame, _ = render_scene(scene, seed=5, style="fluffy")
    pipe = VisionPipeline(calibrate(frame), "sichuan-mpl2025", ["fluffy"], reader="template", threads=1)
    parser = pipe.parser
    zi = pipe._view(frame, "pond0")()
    foreground(zi, px_per_mm=parser.px, face=parser.face)
    found = parser._order(parser.zones["pond0"], find_in_zone(zi, parser.px)[0])
    x0, y0, x1, y1 = found[6].box
    zi.image[y1 - 5:y1, x0:x1] = zi.felt.astype(np.uint8)  # its far edge as the felt (the glyph, lit so)
    foreground(zi, px_per_mm=parser.px, face=parser.face)
    found = parser._order(parser.zones["pond0"], find_in_zone(zi, parser.px)[0])
    assert len(found) == 7 and [f.turns for f in found] == [0] * 7
    box = found[6].box
    assert box[3] - box[1] >= int(round(36 * parser.px)) - 1 and box[1] == y0  # whole, from its row's edge
    zi.image[y1 - 5:y1, x0:x1] = pipe._view(frame, "pond0")().image[y1 - 5:y1, x0:x1]  # the face back
    assert parser.reader.read([_crop(zi, found[6])])[0].label == "6s"


def test_pond_tiles_whose_edge_glyphs_look_like_felt_are_cut_as_upright_tiles():
    """Where no pond tile lies sideways (no riichi), a row whose tiles' columns a felt-coloured glyph left
    short is still upright tiles of a tile's width: fluffy's 3s 4s on a green cloth (the third row of this
    pond, seat 2's view of a simulated frame) were cut 26 mm + a 'sideways' 42 mm — sichuan-wmsg 11-11: a
    question about a plain 4s."""
    from pathlib import Path

    import cv2

    from vision.tile_finder import find_in_zone, foreground, zone_view
    from vision.zones import table_zones

    img = cv2.imread(str(Path(__file__).parent / "data" / "pond_fluffy_bamboo_edges.png"))
    zone = next(z for z in table_zones(4) if z.name == "pond2")
    zi = zone_view(np.ascontiguousarray(img), zone)
    foreground(zi, px_per_mm=1.2, face=load_style("fluffy").face)
    found, why = find_in_zone(zi, 1.2, sideways=False)
    rows = sorted({f.box[1] // 40 for f in found})
    assert not why and len(found) == 14 and len(rows) == 3
    assert all(f.turns == 0 and abs((f.box[2] - f.box[0]) - 27 * 1.2) <= 3 for f in found), \
        [(f.turns, f.box) for f in found]



@pytest.mark.parametrize("style", ["fluffy", "classic"])
def test_ponds_of_five_rows_are_read_whole(style):
    """A three-player hand fills a fifth pond row (sichuan-mpl2025@3 seed 11 hand 23: the 25th discard lay on
    the pond zone's far edge — the zone was untrusted for the rest of the hand, every later discard unseen)."""
    faces = [f"{d}{s}" for s in "mps" for d in range(1, 10)] * 4
    faces = [faces[(k * 37) % 108] for k in range(108)]  # four copies of each face at most
    ponds = [tuple(PondTile(t) for t in faces[30 * s:30 * s + 30]) for s in range(3)]
    scene = Scene_("sichuan-mpl2025", tuple(SeatView(pond=p) for p in ponds))
    asked = 0
    for seed in range(4):
        _, _, got, info = render_and_parse(scene, seed, style)
        assert not info.occluded, info.why
        read = [[p.tile for p in v.pond] for v in got.seats[:3]]
        assert [len(r) for r in read] == [len(q) for q in ponds]
        # every tile read is right; a doubtful one is asked (vision IV: never sure and wrong), rarely
        assert all(a in (b.tile, "unknown") for r, q in zip(read, ponds) for a, b in zip(r, q)), read
        asked += sum(a == "unknown" for r in read for a in r)
    assert asked <= 4 * 90 // 50, asked

