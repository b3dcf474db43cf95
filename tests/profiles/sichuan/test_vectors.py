"""Every vector of sichuan_vectors.json runs here, dispatched on what it states.

Hands given → scored/checked by the profile; ``hand: null`` vectors test what they state (fan values,
tables, verdicts, payments) through the pure functions of ``rules.profiles.sichuan``. Seed examples whose
tile images are missing (AMB-01) are also checked on hands constructed here to show the stated fans
(see test_seed_examples.py).
"""
from __future__ import annotations

import pytest

from rules.events import DiceRolled, HandStarted, WallBroken
from rules.game.machine import HandMachine
from rules.notation import MeldKind, parse_hand
from rules.profiles import registry
from rules.profiles.sichuan import penalties, session
from rules.profiles.sichuan.params import PARAMS
from rules.profiles.sichuan.scoring import hu_payments
from rules.profiles.sichuan.session import HuEvent
from rules.profiles.sichuan.settlement import EndHand, HandLedger, deltas_of, kong_payments
from tests.game.table_script import Table
from tests.oracles import sichuan_wall as tables
from tests.profiles.sichuan.vectors import vectors

CTX_FIELDS = (
    "missing_suit", "self_drawn", "kong_replacement", "kong_discard", "robbing_kong", "last_tile",
    "winner_seat", "discarder_seat", "kong_declarer_seat", "players_in_play",
)
EVENT_KIND = {"open_kong": "open", "concealed_kong": "concealed", "added_kong": "added"}


def seatmap(d: dict) -> dict[int, int]:
    return {int(k): v for k, v in d.items()}


def full(d: dict[int, int], seats=(0, 1, 2, 3)) -> dict[int, int]:
    return {s: d.get(s, 0) for s in seats}


def fans_of(res_json: dict) -> dict[str, int]:
    return {f["id"]: f["value"] for f in res_json["fans"]}


# ----------------------------------------------------------------------------------------------------------
# handlers, one per kind of statement


def check_score(v: dict) -> None:
    prof = registry.get(v["profile"])
    ctx = prof.context({k: v[k] for k in CTX_FIELDS if k in v})
    res = prof.score_checked(parse_hand(v["hand"]), ctx).to_json()
    exp = v["expected"]
    assert res["valid"] is exp["valid_win"], res
    if not exp["valid_win"]:
        assert exp["reason"] in res["reason"]
        return
    assert fans_of(res) == dict(exp["fans"])
    assert res["total_fan"] == exp["total_fan"]
    assert res["base_points"] == exp["base_points"]
    pays = exp["payments"] if exp["payments"] is not None else exp.get("recommended_payments")
    assert res["payments"] == pays
    winner = v["winner_seat"]
    assert res["points"]["total"] == pays[str(winner)]
    if exp.get("robbed_kong_valid") is False:
        # the robbed added kong scores nothing: through the ledger, its kong payments are returned
        p = PARAMS[v["profile"]]
        led = HandLedger(p, missing_suits={winner: v["missing_suit"]})
        led.kong(v["kong_declarer_seat"], "added", fresh=True)
        led.hu(winner, parse_hand(v["hand"]), discarder=v["kong_declarer_seat"], robbing_kong=True)
        st = led.settle()
        assert {str(s): d for s, d in st.deltas.items()} == pays
        assert led.kongs[0].status == "robbed"


def check_tenpai(v: dict) -> None:
    prof = registry.get(v["profile"])
    info = prof.tenpai(parse_hand(v["hand"]), v["missing_suit"])
    exp = v["expected"]
    assert info.tenpai is exp["tenpai"]
    if "waits" in exp:
        assert [str(t) for t in info.waits] == exp["waits"]
    if "max_total_fan" in exp:
        assert info.max_total_fan == exp["max_total_fan"]
        assert info.base_points == exp["base_points"] == exp["payment_from_each_non_tenpai_player"]


def check_kong_event(v: dict) -> None:
    p = PARAMS[v["profile"]]
    kind = EVENT_KIND[v["event"]]
    fresh = v.get("fourth_tile_source", "just_drawn_from_wall") == "just_drawn_from_wall"
    if v["hand"]:
        meld = parse_hand(v["hand"]).melds[0]
        assert meld.kind is {"open": MeldKind.KONG_OPEN, "concealed": MeldKind.KONG_CONCEALED,
                             "added": MeldKind.KONG_ADDED}[kind]
    lines = kong_payments(p, v["declarer_seat"], kind, v["players_in_play"], v.get("discarder_seat"), fresh)
    exp = v["expected"]
    assert full(deltas_of(lines)) == full(seatmap(exp["payments"]))
    for ln in lines:
        assert ln.rule.startswith(p.seed) and ln.reason
    if "kong_payment_per_payer" in exp:
        assert all(ln.amount == exp["kong_payment_per_payer"] for ln in lines)
    if "kong_still_worth_fan" in exp:
        # a delayed kong keeps its fan (000 App.1 row 4): constructed hand with an added kong
        prof = registry.get(v["profile"])
        h = parse_hand("[5555p+] 123m 456m 789m 1p + 1p")
        r = prof.score_checked(h, prof.context({"missing_suit": "s"})).to_json()
        assert fans_of(r) == {"kong": exp["kong_still_worth_fan"]}


