"""Impossible contexts refused in one place per profile: each profile's declared table
(``Profile.impossible``) is what its scorer and the hand machine both judge by."""
from __future__ import annotations

import pytest

from rules.circumstances import Impossible, impossible, robbing_on_the_last_tile, rule
from rules.events import Violation
from rules.notation import parse_hand
from rules.profiles import registry
from rules.profiles.basic import Basic
from rules.profiles.mcr.profile import MCR
from rules.scoring import ContextValue
from tests.game.helpers import HANDS, Script

# profiles whose context speaks of robbing a kong and of the last tile, with a hand each scores as a
# discard win, so only the circumstances can make it invalid
DISCARD_WINS = {
    "mcr": ("123m456m789m11p45p + 6p", {}),
    "mcr-siamese": ("123m456m789m11p45p + 6p", {}),
    "riichi-ema2016": ("23456m67888p234s + 4m", {"seat_wind": "2z", "dealer": False}),
    "sichuan-mpl2025": ("123m456m789m11p45p + 6p", {"missing_suit": "s"}),
    "sichuan-wmsg": ("123m456m789m11p45p + 6p", {"missing_suit": "s"}),
}


def test_the_table_judges_in_order_and_a_partial_view_skips_what_it_cannot_see() -> None:
    table = (
        rule({"a"}, "a needs b", none_of={"b"}),
        rule({"a", "c"}, "a and c"),
    )
    assert impossible(table, {"a": True}) == "a needs b"
    assert impossible(table, {"a": True, "b": True}) is None
    assert impossible(table, {"a": True, "b": True, "c": True}) == "a and c"
    # the machine sees only some circumstances: an entry naming one it does not see is not judged
    assert impossible(table, {"a": True, "c": True}, partial=True) == "a and c"
    assert impossible(table, {"a": True}, partial=True) is None
    assert rule({"x"}, "r").names == frozenset({"x"})
    assert isinstance(robbing_on_the_last_tile("ref"), Impossible)


def test_every_profile_declares_its_table_over_its_own_context_or_the_hand() -> None:
    derived = {"closed", "kan", "melds"}  # riichi: read from the hand itself, not a context field
    for name in registry.names():
        p = registry.get(name)
        fields = {f.name for f in p.context_fields}
        for entry in p.impossible:
            assert entry.names <= fields | derived, (name, entry)
            assert entry.reason


LAST_TILE_RULE = robbing_on_the_last_tile("").all_of


@pytest.mark.parametrize("name", sorted(DISCARD_WINS))
def test_a_robbed_kong_on_the_last_tile_is_refused_where_the_table_says_so(name: str) -> None:
    """Every profile with kongs refuses it: no kong once the live wall is empty (riichi spec A20; 000 §2.5.7
    says it outright, 002 §8 and 003 §Как играть конг take a kong's replacement from the wall), so there is
    nothing to rob on the last tile. The hand machine refuses such a kong the same way (kong_on_last_tile)."""
    p = registry.get(name)
    text, extra = DISCARD_WINS[name]
    hand = parse_hand(text)
    base: dict[str, ContextValue] = dict(extra)
    assert p.score(hand, p.context(base)).valid
    assert p.score(hand, p.context({**base, "robbing_kong": True})).valid
    assert p.score(hand, p.context({**base, "last_tile": True})).valid
    r = p.score(hand, p.context({**base, "robbing_kong": True, "last_tile": True}))
    assert any(e.all_of == LAST_TILE_RULE for e in p.impossible)
    assert not r.valid and "live wall is empty" in (r.reason or "")


@pytest.mark.parametrize("name", registry.names())
def test_scorer_refuses_each_entry_of_its_table(name: str) -> None:
    """Every entry made only of context fields: set what it names (``all_of`` true, ``none_of`` false)
    and the scorer answers invalid with the reason the table gives for that context."""
    p = registry.get(name)
    fields = {f.name for f in p.context_fields}
    text, extra = DISCARD_WINS.get(name, ("123m456m789m11p45p + 6p", {}))
    for entry in p.impossible:
        if not entry.names <= fields:
            continue
        ctx: dict[str, ContextValue] = {**extra, **{c: True for c in entry.all_of}, **{c: False for c in entry.none_of}}
        if ctx.get("dealer"):
            ctx["seat_wind"] = "1z"  # riichi: the dealer sits East
        r = p.score(parse_hand(text), p.context(ctx))
        assert not r.valid, (name, entry)
        hand_facts = {"closed": True, "kan": False, "melds": False}  # of these hands (riichi reads them)
        assert r.reason == impossible(p.impossible, {**p.context(ctx), **hand_facts}), (name, entry, r.reason)


