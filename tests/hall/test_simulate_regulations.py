"""``hall simulate`` with the regulations (issue #34's acceptance): a whole tournament of simulated tables with a
mid-session substitute, a late player, a penalty and a sanction given at a table's console, an appeal and
(Sichuan) an incomplete table. The hall's final standings equal the ones worked out here from the tables' own
records — their stores' results and judge streams — and the director's records, line by line."""
from __future__ import annotations

import json

import pytest

from controller.event_store import EventStore
from controller.hall_link.simulate import run
from hall.db import HallDB
from rules.events import JudgeAction, PenaltyAwarded
from rules.profiles import registry
from tests.conftest import scaled
from tests.hall.conftest import _need_mosquitto


def _session_of(hand_id: str) -> int:
    return int(hand_id.rsplit("-s", 1)[1].split("-h", 1)[0])  # "table-01-s1-h003"


def _by_hand(tmp_path, profile: str, ids: list[str]) -> list[tuple[int, str, float, int]]:
    """The ranking from the tables' records: each hand's deltas by chair, the judges' penalties and sanctions,
    the director's late arrivals and substitution, through the profile's own session and tournament rules."""
    prof = registry.get(profile)
    db = HallDB(tmp_path / "hall.sqlite")
    seating: dict[tuple[int, str], list[str]] = {}
    for s, table, _seat, p in db.q("SELECT session, table_id, seat, player FROM seating ORDER BY seat"):
        seating.setdefault((s, table), []).append(p)
    replaced = {(d["session"], d["table"], d["out"]): d["seat"]
                for d in (json.loads(x) for (x,) in db.q("SELECT detail FROM audit WHERE action='substitute'"))}
    late = {(s, p): m for s, p, m in db.q("SELECT session, player, minutes FROM late")}
    subs = {p for (p,) in db.q("SELECT id FROM players WHERE substitute=1")}
    totals: dict[tuple[int, str], dict[int, int]] = {}
    penalties: dict[tuple[int, str], dict[int, int]] = {}
    leftover: dict[tuple[int, str], int] = {}
    tp_off: dict[tuple[int, str], float] = {}
    for table in ids:
        store = EventStore(tmp_path / "tables" / f"{table}.sqlite")
        for hand_id, r in store.results():
            key = (_session_of(hand_id), table)
            players = seating[key]
            seat_of = {p: i for i, p in enumerate(players)}
            t = totals.setdefault(key, {i: prof.start_score for i in range(len(players))})
            assert not any(r["deltas"][len(r["seats"]):])  # a table of three: North is empty (000 §3.1.3)
            for p, d in zip(r["seats"], r["deltas"], strict=False):
                t[seat_of.get(p, replaced.get((key[0], table, p)))] += d
            leftover[key] = int(r["options_after"].get("deposits", 0))
        for ev in store.events(f"{table}/judge"):
            key = (_session_of(ev.hand_id), table)
            if isinstance(ev, PenaltyAwarded) and ev.points:
                pen = penalties.setdefault(key, {})
                pen[ev.seat] = pen.get(ev.seat, 0) + ev.points
            if isinstance(ev, JudgeAction) and ev.action == "sanction":
                tp_off[(key[0], seating[key][ev.detail["seat"]])] = ev.detail["points"]
        store.close()
    records: dict[str, list] = {}
    for key in sorted(seating):
        players = seating[key]
        if key not in totals and len(players) > 2:
            continue
        t = totals.get(key, {i: prof.start_score for i in range(len(players))})
        lines = prof.session_standings(t, dict(enumerate(players)), penalties=penalties.get(key, {}),
                                       late={i: late[(key[0], p)] for i, p in enumerate(players) if (key[0], p) in late},
                                       leftover=leftover.get(key, 0))
        for x in lines:
            off = tp_off.get((key[0], x.player), 0)
            records.setdefault(x.player, []).append(x if not off else
                                                    type(x)(**{**x.__dict__, "table_points": x.table_points - off}))
    db.close()
    ranking = prof.tournament_standings({p: rs for p, rs in records.items() if p not in subs})
    return [(x.rank, x.player, x.table_points, x.total) for x in ranking]


@pytest.mark.parametrize("profile", ["sichuan-mpl2025", "riichi-ema2016"])
def test_simulated_tournament_with_the_regulations(profile, tmp_path):
    _need_mosquitto()
    rep = run(2, 2, profile, 5, workdir=tmp_path, max_hands=scaled(4, None), regulations=True)
    assert rep.ok and rep.lost == 0 and rep.duplicated == 0 and not rep.mismatched
    done = " | ".join(rep.regulations)
    for what in ("late:", "penalty at table-01", "sanction at table-02", "substitute at table-01", "not upheld"):
        assert what in done, done
    if profile.startswith("sichuan"):  # 7 players: one table of three (000 §3.1.3) in each session
        assert len(rep.ranking) == 7
    got = [(x.rank, x.player, x.table_points, x.total) for x in rep.ranking]
    assert got == _by_hand(tmp_path, profile, ["table-01", "table-02"])
    assert "S001" not in {x[1] for x in got}  # the substitute plays and is not ranked
