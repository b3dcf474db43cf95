"""``mahjong-table serve``: run the table service (what systemd starts, and ``make run`` in demo mode).

On its embedded defaults it needs no hardware: the MCU emulator on a pty, gpiozero mock pins, an event
store under ./var, and a simulated overhead camera that renders the emulated table (physical dice, the
re-read after a restart). ``--demo`` presses the buttons by itself so the table cycles on its own.
"""
from __future__ import annotations

import argparse

from controller.cli import CliError
from controller.config import PROFILES


def register(sub: argparse._SubParsersAction) -> None:
    ap = sub.add_parser("serve", help="run the table service with its web page", description=__doc__,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", "-c", default=None, help="config file (default /etc/mahjong-table/config.toml "
                    "if present, else the built-in development defaults)")
    ap.add_argument("--demo", action="store_true", help="cycle by itself: press START/confirm automatically")
    ap.add_argument("--hands", type=int, default=None, help="stop after this many hands (default: run until stopped)")
    ap.add_argument("--port", type=int, default=None, help="web page port (overrides web.port)")
    ap.add_argument("--store", default=None, help="event store path (overrides store.path)")
    ap.add_argument("--profile", default=None, choices=PROFILES, help="the rule set played (overrides table.profile)")
    ap.set_defaults(func=run)


def build(cfg, *, demo: bool):
    """The service's parts from a configuration (also used by hw_tests)."""
    from controller.backends.gpio_direct import GpioBackend, GpioTableSim
    from controller.backends.mcu import McuBackend
    from controller.devices import Panel, make_pin_factory
    from controller.event_store import EventStore

    gpio = {k.split(".", 1)[1]: v for k, v in cfg.values.items() if k.startswith("gpio.")}
    panel = Panel(gpio)
    sim = None
    if cfg["table.backend"] == "mcu":
        backend = McuBackend(cfg["serial.port"], time_scale=cfg["serial.time_scale"])
    else:
        factory = make_pin_factory(cfg["gpio.pin_factory"]) if cfg["gpio.pin_factory"] != "mock" else None
        if factory is None:  # mock pins: the table's mechanics come from the emulator twin
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
            sim = GpioTableSim(factory, time_scale=cfg["serial.time_scale"]).start()
        backend = GpioBackend(factory, time_scale=cfg["serial.time_scale"] if sim else 1.0)
        backend.twin = sim  # the twin's dice are what the simulated camera sees
    store = EventStore(cfg["store.path"])
    return panel, backend, store, sim


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    from controller import config as config_mod
    from controller.event_store import StoreError
    from controller.service import TableService
    from controller.web import WebServer

    try:
        cfg = config_mod.load(args.config)
        over = {}
        if args.port is not None:
            over["web__port"] = args.port
        if args.store is not None:
            over["store__path"] = args.store
        if args.profile is not None:
            over["table__profile"] = args.profile
        if over:
            cfg = cfg.with_overrides(**over)
    except config_mod.ConfigError as exc:
        raise CliError("configuration: " + "; ".join(exc.problems)) from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    try:
        panel, backend, store, sim = build(cfg, demo=args.demo)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    play = None
    if args.demo:  # bots play at the emulated table; the referee follows them like any hand
        from controller.play_sources import BotPlay

        play = BotPlay(camera=cfg["referee.demo_camera"])
    elif cfg["referee.enabled"]:
        from controller.referee.session import RefereePlay

        play = RefereePlay()
    svc = TableService(cfg, backend, store, panel=panel, auto=args.demo, play=play)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        web = WebServer(svc, cfg["web.host"], cfg["web.port"])
        try:
            port = await web.start()
        except OSError as exc:
            raise CliError(f"cannot listen on {cfg['web.host']}:{cfg['web.port']}: {exc.strerror}") from None
        print(f"table {cfg['table.id']} ({cfg['table.profile']}): web page on http://{cfg['web.host']}:{port}/ "
              f"— event store {cfg['store.path']} — Ctrl-C to stop", flush=True)
        try:
            await svc.run(stop, hands=args.hands)
        finally:
            await web.close()

    try:
        asyncio.run(main())
        print(f"stopped: {svc.hands_played()} hand(s) recorded in {cfg['store.path']}")
    finally:
        if sim is not None:
            sim.stop()
        panel.close()
        store.close()
    return 0