def check_kong_events(v: dict) -> None:
    p = PARAMS[v["profile"]]
    led = HandLedger(p)
    kong_lines = []
    for ev in v["events"]:
        if ev["type"] in EVENT_KIND:
            fresh = ev.get("fourth_tile_source", "just_drawn_from_wall") == "just_drawn_from_wall"
            rec = led.kong(ev["seat"], EVENT_KIND[ev["type"]], fresh=fresh)
            assert sorted(ln.payer for ln in rec.lines) == ev["payers"]
        elif ev["type"] == "discard":
            for w in ev["claimed_by_hu"]:
                rec = led.hu(w, total_fan=1, discarder=ev["seat"], kong_discard=True)
                kong_lines = [x for x in led.payments if x not in rec.lines]
    if v.get("end") == "exhaustion":
        # every player in play shows a hand that is not tenpai: nobody pays for tenpai, only refunds
        flat = parse_hand("123m456m789m13p57p")
        states = led.exhaustion({s: EndHand(flat, "s") for s in led.active})
        for s, want in v["final_state"].items():
            assert states[int(s)].state == want
        kong_lines = list(led.payments)
    got = full(deltas_of(kong_lines))
    assert got == full(seatmap(v["expected"]["kong_payments_after_refund"]))
    if "refunded" in v["expected"]:
        assert [k.status for k in led.kongs] == ["valid", "refunded"]


def check_given_fan_payment(v: dict) -> None:
    p = PARAMS[v["profile"]]
    base = p.base_points(v["given_total_fan"])
    assert base == v["expected"]["base_points"]
    d = hu_payments(p, base, v["winner_seat"], v["self_drawn"], None, v["players_in_play"])
    assert full(d) == full(seatmap(v["expected"]["payments"]))
    # and through the ledger, with the earlier winner out of play
    led = HandLedger(p)
    for s in v["already_won"]:
        led.mark_won_earlier(s)
    led.hu(v["winner_seat"], total_fan=v["given_total_fan"], self_drawn=True)
    assert full(led.settle().deltas) == full(seatmap(v["expected"]["payments"]))


def check_multiple_hu(v: dict) -> None:
    p = PARAMS[v["profile"]]
    prof = registry.get(v["profile"])
    led = HandLedger(p, dealer=0, missing_suits={w["seat"]: w["missing_suit"] for w in v["winners"]})
    recs = led.hu_group(v["discarder_seat"], {w["seat"]: parse_hand(w["hand"]) for w in v["winners"]})
    for w, r in zip(sorted(v["winners"], key=lambda w: (w["seat"] - v["discarder_seat"]) % 4), recs, strict=True):
        assert r.valid and r.total_fan == w["total_fan"]
        res = prof.score_checked(parse_hand(w["hand"]), prof.context({"missing_suit": w["missing_suit"]}))
        assert res.total_fan == w["total_fan"]
    st = led.settle()
    exp = v["expected"]
    assert full(st.deltas) == full(seatmap(exp["payments"]))
    assert st.next_dealer == exp["next_dealer"]
    winners = [w["seat"] for w in v["winners"]]
    if "winning_tile_placed_at_seat" in exp:
        assert session.winning_tile_holder(v["discarder_seat"], winners) == exp["winning_tile_placed_at_seat"]
    if "next_to_play" in exp:
        assert session.next_to_play(v["discarder_seat"], winners, led.active) == exp["next_to_play"]


def check_false_hu(v: dict) -> None:
    p = PARAMS[v["profile"]]
    led = HandLedger(p)
    for s in v.get("already_won", []):
        led.mark_won_earlier(s)
    if "players_not_yet_won" in v:
        for s in set(range(4)) - set(v["players_not_yet_won"]) - {v["declarer_seat"]}:
            led.mark_won_earlier(s)
    if "players_in_play_at_declaration" in v:
        assert sorted(led.active) == v["players_in_play_at_declaration"]
    tenpai_before = v.get("declarer_was_tenpai", True)
    rec = led.false_hu(v["declarer_seat"], tenpai_before)
    assert not rec.valid
    st = led.settle()
    assert full(st.deltas) == full(seatmap(v["expected"]["payments"]))
    assert all(ln.rule for ln in st.payments)


