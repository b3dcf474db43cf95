"""Hands for the replay tests: a full-information hand of each profile played by the rules' bots, stored as
a refereed hand's record stream (``<hand>/game``) — the dealt and drawn faces left in, so a test sees whether
any of them leaks into the replay."""
from __future__ import annotations

import dataclasses
import random
from typing import Any

from controller.replay import Streams
from rules.events import Event, HandStarted

PROFILES = ("riichi-ema2016", "sichuan-mpl2025", "sichuan-wmsg", "mcr", "mcr-siamese", "red", "basic")


def full_hand(profile: str, seed: int = 3) -> tuple[str, list[Event]]:
    """(hand id, the hand's full-information log) of one bot hand of ``profile``, with a winner where the
    first seeds give one."""
    from rules.profiles import registry
    from rules.simulate import play_hand

    prof = registry.get(profile)
    hid = f"t1-{profile}"
    best: list[Event] = []
    for s in range(seed, seed + 12):
        res = play_hand(prof, random.Random(s))
        best = list(res.events)
        if res.winners:
            break
    out = []
    for e in best:
        if isinstance(e, HandStarted):
            e = dataclasses.replace(e, hand_id=hid)
        out.append(e)
    return hid, out


def store_of(hid: str, events: list[Event]) -> Streams:
    return Streams({f"{hid}/game": list(events)})


def tiles_in(v: Any) -> list[str]:
    """Every tile named anywhere in a replay's JSON (values of the keys that hold tiles)."""
    out: list[str] = []
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("tile", "indicator") and isinstance(x, str):
                out.append(x)
            elif k in ("tiles", "revealed", "flowers", "dora") and isinstance(x, list):
                out.extend(t if isinstance(t, str) else "" for t in x)
                out.extend(y for t in x if not isinstance(t, str) for y in tiles_in(t))
            else:
                out.extend(tiles_in(x))
    elif isinstance(v, list):
        for x in v:
            out.extend(tiles_in(x))
    return [t for t in out if t and t != "x"]
