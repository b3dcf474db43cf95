"""The referee, the page and the table service take and return real types (issue #31): no ``Any`` in the
signature of a public function or method of ``controller/referee`` (its simulation too), ``controller/web``,
the service and its jobs, the play sources — a JSON object is ``rules.events.JSONObject``, a collaborator a
Protocol (``controller.web.served.ServedTable``, ``controller.play_source.PlayTable``), a result a TypedDict
(``controller.play_source.HandResult``). ``mypy --strict`` checks the rest (``make lint``).

Since every package is typed, the check covers all of ``controller/``, ``vision/``, ``firmware_bridge/`` and
``config_engine/`` (``hall/``: tests/hall/test_types.py); a JSON edge that takes decoded JSON as it comes is
named in :data:`JSON_EDGES` with its reason."""
from __future__ import annotations

from pathlib import Path

from tests.signatures import public_any

ROOT = Path(__file__).resolve().parents[2]
CONTROLLER = ROOT / "controller"
PACKAGES = ("controller", "vision", "firmware_bridge", "config_engine")
#: ``file function``: why its signature may say ``Any`` (decoded JSON where it is parsed, typed right after)
JSON_EDGES: dict[str, str] = {
    "vision/calibration.py from_json": "a calibration file's decoded JSON, checked field by field",
    "config_engine/schema.py flatten": "decoded TOML (tomllib gives dict[str, Any]), flattened into checked keys",
}


def _files() -> list[Path]:
    return [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]


def _any_in_public_signatures(path: Path, root: Path = ROOT) -> list[str]:
    return public_any([path], root)


def test_the_files_are_found():
    files = {p.relative_to(CONTROLLER).as_posix() for p in _files() if p.is_relative_to(CONTROLLER)}
    assert {"referee/core.py", "referee/sim/play.py", "web/judge.py", "service.py", "play_source.py",
            "referee/camera.py", "set_learning.py", "referee/feed.py", "web/camera_view.py", "web/layout_view.py",
            "cli/score.py", "backends/mcu.py"} <= files
    assert {"vision/tile_reader.py", "vision/train/photoreal.py", "firmware_bridge/link.py",
            "config_engine/schema.py"} <= {p.relative_to(ROOT).as_posix() for p in _files()}


def test_no_any_in_public_signatures():
    found = [f for p in _files() for f in _any_in_public_signatures(p)]
    assert [f for f in found if f"{f.split(':')[0]} {f.split()[-1]}" not in JSON_EDGES] == []


def test_the_check_finds_any(tmp_path):
    (tmp_path / "m.py").write_text("from typing import Any\n\ndef f(x: Any) -> int:\n    return 1\n\n"
                                   "def _g(x: Any) -> Any:\n    return x\n\nclass C:\n"
                                   "    def h(self) -> dict[str, Any]:\n        return {}\n")
    assert [x.split()[-1] for x in _any_in_public_signatures(tmp_path / "m.py", tmp_path)] == ["f", "h"]
