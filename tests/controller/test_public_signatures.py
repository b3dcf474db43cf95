"""The referee, the page and the table service take and return real types (issue #31): no ``Any`` in the
signature of a public function or method of ``controller/referee`` (its simulation too), ``controller/web``,
the service and its jobs, the play sources — a JSON object is ``rules.events.JSONObject``, a collaborator a
Protocol (``controller.web.served.ServedTable``, ``controller.play_source.PlayTable``), a result a TypedDict
(``controller.play_source.HandResult``). ``mypy --strict`` checks the rest (``make lint``).

The camera referee's feed and the page's camera and layout views are vision's (typed with it); its reader
(``referee/camera.py``) and the table's set learning (``set_learning.py``) are checked here too."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTROLLER = ROOT / "controller"
VISIONS = {"referee/feed.py", "web/camera_view.py", "web/layout_view.py"}


def _files() -> list[Path]:
    out = sorted((CONTROLLER / "referee").rglob("*.py")) + sorted((CONTROLLER / "web").glob("*.py"))
    out += [CONTROLLER / f for f in ("service.py", "table_cycle.py", "table_devices.py", "table_recovery.py",
                                     "table_snapshot.py", "play_source.py", "play_sources.py", "set_learning.py")]
    return [p for p in out if p.relative_to(CONTROLLER).as_posix() not in VISIONS]


def _any_in_public_signatures(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line name`` of each public function or method whose parameters or return mention ``Any``."""
    found: list[str] = []

    def walk(node: ast.AST, private: bool) -> None:
        for n in ast.iter_child_nodes(node):
            if isinstance(n, ast.ClassDef):
                walk(n, private or n.name.startswith("_"))
            elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef):
                dunder = n.name.startswith("__") and n.name.endswith("__")
                if private or (n.name.startswith("_") and not dunder):
                    continue
                a = n.args
                anns = [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs]
                anns += [a.vararg.annotation if a.vararg else None, a.kwarg.annotation if a.kwarg else None]
                if any(ann is not None and "Any" in ast.unparse(ann) for ann in [*anns, n.returns]):
                    found.append(f"{path.relative_to(root)}:{n.lineno} {n.name}")

    walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def test_the_files_are_found():
    files = {p.relative_to(CONTROLLER).as_posix() for p in _files()}
    assert {"referee/core.py", "referee/sim/play.py", "web/judge.py", "service.py", "play_source.py",
            "referee/camera.py", "set_learning.py"} <= files
    assert not files & VISIONS


def test_no_any_in_public_signatures():
    assert [f for p in _files() for f in _any_in_public_signatures(p)] == []


def test_the_check_finds_any(tmp_path):
    (tmp_path / "m.py").write_text("from typing import Any\n\ndef f(x: Any) -> int:\n    return 1\n\n"
                                   "def _g(x: Any) -> Any:\n    return x\n\nclass C:\n"
                                   "    def h(self) -> dict[str, Any]:\n        return {}\n")
    assert [x.split()[-1] for x in _any_in_public_signatures(tmp_path / "m.py", tmp_path)] == ["f", "h"]