def check_pig(v: dict) -> None:
    p = PARAMS[v["profile"]]
    exp = v["expected"]
    hand = parse_hand("123m456m789m11p45p")  # two suits, holds p: the declared missing suit
    assert v["hand_contains_missing_suit"]
    all_missing = v.get("all_discards_of_missing_suit", False)
    end = EndHand(hand, v["missing_suit"], all_discards_of_missing_suit=all_missing)
    led = HandLedger(p)
    others = parse_hand("123m456m789m13s57s")  # not tenpai, no p
    ends = {s: EndHand(others, "p") for s in range(4) if s != v["seat"]}
    ends[v["seat"]] = end
    states = led.exhaustion(ends)
    st = states[v["seat"]]
    if "pig" in exp:
        assert st.state == f"{exp['pig']}_pig"
    else:
        assert st.state == "pig"
    assert st.pig_penalty == exp["penalty"]
    if "treated_as" in exp:
        assert exp["treated_as"] == "not_tenpai" and not st.tenpai
    settled = led.settle()
    pen = [x for x in settled.payments if x.payee is None]
    if exp["penalty"]:
        assert [(x.payer, x.amount) for x in pen] == [(v["seat"], exp["penalty"])]
        assert exp["penalty_credited_to"] == []
    else:
        assert pen == []
    if "payments" in exp:
        assert full(settled.deltas) == full(seatmap(exp["payments"]))


def check_tp(v: dict) -> None:
    gp = seatmap(v["session_gp"])
    assert session.tournament_points(gp) == {s: float(x) for s, x in seatmap(v["expected"]["tp"]).items()}


def check_lateness(v: dict) -> None:
    for case in v["expected"]["cases"]:
        r = penalties.lateness(case["minutes_late"])
        if "gp_penalty" in case:
            assert r.gp_penalty == case["gp_penalty"] and r.fixed_tp is None
        else:
            assert (r.fixed_tp, r.fixed_gp) == (case["fixed_result"]["tp"], case["fixed_result"]["gp"])


def check_rotation(v: dict) -> None:
    for case in v["expected"]["cases"]:
        evs = [HuEvent(tuple(h["winners"]), h.get("discarder"), false_hu=h.get("false_hu", False))
               for h in case["hu_sequence"]]
        assert session.next_dealer(v["dealer_seat"], evs) == case["next_dealer"]


def check_fan_to_base(v: dict) -> None:
    p = PARAMS[v["profile"]]
    for case in v["expected"]["cases"]:
        assert p.base_points(case["total_fan"]) == case["base_points"]


def _break(profile: str, dealer: int, dice: tuple[int, int], side: int, stack: int) -> HandMachine:
    """The machine after the hand's start and one throw, with the break on ``side`` after ``stack`` stacks
    submitted: it must accept it (the dice say so) and refuse any other side."""
    m = HandMachine(registry.get(profile), "table")
    m.submit(HandStarted(profile=profile, dealer=dealer))
    m.submit(DiceRolled(seat=dealer, values=dice))
    wrong = m.submit(WallBroken(wall_side=(side + 1) % 4, stack=stack, position=0))[0]
    assert wrong.TYPE == "violation" and wrong.code == "wrong_break"
    assert m.submit(WallBroken(wall_side=side, stack=stack, position=0))[0].TYPE == "wall_broken"
    return m


def check_dice_table(v: dict) -> None:
    for case in v["expected"]["cases"]:
        s = case["dice_sum"]
        dice = (1, s - 1) if s <= 7 else (s - 6, 6)
        owner = (v["dealer_seat"] + case["wall_owner_offset_from_dealer"]) % 4
        m = _break(v["profile"], v["dealer_seat"], dice, owner, min(dice))
        assert m.state.wall_break is not None and m.state.wall_break.side == owner
        assert tables.dice_wall_owner(v["dealer_seat"], dice) == owner  # the oracle agrees


def check_dice_example(v: dict) -> None:
    exp = v["expected"]
    assert sum(v["dice"]) == exp["dice_sum"]
    m = _break(v["profile"], v["dealer_seat"], tuple(v["dice"]), exp["wall_owner_seat"], exp["break_stacks"])
    brk = m.state.wall_break
    assert brk is not None and brk.first_stack == (exp["wall_owner_seat"], exp["break_stacks"] + 1)
    assert tables.stack_order(v["dealer_seat"], v["dice"])[0] == brk.first_stack  # the oracle agrees


