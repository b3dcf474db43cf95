"""The hand's setup: its start, the dice (the break and the deal they imply), the dora indicators, the
cards on the table (missing suit, hu order)."""
from __future__ import annotations

from controller.referee import effects, questions
from controller.referee.state import (
    TILE_TEXTS,
    FollowUp,
    RefereeState,
)
from rules.events import (
    CardSeen,
    Dealt,
    DiceRolled,
    DoraRevealed,
    HandStarted,
    IndicatorSeen,
    MissingSuitDeclared,
    WallBroken,
)
from rules.game.setup import cached_break
from rules.game.state import Phase
from rules.wall import deal_steps


def on_start(r: RefereeState, ev: HandStarted) -> None:
    r.hand_id = ev.hand_id
    out = effects.submit(r, ev)
    if effects.refused(out):
        return
    for s in r.seats():
        r.pond.record[s], r.claims.melds[s], r.claims.flowers[s], r.pond.taken[s], r.pond.seen[s] = [], [], [], [], []


def on_dice(r: RefereeState, ev: DiceRolled) -> None:
    if effects.refused(effects.submit(r, ev)):
        return
    spec = r.machine.spec
    st = r.st
    if spec is None or len(st.dice) != spec.throws:
        return
    brk = cached_break(spec, st.dealer, tuple(tuple(d) for d in st.dice))
    effects.submit(r, WallBroken(wall_side=brk.side, stack=brk.count, position=0))
    counts: dict[int, int] = {s: 0 for s in spec.seats}
    for step in deal_steps(spec, st.dealer):
        counts[step.seat] += len(step.positions)
    for s in spec.seats:
        effects.submit(r, Dealt(seat=s, tiles=("x",) * counts[s]))


def on_indicator(r: RefereeState, ev: IndicatorSeen) -> FollowUp | None:
    if ev.tile not in TILE_TEXTS:
        questions.ask_tile(r, ev, "indicator", ev.index)
        return None
    if ev.kind == "ura":
        if ev.index >= len(r.dora.ura):
            r.dora.ura.append(ev.tile)
            effects.submit(r, DoraRevealed(indicator=ev.tile, kind="ura"))
        return None
    if ev.index < len(r.dora.indicators):
        return None  # seen already
    r.dora.held.append(ev)
    return FollowUp.INDICATORS


def release_indicators(r: RefereeState) -> None:
    """Kan indicators are turned after their kan: one waits until the record has the kan."""
    while r.dora.held:
        ev = r.dora.held[0]
        if ev.index != len(r.dora.indicators):
            r.dora.held.pop(0)
            continue
        kongs = r.st.wall.kongs if r.st.wall is not None else 0
        if ev.index > kongs or r.st.phase == Phase.SETUP:
            return
        r.dora.held.pop(0)
        out = effects.submit(r, DoraRevealed(indicator=ev.tile, kind="initial" if ev.index == 0 else "kan"))
        if not effects.refused(out):
            r.dora.indicators.append(ev.tile)


def on_card(r: RefereeState, ev: CardSeen) -> FollowUp | None:
    st = r.st
    if ev.card in ("m", "p", "s"):
        ss = st.seat_state.get(ev.seat)
        if ss is None or ss.missing_suit is not None:
            return None
        if st.phase == Phase.PRE_PLAY and r.conv.missing_suit_cards:
            effects.submit(r, MissingSuitDeclared(seat=ev.seat, suit=ev.card))
        elif st.phase == Phase.PRE_PLAY:  # WMSG: the judge's card for a hand without the suit (002 §5.3)
            r.wmsg.suits[ev.seat] = ev.card
            return FollowUp.SUITS
        return None
    if ev.card == "x" and r.st.phase == Phase.PRE_PLAY:
        r.wmsg.card.add(ev.seat)  # a judge's card face down: the first discard does not name the suit
        return None
    if ev.card in ("1", "2", "3") and ev.seat not in r.reveals.hu_cards:
        r.reveals.hu_cards[ev.seat] = ev.card  # the winner took the lowest hu card (Sichuan MPL)
    return None
