"""``mahjong-table hall players import`` and ``hall export``: the hall and the systems organisers already use.

  hall players import FILE [--config F] [--db DB]
      registers the players of the EMA player list (EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY) or of
      mahjong-portal's CSV (name or first_name,last_name; ema, pantheon_id, country, id where known);
      a malformed row: one line each with its row number, exit 2, nothing imported
"""
from __future__ import annotations

import argparse
import sys

from controller.cli import CliError


def register(hs: argparse._SubParsersAction) -> None:
    ap = hs.add_parser("players", help="the hall's players: import the EMA list or mahjong-portal's CSV",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ps = ap.add_subparsers(dest="players_command", metavar="PLAYERS_COMMAND")
    ap.set_defaults(func=lambda a: (ap.print_help(), 0)[1])
    p = ps.add_parser("import", help="register players from the EMA player list or mahjong-portal's CSV",
                      description="Register players from a CSV file: the EMA player list (header "
                      "EMA_NUMBER,LAST_NAME,FIRST_NAME,COUNTRY) or mahjong-portal's CSV (header with name or "
                      "first_name,last_name and, where known, ema, pantheon_id, country, id). A player already "
                      "registered (same EMA number, Pantheon id or name) is updated. A malformed row is reported "
                      "with its row number and nothing is imported (exit 2).")
    p.add_argument("file", help="the CSV file (UTF-8; comma, semicolon or tab separated)")
    p.add_argument("--config", "-c", default=None, help="hall config (TOML) naming the database")
    p.add_argument("--db", default=None, help="the hall database (overrides hall.db)")
    p.set_defaults(func=players_import)


def _open_db(args: argparse.Namespace):
    from controller.cli.hall import _config
    from hall.db import HallDB, HallDBError

    cfg = _config(args.config, hall__db=args.db)
    try:
        return cfg, HallDB(cfg["hall.db"])
    except (HallDBError, OSError) as exc:
        raise CliError(str(exc)) from None


def players_import(args: argparse.Namespace) -> int:
    from hall.registrations import ImportError_, import_players

    _cfg, db = _open_db(args)
    try:
        rep = import_players(db, args.file)
    except ImportError_ as exc:
        for line in exc.problems:
            print(f"mahjong-table: error: {line}", file=sys.stderr)
        return 2
    finally:
        db.close()
    print(rep.line(args.file))
    return 0
