"""Whole tournaments of 16 players in 4 sessions: the hall's standings, computed by the profiles' hooks, equal
the ranking worked out by hand from the seeds (sichuan-mpl2025: 000 §2.7.5, §2.8.2, §2.8.4.5;
riichi-ema2016: 004 Reg 6.3 with its two worked examples, Rules 3.6, 5.7; spec A5)."""
from __future__ import annotations

import pytest

from hall.db import HallDB
from hall.messages import OutboxMessage
from hall.tournament import Tournament, TournamentError

P = [f"P{i:02d}" for i in range(1, 17)]
# Fixed seating (by seat: East, South, West, North), no pair of players meets twice.
SEATING = {
    1: {"T1": "P01 P02 P03 P04", "T2": "P05 P06 P07 P08", "T3": "P09 P10 P11 P12", "T4": "P13 P14 P15 P16"},
    2: {"T1": "P01 P05 P09 P13", "T2": "P02 P06 P10 P14", "T3": "P03 P07 P11 P15", "T4": "P04 P08 P12 P16"},
    3: {"T1": "P01 P06 P11 P16", "T2": "P02 P05 P12 P15", "T3": "P03 P08 P09 P14", "T4": "P04 P07 P10 P13"},
    4: {"T1": "P01 P07 P12 P14", "T2": "P02 P08 P11 P13", "T3": "P03 P05 P10 P16", "T4": "P04 P06 P09 P15"},
}


def _tournament(tmp_path, profile: str) -> Tournament:
    t = Tournament(HallDB(tmp_path / "hall.sqlite"), profile=profile, seed=5, sessions=4)
    for p in P:
        t.register(p)
    return t


