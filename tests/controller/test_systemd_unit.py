"""The systemd unit verifies and meets its hardening goal (exposure <= 2.5); CI installs systemd-analyze."""
import os
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


def service_directives(text: str) -> dict[str, list[str]]:
    """The [Service] section's directives: name -> values in order (a directive may repeat)."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line:
            k, v = line.split("=", 1)
            out.setdefault(k.strip(), []).append(v.strip())
    return out


def proc_mount_options(text: str) -> str:
    """How systemd mounts /proc for the unit (ProtectProc= -> hidepid=, ProcSubset= -> subset=)."""
    d = service_directives(text)
    opts = []
    if d.get("ProtectProc", ["default"])[-1] in ("invisible", "noaccess", "ptraceable"):
        opts.append("hidepid=" + d["ProtectProc"][-1])
    if d.get("ProcSubset", ["all"])[-1] == "pid":
        opts.append("subset=pid")
    return ",".join(opts) or "defaults"


def test_the_unit_leaves_the_board_readable_in_proc():
    """gpiozero's pin factories read the board revision from /proc/device-tree/system/linux,revision or
    /proc/cpuinfo (LGPIOFactory picks the Pi 5's gpiochip by it); ProcSubset=pid hides both."""
    d = service_directives(UNIT.read_text())
    assert d.get("ProcSubset", ["all"])[-1] != "pid", "ProcSubset=pid hides /proc/cpuinfo and /proc/device-tree"
    assert not any("/proc" in v or "/sys/firmware" in v for k in ("InaccessiblePaths", "TemporaryFileSystem")
                   for v in d.get(k, [])), "the unit hides the board's description"
    assert proc_mount_options("[Service]\nProcSubset=pid\n") == "subset=pid", "the check reads the directive"


PROBE = """
import errno, json
from gpiozero.pins.local import get_pi_revision
from controller import board
out = {"cpuinfo": __import__("os").path.exists("/proc/cpuinfo"), "model": board.model()}
try:
    out["revision"] = get_pi_revision()
except FileNotFoundError as exc:
    out["revision"] = "FileNotFoundError: " + str(exc)
except Exception as exc:  # a PC: /proc/cpuinfo read, no Raspberry Pi revision in it
    out["revision"] = type(exc).__name__
print(json.dumps(out))
"""


def probe_under(options: str) -> dict:
    """Read the board as the service does, in a mount namespace whose /proc is mounted as the unit's."""
    import json
    import sys

    script = f'mount -t proc -o "{options}" proc /proc && exec "{sys.executable}" -c "$PROBE"'
    p = subprocess.run(["unshare", "--mount", "--pid", "--fork", "--mount-proc", "sh", "-c", script],
                       capture_output=True, text=True, timeout=60, cwd=ROOT, env={**os.environ, "PROBE": PROBE})
    if p.returncode != 0 and ("Operation not permitted" in p.stderr or "permission denied" in p.stderr.lower()):
        need("unshare", f"cannot make a mount namespace here ({p.stderr.strip().splitlines()[-1]})")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_the_board_is_read_under_the_units_own_view_of_proc():
    seen = probe_under(proc_mount_options(UNIT.read_text()))
    assert seen["cpuinfo"], "the unit's /proc has no cpuinfo: gpiozero cannot tell the board"
    assert not str(seen["revision"]).startswith("FileNotFoundError"), seen
    hidden = probe_under("subset=pid")  # what the unit did before: the probe sees the failure a Pi saw
    assert not hidden["cpuinfo"] and str(hidden["revision"]).startswith("FileNotFoundError"), hidden
