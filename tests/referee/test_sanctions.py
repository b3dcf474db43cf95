"""The judge's decisions at the console reach the referee (controller/referee/sanctions.py): a dead hand
(000 §2.8.3 line 437, 004 Rules 3.4.7 line 302) — the seat plays on and its later win or call is the seed's
verdict — and riichi's chombo (004 Rules 3.4.6 line 278) — the hand ends and is dealt again."""
from __future__ import annotations

from rules.events import HandDead, JudgeAction, PenaltyAwarded, Violation
from tests.referee.helpers import Table

RIICHI, MPL = "riichi-ema2016", "sichuan-mpl2025"


def penalty(seat: int, code: str, **kw) -> PenaltyAwarded:
    return PenaltyAwarded(seat=seat, points=kw.pop("points", 0), rule=kw.pop("rule", ""), reason="by the judge",
                          code=code, judge="A. Judge", hand_id="test-1", **kw)


def test_riichi_a_judges_dead_hand_plays_on_but_may_not_win():
    """004 line 302 (3.4.7): «Игрок с мертвой рукой не может объявить победу, любой сет (кан, пон или чи)» —
    the judge's dead hand (passing information); the seat's later ron is refused, and (3.4.6, line ~290)
    «Попытка претендовать на тайл после того как рука была объявлена мертвой рукой» is a chombo: the hand
    ends, the dead seat pays the mangan (a non-dealer: 4000 to East, 2000 to the others), it is dealt again."""
    t = Table(RIICHI)
    t.turn_round(0, ["1z", "2z"])
    out = t.feed(penalty(1, "dead_hand", dead_hand=True, rule="004 Rules 3.4.7 (line 302)"), dt=0.5)
    dead = [e for e in out if isinstance(e, HandDead)]
    assert [(e.seat, e.reason, e.rule) for e in dead] == [(1, "judge", "004 Rules 3.4.7 (line 302)")]
    assert t.ref.machine.state.seat_state[1].dead
    t.turn_round(2, ["3z", "4z", "5z", "6z"])  # seat 1 plays on: it draws and discards
    assert [str(x) for x in t.ref.machine.state.seat_state[1].pond] == ["2z", "6z"]
    t.discard(2, "4m")
    t.call(1, "hu")  # the dead seat declares ron
    t.take(2, dt=0.3)
    t.wait(3.0)
    assert t.verdicts() == [("claim_inactive_player", 1), ("dead_hand_claim", 1)]
    assert t.verdict("dead_hand_claim").rule == "004 Rules 3.4.6"
    assert t.ref.machine.state.valid_wins() == [] and t.ref.settled  # no win: the hand ends, to be dealt again
    assert t.discard(3, "5m") == []  # nothing after it is followed
    t.confirm()
    res = t.ref.result()
    assert res["deltas"] == [4000, -8000, 2000, 2000] and sum(res["deltas"]) == 0  # the referee's own chombo
    assert [(p["payer"], p["payee"], p["amount"]) for p in res["payments"]] == [(1, 0, 4000), (1, 2, 2000),
                                                                                (1, 3, 2000)]
    assert (res["next_dealer"], res["next_options"]) == (0, {"honba": 0, "deposits": 0})
    assert t.ref.confirmed is not None and t.ref.confirmed.deltas == (4000, -8000, 2000, 2000)


def test_riichi_the_sanction_at_the_console_is_a_dead_hand_too():
    t = Table(RIICHI)
    t.turn_round(0, ["1z"])
    t.feed(JudgeAction(action="sanction", detail={"kind": "dead_hand", "seat": 3, "reason": "information", "points": 0},
                       judge="A. Judge", hand_id="test-1"), dt=0.5)
    dead = [e for e in t.out if isinstance(e, HandDead)]
    assert [(e.seat, e.rule) for e in dead] == [(3, "004 Rules 3.4.7 (line 302)")]  # the catalogue's line
    t.feed(JudgeAction(action="sanction", detail={"kind": "removal", "seat": 2, "reason": "x", "points": 0},
                       judge="A. Judge", hand_id="test-1"), dt=0.5)
    assert not t.ref.machine.state.seat_state[2].dead  # a removal is the hall's, not the hand's


