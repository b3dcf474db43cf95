"""systemd/install.sh re-run on a table: the new program is built in a venv beside the running one and the
table switches to it only once it installed and imports; a failed re-run (no network, a broken wheel, a
picamera2 that does not import) leaves the program installed before working. Runs the script's own functions
(MT_INSTALL_FUNCTIONS=1) with a fake python3 whose venvs log what they are asked; nothing is installed."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"

FAKE_PYTHON = r"""#!/bin/bash
# python3 -m venv --system-site-packages DIR: a venv whose python logs its calls and fails where told
[ "$1 $2" = "-m venv" ] || exit 9
dir="${@: -1}"
mkdir -p "$dir/bin"
cat > "$dir/bin/python" <<'PY'
#!/bin/bash
echo "$0 $*" >> "$FAKE_LOG"
case "$1 $2" in
  "-m pip") [ "${FAKE_PIP_RC:-0}" = 0 ] || { echo "ERROR: network is unreachable" >&2; exit "$FAKE_PIP_RC"; } ;;
  "-c import picamera2") [ "${FAKE_PICAMERA_RC:-0}" = 0 ] || { echo "ValueError: numpy.dtype size changed" >&2; exit 1; } ;;
  -c*) exit "${FAKE_IMPORT_RC:-0}" ;;
esac
exit 0
PY
printf '#!/bin/sh\necho "mahjong-table from %s"\n' "$dir" > "$dir/bin/mahjong-table"
chmod +x "$dir/bin/python" "$dir/bin/mahjong-table"
"""


@pytest.fixture
def install(tmp_path):
    py = tmp_path / "python3"
    py.write_text(FAKE_PYTHON)
    py.chmod(0o755)
    dest = tmp_path / "opt"
    dest.mkdir()
    log = tmp_path / "calls.log"

    def run(picamera: int = 0, **env: str) -> subprocess.CompletedProcess:
        script = f'MT_INSTALL_FUNCTIONS=1 source "{INSTALL}"; install_program "{dest}" "{ROOT}" {picamera}'
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "MT_PYTHON": str(py), "FAKE_LOG": str(log), **env})

    run.dest = dest  # type: ignore[attr-defined]
    run.log = log  # type: ignore[attr-defined]
    return run


def current(dest: Path) -> str:
    """What the unit's ExecStart (/opt/mahjong-table/.venv/bin/mahjong-table) runs now."""
    return subprocess.run([str(dest / ".venv" / "bin" / "mahjong-table")], capture_output=True, text=True).stdout


def test_a_fresh_install_points_the_units_path_at_the_new_venv(install):
    p = install()
    assert p.returncode == 0, p.stderr
    venvs = sorted((install.dest / "venvs").iterdir())
    assert len(venvs) == 1 and (install.dest / ".venv").is_symlink()
    assert current(install.dest) == f"mahjong-table from {venvs[0]}\n"


@pytest.mark.parametrize("failure", [{"FAKE_PIP_RC": "1"}, {"FAKE_IMPORT_RC": "1"}])
def test_a_failed_rerun_leaves_the_old_program_working(install, failure):
    assert install().returncode == 0
    before = current(install.dest)
    p = install(**failure)
    assert p.returncode != 0
    assert "the one installed before is left as it was" in p.stderr
    assert current(install.dest) == before, "the table still runs the program installed before"
    assert len(list((install.dest / "venvs").iterdir())) == 1, "the half-built venv is removed"


def test_a_rerun_switches_and_keeps_one_previous_venv(install):
    for _ in range(3):
        assert install().returncode == 0
    venvs = sorted((install.dest / "venvs").iterdir())
    assert len(venvs) == 2, "the current venv and the one before it (to go back to)"
    assert current(install.dest) == f"mahjong-table from {os.readlink(install.dest / '.venv')}\n"
    assert Path(os.readlink(install.dest / ".venv")) in venvs


def test_the_layout_before_venvs_is_replaced(install):
    old = install.dest / ".venv" / "bin"
    old.mkdir(parents=True)
    (old / "mahjong-table").write_text("#!/bin/sh\necho old\n")
    (old / "mahjong-table").chmod(0o755)
    p = install()
    assert p.returncode == 0, p.stderr
    assert (install.dest / ".venv").is_symlink() and current(install.dest).startswith("mahjong-table from ")


def test_the_pi_camera_gets_a_numpy2_simplejpeg_and_must_import(install):
    assert install(picamera=1).returncode == 0
    calls = install.log.read_text()
    assert re.search(r"-m pip install -q simplejpeg>=1\.8\n", calls)
    assert "-c import picamera2\n" in calls
    before = current(install.dest)
    p = install(picamera=1, FAKE_PICAMERA_RC="1")
    assert p.returncode != 0 and "picamera2 does not import" in p.stderr
    assert current(install.dest) == before
    install.log.write_text("")
    assert install(picamera=0).returncode == 0
    assert "picamera2" not in install.log.read_text() and "simplejpeg" not in install.log.read_text()


def test_the_script_never_deletes_the_running_venv_and_hides_no_apt_failure():
    text = INSTALL.read_text()
    assert 'rm -rf "$dest/.venv"' not in text
    apt = [line for line in text.splitlines() if re.match(r"\s*apt-get install", line)]
    assert len(apt) == 1 and "--no-install-recommends" in apt[0] and "||" not in apt[0] and ">/dev/null" not in apt[0]
    assert text.index("apt-get update") < text.index("apt-get install")
    assert "python3-picamera2" in text
