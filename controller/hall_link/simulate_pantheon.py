"""``hall simulate --pantheon URL``: the simulated tournament's riichi hands go into a Pantheon event, with the
hall going down in the middle of sending, and the proof that Pantheon holds every hand once.

After each session the hall writes its games, hands and penalties into its Pantheon outbox
(:func:`hall.pantheon.feed.feed`) and sends them. In the middle session the hall "goes down" right after
Pantheon recorded a round and before its answer was written down (the worst moment: the round is in
Pantheon, the outbox still has it in flight); a new outbox on the same file — the restarted hall — sends the
rest. At the end each game's rounds are read back from Pantheon (``GetAllRounds``) and compared with the
hands written: ``pantheon: sent N, accepted N, refused 0, doubled 0``.

The simulated players P001..PNNN are Pantheon players 1..N (they must be registered in the event).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hall.pantheon.client import Mimir, PantheonConfig, PantheonError
from hall.pantheon.feed import feed
from hall.pantheon.outbox import DrainReport, PantheonOutbox, Sender
from hall.runtime import Hall
from rules.events import JSONObject


class _HallDown(Exception):
    """The simulated crash of the hall between Pantheon's recording a round and the answer's being written."""


class _CrashAfterRecording(Mimir):
    def __init__(self, cfg: PantheonConfig, after: int):
        super().__init__(cfg)
        self.after = after

    async def add_round(self, session_hash: str, round_data: JSONObject) -> JSONObject:
        ans = await super().add_round(session_hash, round_data)
        self.after -= 1
        if self.after <= 0:
            raise _HallDown
        return ans


@dataclass
class PantheonSim:
    cfg: PantheonConfig
    outbox_path: Path
    crash_in: int  # the session after which the hall goes down while sending
    say: Callable[[str], None]
    restarts: int = 0
    refused: int = 0
    disagreements: int = 0
    errors: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def after_session(self, session: int, hall: Hall) -> None:
        db = hall.db
        assert hall.tournament is not None
        with db.tx() as c:  # P001 is Pantheon player 1, ...
            c.execute("UPDATE players SET pantheon_id = CAST(substr(id, 2) AS INTEGER) WHERE pantheon_id IS NULL "
                      "AND id GLOB 'P[0-9]*'")
        ob = PantheonOutbox(self.outbox_path)
        try:
            fed = feed(db, ob, hall.tournament.profile)
            self.problems += fed.problems
            if session == self.crash_in:
                sender = Sender(ob, self.cfg, client=lambda cfg: _CrashAfterRecording(cfg, after=2))
                try:
                    self._count(asyncio.run(sender.drain()))
                except _HallDown:
                    self.restarts += 1
                    self.say("pantheon: the hall went down after Pantheon recorded a round, before its answer was kept")
                    ob.close()
                    ob = PantheonOutbox(self.outbox_path)  # the restarted hall: the same outbox file
            self._count(asyncio.run(Sender(ob, self.cfg).drain()))
        finally:
            ob.close()

    def _count(self, rep: DrainReport) -> None:
        self.refused += rep.refused
        self.disagreements += rep.disagreements
        if rep.error:
            self.errors.append(rep.error)
        self.problems += [p["text_en"] for p in rep.problems]

    def result(self) -> tuple[bool, str]:
        """Every hand written against Pantheon's own rounds, game by game."""
        ob = PantheonOutbox(self.outbox_path)
        try:
            games: dict[str, int] = {}
            for it in ob.items():
                if it.rpc == "AddRound" and it.game:
                    games[it.game] = games.get(it.game, 0) + 1
            hashes = {g: ob.session_hash(g) for g in games}
        finally:
            ob.close()

        async def held() -> dict[str, int]:
            async with Mimir(self.cfg) as m:
                return {g: len(await m.all_rounds(h)) if h else 0 for g, h in hashes.items()}

        try:
            theirs = asyncio.run(held())
        except PantheonError as exc:
            return False, f"pantheon: cannot read the rounds back: {exc}"
        sent = sum(games.values())
        accepted = sum(min(n, theirs[g]) for g, n in games.items())
        doubled = sum(max(0, theirs[g] - n) for g, n in games.items())
        refused = self.refused + self.disagreements
        ok = accepted == sent and doubled == 0 and refused == 0 and not self.errors
        return ok, f"pantheon: sent {sent}, accepted {accepted}, refused {refused}, doubled {doubled}"


def config(url: str, token: str, event_id: int, person_id: int) -> PantheonConfig:
    return PantheonConfig(url, token, person_id, event_id)
