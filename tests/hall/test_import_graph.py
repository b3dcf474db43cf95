"""The hall's import graph: no circle among its modules, deferred imports (inside functions) counted too — the
standings read the sanctions (``hall.regulations``), which read the tables' judge streams through
``hall.judge_stream``, never the standings back (issue #34)."""
from __future__ import annotations

from tests.controller.test_import_graph import _imports
from tests.rules.test_import_graph import _cycles, graph_of, modules_of, reaches

MODULES = modules_of("hall")


def test_no_import_cycles_in_the_hall_counting_deferred_imports() -> None:
    g = graph_of(MODULES, lambda path: _imports(path, True))
    assert "hall.regulations" in g["hall.standings"] and "hall.judge_stream" in g["hall.regulations"]
    assert not reaches(g, "hall.regulations", "hall.standings")
    assert _cycles(g) == []
