"""``mahjong-table serve``: run the table service (what systemd starts, and ``make run`` in demo mode).

On its embedded defaults it needs no hardware: the MCU emulator on a pty, gpiozero mock pins, an event
store under ./var, and a simulated overhead camera that renders the emulated table (physical dice, the
re-read after a restart). ``--demo`` presses the buttons by itself so the table cycles on its own.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from controller.cli import CliError
from controller.cli.common import add_profile, serve_web, stop_on_signals
from controller.cli.inputs import int_in

if TYPE_CHECKING:
    from controller.backends import TableBackend
    from controller.backends.gpio_direct import GpioTableSim
    from controller.config import Config
    from controller.devices import Panel
    from controller.event_store import EventStore
    from controller.locks import ExclusiveLock
    from controller.play_sources import BotPlay
    from controller.referee.session import RefereePlay


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser("serve", help="run the table service with its web page", description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", "-c", default=None, help="config file (default /etc/mahjong-table/config.toml "
                    "if present, else the built-in development defaults)")
    ap.add_argument("--demo", action="store_true", help="cycle by itself: press START/confirm automatically")
    ap.add_argument("--hands", type=int_in(1, 1_000_000), default=None,
                    help="stop after this many hands (default: run until stopped)")
    ap.add_argument("--host", default=None, help="web page address (overrides web.host; 127.0.0.1 by default). "
                    "Beyond loopback without HTTPS (web.tls_certfile) the judge's login is offered only on this "
                    "machine's own screen, unless web.insecure_login = true")
    ap.add_argument("--port", type=int_in(0, 65535), default=None, help="web page port (overrides web.port)")
    ap.add_argument("--store", default=None, help="event store path (overrides store.path)")
    add_profile(ap, help="the rule set played (overrides table.profile)")
    ap.add_argument("--pace", type=float, default=0.01, metavar="SECONDS",
                    help="--demo: seconds between the bots' moves (make run: 0.6, to watch the hand on the page)")
    ap.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"),
                    help="how much to log (default info: sessions, resets, faults, slow commits); under systemd "
                    "the lines carry journald priorities")
    ap.set_defaults(func=run)


def build(cfg: Config, *, demo: bool) -> tuple[Panel, TableBackend, EventStore, GpioTableSim | None]:
    """The service's parts from a configuration (also used by hw_tests)."""
    from controller.backends.gpio_direct import GpioBackend, GpioTableSim
    from controller.backends.mcu import McuBackend
    from controller.devices import Panel, make_pin_factory
    from controller.event_store import EventStore

    panel = Panel(cfg.section("gpio"))
    sim = None
    backend: TableBackend
    if cfg.table.backend == "mcu":
        backend = McuBackend(cfg.serial.port, time_scale=cfg.serial.time_scale, baud=cfg.serial.baud)
    else:
        factory = make_pin_factory(cfg.gpio.pin_factory) if cfg.gpio.pin_factory != "mock" else None
        if factory is None:  # mock pins: the table's mechanics come from the emulator twin
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
            sim = GpioTableSim(factory, time_scale=cfg.serial.time_scale).start()
        gpio = GpioBackend(factory, time_scale=cfg.serial.time_scale if sim else 1.0)
        gpio.twin = sim  # the twin's dice are what the simulated camera sees
        backend = gpio
    store = EventStore(cfg.store.path)
    return panel, backend, store, sim


def take_locks(cfg: Config) -> list[ExclusiveLock]:
    """One service per store and per serial port (controller.locks); raises CliError naming the holder."""
    from pathlib import Path

    from controller.locks import LockHeld, port_lock, store_lock

    held: list[ExclusiveLock] = []
    locks: list[ExclusiveLock | None] = [store_lock(cfg.store.path)]
    if cfg.table.backend == "mcu":
        locks.append(port_lock(cfg.serial.port))
    try:
        Path(cfg.store.path).parent.mkdir(parents=True, exist_ok=True)
        for lk in locks:
            if lk is not None:
                held.append(lk.acquire("mahjong-table serve"))
    except (LockHeld, OSError) as exc:
        for lk in held:
            lk.release()
        raise CliError(str(exc) if isinstance(exc, LockHeld) else f"cannot lock {cfg.store.path}: "
                       f"{exc.strerror or exc}") from None
    return held


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from gpiozero.exc import GPIOZeroError

    from controller import config as config_mod
    from controller import logs
    from controller.backends import BackendFault
    from controller.event_store import StoreError
    from controller.service import TableService
    from controller.web.server import WebServer

    try:
        cfg = config_mod.load(args.config)
        over = {}
        if args.port is not None:
            over["web__port"] = args.port
        if args.host is not None:
            over["web__host"] = args.host
        if args.store is not None:
            over["store__path"] = args.store
        if args.profile is not None:
            over["table__profile"] = args.profile
        if over:
            cfg = cfg.with_overrides(**over)
    except config_mod.ConfigError as exc:
        raise CliError("configuration: " + "; ".join(exc.problems)) from None
    locks = take_locks(cfg)  # (before any log line: a second service says one line and exits)
    logs.setup(args.log_level)
    logging.getLogger("mahjong_table.config").info("configuration: %s", cfg.source)
    try:
        panel, backend, store, sim = build(cfg, demo=args.demo)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    except (GPIOZeroError, ImportError, OSError) as exc:  # a pin factory this machine lacks, a busy pin
        raise CliError(f"GPIO ({cfg.gpio.pin_factory}): {exc}") from None
    play: BotPlay | RefereePlay | None = None
    if args.demo:  # bots play at the emulated table; the referee follows them like any hand
        from controller.play_sources import BotPlay

        if not 0 <= args.pace <= 10:
            raise CliError(f"--pace {args.pace}: seconds between moves, 0..10")
        play = BotPlay(event_delay=args.pace, camera=cfg.referee.demo_camera)
    elif cfg.referee.enabled:
        from controller.referee.session import RefereePlay

        play = RefereePlay()
    svc = TableService(cfg, backend, store, panel=panel, auto=args.demo, play=play)

    async def main() -> None:
        stop = stop_on_signals()
        pin_hash, demo_pin = None, ""
        if args.demo and not cfg.web.judge_pin_hash:  # a PIN for this demo run only: the judge's console
            from controller.web.security import one_time_pin

            demo_pin, pin_hash = one_time_pin()
        web = WebServer(svc, cfg.web.host, cfg.web.port, pin_hash=pin_hash)

        def announce(port: int) -> None:
            scheme = "https" if web.tls else "http"
            plain = f" (public view also on http://{cfg.web.host}:{web.http_port}/)" if web.http_port is not None else ""
            print(f"table {cfg.table.id} ({cfg.table.profile}): web page on {scheme}://{cfg.web.host}:{port}/"
                  f"{plain} — event store {cfg.store.path} — Ctrl-C to stop", flush=True)

        async def play() -> None:
            if demo_pin:
                print(f"judge's PIN for this demo run: {demo_pin}", flush=True)
            try:
                await svc.run(stop, hands=args.hands)
            except BackendFault as exc:
                raise CliError(f"table back-end {cfg.table.backend}: {exc.message}") from None
            except StoreError as exc:
                raise CliError(str(exc)) from None

        await serve_web(web, cfg.web.host, cfg.web.port, announce, play)

    try:
        asyncio.run(main())
        print(f"stopped: {svc.hands_played()} hand(s) recorded in {cfg.store.path}")
    finally:
        if sim is not None:
            sim.stop()
        panel.close()
        store.close()
        for lk in locks:
            lk.release()
    return 0
