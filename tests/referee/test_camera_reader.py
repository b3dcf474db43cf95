"""The referee's tile reader: two readers must agree on a face, else the tile is ``unknown`` (asked, never
guessed) — or ``none`` where the finder cut a "tile" out of bare cloth."""
from __future__ import annotations

import dataclasses

import numpy as np

from controller.referee.camera import AgreeingReader, ConfidentReader, is_felt
from vision.tile_labels import CLASS_LABELS, NONE


class Fixed:
    """A reader that answers what it is told, one label per crop (in the order it first sees them; a crop
    read again gets its label again)."""

    def __init__(self, labels, score=0.9):
        self.labels, self.score = labels, score
        self.of: dict[int, str] = {}

    def read(self, crops, allowed=None):
        from controller.referee.camera import _Reading

        for c in crops:
            if id(c) not in self.of:
                self.of[id(c)] = self.labels[len(self.of)]
        out = [_Reading(self.of[id(c)], self.score) for c in crops]
        if allowed is not None:  # a face it is not allowed: it has nothing to say
            out = [r if a is None or r.label in a else _Reading("unknown", 0.0) for r, a in zip(out, allowed)]
        return out


def _face() -> np.ndarray:
    img = np.full((45, 34, 3), 235, np.uint8)
    img[10:35, 12:22] = (40, 40, 200)  # a symbol
    return img


def _felt(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal((76, 150, 100), 8, (45, 34, 3)), 0, 255).astype(np.uint8)


def test_felt_and_faces():
    assert is_felt(_felt()) and not is_felt(_face())


def test_cloth_with_a_neighbour_tile_s_edge_is_cloth_where_no_back_may_lie():
    """Red's free pond (seed 11, hands 37 and 66): a "tile" the finder cut from bare cloth, the edge of the
    next tile along its border, or a light grey cloth: none (no tile), not a question — in a pond, where no
    back lies; in a set (a back of a set's colour is even too) it stays unknown."""
    edge = _felt(1)
    edge[:, -3:] = 235  # the edge of the neighbouring tile
    grey = np.clip(np.random.default_rng(2).normal(160, 3, (45, 34, 3)), 0, 255).astype(np.uint8)
    assert not is_felt(edge) and is_felt(edge, inner=True) and is_felt(grey, inner=True)
    assert not is_felt(_face(), inner=True) and not is_felt(np.full((45, 34, 3), 225, np.uint8), inner=True)
    pond, meld = frozenset({"1m", "2m"}), frozenset({"1m", "back"})
    r = AgreeingReader(Fixed(["1m", "2m", "unknown", "1m"], score=0.3), Fixed(["5z", "5z", "5z", "5z"], score=0.75))
    out = r.read([edge, grey, grey, edge], [pond, pond, pond, meld])
    assert [x.label for x in out] == [NONE, NONE, NONE, "unknown"]


def test_readers_that_agree_give_the_face_and_disagree_give_unknown_or_none():
    r = AgreeingReader(Fixed(["9s", "9s", "4s", "back", "3p"]), Fixed(["9s", "7s", "5z", "1m", "unknown"]))
    out = r.read([_face(), _face(), _felt(), _face(), _face()])
    assert [x.label for x in out] == ["9s", "unknown", NONE, "back", "unknown"]  # (not confirmed: not taken)
    # an unknown carries even class probabilities: no evidence for any face (vision's rules prior reads a
    # set from its other tiles); none is no tile
    p = out[1].probs
    assert p is not None and np.allclose(p[[CLASS_LABELS.index(x) for x in ("1m", "9s", "7z")]], p[0])
    assert p[CLASS_LABELS.index(NONE)] == 0.0 and abs(p.sum() - 1.0) < 1e-9
    assert out[2].probs[CLASS_LABELS.index(NONE)] == 1.0


class Scoring:
    """A reader scoring each crop's faces as it is told: ``table[i]`` maps faces to scores for crop i (the
    crops are known by identity); a read limited to ``allowed`` faces gives the best of those."""

    def __init__(self, crops, table):
        self.table = {id(c): t for c, t in zip(crops, table)}

    def read(self, crops, allowed=None):
        from controller.referee.camera import _Reading

        out = []
        for k, c in enumerate(crops):
            t = self.table[id(c)]
            ok = allowed[k] if allowed is not None and allowed[k] is not None else set(t)
            lab = max((x for x in t if x in ok), key=t.get, default="unknown")
            out.append(_Reading(lab, t.get(lab, 0.0)))
        return out


