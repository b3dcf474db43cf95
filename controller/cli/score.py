"""``mahjong-table score``: score a winning hand under a rule profile.

    mahjong-table score --profile mcr "123m456p789s1122z + 2z" --self-drawn
    mahjong-table score --profile riichi-ema2016 --json "23456m67888p234s + 1m" --self-drawn --dora-indicators 1p
    mahjong-table score --profile sichuan-mpl2025 --jsonl < hands.jsonl

Context flags are the profile's context fields (``--fields`` lists them): ``--self-drawn``,
``--seat-wind 1z``, ``--dora-indicators 1p,3m``... JSON lines name the same fields with underscores:
``{"hand": "...", "self_drawn": true}``; ``"id"`` is echoed back and ``"profile"`` overrides ``--profile``
for that line. The result format is documented in docs/score-json.md.

Exit code: 0 a win, scored; 1 a well-formed hand that is not a win (the readable output and ``--json`` say
why); 2 bad input (not the notation, impossible tiles such as five copies of one, the wrong number of tiles,
an unknown profile or context flag). ``--jsonl`` answers every line, bad ones with ``{"ok": false, ...}``,
and exits 0 (2 when stdin cannot be read).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

from controller.cli import CliError
from controller.cli.common import add_profile

if TYPE_CHECKING:
    from rules.events import JSONObject, JSONValue
    from rules.profiles.base import Profile
    from rules.scoring import ContextValue

DEFAULT_PROFILE = "basic"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ap = sub.add_parser(
        "score",
        help="score a winning hand (readable, --json, or --jsonl batches)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("hand", nargs="?", help='the hand in mpsz notation, e.g. "123m456p789s1122z + 2z"')
    add_profile(ap, default=DEFAULT_PROFILE, short=True, help=f"rule profile (default {DEFAULT_PROFILE})", any_name=True)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--jsonl", action="store_true", help="read one JSON object per line on stdin, write one per line")
    ap.add_argument("--fields", action="store_true", help="list the profile's context fields and exit")
    ap.set_defaults(func=run, accepts_extra=True)


# ------------------------------------------------------------------------------------------------------
# The engine side, shared by every output mode


# JSON types of the context fields' kinds (docs/score-json.md: booleans are JSON booleans, seats 0..3, ...)
JSON_KINDS: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "seat": (int,), "tile": (str,),
                                           "suit": (str,), "str": (str,), "tiles": (list,)}


def _json_type_error(profile: Profile, fields: Mapping[str, JSONValue]) -> str | None:
    """A request line's context field of the wrong JSON type (``"self_drawn": "yes"``), or None."""
    kinds = {f.name: f.kind for f in profile.context_fields}
    for name, value in fields.items():
        want = JSON_KINDS.get(kinds.get(name, ""))
        if want is None or value is None:
            continue
        wrong = not isinstance(value, want) or (bool not in want and isinstance(value, bool))
        if not wrong and want == (list,):
            wrong = not isinstance(value, list) or not all(isinstance(x, str) for x in value)
        if wrong:
            shown = {"bool": "true or false", "int": "a whole number", "seat": "a seat number 0..3",
                     "tiles": "a list of tiles"}.get(kinds[name], f"a {kinds[name]} string")
            return f"field {name!r}: {json.dumps(value)} is not {shown}"
    return None


def score_object(profile_name: str, fields: Mapping[str, JSONValue], *, from_json: bool = False) -> JSONObject:
    """Score one request (``{"hand": ..., context...}``); always returns a result object, never raises.
    ``ok`` is false for bad input: not the notation, impossible tiles (five copies of one, a tile outside the
    profile's set), a field of the wrong type (``from_json``: JSON types are checked, booleans are booleans)."""
    from rules.notation import ParseError, format_hand, parse_hand
    from rules.profiles import registry
    from rules.scoring import ContextError

    out: JSONObject = {}
    fields = dict(fields)
    if "id" in fields:
        out["id"] = fields.pop("id")
    name = fields.pop("profile", profile_name)
    if not isinstance(name, str):
        return {**out, "ok": False, "error": f'field "profile" must be a profile name, not {json.dumps(name)}'}
    try:
        profile = registry.get(name)
    except registry.UnknownProfile as exc:
        return {**out, "ok": False, "error": str(exc)}
    if "hand" not in fields:
        return {**out, "ok": False, "error": 'missing field "hand"'}
    text = fields.pop("hand")
    if not isinstance(text, str):
        return {**out, "ok": False, "error": 'field "hand" must be a string'}
    try:
        hand = parse_hand(text)
    except ParseError as exc:
        return {**out, "ok": False, "error": f"bad hand: {exc}"}
    if from_json:
        bad = _json_type_error(profile, fields)
        if bad:
            return {**out, "ok": False, "error": bad}
    try:  # (context() coerces each value, ContextField.coerce taking any object: JSON's lists and floats too)
        ctx = profile.context(cast("Mapping[str, ContextValue]", fields))
    except ContextError as exc:
        return {**out, "ok": False, "error": str(exc)}
    # A hand nobody can hold is bad input (ok: false), as for waits and shanten: more than four copies of a
    # tile, no winning tile, the wrong number of tiles. A hand that could be held but does not win under the
    # profile (its shape, or tiles this profile's set lacks) is an answer: valid: false, with the reason.
    copies = [e for e in profile.check_hand(hand) if "copies of" in e]
    if copies:
        return {**out, "ok": False, "error": "impossible hand: " + "; ".join(copies)}
    if hand.winning is None:
        return {**out, "ok": False, "error": 'no winning tile: write it after "+", e.g. "123m456p789s1122z + 2z"'}
    count = profile.check_tile_count(hand, with_winning=True)
    if count:
        return {**out, "ok": False, "error": f"bad hand: {count}"}
    result = profile.score_checked(hand, ctx).to_json()
    return {**out, "hand": format_hand(hand), "profile": profile.name, **result}


