"""Per-hand settlement: every payment with its reason and seed reference.

Covers ron (one or several winners), tsumo, counters (honba), riichi stakes and deposits, liability
(pao), the exhaustive draw with noten payments, and chombo (004 Rules 3.3.9, 3.3.14, 3.4.2–3.4.11, 4.1).
Seats are 0..3; amounts are points. ``payer``/``payee`` ``None`` is the table (the riichi deposits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.profiles.riichi import limits
from rules.scoring import JSONObject

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

    def to_json(self) -> JSONObject:
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "reason": self.reason,
            "ref": self.ref,
        }


@dataclass
class Settlement:
    """The payments of one hand's end, in order (what carries to the next hand — the dealer, the counters,
    the deposits — is the game hooks', ``RiichiHooks.next_dealer`` and ``next_hand_options``)."""

    payments: list[Payment] = field(default_factory=list)
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

    def to_json(self) -> JSONObject:
        return {
            "outcome": self.outcome,
            "payments": [p.to_json() for p in self.payments],
            "deltas": self.deltas(),
            "penalties": {str(k): v for k, v in self.penalties.items()},
        }


def _stakes(riichi_seats: Sequence[int]) -> list[Payment]:
    return [Payment(s, None, limits_stake(), "riichi stake", "004 Rules 3.3.14") for s in riichi_seats]


def limits_stake() -> int:
    from rules.profiles.riichi.riichi import STAKE

    return STAKE


def settle_ron_win(
    winner: int,
    discarder: int,
    points: dict[str, int],
    honba: int,
    deposits_before: int,
    riichi_this_hand: Sequence[int],
    first: int,
    riichi_winners_after_first: Sequence[int] = (),
    liable: int | None = None,
) -> list[Payment]:
    """The payments of one win on a discard, from the scorer's ``points`` (counters included): the
    discarder pays the hand and the counters (004 Rules 4.1.2, 3.4.10; with liability half of the hand
    each, 3.3.9); ``first`` — the first winner in turn order after the discarder — takes every riichi
    stake of the hand and the deposits (3.3.14, 4.1; spec A14), a later riichi winner his own stake back."""
    out: list[Payment] = []
    if "discarder_pays" in points:
        assert liable is not None
        out.append(Payment(discarder, winner, points["discarder_pays"],
                           "ron: half of the hand and the counters (liability)", "004 Rules 3.3.9"))
        out.append(Payment(liable, winner, points["liable_pays"], "liability: half of the hand", "004 Rules 3.3.9"))
    else:
        counters = limits.HONBA_RON * honba
        out.append(Payment(discarder, winner, points["ron"] - counters, "ron", "004 Rules 3.4.9, 4.1.2"))
        if counters:
            out.append(Payment(discarder, winner, counters, f"{honba} counter(s) x 300", "004 Rules 3.4.10"))
    if winner == first:
        out.extend(_stakes(riichi_this_hand))
        pot = deposits_before + limits_stake() * (len(riichi_this_hand) - len(riichi_winners_after_first))
        if pot:
            out.append(Payment(None, first, pot, "riichi deposits", "004 Rules 3.3.14, 4.1"))
    elif winner in riichi_this_hand:
        out.append(Payment(None, winner, limits_stake(), "own riichi stake returned", "004 Rules 4.1"))
    return out


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


def settle_exhaustive_draw(tenpai_seats: Sequence[int], riichi_this_hand: Sequence[int] = ()) -> Settlement:
    """Exhaustive draw: the riichi stakes of the hand go to the table and stay there, noten payments
    (004 Rules 3.4.2, 3.4.4)."""
    s = Settlement(outcome="exhaustive_draw")
    s.payments.extend(_stakes(riichi_this_hand))
    s.payments.extend(noten_payments(tenpai_seats))
    return s


def settle_chombo(offender: int, dealer_seat: int, mode: str = CHOMBO_MANGAN_PAYMENT) -> Settlement:
    """Chombo: a mangan-sized payment — 4000 to the dealer and 2000 to the others, or 4000 to each when the
    dealer offends (004 Rules 3.4.6); riichi stakes of the hand are returned (no stake payment is made).
    ``mode=deduct_20000_after_uma`` records EMA 2016's 20 000 deduction at game end instead (spec A1)."""
    s = Settlement(outcome="chombo")
    if mode == CHOMBO_DEDUCT_20000:
        s.penalties[offender] = CHOMBO_DEDUCTION
        return s
    for seat in range(4):
        if seat == offender:
            continue
        amount = 4000 if (seat == dealer_seat or offender == dealer_seat) else 2000
        s.payments.append(Payment(offender, seat, amount, "chombo (mangan-sized payment)", "004 Rules 3.4.6"))
    return s