def test_a_second_reader_that_cannot_tell_two_faces_apart_does_not_contradict_the_first():
    crops = [_face(), _face(), _face(), _face(), _face()]
    first = Scoring(crops, [{"6m": 1.0}, {"6m": 1.0}, {"7z": 1.0}, {"5m": 1.0}, {"5f": 0.54}])
    # a template matcher: 八 a hair above 六 (one style's art: 0.912 / 0.908); 八 well above 六; a smudge it
    # scores low for every face; a plain five it scores a hair below the red one; a flower the first reader
    # is unsure of (it is not a reading the second one can confirm by not contradicting it)
    second = ConfidentReader(Scoring(crops, [{"8m": 0.912, "6m": 0.908}, {"8m": 0.93, "6m": 0.80},
                                             {"7m": 0.55, "7z": 0.54}, {"0m": 0.9, "5m": 0.895},
                                             {"8f": 0.842, "5f": 0.83}]))
    out = AgreeingReader(first, second).read(crops)
    assert [x.label for x in out] == ["6m", "unknown", "unknown", "5m", "unknown"]


def test_a_matcher_below_its_own_minimum_confirms_the_same_face_not_a_smudge():
    crops = [_face(), _face(), _face()]
    first = Scoring(crops, [{"8s": 1.0}, {"7m": 1.0}, {"5p": 1.0}])
    # kai's 8s at 0.66 (under the matcher's own 0.7); a smudged 7m it happens to name so at 0.45; a 5p it
    # names 3p at 0.66
    second = Scoring(crops, [{"8s": 0.66, "3s": 0.5}, {"7m": 0.45}, {"3p": 0.66, "5p": 0.65}])
    out = AgreeingReader(first, second).read(crops)
    assert [x.label for x in out] == ["8s", "unknown", "unknown"]


def test_two_unsure_readers_naming_the_same_face_are_no_reading():
    """A stain over a kai tile (sichuan-mpl2025, seed 11, hand 3): the classifier 1p at 0.58, the matcher 1p at
    0.64 — both unsure, agreeing by chance (a big red blob is kai's 1p); a stain on a riichi discard (hand 6)
    read kai's plain 5z at 0.94 and 0.63. Under the matcher's own minimum its agreement confirms only a sure
    classifier; from its minimum, any."""
    crops = [_face(), _face(), _face(), _face()]
    first = Scoring(crops, [{"1p": 0.58}, {"5z": 0.94}, {"8s": 0.97}, {"1p": 0.58}])
    second = Scoring(crops, [{"1p": 0.64}, {"5z": 0.63}, {"8s": 0.66}, {"1p": 0.75}])
    out = AgreeingReader(first, second).read(crops)
    assert [x.label for x in out] == ["unknown", "unknown", "8s", "1p"]


def test_a_plain_matcher_is_held_to_its_minimum_score():
    out = ConfidentReader(Fixed(["3p", "3p"], score=0.5)).read([_face(), _face()])
    assert [x.label for x in out] == ["unknown", "unknown"] and out[0].probs is not None
    out = ConfidentReader(Fixed(["3p"], score=0.95)).read([_face()])
    assert [x.label for x in out] == ["3p"]


def test_two_racks_standing_one_behind_the_other_are_racks_not_a_hand_shown():
    """Siamese: each player's two hands of fourteen stand in two rows; where the rows touch the finder saw one
    blob 42 mm deep and took it for a hand laid face up — fourteen unreadable 'tiles' (a question)."""
    from controller.referee.camera import CameraReader
    from controller.referee.sim.render import TableFilm
    from vision.calibration import calibrate
    from vision.scene_model import Scene, SeatView

    film = TableFilm("mcr-siamese", 3, style="classic", seed=11)
    cam = CameraReader(calibrate(film.frame()), "mcr-siamese", ["classic"], n_seats=3)
    film.set_table(Scene("mcr-siamese", (SeatView(standing=27), SeatView(standing=28), SeatView(standing=26))))
    for k in range(3):
        cam.process(film.frame(), t_mono=0.1 * k)
    for s, n in enumerate((27, 28, 26)):
        v = cam.pipe.scene.seats[s]
        assert v.revealed == () and v.standing == n, (s, v.standing, v.revealed)
    cam.close()


