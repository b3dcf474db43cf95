"""Rule sets are passed, not named (issue #31): outside ``rules/`` no code tells rule sets apart by name.

What differs per rule set is data its profile provides (``rules.game.table_data``: the table's conventions,
the referee's notes, the record formats; capabilities, the penalty catalogue); every list of rule sets comes
from the registry. An AST walk over ``controller/``, ``vision/``, ``hall/`` and ``firmware_bridge/`` finds a
string literal equal to a registry profile name where it decides something:

* compared: ``x == "mcr"``, ``x != "red"``, ``x in ("basic", ...)``, ``match x: case "mcr"``;
* a key: ``{"mcr": ...}``, ``TABLE["mcr"]``;
* listed: a tuple, list or set literal holding one (a hand-made list of rule sets);
* a family by prefix: ``x.startswith("sichuan")``.

Names as arguments stay fine (``registry.get("basic")``, ``add_profile(p, default="basic")``, a
``Scene("mcr")`` in a doctest-like docstring): they choose a rule set, they do not tell rule sets apart.
"""
from __future__ import annotations

import ast
from pathlib import Path

from rules.profiles import registry

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("controller", "vision", "hall", "firmware_bridge")
#: no file is excepted (hall/config.py's profile list is the registry's since the config engine)
ELSEWHERE: set[str] = set()


def _names() -> frozenset[str]:
    return frozenset(registry.PROFILES)  # the built-in rule sets (a test's registered ones are not in code)


def _literal(node: ast.AST | None, names: frozenset[str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
        return node.value
    return None


def _family(node: ast.AST | None, names: frozenset[str]) -> str | None:
    """A literal that names a family of rule sets: a name, or a name's part before a ``-`` (``"sichuan"``)."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    return node.value if node.value in names | {n.split("-")[0] for n in names} else None


def _listed(node: ast.AST, names: frozenset[str]) -> str | None:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return next((n for n in (_literal(e, names) for e in node.elts) if n), None)
    return None


def findings(source: str, names: frozenset[str]) -> list[tuple[int, str, str]]:
    """(line, what, name) of every place ``source`` compares with, keys by or lists a rule set's name."""
    out: list[tuple[int, str, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                name = _literal(side, names) or _listed(side, names)
                if name:
                    out.append((node.lineno, "compared", name))
        elif isinstance(node, ast.Dict):
            out += [(k.lineno, "a dict key", n) for k in node.keys if k is not None and (n := _literal(k, names))]
        elif isinstance(node, ast.Subscript):
            name = _literal(node.slice, names)
            if name:
                out.append((node.lineno, "a key", name))
        elif isinstance(node, ast.MatchValue):
            name = _literal(node.value, names)
            if name:
                out.append((node.lineno, "a case", name))
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            name = _listed(node, names)
            if name:
                out.append((node.lineno, "listed", name))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith":
            name = _family(node.args[0] if node.args else None, names)
            if name:
                out.append((node.lineno, "a prefix", name))
    return sorted(set(out))


def test_the_walk_finds_each_way_of_naming_a_rule_set():
    names = frozenset({"mcr", "red"})
    src = '''
"""A docstring naming mcr and "red" is fine."""
def f(profile, x="mcr"):
    g("red")
    if profile == "mcr" or "red" != profile: pass
    if profile in ("mcr", "other"): pass
    T = {"red": 1}
    T["mcr"]
    L = ["red"]
    match profile:
        case "mcr": pass
    if profile == "redder" or profile in ("mc",) or x.startswith("re"): pass
    if profile.startswith("red") or profile.startswith("mcr-si"): pass
    T = {
        "a": 1,
        "mcr": 2,
    }
'''
    got = findings(src, names)
    assert got == [(5, "compared", "mcr"), (5, "compared", "red"), (6, "compared", "mcr"), (6, "listed", "mcr"),
                   (7, "a dict key", "red"), (8, "a key", "mcr"), (9, "listed", "red"), (11, "a case", "mcr"),
                   (13, "a prefix", "red"), (16, "a dict key", "mcr")]
    assert findings('x.startswith("sichuan")', frozenset({"sichuan-wmsg"})) == [(1, "a prefix", "sichuan")]


def test_no_rule_set_is_named_outside_rules():
    names = _names()
    assert {"riichi-ema2016", "sichuan-wmsg", "basic"} <= names
    files = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    assert len(files) > 150
    bad = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if rel in ELSEWHERE:
            continue
        bad += [f"{rel}:{line}: {name!r} {what}" for line, what, name in findings(path.read_text(encoding="utf-8"), names)]
    assert bad == [], "a rule set told apart by its name (read it from its profile's data instead):\n" + "\n".join(bad)
