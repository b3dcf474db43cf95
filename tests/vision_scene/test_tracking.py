from rules.events import MeldSeen, PondTileRemoved, PondTileSeen, StickSeen
from vision.scene_model import MeldView, PondTile, Scene, SeatView
from vision.tracking import Tracker, diff_events


def scene(pond0=(), melds1=(), stick0=False):
    seats = [SeatView() for _ in range(4)]
    seats[0] = SeatView(pond=tuple(PondTile(t) for t in pond0), riichi_stick=stick0)
    seats[1] = SeatView(melds=tuple(melds1))
    return Scene("riichi-ema2016", tuple(seats))


def test_discard_and_claim_become_events():
    ev = diff_events("riichi-ema2016", "pond0", ((PondTile("1m"),),), ((PondTile("1m"), PondTile("5p")),),
                     t_mono=1.0, t_wall=0.0, frame=3)
    assert ev == [PondTileSeen(seat=0, index=1, tile="5p", t_mono=1.0, frame=3)]
    ev = diff_events("riichi-ema2016", "pond0", ((PondTile("1m"), PondTile("5p")),), ((PondTile("1m"),),),
                     t_mono=2.0, t_wall=0.0, frame=5)
    assert ev == [PondTileRemoved(seat=0, index=1, tile="5p", t_mono=2.0, frame=5)]


def test_debounce_ignores_one_frame_flicker_and_stamps_first_frame():
    tr = Tracker("riichi-ema2016", debounce=2)
    assert tr.update(scene(), frame=0, t_mono=0.0) == []
    assert tr.update(scene(["2s"]), frame=1, t_mono=0.1) == []  # seen once: not yet
    assert tr.update(scene(), frame=2, t_mono=0.2) == []  # flicker gone
    assert tr.update(scene(["3s"]), frame=3, t_mono=0.3) == []
    ev = tr.update(scene(["3s"]), frame=4, t_mono=0.4)
    assert [(type(e), e.tile, e.frame, e.t_mono) for e in ev] == [(PondTileSeen, "3s", 3, 0.3)]


def test_untrusted_zone_resets_its_candidate():
    tr = Tracker("riichi-ema2016", debounce=2)
    tr.update(scene(["3s"]), frame=0, t_mono=0.0)
    assert tr.update(scene(["3s", "4s"]), frame=1, t_mono=0.1, untrusted={"pond0"}) == []
    assert tr.update(scene(["3s", "4s"]), frame=2, t_mono=0.2) == []  # the reset candidate starts again
    ev = tr.update(scene(["3s", "4s"]), frame=3, t_mono=0.3)
    assert [(e.tile, e.index, e.frame) for e in ev if isinstance(e, PondTileSeen)] == [("3s", 0, 2), ("4s", 1, 2)]


def test_meld_source_and_stick():
    tr = Tracker("riichi-ema2016", debounce=1)
    m = MeldView("pung", ("5p", "5p", "5p"), 1, "opposite")
    ev = tr.update(scene(melds1=[m], stick0=True), frame=0, t_mono=0.0)
    assert MeldSeen(seat=1, kind="pung", tiles=("5p",) * 3, claimed_index=1, source="opposite", frame=0) in ev
    assert StickSeen(seat=0, kind="riichi", frame=0) in ev


def test_free_layout_source_follows_the_tile():
    """Red turns no tile: the source of a claimed set is the pond the tile just left (red.md §12, A27)."""
    tr = Tracker("red", debounce=1)
    s0 = Scene("red", (SeatView(), SeatView(), SeatView(pond=(PondTile("7s"), PondTile("2m"))), SeatView()))
    tr.update(s0, frame=0, t_mono=0.0)
    s1 = Scene("red", (SeatView(), SeatView(melds=(MeldView("pung", ("2m",) * 3),)),
                       SeatView(pond=(PondTile("7s"),)), SeatView()))
    ev = tr.update(s1, frame=1, t_mono=0.1)
    removed = [e for e in ev if isinstance(e, PondTileRemoved)]
    melds = [e for e in ev if isinstance(e, MeldSeen)]
    assert removed == [PondTileRemoved(seat=2, index=1, tile="2m", t_mono=0.1, frame=1)]
    assert melds[0].source == "right"  # seat 2 is seat 1's right-hand neighbour


