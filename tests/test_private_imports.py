"""No module of the product imports another module's private names (``from x import _name``): what a module
shares is public, so a change inside one module cannot silently break another (rules/ has its own, stricter
import-graph test)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "vision", "firmware_bridge", "controller", "hall")


def private_imports(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    found = []
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in packages:
                    names = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                    if names:
                        found.append(f"{path.relative_to(root)}:{node.lineno}: from {node.module} import {', '.join(names)}")
    return found


def test_no_private_names_imported_across_modules():
    assert private_imports() == []


def test_the_check_finds_a_private_import(tmp_path):
    (tmp_path / "vision").mkdir()
    (tmp_path / "vision" / "a.py").write_text("from vision.b import _hidden, shown\n")
    assert private_imports(tmp_path, ("vision",)) == ["vision/a.py:1: from vision.b import _hidden"]
