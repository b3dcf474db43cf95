"""systemd/README.md, the technician's page: every `$mt ...` command it gives exists, with the options it uses,
and the install options it names are the script's."""
from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "systemd" / "README.md").read_text()


@cache
def help_of(words: tuple[str, ...]) -> str:
    p = subprocess.run([sys.executable, "-m", "controller", *words, "--help"], capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    assert p.returncode == 0, f"mahjong-table {' '.join(words)} --help: {p.stderr}"
    return p.stdout


def commands() -> list[tuple[tuple[str, ...], list[str]]]:
    out = []
    for m in re.finditer(r"\$mt ([^`\n]*)", PAGE):
        rest = m.group(1).split("#")[0]
        words = []
        for w in rest.split():
            if not re.fullmatch(r"[a-z][a-z-]*", w):
                break
            words.append(w)
        out.append((tuple(words), re.findall(r"(?<![\w-])--[a-z][a-z-]*", rest)))
    return out


def test_every_command_on_the_page_exists_with_its_options():
    found = commands()
    assert len(found) >= 15
    for words, options in found:
        text = help_of(words)
        for opt in options:
            assert opt in text, f"mahjong-table {' '.join(words)} has no {opt}"


def test_the_install_options_on_the_page_are_the_scripts():
    p = subprocess.run(["bash", str(ROOT / "systemd" / "install.sh"), "--help"], capture_output=True, text=True)
    for opt in set(re.findall(r"install\.sh[^`\n]*", PAGE)):
        for o in re.findall(r"(?<![\w-])--[a-z][a-z-]*", opt):
            assert o in p.stdout, o
    for o in ("--camera", "--serial", "--language", "--profile", "--no-start"):
        assert f"`{o}" in PAGE and o in p.stdout
