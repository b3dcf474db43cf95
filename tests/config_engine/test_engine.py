"""The configuration engine on a schema of its own: the TOML types a field's annotation allows, the order of
the checks, checks across keys, allowed values asked for when checked, and values the writer writes that TOML
reads back the same."""
from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from config_engine import ConfigBase, ConfigError, Schema, key, to_toml, toml_value

SIZES: list[str] = ["S", "M"]


def _even(v: object) -> str | None:
    return None if isinstance(v, int) and v % 2 == 0 else "must be even"


@dataclass(frozen=True)
class Box:
    size: str = key("S", "the box's size", choices=lambda: SIZES)
    count: int = key(2, "how many", check=_even)
    weight: float = key(1.5, "kilograms")
    lid: bool = key(False, "has a lid")
    pin: int | str = key(5, "a pin")
    tags: tuple[str, ...] = key(("a",), "tags")
    labels: Mapping[str, int] = key(MappingProxyType({"x": 1}), "labels")
    later: str = key("", "a key this build does not use", unused="not built yet")


def _count_vs_size(values: Mapping[str, object], given: set[str]) -> list[tuple[str, str]]:
    big = values["box.size"] == "S" and isinstance(values["box.count"], int) and values["box.count"] > 10
    return [("box.count", "too many for a small box")] if big else []


@dataclass(frozen=True)
class Conf(ConfigBase):
    box: Box = field(init=False, repr=False, compare=False)


Conf.schema = Schema(Conf, retired={"box.colour": "retired: boxes are grey"}, cross_checks=[_count_vs_size])


def problems(text: str, tmp_path) -> list[str]:
    p = tmp_path / "c.toml"
    p.write_text(text, encoding="utf-8")
    cfg, found = Conf.check(p)
    assert (cfg is None) == bool(found)
    return [x.replace(f"{p}:", "") for x in found]


def test_the_schema_is_read_from_the_dataclasses():
    k = Conf.schema.keys
    assert list(k) == ["box.size", "box.count", "box.weight", "box.lid", "box.pin", "box.tags", "box.labels",
                       "box.later"]
    assert (k["box.weight"].types, k["box.pin"].types, k["box.tags"].types, k["box.tags"].items) == (
        (int, float), (int, str), (list,), (str,))
    assert k["box.tags"].default == ["a"] and k["box.labels"].default == {"x": 1}  # as TOML gives them
    cfg = Conf.defaults()
    assert cfg.box.tags == ("a",) and cfg.box.labels == {"x": 1} and cfg["box.tags"] == ["a"]


@pytest.mark.parametrize("text,expected", [
    ("[box]\nweight = 2\n", []),  # an integer is a number
    ("[box]\nweight = true\n", ["2: box.weight: True is not a integer or number — kilograms"]),
    ("[box]\ncount = 2.0\n", ["2: box.count: 2.0 is not a integer — how many"]),
    ("[box]\ncount = 3\n", ["2: box.count: must be even"]),
    ("[box]\ncount = 12\n", ["2: box.count: too many for a small box"]),
    ('[box]\nsize = "L"\n', ["2: box.size: 'L' is not one of S, M — the box's size"]),
    ('[box]\npin = "GPIO5"\nlid = 1\n', ["3: box.lid: 1 is not a true/false — has a lid"]),
    ("[box]\ntags = [1]\n", ["2: box.tags: [1]: every item must be a string — tags"]),
    ("[box.labels]\nx = 1\ny = \"2\"\n", ["1: box.labels: {'x': 1, 'y': '2'}: every value must be a integer — labels"]),
    ('[box]\nlater = "x"\n', ["2: box.later: not used: not built yet; remove it"]),
    ('[box]\ncolour = "red"\n', ["2: box.colour: retired: boxes are grey"]),
    ("[box]\ncuont = 2\n[bx]\nsize = 1\n", ["2: box.cuont: unknown key (did you mean box.count?)",
                                            "4: bx.size: unknown key (did you mean box.size?)"]),
])
def test_every_problem_once_with_its_line(tmp_path, text, expected):
    assert problems(text, tmp_path) == expected


def test_a_check_across_keys_sees_a_bad_key_as_its_default(tmp_path):
    assert problems('[box]\nsize = "L"\ncount = 12\n', tmp_path) == ["2: box.size: 'L' is not one of S, M — the box's size",
                                                                      "3: box.count: too many for a small box"]
    assert problems('[box]\nsize = "M"\ncount = 12\n', tmp_path) == []


def test_the_allowed_values_are_asked_for_when_checked(tmp_path, monkeypatch):
    monkeypatch.setattr("tests.config_engine.test_engine.SIZES", ["S", "M", "L"])
    assert problems('[box]\nsize = "L"\n', tmp_path) == []
    assert "(S | M | L)" in to_toml(Conf.schema, ["# boxes"])


def test_overrides_are_checked_as_a_files_keys_are():
    with pytest.raises(ConfigError) as exc:
        Conf.defaults().with_overrides(box__count=3, box__xyzzy=1)
    assert exc.value.problems == ["box.count: must be even", "box.xyzzy: unknown key"]
    assert Conf.defaults().with_overrides(box__count=4).box.count == 4


@dataclass(frozen=True)
class Plain:
    n: int = 1


@dataclass(frozen=True)
class Odd:
    s: frozenset[int] = key(frozenset(), "a set")


@dataclass(frozen=True)
class PlainConf(ConfigBase):
    sec: Plain = field(init=False)


@dataclass(frozen=True)
class OddConf(ConfigBase):
    sec: Odd = field(init=False)


@pytest.mark.parametrize("root,words", [(PlainConf, "Plain.n: declare it with config_engine.key"),
                                        (OddConf, "cannot be of type")])
def test_a_field_without_key_or_of_no_toml_type_is_refused(root, words):
    with pytest.raises(TypeError, match=words):
        Schema(root)


def test_the_example_sets_every_used_key_and_reads_back_as_the_defaults(tmp_path):
    text = to_toml(Conf.schema, ["# boxes"])
    assert "later" not in text and text.startswith("# boxes\n\n[box]\n# the box's size (S | M)\nsize = \"S\"\n")
    (tmp_path / "c.toml").write_text(text, encoding="utf-8")
    assert Conf.load(tmp_path / "c.toml").values == Conf.defaults().values


toml_scalars = (st.booleans() | st.integers(-2**63, 2**63 - 1) | st.floats(allow_nan=False)
                | st.text(st.characters(blacklist_categories=("Cs",))))
toml_values = st.recursive(toml_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(st.characters(blacklist_categories=("Cs",)), max_size=6), inner,
                                             max_size=4), max_leaves=12)


@given(toml_values)
def test_a_written_value_reads_back_the_same(v):
    assert tomllib.loads(f"k = {toml_value(v)}\n")["k"] == v


def test_nan_and_infinities_are_written_as_toml_spells_them():
    got = tomllib.loads(f"a = {toml_value(math.inf)}\nb = {toml_value(-math.inf)}\nc = {toml_value(math.nan)}\n")
    assert got["a"] == math.inf and got["b"] == -math.inf and math.isnan(got["c"])


def test_the_engine_imports_nothing_of_the_project_and_the_hall_nothing_of_the_table():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]

    def imported(pkg: str) -> set[str]:
        out = set()
        for path in (root / pkg).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    out |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    out.add(node.module.split(".")[0])
        return out

    project = {"rules", "vision", "firmware_bridge", "controller", "hall", "hw_tests", "tests", "bench"}
    assert imported("config_engine") & project == set()
    assert "controller" not in imported("hall") and "config_engine" in imported("hall")
