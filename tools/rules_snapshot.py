"""A snapshot of the rules engine's observable behaviour, to prove a refactoring changed nothing.

Three parts, each written as JSON lines into ``OUT`` (one file per part and profile):

* ``score-vectors.jsonl`` — ``mahjong-table score --jsonl`` answers for every hand of the spec vectors
  (``tests/vectors/*_vectors.json``; the vector's context fields that the profile knows);
* ``score-random-<profile>.jsonl`` — the same command's answers for ``--hands`` random requests per
  profile (complete and nearly complete hands, open melds and kongs, red fives, jokers, flowers, random
  context; invalid combinations included on purpose: their refusals are behaviour too);
* ``machine-<profile>.jsonl`` — per bot hand played through the hand machine (``rules.simulate``):
  a SHA-256 of its event log, the deltas, the next dealer, the violations, whether ``replay`` of the log
  rebuilds the same state, and the verdicts of the camera view of the log replayed in table mode; then
  whole games (totals, standings).

The requests are made first (``gen``: deterministic from ``--seed``) and kept with the snapshot, so the
same requests are answered before and after a change. Usage (what the closing note of issue #21 ran)::

    python tools/rules_snapshot.py gen  /work/notes/i21-baseline/requests
    python tools/rules_snapshot.py run  /work/notes/i21-baseline/requests /work/notes/i21-baseline/out
    python tools/rules_snapshot.py run  /work/notes/i21-baseline/requests /tmp/i21-now && \\
        diff -r /work/notes/i21-baseline/out /tmp/i21-now
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "tests" / "vectors"
PROFILES = ("basic", "mcr", "mcr-siamese", "riichi-ema2016", "red", "sichuan-mpl2025", "sichuan-wmsg")
SUITS = {"sichuan-mpl2025": "mps", "sichuan-wmsg": "mps"}
RED_FIVES = ("riichi-ema2016", "red")
JOKERS = ("red",)
FLOWERS = ("mcr", "mcr-siamese", "red")


# ------------------------------------------------------------------------------------------------------
# requests

def _vector_requests() -> list[dict[str, Any]]:
    """Every vector that carries a hand, with the context fields its profile reads."""
    sys.path.insert(0, str(ROOT))
    from rules.profiles import registry

    out: list[dict[str, Any]] = []
    for path in sorted(VECTORS.glob("*_vectors.json")):
        data = json.loads(path.read_text())
        vectors = data["vectors"] if isinstance(data, dict) else data
        for v in vectors:
            hand = v.get("hand")
            if not isinstance(hand, str):
                continue
            name = v.get("profile") or path.name.split("_")[0]
            try:
                fields = {f.name for f in registry.get(name).context_fields}
            except LookupError:
                fields = set()
            req = {"id": f"{path.stem}/{v['id']}", "profile": name, "hand": hand}
            req.update({k: v[k] for k in sorted(fields) if k in v and v[k] is not None})
            out.append(req)
    return out


def _tile(rng: random.Random, suits: str) -> str:
    s = rng.choice(suits)
    return f"{rng.randint(1, 7 if s == 'z' else 9)}{s}"


def _set(rng: random.Random, suits: str) -> list[str]:
    s = rng.choice(suits)
    if s != "z" and rng.random() < 0.5:
        n = rng.randint(1, 7)
        return [f"{n + i}{s}" for i in range(3)]
    t = _tile(rng, s)
    return [t, t, t]


def _random_hand(rng: random.Random, profile: str) -> str:
    """A hand in the notation: usually complete (four sets and a pair, seven pairs, orphans), sometimes
    one tile off, sometimes random; melds, red fives, jokers and flowers where the profile has them."""
    suits = SUITS.get(profile, "mpsz")
    x = rng.random()
    melds: list[str] = []
    if x < 0.08:
        tiles = [_tile(rng, suits) for _ in range(14)]
    elif x < 0.16 and "z" in suits:
        orphans = [f"{n}{s}" for s in "mps" for n in (1, 9)] + [f"{n}z" for n in range(1, 8)]
        tiles = orphans + [rng.choice(orphans)]
    elif x < 0.28:
        pairs = [_tile(rng, suits) for _ in range(7)]
        tiles = [t for p in pairs for t in (p, p)]
    else:
        tiles = [_tile(rng, suits)] * 2
        for _ in range(4):
            s = _set(rng, suits)
            y = rng.random()
            if y < 0.25:
                melds.append("[" + "".join(s) + "]")
            elif y < 0.33 and s[0] == s[1]:
                kind = rng.choice(("[{}]", "[({})]", "[{}+]"))
                melds.append(kind.format("".join(s + [s[0]])))
            else:
                tiles += s
    if x >= 0.08 and rng.random() < 0.1:  # one tile off: rarely a win
        tiles[rng.randrange(len(tiles))] = _tile(rng, suits)
    if profile in RED_FIVES:
        tiles = [("0" + t[1]) if t[0] == "5" and t[1] != "z" and rng.random() < 0.3 else t for t in tiles]
    if profile in JOKERS:
        tiles = ["j" if rng.random() < 0.06 else t for t in tiles]
    rng.shuffle(tiles)
    if not tiles:
        tiles = [_tile(rng, suits)]
    winning = tiles.pop(rng.randrange(len(tiles)))
    text = " ".join(tiles + melds) + f" + {winning}"
    if profile in FLOWERS and rng.random() < 0.3:
        text += " | " + " ".join(f"{n}f" for n in rng.sample(range(1, 9), rng.randint(1, 3)))
    return text


def _random_context(rng: random.Random, fields: list[Any]) -> dict[str, Any]:
    ctx: dict[str, Any] = {}
    for f in fields:
        if rng.random() < 0.15:
            continue  # the default
        k, name = f.kind, f.name
        if k == "bool":
            ctx[name] = rng.random() < (0.5 if name == "self_drawn" else 0.2)
        elif k == "tile":
            ctx[name] = f"{rng.randint(1, 4)}z"
        elif k == "tiles":
            ctx[name] = [_tile(rng, "mpsz") for _ in range(rng.randint(0, 3))]
        elif k == "seat":
            ctx[name] = rng.randint(0, 3)
        elif k == "seats":
            ctx[name] = sorted(rng.sample(range(4), rng.randint(2, 4)))
        elif k == "suit":
            ctx[name] = rng.choice("mps")
        elif k == "int":
            ctx[name] = rng.choice((2, 3, 4)) if name == "players" else rng.randint(0, 3)
        elif k == "json":
            ctx[name] = rng.choice(({}, {"chaotic_value": 3}, {"min_points": 3}, {"fan_multiplicity": "once"}))
        elif f.choices:
            ctx[name] = rng.choice(f.choices)
    return ctx


def gen(out: Path, n: int, seed: int) -> None:
    sys.path.insert(0, str(ROOT))
    from rules.profiles import registry

    out.mkdir(parents=True, exist_ok=True)
    _write(out / "score-vectors.jsonl", _vector_requests())
    for name in PROFILES:
        rng = random.Random(f"{seed}-{name}")
        fields = list(registry.get(name).context_fields)
        reqs = [{"id": i, "hand": _random_hand(rng, name), **_random_context(rng, fields)} for i in range(n)]
        _write(out / f"score-random-{name}.jsonl", reqs)
    (out / "machine.json").write_text(json.dumps({"seed": seed, "hands": max(20, n // 50), "games": 3}))


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows))


# ------------------------------------------------------------------------------------------------------
# answers

def _score(requests: Path, out: Path, exe: str) -> None:
    for path in sorted(requests.glob("score-*.jsonl")):
        profile = path.stem.removeprefix("score-random-") if "random" in path.stem else "basic"
        t0 = time.perf_counter()
        got = subprocess.run([exe, "score", "--profile", profile, "--jsonl"], input=path.read_bytes(),
                             capture_output=True, check=True)
        (out / path.name).write_bytes(got.stdout)
        n = got.stdout.count(b"\n")
        print(f"{path.name}: {n} answers in {time.perf_counter() - t0:.1f} s", file=sys.stderr)


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:24]


def _machine(requests: Path, out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    import rules.game.machine as gm
    from rules.profiles import registry
    from rules.simulate import play_game, random_hands

    cfg = json.loads((requests / "machine.json").read_text())
    for name in PROFILES:
        t0 = time.perf_counter()
        prof = registry.get(name)
        rows: list[dict[str, Any]] = []
        players = {"red": (4, 3, 2), "mcr-siamese": (3, 2), "sichuan-mpl2025": (4, 3)}.get(name, (4,))
        for n_players in players:
            for err in (0.0, 0.05):
                for r in random_hands(prof, cfg["seed"], cfg["hands"], n_players=n_players, error_rate=err):
                    log = r.machine.log
                    cls = type(r.machine)
                    again = gm.replay(prof, log, wall=r.wall, machine=cls)
                    seen = gm.table_view(log, wins_shown=name == "mcr-siamese")
                    table = gm.replay(prof, seen, "table", machine=cls)
                    ts = table.state
                    rows.append({
                        "players": n_players, "error_rate": err, "hand": r.machine.state.hand_id,
                        "log": _digest([e.to_json() for e in log]), "events": len(log),
                        "deltas": list(r.deltas), "next_dealer": r.next_dealer, "winners": list(r.winners),
                        "exhaustive": r.exhaustive, "violations": list(r.violations),
                        "replay_equal": again.state.to_json() == r.machine.state.to_json(),
                        "table": {"deltas": list(ts.settled.deltas) if ts.settled else None,
                                  "violations": sorted(v.code for v in ts.violations),
                                  "next_dealer": ts.next_dealer},
                    })
        for g in range(cfg["games"]):
            res = play_game(prof, cfg["seed"] + g, n_players=players[0], max_hands=24)
            rows.append({
                "game": g, "hands": len(res.hands), "totals": {str(k): v for k, v in res.totals.items()},
                "logs": _digest([[e.to_json() for e in h.events] for h in res.hands]),
                "standings": [[s.rank, s.seat, s.player, s.total, s.table_points] for s in res.standings],
            })
        _write(out / f"machine-{name}.jsonl", rows)
        print(f"machine-{name}: {len(rows)} rows in {time.perf_counter() - t0:.1f} s", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="make the requests")
    g.add_argument("requests", type=Path)
    g.add_argument("--hands", type=int, default=10_000, help="random score requests per profile")
    g.add_argument("--seed", type=int, default=2026)
    r = sub.add_parser("run", help="answer the requests")
    r.add_argument("requests", type=Path)
    r.add_argument("out", type=Path)
    r.add_argument("--exe", default=str(ROOT / ".venv" / "bin" / "mahjong-table"))
    r.add_argument("--only", choices=("score", "machine"), default=None)
    args = ap.parse_args(argv)
    if args.cmd == "gen":
        gen(args.requests, args.hands, args.seed)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only != "machine":
        _score(args.requests, args.out, args.exe)
    if args.only != "score":
        _machine(args.requests, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
