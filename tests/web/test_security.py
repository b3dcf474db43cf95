"""The PIN hash, sessions, the login rate limit and the same-origin rule, on their own."""
from __future__ import annotations

import pytest

from controller import config
from controller.web.security import (
    PinError,
    RateLimit,
    Sessions,
    hash_pin,
    hash_problem,
    one_time_pin,
    same_origin,
    verify_pin,
)


def test_hash_verifies_only_its_pin_and_hides_it():
    h = hash_pin("135790", n=2**10)
    assert h.startswith("scrypt$1024$8$1$") and "135790" not in h
    assert verify_pin("135790", h) and not verify_pin("135791", h) and not verify_pin("", h)
    assert hash_pin("135790", n=2**10) != h, "a fresh salt each time"
    assert hash_problem(h) is None and hash_problem("") is None
    for bad in ("135790", "scrypt$x$8$1$aa$bb", "scrypt$1000$8$1$c2FsdHNhbHQ$" + "A" * 43, "md5$1$2$3$4$5"):
        assert hash_problem(bad), bad
        assert not verify_pin("135790", bad)
    assert not verify_pin("135790", "")
    with pytest.raises(PinError):
        hash_pin("12345")
    with pytest.raises(PinError):
        hash_pin(" 123456")
    pin, ph = one_time_pin()
    assert len(pin) == 6 and pin.isdigit() and verify_pin(pin, ph)


def test_config_refuses_a_plain_pin():
    with pytest.raises(config.ConfigError, match="web.judge_pin_hash"):
        config.defaults().with_overrides(web__judge_pin_hash="123456")
    assert config.defaults().with_overrides(web__judge_pin_hash=hash_pin("123456", n=2**10))


def test_sessions_expire_idle_and_old_and_are_bounded():
    now = [0.0]
    s = Sessions(idle_s=10, max_s=30, clock=lambda: now[0], limit=3)
    tok, sess = s.open("a", "1.2.3.4")
    assert s.get(tok) is sess and s.get("nope") is None and s.get(None) is None
    now[0] = 9
    assert s.get(tok) is sess
    now[0] = 18
    assert s.get(tok) is sess  # seen at 9: still within 10 s
    now[0] = 29
    assert s.get(tok) is None, "idle too long"
    tok, _ = s.open("b", "x")
    for t in (35, 44, 53, 62):
        now[0] = t
        assert s.get(tok) is not None or t - 29 > 30
    now[0] = 70
    assert s.get(tok) is None, "older than max_s"
    toks = [s.open(str(i), "x")[0] for i in range(5)]
    assert len(s) == 3 and s.get(toks[0]) is None and s.get(toks[-1]) is not None
    s.close(toks[-1])
    assert s.get(toks[-1]) is None


def test_rate_limit_per_client_and_overall():
    now = [0.0]
    rl = RateLimit(per_client=3, overall=5, window_s=60, clock=lambda: now[0])
    for _ in range(3):
        assert rl.retry_after("a") == 0
        rl.failed("a")
    assert rl.retry_after("a") == 60 and rl.retry_after("b") == 0
    rl.failed("b")
    rl.failed("c")
    assert rl.retry_after("d") > 0, "five failures from anywhere: everyone waits"
    now[0] = 61
    assert rl.retry_after("a") == 0 and rl.retry_after("d") == 0
    rl.failed("a")
    rl.succeeded("a")
    assert rl.retry_after("a") == 0


@pytest.mark.parametrize("headers,ok", [
    ({"Origin": "http://table.local:8080"}, True),
    ({"Origin": "http://TABLE.local:8080"}, True),
    ({"Origin": "http://table.local:8081"}, False),
    ({"Origin": "http://evil.example"}, False),
    ({"Origin": "null"}, False),
    ({"Origin": "file://table.local:8080"}, False),
    ({"Referer": "http://table.local:8080/page"}, True),
    ({"Referer": "http://evil.example/table.local:8080"}, False),
    ({"Sec-Fetch-Site": "cross-site"}, False),
    ({"Sec-Fetch-Site": "same-origin"}, True),
    ({}, True),  # not a browser (curl with the cookie): no cross-site request to guard against
])
def test_same_origin(headers, ok):
    assert same_origin(headers, "table.local:8080") is ok
