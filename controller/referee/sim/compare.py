"""Judging the referee: its hand against the ground truth, payment by payment and verdict by verdict."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.referee.sim.timeline import Expected
from rules.events import JSONObject, JSONValue, Settled, Violation

MOMENT_SLACK = 1.5  # seconds: a verdict counts as given "at the right moment" this close to its moment


@dataclass
class HandReport:
    hand_id: str
    profile: str
    players: int
    events: int = 0  # game events the referee derived
    frames: int = 0
    questions: int = 0
    questions_planned: int = 0  # questions about tiles rendered unreadable on purpose
    injected: int = 0
    flagged: int = 0
    missed: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)  # injected faults by kind
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)  # ms from a settled frame to its verdict
    judged: list[str] = field(default_factory=list)  # impossible observations the judge settled
    redealt: int = 0  # hands dealt again because the table could not show them (a pond over 30 tiles)
    vision_s: float = 0.0  # seconds the vision pipeline spent on the hand's frames
    frames_read: int = 0  # frames the reader read (a Pi-class CPU: the others were dropped)
    frames_dropped: int = 0  # frames the camera took while the reader was busy, replaced by a newer one
    queue_wait_max: float = 0.0  # seconds: the longest a frame read waited for the reader
    read_max: float = 0.0  # seconds: the longest read (camera time: stretched by the slowdown)
    read_cpu_ms: list[float] = field(default_factory=list)  # the CPU time of each read here (not stretched)
    asked: list[JSONObject] = field(default_factory=list)  # each question: t, kind, seat, zone, message

    @property
    def ok(self) -> bool:
        return not (self.missed or self.false or self.mismatches)


def compare_payments(truth: Settled | None, ref: Settled | None) -> list[str]:
    """Every difference between two settlements (``Settled`` events or None), payment by payment."""
    if truth is None or ref is None:
        return [] if truth is ref else [f"settled: truth {'yes' if truth else 'no'}, referee {'yes' if ref else 'no'}"]
    out = []
    a, b = [_money(p) for p in truth.payments], [_money(p) for p in ref.payments]
    for i in range(max(len(a), len(b))):
        pa = a[i] if i < len(a) else None
        pb = b[i] if i < len(b) else None
        if pa != pb:
            out.append(f"payment {i + 1}: truth {_pay(pa)}, referee {_pay(pb)}")
    if tuple(truth.deltas) != tuple(ref.deltas):
        out.append(f"deltas: truth {list(truth.deltas)}, referee {list(ref.deltas)}")
    return out


def _money(p: Mapping[str, JSONValue]) -> dict[str, JSONValue]:
    """What a payment is: who pays whom, how much, by which rule (its wording follows the judged hand)."""
    d = dict(p)
    return {k: d.get(k) for k in ("payer", "payee", "amount", "rule")} | {"reason": str(d.get("reason", "")).split(" (")[0]}


def _pay(p: dict[str, JSONValue] | None) -> str:
    if p is None:
        return "none"
    return f"{p.get('payer')}->{p.get('payee')} {p.get('amount')} ({p.get('reason')})"


def compare_violations(expected: list[Expected], flagged: list[Violation]) -> tuple[int, list[str], list[str]]:
    """(matched, missed, false): each expected verdict must be given with its code, to its seat, close to
    its moment; any other verdict is false."""
    left = list(flagged)
    missed: list[str] = []
    hit = 0
    for e in expected:
        match = next((v for v in left if v.code == e.code and v.seat == e.seat
                      and abs(v.t_mono - e.t) <= MOMENT_SLACK + 3.5), None)
        if match is None:
            missed.append(f"{e.code} seat {e.seat} at {e.t:.1f}s" + (f" ({e.fault})" if e.fault else ""))
        else:
            hit += 1
            left.remove(match)
    false = [f"{v.code} seat {v.seat} at {v.t_mono:.1f}s: {v.message}" for v in left]
    return hit, missed, false
