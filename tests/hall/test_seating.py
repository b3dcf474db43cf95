"""The seating draw honours every seed's rule it can and says which it could not; it always ends
(hall/seating.py: regions, table sizes per rule set, incomplete tables, team standings)."""
from __future__ import annotations

import random

from hall.db import HallDB
from hall.messages import OutboxMessage
from hall.seating import TableRules, draw_report, plan_sizes
from hall.tournament import BYE_TABLE, Tournament
from rules.profiles import registry


def _t(tmp_path, profile: str, n: int, **kw) -> Tournament:
    t = Tournament(HallDB(tmp_path / f"{profile}-{n}.sqlite"), profile=profile, seed=11)
    for i in range(n):
        t.register(f"P{i + 1:02d}", **{k: v(i) for k, v in kw.items()})
    return t


def test_players_of_one_region_never_share_a_table(tmp_path):
    """000 line 184: «жеребьёвку по принципу непересечения, чтобы игроки из одной страны или региона не садились бы
    вместе за одни столы»."""
    t = _t(tmp_path, "sichuan-mpl2025", 16, region=lambda i: "RU-" + "ABCD"[i % 4])
    regions = t.regions()
    for s in (1, 2, 3):
        tables = t.seat(s)
        for ps in tables.values():
            assert len({regions[p] for p in ps}) == len(ps), ps
        assert t.unmet[s] == [] or all("meet again" in u for u in t.unmet[s])


def test_a_draw_that_cannot_honour_the_regions_says_so_and_ends():
    """Six players of one region among eight cannot be kept apart: the draw seats everybody and names the pairs."""
    players = [f"P{i}" for i in range(8)]
    regions = {p: ("north" if i < 6 else f"r{i}") for i, p in enumerate(players)}
    d = draw_report(players, rng=random.Random(1), regions=regions)
    assert sorted(p for t in d.tables for p in t) == sorted(players)
    assert d.unmet and all("of one region (north)" in u for u in d.unmet)
    assert len(d.unmet) == 6  # the fewest possible: 3 + 3 northerners at each table


def test_sichuan_incomplete_tables(tmp_path):
    """000 lines 503-513 (§3.1): tables of three (4/3/2 TP) rather than none; a table of one or two plays no game,
    gets 3 TP and 0 GP, is seated last (the lowest ranked), and nobody sits there twice."""
    rules = TableRules.of(registry.get("sichuan-mpl2025"))
    assert plan_sizes(14, rules) == [4, 4, 3, 3] and plan_sizes(9, rules) == [3, 3, 3]
    assert plan_sizes(5, rules) == [4, 1] and plan_sizes(6, rules) == [3, 3]
    t = _t(tmp_path, "sichuan-mpl2025", 5)
    first = t.seat(1)
    assert len(first[BYE_TABLE]) == 1 and list(first)[-1] == BYE_TABLE
    t.start_session(1, minutes=60)
    (table, players), = [(k, v) for k, v in first.items() if k != BYE_TABLE]
    with t.db.tx() as db:
        t.db.ingest(db, table, OutboxMessage("h1", 1, "result", {"session": 1, "players": players, "result": {
            "status": "played", "deltas": [30, 10, -15, -25]}}, 1.0), 2.0)
    st = t.standings()
    bye_line = st.tables[(1, BYE_TABLE)].standings
    assert [(x.player, x.table_points, x.total) for x in bye_line] == [(first[BYE_TABLE][0], 3.0, 0)]
    t.end_session(1)
    second = t.seat(2)
    assert second[BYE_TABLE] != first[BYE_TABLE]  # never twice
    assert second[BYE_TABLE] == [players[3]]  # the lowest ranked (−25 GP, 1 TP) who had none: seated last


def test_siamese_and_red_table_sizes(tmp_path):
    """003 lines 2229-2273 (Siamese: «Играет три игрока, при игре вдвоём ...», line 2231; the two-player game, lines
    2268-2273): tables of three, or two; 001 line 8
    («В красный маджонг могут играть от 2 до 4 игроков»): Red seats 2 to 4."""
    siamese = _t(tmp_path, "mcr-siamese", 8)
    assert sorted(len(v) for v in siamese.seat(1).values()) == [2, 3, 3]
    assert sorted(len(v) for v in _t(tmp_path, "mcr-siamese", 12).seat(1).values()) == [3, 3, 3, 3]
    assert sorted(len(v) for v in _t(tmp_path, "red", 6).seat(1).values()) == [2, 4]
    assert sorted(len(v) for v in _t(tmp_path, "red", 5).seat(1).values()) == [2, 3]


def test_a_large_constrained_draw_ends():
    """Pantheon's seating can hang (#784): this one is a bounded search — 203 players, 7 regions, a history."""
    rules = TableRules((3, 4), 4, bye=True)
    players = [f"P{i:03d}" for i in range(203)]
    history = [[players[i:i + 4] for i in range(0, 200, 4)]]
    d = draw_report(players, history, rng=random.Random(3), rules=rules,
                    regions={p: f"r{i % 7}" for i, p in enumerate(players)}, steps=3000, restarts=2)
    assert sorted(p for t in d.tables for p in t) == sorted(players)
    assert sorted(len(t) for t in d.tables) == sorted(plan_sizes(203, rules))


def test_team_standings(tmp_path):
    """000 line 188 (§2.4.3): «Зачёт на состязаниях: индивидуальный, командный или групповой»."""
    t = _t(tmp_path, "sichuan-mpl2025", 4, team=lambda i: "odd" if i % 2 else "even")
    t.seat(1, {"T1": ["P01", "P02", "P03", "P04"]})
    with t.db.tx() as db:
        t.db.ingest(db, "T1", OutboxMessage("h1", 1, "result", {"session": 1, "players": ["P01", "P02", "P03", "P04"],
                                                                 "result": {"status": "played",
                                                                            "deltas": [30, 10, -15, -25]}}, 1.0), 2.0)
    teams = t.standings().teams
    assert [(x.rank, x.team, x.members, x.table_points, x.total) for x in teams] == [
        (1, "even", ("P01", "P03"), 6.0, 15), (2, "odd", ("P02", "P04"), 4.0, -15)]
    from hall.protocols import ranking_html

    page = ranking_html(t.standings(), t.player_names(), "Cup", "ru")
    assert "Командный зачёт" in page and "<td>even</td><td>P01 P03</td><td>6.0</td><td>15</td>" in page