def test_a_hand_laid_face_up_with_a_tile_out_of_line_is_a_hand_not_two_racks():
    """The two-rack cut is for a profile whose players have two hands, and for a blob deeper than a hand laid
    face up can be: a revealed hand with a tile pushed back (39 mm deep) was read as 28 standing tiles (the
    hand never shown: no settlement, mcr 11-19)."""
    from controller.referee.camera import CameraReader
    from controller.referee.sim.render import TableFilm
    from vision.calibration import calibrate
    from vision.scene_model import Scene, SeatView

    hand = ("7m", "7m", "7m", "1s", "1s", "1s", "3s", "3s", "4s", "5s", "6s", "6s", "7s", "8s")
    for profile, n in (("mcr", 4), ("mcr-siamese", 3)):
        film = TableFilm(profile, n, style="classic", seed=19)
        cam = CameraReader(calibrate(film.frame()), profile, ["classic"], n_seats=n)
        film.push((0, "hand", 4), (0.0, 1.5), 0.0)
        film.push((0, "hand", 9), (0.0, -1.2), 0.0)
        film.set_table(Scene(profile, (SeatView(revealed=hand),) + (SeatView(standing=13),) * (n - 1)))
        for k in range(3):
            cam.process(film.frame(), t_mono=0.1 * k)
        v = cam.pipe.scene.seats[0]
        assert v.standing == 0 and v.revealed == hand, (profile, v.standing, v.revealed)
        cam.close()


def test_an_indicator_slot_read_as_bare_cloth_is_an_empty_slot_not_a_question(monkeypatch):
    """Riichi 12-6: the empty slots of the dead wall were read 'none' (no tile: the reader's own check for
    bare cloth) and reported as indicators — a question per slot. 'none' is an empty slot, like a slot the
    strip's own felt check finds empty; the turned indicator is still read."""
    from controller.referee.camera import CameraReader, _Reading
    from controller.referee.sim.render import TableFilm
    from rules.events import IndicatorSeen
    from vision.calibration import calibrate
    from vision.scene_model import Scene, SeatView

    film = TableFilm("riichi-ema2016", 4, style="classic", seed=11)
    cam = CameraReader(calibrate(film.frame()), "riichi-ema2016", ["classic"])
    film.set_table(Scene("riichi-ema2016", tuple(SeatView(standing=13) for _ in range(4))), indicators=("2z",))
    real = cam.reader

    class EmptyCloth:  # the real reading of the turned indicator, 'none' for every other slot's crop
        def read(self, crops, allowed=None):
            return [r if r.label == "2z" else _Reading(NONE, 0.0) for r in real.read(crops, allowed)]

    cam.reader = EmptyCloth()
    # a felt the strip's quick check does not take for cloth (light, noise: 12-6's table)
    monkeypatch.setattr("controller.referee.camera.is_felt", lambda crop, std=20.0: False)
    seen = [e for k in range(3) for e in cam.process(film.frame(), t_mono=0.1 * k) if isinstance(e, IndicatorSeen)]
    assert [(e.kind, e.index, e.tile) for e in seen] == [("dora", 0, "2z")]
    cam.close()


def test_a_smudged_tile_is_the_same_stain_in_every_process():
    """The stain over a tile made unreadable was seeded by Python's str hash, which differs from process to
    process: the same simulate seed drew other stains, some a reader saw a face through (red seed 12 hand 3
    with PYTHONHASHSEED=10: its smudged 2z read as a flower, a false verdict and no settlement)."""
    import hashlib
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import hashlib\nfrom controller.referee.sim.render import TableFilm\n"
            "from vision.scene_model import PondTile, Scene, SeatView\n"
            "film = TableFilm('red', 4, style='classic', seed=11)\n"
            "film.smudge(2, 'pond', 1, '2z')\n"
            "film.set_table(Scene('red', (SeatView(standing=13),) * 2 + (SeatView(pond=(PondTile('1m'), PondTile('2z')), "
            "standing=11), SeatView(standing=13))))\n"
            "print(hashlib.sha256(film.frame().tobytes()).hexdigest())\n")
    root = Path(__file__).resolve().parents[2]
    digests = {subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(h)}).stdout.strip() for h in (1, 10)}
    assert len(digests) == 1 and len(next(iter(digests))) == len(hashlib.sha256().hexdigest())


def test_a_moment_the_camera_already_filmed_past_is_filmed_after_it():
    """red@3 seed 11 hand 7/9: a discard 0.2 s after a flower set aside — the flower's frames (a dropped one, a
    reading confirmed) ran past the discard's time, so the discard got no frame of its own and the next moment
    took the tile away unseen. Its frames follow the last one filmed."""
    from controller.referee.sim.observe import CameraObserver
    from controller.referee.sim.timeline import Moment
    from rules.events import PondTileSeen
    from vision.scene_model import PondTile, Scene, SeatView

    obs = CameraObserver("mcr", 4, style="classic", seed=11, nuisances=False)
    empty = Scene("mcr", tuple(SeatView() for _ in range(4)))
    obs.observe(Moment(t=49.97, kind="scene", scene=empty))
    obs.last_t = 50.27  # filmed on past 50.17
    laid = Scene("mcr", (SeatView(pond=(PondTile("9p"),)),) + tuple(SeatView() for _ in range(3)))
    ev = [e for e in obs.observe(Moment(t=50.17, kind="scene", scene=laid, note="discard")) if isinstance(e, PondTileSeen)]
    assert [(e.seat, e.tile) for e in ev] == [(0, "9p")] and ev[0].t_mono > 50.27


