"""The technician's CLI: ``mahjong-table table ...`` and ``mahjong-table emulator``."""
from __future__ import annotations

import json
import subprocess
import sys

from controller.cli import main


def test_status_json_against_the_emulator(capsys):
    assert main(["table", "status", "--emulator", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["boot_counter"] == 1 and info["tile_sets"] == [108, 136, 144, 148]
    assert info["side_lifts"] == ["down"] * 4


def test_shuffle_prints_the_walls(capsys):
    assert main(["table", "shuffle", "--emulator", "--time-scale", "1000", "--tiles", "108"]) == 0
    out = capsys.readouterr()
    assert "walls built: 14, 13, 14, 13 stacks per side" in out.out
    assert "54/54" in out.err  # the progress bar reached the end


def test_a_fault_is_readable(capsys):
    rc = main(["table", "raise", "--emulator", "--time-scale", "1000", "--inject", "jam 2"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "lift did not reach its limit switch" in out and "lift2" in out and "Traceback" not in out


def test_estop_and_dice(capsys):
    assert main(["table", "estop", "--emulator"]) == 0
    assert main(["table", "dice", "--emulator", "--time-scale", "1000"]) == 0
    assert "dice rolled" in capsys.readouterr().out


def test_user_errors_are_one_line(capsys):
    assert main(["table", "status", "--port", "/dev/no-such-table", "--timeout", "0.2"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mahjong-table: error: no serial port /dev/no-such-table") and "\n" not in err
    assert main(["table", "shuffle", "--emulator", "--stacks", "1,2,3"]) == 2
    assert main(["table", "status", "--port", "x", "--inject", "jam 1"]) == 2


def test_emulator_command_serves_the_table_command():
    proc = subprocess.Popen([sys.executable, "-m", "controller", "emulator", "--tcp", "0", "--time-scale", "1000"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("emulated table MCU listening on socket://127.0.0.1:")
        url = first.split()[-1]
        proc.stdin.write("jam 1\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip().startswith("type 'help'")
        assert proc.stdout.readline().strip() == "ok"
        done = subprocess.run([sys.executable, "-m", "controller", "table", "raise", "--port", url],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and "lift1" in done.stdout
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
