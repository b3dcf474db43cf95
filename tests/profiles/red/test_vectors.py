"""Every vector of ``red_vectors.json`` as a test (spec §13), one test function per vector kind."""
from __future__ import annotations

import pytest

from rules.events import DiceRolled, HandStarted, WallBroken, Won
from rules.game.machine import HandMachine
from rules.game.setup import cached_break
from rules.notation import format_tiles, parse_hand
from rules.profiles.red import claims as cl
from rules.profiles.red import flowers as fl
from rules.profiles.red import penalties as pen
from rules.profiles.red import seating
from rules.profiles.red.payments import settle_draw, settle_win
from rules.profiles.red.scoring import cap_value
from rules.profiles.registry import get
from rules.tiles import JOKER, N_KINDS, Tile, tile
from rules.wall import wall_spec
from tests.game.table_script import Table
from tests.oracles import red_table
from tests.profiles.red.vectors import all_vectors, of_kind, score_context

RED = get("red")


def ids(vs):
    return [v["id"] for v in vs]


def score(v):
    hand = parse_hand(v["hand"])
    return RED.score_checked(hand, RED.context(score_context(v)))


def test_every_vector_kind_is_covered():
    covered = {
        "score", "validity", "wait", "cap", "payment", "penalty", "dealer_rotation", "claim",
        "claim_correction", "dice", "seating", "wall_break", "deal", "tile_count", "flower", "sticks",
    }
    assert {v["kind"] for v in all_vectors()} <= covered
    assert len(all_vectors()) == 126


# ----------------------------------------------------------------------------------------------------------
# Scoring


@pytest.mark.parametrize("v", of_kind("score", "validity"), ids=ids(of_kind("score", "validity")))
def test_score_vector(v):
    exp = v["expected"]
    r = score(v)
    j = r.to_json()
    assert r.valid is exp["valid"], j
    if "basic_points" in exp:
        assert j["basic_points"] == exp["basic_points"]
    if not exp["valid"]:
        assert j["reason"]
        return
    assert j["total"] == exp["total"] and r.total_fan == exp["total"]
    assert j["value"] == exp["value"]
    if "tie" not in exp:
        got = [{"no": f["no"], "name": f["name"], "count": f["count"], "points": f["points"]} for f in j["fans"]]
        assert got == exp["fans"]
    # the winner receives the value once on a discard, (players - 1) times on a self-draw (§Схема выплат)
    n = v.get("players", 4)
    mult = n - 1 if v.get("self_drawn") else 1
    assert r.points["total"] == exp["value"] * mult


@pytest.mark.parametrize("v", of_kind("wait"), ids=ids(of_kind("wait")))
def test_wait_vector(v):
    exp = v["expected"]
    hand = parse_hand(v["hand"])
    assert exp["waits_natural"] == "all 34 playing tile kinds"
    assert [int(t) for t in RED.waits(hand)] == list(range(N_KINDS))
    assert RED.joker_completes(hand) is exp["joker_completes"]
    won = parse_hand(v["hand"] + " + j")
    self_drawn = RED.score_checked(won, RED.context({"self_drawn": True}))
    assert self_drawn.valid is exp["joker_completes"]
    if exp.get("joker_only_by_self_draw"):  # a discarded joker can never be claimed (§Джокеры 2)
        assert not RED.score_checked(won, RED.context({"self_drawn": False})).valid


@pytest.mark.parametrize("v", of_kind("cap"), ids=ids(of_kind("cap")))
def test_cap_vector(v):
    assert cap_value(v["raw_total"]) == v["expected"]["value"]


# ----------------------------------------------------------------------------------------------------------
# Payments, penalties, dealer


def _deltas(settlement):
    return {str(k): d for k, d in settlement.deltas.items()}


@pytest.mark.parametrize("v", of_kind("payment"), ids=ids(of_kind("payment")))
def test_payment_vector(v):
    exp = v["expected"]
    n = v["players"]
    if v["winner"] is None:
        st = settle_draw(n)
        assert played(n, v["dealer"], None).next_dealer == exp["next_dealer"]
    else:
        r = score(v)
        assert r.valid
        st = settle_win(n, v["winner"], r.extra["value"], self_drawn=v["self_drawn"], discarder=v["discarder"])
        assert r.points["payments"] == exp["payments"]
    assert st.value == exp["value"]
    assert _deltas(st) == exp["payments"]
    assert sum(st.deltas.values()) == 0
    for p in st.payments:
        assert p.reason and p.rule.startswith("001 ")


