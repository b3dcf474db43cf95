"""Per-hand settlement: every payment with its reason and seed reference.

Covers ron (one or several winners), tsumo, counters (honba), riichi stakes and deposits, liability
(pao), the exhaustive draw with noten payments, and chombo (004 Rules 3.3.9, 3.3.14, 3.4.2–3.4.11, 4.1).
Seats are 0..3; amounts are points. ``payer``/``payee`` ``None`` is the table (the riichi deposits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.profiles.riichi import limits

NOTEN_TOTAL = 3000  # 004 Rules 3.4.2
CHOMBO_MANGAN_PAYMENT = "mangan_payment"  # 004 Rules 3.4.6 (the seed's rule; spec A1)
CHOMBO_DEDUCT_20000 = "deduct_20000_after_uma"  # EMA 2016's official rule (spec A1)
CHOMBO_DEDUCTION = 20_000


@dataclass(frozen=True)
class Payment:
    payer: int | None
    payee: int | None
    amount: int
    reason: str
    ref: str

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "reason": self.reason,
            "ref": self.ref,
        }


@dataclass
class Settlement:
    """The record of one hand's end: payments in order, and what carries to the next hand."""

    payments: list[Payment] = field(default_factory=list)
    deposits_after: int = 0  # riichi sticks left on the table, in points
    honba_after: int = 0
    dealer_stays: bool = False
    redeal: bool = False
    penalties: dict[int, int] = field(default_factory=dict)  # deductions applied at game end (chombo A1)
    outcome: str = ""

    def deltas(self, players: int = 4) -> list[int]:
        """Net change per seat (stakes paid to the table included)."""
        d = [0] * players
        for p in self.payments:
            if p.payer is not None:
                d[p.payer] -= p.amount
            if p.payee is not None:
                d[p.payee] += p.amount
        return d

    def received_from_table(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for p in self.payments:
            if p.payer is None and p.payee is not None:
                out[p.payee] = out.get(p.payee, 0) + p.amount
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "payments": [p.to_json() for p in self.payments],
            "deltas": self.deltas(),
            "deposits_after": self.deposits_after,
            "honba_after": self.honba_after,
            "dealer_stays": self.dealer_stays,
            "redeal": self.redeal,
            "penalties": {str(k): v for k, v in self.penalties.items()},
        }


def _stakes(riichi_seats: Sequence[int]) -> list[Payment]:
    return [Payment(s, None, limits_stake(), "riichi stake", "004 Rules 3.3.14") for s in riichi_seats]


def limits_stake() -> int:
    from rules.profiles.riichi.riichi import STAKE

    return STAKE


@dataclass(frozen=True)
class RonWin:
    """One winner on a discard: ``value`` = what the discarder pays before counters (the scorer's ron
    amount); ``liable`` = the pao player for big three dragons / big four winds, if any."""

    seat: int
    value: int
    liable: int | None = None


def settle_ron(
    discarder: int,
    winners: Sequence[RonWin],
    dealer_seat: int,
    honba: int = 0,
    deposits_before: int = 0,
    riichi_this_hand: Sequence[int] = (),
) -> Settlement:
    """A win (or several) on a discard. Each winner gets his full value plus the counters from the
    discarder (004 Rules 4.1); riichi winners take back their own stake; every other stick on the table,
    old deposits included (spec A14), goes to the first winner in turn order after the discarder."""
    if not winners:
        raise ValueError("settle_ron needs at least one winner")
    seats = [w.seat for w in winners]
    if discarder in seats or len(set(seats)) != len(seats):
        raise ValueError("winners must be distinct and differ from the discarder")
    s = Settlement(outcome="ron")
    s.payments.extend(_stakes(riichi_this_hand))
    ordered = sorted(winners, key=lambda w: (w.seat - discarder) % 4)
    counters = limits.HONBA_RON * honba
    for w in ordered:
        if w.liable is not None and w.liable != discarder:
            half = w.value // 2
            s.payments.append(
                Payment(
                    discarder,
                    w.seat,
                    w.value - half + counters,
                    "ron: half of the hand and the counters (liability)",
                    "004 Rules 3.3.9",
                )
            )
            s.payments.append(
                Payment(w.liable, w.seat, half, "liability: half of the hand", "004 Rules 3.3.9")
            )
        else:
            s.payments.append(Payment(discarder, w.seat, w.value, "ron", "004 Rules 3.4.9, 4.1.2"))
            if counters:
                s.payments.append(
                    Payment(discarder, w.seat, counters, f"{honba} counter(s) x 300", "004 Rules 3.4.10")
                )
    pot = deposits_before + limits_stake() * len(riichi_this_hand)
    first = ordered[0].seat
    for w in ordered:
        if w.seat in riichi_this_hand and w.seat != first:
            s.payments.append(
                Payment(None, w.seat, limits_stake(), "own riichi stake returned", "004 Rules 4.1")
            )
            pot -= limits_stake()
    if pot:
        s.payments.append(Payment(None, first, pot, "riichi deposits", "004 Rules 3.3.14, 4.1"))
    dealer_won = dealer_seat in seats
    s.deposits_after = 0
    s.dealer_stays = dealer_won
    s.honba_after = honba + 1 if dealer_won else 0  # 004 Rules 3.4.9-3.4.10
    return s


