"""What the typing tests share: the public functions and methods whose signature says ``Any`` (issue #31)."""
from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path


def public_any(paths: Iterable[Path], root: Path) -> list[str]:
    """``file:line name`` of each public function or method (not under a private class) whose parameters or
    return annotation mention ``Any``; ``file`` relative to ``root``."""
    found: list[str] = []
    for path in paths:
        def walk(node: ast.AST, private: bool, path: Path = path) -> None:
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
