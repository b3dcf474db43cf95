"""A refereed hand at a served table, told to the referee as a camera would (riichi-ema2016): seven
discards round the table, then the camera reads a 7m where the 4m lies that seat dealer+3 discards; seat
dealer+1 calls ron and shows a hand that waits on 1m/4m — a false win, as the referee sees it. The judge
corrects the misread tile (7m -> 4m) and the ron stands: the settlement changes.

``unreadable=True``: the camera cannot read the dealer's first discard, and the referee asks (the hand
waits for the answer). Nobody signs the result: the judge confirms or rejects it.

``python -m tests.web.refereed DIR`` serves such a table (the browser test): the page's address on the
first line, until terminated.
"""
from __future__ import annotations

import asyncio
import dataclasses
import sys
from pathlib import Path
from typing import Any

from controller.referee.session import RefereePlay
from rules.events import ButtonPressed, Event, HandStarted, PondTileRemoved, PondTileSeen, TilesRevealed

PROFILE = "riichi-ema2016"
HAND = "2m 3m 4p 5p 6p 6p 7p 8p 2s 3s 4s 5s 5s"  # tanyao, waiting on 1m/4m
ROUND = ["1z", "9m", "2z", "3z", "5z", "6z", "7z"]
MISREAD, TRUE = "7m", "4m"


def script(dealer: int, unreadable: bool = False) -> list[tuple[float, Event]]:
    """(seconds since the previous input, the input) for the hand from ``dealer``."""
    out: list[tuple[float, Event]] = []
    pond = {s: 0 for s in range(4)}

    def discard(seat: int, tile: str) -> None:
        out.append((4.0, PondTileSeen(seat=seat, index=pond[seat], tile=tile)))
        pond[seat] += 1

    for k, tile in enumerate(ROUND):
        discard((dealer + k) % 4, "?" if unreadable and k == 0 else tile)
    thrower, winner = (dealer + 3) % 4, (dealer + 1) % 4
    discard(thrower, MISREAD)
    out.append((0.5, ButtonPressed(button="call", seat=winner, call="hu")))
    out.append((0.3, PondTileRemoved(seat=thrower, index=pond[thrower] - 1, tile=MISREAD)))
    out.append((0.5, TilesRevealed(seat=winner, tiles=tuple(HAND.split()))))
    return out


class ScriptActor:
    """Feeds the script to the referee session (stamped in the recent past on the service's clock, so the
    judge's inputs come after it), then keeps the referee's time with ticks."""

    def __init__(self, unreadable: bool = False, pace: float = 0.02):
        self.unreadable = unreadable
        self.pace = pace

    def for_hand(self) -> ScriptActor:
        return self

    async def run(self, session: Any) -> None:
        svc = session.svc
        start = next(e for e in svc.store.events(session.hand_id) if isinstance(e, HandStarted))
        steps = script(start.dealer, self.unreadable)
        total = sum(dt for dt, _ in steps) + 1.0
        t0, w0 = svc.clock.mono() - total, svc.clock.wall() - total
        t = 0.0
        for frame, (dt, ev) in enumerate(steps, 1):
            t += dt
            kw: dict[str, Any] = {"t_mono": t0 + t, "t_wall": w0 + t}
            if hasattr(ev, "frame"):
                kw["frame"] = frame
            if hasattr(ev, "hand_id"):
                kw["hand_id"] = session.hand_id
            await session.take(dataclasses.replace(ev, **kw))
            await asyncio.sleep(self.pace)
        while True:
            await session.tick(svc.clock.mono())
            await asyncio.sleep(0.1)


def refereed_play(unreadable: bool = False) -> RefereePlay:
    return RefereePlay(actor=ScriptActor(unreadable), camera=False)


async def until(cond, timeout: float = 60.0) -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not cond():
        assert asyncio.get_running_loop().time() < end, "timed out"
        await asyncio.sleep(0.02)


def misread_index(session: Any) -> int:
    """The record's index of the misread discard."""
    return next(i for i, e in enumerate(session.referee.record) if isinstance(e, PondTileSeen) and e.tile == MISREAD)


async def _serve(tmp: Path, certdir: str = "") -> None:
    from tests.web.helpers import served

    # with a certificate folder (web.crt, web.key): HTTPS and a plain-HTTP port (tests.web.test_browser_tls)
    # "insecure": plain HTTP with web.insecure_login = true
    # both on 127.0.0.1 only: the browser "on another machine" reaches them through tests.web.other_machine.Forwarder
    tls = {"web__tls_certfile": f"{certdir}/web.crt", "web__tls_keyfile": f"{certdir}/web.key",
           "web__http_port": 0} if certdir not in ("", "insecure") else {}
    if certdir == "insecure":
        tls = {"web__insecure_login": True}
    async with served(tmp, auto=True, play=refereed_play(), profile=PROFILE, hands=1, **tls) as t:
        print(t.url + "/" if not t.web.tls else f"https {t.web.port} http {t.web.http_port}", flush=True)
        await asyncio.Event().wait()  # until terminated


if __name__ == "__main__":
    try:
        asyncio.run(_serve(Path(sys.argv[1]), *sys.argv[2:3]))
    except KeyboardInterrupt:
        pass