def test_a_later_misread_of_a_lying_tile_is_not_a_new_discard():
    tr = Tracker("mcr", debounce=2)
    s = Scene("mcr", (SeatView(pond=(PondTile("3s"), PondTile("9m"))),) + (SeatView(),) * 3)
    tr.update(s, frame=0, t_mono=0.0)
    assert len(tr.update(s, frame=1, t_mono=0.1)) == 2
    misread = Scene("mcr", (SeatView(pond=(PondTile("3s"), PondTile("5m"))),) + (SeatView(),) * 3)
    assert tr.update(misread, frame=2, t_mono=0.2) == []
    assert tr.update(misread, frame=3, t_mono=0.3) == []
    more = Scene("mcr", (SeatView(pond=(PondTile("3s"), PondTile("5m"), PondTile("1z"))),) + (SeatView(),) * 3)
    tr.update(more, frame=4, t_mono=0.4)
    ev = tr.update(more, frame=5, t_mono=0.5)
    assert [(e.tile, e.index) for e in ev] == [("1z", 2)]
    assert [p.tile for p in tr.stable.seats[0].pond] == ["3s", "9m", "1z"]


def test_a_tile_read_unknown_under_an_arm_is_told_in_its_place_once_read():
    """Two frames with an arm over the new discard both read it ``unknown`` (confirmed); the arm moves on and
    the tile reads: that tile, seen at its place — no tile removed, none laid after it."""
    tr = Tracker("sichuan-mpl2025", debounce=2)
    for f in (0, 1):
        tr.update(scene(["3s"]), frame=f, t_mono=0.1 * f)
    tr.update(scene(["3s", "unknown"]), frame=2, t_mono=0.2)
    ev = tr.update(scene(["3s", "unknown"]), frame=3, t_mono=0.3)
    assert [(e.tile, e.index) for e in ev] == [("unknown", 1)]
    tr.update(scene(["3s", "8s"]), frame=4, t_mono=0.4)
    ev = tr.update(scene(["3s", "8s"]), frame=5, t_mono=0.5)
    assert ev == [PondTileSeen(seat=0, index=1, tile="8s", t_mono=0.4, frame=4)]
    # a face once read stays (a later misread of a lying tile is no change)
    tr.update(scene(["3s", "9s"]), frame=6, t_mono=0.6)
    assert tr.update(scene(["3s", "9s"]), frame=7, t_mono=0.7) == []
    # an arm's even brown read as bare cloth ("none", sichuan-wmsg seed 11 hand 169): the same
    tr.update(scene(["3s", "8s", "none"]), frame=8, t_mono=0.8)
    tr.update(scene(["3s", "8s", "none"]), frame=9, t_mono=0.9)
    tr.update(scene(["3s", "8s", "2s"]), frame=10, t_mono=1.0)
    ev = tr.update(scene(["3s", "8s", "2s"]), frame=11, t_mono=1.1)
    assert ev == [PondTileSeen(seat=0, index=2, tile="2s", t_mono=1.0, frame=10)]


def test_an_unread_tile_is_confirmed_only_by_reading_it_again():
    tr = Tracker("riichi-ema2016", debounce=2)
    tr.update(scene(["3s"]), frame=0, t_mono=0.0)
    tr.update(scene(["3s"]), frame=1, t_mono=0.1)
    # a blurred frame: the new tile is not read; the next frames look the same to the change detector
    assert tr.update(scene(["3s", "unknown"]), frame=2, t_mono=0.2, read={"pond0"}) == []
    assert tr.unsettled() == {"pond0"}
    assert tr.update(scene(["3s", "unknown"]), frame=3, t_mono=0.3, read=set()) == []  # not read: no repeat
    assert tr.update(scene(["3s", "8s"]), frame=4, t_mono=0.4, read={"pond0"}) == []  # read again: its face
    assert tr.unsettled() == set()
    ev = tr.update(scene(["3s", "8s"]), frame=5, t_mono=0.5, read=set())  # a face: a same-looking frame repeats it
    assert [(e.tile, e.index, e.frame) for e in ev] == [("8s", 1, 4)]
    # a tile that stays unreadable is reported so once two readings agree (and then not read again)
    assert tr.update(scene(["3s", "8s", "unknown"]), frame=6, t_mono=0.6, read={"pond0"}) == []
    ev = tr.update(scene(["3s", "8s", "unknown"]), frame=7, t_mono=0.7, read={"pond0"})
    assert [(e.tile, e.index, e.frame) for e in ev] == [("unknown", 2, 6)] and tr.unsettled() == set()


