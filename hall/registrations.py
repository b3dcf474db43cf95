"""Registrations from the lists organisers already keep (``mahjong-table hall players import FILE``).

Two formats, told apart by their header row (names compared without case, spaces or ``_``):

- the **EMA player list**: ``EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY`` (every column required but the
  EMA number, which a player new to the EMA does not have yet);
- **mahjong-portal's CSV**: a ``name`` column (or ``first_name`` and ``last_name``), and where known
  ``ema`` (or ``ema_id`` / ``ema_number``), ``pantheon_id``, ``country``, ``id`` (our player id).

A player already registered is recognised by its EMA number, then its Pantheon id, then its name, and
updated (an import run twice registers nobody twice). A new player gets the id of the ``id`` column or the
next free ``P###``. Every row is checked before anything is written; a file with a malformed row imports
nothing (one transaction), and each malformed row is reported on one line with its row number.
"""
from __future__ import annotations

import csv
import io
import re
import time
from dataclasses import dataclass
from pathlib import Path

from hall.db import HallDB
from hall.topics import ID_RE

EMA_HEADER = ("ema_number", "last_name", "first_name", "country")
EMA_RE = re.compile(r"\d{4,10}")  # EMA numbers are 8 digits (country code + number); older lists drop zeros
_ALIASES = {"ema": "ema", "ema_id": "ema", "ema_number": "ema", "emanumber": "ema", "pantheon_id": "pantheon_id",
            "pantheon": "pantheon_id", "name": "name", "full_name": "name", "first_name": "first_name",
            "last_name": "last_name", "country": "country", "nationality": "country", "id": "id", "city": "city"}


@dataclass(frozen=True)
class Registration:
    row: int  # 1-based line number in the file (the header is row 1)
    name: str
    first_name: str | None = None
    last_name: str | None = None
    country: str | None = None
    ema: str | None = None
    pantheon_id: int | None = None
    id: str | None = None


