"""``hall director-password NAME``: the line it prints, put under ``[directors.users]`` as docs/hall.md says,
is a login the hall config accepts and the dashboard checks."""
from __future__ import annotations

import subprocess
import sys

from hall.auth import check_password
from hall.config import load


def test_the_printed_line_is_a_login_under_directors_users(tmp_path):
    out = subprocess.run([sys.executable, "-m", "controller", "hall", "director-password", "chief",
                          "--password", "a-long-secret"], capture_output=True, text=True, check=True).stdout
    line = out.strip()
    assert line.startswith('chief = "')
    cfg_file = tmp_path / "hall.toml"
    cfg_file.write_text(f"[directors.users]\n{line}\n", encoding="utf-8")
    cfg = load(cfg_file)
    assert check_password("a-long-secret", cfg.directors.users["chief"])
    assert not check_password("another-secret", cfg.directors.users["chief"])
