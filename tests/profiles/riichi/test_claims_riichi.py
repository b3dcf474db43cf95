"""Claims (priority, chi from the left, last tile, fourth kan, pao triggers), riichi state and the
furiten tracker beyond the vectors."""

from __future__ import annotations

from rules.profiles.riichi import claims, riichi
from rules.profiles.riichi.furiten import FuritenTracker
from rules.tiles import Tile


def test_ron_beats_pon_beats_chi_and_every_ron_stands():
    got = claims.winning_claims([(1, "chi"), (3, "pon"), (2, "ron"), (1, "ron")], discarder=0)
    assert got == [(1, "ron"), (2, "ron")]  # turn order from the discarder's right
    assert claims.winning_claims([(1, "chi"), (3, "pon")], discarder=0) == [(3, "pon")]
    assert claims.winning_claims([(1, "chi")], discarder=0) == [(1, "chi")]


def test_chi_only_from_the_left_and_limits():
    assert claims.chi_allowed(1, 0) and not claims.chi_allowed(2, 0) and claims.chi_allowed(0, 3)
    assert not claims.meld_claim_allowed(
        "pon", last_discard=True, riichi=False, dead_hand=False, kans_on_table=0
    )
    assert not claims.meld_claim_allowed(
        "pon", last_discard=False, riichi=True, dead_hand=False, kans_on_table=0
    )
    assert not claims.meld_claim_allowed(
        "kan", last_discard=False, riichi=False, dead_hand=False, kans_on_table=4
    )
    assert claims.meld_claim_allowed(
        "kan", last_discard=False, riichi=False, dead_hand=False, kans_on_table=3
    )
    assert not claims.kan_allowed(0, 0) and claims.kan_allowed(1, 3) and not claims.kan_allowed(5, 4)


def test_kuikae_edges_of_the_suit():
    T = Tile.parse
    assert claims.kuikae_forbidden("chi", T("7m"), [T("8m"), T("9m")]) == frozenset({T("7m").kind})
    assert claims.kuikae_forbidden("chi", T("3p"), [T("1p"), T("2p")]) == frozenset({T("3p").kind})
    assert claims.kuikae_forbidden("chi", T("6s"), [T("4s"), T("5s")]) == frozenset(
        {T("6s").kind, T("3s").kind}
    )


def test_pao_triggers():
    # third dragon pon fed by seat 2 to seat 1 holding two open dragon pons
    t = claims.pao_trigger(1, 2, 33, [31, 32])
    assert t == claims.PaoTrigger(1, 2, "daisangen")
    assert claims.pao_trigger(1, 2, 33, [31]) is None
    assert claims.pao_trigger(0, 3, 30, [27, 28, 29]).yaku == "daisuushii"
    assert claims.pao_trigger(0, 3, 30, [27, 28]) is None


def test_ippatsu_window():
    st = riichi.RiichiState()
    st.declare(first_turn_uninterrupted=True)
    assert st.double and st.ippatsu_open
    st.any_call()
    assert not st.ippatsu_open and st.valid
    st2 = riichi.RiichiState()
    st2.declare(first_turn_uninterrupted=False)
    st2.own_discard_after_window()
    assert not st2.ippatsu_open and not st2.double


def test_riichi_conditions():
    assert not riichi.riichi_allowed(closed=False, tenpai=True, live_wall_tiles_left=20)
    assert not riichi.riichi_allowed(closed=True, tenpai=False, live_wall_tiles_left=20)
    assert not riichi.riichi_allowed(closed=True, tenpai=True, live_wall_tiles_left=20, already_riichi=True)
    assert riichi.riichi_allowed(closed=True, tenpai=True, live_wall_tiles_left=4)


def test_furiten_tracker_discard_changes_hand():
    from rules.notation import parse_hand

    tr = FuritenTracker("23456m67888p234s", ["9p"])
    assert tr.can_ron("4m")
    tr.own_discard("1m", parse_hand("23456m67888p234s"))  # discarded a wait: furiten while he waits on it
    assert tr.discard_furiten and not tr.can_ron("7m") and tr.can_tsumo("7m")
    tr.own_discard("2m", parse_hand("34567m67888p234s"))  # changed his wait to 2m 5m 8m
    assert [str(t) for t in tr.wait_tiles()] == ["2m", "5m", "8m"]
    assert tr.discard_furiten  # 2m is his own discard now
    tr2 = FuritenTracker("34567m67888p234s", ["9p", "1m"])
    assert not tr2.discard_furiten and tr2.can_ron("5m")


def test_kan_dora_reveal_timing():
    from rules.profiles.riichi.dora import IndicatorState

    st = IndicatorState()
    assert st.revealed == 1
    st.kan("kong_concealed")  # immediately, before the replacement tile
    assert st.revealed == 2
    st.kan("kong_added")  # waits for the chankan window
    assert st.revealed == 2 and st.pending
    st.robbed()  # robbed: no indicator (004 Rules 4.2.1)
    assert st.revealed == 2 and not st.pending
    st.kan("kong_added")
    st.not_robbed()
    st.kan("kong_open")
    assert st.revealed == 4 and st.ura_for_riichi == 4
    st.kan("kong_open")
    st.kan("kong_open")  # never more than five indicators
    assert st.revealed == 5
