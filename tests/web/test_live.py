"""The live page over the WebSocket: a whole bot-played hand followed message by message. Every message a
public client receives is read: none carries a concealed tile (the hand is written to the store with
every dealt and drawn tile replaced by a marker), the ponds grow in discard order, melds appear with their
source, the settlement arrives; the judge's client gets the judge's part too."""
from __future__ import annotations

import asyncio
import json

from controller.play_sources import BotPlay, bot_hand, result_of
from controller.service import TableService
from rules.events import Discarded, MeldMade
from tests.web.helpers import PIN, client, run, served
from tests.web.test_public import SECRET, with_secrets


class SecretBotPlay(BotPlay):
    """Bots play the hand; the store gets it with every concealed tile replaced by a marker."""

    async def play(self, svc: TableService, hand_id: str):
        res = await asyncio.to_thread(bot_hand, svc.profile, svc.players, svc.dealer, hand_id, svc.dice)
        for i, ev in enumerate(with_secrets(res.events)):
            svc.store.append(f"{hand_id}/game", i, ev)
            await asyncio.sleep(self.event_delay)
        self.events = res.events
        return result_of(res)


def is_subsequence(small, big) -> bool:
    it = iter(big)
    return all(x in it for x in small)


def test_public_messages_of_a_whole_hand(tmp_path):
    play = SecretBotPlay(event_delay=0.03)  # a hand of ~4 s: the page sends a state at most every 0.2 s

    async def scenario():
        async with served(tmp_path, auto=True, play=play, profile="basic", hands=1) as t, client() as http:
            public, judged = [], []
            ws_url = t.url.replace("http", "ws") + "/ws"

            async def read(ws, into):
                async for msg in ws:
                    into.append(msg.data)
                    state = json.loads(msg.data)["public"]
                    if state["hands"] >= 1:
                        return

            await t.login(http, "Chief", PIN)
            async with client() as anon, anon.ws_connect(ws_url, origin=t.origin) as pub, \
                    http.ws_connect(ws_url, origin=t.origin) as jud:
                await asyncio.wait_for(asyncio.gather(read(pub, public), read(jud, judged)), 220)
            return public, judged

    public, judged = run(scenario(), timeout=240)
    events = play.events
    assert len(public) >= 10, "the page follows the hand live, not only its end"
    discards = {s: [e.tile for e in events if isinstance(e, Discarded) and e.seat == s] for s in range(4)}
    saw_meld = saw_settlement = False
    prev_ponds: dict | None = None
    prev_hid, prev_melds = "", 0
    for text in public:
        assert SECRET not in text
        msg = json.loads(text)
        assert set(msg) == {"type", "public"}, "the judge's part goes to the judge only"
        hand = msg["public"]["hand"]
        if not hand:
            continue
        ponds = {s["seat"]: [p["tile"] for p in s["pond"]] for s in hand["seats"]}
        for s, pond in ponds.items():
            assert is_subsequence(pond, discards[s]), (s, pond)
        if prev_ponds is not None and hand["hand_id"] == prev_hid:
            grew = sum(len(s["melds"]) for s in hand["seats"]) + len(hand["wins"]) - prev_melds
            shrunk = sum(max(0, len(prev_ponds[s]) - len(ponds[s])) for s in ponds)
            assert shrunk <= grew, "a pond tile leaves only for a meld or a win on it"
        prev_ponds, prev_hid = ponds, hand["hand_id"]
        prev_melds = sum(len(s["melds"]) for s in hand["seats"]) + len(hand["wins"])
        for s in hand["seats"]:
            for m in s["melds"]:
                if m["kind"] in ("chow", "pung", "kong_open"):
                    assert m["source"] in ("left", "opposite", "right")
                    saw_meld = True
        saw_settlement |= hand["settlement"] is not None
    claims = [e for e in events if isinstance(e, MeldMade) and e.from_seat is not None]
    assert saw_meld or not claims
    assert saw_settlement
    last = json.loads(public[-1])["public"]
    assert last["history"][0]["status"] == "played" and last["hands"] == 1
    assert any(json.loads(j).get("judge", {}).get("audit") for j in judged), "the judge sees the audit log"
    assert all(SECRET not in j or "judge" in json.loads(j) for j in judged)


def test_the_view_follows_a_corrected_record(tmp_path):
    """A judge's correction makes the referee write the hand's record anew (``<hand>/game.r<N>``): the page
    follows the newest revision, and its settlement."""
    play = BotPlay(event_delay=0)

    async def scenario():
        async with served(tmp_path, auto=True, play=play, hands=1) as t:
            while t.svc.hands_played() < 1:
                await asyncio.sleep(0.02)
            await t.svc.writer.flush()
            live = t.web.table.live
            hid = t.svc.hand_id
            before = live.public_state()["hand"]
            # the corrected record, as the referee writes it: here another hand's, so the outcome differs
            other = next(h for k in range(1, 50)
                         if (h := bot_hand("basic", 4, 0, hid, ((k % 6 + 1, k // 6 % 6 + 1),))).deltas != tuple(
                             before["settlement"]["deltas"]))
            fixed = other.events
            for i, ev in enumerate(fixed):
                t.svc.append(f"{hid}/game.r1", i, ev)
            await t.svc.writer.flush()
            await asyncio.sleep(0.05)
            after = live.public_state()["hand"]
            live.hand = None  # a page opened now (or after a restart) finds the newest revision too
            reopened = live.public_state()["hand"]
            return before, after, reopened

    before, after, reopened = run(scenario())
    assert before["settlement"] is not None and before["settlement"]["deltas"] != after["settlement"]["deltas"]
    assert reopened == after