@pytest.mark.parametrize("v", of_kind("penalty"), ids=ids(of_kind("penalty")))
def test_penalty_vector(v):
    exp = v["expected"]
    verdict = pen.PENALTIES[v["offence"]](v["players"], v["offender"])
    assert _deltas(verdict.settlement) == exp["payments"]
    assert verdict.offender_hand == exp["offender_hand"]
    if "hand_continues" in exp:
        assert verdict.hand_continues is exp["hand_continues"]


# A hand played through the machine to an outcome: the winner waits on 5p, which the dealer discards first
# (the dealer himself wins by self-draw on his dealt hand); a draw plays the wall out.
_WAITING = "123m456m789m123p5p"
_DEALER = {True: "123m456m789m123p55p", False: "147m258p369s1234z5p"}


def played(players: int, dealer: int, winner: int | None):
    """The state at the end of a hand with that outcome, played through the machine and Red's hooks."""
    hands = {dealer: _DEALER[winner == dealer]}
    if winner is not None and winner != dealer:
        hands[winner] = _WAITING
    t = Table(RED, dealer=dealer, n_players=players, hands=hands)
    if winner == dealer:
        t.ok(Won(seat=dealer, tile="5p"))
    elif winner is not None:
        t.discard("5p")
        t.ron(winner)
    else:
        t.discard("5p")
        t.exhaust()
    st = t.finish()
    assert [w.seat for w in st.valid_wins()] == ([winner] if winner is not None else [])
    return st


@pytest.mark.parametrize("v", of_kind("dealer_rotation"), ids=ids(of_kind("dealer_rotation")))
def test_dealer_vector(v):
    winner = v["winner"] if v["outcome"] == "win" else None
    st = played(v["players"], v["dealer"], winner)
    assert st.next_dealer == v["expected"]["next_dealer"]
    assert red_table.next_dealer(v["dealer"], v["players"], winner) == st.next_dealer  # the oracle agrees


# ----------------------------------------------------------------------------------------------------------
# Claims


@pytest.mark.parametrize("v", of_kind("claim"), ids=ids(of_kind("claim")))
def test_claim_vector(v):
    exp = v["expected"]
    claims = [cl.Claim.from_vector(c) for c in v["claims"]]
    res = cl.arbitrate(v["players"], v["discarder"], v["discard"], claims, v.get("river_bottom", False))
    j = res.to_json()
    if exp["awarded"] is None:
        assert j["awarded"] is None
    else:
        for k, val in exp["awarded"].items():
            assert j["awarded"][k] == val, (k, j)
    if "rejected" in exp:
        got = {(r["seat"], r["type"]): r["reason"] for r in j["rejected"]}
        assert set(got) == {(r["seat"], r["type"]) for r in exp["rejected"]}
        for r in exp["rejected"]:
            if "reason" in r:
                assert got[(r["seat"], r["type"])] == r["reason"]
    for k in ("next_turn", "drawn_tile_returned_to_wall", "hand_result"):
        if k in exp:
            assert j[k] == exp[k], k
    if "next_dealer" in exp:
        assert j["hand_result"] == "draw"
        assert played(v["players"], v["dealer"], None).next_dealer == exp["next_dealer"]


@pytest.mark.parametrize("v", of_kind("claim_correction"), ids=ids(of_kind("claim_correction")))
def test_claim_correction_vector(v):
    exp = v["expected"]
    events = v.get("events", ["called"])
    if "exposed_first" in v:  # a wrong exposure noticed at once (§Неправильные объявления 1)
        fixed = cl.fix_exposure(v["discard"], v["declared"], v["exposed_first"], parse_hand(v["concealed_before"]).concealed)
        assert fixed is not None
        meld, back = fixed
        assert format_tiles(meld.tiles) == exp["exposed_after_fix"]
        assert [str(t) for t in back] == exp["returned_to_hand"]
        verdict = cl.correction_verdict(["called", "exposed"])
        assert verdict["correctable"] is exp["correctable"]
        assert (verdict["hand"] == "dead") is exp["hand_dead"]
    elif "exposed" in v:
        valid = cl.set_is_valid(v["exposed"], v["declared"])
        assert not valid
        verdict = cl.correction_verdict(events, exposed_valid=valid)
        assert verdict["correctable"] is exp["correctable"]
        assert verdict["hand"] == exp["hand"]
    elif "changed_to" in v:
        verdict = cl.correction_verdict(events)
        assert verdict["may_change"] is exp["allowed"]
    else:
        verdict = cl.correction_verdict(events)
        for k, val in exp.items():
            assert verdict[k] == val, k
    if "penalty" in exp:
        assert verdict["penalty"] == exp["penalty"]


