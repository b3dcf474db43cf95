"""The hall database: idempotent ingest, migrations, backup and restore (also through the CLI)."""
from __future__ import annotations

import sqlite3

import pytest

from controller.cli import main
from hall.db import MIGRATIONS, SCHEMA_VERSION, HallDB, HallDBError, check_backup, migrate, restore
from hall.messages import OutboxMessage


def _msg(hand="h1", seq=1, deltas=(1, -1, 0, 0)):
    return OutboxMessage(hand, seq, "result", {"profile": "basic", "session": 1, "players": ["a", "b", "c", "d"],
                                               "result": {"status": "played", "deltas": list(deltas)}}, 10.0)


def test_ingest_is_idempotent_by_table_hand_seq(tmp_path):
    db = HallDB(tmp_path / "h.sqlite")
    with db.tx() as c:
        assert db.ingest(c, "t1", _msg(), 11.0)
        assert not db.ingest(c, "t1", _msg(), 12.0)  # the same identity again: kept once
        assert not db.ingest(c, "t1", _msg(deltas=(9, 9, 9, 9)), 12.0)  # even with another body
        assert db.ingest(c, "t2", _msg(), 12.0)  # another table's hand of the same name is another result
    assert db.count("results") == 2 and db.count("messages") == 2
    assert [r["deltas"] for r in db.results()] == [[1, -1, 0, 0], [1, -1, 0, 0]]


def test_migrations_from_the_first_schema(tmp_path):
    old = HallDB(tmp_path / "h.sqlite", upto=1)
    assert old.version == 1
    with old.tx() as c:
        old.ingest(c, "t1", _msg(), 11.0)
    old.close()
    db = HallDB(tmp_path / "h.sqlite")
    assert db.version == SCHEMA_VERSION == len(MIGRATIONS)
    assert db.count("results") == 1  # data kept through the migration
    db.audit("director", "test", {"x": 1})
    assert db.count("audit") == 1


def test_a_newer_database_is_refused(tmp_path):
    c = sqlite3.connect(tmp_path / "h.sqlite")
    c.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    c.close()
    with pytest.raises(HallDBError, match="this build reads up to"):
        HallDB(tmp_path / "h.sqlite")


def test_backup_and_restore(tmp_path):
    db = HallDB(tmp_path / "h.sqlite")
    with db.tx() as c:
        db.ingest(c, "t1", _msg("h1"), 11.0)
    db.backup(tmp_path / "b.sqlite")
    with db.tx() as c:
        db.ingest(c, "t1", _msg("h2"), 11.0)  # after the backup
    db.close()
    assert check_backup(tmp_path / "b.sqlite") == SCHEMA_VERSION
    assert restore(tmp_path / "b.sqlite", tmp_path / "h.sqlite") == SCHEMA_VERSION
    db = HallDB(tmp_path / "h.sqlite")
    assert [r["hand"] for r in db.results()] == ["h1"]


def test_backup_restore_cli_and_bad_input(tmp_path, capsys):
    db = HallDB(tmp_path / "h.sqlite")
    with db.tx() as c:
        db.ingest(c, "t1", _msg("h1"), 11.0)
    db.close()
    assert main(["hall", "backup", "--db", str(tmp_path / "h.sqlite"), "--out", str(tmp_path / "b.sqlite")]) == 0
    assert main(["hall", "restore", "--db", str(tmp_path / "n.sqlite"), "--from", str(tmp_path / "b.sqlite")]) == 0
    assert [r["hand"] for r in HallDB(tmp_path / "n.sqlite").results()] == ["h1"]
    capsys.readouterr()
    (tmp_path / "junk").write_bytes(b"this is not a database" * 100)
    assert main(["hall", "restore", "--db", str(tmp_path / "n.sqlite"), "--from", str(tmp_path / "junk")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a hall database backup" in err[0]
    assert main(["hall", "restore", "--db", str(tmp_path / "n.sqlite"), "--from", str(tmp_path / "missing")]) == 2
    empty = sqlite3.connect(tmp_path / "empty.sqlite")
    empty.execute("CREATE TABLE x (y)")
    empty.close()
    assert main(["hall", "restore", "--db", str(tmp_path / "n.sqlite"), "--from", str(tmp_path / "empty.sqlite")]) == 2
    assert [r["hand"] for r in HallDB(tmp_path / "n.sqlite").results()] == ["h1"]  # untouched by the refusals


def test_migrate_is_transactional(tmp_path):
    c = sqlite3.connect(tmp_path / "h.sqlite", isolation_level=None)
    assert migrate(c) == SCHEMA_VERSION
    assert migrate(c) == SCHEMA_VERSION  # nothing to do the second time