def test_no_decision_changes_nothing():
    t = Table(RIICHI)
    t.turn_round(0, ["1z", "2z"])
    t.feed(penalty(1, "obstruction", points=8000, when="game_end"), dt=0.5)
    assert not any(s.dead for s in t.ref.machine.state.seat_state.values())
    assert t.verdicts() == [] and not t.ref.settled


def chombo(seat: int, dealer: int) -> PenaltyAwarded:
    """Riichi's chombo as the console gives it: the catalogue's kind charged (controller/web/judge.py)."""
    from rules.game.penalty_catalogue import charge
    from rules.profiles import registry

    kind = next(k for k in registry.get(RIICHI).penalty_catalogue if k.code == "chombo")
    c = charge(kind, seat, [0, 1, 2, 3], dealer=dealer)
    return penalty(seat, "chombo", points=c.points, paid=c.paid, rule=kind.rule, replay=kind.replay,
                   to_others=False)


def test_riichi_chombo_the_hand_is_dealt_again_by_the_same_dealer_with_the_same_counters():
    """004 line 278 (3.4.6): chombo — «4000 востоку, 2000 другими игроками»; «После Чомбо риичи ставки
    возвращаются ... раздача переигрывается. Счетчик ренчанов не добавляется, и дилер не перемещается»."""
    t = Table(RIICHI, dealer=1, options={"honba": 2, "deposits": 1000})
    t.turn_round(1, ["1z", "2z"])
    t.discard(3, "3z", sideways=True)  # seat 3 declares riichi: its stake is returned by the replay
    assert t.ref.machine.state.seat_state[3].riichi
    pen = chombo(3, dealer=1)
    assert (pen.points, pen.paid) == (8000, (2000, 4000, 2000, 0))  # East (seat 1) 4000, the others 2000
    t.feed(pen, dt=1.0)
    assert t.ref.settled and t.ref.state.replayed == t.ref.record[-1]
    assert t.discard(0, "4z") == [] and t.call(2, "pung") == []  # nothing after it is followed
    out = t.confirm()
    assert [e.TYPE for e in out] == ["result_confirmed"] and out[0].deltas == (0, 0, 0, 0)
    res = t.ref.result()
    assert res["deltas"] == [0, 0, 0, 0] and res["payments"] == [] and res["winners"] == []
    assert (res["next_dealer"], res["next_options"]) == (1, {"honba": 2, "deposits": 1000})
    assert res["replayed"]["seat"] == 3 and res["replayed"]["rule"] == "004 Rules 3.4.6 (line 278)"
    # the hand pays nothing itself: the penalty carries the chombo, so the table's totals balance once
    totals = [d + pen.paid[s] - (pen.points if s == pen.seat else 0) for s, d in enumerate(res["deltas"])]
    assert totals == [2000, 4000, 2000, -8000] and sum(totals) == 0