def _report(t: Tournament, session: int, table: str, totals: list[int], leftover: int = 0) -> None:
    """A table's session as two hands (ingested as the hall ingests a table's outbox)."""
    players = SEATING[session][table].split()
    first = [d // 2 for d in totals]
    second = [d - f for d, f in zip(totals, first, strict=True)]
    with t.db.tx() as db:
        for i, deltas in enumerate((first, second)):
            opts = {"deposits": leftover} if i == 1 else {}
            body = {"profile": t.profile_name, "session": session, "players": players,
                    "result": {"status": "played", "deltas": deltas, "options_after": opts}}
            assert t.db.ingest(db, table, OutboxMessage(f"{table}-s{session}-h{i}", 1, "result", body, 1.0 + i), 2.0)


def _seat_all(t: Tournament) -> None:
    for s, tables in SEATING.items():
        t.seat(s, {k: v.split() for k, v in tables.items()})


def test_sichuan_16_players_4_sessions_by_hand(tmp_path):
    t = _tournament(tmp_path, "sichuan-mpl2025")
    _seat_all(t)
    gp = {  # session GP of each table, by seat (000 §2.7.5.1)
        1: {"T1": [30, 10, -15, -25], "T2": [20, 0, 0, -20], "T3": [10, 10, 10, -30], "T4": [-5, -5, 5, 5]},
        2: {"T1": [0, 16, -8, -8], "T2": [40, -10, -10, -20], "T3": [12, -4, -4, -4], "T4": [8, 8, -8, -8]},
        3: {"T1": [-20, 20, 10, -10], "T2": [5, 5, 5, -15], "T3": [0, 0, 0, 0], "T4": [-12, 4, 4, 4]},
        4: {"T1": [25, -5, -5, -15], "T2": [-16, 0, 32, -16], "T3": [6, -2, -2, -2], "T4": [1, 2, 3, -6]},
    }
    for s, tables in gp.items():
        for table, totals in tables.items():
            _report(t, s, table, totals)
    t.penalty(2, "P12", 2, "progressive scale, first step (000 §2.8.2)")
    t.late(3, "P02", 5)  # ≤ 10 minutes: −8 GP (000 §2.8.4.5)
    t.late(3, "P15", 12)  # ≤ 15 minutes: −16 GP
    t.late(4, "P09", 20)  # over 15 minutes: a fixed 0 TP / 0 GP, left out of the others' ranking
    st = t.standings()
    # by hand: TP 4/3/2/1 by session GP, tied places share their TP ((3+2)/2 = 2.5, (4+3+2)/3 = 3, ...)
    assert {x.player: x.table_points for x in st.tables[(2, "T4")].standings} == {
        "P04": 3.5, "P08": 3.5, "P16": 2.0, "P12": 1.0}  # P12: 8 − 8 − 2 = −10 GP after the penalty
    assert {x.player: x.table_points for x in st.tables[(3, "T2")].standings} == {
        "P05": 3.5, "P12": 3.5, "P02": 2.0, "P15": 1.0}  # P02 5 − 8 = −3, P15 −15 − 16 = −31
    assert {x.player: x.table_points for x in st.tables[(4, "T4")].standings} == {
        "P06": 4.0, "P04": 3.0, "P15": 2.0, "P09": 0.0}
    expected = [  # rank, player, TP over 4 sessions, GP over 4 sessions (TP first, then GP)
        (1, "P05", 13.5, 39), (2, "P06", 13.0, 12), (3, "P03", 12.5, 3), (4, "P11", 12.0, 48),
        (5, "P01", 12.0, 35), (6, "P02", 10.5, 31), (7, "P10", 10.5, 2), (8, "P07", 10.0, -5),
        (9, "P08", 10.0, -12), (10, "P16", 9.5, -15), (11, "P04", 8.5, -28), (12, "P15", 8.5, -36),
        (13, "P12", 8.0, -40), (14, "P13", 7.5, -25), (15, "P09", 7.0, 2), (16, "P14", 6.0, -40),
    ]
    assert [(x.rank, x.player, x.table_points, x.total) for x in st.ranking] == expected
    assert sum(x.table_points for x in st.ranking) == 15 * 10 + 9  # one table's TP was 4 + 3 + 2 + 0


def test_riichi_16_players_4_sessions_by_hand(tmp_path):
    t = _tournament(tmp_path, "riichi-ema2016")
    _seat_all(t)
    finals = {  # final scores (004 Reg 6.2.3: 30 000 at the start); sums 120 000 unless sticks are left
        1: {"T1": [50100, 35000, 25000, 9900], "T2": [22500, 40000, 30000, 27500],
            "T3": [35000, 35000, 25000, 25000], "T4": [40000, 30000, 28000, 20000]},
        2: {"T1": [100, 42500, 40000, 37400], "T2": [30000, 30000, 30000, 30000],
            "T3": [35000, 45000, 25000, 15000], "T4": [50100, 30000, 20000, 19900]},
        3: {"T1": [32400, 45000, 22600, 20000], "T2": [50000, 25000, 24000, 21000],
            "T3": [25000, 40000, 35000, 20000], "T4": [9900, 40000, 37100, 33000]},
        4: {"T1": [32400, 45000, 35000, 7600], "T2": [35000, 35000, 25000, 24000],
            "T3": [35000, 25000, 40000, 20000], "T4": [50100, 30000, 25000, 14900]},
    }
    leftover = {(1, "T4"): 2000, (4, "T2"): 1000}  # riichi sticks left at the end: to the first place (Rules 3.6)
    for s, tables in finals.items():
        for table, scores in tables.items():
            _report(t, s, table, [x - 30000 for x in scores], leftover.get((s, table), 0))
    t.late(2, "P14", 2.5)  # 1000 per started minute: 3000 (Rules 5.7), places unchanged
    t.penalty(3, "P12", 1000, "obstruction")
    st = t.standings()
    s1t4 = {x.player: (x.total, x.place) for x in st.tables[(1, "T4")].standings}
    assert s1t4 == {"P13": (42000, 1.0), "P14": (30000, 2.0), "P15": (28000, 3.0), "P16": (20000, 4.0)}
    s4t2 = {x.player: (x.total, x.place) for x in st.tables[(4, "T2")].standings}  # tied leaders split the sticks
    assert s4t2 == {"P02": (35500, 1.5), "P08": (35500, 1.5), "P11": (25000, 3.0), "P13": (24000, 4.0)}
    s2t2 = {x.player: (x.place, x.penalty) for x in st.tables[(2, "T2")].standings}
    assert s2t2["P14"] == (2.5, 3000) and s2t2["P02"] == (2.5, 0)
    expected = [  # rank, player, average place, points (final − 30 000 − deductions), variance, spread
        (1, "P07", 1.25, 40000, 0.1875, 15000), (2, "P06", 1.625, 25000, 0.421875, 15000),
        (3, "P02", 1.75, 30500, 0.3125, 20000), (4, "P10", 1.75, 22100, 0.3125, 10000),
        (5, "P08", 1.875, 13000, 0.546875, 12500), (6, "P09", 2.125, 15000, 0.296875, 15000),
        # Reg 6.3.3's example: places 3,2,3,2 before 4,1,4,1 with the same average and points
        (7, "P03", 2.5, 0, 0.25, 10000), (8, "P04", 2.5, 0, 2.25, 40200),
        # Reg 6.3.4's example: 42 500 / 22 500 before 50 100 / 100 (equal on the first three criteria)
        (9, "P05", 2.5, -5000, 1.25, 20000), (10, "P01", 2.5, -5000, 1.25, 50000),
        (11, "P13", 2.75, 16400, 1.1875, 18000), (12, "P12", 2.875, -17000, 0.296875, 15000),
        (13, "P11", 3.125, -22400, 0.046875, 2400), (14, "P14", 3.125, -35400, 0.796875, 22400),
        (15, "P15", 3.75, -41100, 0.1875, 13100), (16, "P16", 4.0, -40100, 0.0, 100),
    ]
    got = [(x.rank, x.player, x.detail["average_place"], x.total, x.detail["place_variance"], x.detail["spread"])
           for x in st.ranking]
    assert got == expected
    assert sum(x.total for x in st.ranking) == -4000  # the finals sum to the start scores; deductions go to nobody


def test_substitute_plays_and_is_not_ranked(tmp_path):
    t = _tournament(tmp_path, "sichuan-mpl2025")
    t.register("S01", "Substitute", substitute=True)
    t.seat(1, {k: v.split() for k, v in SEATING[1].items()})
    t.substitute(1, "T1", 2, "S01")  # P03 leaves; the substitute plays his seat
    _report(t, 1, "T1", [30, 10, -15, -25])
    for table in ("T2", "T3", "T4"):
        _report(t, 1, table, [1, 0, 0, -1])
    st = t.standings()
    assert {x.player for x in st.tables[(1, "T1")].standings} == {"P01", "P02", "S01", "P04"}
    ranked = {x.player for x in st.ranking}
    assert "S01" not in ranked and "P03" not in ranked and len(ranked) == 15
    assert t.db.q("SELECT action FROM audit") == [("substitute",)]


def test_director_correction_replaces_a_hand(tmp_path):
    t = _tournament(tmp_path, "sichuan-mpl2025")
    _seat_all(t)
    _report(t, 1, "T1", [30, 10, -15, -25])
    before = {x.player: x.total for x in t.standings().tables[(1, "T1")].standings}
    t.correct("T1", "T1-s1-h0", [0, 0, 0, 0], "misread win")  # the first hand is annulled
    after = {x.player: x.total for x in t.standings().tables[(1, "T1")].standings}
    assert before == {"P01": 30, "P02": 10, "P03": -15, "P04": -25}
    assert after == {"P01": 15, "P02": 5, "P03": -7, "P04": -12}  # only the second hand remains
    with pytest.raises(TournamentError):
        t.correct("T1", "T1-s1-h0", [1, 2], "wrong length")
    with pytest.raises(TournamentError):
        t.correct("T9", "nope", [0, 0, 0, 0], "no such hand")


def test_seating_draw_avoids_repeated_opponents_and_three_player_tables(tmp_path):
    t = _tournament(tmp_path, "sichuan-mpl2025")
    for s in range(1, 5):
        t.seat(s)
    from hall.seating import met

    history = [list(tables.values()) for tables in t.seating().values()]
    assert all(len(tb) == 4 for s in history for tb in s)
    assert max(met(history).values()) == 1  # 16 players, 4 sessions: nobody meets anybody twice
    for p in ("P15", "P16"):
        t.withdraw(p)  # 14 players: Sichuan plays two tables of three (000 §3.1)
    tables = t.seat(5)
    assert sorted(len(v) for v in tables.values()) == [3, 3, 4, 4]
    r = _tournament(tmp_path / "r", "riichi-ema2016")
    r.withdraw("P16")
    with pytest.raises(TournamentError, match="only four at a table"):
        r.seat(1)
