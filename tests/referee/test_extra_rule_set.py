"""A new rule set needs no edit outside ``rules/`` (issue #31): one defined here, in the test only, registered
with the registry, is played by the bots and refereed from the table's observations like the built-in ones —
its table conventions, its referee's references and words, its penalty catalogue all read from its data.

``Tiny`` is ``basic``'s game with its own name and data: the wall is basic's (``rules.wall`` has none under
its name), the table shows a concealed kong's middle two tiles face down, its seed ("T") words the
referee's own verdicts, its judge has one penalty.
"""
from __future__ import annotations

import json

import pytest

from controller.cli import main
from controller.referee.core import Referee
from controller.referee.sim import harness
from controller.referee.sim.play import exact_hand
from controller.referee.verdicts import verdict_lines
from controller.web.judge import catalogue, penalty_catalog
from rules.game.penalty_catalogue import PenaltyKind
from rules.game.table_data import RefereeNotes, TableConventions
from rules.profiles import registry
from rules.profiles.basic import Basic
from rules.wall import WallSpec, wall_spec
from vision.conventions import conventions

NAME = "tiny-test"


class Tiny(Basic):
    name = NAME
    title = "Tiny (a rule set only this test knows)"
    tournament = True
    players = (4,)
    table_conventions = TableConventions(concealed_kong_down=(1, 2), rule="T §4: the middle two face down")
    referee_notes = RefereeNotes(references={"out_of_turn": "T §1", "tile_count": "T §2"},
                                 texts={"out_of_turn": ("a tile put out of turn (T)", "снос не в свой ход (T)")})
    violation_rules = {"false_win": "T §5"}
    penalty_catalogue = (PenaltyKind("tiny_delay", "a delay of the game", "задержка игры", "T §3",
                                     payee="each_other", amount=2),)

    def wall_spec(self, players: int = 4, tiles: str | None = None) -> WallSpec:
        return wall_spec("basic", players, tiles)  # basic's wall, as its rules say


@pytest.fixture
def tiny():
    prof = registry.register(Tiny())
    yield prof
    registry.unregister(NAME)


def test_the_registry_knows_it_only_while_registered(tiny):
    assert registry.get(NAME) is tiny and NAME in registry.names() and NAME in registry.tournament_names()
    assert harness.all_tables()[-1] == NAME  # `simulate all` runs its table too
    with pytest.raises(ValueError, match="already registered"):
        registry.register(Tiny())
    with pytest.raises(ValueError, match="already registered"):
        registry.register(registry.get("mcr").__class__())  # a built-in name is taken
    with pytest.raises(registry.UnknownProfile):
        registry.unregister("mcr")  # the built-in rule sets stay


def test_its_data_is_what_the_camera_the_referee_and_the_judge_read(tiny):
    assert conventions(NAME) is tiny.table_conventions and conventions(tiny).concealed_kong_down == (1, 2)
    ref = Referee(NAME)
    assert ref.profile is tiny and ref.conv is tiny.table_conventions
    assert list(catalogue(NAME)) == ["tiny_delay"] and catalogue(tiny)["tiny_delay"].rule == "T §3"
    assert penalty_catalog(tiny)[0]["text_ru"] == "задержка игры"


def _refereed(tiny, want: str, tries: int = 12):
    """Exactly observed hands with faults until one draws a ``want`` verdict from the referee."""
    for seed in range(tries):
        ref, rep, _truth = exact_hand(tiny, seed, faults=True)
        assert rep.ok, (rep.missed, rep.false, rep.mismatches)  # as the truth, payment by payment
        assert rep.flagged == rep.injected
        assert ref.settled and ref.result()["profile"] == NAME
        got = [v for v in ref.violations() if v.code == want]
        if got:
            return ref, got[0]
    raise AssertionError(f"no {want} verdict in {tries} hands")


def test_a_hand_is_played_and_refereed_with_its_words(tiny):
    ref, v = _refereed(tiny, "out_of_turn")
    assert v.rule == "T §1"  # its seed's reference for the referee's own verdict
    en, ru = verdict_lines(v, ref.profile)
    assert "a tile put out of turn (T)" in en and en.endswith("[T §1]") and "снос не в свой ход (T)" in ru
    assert ref.game_log[0].profile == NAME
    _, false_win = _refereed(tiny, "false_win")
    assert false_win.rule == "T §5"  # the hand machine's verdicts take its references too


def test_simulate_runs_its_table(tiny, capsys):
    assert main(["simulate", "--profile", NAME, "--hands", "3", "--seed", "11", "--faults", "--exact",
                 "--workers", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["tables"][NAME]
    assert out["ok"] and row["table"] == NAME and row["hands"] == 3 and row["ok"]
    assert row["violations"]["missed"] == 0 and row["violations"]["false"] == 0


@pytest.mark.long
def test_a_camera_hand_of_it_is_refereed(tiny):
    """One hand through the whole stack: the MCU emulator's dice on its wall, filmed with a real table's
    nuisances on its conventions, read by vision, refereed, compared with the truth."""
    rep = harness.run_hand(harness.TableSpec.parse(NAME), 11, 0, True, camera=True)
    assert rep.profile == NAME and rep.frames > 20
    assert rep.ok, (rep.missed, rep.false, rep.mismatches)
    assert rep.injected and rep.flagged == rep.injected


def test_simulate_all_is_the_registry_s_tournament_tables():
    """``all``: every tournament rule set at each of its tables, the most players first (not basic)."""
    assert harness.all_tables() == (
        "sichuan-mpl2025", "sichuan-mpl2025@3", "sichuan-wmsg", "sichuan-wmsg@3", "mcr", "mcr-siamese@3",
        "mcr-siamese@2", "riichi-ema2016", "red", "red@3", "red@2")
    with pytest.raises(ValueError, match="unknown profile 'basic'"):
        harness.TableSpec.parse("basic")


def test_unregistered_it_is_unknown_again():
    assert NAME not in registry.names() and NAME not in harness.all_tables()
    with pytest.raises(ValueError, match="unknown profile"):
        harness.TableSpec.parse(NAME)