# ----------------------------------------------------------------------------------------------------------
# Table: dice, seating, wall, deal, counts, flowers, sticks


def _dice(total: int) -> tuple[int, int]:
    return (min(6, total - 1), total - min(6, total - 1))


def _broken(players: int, dealer: int, first: int, second: int, tiles: str = "T144"):
    """The machine after the hand's start, the two throws and the break the dice say."""
    m = HandMachine(RED, "table")
    m.submit(HandStarted(profile="red", n_players=players, dealer=dealer, options={"tiles": tiles}))
    spec = wall_spec("red", players, tiles)
    brk = cached_break(spec, dealer, (_dice(first), _dice(second)))
    for thrower, total in zip(brk.throwers, (first, second), strict=True):
        assert m.submit(DiceRolled(seat=thrower, values=_dice(total)))[0].TYPE == "dice_rolled"
    return m, brk


@pytest.mark.parametrize("v", of_kind("dice"), ids=ids(of_kind("dice")))
def test_dice_vector(v):
    """The first throw's sum names the breaker: the machine accepts the break on that seat's wall."""
    got = {}
    for s in range(2, 13):
        m, brk = _broken(v["players"], v["thrower"], s, 7)
        out = m.submit(WallBroken(wall_side=brk.side, stack=brk.count, position=0))
        assert out[0].TYPE == "wall_broken"
        wrong = WallBroken(wall_side=(brk.side + 1) % 4, stack=brk.count, position=0)
        assert _broken(v["players"], v["thrower"], s, 7)[0].submit(wrong)[0].code == "wrong_break"
        got[str(s)] = m.state.wall_break.side
    assert got == v["expected"]["target_seat_by_sum"]
    assert got == {str(s): red_table.dice_target(v["thrower"], s, v["players"]) for s in range(2, 13)}


@pytest.mark.parametrize("v", of_kind("seating"), ids=ids(of_kind("seating")))
def test_seating_vector(v):
    rer = [v["rerolls"]] if "rerolls" in v else []
    got = seating.seat_by_dice(v["rolls"], v["players"], rerolls=rer)
    assert {str(k): n for k, n in got.items()} == v["expected"]["seats"]


# derived_layout of the wall-break vectors: the flower-end segments, as the oracle writes them
_LAYOUT = {
    "red-break-01-fn5": (((3, 13),), (3, 14)),
    "red-break-02-cross": (((2, 18), (1, 4)), (1, 5)),
}


@pytest.mark.parametrize("v", of_kind("wall_break"), ids=ids(of_kind("wall_break")))
def test_wall_break_vector(v):
    exp = v["expected"]
    assert v["first_throw"]["thrower"] == v["dealer"]
    ts = {144: "T144", 148: "T148"}[v["tile_set"]]
    m, _ = _broken(v["players"], v["dealer"], v["first_throw"]["sum"], v["second_throw"]["sum"], ts)
    out = m.submit(WallBroken(wall_side=exp["breaker"], stack=exp["break_number"], position=0))
    assert out[0].TYPE == "wall_broken"  # the machine breaks the wall where the seed's example does
    brk = m.state.wall_break
    assert brk.first_stack == _LAYOUT[v["id"]][1]  # the live wall's first stack
    wb = red_table.wall_break(v["dealer"], v["first_throw"]["sum"], v["second_throw"]["sum"], v["players"],
                              v["tile_set"])
    assert (wb.breaker, wb.break_number, wb.live_first) == (brk.side, brk.count, brk.first_stack)
    assert wb.crosses_into_left_section is exp["derived_layout"]["crosses_into_left_section"]
    assert wb.flower_end == _LAYOUT[v["id"]][0]


