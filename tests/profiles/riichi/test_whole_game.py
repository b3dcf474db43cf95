"""Whole riichi games with the greedy bots through the hand machine (rules.simulate.play_game): riichi
declared by the bots when allowed, counters and sticks carried between hands (``next_hand_options``),
noten payments at exhaustive draws, kan dora checked against the kans, and no illegal action refused."""
from __future__ import annotations

from collections import Counter

import pytest

from rules.events import DoraRevealed, HandStarted
from rules.game.machine import replay, table_view
from rules.profiles import registry
from rules.simulate import play_game
from tests.conftest import scaled

RIICHI = registry.get("riichi-ema2016")
GAMES = scaled(2, 12)


def _deposits_left(state) -> int:
    return RIICHI.next_hand_options(state)["deposits"]


@pytest.mark.parametrize("seed", range(GAMES))
def test_a_game_carries_counters_and_sticks(seed: int) -> None:
    g = play_game(RIICHI, seed, max_hands=scaled(8, 16))
    seen = Counter()
    for prev, nxt in zip(g.hands, g.hands[1:], strict=False):
        start = next(e for e in nxt.events if isinstance(e, HandStarted))
        assert {k: start.options.get(k, 0) for k in ("honba", "deposits")} == RIICHI.next_hand_options(
            prev.machine.state)
    for h in g.hands:
        st = h.machine.state
        assert not [v for v in st.violations if v.action], "a bot action was refused"
        riichi = sum(1 for ss in st.seat_state.values() if ss.riichi)
        seen["riichi"] += riichi
        stakes_in = int(st.options.get("deposits", 0))
        on_table = sum(p["amount"] for p in st.settled.payments if p["payee"] is None)
        from_table = sum(p["amount"] for p in st.settled.payments if p["payer"] is None)
        # money is conserved: what the hand put on the table minus what it paid out of it stays there
        assert sum(st.settled.deltas) == from_table - on_table
        if st.valid_wins():  # the winner takes every stick (004 Rules 3.3.14, 4.1)
            assert _deposits_left(st) == 0 and from_table == stakes_in + on_table
        elif st.exhaustive:  # the sticks stay on the table for the next hand
            assert _deposits_left(st) == stakes_in + on_table and from_table == 0
        kans = sum(1 for ss in st.seat_state.values() for m in ss.melds if m.kind.value.startswith("kong"))
        dora = [e for e in st.history if isinstance(e, DoraRevealed) and e.kind != "ura"]
        assert len(dora) == 1 + min(kans, 4)  # the initial indicator and one per kan
    # the sticks left on the table at the end go to the first place (004 Rules 3.6): no point is lost or made
    assert sum(g.totals.values()) == 4 * RIICHI.start_score
    assert seen["riichi"] > 0


def test_bots_declare_riichi_and_noten_payments_happen() -> None:
    yaku: Counter = Counter()
    noten = 0
    for seed in range(100, 100 + scaled(3, 12)):
        g = play_game(RIICHI, seed, max_hands=8)
        for h in g.hands:
            st = h.machine.state
            for w in st.valid_wins():
                yaku.update(y for y, _ in w.result.extra.get("yaku", ()))
            if st.exhaustive:
                ready = {s for s in st.seats if st.tenpai.get(s)}
                pays = [p for p in st.settled.payments if p["reason"].startswith("noten")]
                if 0 < len(ready) < 4:
                    assert pays and {p["payee"] for p in pays} <= ready
                    noten += 1
                for s in st.seats:
                    if st.seat_state[s].riichi:
                        assert s in ready  # a riichi hand is shown ready at the draw
    assert yaku["riichi"] > 0 and noten > 0


def test_table_mode_replays_riichi_hands_to_the_same_settlement() -> None:
    g = play_game(RIICHI, 7, max_hands=scaled(6, 16))
    for h in g.hands:
        full = h.machine.state
        table = replay(RIICHI, table_view(h.events), mode="table").state
        assert table.settled == full.settled and table.next_dealer == full.next_dealer
        assert [v.code for v in table.violations] == [v.code for v in full.violations]
