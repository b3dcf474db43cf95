"""Crash test: the table service is killed with SIGKILL at random moments during a (bot-played) hand.

After every restart the store must hold each event exactly once (contiguous sequences, idempotent
re-appends), the dice drawn before a crash are reused (never redrawn), the table comes back paused, the
(simulated) camera re-reads the table and it matches the record (nothing was moved while the service was
down) before the hand resumes, and the hand ends with the same settlement as an uninterrupted run of the
same hand. (A tile moved while the service is down: tests/controller/test_table_camera.py.)
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from controller.event_store import EventStore
from controller.play_sources import bot_hand, result_of
from rules.events import DiceRolled, TableReconciled, TableStateChanged
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]


def write_config(tmp: Path) -> Path:
    cfg = tmp / "config.toml"
    cfg.write_text(
        '[table]\nid = "crash"\nprofile = "basic"\nbackend = "mcu"\n'
        '[serial]\nport = "emulator"\ntime_scale = 400.0\n'
        f'[store]\npath = "{tmp / "events.sqlite"}"\n'
        '[web]\nport = 0\n'
        '[referee]\ndemo_camera = "exact"\n'
    )
    return cfg


def start(cfg: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "controller", "serve", "--demo", "--hands", "1", "--config", str(cfg)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )


def state_changes(db: Path) -> list[str]:
    """The states recorded for the unfinished hand (all hands' count, so a new hand is a change too)."""
    if not db.exists():
        return []
    with EventStore(db) as st:
        hands = st.unfinished_hands()
        done = [""] * len(st.results())
        if not hands:
            return done
        return done + [e.state for e in st.events(hands[-1]) if isinstance(e, TableStateChanged)]


def wait_for_state(db: Path, state: str, timeout: float) -> None:
    """Until the service just started records ``state`` (a state recorded before it started does not count)."""
    before = len(state_changes(db))
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        states = state_changes(db)
        if len(states) > before and states[-1] == state:
            return
        time.sleep(0.02)


def test_kill_9_during_play_resumes_to_the_same_settlement(tmp_path):
    cfg = write_config(tmp_path)
    db = tmp_path / "events.sqlite"
    rng = random.Random(1234)
    kills = 0
    target = scaled(4, 100)
    while kills < target:
        p = start(cfg)
        if kills % 2:  # every other kill lands in the middle of play
            wait_for_state(db, "play", timeout=30)
            time.sleep(rng.uniform(0.0, 0.6))
        else:  # the others anywhere: start-up, shuffling, dice, play, scoring
            time.sleep(rng.uniform(0.3, 2.5))
        if p.poll() is None:
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
            kills += 1
        else:  # it finished its hand before the kill
            assert p.returncode == 0, p.stderr.read()
    p = start(cfg)  # finish the interrupted hand without a kill
    _, err = p.communicate(timeout=180)
    assert p.returncode == 0, err

    with EventStore(db) as st:
        played = [(h, r) for h, r in st.results() if r.get("status") == "played"]
        assert played and st.unfinished_hands() == []
        assert all(r.get("status") == "played" for _, r in st.results())  # no fault, nothing aborted
        interrupted_in_play = 0
        matched_in_play = 0
        for hand_id, result in played:
            table_events = st.events(hand_id)
            seqs = [s.seq for s in st.iter_events(hand_id)]
            assert seqs == list(range(len(seqs)))  # every acknowledged event exactly once, no gaps
            dice = [e for e in table_events if isinstance(e, DiceRolled)]
            assert len(dice) == 1  # drawn once, reused after every restart
            game = list(st.iter_events(f"{hand_id}/game"))
            assert [s.seq for s in game] == list(range(len(game)))
            restarts = [e for e in table_events if isinstance(e, TableStateChanged) and e.trigger == "restart"]
            assert all(e.state == "paused" for e in restarts)
            interrupted_in_play += sum(1 for e in restarts if e.previous == "play")
            # the camera re-read the table after each restart before the hand resumed (a restart killed
            # before its read finished is followed by the next restart instead)
            checks = [e for e in table_events if isinstance(e, TableReconciled)]
            assert all(c.result in ("match", "unchecked") for c in checks), [(c.result, c.detail) for c in checks]
            after_restart = None
            for e in table_events:
                if isinstance(e, TableStateChanged) and e.trigger == "restart":
                    after_restart = e
                elif isinstance(e, TableReconciled):
                    assert after_restart is not None and e.state == after_restart.previous
                    after_restart = None
                elif isinstance(e, TableStateChanged) and e.trigger == "resume":
                    assert after_restart is None, "resumed without re-reading the table"
            matched_in_play += sum(1 for c in checks if c.result == "match" and c.state == "play")
            # the same hand played without interruption: the refereed record has its discards, its settlement
            ref = bot_hand("basic", 4, result["dealer"], hand_id, tuple(tuple(d) for d in result["dice"]))
            assert [(e.seat, e.tile) for e in ref.events if e.TYPE == "discarded"] == [
                (s.event.seat, s.event.tile) for s in game if s.event.TYPE == "discarded"]
            assert result_of(ref)["deltas"] == result["deltas"]
            assert result_of(ref)["payments"] == result["payments"]
    assert interrupted_in_play >= 1  # the kills did land in the middle of play
    assert matched_in_play >= 1  # ... and the table seen after such a restart matched the replayed hand