def settle_tsumo(
    winner: int,
    dealer_seat: int,
    points: dict[str, int],
    honba: int = 0,
    deposits_before: int = 0,
    riichi_this_hand: Sequence[int] = (),
    liable: int | None = None,
) -> Settlement:
    """A self-drawn win, from the scorer's ``points`` (counters included): the dealer pays 2 x basic, the
    others basic (a dealer winner: 2 x basic from each), rounded up to 100, plus 100 per counter each
    (004 Rules 4.1.2, 3.4.10). With liability (``points`` has ``liable_pays``) the liable player pays the
    whole hand as a ron and the counters (004 Rules 3.3.9; spec A8)."""
    s = Settlement(outcome="tsumo")
    s.payments.extend(_stakes(riichi_this_hand))
    dealer = winner == dealer_seat
    counters = limits.HONBA_TSUMO_EACH * honba
    if "liable_pays" in points:
        if liable is None or liable == winner:
            raise ValueError("a liability payment needs the liable seat (not the winner)")
        s.payments.append(
            Payment(
                liable,
                winner,
                points["liable_pays"],
                "liability: the whole hand and the counters on a self-draw",
                "004 Rules 3.3.9",
            )
        )
    else:
        for seat in range(4):
            if seat == winner:
                continue
            if dealer:
                share = points["tsumo_each_pays"]
            else:
                share = points["tsumo_dealer_pays" if seat == dealer_seat else "tsumo_nondealer_pays"]
            who = "dealer" if seat == dealer_seat else "non-dealer"
            s.payments.append(
                Payment(seat, winner, share - counters, f"tsumo ({who} share)", "004 Rules 4.1.2")
            )
            if honba:
                s.payments.append(
                    Payment(seat, winner, counters, f"{honba} counter(s) x 100", "004 Rules 3.4.10")
                )
    pot = deposits_before + limits_stake() * len(riichi_this_hand)
    if pot:
        s.payments.append(Payment(None, winner, pot, "riichi deposits", "004 Rules 3.3.14, 4.1"))
    s.dealer_stays = dealer
    s.honba_after = honba + 1 if dealer else 0
    return s


def noten_payments(tenpai_seats: Sequence[int], players: int = 4) -> list[Payment]:
    """3000 in all from the noten players to the tenpai players; nothing when none or all are tenpai."""
    tenpai = sorted(set(tenpai_seats))
    noten = [s for s in range(players) if s not in tenpai]
    if not tenpai or not noten:
        return []
    each_pays = NOTEN_TOTAL // len(noten)
    out = []
    for n in noten:
        share = each_pays // len(tenpai)
        for t in tenpai:
            out.append(Payment(n, t, share, "noten payment", "004 Rules 3.4.2"))
    return out


def settle_exhaustive_draw(
    tenpai_seats: Sequence[int],
    dealer_seat: int,
    honba: int = 0,
    deposits_before: int = 0,
    riichi_this_hand: Sequence[int] = (),
) -> Settlement:
    """Exhaustive draw: noten payments, sticks stay on the table, one more counter, the dealer stays only
    when he shows tenpai (004 Rules 3.4.2, 3.4.4, 3.4.10, 3.4.11; a dealer who declares noten moves, A17)."""
    s = Settlement(outcome="exhaustive_draw")
    s.payments.extend(_stakes(riichi_this_hand))
    s.payments.extend(noten_payments(tenpai_seats))
    s.deposits_after = deposits_before + limits_stake() * len(riichi_this_hand)
    s.honba_after = honba + 1
    s.dealer_stays = dealer_seat in tenpai_seats
    return s


def settle_chombo(
    offender: int,
    dealer_seat: int,
    honba: int = 0,
    deposits_before: int = 0,
    mode: str = CHOMBO_MANGAN_PAYMENT,
) -> Settlement:
    """Chombo: a mangan-sized payment — 4000 to the dealer and 2000 to the others, or 4000 to each when the
    dealer offends (004 Rules 3.4.6); riichi stakes of the hand are returned (no stake payment is made),
    the hand is re-dealt, no counter, the dealer stays. ``mode=deduct_20000_after_uma`` records EMA 2016's
    20 000 deduction at game end instead (spec A1)."""
    s = Settlement(
        outcome="chombo", redeal=True, dealer_stays=True, honba_after=honba, deposits_after=deposits_before
    )
    if mode == CHOMBO_DEDUCT_20000:
        s.penalties[offender] = CHOMBO_DEDUCTION
        return s
    for seat in range(4):
        if seat == offender:
            continue
        amount = 4000 if (seat == dealer_seat or offender == dealer_seat) else 2000
        s.payments.append(Payment(offender, seat, amount, "chombo (mangan-sized payment)", "004 Rules 3.4.6"))
    return s


def ron_value_before_counters(points: dict[str, int], honba: int) -> int:
    """From a scorer's ``points`` (ron) back to the hand value before counters."""
    return points["total"] - limits.HONBA_RON * honba
