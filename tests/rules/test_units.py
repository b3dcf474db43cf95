"""One rule-unit style across the four scorers: every scoring rule a profile recognises is a
``rules.units.Unit`` in a registry, with the seed's name and a reference into a seed."""
from __future__ import annotations

import pytest

from rules.profiles.mcr.fan_table import BY_NO
from rules.profiles.mcr.fans import GROUP_UNITS, HAND_UNITS
from rules.profiles.red.detectors import UNITS as RED_UNITS
from rules.profiles.red.fans import FANS as RED_FANS
from rules.profiles.riichi.yaku import BY_ID as YAKU_BY_ID
from rules.profiles.riichi.yaku import ORDER as YAKU_ORDER
from rules.profiles.riichi.yaku import UNITS as YAKU_UNITS
from rules.profiles.sichuan.fans import UNITS as SICHUAN_UNITS
from rules.profiles.sichuan.params import MPL_FANS, WMSG_FANS
from rules.units import Registry, Unit

SEEDS = ("000 ", "001 ", "002 ", "003 ", "004 ")

# MCR fans the scorer computes from the whole reading rather than by one unit: the kong fans (5, 17, 33, 57,
# 66, 67, 74, and the GB option 157), the hand's concealment (12, 48), Chicken Hand (43: nothing else) and
# the flowers (81)
MCR_NOT_UNITS = {5, 12, 17, 33, 43, 48, 57, 66, 67, 74, 81, 157}

REGISTRIES = {
    "riichi": YAKU_UNITS,
    "sichuan": SICHUAN_UNITS,
    "red": RED_UNITS,
    "mcr-hand": HAND_UNITS,
    "mcr-group": GROUP_UNITS,
}


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_every_unit_names_its_rule_and_cites_a_seed(name: str) -> None:
    reg = REGISTRIES[name]
    assert len(reg) > 0
    for u in reg:
        assert u.id and u.name, u
        # riichi's ittsu is EMA 2016's, missing from the 004 text (spec ambiguity A2)
        assert u.ref.startswith(SEEDS) or (name == "riichi" and u.id == "ittsu"), (u.id, u.ref)
        assert reg[u.id] is u


def test_riichi_units_are_the_yaku_table_in_order() -> None:
    assert YAKU_UNITS.ids() == list(YAKU_ORDER)
    for u in YAKU_UNITS:
        assert (u.name, u.ref) == (YAKU_BY_ID[u.id].name, YAKU_BY_ID[u.id].ref)


def test_sichuan_units_cover_both_fan_tables() -> None:
    assert {f.id for f in MPL_FANS} | {f.id for f in WMSG_FANS} == set(SICHUAN_UNITS.ids())
    for f in MPL_FANS:
        assert SICHUAN_UNITS[f.id].name == f.name


def test_red_fans_are_their_units_in_table_order() -> None:
    assert [f.unit for f in RED_FANS] == list(RED_UNITS)
    assert [f.name for f in RED_FANS] == [u.name for u in RED_UNITS]
    assert [u.ref for u in RED_UNITS] == [f"001 «Таблица фанов» #{f.no}" for f in RED_FANS]


def test_mcr_units_and_computed_fans_cover_the_table() -> None:
    hand, group = {int(i) for i in HAND_UNITS.ids()}, {int(i) for i in GROUP_UNITS.ids()}
    assert not hand & group
    assert hand | group | MCR_NOT_UNITS == set(BY_NO)
    assert not (hand | group) & MCR_NOT_UNITS
    for u in list(HAND_UNITS) + list(GROUP_UNITS):
        assert u.name == BY_NO[int(u.id)].name and u.ref == f"003 #{u.id}"


def test_the_mcr_scorer_calls_the_registrys_units() -> None:
    """The scorer's per-scope tables (and the principles' group families) are the registry's units, each in
    the family its ``group`` names, in registry order."""
    from rules.profiles.mcr import fans as F

    tables = {"tiles": F.TILE_SCOPE, "hand": F.HAND_SCOPE, "shape": F.SHAPE_SCOPE, "sets": F.SET_SCOPE}
    for reg, families in ((HAND_UNITS, tables), (GROUP_UNITS, {
            "chows2": F.CHOWS_2, "chows3": F.CHOWS_3, "chows4": F.CHOWS_4,
            "pungs2": F.PUNGS_2, "pungs3": F.PUNGS_3, "pungs4": F.PUNGS_4})):
        assert sum(len(t) for t in families.values()) == len(reg)
        for family, table in families.items():
            assert [(int(u.id), u.check) for u in reg if u.group == family] == list(table)


def test_a_registry_refuses_two_units_of_one_id() -> None:
    reg: Registry[int] = Registry([Unit("a", "A", "000 §1", lambda r: r)])
    with pytest.raises(ValueError, match="two units"):
        reg.add(Unit("a", "A again", "000 §2", lambda r: 0))

    @reg.unit("b", "B", "000 §3")
    def b(r: int) -> int:
        return 2 * r

    assert b(2) == 4 and reg["b"](3) == 6 and "b" in reg and reg.ids() == ["a", "b"]
    assert reg["a"](0) == 0 and reg["a"](5) == 5
