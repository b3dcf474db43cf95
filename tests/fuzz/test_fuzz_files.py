"""Fuzzed files: every file the program reads — config TOML, calibration JSON, tile-set .npz, images, ONNX
models — is either read or refused with one line (``CliError`` / a config problem), never a traceback."""
from __future__ import annotations

import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import config
from controller.cli import CliError
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]
FILES = settings(max_examples=scaled(100, 2000), suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = st.one_of(st.booleans(), st.integers(-2**40, 2**40), st.floats(allow_nan=True), st.text(max_size=20))
json_values = st.recursive(st.none() | scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=16)


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v).replace("inf", "inf").replace("nan", "nan")
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return json.dumps(str(v))


keys = st.sampled_from(sorted(config.SCHEMA) + ["geometry.table_mm", "table.nope", "x.y", "gpio.call_panels.0.hu"])
toml_docs = st.dictionaries(keys, st.one_of(scalars, st.lists(scalars, max_size=5)), max_size=8).map(
    lambda d: "\n".join(f"{k} = {toml_value(v)}" for k, v in d.items()))


@FILES
@given(st.one_of(toml_docs, st.text(max_size=200)))
def test_any_config_file_is_accepted_or_each_problem_is_one_line(tmp_path, text):
    p = tmp_path / "c.toml"
    p.write_text(text, encoding="utf-8")
    cfg, problems = config.check(p)
    assert (cfg is None) == bool(problems)
    for line in problems:
        assert line.startswith(str(p)) and "\n" not in line
    if cfg is not None:
        assert cfg.table.id == cfg["table.id"]


@FILES
@given(st.binary(max_size=300))
def test_config_bytes_that_are_not_text_are_one_problem(tmp_path, data):
    p = tmp_path / "c.toml"
    p.write_bytes(data)
    cfg, problems = config.check(p)
    assert cfg is not None or len(problems) >= 1


def valid_calibration() -> dict:
    from vision.calibration import Calibration

    return Calibration(np.eye(3), (1920, 1080)).to_json()


def mutate_json(rng: random.Random, doc, value_strategy_draw):
    """Replace, drop or add one field somewhere in the calibration document."""
    d = json.loads(json.dumps(doc))
    path = [d]
    node = d
    while isinstance(node, dict) and node and rng.random() < 0.6:
        k = rng.choice(list(node))
        if isinstance(node[k], dict | list):
            path.append(node[k])
            node = node[k]
        else:
            break
    target = path[-1]
    if isinstance(target, dict) and target:
        k = rng.choice(list(target))
        if rng.random() < 0.3:
            del target[k]
        else:
            target[k] = value_strategy_draw
    elif isinstance(target, list) and target:
        target[rng.randrange(len(target))] = value_strategy_draw
    return d


@FILES
@given(st.one_of(json_values, st.tuples(st.integers(0, 2**32), json_values)))
def test_any_calibration_json_is_read_or_refused_in_one_line(tmp_path, drawn):
    from controller.cli.pose import load_calibration

    doc = mutate_json(random.Random(drawn[0]), valid_calibration(), drawn[1]) if isinstance(drawn, tuple) else drawn
    p = tmp_path / "cal.json"
    p.write_text(json.dumps(doc))
    try:
        cal = load_calibration(p)
    except CliError as exc:
        assert "\n" not in str(exc)
        return
    assert np.isfinite(cal.h).all()


npz_arrays = st.dictionaries(
    st.sampled_from(["labels", "prototypes", "counts", "model_id", "name", "extra"]),
    st.one_of(st.lists(st.sampled_from(["1m", "9p", "7z", "back", "zz", ""]), max_size=4).map(np.array),
              st.lists(st.floats(allow_nan=True, width=32), max_size=12).map(lambda x: np.array(x, np.float32)),
              st.integers(0, 3).map(lambda n: np.zeros((n, 2, 8), np.float32)),
              st.text(max_size=8).map(np.array)), max_size=6)


@FILES
@given(st.one_of(npz_arrays, st.binary(max_size=400)))
def test_any_tile_set_file_is_read_or_refused_in_one_line(tmp_path, content):
    from controller.cli.inputs import read_with
    from vision.tileset import TileSet

    p = tmp_path / "set.npz"
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        buf = io.BytesIO()
        np.savez(buf, **content)
        p.write_bytes(buf.getvalue())
    try:
        read_with(TileSet.load, p, "tile set")
    except CliError as exc:
        assert "\n" not in str(exc)


@FILES
@given(st.sampled_from([b"", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0", b"BM", b"GIF89a"]), st.binary(max_size=600))
def test_any_image_file_is_read_or_refused_in_one_line(tmp_path, head, body):
    from controller.cli.inputs import read_with
    from vision.tileset import read_image

    p = tmp_path / "img.png"
    p.write_bytes(head + body)
    try:
        img = read_with(read_image, p, "image")
    except CliError as exc:
        assert "\n" not in str(exc)
        return
    assert img.ndim == 3


@pytest.mark.parametrize("seed", range(scaled(6, 60)))
def test_any_onnx_model_file_is_loaded_or_refused_in_one_line(tmp_path, seed):
    from controller.cli.tiles import _load_classifier

    rng = random.Random(seed)
    model = (ROOT / "vision" / "models" / "tiles.onnx").read_bytes()
    sidecar = json.loads((ROOT / "vision" / "models" / "tiles.json").read_text())
    kind = seed % 3
    if kind == 0:  # truncated
        body = model[:rng.randrange(len(model))]
    elif kind == 1:  # bytes flipped
        b = bytearray(model)
        for _ in range(rng.randrange(1, 50)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        body = bytes(b)
    else:
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 5000)))
    p = tmp_path / "m.onnx"
    p.write_bytes(body)
    if rng.random() < 0.5:
        sidecar.pop(rng.choice(list(sidecar)))
    p.with_suffix(".json").write_text(json.dumps(sidecar) if rng.random() < 0.8 else "{not json")
    try:
        _load_classifier(p)
    except CliError as exc:
        assert "\n" not in str(exc)
