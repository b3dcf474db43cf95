"""The program checked as a Raspberry Pi runs it: run by ``make test-arm64`` (tools/arm64/run.sh) with the
installed package's python inside a bookworm arm64 root under qemu-user.

    python check.py --reference > ref.json              # on the host: the deterministic results
    python check.py --reference ref.json --mahjong-table /opt/mahjong-table/.venv/bin/mahjong-table

Each check prints ``arm64: <check>: ok`` (or ``arm64: <check>: FAILED: why``); the last line is
``arm64: N passed, M failed``; exit status 1 when any check failed. Checks:

* ``machine``: the interpreter runs as aarch64 and the compiled modules (numpy, cv2, onnxruntime) it loaded
  are aarch64 ELF files (proves the emulation, not the host, ran the rest);
* ``imports``: every package and module of the installed distribution imports (from the venv, never from a
  checkout);
* ``scoring``: bot-played hands of every profile (rules.profiles.registry) at every table size it is
  played at, scored: the settlements, winners and violations equal the host's bit for bit;
* ``vision``: a rendered frame of a bot-played table read with the shipped ONNX model and enrolled tile set:
  the scene's structure exactly the truth's, at most one tile label wrong;
* ``simulate``: one refereed hand through the whole stack (``mahjong-table simulate --json``): 0 settlement
  mismatches, 0 missed and 0 false violations;
* ``config``: ``mahjong-table config example`` passes ``mahjong-table config check``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

SCORING_SEED = 2929
SCORING_HANDS = 2
VISION_PROFILE = "mcr"  # flowers, kongs, sideways claimed tiles: most of what a scene holds
VISION_STYLE = "classic"
VISION_SEED = 29
SIM_PROFILE = "red"  # a short refereed hand: every frame of it is read under emulation
SIM_SEED = 4  # 52 events, 114 frames: the shortest of seeds 1-12 (seed 29 reads 291)
EM_AARCH64 = 183  # ELF e_machine


def elf_machine(path: str) -> int:
    with open(path, "rb") as f:
        head = f.read(20)
    assert head[:4] == b"\x7fELF", f"{path}: not an ELF file"
    return int.from_bytes(head[18:20], "little")


def check_machine(ref: dict | None) -> str:
    import cv2
    import numpy
    import onnxruntime

    m = platform.machine()
    assert m == "aarch64", f"platform.machine() is {m!r}, not 'aarch64'"
    assert sys.version_info[:2] == (3, 11), f"python {platform.python_version()}, a bookworm Pi has 3.11"
    # every compiled library the venv holds (numpy's, opencv's, onnxruntime's...) is an aarch64 ELF file
    site = Path(numpy.__file__).resolve().parents[1]
    libs = sorted(p for p in site.rglob("*.so*") if p.is_file())
    foreign = [str(p.relative_to(site)) for p in libs if elf_machine(str(p)) != EM_AARCH64]
    assert len(libs) > 10 and not foreign, f"not aarch64: {foreign[:10]}"
    return (f"{m}, python {platform.python_version()}, {len(libs)} compiled libraries all aarch64; numpy "
            f"{numpy.__version__}, opencv {cv2.__version__}, onnxruntime {onnxruntime.__version__}")


def our_packages() -> list[str]:
    from importlib.metadata import distribution

    dist = distribution("mahjong-table")
    tops = sorted({f.parts[0] for f in dist.files or () if f.suffix == ".py" and len(f.parts) > 1
                   and not f.parts[0].endswith((".dist-info", ".egg-info"))})
    if not tops and dist.read_text("top_level.txt"):  # an editable install lists no modules
        tops = sorted(dist.read_text("top_level.txt").split())
    assert tops, "mahjong-table is not installed"
    return tops


def extras_only() -> dict[str, str]:
    """Import names of the packages only an optional extra brings (``train``: torch, ``dev``: pytest...)
    -> the extra: a module needing one is not part of what a table runs."""
    import re
    from importlib.metadata import requires

    out = {}
    for req in requires("mahjong-table") or ():
        m = re.match(r"([A-Za-z0-9_.-]+).*extra\s*==\s*['\"]([^'\"]+)", req)
        if m:
            out[m.group(1).lower().replace("-", "_")] = m.group(2)
    return out


def check_imports(ref: dict | None) -> str:
    import importlib
    import importlib.util
    import pkgutil

    mods, failed, extra = [], [], []
    optional = extras_only()
    for top in our_packages():
        pkg = importlib.import_module(top)
        here = Path(pkg.__file__).resolve()
        assert "site-packages" in here.parts, f"{top} imported from {here}, not from the installed venv"
        mods.append(top)
        for info in pkgutil.walk_packages(pkg.__path__, top + ".", onerror=lambda name: None):  # each failure is recorded below
            try:
                if info.name.endswith(".__main__"):  # 'python -m' entry points run on import: compiled only
                    spec = importlib.util.find_spec(info.name)
                    assert spec is not None and spec.loader is not None and spec.loader.get_code(info.name)
                else:
                    importlib.import_module(info.name)
                mods.append(info.name)
            except ModuleNotFoundError as exc:
                need = (exc.name or "").split(".")[0].lower()
                if need in optional:
                    extra.append(f"{info.name} (the {optional[need]!r} extra: {need})")
                else:
                    failed.append(f"{info.name} ({type(exc).__name__}: {exc})")
            except (Exception, SystemExit) as exc:  # every failure listed, not only the first
                failed.append(f"{info.name} ({type(exc).__name__}: {exc})")
    assert not failed, f"{len(failed)} of {len(mods) + len(failed)} modules fail to import: " + "; ".join(failed)
    return (f"{len(mods)} modules of {', '.join(our_packages())}"
            + (f"; not imported, needing an extra a table does not install: {', '.join(extra)}" if extra else ""))


def scoring_results() -> dict[str, list]:
    from rules.profiles import registry
    from rules.simulate import random_hands
    from rules.wall import PROFILE_FAMILY, WALLS

    out: dict[str, list] = {}
    for name in registry.names():
        prof = registry.get(name)
        for players in WALLS[PROFILE_FAMILY[name]]["players"]:  # every table size the profile is played at
            out[f"{name}@{players}"] = [[list(h.deltas), list(h.winners), h.exhaustive, list(h.violations)]
                                        for h in random_hands(prof, SCORING_SEED, SCORING_HANDS, n_players=players)]
    return out


def check_scoring(ref: dict | None) -> str:
    got = scoring_results()
    wins = sum(bool(h[1]) for hands in got.values() for h in hands)
    if ref is not None:
        diff = [p for p in ref["scoring"] if ref["scoring"][p] != got.get(p)]
        assert not diff and set(got) == set(ref["scoring"]), f"settlements differ from the host's: {diff}"
    return f"{sum(map(len, got.values()))} hands of {len(got)} profiles ({wins} won), " + (
        "the same settlements as the host" if ref is not None else "no host reference")


def vision_read() -> tuple[object, object, object]:
    from rules.profiles import registry
    from rules.simulate import random_hands
    from vision.calibration import calibrate
    from vision.pipeline import VisionPipeline
    from vision.scene_game import scenes_from_events
    from vision.scene_render import render_scene
    from vision.style_sets import SHIPPED
    from vision.tileset import TileSet

    hand = next(random_hands(registry.get(VISION_PROFILE), VISION_SEED, 1))
    scenes = scenes_from_events(VISION_PROFILE, hand.events)
    scene = scenes[(3 * len(scenes)) // 4]  # late in the hand: full ponds, melds
    frame, _ = render_scene(scene, seed=VISION_SEED, style=VISION_STYLE)
    tileset = TileSet.load(SHIPPED / f"{VISION_STYLE}.npz")  # the shipped set, read by the shipped ONNX model
    res = VisionPipeline(calibrate(frame), VISION_PROFILE, tilesets=[tileset], threads=1).process(frame, full=True)
    return scene, res.scene, res.info


def check_vision(ref: dict | None) -> str:
    from vision.scene_eval import label_errors, structure

    want, got, info = vision_read()
    assert not info.occluded, f"zones read as occluded: {info.occluded}"
    assert structure(got) == structure(want), f"the scene's structure differs from the truth: {got} vs {want}"
    wrong, total = label_errors(got, want)
    assert total > 40 and wrong <= 1, f"{wrong} of {total} tile labels wrong"
    same = ""
    if ref is not None:
        same = ", the host's reading" if repr(got) == ref["vision"] else ", NOT the host's reading (labels differ)"
    return f"{total} tiles, {wrong} wrong, structure exact{same}"


def check_simulate(ref: dict | None, exe: str) -> str:
    cmd = [exe, "simulate", "--profile", SIM_PROFILE, "--hands", "1", "--seed", str(SIM_SEED), "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, f"{' '.join(cmd[1:])}: exit {p.returncode}: {(p.stdout + p.stderr)[-600:]}"
    out = json.loads(p.stdout)
    (t,) = out["tables"].values()
    v = t["violations"]
    assert out["ok"] and t["settlement_mismatches"] == 0 and v["missed"] == 0 and v["false"] == 0, t
    return (f"{SIM_PROFILE}: {t['hands']} hand, {t['frames']} frames read, {t['settlement_mismatches']} mismatches, "
            f"{v['missed']} missed, {v['false']} false")


def check_config(ref: dict | None, exe: str) -> str:
    ex = subprocess.run([exe, "config", "example"], capture_output=True, text=True, timeout=600)
    assert ex.returncode == 0 and ex.stdout, f"config example: exit {ex.returncode}: {ex.stderr[-400:]}"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "table.toml")
        Path(path).write_text(ex.stdout)
        p = subprocess.run([exe, "config", "check", path], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and p.stdout.strip().endswith(": OK"), \
        f"config check: exit {p.returncode}: {(p.stdout + p.stderr)[-400:]}"
    return f"the example ({len(ex.stdout.splitlines())} lines) checks OK"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", nargs="?", const="-", default=None,
                    help="without a value: print the host's deterministic results (JSON); with FILE: compare")
    ap.add_argument("--mahjong-table", default=os.path.join(os.path.dirname(sys.executable), "mahjong-table"),
                    help="the installed command (default: beside this python)")
    args = ap.parse_args(argv)
    if args.reference == "-":
        print(json.dumps({"scoring": scoring_results(), "vision": repr(vision_read()[1])}))
        return 0
    ref = json.loads(Path(args.reference).read_text()) if args.reference else None
    checks: list[tuple[str, Callable[[], str]]] = [
        ("machine", lambda: check_machine(ref)),
        ("imports", lambda: check_imports(ref)),
        ("scoring", lambda: check_scoring(ref)),
        ("vision", lambda: check_vision(ref)),
        ("simulate", lambda: check_simulate(ref, args.mahjong_table)),
        ("config check", lambda: check_config(ref, args.mahjong_table)),
    ]
    passed = failed = 0
    for name, fn in checks:
        try:
            detail = fn()
        except Exception as exc:
            failed += 1
            print(f"arm64: {name}: FAILED: {type(exc).__name__}: {exc}", flush=True)
            traceback.print_exc(file=sys.stderr)
            continue
        passed += 1
        print(f"arm64: {name}: ok", flush=True)
        print(f"  {detail}", file=sys.stderr, flush=True)  # what was checked, beside the contract's line
    print(f"arm64: {passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
