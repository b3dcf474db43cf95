"""The rules as a prior over tile readings: legal melds only, conflicts become ``unknown``, copies limited."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tests.conftest import scaled
from vision.rules_prior import CONFLICT_P, RulesPrior, face_of
from vision.tile_labels import BACK, CLASS_LABELS, UNKNOWN
from vision.tile_match import Reading

IDX = {lab: i for i, lab in enumerate(CLASS_LABELS)}


def rd(**p: float) -> Reading:
    """A reading with these class probabilities (the rest spread thinly)."""
    q = np.full(len(CLASS_LABELS), 1e-4)
    for lab, v in p.items():
        q[IDX[{"back": BACK}.get(lab, lab.removeprefix("t"))]] = v
    q /= q.sum()
    return Reading(CLASS_LABELS[int(q.argmax())], float(q.max()), False, q)


def test_a_pung_of_three_faces_is_read_as_the_likely_pung():
    """2m 3m 2m looks like no set; 3m also had some 2m in it: a pung of 2m."""
    m = RulesPrior("mcr").meld([rd(t2m=0.9, t3m=0.1), rd(t3m=0.6, t2m=0.35), rd(t2m=0.95)], 0, False)
    assert (m.kind, m.tiles) == ("pung", ("2m", "2m", "2m"))


def test_a_run_in_any_order_is_a_chow():
    m = RulesPrior("riichi-ema2016").meld([rd(t5p=0.9), rd(t3p=0.9), rd(t4p=0.6, t4s=0.4)], 0, False)
    assert (m.kind, m.tiles) == ("chow", ("5p", "3p", "4p"))


def test_conflicting_evidence_is_unknown_never_an_illegal_meld():
    """Two 7s and a tile that is surely a 1z: no legal set holds all three as seen."""
    m = RulesPrior("mcr").meld([rd(t7s=0.98), rd(t7s=0.97), rd(t1z=0.999)], 1, False)
    assert m.kind == "pung" and m.tiles == ("7s", "7s", UNKNOWN)
    assert RulesPrior("mcr").legal(m.kind, m.tiles)


def test_concealed_kong_face_down_tiles_follow_the_profile():
    """A blank dragon that looks like a back, in the middle of a riichi concealed kong: face down."""
    tiles = [rd(t7z=0.95), rd(t5z=0.55, back=0.45), rd(t5z=0.6, back=0.4), rd(t7z=0.9)]
    assert RulesPrior("riichi-ema2016").meld(tiles, None, False).tiles == ("7z", "x", "x", "7z")
    mcr = RulesPrior("mcr").meld([rd(back=0.9)] * 4, None, False)  # all four down, face unknown
    assert (mcr.kind, mcr.tiles) == ("kong_concealed", ("x", "x", "x", "x"))


def test_an_mcr_concealed_kong_turned_face_up_at_the_reveal_is_read():
    """MCR lays a concealed kong all face down and turns it up when the hands are shown: its four faces are
    read (they were all ``unknown``, a question in mcr seed 12 hand 4); a half-turned one stays a question."""
    mcr = RulesPrior("mcr")
    assert mcr.meld([rd(t1p=0.97)] * 4, None, False).tiles == ("1p", "1p", "1p", "1p")
    assert mcr.meld([rd(t4p=0.9, t5p=0.1)] * 3 + [rd(t5p=0.6, t4p=0.4)], None, False).tiles == ("4p",) * 4
    assert mcr.meld([rd(back=0.9)] * 3 + [rd(t1p=0.9)], None, False).tiles == ("x", "x", "x", UNKNOWN)
    assert mcr.meld([rd(t1p=0.95)] * 3 + [rd(back=0.95)], None, False).tiles == ("1p", "1p", "1p", UNKNOWN)


def test_sets_the_profile_cannot_have_are_unknown():
    red = RulesPrior("red")  # no kongs in red
    assert red.meld([rd(t3m=0.9)] * 4, None, False).kind == UNKNOWN
    assert RulesPrior("mcr").meld([rd(t3m=0.9)] * 2, 0, False).kind == UNKNOWN
    sichuan = RulesPrior("sichuan-mpl2025")  # no honours: a pung of "east" is read as the likely suited pung
    m = sichuan.meld([rd(t1z=0.8, t1s=0.2)] * 3, 0, False)
    assert m.tiles == ("1s", "1s", "1s") and sichuan.legal(m.kind, m.tiles)


def test_jokers_stand_in_only_where_the_profile_has_them():
    tiles = [rd(t4p=0.9), rd(j=0.95), rd(t4p=0.9)]
    assert RulesPrior("red").meld(tiles, None, False).tiles == ("4p", "j", "4p")
    assert RulesPrior("mcr").meld(tiles, None, False).tiles == ("4p", UNKNOWN, "4p")


def test_a_fifth_copy_becomes_its_next_face_or_unknown():
    prior = RulesPrior("mcr")
    readings = {i: rd(t3m=0.9, t8m=0.09) for i in range(4)}
    readings[4] = rd(t3m=0.7, t8m=0.3)  # the least sure 3m has an 8m in it
    readings[5] = rd(t9s=0.99)
    labels = prior.limit_copies({k: r.label for k, r in readings.items()}, readings)
    assert Counter(labels.values()) == Counter({"3m": 4, "8m": 1, "9s": 1}) and labels[4] == "8m"
    # counting what the record holds out of view: two 9s are already known
    labels = prior.limit_copies({k: r.label for k, r in readings.items()}, readings, Counter({"9s": 4}))
    assert labels[5] == UNKNOWN
    flowers = {0: rd(t1f=0.9), 1: rd(t1f=0.8, t2f=0.2)}  # one of each flower
    assert prior.limit_copies({k: "1f" for k in flowers}, flowers) == {0: "1f", 1: "2f"}


@pytest.mark.parametrize("profile", ["sichuan-mpl2025", "mcr", "riichi-ema2016", "red"])
def test_random_evidence_never_gives_an_illegal_meld(profile):
    prior = RulesPrior(profile)
    rng = np.random.default_rng(7)
    for _ in range(scaled(300, 3000)):
        n = int(rng.choice([3, 4]))
        rows = rng.dirichlet(np.full(len(CLASS_LABELS), 0.05), n)
        side = int(rng.integers(n)) if rng.random() < 0.7 else None
        m = prior.meld([Reading("1m", 0.5, False, r) for r in rows], side, n == 4 and side is not None and rng.random() < 0.3)
        assert prior.legal(m.kind, m.tiles), (m, profile)
        for t, r in zip(m.tiles, rows):  # a face shown is one the camera saw with some probability
            if t not in (UNKNOWN, "x", "j"):
                f = face_of(t)
                seen = r[IDX[f]] + (r[IDX["0" + f[1]]] if f[0] == "5" and f[1] in "mps" else 0)
                assert seen + (r[IDX["j"]] if "j" in prior.faces else 0) >= CONFLICT_P, (t, m)