def test_the_pipeline_reads_again_a_zone_whose_new_tile_it_could_not_read():
    """The camera's frame was blurred (here: the reader failed on its tiles); the next frames show the table
    unchanged to the change detector: the pipeline reads the zone again instead of confirming 'unknown'."""
    from vision.calibration import calibrate
    from vision.pipeline import VisionPipeline, make_reader
    from vision.scene_render import render_scene

    class FailsOnce:
        def __init__(self, reader):
            self.reader, self.calls = reader, 0

        def __getattr__(self, name):
            return getattr(self.reader, name)

        def read(self, crops, allowed=None):
            self.calls += 1
            out = self.reader.read(crops, allowed)
            return [type(r)("unknown", 0.1) for r in out] if self.calls == 1 else out

    sc = scene(["1m", "9p", "3s"])
    frame, _ = render_scene(sc, seed=3, style="classic")
    reader = FailsOnce(make_reader(["classic"], "template"))
    pipe = VisionPipeline(calibrate(frame), "riichi-ema2016", ["classic"], reader=reader, threads=1)
    events = []
    for k in range(4):
        events += pipe.process(frame, t_mono=0.1 * k).events
    assert [e.tile for e in events if isinstance(e, PondTileSeen)] == ["1m", "9p", "3s"]


def test_a_later_misread_of_a_flower_set_aside_is_not_a_new_flower():
    from rules.events import FlowerSeen

    def flowers(*tiles):
        seats = [SeatView() for _ in range(4)]
        seats[1] = SeatView(flowers=tuple(tiles))
        return Scene("red", tuple(seats))

    tr = Tracker("red", debounce=2)
    ev = tr.update(flowers("1f", "3f", "8f"), frame=0, t_mono=0.0) + tr.update(flowers("1f", "3f", "8f"), frame=1,
                                                                                t_mono=0.1)
    assert [e.tile for e in ev if isinstance(e, FlowerSeen)] == ["1f", "3f", "8f"]
    # a sleeve near the flowers: the zone read again, its 8f taken for a 5f (twice)
    assert tr.update(flowers("1f", "3f", "5f"), frame=2, t_mono=0.2) == []
    assert tr.update(flowers("1f", "3f", "5f"), frame=3, t_mono=0.3) == []
    ev = tr.update(flowers("1f", "3f", "5f", "2f"), frame=4, t_mono=0.4) + tr.update(
        flowers("1f", "3f", "5f", "2f"), frame=5, t_mono=0.5)
    assert [e.tile for e in ev if isinstance(e, FlowerSeen)] == ["2f"]  # a new flower set aside: that one only


def test_the_last_pond_tile_read_as_cloth_a_while_is_gone_and_its_place_takes_the_next_face():
    """mcr-siamese seed 11 hand 162: a tile put down out of turn and taken back, the finder still cutting its
    empty place (read 'none'): held a moment (an arm taken for cloth) it keeps its face; read so for
    CLOTH_GONE_S it is removed — and the seat's own discard later laid there is told, not kept as the old face."""
    from vision.tracking import CLOTH_GONE_S

    tr = Tracker("mcr", debounce=2)
    for f in (0, 1):
        tr.update(scene(["3s", "7z"]), frame=f, t_mono=0.1 * f)
    assert tr.update(scene(["3s", "none"]), frame=2, t_mono=0.2) == []
    assert tr.update(scene(["3s", "none"]), frame=3, t_mono=0.3) == []  # a moment: an arm, perhaps
    assert tr.update(scene(["3s", "7z"]), frame=4, t_mono=0.4) == []  # it was: the face is back, no event
    tr.update(scene(["3s", "none"]), frame=5, t_mono=0.5)
    t = 0.5 + CLOTH_GONE_S
    ev = tr.update(scene(["3s", "none"]), frame=6, t_mono=t, read=set())  # not re-read: the time confirms it
    assert PondTileRemoved(seat=0, index=1, tile="7z", t_mono=t, frame=6) in ev
    tr.update(scene(["3s", "2m"]), frame=7, t_mono=t + 0.1)
    ev = tr.update(scene(["3s", "2m"]), frame=8, t_mono=t + 0.2)
    assert ev == [PondTileSeen(seat=0, index=1, tile="2m", t_mono=t + 0.1, frame=7)]
    # a known tile read as cloth in the middle of the row stays (tiles leave a pond from its end)
    for f in (9, 10):
        tr.update(scene(["none", "2m"]), frame=f, t_mono=t + 2 + f)
    assert [p.tile for p in tr.stable.seats[0].pond] == ["3s", "2m"]


