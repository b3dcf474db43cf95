"""Dealer rotation, turn order after a hu, session end and tournament points (000 §2.4.4, §2.6.2, §2.7.5, §3.1).

WMSG (002) says nothing about sessions and TP; ``sichuan-wmsg`` inherits these rules from 000 [Interp §0.3].
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

TP_FOUR = (4, 3, 2, 1)  # 000 §2.7.5.2
TP_THREE = (4, 3, 2)  # 000 §3.1.3
TP_SMALL_TABLE = 3  # 000 §3.1.4: one or two players at a table get 3 TP and 0 GP, no game


@dataclass(frozen=True)
class HuEvent:
    """One hu declaration (or several on one discard): who won, on whose tile."""

    winners: tuple[int, ...]
    discarder: int | None = None  # None: self-drawn; the kong declarer for a robbed kong
    false_hu: bool = False  # the whole declaration was false (ignored for the dealer, 000 §2.6.2.6)
    valid: tuple[bool, ...] | None = None  # per winner, when only some claims of a multiple hu were valid

    def valid_winners(self) -> tuple[int, ...]:
        if self.false_hu:
            return ()
        if self.valid is None:
            return self.winners
        return tuple(w for w, ok in zip(self.winners, self.valid, strict=True) if ok)


def next_dealer(dealer: int, hu_sequence: Iterable[HuEvent]) -> int:
    """000 §2.6.2.6, 002 §6: the first (valid) winner; several at once → the discarder; none → same.

    A false hu is ignored [000 explicit; WMSG inherits, AMB-09]; a multiple hu of which one claim is
    valid counts as a single hu [Interp spec §10].
    """
    for ev in hu_sequence:
        ws = ev.valid_winners()
        if not ws:
            continue
        if len(ws) == 1:
            return ws[0]
        if ev.discarder is None:
            raise ValueError("several simultaneous winners need the discarder")
        return ev.discarder
    return dealer


def order_from(seat: int, seats: Sequence[int]) -> list[int]:
    """``seats`` in turn order starting after ``seat`` (counter-clockwise, 0 → 1 → 2 → 3)."""
    return sorted((s for s in seats if s != seat), key=lambda s: (s - seat) % 4)


def winners_in_turn_order(discarder: int, winners: Iterable[int]) -> list[int]:
    """Several hu on one discard, ordered counter-clockwise from the discarder (hu cards [Interp AMB-25])."""
    return order_from(discarder, list(winners))


def winning_tile_holder(discarder: int, winners: Iterable[int]) -> int:
    """000 §2.6.1.6: the physical tile goes to the last winner counter-clockwise from the discarder."""
    return winners_in_turn_order(discarder, winners)[-1]


def next_to_play(last_actor: int, winners: Iterable[int], active: Iterable[int]) -> int | None:
    """000 §2.6.2.4: after a hu the next active player after the (last) winner plays.

    ``last_actor`` is the discarder (or the self-drawn winner); ``winners`` those who won on that tile;
    ``active`` the seats still in play afterwards (winners already removed; they are skipped [Interp]).
    """
    ws = list(winners)
    act = set(active)
    last = winners_in_turn_order(last_actor, ws)[-1] if ws and last_actor not in ws else last_actor
    for k in range(1, 5):
        s = (last + k) % 4
        if s in act:
            return s
    return None


def tournament_points(
    session_gp: Mapping[int, int | float], fixed: Mapping[int, float] | None = None
) -> dict[int, float]:
    """TP by rank of session GP, 4/3/2/1 (3 players: 4/3/2); tied places share their TP equally.

    000 §2.7.5.2 [Interp AMB-26: the average of the tied places]. ``fixed`` holds players with a fixed
    result (lateness over 15 minutes, 000 §2.8.4.5): they get that TP and are left out of the ranking.
    """
    fixed = dict(fixed or {})
    ranked = {s: g for s, g in session_gp.items() if s not in fixed}
    n_table = len(session_gp)
    if n_table <= 2:
        return {s: float(TP_SMALL_TABLE) for s in session_gp}
    full: tuple[int, ...] = TP_FOUR if n_table == 4 else TP_THREE
    table = full[: len(ranked)] if len(ranked) < len(full) else full
    order = sorted(ranked, key=lambda s: -ranked[s])
    out: dict[int, float] = {}
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and ranked[order[j + 1]] == ranked[order[i]]:
            j += 1
        share = Fraction(sum(table[i : j + 1]), j - i + 1)
        for s in order[i : j + 1]:
            out[s] = float(share)
        i = j + 1
    out.update({s: float(v) for s, v in fixed.items()})
    return out


@dataclass(frozen=True)
class SessionClock:
    """000 §2.4.4 "с доигрыванием": a hand started at its first dice throw with the wall built is finished.

    Times are seconds on any one clock. ``gong`` is the end-of-session signal (None while running);
    ``max_hands`` the organisers' number of hands (None = by time only) [Interp AMB-31].
    """

    gong: float | None = None
    max_hands: int | None = None

    def may_start_hand(self, hands_played: int, dice_time: float) -> bool:
        """Whether a hand whose first dice throw (wall complete) happens at ``dice_time`` is played."""
        if self.max_hands is not None and hands_played >= self.max_hands:
            return False
        return self.gong is None or dice_time < self.gong

    def hand_counts(self, dice_time: float | None) -> bool:
        """A hand in progress when the gong sounds counts as started only if the dice were thrown."""
        return dice_time is not None and (self.gong is None or dice_time <= self.gong)


@dataclass
class SessionScore:
    """One table's session: hand results, penalties and lateness → session GP and TP (000 §2.7.5, §2.8).

    Penalties (progressive scale, lateness) are subtracted from the player's GP before the ranking and
    are not given to anybody (000 §2.8.2, §2.8.4.5). A player late by more than 15 minutes gets the fixed
    result 0 TP / 0 GP and is left out of the ranking of the others.
    """

    seats: tuple[int, ...] = (0, 1, 2, 3)
    hands: list[dict[int, int]] = field(default_factory=list)
    penalties: dict[int, int] = field(default_factory=dict)
    fixed: dict[int, float] = field(default_factory=dict)

    def add_hand(self, deltas: Mapping[int, int]) -> None:
        self.hands.append({s: int(deltas.get(s, 0)) for s in self.seats})

    def add_penalty(self, seat: int, amount: int) -> None:
        """A penalty in GP (positive amount = points taken)."""
        self.penalties[seat] = self.penalties.get(seat, 0) + amount

    def late(self, seat: int, minutes: float) -> None:
        from rules.profiles.sichuan.penalties import lateness

        r = lateness(minutes)
        if r.fixed_tp is not None:
            self.fixed[seat] = r.fixed_tp
        else:
            self.add_penalty(seat, -r.gp_penalty)

    def gp(self) -> dict[int, int]:
        out = {s: sum(h[s] for h in self.hands) - self.penalties.get(s, 0) for s in self.seats}
        for s in self.fixed:
            out[s] = 0
        return out

    def tp(self) -> dict[int, float]:
        return tournament_points(self.gp(), self.fixed)
