"""The hall's Pantheon sender while ``hall serve`` runs: every ``interval`` seconds the hall's new games, hands
and penalties are written into the Pantheon outbox and sent (:func:`run`); each problem — a disagreement,
a refusal, a hand without record — is logged once, in English and Russian, for the director and the judge."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from hall.db import HallDB
from hall.pantheon.client import PantheonConfig
from hall.pantheon.feed import feed
from hall.pantheon.outbox import DrainReport, PantheonOutbox, Sender
from rules.game.protocols import RuleSet

log = logging.getLogger("hall.pantheon")


async def once(db: HallDB, outbox: PantheonOutbox, profile: RuleSet, cfg: PantheonConfig,
               say: Callable[[str], None], seen: set[str]) -> DrainReport:
    """One pass: feed, then send; a problem is said once (``seen`` keeps what was said)."""
    fed = await asyncio.to_thread(feed, db, outbox, profile)
    rep = await Sender(outbox, cfg).drain()
    lines = list(fed.problems) + [f"{p['text_en']} / {p['text_ru']}" for p in rep.problems]
    if rep.error:
        lines.append(f"Pantheon: {rep.error}")
    for line in lines:
        if line not in seen:
            seen.add(line)
            say(line)
    return rep


async def run(db: HallDB, profile: RuleSet, cfg: PantheonConfig, outbox_path: str | Path, stop: asyncio.Event,
              interval: float = 10.0, say: Callable[[str], None] | None = None) -> None:
    say = say or (lambda m: log.warning("%s", m))
    outbox = PantheonOutbox(outbox_path)
    seen: set[str] = set()
    try:
        while not stop.is_set():
            try:
                await once(db, outbox, profile, cfg, say, seen)
            except Exception as exc:  # a bug here must not take the hall down: say it, try again later
                log.exception("pantheon: sending failed")
                say(f"Pantheon: sending failed: {exc}")
            try:
                await asyncio.wait_for(stop.wait(), interval)
            except TimeoutError:
                pass
    finally:
        outbox.close()