def test_a_pond_tile_read_as_cloth_is_read_again_until_it_is_gone_or_shows_its_face():
    """sichuan-wmsg seed 11 hand 2: an 8p read as cloth in one frame (a doubted face on a shadowed crop) and not
    read again (the frames after looked the same) was gone by the clock 3.5 s later: the pond '7m none', the
    record '7m 8p', a question. While the clock runs the pond is read again at every frame."""
    tr = Tracker("mcr", debounce=2)
    for f in (0, 1):
        tr.update(scene(["7m", "8p"]), frame=f, t_mono=0.1 * f)
    assert tr.unsettled() == set()
    tr.update(scene(["7m", "none"]), frame=2, t_mono=0.2)
    assert "pond0" in tr.unsettled()  # read again, not confirmed by frames that look the same
    tr.update(scene(["7m", "8p"]), frame=3, t_mono=0.3)  # the next reading shows the face: no clock, no event
    assert tr.unsettled() == set() and [p.tile for p in tr.stable.seats[0].pond] == ["7m", "8p"]


def test_a_new_discard_read_as_cloth_is_read_again_a_while_and_then_shows_its_face():
    """sichuan-mpl2025 seed 11 hand 53: a new 8p read as cloth (``none``) twice became the pond's stable reading
    and its pond was not read again until it changed (8 s later): the referee took the next player's discard as
    out of turn. A pond whose stable reading holds a place read as cloth is read again at every frame for
    NONE_REREAD_S; the face read then is that tile seen in its place."""
    from vision.tracking import NONE_REREAD_S

    tr = Tracker("mcr", debounce=2)
    for f in (0, 1):
        tr.update(scene(["7m"]), frame=f, t_mono=0.1 * f)
    for f in (2, 3):
        tr.update(scene(["7m", "none"]), frame=f, t_mono=0.1 * f)
    assert [p.tile for p in tr.stable.seats[0].pond] == ["7m", "none"]
    assert "pond0" in tr.unsettled()  # read again though its frames look the same
    ev = []
    for f in (4, 5):
        ev += tr.update(scene(["7m", "8p"]), frame=f, t_mono=0.1 * f)
    assert [(type(e).__name__, e.tile, e.index) for e in ev] == [("PondTileSeen", "8p", 1)]
    assert tr.unsettled() == set()
    # a place that stays cloth is read again only for a while (a shadow the finder cuts as a tile)
    for f in (6, 7):
        tr.update(scene(["7m", "8p", "none"]), frame=f, t_mono=1.0 + 0.1 * f)
    assert "pond0" in tr.unsettled()
    tr.update(scene(["7m", "8p", "none"]), frame=8, t_mono=1.7 + NONE_REREAD_S)
    assert tr.unsettled() == set()


def test_a_set_the_rules_cannot_make_is_confirmed_only_by_reading_it_again():
    """mcr seed 11 hand 131: a blurred frame ran a new chow into the pung beside it — six tiles of no kind; the
    next frames looked the same to the change detector and confirmed it, the chow was never seen. Like an
    unreadable tile, such a reading waits for a real second reading (the sharp frame: two sets)."""
    pung = MeldView("pung", ("5z",) * 3, 2, "right")
    tr = Tracker("mcr", debounce=2)
    tr.update(scene(melds1=[pung]), frame=0, t_mono=0.0)
    tr.update(scene(melds1=[pung]), frame=1, t_mono=0.1)
    blur = MeldView("unknown", ("2m", "1m", "1m", "5z", "5z", "5z"), 0, "left")
    assert tr.update(scene(melds1=[blur]), frame=2, t_mono=0.2, read={"meld1"}) == []
    assert tr.unsettled() == {"meld1"}
    assert tr.update(scene(melds1=[blur]), frame=3, t_mono=0.3, read=set()) == []  # not read again: no repeat
    chow = MeldView("chow", ("2m", "1m", "3m"), 0, "left")
    tr.update(scene(melds1=[pung, chow]), frame=4, t_mono=0.4, read={"meld1"})
    ev = tr.update(scene(melds1=[pung, chow]), frame=5, t_mono=0.5, read=set())
    assert [(e.kind, e.tiles) for e in ev] == [("chow", ("2m", "1m", "3m"))]