def _profile_or_error(name: str) -> Profile:
    from rules.profiles import registry

    try:
        return registry.get(name)
    except registry.UnknownProfile as exc:
        raise CliError(str(exc)) from None


def _context_parser(profile: Profile) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=f"mahjong-table score --profile {profile.name}", add_help=False)
    for f in profile.context_fields:
        flag = "--" + f.name.replace("_", "-")
        if f.kind == "bool":
            ap.add_argument(flag, dest=f.name, nargs="?", const="true", default=None, help=f.help)
        else:
            ap.add_argument(flag, dest=f.name, default=None, help=f.help)
    return ap


def _context_from_flags(profile: Profile, extra: list[str]) -> dict[str, str]:
    ap = _context_parser(profile)
    try:
        ns, unknown = ap.parse_known_args(extra)
    except SystemExit:
        raise CliError(f"bad context flags for profile {profile.name}: {' '.join(extra)}") from None
    if unknown:
        raise CliError(
            f"unknown option(s) for profile {profile.name}: {' '.join(unknown)} "
            f"(see: mahjong-table score --profile {profile.name} --fields)"
        )
    return {k: str(v) for k, v in vars(ns).items() if v is not None}  # (flags' values are strings)


def run(args: argparse.Namespace) -> int:
    if args.jsonl:  # every line is answered, even when the profile is unknown
        if args.hand or args.extra or args.fields:
            raise CliError("--jsonl reads hands from stdin: give no hand or context flags on the command line")
        return _run_jsonl(args.profile)
    profile = _profile_or_error(args.profile)
    if args.fields:
        print(f"context fields of {profile.name} ({profile.title}):")
        for f in profile.context_fields:
            default = "" if f.default in (None, False, ()) else f" (default {f.default})"
            print(f"  --{f.name.replace('_', '-'):<22} {f.kind:<6} {f.help}{default}")
        return 0
    if not args.hand:
        raise CliError('give a hand, e.g. mahjong-table score "123m456p789s11122z + 1z" (or --jsonl)')
    fields = _context_from_flags(profile, args.extra)
    res = score_object(args.profile, {"hand": args.hand, **fields})
    if args.json:
        print(json.dumps(res, ensure_ascii=False))
        return 2 if not res.get("ok") else 0 if res.get("valid") else 1
    if not res.get("ok"):
        raise CliError(str(res["error"]))
    print(render(res))
    return 0 if res.get("valid") else 1


def jsonl_answer(profile_name: str, line: str, lineno: int) -> JSONObject:
    """The answer to one ``--jsonl`` line: exactly one object for every line, blank and broken ones too."""
    if not line.strip():
        return {"ok": False, "error": f"line {lineno}: empty line (expected a JSON object)"}
    try:
        obj: JSONValue = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        why = f"{exc.msg} at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        return {"ok": False, "error": f"line {lineno}: bad JSON: {why}"}
    if not isinstance(obj, dict):
        return {"ok": False, "error": f"line {lineno}: expected a JSON object"}
    try:
        return score_object(profile_name, obj, from_json=True)
    except Exception as exc:  # a bug must not stop the batch; it is reported on its line
        return {"ok": False, "error": f"line {lineno}: internal error: {exc!r}"}


def _run_jsonl(profile_name: str) -> int:
    out = sys.stdout
    lines = iter(sys.stdin)
    lineno = 0
    while True:
        try:
            line = next(lines)
        except StopIteration:
            return 0
        except UnicodeDecodeError:
            raise CliError(f"stdin line {lineno + 1}: not UTF-8 text") from None
        lineno += 1
        out.write(one_line(jsonl_answer(profile_name, line, lineno)) + "\n")
        out.flush()


def one_line(obj: JSONValue) -> str:
    """JSON on one line for every reader: the characters some split lines at (NEL, LS, PS) are escaped."""
    text = json.dumps(obj, ensure_ascii=False)
    for ch in ("\u0085", "\u2028", "\u2029"):
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


def _objects(v: JSONValue) -> list[Mapping[str, JSONValue]]:
    """The JSON objects of a list (``fans``)."""
    return [x for x in v if isinstance(x, Mapping)] if isinstance(v, Sequence) and not isinstance(v, str) else []


def render(res: Mapping[str, JSONValue]) -> str:
    """A readable breakdown of a result object."""
    lines = [f"{res['hand']}    [{res['profile']}]"]
    if not res["valid"]:
        lines.append(f"not a win: {res.get('reason', '')}")
        return "\n".join(lines)
    fans = _objects(res.get("fans", []))
    width = max((len(str(f["name"])) for f in fans), default=10)
    for f in fans:
        count = f" x{f['count']}" if f.get("count", 1) != 1 else ""
        lines.append(f"  {f['name']:<{width}}  {f['value']:>3}{count}")
    lines.append(f"  {'total':<{width}}  {res.get('total_fan', 0):>3}")
    skip = {"ok", "valid", "fans", "total_fan", "points", "hand", "profile", "id", "reason"}
    for k, v in res.items():
        if k not in skip and not isinstance(v, list | dict):
            lines.append(f"  {k}: {v}")
    points = res.get("points", {})
    pts: Mapping[str, JSONValue] = points if isinstance(points, Mapping) else {}
    rest = ", ".join(f"{k} {v}" for k, v in pts.items() if k != "total")
    lines.append(f"points: {pts.get('total', 0)}" + (f" ({rest})" if rest else ""))
    return "\n".join(lines)
