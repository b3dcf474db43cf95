"""The hall and the table's side of it are typed (issue #31): ``make lint`` runs ``mypy --strict`` over ``hall/``,
``controller/hall_link/`` and ``controller/replay.py`` (pyproject's ``[tool.mypy] files``), and no public function
there takes or returns ``Any`` — the JSON between a table and the hall is typed where it is parsed
(``hall/messages.py``'s TypedDicts); what stays ``Any`` is the database's row (``hall.db.Row``) and a request's JSON
read field by field where it is parsed (private functions)."""
from __future__ import annotations

import tomllib
from pathlib import Path

from tests import signatures

ROOT = Path(__file__).resolve().parents[2]
TYPED = ("hall", "controller/hall_link", "controller/replay.py")


def _files() -> list[Path]:
    out: list[Path] = []
    for part in TYPED:
        p = ROOT / part
        out += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return out


def public_any(paths: list[Path], root: Path = ROOT) -> list[str]:
    return signatures.public_any(paths, root)


def test_make_lint_checks_them_strictly() -> None:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True
    files = mypy["files"]
    assert all(any(part == f or part.startswith(f + "/") for f in files) for part in TYPED), files
    ignored = {m for o in mypy.get("overrides", []) if o.get("ignore_errors") for m in o["module"]}
    assert not {m for m in ignored if m.startswith(("hall", "controller.hall_link", "controller.replay"))}


def test_no_any_in_their_public_signatures() -> None:
    files = _files()
    assert len(files) > 30
    assert public_any(files) == []


def test_the_check_sees_an_any(tmp_path: Path) -> None:
    """(The check itself: a public ``Any`` is found, a private one is not.)"""
    probe = tmp_path / "probe.py"
    probe.write_text("from typing import Any\n\ndef f(x: Any) -> int: ...\n\ndef _g(x: Any) -> Any: ...\n\n"
                     "class C:\n    def m(self) -> dict[str, Any]: ...\n", encoding="utf-8")
    assert [x.rsplit(":", 1)[1] for x in public_any([probe], tmp_path)] == ["3 f", "8 m"]
