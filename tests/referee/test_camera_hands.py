"""Camera hands that once asked the judge about tiles the camera had read, replayed through the whole stack
(``simulate --faults`` at test-long size, seed 11): each now settles as the truth with no question beyond the
tile made unreadable on purpose."""
from __future__ import annotations

import pytest

from controller.referee.sim import harness


@pytest.mark.parametrize(("table", "hand", "why"), [
    # classic's revealed 5p, 0.135 ahead of its 5s in the embedding (0.15 needed): its inks are the 5p's
    # (0.02-0.04), not the 5s's (0.27-0.29) -- the reader lets the inks decide (tile_reader.INK_CLOSE)
    ("sichuan-wmsg", 3, "inks"),
    # kai's revealed 4m unread in two frames in a row: the hand waits half a second of frames before it is
    # told with a tile unread (tracking.HAND_UNREAD_FRAMES), and a later frame reads it
    ("sichuan-mpl2025", 157, "frames"),
    # kai's seasons in the flowers set aside, clipped white by the lamp: their faint inks read coloured, 0.15-0.22
    # from their mean crops where the ink check allowed 0.14 (tile_reader.INK_FAR_GLARE); four asked
    ("mcr", 5, "glare"),
    # kai's revealed 6m, boxed tight by the finder: 0.72 like its prototype; read again padded with its own edge
    # (scene_parse.SceneParser._hand_tiles_again), 0.91
    ("mcr-siamese@3", 3, "padded"),
])
def test_a_hand_that_asked_about_a_tile_the_camera_reads(table, hand, why):
    spec = harness.TableSpec.parse(table)
    rep = harness.run_hand(spec, 11, hand, True, camera=True)
    other = [q for q in rep.asked if not q["planned"]]
    assert other == [], (why, other)
    assert len([q for q in rep.asked if q["planned"]]) == 1
    assert rep.ok and rep.questions_planned == 1, (rep.missed, rep.false, rep.mismatches)
