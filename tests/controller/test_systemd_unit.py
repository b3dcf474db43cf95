"""The systemd unit verifies and meets its hardening goal (exposure <= 2.5); CI installs systemd-analyze."""
import re
import shutil
import subprocess
from pathlib import Path

from tests.needs import need

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "mahjong-table.service"


def test_unit_declares_what_the_service_relies_on():
    text = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "StateDirectory=mahjong-table",
                 "ProtectSystem=strict", "NoNewPrivileges=yes", "DeviceAllow=char-gpiochip rw", "User=mahjong"):
        assert line in text, line
    assert "ExecStart=/opt/mahjong-table/.venv/bin/mahjong-table serve" in text


def test_systemd_analyze_verify_and_exposure():
    if shutil.which("systemd-analyze") is None:
        need("systemd-analyze", "systemd-analyze is missing (Debian's systemd package)")
    p = subprocess.run(["bash", str(ROOT / "systemd" / "check.sh")], capture_output=True, text=True, timeout=120)
    m = re.search(r"exposure ([0-9.]+)", p.stdout)
    assert m, p.stdout + p.stderr
    assert float(m.group(1)) <= 2.5
    assert p.returncode == 0, p.stdout
