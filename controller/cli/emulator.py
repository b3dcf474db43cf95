"""``mahjong-table emulator``: run the emulated table MCU on a pty or a TCP port.

Type commands on stdin to inject faults (``help`` lists them). Ctrl-C stops it.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, NoReturn

from controller.cli import CliError
from controller.cli.inputs import float_in, int_in

if TYPE_CHECKING:
    from types import FrameType

    from firmware_bridge.emulator import McuEmulator

HELP = """fault injection commands:
  jam LIFT [off]        a side lift (0-3, 4 = centre) never reaches its limit switch
  chain [ok]            lose (or restore) the chain zero sensor
  miscount SIDE DELTA   build DELTA stacks too many on SIDE in the next shuffles (0 cures it)
  push [ok]             the pusher counts the wrong number of tiles
  stall [ok]            the shuffle stops making progress (times out after 80 s)
  overcurrent PART      overcurrent on a part (turntable, magnet_ring, stacker, chain, dice, lift0..)
  lid open|close        open or close the lid
  button NAME [SEAT]    press start / dice
  noise CORRUPT DROP    corrupt this fraction of bytes, drop this fraction of frames (e.g. 0.01 0.01)
  reset                 reset the MCU
  unplug / replug       pull the cable / plug it back
  status                print the emulator's table status
  quit"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "emulator",
        help="run an emulated table MCU on a pty or TCP port, with fault injection",
        description="Speak the table protocol (docs/protocol.md) like the real MCU, with simulated motors and "
                    "sensors. Prints the path (pty) or URL (TCP) to give to 'mahjong-table table --port'.",
        epilog=HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--pty", action="store_true", help="listen on a pseudo-terminal (the default)")
    where.add_argument("--tcp", type=int_in(0, 65535), metavar="PORT", help="listen on TCP PORT (0 = any free port)")
    p.add_argument("--host", default="127.0.0.1", help="TCP address to listen on (default 127.0.0.1)")
    p.add_argument("--time-scale", type=float_in(0.001, 100000), default=1.0,
                   help="speed-up of the simulated motors (1 = real time, 1000 = a 40 s shuffle in 40 ms)")
    p.add_argument("--corrupt", type=float_in(0.0, 0.99), default=0.0, help="fraction of bytes to corrupt (both ways)")
    p.add_argument("--drop", type=float_in(0.0, 0.99), default=0.0, help="fraction of frames to drop (both ways)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the noise")
    p.set_defaults(func=handler)


def _stop_on_sigterm() -> None:
    """SIGTERM (systemctl stop, kill) ends the emulator like Ctrl-C: its pty folder is removed on the way out."""
    import signal

    def stop(signum: int, frame: FrameType | None) -> NoReturn:  # noqa: ARG001
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)


def handler(args: argparse.Namespace) -> int:
    import sys

    from firmware_bridge.emulator import McuEmulator, make_port

    _stop_on_sigterm()
    try:
        port = make_port("tcp", args.host, args.tcp) if args.tcp is not None else make_port("pty")
    except (OSError, OverflowError) as exc:
        raise CliError(f"cannot listen on {args.host}:{args.tcp}: {getattr(exc, 'strerror', None) or exc}") from None
    with McuEmulator(port, time_scale=args.time_scale, seed=args.seed) as emu:
        emu.set_noise(args.corrupt, args.drop)
        print(f"emulated table MCU listening on {emu.url}", flush=True)
        print("type 'help' for fault injection, Ctrl-C or 'quit' to stop", flush=True)
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] in ("quit", "exit"):
                break
            try:
                print(inject_fault(emu, words), flush=True)
            except (ValueError, IndexError, KeyError) as exc:
                print(f"? {exc or 'bad arguments'} (type 'help')", flush=True)
        else:  # stdin closed (e.g. started by a script): run until interrupted
            import threading

            threading.Event().wait()
    return 0


def inject_fault(emu: McuEmulator, words: list[str]) -> str:
    from firmware_bridge.messages import Button, Part

    cmd, rest = words[0], words[1:]
    off = bool(rest) and rest[-1] in ("off", "ok", "close")
    if cmd == "help":
        return HELP
    if cmd == "jam":
        emu.jam_lift(int(rest[0]), jammed=not off)
    elif cmd == "chain":
        emu.lose_chain_zero(not off)
    elif cmd == "miscount":
        emu.miscount_stacks(int(rest[0]), int(rest[1]))
    elif cmd == "push":
        emu.wrong_push_count(not off)
    elif cmd == "stall":
        emu.stall_shuffle(not off)
    elif cmd == "overcurrent":
        emu.overcurrent(Part[rest[0].upper()])
    elif cmd == "lid":
        emu.set_lid(rest[0] == "open")
    elif cmd == "button":
        emu.press_button(Button[rest[0].upper()], int(rest[1]) if len(rest) > 1 else 0xFF)
    elif cmd == "noise":
        emu.set_noise(float(rest[0]), float(rest[1]))
    elif cmd == "reset":
        emu.reset()
    elif cmd == "unplug":
        emu.unplug()
    elif cmd == "replug":
        emu.replug()
    elif cmd == "status":
        return str(emu.status())
    else:
        raise ValueError(f"unknown command {cmd!r}")
    return "ok"