def test_a_replayed_hands_chombo_is_in_the_tables_exports(tmp_path, capsys):
    """004 line 278 (3.4.6): the judge's chombo — the hand dealt again — is in the hand's record as the table exports
    it: ``--format events`` lists the penalty (who, what, the rule, the judge) before the signatures; tenhou.net/6
    and mjai have no chombo, so they show a draw whose deltas are its payments (East 4000, the others 2000) and the
    next hand's scores follow from them, the riichi stake back with its owner."""
    import json

    from controller.cli import main
    from controller.event_store import EventStore

    t = Table(RIICHI, dealer=1, options={"honba": 0, "deposits": 0})
    t.turn_round(1, ["1z", "2z"])
    t.discard(3, "3z", sideways=True)  # seat 3's riichi: its stake goes back (004 line 288)
    t.feed(chombo(2, dealer=1), dt=1.0)
    t.confirm()
    path = tmp_path / "events.sqlite"
    store = EventStore(path)
    store.start_hand("test-1", RIICHI, 1.0)
    store.append_many("test-1/referee", 0, list(t.ref.record))
    store.finish_hand("test-1", {"hand_id": "test-1", "status": "played", **t.ref.result()}, 2.0)
    store.close()
    capsys.readouterr()

    def export(fmt: str) -> list[dict]:
        assert main(["export", "test-1", "--store", str(path), "--format", fmt]) == 0
        return [json.loads(x) for x in capsys.readouterr().out.splitlines()]

    events = export("events")
    types = [e["type"] for e in events]
    assert types.index("penalty_awarded") < types.index("result_confirmed")
    pen = events[types.index("penalty_awarded")]
    assert (pen["seat"], pen["code"], pen["points"], pen["judge"], pen["rule"]) == (
        2, "chombo", 8000, "A. Judge", "004 Rules 3.4.6 (line 278)")
    [tenhou] = export("tenhou6")
    assert tenhou["log"][0][-1] == ["流局", [2000, 4000, -8000, 2000]]
    mjai = export("mjai")
    assert [e for e in mjai if e["type"] == "ryukyoku"] == [{"type": "ryukyoku", "deltas": [2000, 4000, -8000, 2000]}]
    assert [e["type"] for e in mjai].count("reach_accepted") == 1
    from controller.referee.export_mjai import kyoku

    _lines, after = kyoku(t.ref.export_log(), t.ref.machine.state.wins, [30000] * 4)
    assert after == [32000, 34000, 22000, 32000]  # the next hand's start: the chombo paid, seat 3's stake back


def test_riichi_a_dealers_chombo_pays_4000_each_and_he_deals_again():
    t = Table(RIICHI)
    t.turn_round(0, ["1z"])
    t.feed(chombo(0, dealer=0), dt=1.0)
    t.confirm()
    res = t.ref.result()
    assert t.ref.confirmed is not None and res["next_dealer"] == 0 and res["deltas"] == [0, 0, 0, 0]
    assert chombo(0, dealer=0).paid == (0, 4000, 4000, 4000)


def test_a_chombo_after_the_result_leaves_the_result():
    """A penalty given once the hand is settled is paid by itself; the hand's result stands."""
    t = Table(RIICHI)
    t.turn_round(0, ["1z", "4m", "2z", "3z", "5z", "6z", "7z"])
    t.discard(3, "4m")
    t.call(1, "hu")
    t.take(3, dt=0.3)
    t.reveal(1, "2m 3m 4p 5p 6p 6p 7p 8p 2s 3s 4s 5s 5s")
    t.wait(3.0)
    assert t.ref.settled
    before = t.ref.result()
    t.feed(chombo(2, dealer=0), dt=1.0)
    assert t.ref.state.replayed is None and t.ref.result() == before


def test_sichuan_a_judges_dead_hand_claims_nothing_and_its_hu_is_a_false_hu():
    """000 line 437 (§2.8.3): «При „мёртвой руке“ налагается запрет на взятие костей других игроков по
    объявлениям ... Объявление игроком маджонга при „мёртвой руке“ обернётся штрафом за ложный маджонг»."""
    from rules.profiles import registry

    kind = next(k for k in registry.get(MPL).penalty_catalogue if k.code == "illegal_information")
    assert kind.dead_hand and "line 437" in kind.rule
    t = Table(MPL)
    for s, suit in enumerate("mpsm"):
        t.card(s, suit)
    t.discard(0, "1s")
    t.discard(1, "2s")
    t.feed(penalty(2, kind.code, dead_hand=True, rule=kind.rule), dt=0.5)  # passing information
    assert t.ref.machine.state.seat_state[2].dead
    t.discard(2, "3m")  # it plays on
    t.discard(3, "3m")
    t.call(2, "pung")  # a claim of another's tile: refused
    assert t.verdicts() == [("claim_inactive_player", 2)]
    t.discard(0, "4s")
    t.discard(1, "5s")
    t.wait(3.5)
    out = t.call(2, "hu", dt=1.0)  # its self-drawn hu is taken ...
    assert [(e.TYPE, e.seat) for e in out if e.TYPE == "won"] == [("won", 2)]
    assert [(w.seat, w.dead_hand) for w in t.ref.machine.state.wins] == [(2, True)]
    t.reveal(2, "2p 2p 2p 3p 3p 3p 4p 4p 4p 5p 5p 5p 6p 6p")  # ... and is a false hu, whatever it shows
    assert t.verdicts() == [("claim_inactive_player", 2), ("false_win", 2)]
    assert t.verdict("false_win").message.endswith("a win declared by a dead hand")


