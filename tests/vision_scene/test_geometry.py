import itertools

import numpy as np
import pytest

from rules.events import relative_source
from rules.game.table_data import TableConventions
from rules.profiles import registry
from rules.profiles.registry import PROFILES
from vision.conventions import conventions, sideways_index, source_of_index
from vision.geometry import DEFAULT_GEOMETRY, local_to_table, table_to_local
from vision.zones import table_zones, zone_of


def test_zones_are_disjoint_and_inside_the_table():
    zones = table_zones()
    rects = [z.table_rect() for z in zones]
    for (a, ra), (b, rb) in itertools.combinations(zip(zones, rects), 2):
        overlap = min(ra[2], rb[2]) - max(ra[0], rb[0]) > 0 and min(ra[3], rb[3]) - max(ra[1], rb[1]) > 0
        assert not overlap, (a.name, b.name)
    for r in rects:
        assert 0 < r[0] < r[2] < DEFAULT_GEOMETRY.size and 0 < r[1] < r[3] < DEFAULT_GEOMETRY.size
    # markers lie outside every zone
    for c in DEFAULT_GEOMETRY.marker_corners().reshape(-1, 2):
        assert zone_of(c[0], c[1], zones) is None


def test_seat_frames_round_trip_and_neighbours():
    rng = np.random.default_rng(0)
    pts = rng.uniform(-400, 400, (20, 2))
    for s in range(4):
        assert np.allclose(table_to_local(s, local_to_table(s, pts)), pts)
    # the player's left neighbour sits on the player's left (negative a), the right one on the right
    for s in range(4):
        for other in range(4):
            if other == s:
                continue
            centre = local_to_table(other, np.array([[0.0, 400.0]]))
            a, b = table_to_local(s, centre)[0]
            rel = relative_source(s, other)
            assert {"left": a < -100, "right": a > 100, "opposite": b < -100}[rel], (s, other, rel)


def test_every_profile_has_conventions():
    for name in PROFILES:  # each profile provides its table's (rules/profiles/<rule set>/table.py)
        c = conventions(name)
        assert isinstance(c, TableConventions) and c is registry.get(name).table_conventions
        assert conventions(registry.get(name)) is c
    with pytest.raises(ValueError):
        conventions("no-such-profile")
    with pytest.raises(ValueError):  # a layout the camera cannot read
        TableConventions(pond_layout="spiral")


@pytest.mark.parametrize("n", [3, 4])
def test_sideways_index_round_trip(n):
    for src in ("left", "opposite", "right"):
        assert source_of_index(sideways_index(src, n), n) == src


def test_concealed_kong_display_per_spec():
    # sichuan §14.11 [000 §2.5.7.1] outer two down; WMSG shown (AMB-34); mcr §13.9 all four down;
    # riichi §15 [Rules 3.3.7] the middle two down
    assert conventions("sichuan-mpl2025").concealed_kong_down == (0, 3)
    assert conventions("sichuan-wmsg").concealed_kong_down == ()
    assert conventions("mcr").concealed_kong_down == (0, 1, 2, 3)
    assert not conventions("mcr").concealed_kong_known
    assert conventions("riichi-ema2016").concealed_kong_down == (1, 2)
    assert conventions("red").pond_layout == "free" and not conventions("red").claimed_sideways
