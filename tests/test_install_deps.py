"""tools/install_deps.sh, the step `make test`, `make run` and .ci/run take first on a fresh machine: it finds what is
missing and installs it as root (apt-get update first), else names the exact command in one line and exits 2.
Probed in a throwaway root with a fake python3 and a fake apt-get: nothing on this machine is touched."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tools" / "install_deps.sh"
EVERYTHING = ("/usr/sbin/mosquitto", "/usr/bin/chromium", "/usr/bin/systemd-analyze", "/usr/bin/certutil")


def _exe(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


@pytest.fixture
def machine(tmp_path):
    """A fresh machine: an empty root, a python3 with venv (or not), an apt-get that logs what it is asked."""
    root = tmp_path / "root"
    root.mkdir()
    log = tmp_path / "apt.log"
    apt = _exe(tmp_path / "bin" / "apt-get", f'echo "$*" >> "{log}"\n[ "$1" != update ] || exit "${{APT_UPDATE_RC:-0}}"\n')

    def run(*args: str, uid: int = 0, venv: bool = True, have: tuple[str, ...] = (), **env: str):
        for p in have:
            _exe(root / p.lstrip("/"), "exit 0\n")
        py = _exe(tmp_path / "bin" / "python3", "exit 0\n" if venv else "exit 1\n")
        e = {**{k: v for k, v in os.environ.items() if k != "MT_ALLOW_MISSING"}, "MT_DEPS_ROOT": str(root),
             "MT_DEPS_PYTHON": str(py), "MT_DEPS_UID": str(uid), "MT_APT_GET": str(apt), **env}
        p = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=e, timeout=60)
        calls = log.read_text().splitlines() if log.exists() else []
        return p, calls

    return run


def test_as_root_it_updates_then_installs_what_is_missing(machine):
    p, calls = machine(venv=False)
    assert p.returncode == 0, p.stderr
    assert calls == ["update -q", "install -y -q python3-venv mosquitto chromium systemd libnss3-tools"]
    assert "installing Debian packages: python3-venv mosquitto chromium systemd libnss3-tools" in p.stdout


def test_only_the_missing_packages_are_installed(machine):
    p, calls = machine(have=("/usr/bin/chromium", "/usr/bin/systemd-analyze", "/usr/bin/certutil"))
    assert p.returncode == 0 and calls == ["update -q", "install -y -q mosquitto"]


def test_nothing_missing_is_silent_and_installs_nothing(machine):
    p, calls = machine(have=EVERYTHING)
    assert (p.returncode, p.stdout, p.stderr, calls) == (0, "", "", [])


def test_not_root_names_the_exact_command_in_one_line_and_exits_2(machine):
    p, calls = machine(uid=1000, have=("/usr/bin/systemd-analyze", "/usr/bin/certutil"))
    assert p.returncode == 2 and calls == [] and p.stdout == ""
    assert p.stderr.count("\n") == 1
    assert p.stderr == ("mahjong-table: error: missing Debian packages (mosquitto chromium): run  sudo apt-get update "
                        "&& sudo apt-get install -y mosquitto chromium\n")


def test_a_failed_update_installs_nothing(machine):
    p, calls = machine(APT_UPDATE_RC="100")
    assert p.returncode == 100 and calls == ["update -q"]


def test_make_run_needs_only_python_venv(machine):
    p, calls = machine("run", venv=False)
    assert p.returncode == 0 and calls == ["update -q", "install -y -q python3-venv"]
    p, calls = machine("run")
    assert p.returncode == 0 and calls == ["update -q", "install -y -q python3-venv"], "nothing more was needed"


def test_a_tool_allowed_missing_is_left_out(machine):
    p, calls = machine(uid=1000, MT_ALLOW_MISSING="chromium,systemd-analyze,certutil")
    assert p.returncode == 2 and "sudo apt-get install -y mosquitto\n" in p.stderr and "chromium" not in p.stderr


def test_bad_argument_is_one_line_and_exit_2(machine):
    p, _ = machine("everything")
    assert p.returncode == 2 and p.stderr.count("\n") == 1


def test_make_and_ci_take_this_step():
    make = (ROOT / "Makefile").read_text()
    assert "\ttest: deps" not in make and "\ntest: deps " in make and "\nrun: deps-run " in make
    assert "\t@MT_DEPS_PYTHON=$(PY) bash tools/install_deps.sh test\n" in make
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash tools/install_deps.sh test" in ci and "need+=" not in ci