@pytest.mark.parametrize("v", of_kind("deal"), ids=ids(of_kind("deal")))
def test_deal_vector(v):
    """The deal through the machine: the hand sizes it accepts, the wall it leaves, its wall's sections."""
    exp = v["expected"]
    n, ts = v["players"], {144: "T144", 148: "T148"}[v["tile_set"]]
    t = Table(RED, dealer=v["dealer"], n_players=n, options={"tiles": ts}, hands={})
    st = t.st
    dealt = {str(e.seat): len(e.tiles) for e in st.history if e.TYPE == "dealt"}
    assert dealt == exp["hand_sizes"]
    spec = st.spec
    assert {str(s): x for s, x in zip(spec.sides, spec.sections, strict=True)} == exp["wall_sections_stacks"]
    flowers_replaced = sum(1 for e in st.history if e.TYPE == "flower_declared")
    assert st.wall_remaining + flowers_replaced == exp["tiles_left_in_wall_before_flower_replacement"]


@pytest.mark.parametrize("v", of_kind("tile_count"), ids=ids(of_kind("tile_count")))
def test_tile_count_vector(v):
    exp = v["expected"]
    st = pen.HandStatus()
    if v["id"] == "red-count-01-short":  # discarded before drawing: 13 tiles at discard time
        assert st.check_count(v["tiles_at_discard_time"], discarding=True) == "short"
    elif v["id"] == "red-count-02-long":  # drew out of turn: 14 while not discarding
        assert st.check_count(v["tiles_not_discarding"], discarding=False) == "long"
    elif v["id"] == "red-count-03-stays-dead":
        st.check_count(14, discarding=False)
        st.check_count(13, discarding=False)  # back to 13: still dead (§Перебор и недобор 5)
    else:
        hand = parse_hand(v["hand"])
        assert hand.tile_count == exp["count"]  # flowers are not counted, sets count 3
        assert st.check_count(hand.tile_count, discarding=False) == exp["status"]
        assert not st.dead
        return
    assert st.dead and exp["hand"] == "dead"
    if "may_win" in exp:
        assert st.may_win is exp["may_win"] and st.may_claim is exp["may_claim"]


@pytest.mark.parametrize("v", of_kind("flower"), ids=ids(of_kind("flower")))
def test_flower_vector(v):
    exp = v["expected"]
    vid = v["id"]
    if vid == "red-flower-01-sea-bottom":
        assert fl.may_replace_now(just_claimed=False, wall_left=0) is exp["replace"]
        assert fl.sea_bottom_flower() == exp
        # kept in hand, the flower makes any win impossible (spec A22)
        h = parse_hand("123m456p789s22s9s1f + 9s")
        assert not RED.score_checked(h, RED.context({})).valid
    elif vid == "red-flower-02-no-discard":
        assert fl.may_discard(tile("3f")) is exp["allowed"]
        assert fl.may_discard(JOKER)
    elif vid == "red-flower-03-after-claim":
        assert fl.may_replace_now(just_claimed=True, wall_left=50) is exp["replace_now"]
        assert fl.may_replace_now(just_claimed=False, wall_left=50)
    else:  # East is dealt 2 flowers, the first replacement is a third flower
        dealt = [Tile.parse(t) for t in "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p".split()] + [tile("1f"), tile("5f")]
        tail = iter([tile("7f"), tile("4p"), tile("5p"), tile("6p")])
        r = fl.replace_flowers(dealt, lambda: next(tail))
        assert r.draws == exp["replacement_draws_from_flower_end"]
        assert len(r.exposed) == exp["exposed_flowers"]
        assert len(r.playing) == exp["east_playing_tiles_after"]


@pytest.mark.parametrize("v", of_kind("sticks"), ids=ids(of_kind("sticks")))
def test_sticks_vector(v):
    exp = v["expected"]
    assert seating.STICK_VALUES == exp["stick_values"]
    assert seating.STICK_SETS[88] == exp["set_88"] and seating.STICK_SETS[84] == exp["set_84"]
    assert seating.start_total(88) == exp["start_total"]["set_88"]
    assert seating.start_total(84) == exp["start_total"]["set_84"]
    for size in (88, 84):  # four players' start allotments use up exactly the set (spec A32)
        per = seating.START_STICKS[size]
        names = {1: "8_black_dots", 10: "1_red_dot", 100: "5_red_dots", 500: "9_red_green_dots"}
        for val, n in per.items():
            assert 4 * n <= seating.STICK_SETS[size][names[val]]
    assert seating.stick_result({1: 10, 10: 9, 100: 2, 500: 1}, 88) == 0
