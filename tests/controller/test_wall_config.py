"""The walls the service asks of the MCU (``stacks_per_seat``): every table the simulation plays — each rule set at
each of its table sizes, every dealer — is one the MCU emulator configures, shuffles and raises. A table of two of
Red put all its tiles on two sides (more stacks than a lift holds): the emulator refused it ("configure rejected
by the table: bad argument") and ``serve --demo`` faulted on its first hand."""
from __future__ import annotations

import asyncio

import pytest

from controller.backends.mcu import McuBackend
from controller.referee.sim.harness import tables
from controller.table_cycle import stacks_per_seat
from rules.profiles import registry

SPECS = tables(["all"])


@pytest.mark.parametrize("spec", SPECS, ids=[s.label for s in SPECS])
def test_every_table_is_a_wall_the_mcu_builds(spec):
    seats = registry.get(spec.profile).wall_spec(spec.players).seats
    for dealer in seats:
        n, stacks = stacks_per_seat(spec.profile, spec.players, dealer)
        assert sum(stacks) * 2 == n and len(stacks) == 4 and 0 not in stacks

    async def build() -> None:  # a refused wall is a BackendFault here
        b = McuBackend("emulator", time_scale=2000.0, emulator_seed=3)
        await b.start()
        try:
            await b.collect()
            await b.configure(n, stacks)
            await b.shuffle()
            await b.raise_walls()
            assert not b.motors_running()
        finally:
            await b.close()

    asyncio.run(build())


def test_a_full_table_keeps_the_rule_set_s_sections_by_side():
    n, stacks = stacks_per_seat("riichi-ema2016", 4, 1)  # 004: 17 stacks a side
    assert n == 136 and stacks == (17, 17, 17, 17)
