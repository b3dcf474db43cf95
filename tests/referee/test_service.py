"""The referee in the table service: bots' hands refereed through the same path as a real hand, every input
durable before it is acted on, questions answered from the judge's console, and a kill -9 in the middle
of a refereed hand resumed with nothing lost or doubled."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from controller.event_store import EventStore
from controller.play_sources import BotPlay, bot_hand, result_of
from controller.referee.session import RefereePlay, rebuild
from rules.events import (
    DiceRolled,
    HandStarted,
    PondTileSeen,
    QuestionAsked,
    ResultConfirmed,
    TableStateChanged,
    Violation,
)
from tests.conftest import scaled
from tests.controller.test_table_camera import Rig, run, until

ROOT = Path(__file__).resolve().parents[2]


def _contiguous(store: EventStore, stream: str) -> list:
    seqs = [s.seq for s in store.iter_events(stream)]
    assert seqs == list(range(len(seqs))), stream
    return [s.event for s in store.iter_events(stream)]


def test_a_bots_hand_is_refereed_through_the_service(tmp_path):
    rig = Rig(tmp_path, play=BotPlay(event_delay=0))
    seen: list = []

    async def scenario(svc):
        await until(lambda: (svc.snapshot().referee or {}).get("seats"))
        seen.append(svc.snapshot().referee)
        await until(lambda: svc.hands_played() >= 1, timeout=120)

    try:
        run(rig, scenario, timeout=150)
        (hand_id, result), = rig.store.results()
        truth = bot_hand("basic", 4, result["dealer"], hand_id, tuple(tuple(d) for d in result["dice"]))
        assert result["source"] == "referee" and result["deltas"] == result_of(truth)["deltas"]
        assert result["payments"] == result_of(truth)["payments"] and result["confirmed_by"] == "seats"
        inputs = _contiguous(rig.store, f"{hand_id}/referee")
        assert isinstance(inputs[0], HandStarted) and isinstance(inputs[1], DiceRolled)
        outputs = _contiguous(rig.store, f"{hand_id}/verdicts")
        assert isinstance(outputs[-1], ResultConfirmed)
        record = _contiguous(rig.store, f"{hand_id}/game")
        assert [e.TYPE for e in record if e.TYPE == "settled"] == ["settled"]
        assert rebuild(rig.store, hand_id).machine.state.settled.deltas == tuple(result["deltas"])
        view = seen[0]
        assert view["hand_id"] == hand_id and len(view["seats"]) == 4 and "concealed" in view["seats"][0]
        assert all(not s["revealed"] for s in view["seats"])  # nothing hidden is shown before a reveal
    finally:
        rig.close()


class _Quiet(RefereePlay):
    """The referee with no camera and no bots: the test tells it what the camera saw."""

    def __init__(self):
        super().__init__(camera=False)


def test_a_question_shown_and_answered_from_the_judge_console(tmp_path):
    from controller.web.judge import ACTIONS, Judge

    play = _Quiet()
    rig = Rig(tmp_path, play=play)

    async def scenario(svc):
        await until(lambda: play.session is not None and play.session.referee.phase != "setup")
        s = play.session
        s.put(PondTileSeen(seat=0, index=0, tile="unknown", **svc.clock.stamp()))
        await until(lambda: s.referee.open_question is not None)
        view = svc.snapshot().referee
        assert view["question"]["kind"] == "tile" and "cannot read" in view["question"]["en"]
        assert ACTIONS["answer"].available(svc)
        ACTIONS["answer"].run(svc, Judge("Ivanova", "127.0.0.1"), {"answer": "1z"})
        await until(lambda: s.referee.open_question is None)
        await until(lambda: [str(t) for t in s.referee.machine.state.seat_state[0].pond] == ["1z"])
        await until(lambda: svc.store.count(f"{svc.hand_id}/referee") >= 4)

    try:
        run(rig, scenario, timeout=60)
        hand = rig.store.unfinished_hands()[-1]
        kinds = [e.TYPE for e in rig.store.events(f"{hand}/referee")]
        assert kinds[-3:] == ["pond_tile_seen", "referee_tick", "answer"]  # asked once unread for a while
        assert any(isinstance(e, QuestionAsked) for e in rig.store.events(f"{hand}/game"))  # the page sees it
        assert not any(isinstance(e, Violation) for e in rig.store.events(f"{hand}/verdicts"))
    finally:
        rig.close()


def _config(tmp: Path) -> Path:
    cfg = tmp / "config.toml"
    cfg.write_text('[table]\nid = "ref"\nprofile = "sichuan-mpl2025"\nbackend = "mcu"\n'
                   '[serial]\nport = "emulator"\ntime_scale = 400.0\n'
                   f'[store]\npath = "{tmp / "events.sqlite"}"\n[web]\nport = 0\n'
                   '[referee]\ndemo_camera = "exact"\n')
    return cfg


def _in_play(db: Path, inputs: int, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if db.exists():
            with EventStore(db) as st:
                hands = st.unfinished_hands()
                if hands and st.count(f"{hands[-1]}/referee") >= inputs:
                    states = [e.state for e in st.events(hands[-1]) if isinstance(e, TableStateChanged)]
                    if states and states[-1] == "play":
                        return True
        time.sleep(0.02)
    return False


def test_kill_9_in_the_middle_of_a_refereed_hand(tmp_path):
    cfg = _config(tmp_path)
    db = tmp_path / "events.sqlite"
    rng = random.Random(17)
    cmd = [sys.executable, "-m", "controller", "serve", "--demo", "--hands", "1", "--pace", "0.02", "--config",
           str(cfg)]
    done, out = 0, ""
    for k in range(scaled(2, 6)):
        p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if _in_play(db, 10 + 25 * k):
            time.sleep(rng.uniform(0.0, 0.3))
        if p.poll() is not None:  # the hand ended before it had that many inputs: nothing left to interrupt (a
            out, err = p.communicate()  # new start would play a second hand)
            assert p.returncode == 0, err
            break
        os.kill(p.pid, signal.SIGKILL)
        p.communicate()
        done += 1
    else:
        p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = p.communicate(timeout=420)
        assert p.returncode == 0, err
    with EventStore(db) as st:
        (hand_id, result), = st.results()
        inputs = _contiguous(st, f"{hand_id}/referee")
        _contiguous(st, f"{hand_id}/verdicts")
        _contiguous(st, f"{hand_id}/game")
        restarts = [e for e in st.events(hand_id) if isinstance(e, TableStateChanged) and e.trigger == "restart"]
        assert done >= 1 and any(e.previous == "play" for e in restarts)
        # nothing lost or doubled: the inputs are those of the same hand refereed without interruption
        again = asyncio.run(_uninterrupted(st, hand_id))
        assert [e.to_json() for e in inputs] == [e.to_json() for e in again]
        truth = bot_hand("sichuan-mpl2025", 4, result["dealer"], hand_id, tuple(tuple(d) for d in result["dice"]))
        assert result["deltas"] == result_of(truth)["deltas"] and result["payments"] == result_of(truth)["payments"]
    assert "VERDICT" not in out  # a clean hand: no verdict was printed


def _memory_service(mem: EventStore):
    """The little of the table service a referee session uses, over an in-memory store (sichuan-mpl2025)."""
    from controller import config
    from controller.clock import Clock

    class Svc:
        cfg = config.defaults()
        store = mem
        clock = Clock()
        profile = "sichuan-mpl2025"
        players = 4

        def append(self, stream, seq, ev):
            fut = asyncio.get_running_loop().create_future()
            mem.append(stream, seq, ev)
            fut.set_result(True)
            return fut

        def note(self, text):
            pass

    return Svc()


async def _uninterrupted(st: EventStore, hand_id: str) -> list:
    """The referee's inputs for the same hand and dice, played in one go (an in-memory store)."""
    from controller.referee.actor import BotActor
    from controller.referee.session import RefereeSession

    mem = EventStore(":memory:")
    for i, ev in enumerate(e for e in st.events(hand_id) if isinstance(e, HandStarted | DiceRolled)):
        mem.append(hand_id, i, ev)

    session = RefereeSession(_memory_service(mem), hand_id, actor=BotActor("exact", 0))
    await session.run()
    return mem.events(f"{hand_id}/referee")


def test_a_crashed_actor_ends_the_session_without_waiting_for_an_input():
    """The bots (or the camera feed) fail while nothing else comes in: the session raises their error at
    once — it used to wait for the next input, forever at a quiet table."""
    from controller.referee.session import RefereeSession

    mem = EventStore(":memory:")

    class Crashing:
        async def run(self, session):
            await asyncio.sleep(0.05)
            raise RuntimeError("the bots fell over")

    session = RefereeSession(_memory_service(mem), "h1", actor=Crashing())

    async def go():
        try:
            await asyncio.wait_for(session.run(), timeout=20.0)
        except RuntimeError as exc:
            return str(exc)
        return "no error"

    assert asyncio.run(go()) == "the bots fell over"
    assert session.queue.empty()  # nothing came in: the crash alone ended it
