"""The public projection never carries hidden information, follows the table as the camera sees it, and
every word it needs exists in Russian and English."""
from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from controller.table_machine import S
from controller.web.public import PublicHand
from rules.events import Dealt, Drew, HandRevealed, MeldMade
from rules.game.machine import table_view
from rules.game.siamese import siamese_table_view
from rules.profiles import registry
from rules.simulate import play_hand
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]
I18N = json.loads((ROOT / "controller" / "web" / "static" / "i18n.json").read_text(encoding="utf-8"))
PROFILES = [("riichi-ema2016", 4), ("sichuan-mpl2025", 4), ("sichuan-mpl2025", 3), ("sichuan-wmsg", 4), ("mcr", 4),
            ("mcr-siamese", 4), ("red", 4), ("red", 3), ("red", 2), ("basic", 4)]
SECRET = "SECRET"


def hands(profile: str, players: int, n: int):
    rng = random.Random(f"{profile}{players}")
    prof = registry.get(profile)
    for i in range(n):
        yield play_hand(prof, random.Random(rng.random()), n_players=players, dealer=0, hand_id=f"h{i}").events


def with_secrets(events):
    """The same hand with every concealed tile (dealt, drawn) replaced by a marker nobody may see."""
    out = []
    for k, ev in enumerate(events):
        if isinstance(ev, Dealt):
            ev = dataclasses.replace(ev, tiles=tuple(f"{SECRET}{k}.{j}" for j in range(len(ev.tiles))))
        elif isinstance(ev, Drew):
            ev = dataclasses.replace(ev, tile=f"{SECRET}{k}")
        out.append(ev)
    return out


@pytest.mark.parametrize("profile,players", PROFILES, ids=lambda v: str(v))
def test_no_hidden_information_in_any_view(profile, players):
    """Three views of each moment of whole hands: from the full log, from the log with every concealed tile
    replaced by a marker, and from what the camera sees. All three are equal, and no marker shows."""
    for events in hands(profile, players, scaled(2, 20)):
        full, secret, camera = PublicHand(profile), PublicHand(profile), PublicHand(profile)
        revealed: set[int] = set()
        for ev, sev in zip(events, with_secrets(events)):
            full.feed(ev)
            secret.feed(sev)
            if isinstance(ev, HandRevealed):
                revealed.add(ev.seat)
            a, b = full.view(), secret.view()
            assert a == b, f"{ev.TYPE}: the view depends on concealed tiles"
            text = json.dumps(b)
            assert SECRET not in text
            assert not re.search(r'"(concealed|hand|wait|waits|wall_tiles|drawn)"', text), text[:200]
            for s in a["seats"]:
                if s["seat"] not in revealed:
                    assert s["revealed"] == [], f"seat {s['seat']} shown before its reveal"
        view = siamese_table_view if profile == "mcr-siamese" else table_view
        for ev in view(events):
            camera.feed(ev)
        assert full.view() == camera.view()
        assert not full.broken, full.broken


def test_the_view_follows_the_table_as_the_camera_sees_it():
    events = next(e for e in hands("riichi-ema2016", 4, 40) if any(isinstance(x, MeldMade) and x.from_seat is not None
                                                                   for x in e))
    h = PublicHand("riichi-ema2016")
    pond_sizes = [0, 0, 0, 0]
    saw_meld = False
    for ev in events:
        h.feed(ev)
        v = h.view()
        assert v["wall"] is None or 0 <= v["wall"] <= 136
        for s in v["seats"]:
            assert s["standing"] >= 0
        if isinstance(ev, MeldMade) and ev.from_seat is not None:
            m = v["seats"][ev.seat]["melds"][-1]
            want = {1: "right", 2: "opposite", 3: "left"}[(ev.from_seat - ev.seat) % 4]
            assert m["source"] == want and m["sideways"] is not None and ev.claimed_tile in m["tiles"]
            saw_meld = True
        if ev.TYPE == "discarded":
            assert v["seats"][ev.seat]["pond"][-1]["tile"] == ev.tile
            assert len(v["seats"][ev.seat]["pond"]) == pond_sizes[ev.seat] + 1
        pond_sizes = [len(s["pond"]) for s in v["seats"]]
    assert saw_meld
    assert v["settlement"] is not None and sum(v["settlement"]["deltas"]) == 0 or v["exhaustive"]
    assert v["phase"] == "over" and v["turn"] is None


def test_a_rejected_action_shows_as_its_code_only():
    from rules.events import Discarded, Violation

    h = PublicHand("basic")
    h.feed(Violation(seat=2, code="tile_not_held", rule="000 §2.5.4", message="discarded 5m, holds 1m 2m 3m",
                     action=Discarded(seat=2, tile="5m").to_json()))
    v = h.view()["violations"]
    assert v == [{"seat": 2, "code": "tile_not_held", "rule": "000 §2.5.4", "deferred": False}]