def test_a_wrong_set_is_said_once_on_the_page_and_the_console_and_again_when_it_passes():
    from controller.referee.feed import SET_OK, WRONG_SET, CameraFeed

    class Svc:
        def __init__(self):
            self.notes = []

        def note(self, text):
            self.notes.append(text)

    class Reader:
        state = {"wrong": False, "similarity": 0.96, "line": 0.91, "seen": 40}

        def set_check(self):
            return dict(self.state)

    feed, svc, rd = CameraFeed(), Svc(), Reader()
    feed.reader = rd
    feed._watch_set(svc)
    assert svc.notes == [] and svc.camera_set["wrong"] is False
    rd.state = {**rd.state, "wrong": True, "similarity": 0.8}
    feed._watch_set(svc)
    feed._watch_set(svc)
    assert svc.notes == [WRONG_SET] and svc.camera_set["similarity"] == 0.8
    assert "enrolled tile set" in WRONG_SET and "набор" in WRONG_SET  # English and Russian
    rd.state = {**rd.state, "wrong": False}
    feed._watch_set(svc)
    assert svc.notes == [WRONG_SET, SET_OK]


def test_the_camera_reader_finds_its_set_watch_through_the_reader_chain():
    from controller.referee.camera import CameraReader

    class SetLike:
        def set_check(self):
            from vision.set_watch import SetCheck

            return SetCheck(True, 0.7, 0.91, 50)

    cr = CameraReader.__new__(CameraReader)
    cr.reader = ConfidentReader(AgreeingReader(SetLike(), Fixed(["1m"])))
    assert cr.set_check() == {"wrong": True, "similarity": 0.7, "line": 0.91, "seen": 50}
    cr.reader = ConfidentReader(Fixed(["1m"]))
    assert cr.set_check() is None


def test_an_indicator_slot_is_trimmed_to_the_tile_in_it_not_to_a_neighbour_s_edge():
    """A slot is cut wider than a tile and trimmed to the tile found in it (the calibration lies a millimetre
    off where the tile lies): the tile's own rectangle, a neighbour's edge in the cut left out; no tile-sized
    object in the cut (a hand over it) gives the slot's middle."""
    from controller.referee.camera import slot_tile

    pad = 4
    cut = np.zeros((43 + 2 * pad, 32 + 2 * pad, 3), np.uint8)
    cut[:] = (150, 60, 20)  # blue cloth
    cut[pad + 2:pad + 2 + 43, pad - 1:pad - 1 + 32] = (230, 235, 240)  # the tile, 2 px down and 1 px left
    cut[pad + 10:pad + 20, pad + 5:pad + 15] = (20, 20, 200)  # its red ink
    cut[:, -2:] = (230, 235, 240)  # the next tile's edge
    tile = slot_tile(cut, pad)
    assert tile.shape[:2] == (43, 32)
    assert (tile[0, 0] == (230, 235, 240)).all() and (tile[-1, -1] == (230, 235, 240)).all()
    cut[:] = (150, 60, 20)
    cut[:, 5:] = (230, 235, 240)  # an arm across the slot: nothing a tile's size
    assert slot_tile(cut, pad).shape[:2] == (43, 32)


def test_a_dora_indicator_is_read_with_the_calibration_a_millimetre_off():
    """Riichi 11-26: fluffy_black's 5p turned as the dora indicator was cut at the calibrated slot, a
    millimetre into its sides, and read 'unknown' at every frame: a question asked twice in the hand."""
    from controller.referee.camera import CameraReader
    from controller.referee.sim.render import TableFilm
    from rules.events import IndicatorSeen
    from vision.calibration import calibrate
    from vision.scene_model import Scene, SeatView

    film = TableFilm("riichi-ema2016", 4, style="fluffy_black", seed=11)
    cal = calibrate(film.frame())
    for dx, dy in ((1.5, 0.0), (-1.5, 1.0), (0.0, -1.5)):
        off = dataclasses.replace(cal, h=np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1.0]]) @ cal.h)
        cam = CameraReader(off, "riichi-ema2016", ["fluffy_black"])
        film.set_table(Scene("riichi-ema2016", tuple(SeatView(standing=13) for _ in range(4))), indicators=("5p",))
        seen = [e for k in range(3) for e in cam.process(film.frame(), t_mono=0.1 * k)
                if isinstance(e, IndicatorSeen)]
        assert [(e.kind, e.index, e.tile) for e in seen] == [("dora", 0, "5p")], (dx, dy)
        cam.close()
