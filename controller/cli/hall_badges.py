"""``mahjong-table hall badges --out badges.pdf``: a badge per registered player — the name and a QR code
with the player's id — for the seat check (hall/badges.py).

  hall badges --out FILE [--session N] [--config F] [--db DB]
      FILE ending in .pdf: one PDF, an A4 page per 8 badges; .png: one PNG per sheet (FILE, FILE-2, ...)
      --session N: only the players seated in session N, table by table and seat by seat
"""
from __future__ import annotations

import argparse

from controller.cli import CliError


def register(hs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = hs.add_parser("badges", help="print a badge per player (name and a QR code of the id) for the seat check",
                      description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="badges.pdf (one PDF) or badges.png (a PNG per A4 sheet)")
    p.add_argument("--session", type=int, default=None, help="only the players seated in this session")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML) naming the database")
    p.add_argument("--db", default=None, help="the hall database (overrides hall.db)")
    p.set_defaults(func=badges)


def badges(args: argparse.Namespace) -> int:
    from controller.cli.common import hall_config
    from hall import badges as b
    from hall.db import HallDB, HallDBError

    cfg = hall_config(args.config, hall__db=args.db)
    try:
        db = HallDB(cfg.hall.db)
    except (HallDBError, OSError) as exc:
        raise CliError(str(exc)) from None
    try:
        names = {pid: name for pid, name in db.q("SELECT id, name FROM players")}
        if args.session is not None:
            ids = [p for (p,) in db.q("SELECT player FROM seating WHERE session=? ORDER BY table_id, seat",
                                      (args.session,))]
            if not ids:
                raise CliError(f"session {args.session} has not been seated")
        else:
            ids = [p for (p,) in db.q("SELECT id FROM players WHERE active=1 ORDER BY id")]
    finally:
        db.close()
    try:
        files = b.write(args.out, [(p, names.get(p, p)) for p in ids])
    except b.BadgeError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{args.out}: {exc.strerror or exc}") from None
    sheets = -(-len(ids) // (b.COLS * b.ROWS))
    print(f"badges: {len(ids)} players on {sheets} sheet(s) -> {', '.join(str(f) for f in files)}")
    return 0
