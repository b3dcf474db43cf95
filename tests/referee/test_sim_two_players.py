"""A table of two (Siamese MCR for two, Red for two): no seat is idle while a discard is on offer, so the
simulation's out-of-turn fault is the discarder laying a second tile while the other is to draw -- before,
mcr-siamese@2 injected no fault in 60 hands (test-long)."""
from __future__ import annotations

from controller.referee.sim import harness
from tests.conftest import scaled


def test_a_table_of_two_gets_its_out_of_turn_faults_and_the_referee_flags_each():
    spec = next(s for s in harness.tables(["all"]) if s.label == "mcr-siamese@2")
    reps = [harness.run_hand(spec, 11, i, True, camera=False) for i in range(scaled(4, 12))]
    injected = sum(r.faults["out_of_turn"] for r in reps)
    assert injected >= 2, [dict(r.faults) for r in reps]
    assert all(r.ok for r in reps), [(r.missed, r.false, r.mismatches) for r in reps if not r.ok]
    assert sum(r.flagged for r in reps) >= sum(r.injected for r in reps)