def test_every_word_in_both_languages():
    from rules.game.state import Phase
    from rules.game.violations import CODES

    en, ru = I18N["en"], I18N["ru"]
    assert set(en) == set(ru)
    assert all(ru[k].strip() and en[k].strip() for k in en)
    codes = set(CODES)
    for p in (ROOT / "rules").rglob("*.py"):  # codes raised outside the table too
        codes |= set(re.findall(r'_(?:viol|note)\(\s*"([a-z_]+)"', p.read_text(encoding="utf-8")))
        codes |= set(re.findall(r'_Reject\(\s*"([a-z_]+)"', p.read_text(encoding="utf-8")))
    missing = sorted(c for c in codes if f"v.{c}" not in en)
    assert not missing, missing
    for s in S:
        assert f"state.{s}" in en and f"prompt.{s}" in en
    phases = [v for k, v in vars(Phase).items() if not k.startswith("_") and isinstance(v, str)]
    assert phases and all(f"phase.{p}" in en for p in phases)
    js = (ROOT / "controller" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    html = (ROOT / "controller" / "web" / "static" / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([a-z_.]*[a-z_])"', js)) | set(re.findall(r'data-t="([a-z_.]+)"', html))
    assert not sorted(k for k in used if k not in en)


def test_a_hand_before_its_first_event_is_an_empty_table():
    v = PublicHand("basic", "t-00001").view()
    assert v["hand_id"] == "t-00001" and not v["broken"] and v["phase"] == "setup"
    assert all(s["pond"] == [] and s["standing"] == 0 for s in v["seats"])


def test_a_later_part_adds_public_notices_for_its_events():
    """The referee's events plug in by their wire name; an event with no renderer is not shown at all, and a
    notice carries only its words (a field a renderer adds besides is dropped), stamped with the event's time."""
    from controller.web import public
    from rules.events import TableReconciled

    h = PublicHand("basic")
    h.feed(TableReconciled(result="mismatch", detail="South pond: expected 1m 9p, seen 1m"))
    assert h.view()["notices"] == []
    public.public_renderer("table_reconciled")(lambda ev: {"kind": "check", "text": ev.result, "detail": ev.detail})
    try:
        h.feed(TableReconciled(result="match", detail="hidden 5m", t_mono=7.0))
    finally:
        public._RENDERERS.pop("table_reconciled")
    assert h.view()["notices"] == [{"kind": "check", "text": "match", "t": 7.0}]


def test_mcr_fans_have_their_seed_names_in_russian():
    from rules.profiles.mcr import fan_table

    names = re.findall(r'_f\(\d+, "([^"]+)"', Path(fan_table.__file__).read_text(encoding="utf-8"))
    assert len(names) >= 80
    for n in names:  # 003 §Таблица фанов: "Русское / English"
        assert I18N["en"][f"fan.{n}"] == n and re.search("[А-Яа-яЁё]", I18N["ru"][f"fan.{n}"]), n


def _ru(key: str) -> bool:
    return key in I18N["ru"] and bool(re.search("[А-Яа-яЁё]", I18N["ru"][key]))


def test_every_other_profiles_fans_have_russian_names():
    """The fans and yaku of sichuan, red and riichi by the profile's own key (fan.<profile>.<name>): the names
    of its data table (sichuan, red: the seed's name kept there; riichi: 004 Rules 4.2 in i18n.json)."""
    from rules.profiles.red.fans import FANS as RED
    from rules.profiles.sichuan.params import MPL_FANS, WMSG_FANS

    tables = {"sichuan-mpl2025": {f.name: f.ru for f in MPL_FANS}, "sichuan-wmsg": {f.name: f.ru for f in WMSG_FANS},
              "red": {f.name: f.name_ru for f in RED}}
    for profile, names in tables.items():
        for en, ru in names.items():
            assert I18N["en"][f"fan.{profile}.{en}"] == en and I18N["ru"][f"fan.{profile}.{en}"] == ru, (profile, en)
    yaku = re.findall(r'name="([^"]+)"', "".join(p.read_text(encoding="utf-8") for p in
                                                 (ROOT / "rules" / "profiles" / "riichi" / "yaku").glob("*.py")))
    assert len(yaku) >= 40
    for en in [*yaku, "Dora", "Ura dora"]:
        assert _ru(f"fan.riichi-ema2016.{en}"), en


@pytest.mark.parametrize("profile,players", [p for p in PROFILES if p[0] != "basic"], ids=lambda v: str(v))
def test_payment_reasons_of_played_hands_have_russian_words(profile, players):
    """Each payment's reason as a template (numbers as {n}) in i18n.json: the ru page words it in Russian."""
    seen = set()
    for events in hands(profile, players, scaled(12, 60)):
        for ev in events:
            for p in getattr(ev, "payments", ()) or ():
                seen.add(re.sub(r"\d+", "{n}", str(p.get("reason", ""))))
    assert seen
    assert sorted(r for r in seen if not _ru(f"pay.{r}")) == []
