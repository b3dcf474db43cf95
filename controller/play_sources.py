"""Play sources: who plays the hand while the table is in PLAY.

* :class:`controller.service.ManualPlay` — no referee yet: the operator presses START when the hand is over.
* :class:`BotPlay` — demo mode and the crash tests: seeded bots play the hand through the rules engine's
  hand machine (``rules.simulate``). The hand is a pure function of the hand id and the stored dice, so a
  service restarted after a crash plays it again to the same events; the events go to the store under
  their own stream (``<hand_id>/game``, sequence = position in the hand's log), where re-appending an
  identical event is a no-op and a different one is an error — the store proves the replay identical.
"""
from __future__ import annotations

import asyncio
import hashlib
import random
from typing import Any

from controller.service import PlaySource


def hand_seed(hand_id: str, dice: tuple[tuple[int, ...], ...]) -> int:
    digest = hashlib.sha256(f"{hand_id}|{dice}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_hand(profile_name: str, players: int, dealer: int, hand_id: str, dice: tuple[tuple[int, ...], ...]):
    """The bots' hand for this table hand (deterministic)."""
    from rules.profiles import registry
    from rules.simulate import play_hand

    profile = registry.get(profile_name)
    return play_hand(profile, random.Random(hand_seed(hand_id, dice)), n_players=players, dealer=dealer,
                     hand_id=hand_id)


class BotPlay(PlaySource):
    def __init__(self, event_delay: float = 0.01):
        self.event_delay = event_delay  # seconds between events, so the web page shows the hand going on

    async def play(self, svc, hand_id: str) -> dict[str, Any]:
        res = await asyncio.to_thread(bot_hand, svc.profile, svc.players, svc.dealer, hand_id, svc.dice)
        stream = f"{hand_id}/game"
        durable = []
        for i, ev in enumerate(res.events):
            # idempotent: a replay after a crash re-appends the same events; written by the store's writer
            # thread (the loop never waits on the disk), all durable before the hand's result is returned
            durable.append(svc.append(stream, i, ev))
            if self.event_delay:
                await asyncio.sleep(self.event_delay)
        await asyncio.gather(*durable)
        return result_of(res)


def result_of(res) -> dict[str, Any]:
    st = res.machine.state
    payments = list(st.settled.payments) if st.settled is not None else []
    return {
        "source": "bots",
        "deltas": list(res.deltas),
        "winners": list(res.winners),
        "exhaustive": res.exhaustive,
        "next_dealer": res.next_dealer,
        "payments": [dict(p) for p in payments],
        "events": len(res.events),
    }
