"""docs/hall.md's table "The seeds' regulations: rule → where → test" (issue #34): every test it names exists, and
each seed line a row names is cited by one of that row's tests (its source: the docstring or a comment) — the doc
stays true as tests are renamed, and no seed line is claimed without a test that says it checks it."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADING = "## The seeds' regulations: rule → where → test"


def rows() -> list[tuple[str, list[str]]]:
    """(the seed cell, the test references) of every row of the table."""
    text = (ROOT / "docs" / "hall.md").read_text(encoding="utf-8")
    assert HEADING in text
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    lines = section.splitlines()
    first = next(i for i, x in enumerate(lines) if x.startswith("| seed"))
    table = lines[first:first + next(i for i, x in enumerate(lines[first:]) if not x.startswith("|"))]
    out = []
    for line in table:
        if line.startswith(("| seed", "|---")):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        out.append((cells[0], re.findall(r"`([^`]+)`", cells[-1])))
    return out


def seed_lines(cell: str) -> list[str]:
    """The line numbers a seed cell names: ``000 l.184``, ``000 l.420, 422, 463; 004 l.546``, ``l.503–513`` (both
    ends)."""
    return re.findall(r"(?<![\d§.])\d+", re.sub(r"\b00\d\b", "", cell).replace("l.", " "))


def source(ref: str) -> str:
    """The text of ``path::test`` — the function's source and that of the module's functions and classes it uses,
    at any depth (a test's hand computation lives in its module's helpers) — or of ``path``, the whole file."""
    path, _, name = ref.partition("::")
    file = ROOT / "tests" / path
    assert file.is_file(), f"{ref}: no such test file"
    text = file.read_text(encoding="utf-8")
    if not name:
        return text
    tree = ast.parse(text)
    defs: dict[str, ast.stmt] = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    defs.update({t.id: n for n in tree.body if isinstance(n, ast.Assign | ast.AnnAssign)
                 for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)})
    test = defs.get(name)
    assert isinstance(test, ast.FunctionDef) and name.startswith("test_"), f"{ref}: no such test"
    seen, todo, out = {name}, [test], []  # type: tuple[set[str], list[ast.stmt], list[str]]
    while todo:
        node = todo.pop()
        out.append(ast.get_source_segment(text, node) or "")
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in defs and n.id not in seen:
                seen.add(n.id)
                todo.append(defs[n.id])
    return "\n".join(out)


def test_the_table_names_tests_that_exist_and_cite_their_seed_lines() -> None:
    table = rows()
    assert len(table) > 25
    for seed, refs in table:
        assert refs, f"{seed}: no test named"
        texts = [source(r) for r in refs]
        for n in seed_lines(seed):
            assert any(re.search(rf"(?<!\d){n}(?!\d)", t) for t in texts), f"{seed}: line {n} cited by none of {refs}"


def test_the_seed_lines_the_issue_names_have_a_row() -> None:
    """Issue #34 names these seed lines; each has its row (and so its test)."""
    named = {"000": [184, 188, 190, 269, 420, 422, 437, 463, 485, 503, 513], "001": [8],
             "003": [9, 2130, 2144, 2152, 2159, 2168, 2229, 2273], "004": [61, 62, 63, 278, 302, 344, 546, 558, 560]}
    cited: dict[str, set[int]] = {}
    for seed, _refs in rows():
        for part in re.split(r"(?=\b00\d\b)", seed):
            doc = re.match(r"(00\d)\b", part)
            if doc:
                numbers = [int(x) for x in seed_lines(part)]
                spans = re.findall(r"(\d+)[–-](\d+)", part)
                for a, b in spans:
                    numbers += list(range(int(a), int(b) + 1))
                cited.setdefault(doc.group(1), set()).update(numbers)
    for name, lines in named.items():
        missing = [n for n in lines if n not in cited.get(name, set())]
        assert not missing, f"{name}: no row for line(s) {missing}"
