from rules.events import CardSeen, DiceRead, FlowerSeen, MeldMade, TilesRevealed, relative_source
from rules.profiles import registry
from rules.simulate import random_hands
from vision.conventions import conventions
from vision.scene_game import changed_zones, scenes_from_events
from vision.scene_model import Scene, SeatView
from vision.tracking import diff_events


def test_claims_move_the_tile_and_point_at_the_source():
    for profile in ("riichi-ema2016", "mcr", "sichuan-mpl2025"):
        hr = next(random_hands(registry.get(profile), 31, 1))
        scenes = scenes_from_events(profile, hr.events)
        melds = [e for e in hr.events if isinstance(e, MeldMade) and e.from_seat is not None]
        assert melds, profile
        final = scenes[-1]
        for e in melds:
            rel = relative_source(e.seat, e.from_seat)
            assert any(m.source == rel for m in final.seats[e.seat].melds), (profile, e)
        c = conventions(profile)
        for v in final.seats:
            for m in v.melds:
                if m.kind == "kong_concealed" and not v.revealed:
                    assert tuple(i for i, t in enumerate(m.tiles) if t == "x") == c.concealed_kong_down


def test_changed_zones_and_side_events():
    a = Scene("sichuan-mpl2025", tuple(SeatView() for _ in range(4)))
    b = a.with_seat(2, SeatView(card="2", flowers=()))
    assert changed_zones(a, b) == [(2, "card")]
    ev = diff_events("mcr", "side1", ((), None), (("1f", "3f"), None), t_mono=1.0, t_wall=0.0, frame=9)
    assert ev == [FlowerSeen(seat=1, tile="1f", t_mono=1.0, frame=9), FlowerSeen(seat=1, tile="3f", t_mono=1.0, frame=9)]
    ev = diff_events("sichuan-mpl2025", "side2", ((), "m"), ((), "1"), t_mono=1.0, t_wall=0.0, frame=9)
    assert ev == [CardSeen(seat=2, card="1", t_mono=1.0, frame=9)]
    ev = diff_events("mcr", "hand3", (13, ()), (0, ("1m", "1m")), t_mono=2.0, t_wall=0.0, frame=11)
    assert ev == [TilesRevealed(seat=3, tiles=("1m", "1m"), t_mono=2.0, frame=11)]
    ev = diff_events("mcr", "centre", ((),), ((4, 2),), t_mono=0.5, t_wall=0.0, frame=2)
    assert ev == [DiceRead(values=(4, 2), t_mono=0.5, frame=2)]


def test_a_pond_past_the_rendered_area_is_refused_only_where_it_is_drawn():
    """31 discards in one pond (a 2-player Red hand reaches that): the renderer's limit (30) refuses it, the
    scene model without the limit (the web page's) keeps every tile."""
    import pytest

    from rules.events import Discarded, HandStarted

    events = [HandStarted(t_mono=0.0, t_wall=0.0, hand_id="h", profile="red", n_players=2, dealer=0)]
    events += [Discarded(t_mono=float(i + 1), t_wall=0.0, hand_id="h", seat=0, tile="1m") for i in range(31)]
    with pytest.raises(ValueError, match="pond overflow"):
        scenes_from_events("red", events)
    assert len(scenes_from_events("red", events, max_pond=None)[-1].seats[0].pond) == 31