class MCRTable(Basic):
    """Basic play judged by MCR's table of impossible circumstances, and riichi's last-tile rule."""

    impossible = (*MCR.impossible, robbing_on_the_last_tile("spec A20"))


def test_machine_refuses_a_self_drawn_win_declared_as_a_robbed_kong() -> None:
    s = Script(HANDS, profile=MCRTable())
    v = s.win(0, "3z", robbing_kong=True)
    assert isinstance(v, Violation) and v.code == "impossible_context"
    assert "not self-drawn" in v.message
    assert s.state.wins == []


def _hu_claimed_on_seat_2s_discard(s: Script) -> Script:
    """East discards, South draws and discards, West draws 3m and discards it; South claims hu on it."""
    s.discard(0, "3z")
    s.draw(1, "6s")
    s.discard(1, "6s")
    s.draw(2, "3m")
    s.discard(2, "3m")
    s.claim(1, "hu", 2, "3m")
    return s


def test_machine_refuses_a_discard_win_declared_as_a_robbed_kong_on_the_last_tile() -> None:
    s = _hu_claimed_on_seat_2s_discard(Script(HANDS, profile=MCRTable()))
    v = s.win(1, "3m", from_seat=2, robbing_kong=True, last_tile=True)
    assert isinstance(v, Violation) and v.code == "impossible_context"
    assert "live wall is empty" in v.message
    assert s.win(1, "3m", from_seat=2).TYPE == "won"  # the same win, declared as it happened


def test_without_a_table_the_machine_judges_no_circumstances() -> None:
    assert Basic.impossible == ()
    s = _hu_claimed_on_seat_2s_discard(Script(HANDS))
    assert s.win(1, "3m", from_seat=2, robbing_kong=True, last_tile=True).TYPE == "won"


def test_the_riichi_scorers_bit_table_answers_as_the_declared_table():
    """The scorer's compiled table (one int per hand) says what ``impossible`` says, for every combination."""
    from rules.circumstances import impossible
    from rules.profiles.riichi.profile import _TABLE, CIRCUMSTANCES, IMPOSSIBLE, TRIGGERS

    triggers = _TABLE.mask(TRIGGERS)
    for mask in range(1 << len(CIRCUMSTANCES)):
        named = {name: bool(mask >> i & 1) for i, name in enumerate(CIRCUMSTANCES)}
        assert _TABLE.first(mask) == impossible(IMPOSSIBLE, named), named
        assert _TABLE.answers[mask] == _TABLE.first(mask), named
        if not mask & triggers:  # the scorer skips the table then (HandInfo.impossible_key 0)
            assert _TABLE.answers[mask] is None, named


def test_the_riichi_scorers_key_names_the_circumstances_of_the_win():
    """``HandInfo.impossible_key`` holds the bit of each circumstance that holds (when a trigger does)."""
    from rules.notation import parse_hand
    from rules.profiles import registry
    from rules.profiles.riichi.profile import CIRCUMSTANCES
    from rules.profiles.riichi.reading import HandInfo

    prof = registry.get("riichi-ema2016")
    closed = parse_hand("123m456p78s22z[(1111z)] + 9s")  # a concealed kan: closed, a kan, a meld
    info = HandInfo(closed, prof.context({"riichi": True, "self_drawn": True, "seat_wind": "1z"}))
    held = {n for i, n in enumerate(CIRCUMSTANCES) if info.impossible_key >> i & 1}
    assert held == {"riichi", "self_drawn", "dealer", "closed", "kan", "melds"}
    info = HandInfo(parse_hand("123m456p789s11z22z + 2z"), prof.context({"robbing_kong": True, "last_tile": True}))
    held = {n for i, n in enumerate(CIRCUMSTANCES) if info.impossible_key >> i & 1}
    assert held == {"robbing_kong", "last_tile", "closed"}
    assert HandInfo(parse_hand("123m456p789s11z22z + 2z"), prof.context({"self_drawn": True})).impossible_key == 0


def test_the_sichuan_situation_answers_as_the_declared_table():
    """``Situation.problem`` (bit masks, precomputed) says what ``impossible`` says, for every combination."""
    from dataclasses import asdict

    from rules.circumstances import impossible
    from rules.profiles.sichuan.scoring import IMPOSSIBLE, SITUATION_FIELDS, Situation

    for mask in range(1 << len(SITUATION_FIELDS)):
        sit = Situation(**{name: bool(mask >> i & 1) for i, name in enumerate(SITUATION_FIELDS)})
        assert sit.problem() == impossible(IMPOSSIBLE, asdict(sit)), sit
