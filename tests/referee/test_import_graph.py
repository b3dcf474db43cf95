"""The camera referee's import graph and shape (issue #31): no import cycles among ``controller.referee``'s
modules, no private names across modules, no function over 50 lines and no file over 500 lines in the
referee proper (``controller/referee/*.py``; its simulation in ``sim/`` is checked for cycles and private
names only).

Every ``import`` and ``from ... import`` statement counts — at the top, inside a function, under
``TYPE_CHECKING`` — and importing ``a.b.c`` imports the packages ``a`` and ``a.b`` first.
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.rules.test_import_graph import _cycles, _long_functions

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "controller" / "referee"
MAX_FILE_LINES = 500


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(PACKAGE.rglob("*.py")):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _imports(path: Path) -> list[tuple[str, list[tuple[str, str]], int]]:
    """(module, [(name, bound as)] imported from it, line) of every import statement of the file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, [(a.name, a.asname or a.name) for a in node.names], node.lineno))
    return out


def _targets(name: str) -> list[str]:
    parts = name.split(".")
    return [m for i in range(1, len(parts) + 1) if (m := ".".join(parts[:i])) in MODULES]


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, path in MODULES.items():
        for mod, names, _ in _imports(path):
            graph[m].update(_targets(mod))
            for n, _as in names:
                graph[m].update(_targets(f"{mod}.{n}"))
        graph[m].discard(m)
    return graph


def test_the_graph_sees_the_referee():
    g = _graph()
    assert len(MODULES) > 20
    assert "controller.referee.dispatch" in g["controller.referee.core"]
    assert "controller.referee.state" in g["controller.referee.ponds"]


def test_no_import_cycles_in_the_referee():
    assert _cycles(_graph()) == []


def _private_uses(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        ours: set[str] = set()
        for mod, names, line in _imports(path):
            if mod.split(".")[0] not in ("controller", "rules", "vision", "firmware_bridge", "hall"):
                continue
            found += [f"{path.name}:{line}: from {mod} import {n}" for n, _ in names
                      if n.startswith("_") and not n.startswith("__")]
            ours |= {asname for n, asname in names if f"{mod}.{n}" in MODULES or mod.startswith("controller.")}
        for n in ast.walk(tree):
            if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in ours
                    and n.attr.startswith("_") and not n.attr.startswith("__")):
                found.append(f"{path.name}:{n.lineno}: {n.value.id}.{n.attr}")
    return found


def test_no_private_names_across_modules():
    """Neither imported (``from m import _x``) nor reached through a module of ours (``m._x``)."""
    assert _private_uses(list(MODULES.values())) == []


def test_no_function_in_the_referee_over_50_lines():
    assert _long_functions(sorted(PACKAGE.glob("*.py"))) == []


def test_no_file_in_the_referee_over_500_lines():
    long = {p.name: n for p in PACKAGE.glob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES}
    assert long == {}


def test_a_private_name_across_modules_is_found(tmp_path):
    (tmp_path / "a.py").write_text("from controller.referee import effects\nfrom rules.x import _y\nx = effects._hidden\n")
    assert _private_uses([tmp_path / "a.py"]) == ["a.py:2: from rules.x import _y", "a.py:3: effects._hidden"]
