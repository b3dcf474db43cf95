"""``hall players import``: the EMA player list and mahjong-portal's CSV register players with their EMA number
and Pantheon id; a malformed row is reported with its row number and nothing is imported (issue #32 part 3)."""
from __future__ import annotations

import sqlite3

from controller.cli import main
from hall.db import SCHEMA_VERSION, HallDB
from hall.registrations import import_players, player_info

EMA = ("EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY\n"
       "04010001,Ivanov,Ivan,Russia\n"
       "03000002,Dupont,Marie,France\n"
       ",Новикова,Анна,Russia\n")  # new to the EMA: no number yet
PORTAL = ("name,city,ema,pantheon_id\n"
          "Ivan Ivanov,Moscow,04010001,123\n"
          "Пётр Петров,Новосибирск,,456\n")


def _cli(tmp_path, *args: str) -> list[str]:
    return ["hall", "players", "import", *args, "--db", str(tmp_path / "hall.sqlite")]


def test_ema_list_then_portal_csv(tmp_path, capsys):
    (tmp_path / "ema.csv").write_text(EMA, encoding="utf-8")
    (tmp_path / "portal.csv").write_text(PORTAL, encoding="utf-8")
    assert main(_cli(tmp_path, str(tmp_path / "ema.csv"))) == 0
    assert "players: 3 added, 0 updated" in capsys.readouterr().out
    assert main(_cli(tmp_path, str(tmp_path / "portal.csv"))) == 0
    assert "players: 1 added, 1 updated" in capsys.readouterr().out  # Ivanov found by his EMA number
    db = HallDB(tmp_path / "hall.sqlite")
    info = {p.name: p for p in player_info(db).values()}
    assert info["Ivan Ivanov"].ema == "04010001" and info["Ivan Ivanov"].pantheon_id == 123
    assert (info["Ivan Ivanov"].last_name, info["Ivan Ivanov"].first_name, info["Ivan Ivanov"].country) == (
        "Ivanov", "Ivan", "Russia")
    assert info["Анна Новикова"].ema is None and info["Анна Новикова"].country == "Russia"
    assert info["Пётр Петров"].pantheon_id == 456 and info["Пётр Петров"].ema is None
    assert sorted(p.id for p in info.values()) == ["P001", "P002", "P003", "P004"]
    # the same list again registers nobody twice
    assert import_players(db, tmp_path / "ema.csv").updated == 3
    assert db.count("players") == 4


def test_malformed_rows_one_line_each_nothing_imported(tmp_path, capsys):
    bad = ("EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY\n"
           "04010001,Ivanov,Ivan,Russia\n"  # good, but must not be imported alone
           "0401x,Petrov,Petr,Russia\n"
           "03000002,,Marie,France\n"
           "03000003,Smith,John\n"
           "04010001,Twin,Ivan,Russia\n")
    (tmp_path / "bad.csv").write_text(bad, encoding="utf-8")
    assert main(_cli(tmp_path, str(tmp_path / "bad.csv"))) == 2
    err = capsys.readouterr().err.splitlines()
    f = str(tmp_path / "bad.csv")
    assert err == [f"mahjong-table: error: {f}:3: EMA number '0401x' is not 4-10 digits",
                   f"mahjong-table: error: {f}:4: LAST_NAME and FIRST_NAME are required",
                   f"mahjong-table: error: {f}:5: 3 columns, the header has 4",
                   f"mahjong-table: error: {f}:6: EMA number 04010001 is also on row 2"]
    assert HallDB(tmp_path / "hall.sqlite").count("players") == 0


def test_a_clash_with_a_registered_player_rolls_back_the_whole_file(tmp_path, capsys):
    db = HallDB(tmp_path / "hall.sqlite")
    (tmp_path / "a.csv").write_text("id,name,pantheon_id\nA1,Anna,7\n", encoding="utf-8")
    import_players(db, tmp_path / "a.csv")
    db.close()
    (tmp_path / "b.csv").write_text("id,name,pantheon_id\nB1,Boris,8\nB2,Bella,7\n", encoding="utf-8")
    assert main(_cli(tmp_path, str(tmp_path / "b.csv"))) == 2
    assert capsys.readouterr().err.strip().endswith("b.csv:3: pantheon id 7 is registered to A1")
    assert [r[0] for r in HallDB(tmp_path / "hall.sqlite").q("SELECT id FROM players")] == ["A1"]  # no Boris


def test_unknown_header_and_missing_file(tmp_path, capsys):
    (tmp_path / "x.csv").write_text("who,what\na,b\n", encoding="utf-8")
    assert main(_cli(tmp_path, str(tmp_path / "x.csv"))) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and ":1: unknown header" in err[0]
    assert main(_cli(tmp_path, str(tmp_path / "none.csv"))) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_schema_2_database_keeps_its_players(tmp_path):
    old = HallDB(tmp_path / "h.sqlite", upto=2)
    old.db.execute("INSERT INTO players (id, name, registered) VALUES ('P01', 'Old Timer', 1.0)")
    old.close()
    db = HallDB(tmp_path / "h.sqlite")
    assert db.version == SCHEMA_VERSION >= 3
    p = player_info(db)["P01"]
    assert (p.name, p.ema, p.pantheon_id) == ("Old Timer", None, None)
    # two players without an EMA number are allowed; two with the same are not
    db.db.execute("INSERT INTO players (id, name, registered) VALUES ('P02', 'New', 1.0)")
    db.db.execute("UPDATE players SET ema='04010001' WHERE id='P01'")
    try:
        db.db.execute("UPDATE players SET ema='04010001' WHERE id='P02'")
        raise AssertionError("a second player with the same EMA number was accepted")
    except sqlite3.IntegrityError:
        pass