def test_the_consoles_dead_hand_reaches_the_referee_at_a_served_table(tmp_path):
    """The console's sanction (controller/web/judge.py) is recorded in the judge stream and handed to the
    referee as an input (``PlaySource.judged``): durable in ``<hand>/referee``, the hand machine's
    ``hand_dead`` in the hand's record."""
    from controller.referee.session import RefereePlay
    from controller.web.judge import ACTIONS, Judge, judge_stream
    from rules.events import PondTileSeen
    from tests.controller.test_table_camera import Rig, run, until

    play = RefereePlay(camera=False)
    rig = Rig(tmp_path, play=play)

    async def scenario(svc):
        await until(lambda: play.session is not None and play.session.referee.phase != "setup")
        s = play.session
        s.put(PondTileSeen(seat=0, index=0, tile="1z", **svc.clock.stamp()))
        await until(lambda: len(s.referee.machine.state.seat_state[0].pond) == 1)
        ACTIONS["sanction"].run(svc, Judge("Ivanova", "127.0.0.1"),
                                {"seat": 2, "kind": "dead_hand", "reason": "passing information"})
        await until(lambda: s.referee.machine.state.seat_state[2].dead)
        await until(lambda: any(isinstance(e, HandDead) for e in svc.store.events(f"{svc.hand_id}/game")))

    try:
        run(rig, scenario, timeout=60)
        hand = rig.store.unfinished_hands()[-1]
        inputs = rig.store.events(f"{hand}/referee")
        assert [e.TYPE for e in inputs][-1] == "judge_action" and inputs[-1].judge == "Ivanova"
        judged = [e for e in rig.store.events(judge_stream(rig.svc)) if isinstance(e, JudgeAction)]
        assert [(e.action, e.detail["kind"], e.detail["seat"]) for e in judged] == [("sanction", "dead_hand", 2)]
    finally:
        rig.close()


def test_riichi_a_dead_hand_of_the_machines_own_finding_is_left_as_it_was():
    """Without a judge's decision nothing changes: a dead seat's refused claim stays a refusal."""
    from controller.referee.sanctions import dead_claims

    t = Table(RIICHI)
    t.turn_round(0, ["1z"])
    v = Violation(code="claim_inactive_player", seat=1, rule="", message="")
    dead_claims(t.ref.state, [v])
    assert t.ref.state.replayed is None and not t.ref.settled


def test_red_a_dead_hand_at_a_table_of_two_reaches_the_second_player():
    """001 line 61: two players sit facing each other, at seats 0 and 2 (docs/notation.md "Seats"); the judge's
    console numbers them 0 and 1 (its chairs) — its dead hand for the second player is seat 2's (it reached no one)."""
    t = Table("red", players=2, dice=((3, 4), (2, 5)))  # Red's two throws: the hand is dealt
    assert t.ref.machine.state.seats == (0, 2)
    t.feed(JudgeAction(action="sanction", detail={"kind": "dead_hand", "seat": 1, "reason": "information", "points": 0},
                       judge="A. Judge", hand_id="test-1"), dt=0.5)
    assert [e.seat for e in t.out if isinstance(e, HandDead)] == [2]
    assert t.ref.machine.state.seat_state[2].dead and not t.ref.machine.state.seat_state[0].dead