def check_deal_layout(v: dict) -> None:
    """The deal through the machine (sizes, tiles left, the first draw's position) and, position by
    position, the oracle's layout of the seed's example."""
    exp = v["expected"]
    t = Table(registry.get(v["profile"]), dealer=v["dealer_seat"])
    st = t.st
    assert {str(e.seat): len(e.tiles) for e in st.history if e.TYPE == "dealt"} == exp["hand_sizes"]
    assert st.wall_remaining == exp["tiles_left_to_draw"]
    pos, first = tables.deal_positions(v["dealer_seat"], (0, 1, 2, 3))
    assert st.wall is not None and st.wall.draw_position() == first
    want: dict[int, list[str]] = {s: [] for s in range(4)}
    for rnd in exp["rounds"]:
        for take in rnd["takes"]:
            for st in take["stacks"]:
                want[take["seat"]] += [f"{st}.top", f"{st}.bottom"]
    for j in exp["jump"]:
        want[j["seat"]] += j["tiles"]
    assert {s: [str(p) for p in ps] for s, ps in pos.items()} == want
    assert {str(s): len(ps) for s, ps in pos.items()} == exp["hand_sizes"]
    assert sum(len(ps) for ps in pos.values()) == exp["tiles_dealt"]
    assert tables.N_TILES - exp["tiles_dealt"] == exp["tiles_left_to_draw"]
    stack, layer = exp["first_draw"].split(".")
    assert first == tables.Position(int(stack[1:]), layer == "top").index


def check_fan_statement(v: dict) -> None:
    """A seed example with its hand missing: the stated fans are the table's values and give the base."""
    p = PARAMS[v["profile"]]
    exp = v["expected"]
    for fid, value in exp["fans"]:
        assert value % p.fan(fid).value == 0
    assert sum(value for _, value in exp["fans"]) == exp["total_fan"]
    assert p.base_points(exp["total_fan"]) == exp["base_points"]


def check_max_statement(v: dict) -> None:
    p = PARAMS[v["profile"]]
    exp = v["expected"]
    assert exp["tenpai"] is True
    assert sum(value for _, value in exp["max_fans"]) == exp["max_total_fan"]
    assert all(not p.fan(fid).situational for fid, _ in exp["max_fans"])
    assert p.base_points(exp["max_total_fan"]) == exp["base_points"] == exp["payment_from_each_non_tenpai_player"]


def check_tenpai_statement(v: dict) -> None:
    assert isinstance(v["expected"]["tenpai"], bool)  # the verdict; constructed hands in test_seed_examples


def check_exhaustion(v: dict) -> None:
    p = PARAMS[v["profile"]]
    led = HandLedger(p)
    ends = {}
    for pl in v["players"]:
        if pl.get("state") == "won_earlier":
            led.mark_won_earlier(pl["seat"])
        else:
            ends[pl["seat"]] = EndHand(parse_hand(pl["hand"]), pl["missing_suit"],
                                       all_discards_of_missing_suit=pl.get("all_discards_of_missing_suit"))
    states = led.exhaustion(ends)
    exp = v["expected"]
    assert {str(s): st.state for s, st in states.items()} == exp["states"]
    if "max_total_fan" in exp:
        assert {str(s): st.max_total_fan for s, st in states.items() if st.tenpai} == exp["max_total_fan"]
    if "max_base_points" in exp:
        assert {str(s): st.max_base_points for s, st in states.items() if st.tenpai} == exp["max_base_points"]
    settled = led.settle()
    assert full(settled.deltas) == full(seatmap(exp["payments"]))
    if "pig_penalties" in exp:
        pen = {str(x.payer): x.amount for x in settled.payments if x.payee is None}
        assert pen == exp["pig_penalties"]


def handler(v: dict):
    exp = v["expected"]
    if isinstance(v.get("hand"), str) and "valid_win" in exp:
        return check_score
    if isinstance(v.get("hand"), str) and "tenpai" in exp and "event" not in v:
        return check_tenpai
    if "event" in v:
        return check_kong_event
    if "events" in v:
        return check_kong_events
    if "given_total_fan" in v:
        return check_given_fan_payment
    if "winners" in v:
        return check_multiple_hu
    if "rule-false-hu" in v["id"]:
        return check_false_hu
    if "hand_contains_missing_suit" in v:
        return check_pig
    if "session_gp" in v:
        return check_tp
    if v["id"].endswith("lateness"):
        return check_lateness
    if v["id"].endswith("dealer-rotation"):
        return check_rotation
    if v["id"].endswith("fan-to-base"):
        return check_fan_to_base
    if v["id"].endswith("dice-to-wall"):
        return check_dice_table
    if "dice" in v:
        return check_dice_example
    if v["id"].endswith("deal-layout"):
        return check_deal_layout
    if "players" in v:
        return check_exhaustion
    if "fans" in exp:
        return check_fan_statement
    if "max_fans" in exp:
        return check_max_statement
    if set(exp) == {"tenpai"}:
        return check_tenpai_statement
    return None


ALL = vectors()


@pytest.mark.parametrize("v", ALL, ids=[v["id"] for v in ALL])
def test_vector(v: dict) -> None:
    h = handler(v)
    assert h is not None, f"no test handles vector {v['id']}"
    h(v)


def test_every_vector_is_handled() -> None:
    assert len(ALL) == 105
    assert all(handler(v) is not None for v in ALL)

