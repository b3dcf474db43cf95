"""Fuzzed text: hand notation (100,000 strings at long size), ``score --jsonl`` request lines, and every
answer shaped as promised — no crash, no hang, one answer per line."""
from __future__ import annotations

import io
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cli.score import jsonl_answer, score_object
from rules.notation import ParseError, format_hand, parse_hand
from tests.conftest import scaled

NOTATION = "0123456789mpszfjx+|[]()-_. ,;:ABCXYZ\t"
hand_text = st.text(alphabet=st.sampled_from(list(NOTATION) + ["ё", "🀄", "１", "\u200b", "\x00", "\n"]),
                    max_size=60)


def random_hand_text(rng: random.Random) -> str:
    """Mostly hand-shaped strings: runs of digits and suits, melds, a winning tile, flowers, and noise."""
    parts = []
    for _ in range(rng.randrange(1, 7)):
        r = rng.random()
        if r < 0.5:
            parts.append("".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 9))) + rng.choice("mpszx"))
        elif r < 0.65:
            parts.append("[" + rng.choice(["", "("]) + "".join(rng.choice("123456789") for _ in range(rng.randrange(2, 5)))
                         + rng.choice("mpsz") + rng.choice(["", ")", "+", "-"]) + "]")
        elif r < 0.8:
            parts.append(" + " + rng.choice("123456789") + rng.choice("mpszj"))
        elif r < 0.9:
            parts.append(" | " + " ".join(f"{rng.randrange(1, 9)}f" for _ in range(rng.randrange(1, 4))))
        else:
            parts.append("".join(rng.choice(NOTATION + "ё🀄") for _ in range(rng.randrange(1, 6))))
    return "".join(parts)


def check_hand_text(text: str) -> bool:
    try:
        hand = parse_hand(text)
    except ParseError as exc:
        assert str(exc) and "\n" not in str(exc)
        return False
    again = parse_hand(format_hand(hand))  # what parses, prints back to the same hand
    assert format_hand(again) == format_hand(hand)
    return True


def test_a_hundred_thousand_hand_strings_parse_or_are_refused_with_a_reason():
    rng = random.Random(1600)
    n = scaled(3_000, 100_000)
    ok = sum(check_hand_text(random_hand_text(rng)) for _ in range(n))
    assert 0 < ok < n  # both kinds were exercised


@settings(max_examples=scaled(300, 5000))
@given(hand_text)
def test_any_text_is_a_hand_or_a_parse_error(text):
    check_hand_text(text)


@settings(max_examples=scaled(100, 2000))
@given(hand_text, st.sampled_from(["basic", "mcr", "riichi-ema2016", "sichuan-mpl2025", "red"]))
def test_scoring_any_text_answers_with_an_object(text, profile):
    res = score_object(profile, {"hand": text})
    assert res["ok"] in (True, False) and (res["ok"] or res["error"])


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
requests = st.fixed_dictionaries({"hand": st.one_of(hand_text, st.sampled_from(["123m456p789s1122z + 2z",
                                                                                 "1112345678999m + 9m"]), json_values)},
                                 optional={"id": json_values, "profile": st.one_of(json_values, st.just("mcr")),
                                           "self_drawn": json_values, "seat_wind": json_values,
                                           "dora_indicators": json_values, "bogus": json_values})
lines = st.one_of(requests.map(json.dumps), json_values.map(json.dumps), st.text(max_size=40).filter(lambda t: "\n" not in t))


@settings(max_examples=scaled(150, 3000))
@given(st.lists(lines, min_size=1, max_size=8))
def test_jsonl_answers_every_line_with_one_object(batch):
    import sys

    from controller.cli.score import _run_jsonl

    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO("\n".join(batch) + "\n"), io.StringIO()
    try:
        assert _run_jsonl("basic") == 0
        out = sys.stdout.getvalue().splitlines()
    finally:
        sys.stdin, sys.stdout = stdin, stdout
    assert len(out) == len(batch)  # a broken line is answered on its own line; the stream goes on
    for line in out:
        res = json.loads(line)
        assert res["ok"] in (True, False)
        assert res["ok"] or ("internal error" not in res["error"] and res["error"])


@settings(max_examples=scaled(200, 3000))
@given(lines)
def test_one_jsonl_line_is_one_answer(line):
    res = jsonl_answer("basic", line, 1)
    assert isinstance(res, dict) and res["ok"] in (True, False)
    json.dumps(res)  # serialisable
