"""The rules engine's import graph: no cycles, no private names across modules, nothing of ours above it.

Every ``import`` and ``from ... import`` statement counts — at the top, inside a function, under
``TYPE_CHECKING`` — and importing ``a.b.c`` imports the packages ``a`` and ``a.b`` first (their
``__init__``), as at run time.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from pathlib import Path

from tests.signatures import public_any

ROOT = Path(__file__).resolve().parents[2]
PARTS_ABOVE = ("controller", "vision", "firmware_bridge", "hall", "tests", "bench")


def modules_of(*packages: str) -> dict[str, Path]:
    """The dotted name and file of every module of the packages (a package is its ``__init__``)."""
    out = {}
    for pkg in packages:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(p.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = p
    return out


MODULES = modules_of("rules")


def _imports(path: Path) -> list[tuple[str, list[str], int]]:
    """(module, names imported from it, line) of every import statement of the file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, [a.name for a in node.names], node.lineno))
    return out


def graph_of(modules: dict[str, Path], imports: Callable[[Path], Iterable[tuple[str, Iterable[str]]]]
             ) -> dict[str, set[str]]:
    """Which of ``modules`` each of them imports: ``imports(path)`` gives (module, names imported from it) of
    a file's import statements; importing ``a.b.c`` imports the packages ``a`` and ``a.b`` first."""
    def targets(name: str) -> list[str]:
        parts = name.split(".")
        return [m for i in range(1, len(parts) + 1) if (m := ".".join(parts[:i])) in modules]

    graph: dict[str, set[str]] = {m: set() for m in modules}
    for m, path in modules.items():
        for mod, names in imports(path):
            graph[m].update(targets(mod))
            for n in names:
                graph[m].update(targets(f"{mod}.{n}"))
        graph[m].discard(m)
    return graph


def _graph() -> dict[str, set[str]]:
    return graph_of(MODULES, lambda path: [(mod, names) for mod, names, _ in _imports(path)])


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_the_engine():
    g = _graph()
    assert len(MODULES) > 100
    assert "rules.game.state" in g["rules.game.machine"] and "rules.tiles" in g["rules.notation"]


def test_no_import_cycles_in_the_rules_engine():
    assert _cycles(_graph()) == []


def reaches(graph: dict[str, set[str]], a: str, b: str) -> bool:
    """Whether module ``a`` imports ``b``, directly or through others."""
    seen, todo = set(), [a]
    while todo:
        x = todo.pop()
        if x == b:
            return True
        if x not in seen:
            seen.add(x)
            todo.extend(graph[x])
    return False


def test_the_cycles_the_issue_named_are_gone():
    g = _graph()
    for a, b in [("rules.game.profile_api", "rules.profiles.base"), ("rules.siamese_play", "rules.simulate"),
                 ("rules.profiles.riichi", "rules.profiles.riichi.profile")]:
        assert not (reaches(g, a, b) and reaches(g, b, a)), (a, b)


def test_a_cycle_is_found_when_there_is_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def test_no_private_names_imported_across_modules():
    for path in MODULES.values():
        for mod, names, line in _imports(path):
            if mod.split(".")[0] != "rules":
                continue
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{path.relative_to(ROOT)}:{line}: from {mod} import {', '.join(private)}"


def test_rules_imports_nothing_of_ours_above_it():
    for path in MODULES.values():
        for mod, _, line in _imports(path):
            assert mod.split(".")[0] not in PARTS_ABOVE, f"{path.relative_to(ROOT)}:{line}: imports {mod}"


def test_no_any_in_public_signatures():
    """Public functions and methods of ``rules`` take and return real types (mypy --strict checks the
    rest, ``make lint``)."""
    assert public_any(MODULES.values(), ROOT) == []



MAX_LINES = 50  # issue #21: the hand machine stays flat


def _long_functions(paths: list[Path], limit: int = MAX_LINES) -> list[tuple[str, str, int]]:
    """(file name, function, its length in lines) of every function longer than ``limit``."""
    out = []
    for path in paths:
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.end_lineno is not None:
                length = n.end_lineno - n.lineno + 1
                if length > limit:
                    out.append((path.name, n.name, length))
    return out


def test_no_function_in_the_hand_machine_over_50_lines():
    game = sorted((ROOT / "rules" / "game").glob("*.py"))
    assert len(game) > 5
    assert _long_functions(game) == []


def test_the_length_check_finds_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "long.py").write_text(f"def f():\n{body}\n")
    (tmp_path / "short.py").write_text("def g():\n    return 1\n")
    assert _long_functions([tmp_path / "long.py", tmp_path / "short.py"]) == [("long.py", "f", MAX_LINES + 1)]
