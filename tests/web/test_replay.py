"""The replay of a refereed hand (issue #32 part 5): built on the server from the record, the public view
only, for every rule set; its routes on the table's page and on the hall's dashboard."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from controller.replay import merged, replay
from rules.events import (
    Dealt,
    Discarded,
    DoraRevealed,
    Drew,
    FlowerDeclared,
    HandRevealed,
    MeldMade,
    QuestionAnswered,
    Won,
)
from rules.game.machine import table_view
from rules.game.siamese import siamese_table_view
from tests.web.replay_data import PROFILES, full_hand, store_of, tiles_in


def _camera(profile):
    return siamese_table_view if profile == "mcr-siamese" else table_view  # as PublicHand chooses


def _public_tiles(events, view=table_view) -> Counter:
    """Every tile a camera above the table has seen face up after ``events`` (the camera's view of them)."""
    seen: Counter = Counter()
    for e in view(events):
        if isinstance(e, Discarded | FlowerDeclared):
            seen[e.tile] += 1
        elif isinstance(e, MeldMade | HandRevealed):
            seen.update(e.tiles)
        elif isinstance(e, DoraRevealed):
            seen[e.indicator] += 1
        elif isinstance(e, Won) and e.tile != "x":
            seen[e.tile] += 1
    seen.pop("x", None)
    return seen


@pytest.mark.parametrize("profile", PROFILES)
def test_no_concealed_tile_in_any_step(profile):
    hid, log = full_hand(profile)
    concealed = {t for e in log if isinstance(e, Dealt) for t in e.tiles} | {e.tile for e in log if isinstance(e, Drew)}
    assert concealed - {"x"}, "the log must carry the concealed faces for this test to mean anything"
    full = replay(store_of(hid, log), hid)
    # what the replay shows of the full-information log is what it shows of the camera's view of it: no
    # dealt or drawn face reaches any step
    assert full == replay(store_of(hid, _camera(profile)(log)), hid)
    steps = full["steps"]
    assert len(steps) >= 10 and steps[0]["what"]["type"] == "hand_started"
    # every step shows only tiles the camera had seen face up by then (as many of each as it had seen)
    for st in steps:
        fed = log[:st["at"]]
        public = _public_tiles(fed, _camera(profile))
        for tile in tiles_in(st["view"]["seats"]) + st["view"]["dora"]:
            assert public[tile] >= 1, f"step {st['i']}: {tile} shown before anyone saw it"
        for seat in st["view"]["seats"]:  # each pond: the seat's discards so far, in order (less those claimed)
            discards = iter([e.tile for e in fed if isinstance(e, Discarded) and e.seat == seat["seat"]])
            assert all(p["tile"] in discards for p in seat["pond"]), f"step {st['i']}: pond {seat['seat']}"
        if isinstance(fed[-1], Discarded):
            assert st["what"] == {"type": "discarded", "seat": fed[-1].seat, "tile": fed[-1].tile}
    # the last step: the settlement the rules engine computed
    last = steps[-1]["view"]
    deltas = [e for e in log if e.TYPE == "settled"]
    if deltas:
        assert last["settlement"]["deltas"] == list(deltas[-1].deltas)


def test_answers_go_where_they_came():
    hid, log = full_hand("riichi-ema2016")
    t = log[10].t_mono
    a = QuestionAnswered(t_mono=t + 0.0001 if log[11].t_mono > t else t, question_id=1, answer="5m", by="judge")
    out = merged(log, [a])
    assert out.index(a) >= 11 and out[:out.index(a)] == [e for e in log if e.t_mono <= a.t_mono][:out.index(a)]


def test_replay_json_names_no_hidden_field():
    hid, log = full_hand("mcr")
    text = json.dumps(replay(store_of(hid, log), hid))
    for word in ("subject", "message", "wall\": [", "counts"):
        assert word not in text