def test_bare_cloth_after_the_flowers_set_aside_is_no_flower():
    """An arm over a seat's flower row (mcr seed 11 hand 87: seat 3 reaching for seat 1's discard) was cut as a
    tile and read as bare cloth: a flower 'none' was reported and asked. Cloth after the flowers is no flower;
    the flowers there keep their faces, a real one laid later is told."""
    from rules.events import FlowerSeen

    def flowers(*tiles):
        seats = [SeatView() for _ in range(4)]
        seats[1] = SeatView(flowers=tuple(tiles))
        return Scene("mcr", tuple(seats))

    tr = Tracker("mcr", debounce=2)
    for f in (0, 1):
        tr.update(flowers("1f", "3f"), frame=f, t_mono=0.1 * f)
    for f in (2, 3):
        assert tr.update(flowers("1f", "none", "none"), frame=f, t_mono=0.1 * f) == []
    ev = tr.update(flowers("1f", "3f", "6f"), frame=4, t_mono=0.4) + tr.update(flowers("1f", "3f", "6f"), frame=5,
                                                                                t_mono=0.5)
    assert [e.tile for e in ev if isinstance(e, FlowerSeen)] == ["6f"]


def _revealed(tiles):
    seats = [SeatView() for _ in range(4)]
    seats[2] = SeatView(revealed=tuple(tiles))
    return Scene("riichi-ema2016", tuple(seats))


def test_a_revealed_hand_takes_each_places_face_from_any_reading_and_waits_before_an_unread_tile():
    """Fourteen tiles a frame: each frame may leave another place unread (sichuan-mpl2025 seed 11 hand 190: the
    judge was asked about a 4m the frame before had read)."""
    from vision.tracking import HAND_UNREAD_FRAMES

    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "5z", "5z"]
    a = ["unknown" if i == 3 else t for i, t in enumerate(hand)]
    b = ["unknown" if i in (1, 2) else t for i, t in enumerate(hand)]
    tr = Tracker("riichi-ema2016", debounce=2)
    tr.update(_revealed(()), frame=0, t_mono=0.0)
    assert tr.update(_revealed(a), frame=1, t_mono=0.1) == []
    ev = tr.update(_revealed(b), frame=2, t_mono=0.2)  # places 1, 2 from the first, 3 from this one
    assert [(type(e).__name__, e.tiles, e.frame) for e in ev] == [("TilesRevealed", tuple(hand), 1)]
    assert tr.update(_revealed(a), frame=3, t_mono=0.3) == [] and tr.unsettled() == set()
    # one place unread in every reading: told unread (the judge is asked) only after HAND_UNREAD_FRAMES alike
    tr = Tracker("riichi-ema2016", debounce=2)
    tr.update(_revealed(()), frame=0, t_mono=0.0)
    for k in range(1, HAND_UNREAD_FRAMES):
        assert tr.update(_revealed(a), frame=k, t_mono=0.1 * k) == [] and tr.unsettled() == {"hand2"}
    ev = tr.update(_revealed(a), frame=HAND_UNREAD_FRAMES, t_mono=0.1 * HAND_UNREAD_FRAMES)
    assert [e.tiles for e in ev] == [tuple(a)]
    # readings that disagree on a face (a misread, or another hand laid down) are not merged
    tr = Tracker("riichi-ema2016", debounce=2)
    other = ["9m" if i == 0 else t for i, t in enumerate(b)]
    tr.update(_revealed(a), frame=0, t_mono=0.0)
    tr.update(_revealed(other), frame=1, t_mono=0.1)
    assert tr._cand["hand2"].state == (0, tuple(other))