class ImportError_(ValueError):  # noqa: N801 - not the builtin ImportError
    """The file cannot be imported: ``problems`` holds one line per malformed row (row number first)."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def _key(h: str) -> str:
    return re.sub(r"[\s_\-]+", "_", h.strip().lower()).strip("_")


def parse(text: str, source: str = "FILE") -> tuple[str, list[Registration]]:
    """``(format, registrations)`` of a players file; :class:`ImportError_` listing every malformed row."""
    if text.startswith("\ufeff"):
        text = text[1:]  # a spreadsheet's byte-order mark
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO(text), dialect))
    while rows and not any(c.strip() for c in rows[-1]):
        rows.pop()
    if not rows:
        raise ImportError_([f"{source}: empty: expected a header row (EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY "
                            "or mahjong-portal's name,ema,pantheon_id,...)"])
    header = [_key(h) for h in rows[0]]
    if tuple(header) == EMA_HEADER:
        fmt = "ema"
    elif "name" in header or {"first_name", "last_name"} <= set(header):
        fmt = "portal"
    else:
        raise ImportError_([f"{source}:1: unknown header {','.join(rows[0])!r}: expected "
                            "EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY or mahjong-portal's columns (name or "
                            "first_name,last_name; ema, pantheon_id, country, id where known)"])
    cols = {_ALIASES[h]: i for i, h in enumerate(header) if h in _ALIASES}
    problems: list[str] = []
    out: list[Registration] = []
    seen_ema: dict[str, int] = {}
    seen_pid: dict[int, int] = {}
    seen_id: dict[str, int] = {}
    for n, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue  # a blank line
        where = f"{source}:{n}"
        if len(row) != len(header):
            problems.append(f"{where}: {len(row)} columns, the header has {len(header)}")
            continue

        def get(name: str, row: list[str] = row) -> str:
            return row[cols[name]].strip() if name in cols else ""

        why = []
        first, last = get("first_name"), get("last_name")
        name = get("name") or " ".join(x for x in (first, last) if x)
        if fmt == "ema" and (not first or not last):
            why.append("LAST_NAME and FIRST_NAME are required")
        if not name:
            why.append("no name")
        country = get("country")
        if fmt == "ema" and not country:
            why.append("COUNTRY is required")
        ema = get("ema") or None
        if ema is not None and not EMA_RE.fullmatch(ema):
            why.append(f"EMA number {ema!r} is not 4-10 digits")
        elif ema is not None and ema in seen_ema:
            why.append(f"EMA number {ema} is also on row {seen_ema[ema]}")
        pid_text = get("pantheon_id")
        pid = None
        if pid_text:
            if not pid_text.isdigit() or int(pid_text) < 1:
                why.append(f"Pantheon id {pid_text!r} is not a positive whole number")
            else:
                pid = int(pid_text)
                if pid in seen_pid:
                    why.append(f"Pantheon id {pid} is also on row {seen_pid[pid]}")
        pl_id = get("id") or None
        if pl_id is not None and not ID_RE.match(pl_id):
            why.append(f"id {pl_id!r}: use 1-63 letters, digits, '.', '_' or '-'")
        elif pl_id is not None and pl_id in seen_id:
            why.append(f"id {pl_id} is also on row {seen_id[pl_id]}")
        if why:
            problems.append(f"{where}: " + "; ".join(why))
            continue
        if ema is not None:
            seen_ema[ema] = n
        if pid is not None:
            seen_pid[pid] = n
        if pl_id is not None:
            seen_id[pl_id] = n
        out.append(Registration(n, name, first or None, last or None, country or None, ema, pid, pl_id))
    if problems:
        raise ImportError_(problems)
    return fmt, out


@dataclass
class ImportReport:
    format: str
    added: int = 0
    updated: int = 0

    def line(self, source: str) -> str:
        return f"players: {self.added} added, {self.updated} updated from {source} ({self.format} list)"


def _existing(db: HallDB, r: Registration) -> str | None:
    if r.id is not None:  # the file names our id: that player or a new one (a clash is reported)
        return r.id if db.db.execute("SELECT 1 FROM players WHERE id=?", (r.id,)).fetchall() else None
    for sql, arg in (("SELECT id FROM players WHERE ema=?", r.ema),
                     ("SELECT id FROM players WHERE pantheon_id=?", r.pantheon_id),
                     ("SELECT id FROM players WHERE lower(name)=lower(?)", r.name)):
        if arg is not None:
            rows = db.db.execute(sql, (arg,)).fetchall()
            if rows:
                return str(rows[0][0])
    return None


def _next_id(db: HallDB) -> str:
    used = {r[0] for r in db.db.execute("SELECT id FROM players").fetchall()}
    n = 1
    while f"P{n:03d}" in used:
        n += 1
    return f"P{n:03d}"


def import_players(db: HallDB, path: str | Path, now: float | None = None) -> ImportReport:
    """Register (or update) every player of the file in one transaction; :class:`ImportError_` if any row is
    malformed or clashes with another registered player (nothing is written then)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ImportError_([f"{p}: no such file"]) from None
    except UnicodeDecodeError:
        raise ImportError_([f"{p}: not UTF-8 text (save the list as CSV, UTF-8)"]) from None
    except OSError as exc:
        raise ImportError_([f"{p}: {exc.strerror or exc}"]) from None
    fmt, regs = parse(text, str(p))
    rep = ImportReport(fmt)
    now = time.time() if now is None else now
    problems: list[str] = []
    with db.tx() as c:
        for r in regs:
            pid = _existing(db, r)
            new = pid is None
            pid = pid or r.id or _next_id(db)
            for col, val in (("ema", r.ema), ("pantheon_id", r.pantheon_id)):
                if val is not None:
                    other = c.execute(f"SELECT id FROM players WHERE {col}=? AND id<>?", (val, pid)).fetchall()  # noqa: S608
                    if other:
                        problems.append(f"{p}:{r.row}: {col.replace('_', ' ')} {val} is registered to {other[0][0]}")
            if problems:
                continue
            if new:
                c.execute("INSERT INTO players (id, name, substitute, registered, ema, pantheon_id, first_name, "
                          "last_name, country) VALUES (?,?,0,?,?,?,?,?,?)",
                          (pid, r.name, now, r.ema, r.pantheon_id, r.first_name, r.last_name, r.country))
                rep.added += 1
            else:
                c.execute("UPDATE players SET name=?, active=1, ema=COALESCE(?, ema), "
                          "pantheon_id=COALESCE(?, pantheon_id), first_name=COALESCE(?, first_name), "
                          "last_name=COALESCE(?, last_name), country=COALESCE(?, country) WHERE id=?",
                          (r.name, r.ema, r.pantheon_id, r.first_name, r.last_name, r.country, pid))
                rep.updated += 1
        if problems:
            raise ImportError_(problems)  # rolls the transaction back: nothing half-imported
    return rep


@dataclass(frozen=True)
class PlayerInfo:
    id: str
    name: str
    first_name: str | None
    last_name: str | None
    country: str | None
    ema: str | None
    pantheon_id: int | None


def player_info(db: HallDB) -> dict[str, PlayerInfo]:
    """Every registered player's registration details, by id."""
    rows = db.q("SELECT id, name, first_name, last_name, country, ema, pantheon_id FROM players")
    return {r[0]: PlayerInfo(*r) for r in rows}
