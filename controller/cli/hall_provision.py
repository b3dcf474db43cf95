"""``mahjong-table hall provision``: identities, broker credentials and ACL, certificates and config files."""
from __future__ import annotations

import argparse

from controller.cli import CliError
from controller.cli.common import add_profile, positive_int


def register(hs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = hs.add_parser("provision", help="write the hall's and every table's identity, credentials and configs",
                      description="Writes DIR/broker (mosquitto.conf, hashed password file, ACL), DIR/hall/hall.toml "
                      "and DIR/tables/<id>/config.toml; with --tls a hall CA, the broker's certificate, one "
                      "client certificate per table, and the HTTPS certificates of every table's page (its id, "
                      "<id>.local, localhost, 127.0.0.1 and its --table-host names) and of the dashboard "
                      "(--hall-host and --dashboard-name), named in the configs.")
    p.add_argument("--tables", type=positive_int, required=True, help="number of tables (table-01 ... table-NN)")
    p.add_argument("--out", required=True, help="the folder to write (created; must be empty or absent)")
    p.add_argument("--hall-id", default="hall", help="the hall's id (topic root hall/<id>/)")
    p.add_argument("--hall-host", default="localhost", help="the broker's host name as the tables reach it")
    p.add_argument("--port", type=int, default=None, help="the broker's port (1883, or 8883 with --tls)")
    p.add_argument("--tls", action="store_true", help="TLS with a hall CA and client certificates")
    p.add_argument("--table-host", action="append", default=[], metavar="TABLE=NAME[,NAME]",
                   help="--tls: another host name or address the judges' phones reach a table's page by (repeatable)")
    p.add_argument("--dashboard-name", action="append", default=[], metavar="NAME",
                   help="--tls: another host name or address of the dashboard (repeatable)")
    add_profile(p, default="sichuan-mpl2025", help="the rule set of the tournament")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hall.provision import provision

    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CliError(f"{out} exists and is not an empty folder: choose a new one (credentials are never overwritten)")
    if args.port is not None and not 1 <= args.port <= 65535:
        raise CliError(f"--port {args.port}: use 1..65535")
    hosts: dict[str, list[str]] = {}
    for item in args.table_host:
        table, eq, names = item.partition("=")
        if not eq or not table or not names.strip(","):
            raise CliError(f"--table-host {item!r}: use TABLE=NAME[,NAME] (e.g. table-01=192.168.1.21)")
        hosts.setdefault(table, []).extend(n.strip() for n in names.split(",") if n.strip())
    if (hosts or args.dashboard_name) and not args.tls:
        raise CliError("--table-host and --dashboard-name name HTTPS certificates: add --tls")
    try:
        p = provision(out, args.tables, hall_id=args.hall_id, hall_host=args.hall_host, port=args.port, tls=args.tls,
                      profile=args.profile, table_hosts=hosts, dashboard_names=args.dashboard_name)
    except (ValueError, OSError) as exc:
        raise CliError(str(exc)) from None
    print(f"provisioned hall {p.hall_id}: {len(p.tables)} tables{' with TLS' if p.tls else ''} in {out}/ "
          f"(broker/, hall/hall.toml, tables/<id>/config.toml; see {out}/README.txt)")
    if p.tls:
        print(f"HTTPS certificates of the pages: {out}/hall/web.crt (the dashboard), "
              f"{out}/tables/<id>/web.crt (each table's page); the hall CA for the judges' phones: {out}/ca/ca.crt")
    return 0
