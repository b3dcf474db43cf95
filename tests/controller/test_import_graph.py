"""The import graphs of ``controller`` and ``vision`` (issue #31): no import cycles among their modules.

An import counts when it runs as the module loads: every ``import`` and ``from ... import`` statement
outside a function or class body — at the top, under ``if``/``try``, and under ``TYPE_CHECKING`` (a
circle a type checker walks is still a circle) — and importing ``a.b.c`` imports the packages ``a`` and
``a.b`` first (their ``__init__``), as at run time. The imports inside functions (the CLI's and the
service's deferred imports, kept so that ``--help`` stays fast) are counted too, by a test of their own: no
import circle either way, among the modules of ``controller/cli/`` (the commands' shared helpers live in
``controller/cli/common.py``) nor anywhere else (a play source plugs into the service through
``controller/play_source.py``, never the service itself; the page's package ``controller/web`` imports none
of its modules, so its PIN check or its judge's actions do not load its routes).
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.rules.test_import_graph import _cycles, graph_of, modules_of, reaches

MODULES = modules_of("controller", "vision")


def _statements(node: ast.AST, deferred: bool) -> Iterator[ast.AST]:
    """The statements under ``node``; without ``deferred``, not those inside a function or class body."""
    for child in ast.iter_child_nodes(node):
        if not deferred and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        yield child
        yield from _statements(child, deferred)


def _imports(path: Path, deferred: bool = False) -> list[tuple[str, list[str]]]:
    """(module, names imported from it) of the file's import statements (absolute imports only)."""
    out: list[tuple[str, list[str]]] = []
    for node in _statements(ast.parse(path.read_text(encoding="utf-8")), deferred):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, [a.name for a in node.names]))
    return out


def _graph(deferred: bool = False) -> dict[str, set[str]]:
    return graph_of(MODULES, lambda path: _imports(path, deferred))


def test_the_graph_sees_controller_and_vision():
    g = _graph()
    assert len(MODULES) > 100
    assert "vision.tileset" in g["vision.enrollment"] and "vision.tile_labels" in g["vision.tileset"]
    assert "controller.hall_link" in g["controller.hall_link.link"]  # a module imports its package first
    assert "controller.cli.common" in g["controller.cli.hall"]


def test_no_import_cycles_in_controller_and_vision():
    assert _cycles(_graph()) == []


def test_no_import_cycles_counting_deferred_imports():
    """Every import, the ones inside functions too: no circle at all (the service, the page, the referee's
    session and the replay once reached each other through deferred imports, 11 modules)."""
    assert _cycles(_graph(deferred=True)) == []


def test_a_play_source_does_not_import_the_service():
    """The referee's session plugs into the service through the play source's interface."""
    g = _graph(deferred=True)
    assert "controller.play_source" in g["controller.referee.session"]
    assert not reaches(g, "controller.referee.session", "controller.service")
    assert not reaches(g, "controller.play_source", "controller.service")


def test_the_cycles_the_issue_named_are_gone():
    """Counting every import, deferred ones too: the tile set does not reach the classifier's module,
    ``hall provision`` does not reach ``hall``."""
    g = _graph(deferred=True)
    for a, b in [("vision.tile_classifier", "vision.tileset"), ("controller.cli.hall", "controller.cli.hall_provision"),
                 ("controller.hall_link", "controller.hall_link.link")]:
        assert not (reaches(g, a, b) and reaches(g, b, a)), (a, b)


def test_no_import_cycles_among_the_commands_counting_deferred_imports():
    """The CLI imports lazily (``--help`` stays fast), so its circles hide in functions: none there either."""
    g = _graph(deferred=True)
    cli = {m: g[m] & {n for n in MODULES if n.startswith("controller.cli")} for m in MODULES
           if m.startswith("controller.cli")}
    assert _cycles(cli) == []
