"""``mahjong-table hall simulate``: the command-line contract other tools depend on."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from controller.hall_link.simulate import run
from tests.conftest import scaled
from tests.hall.conftest import _need_mosquitto

LINE = re.compile(r"^results: sent (\d+), ingested (\d+), lost (\d+), duplicated (\d+)$")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller", "hall", "simulate", *args], capture_output=True,
                          text=True, timeout=300)


def test_simulate_prints_standings_then_exactly_one_results_line():
    _need_mosquitto()
    p = _cli("--tables", "2", "--sessions", "2", "--profile", "riichi-ema2016", "--seed", "3", "--broker-restart",
             "--max-hands", "4")
    assert p.returncode == 0, p.stderr
    out = p.stdout.strip().splitlines()
    matches = [line for line in out if LINE.match(line)]
    assert len(matches) == 1 and out[-1] == matches[0]
    sent, ingested, lost, dup = map(int, LINE.match(out[-1]).groups())
    assert sent == ingested > 0 and lost == dup == 0
    ranking = [line for line in out if re.match(r"^\s+\d+\s+P\d{3}\s", line)]
    assert len(ranking) == 8  # 2 tables of 4 players, every one ranked
    assert "broker: stopped" in p.stderr and "broker: started again" in p.stderr


@pytest.mark.parametrize("args, needle", [
    (["--tables", "0", "--sessions", "1", "--profile", "mcr", "--seed", "1"], "must be at least 1"),
    (["--tables", "2", "--sessions", "1", "--profile", "nope", "--seed", "1"], "invalid choice"),
    (["--tables", "2", "--sessions", "1", "--profile", "mcr", "--seed", "x"], "invalid int value"),
    (["--tables", "2", "--sessions", "1", "--profile", "mcr", "--seed", "1", "--broker", "http://x"], "mqtt://"),
    (["--tables", "2", "--sessions", "1", "--profile", "mcr", "--seed", "1", "--broker", "mqtt://127.0.0.1:1",
      "--broker-restart"], "leave out --broker"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle):
    p = _cli(*args)
    assert p.returncode == 2 and needle in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("profile", ["sichuan-mpl2025", "riichi-ema2016"])
def test_whole_simulated_tournament_16_players_4_sessions(profile, tmp_path):
    """16 players, 4 sessions of bots: every result once at the hall, the hall's totals equal the tables'
    own records, every player ranked over 4 sessions, and nobody meets anybody twice."""
    _need_mosquitto()
    rep = run(4, 4, profile, 11, workdir=tmp_path, max_hands=scaled(3, None), broker_restart=True)
    assert rep.ok and rep.lost == 0 and rep.duplicated == 0 and not rep.mismatched
    assert rep.sent == rep.ingested > 0 and rep.broker_restarts == 1
    assert len(rep.ranking) == 16 and all(r.sessions == 4 for r in rep.ranking)
    ranks = [r.rank for r in rep.ranking]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_simulate_against_an_existing_broker(broker):
    p = _cli("--tables", "2", "--sessions", "1", "--profile", "mcr", "--seed", "5", "--broker", broker.url,
             "--max-hands", "2", "-q")
    assert p.returncode == 0, p.stderr
    assert LINE.match(p.stdout.strip().splitlines()[-1]).groups() == ("4", "4", "0", "0")
