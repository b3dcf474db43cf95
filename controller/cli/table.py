"""``mahjong-table table``: technician commands against the table's MCU (firmware_bridge).

    mahjong-table table status --port /dev/ttyACM0
    mahjong-table table shuffle --emulator --tiles 136
    mahjong-table table raise|lower|collect|dice|estop|reset --port socket://host:4000
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from controller.cli import CliError

if TYPE_CHECKING:
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.messages import TableStatus
    from rules.events import ShuffleProgress

ACTIONS = ("status", "shuffle", "collect", "raise", "lower", "dice", "estop", "reset")
DEFAULT_STACKS: dict[int, tuple[int, ...]] = {108: (14, 13, 14, 13), 136: (17, 17, 17, 17), 144: (18, 18, 18, 18), 148: (19, 18, 19, 18)}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "table",
        help="technician commands against the table's MCU (status, shuffle, raise, dice, estop)",
        description="Talk to the table's microcontroller over the open protocol (docs/protocol.md). "
                    "Use --port for real hardware or --emulator for the built-in emulated table.",
        epilog="Examples: 'mahjong-table table status --port /dev/ttyACM0', "
               "'mahjong-table table shuffle --emulator --tiles 108'. Exit code 1 = the table reported a fault.",
    )
    p.add_argument("action", choices=ACTIONS, help="what to do: " + ", ".join(ACTIONS))
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="serial device or pyserial URL (/dev/ttyACM0, socket://host:port, a pty)")
    where.add_argument("--emulator", action="store_true", help="run against an in-process emulated table")
    p.add_argument("--baud", type=int, default=115200, help="baud rate of a real port (default 115200)")
    p.add_argument("--time-scale", type=float, default=10.0,
                   help="emulator only: speed-up of the simulated motors (default 10: a shuffle takes 4 s)")
    p.add_argument("--inject", action="append", default=[], metavar="FAULT",
                   help="emulator only: inject a fault first, e.g. 'jam 2', 'chain', 'miscount 1 -1', 'lid open' "
                        "(see 'mahjong-table emulator --help'; may be repeated)")
    p.add_argument("--tiles", type=int, choices=sorted(DEFAULT_STACKS), default=136,
                   help="shuffle: tile set size to configure first (default 136)")
    p.add_argument("--stacks", help="shuffle: stacks per side, e.g. 14,13,14,13 (default: from --tiles)")
    p.add_argument("--tile-set", type=int, default=0, help="shuffle: which of the two tile sets (0 or 1)")
    p.add_argument("--pulse-ms", type=int, default=600, help="dice: motor pulse length (default 600 ms)")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for the table to answer")
    p.add_argument("--json", action="store_true", help="status: print JSON")
    p.set_defaults(func=handler)


def handler(args: argparse.Namespace) -> int:
    import asyncio
    import contextlib

    from firmware_bridge.errors import CommandRejected, LinkError, NotConnected, OutcomeUnknown, TableFault

    for name, lo, hi in (("pulse_ms", 1, 5000), ("tile_set", 0, 1), ("baud", 50, 4_000_000)):
        v = getattr(args, name)
        if not lo <= v <= hi:
            raise CliError(f"--{name.replace('_', '-')} must be between {lo} and {hi}, not {v}")
    for name in ("timeout", "time_scale"):
        v = getattr(args, name)
        if not (v > 0 and v < 1e6):  # also rejects nan and inf
            raise CliError(f"--{name.replace('_', '-')} must be a positive number, not {v}")
    stacks = DEFAULT_STACKS[args.tiles]
    if args.stacks:
        try:
            stacks = tuple(int(x) for x in args.stacks.split(","))
        except ValueError:
            raise CliError(f"--stacks must be four numbers like 17,17,17,17, not {args.stacks!r}") from None
        if len(stacks) != 4 or sum(stacks) * 2 != args.tiles:
            raise CliError(f"--stacks {args.stacks} does not hold {args.tiles} tiles (two per stack, four sides)")

    with contextlib.ExitStack() as stack:
        url = args.port
        if args.port:
            from controller.locks import LockHeld, port_lock

            lock = port_lock(args.port)
            if lock is not None:
                try:
                    lock.acquire("mahjong-table table")
                    stack.callback(lock.release)
                except LockHeld as exc:
                    raise CliError(str(exc)) from None
                except OSError as exc:
                    raise CliError(str(exc)) from None
        if args.emulator:
            from controller.cli.emulator import inject_fault
            from firmware_bridge.emulator import McuEmulator

            emu = stack.enter_context(McuEmulator(time_scale=args.time_scale))
            url = emu.url
            for fault in args.inject:
                try:
                    inject_fault(emu, fault.split())
                except (ValueError, IndexError, KeyError) as exc:
                    raise CliError(f"--inject {fault!r}: {exc}") from None
        elif args.inject:
            raise CliError("--inject needs --emulator")
        try:
            return asyncio.run(_run(args, url, stacks))
        except NotConnected as exc:
            raise CliError(str(exc)) from None
        except TableFault as exc:
            print(f"table fault: {exc}")
            return 1
        except CommandRejected as exc:
            print(f"refused: {exc}")
            return 1
        except OutcomeUnknown as exc:
            print(f"unknown outcome: {exc}")
            return 1
        except LinkError as exc:
            print(f"link error: {exc}")
            return 1


async def _run(args: argparse.Namespace, url: str, stacks: tuple[int, ...]) -> int:
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.link import LinkConfig

    b = Bridge(url, LinkConfig(baudrate=args.baud))
    await b.start(timeout=args.timeout)
    try:
        a = args.action
        if a == "status":
            _print_status(b, await b.status(), args.json)
        elif a == "shuffle":
            await b.configure(args.tiles, stacks, args.tile_set)
            await _shuffle_with_bar(b, sum(stacks))
        elif a == "collect":
            await b.collect()
            print("collected")
        elif a in ("raise", "lower"):
            await (b.raise_walls() if a == "raise" else b.lower_walls())
            print("walls raised" if a == "raise" else "walls lowered")
        elif a == "dice":
            await b.dice(args.pulse_ms)
            print(f"dice rolled ({args.pulse_ms} ms pulse)")
        elif a == "estop":
            await b.estop()
            print("emergency stop sent: motors stopped, latched until 'table reset'")
        elif a == "reset":
            await b.reset()
            print("MCU reset")
        return 0
    finally:
        await b.close()


async def _shuffle_with_bar(b: Bridge, total: int) -> None:
    from tqdm import tqdm

    with tqdm(total=total, unit="stack", desc="shuffle", leave=True) as bar:
        def progress(ev: ShuffleProgress) -> None:
            bar.update(sum(ev.stacks_built) - bar.n)

        await b.shuffle(progress=progress)
    print("walls built: " + ", ".join(str(n) for n in b.view.built) + " stacks per side")


def _print_status(b: Bridge, s: TableStatus, as_json: bool) -> None:
    import json

    from firmware_bridge.messages import NO_SEAT, FaultCode, Op, Part, TableStatus, code_name

    h = b.hello
    assert h is not None  # (the bridge started: its handshake's hello is known)
    busy = [code_name(Op, op) for op in Op if op and s.busy & (1 << (op - 1))]
    lifts = ["up" if s.lifts >> i & 1 else "down" for i in range(5)]
    flags = {"configured": bool(s.flags & TableStatus.CONFIGURED), "estop_latched": bool(s.flags & TableStatus.ESTOPPED),
             "lid_open": bool(s.flags & TableStatus.LID_OPEN), "chain_zero_ok": bool(s.flags & TableStatus.CHAIN_ZERO_OK)}
    ind = ["-" if v == NO_SEAT else str(v) for v in s.indicators[:3]] + [str(s.indicators[3])]
    fault = (f"{code_name(FaultCode, s.fault_code)} ({code_name(Part, s.fault_part)})" if s.fault_code else "none")
    info = {
        "firmware": f"{h.fw_major}.{h.fw_minor}.{h.fw_patch}", "protocol": h.protocol_version,
        "boot_counter": s.boot_counter, "tile_sets": list(h.tile_set_sizes), "n_side_lifts": h.n_lifts,
        "configured": {"tiles": s.tile_count, "stacks": list(s.stacks), "tile_set": s.tile_set}, **flags,
        "busy": busy, "side_lifts": lifts[:4], "centre_lift": lifts[4], "built": list(s.built),
        "indicators": {"turn": ind[0], "dealer": ind[1], "wind": ind[2], "light": ind[3]}, "last_fault": fault,
        "completed": {"collects": s.collects, "shuffles": s.shuffles, "dice": s.dice_rolls},
    }
    if as_json:
        print(json.dumps(info, indent=2))
        return
    for k, v in info.items():
        print(f"{k:>14}: {v}")
