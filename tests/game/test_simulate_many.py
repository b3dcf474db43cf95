"""rules.simulate_many: the same hands as random_hands, whatever the number of worker processes."""
from __future__ import annotations

import pytest

from rules.profiles import registry
from rules.simulate import random_hands
from rules.simulate_many import CHUNK, simulate
from tests.conftest import scaled


@pytest.mark.parametrize("profile", ["basic", "sichuan-mpl2025"])
def test_workers_play_exactly_the_hands_of_random_hands(profile):
    n = scaled(CHUNK + 10, 4 * CHUNK)  # at least two chunks, so two workers both play
    one = list(simulate(profile, 7, n, workers=1))
    two = list(simulate(profile, 7, n, workers=2))
    assert one == two
    assert [s.index for s in two] == list(range(n))
    ref = random_hands(registry.get(profile), 7, n)
    for s, r in zip(two, ref, strict=True):
        assert (s.deltas, s.winners, s.exhaustive, s.events) == (tuple(r.deltas), tuple(r.winners),
                                                                  r.exhaustive, len(r.events))
    assert any(s.winners for s in two)


def test_an_unknown_profile_fails_in_the_caller():
    with pytest.raises(registry.UnknownProfile):
        list(simulate("no-such-profile", 1, 10, workers=2))
