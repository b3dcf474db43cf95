"""Hand settlement: who pays whom after an MCR hand (003 §Подсчёт 1b-c, §Способы объявления победы).

Every payment carries its reason and the seed passage it comes from. Seats are 0..3; amounts are
positive numbers paid by ``payer`` to ``payee``. The hand value ``P`` includes flowers (003 §Способы
объявления победы 1c: «10 очков + 2 плитки цветов = 12 очков»).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.scoring import JSONObject

BASE = 8  # «Дополнительные очки: проигравшие игроки должны заплатить выигравшему по 8 очков» (003 §Подсчёт 1b(1))


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    amount: int
    reason: str
    ref: str

    def to_json(self) -> JSONObject:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount, "reason": self.reason,
                "ref": self.ref}


def win_payments(winner: int, hand_value: int, discarder: int | None, seats: tuple[int, ...] = (0, 1, 2, 3)
                 ) -> list[Payment]:
    """Payments for a win worth ``hand_value`` (fan incl. flowers); ``discarder`` None = self-drawn.

    Self-drawn: each other player pays 8 + P (003 §Подсчёт 1c(1)). Discard (a robbed kong included,
    the player who added the tile pays as the discarder, spec §4.5): the discarder pays 8 + P, the two
    others 8 each (003 §Подсчёт 1c(2)).
    """
    if winner not in seats or (discarder is not None and (discarder == winner or discarder not in seats)):
        raise ValueError("winner and discarder must be two different seats at the table")
    out = []
    for s in seats:
        if s == winner:
            continue
        if discarder is None:
            out.append(Payment(s, winner, BASE + hand_value, "self-drawn win: 8 + hand value",
                               "003 §Подсчёт 1c(1)"))
        elif s == discarder:
            out.append(Payment(s, winner, BASE + hand_value, "discarded the winning tile: 8 + hand value",
                               "003 §Подсчёт 1c(2)"))
        else:
            out.append(Payment(s, winner, BASE, "win by discard: 8 from each other player",
                               "003 §Подсчёт 1c(2)"))
    return out


def draw_payments() -> list[Payment]:
    """A drawn hand (the wall is exhausted, no winner, 003 §Словарь 33): no payments (spec §12 A30)."""
    return []


def points_summary(hand_value: int, self_drawn: bool) -> dict[str, int]:
    """The ``points`` object of a score result: what the winner receives and who pays what."""
    if self_drawn:
        each = BASE + hand_value
        return {"total": 3 * each, "each": each}
    return {"total": 3 * BASE + hand_value, "discarder": BASE + hand_value, "each_other": BASE}


def net(payments: list[Payment], seats: tuple[int, ...] = (0, 1, 2, 3)) -> dict[int, int]:
    """Net result per seat (zero-sum for payments between players)."""
    out = {s: 0 for s in seats}
    for p in payments:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out
