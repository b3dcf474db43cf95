"""What a handler leaves to finish is run by the core (issue #31): a handler returns it
(:class:`~controller.referee.state.FollowUp`), the dispatch runs its row of
:data:`controller.referee.follow_ups.FOLLOW_UPS` right after the handler — no handler reaches into another
concern's module to finish up."""
from __future__ import annotations

import ast
from pathlib import Path

from controller.referee import follow_ups
from controller.referee.state import FollowUp
from rules.events import DoraRevealed, IndicatorSeen, MeldMade
from tests.referee.helpers import Table

PACKAGE = Path(follow_ups.__file__).parent
#: who may call a finisher of another module: the core's runner, and the time step (what time made due)
RUNNERS = ("follow_ups.py", "timing.py")


def _finishers() -> set[tuple[str, str]]:
    """(module, function) of every row of FOLLOW_UPS."""
    return {(f.__module__.rsplit(".", 1)[-1], f.__name__) for f in follow_ups.FOLLOW_UPS.values()}


def _sideways_calls(paths: list[Path]) -> list[str]:
    """``module.finisher(...)`` calls outside the finisher's own module and the runners."""
    finishers = _finishers()
    found = []
    for path in paths:
        if path.name in RUNNERS:
            continue
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                    and (n.func.value.id, n.func.attr) in finishers and n.func.value.id != path.stem):
                found.append(f"{path.name}:{n.lineno}: {n.func.value.id}.{n.func.attr}")
    return found


def test_every_follow_up_has_its_row():
    assert set(follow_ups.FOLLOW_UPS) == set(FollowUp)
    assert ("ending", "maybe_settle") in _finishers() and ("setup", "release_indicators") in _finishers()


def test_no_handler_finishes_another_concerns_work():
    assert _sideways_calls(sorted(PACKAGE.glob("*.py"))) == []


def test_a_sideways_finish_is_found(tmp_path):
    (tmp_path / "claims.py").write_text("from controller.referee import ending, setup\n\ndef on_x(r):\n"
                                        "    setup.on_card(r, None)\n    ending.maybe_settle(r)\n")
    (tmp_path / "ending.py").write_text("def release_held(r):\n    ending.maybe_settle(r)\n")
    assert _sideways_calls([tmp_path / "claims.py", tmp_path / "ending.py"]) == ["claims.py:5: ending.maybe_settle"]


def test_a_kan_indicator_seen_early_turns_with_its_kan_in_the_same_input():
    """The indicator's handler holds it (nothing to turn yet); the kan's handler returns INDICATORS and the
    core turns the held indicator right after the kan, stamped with the kan's input."""
    t = Table("riichi-ema2016")
    assert [(e.TYPE, e.kind) for e in t.feed(IndicatorSeen(index=0, tile="5p", kind="initial"), 0.2)] == [
        ("dora_revealed", "initial")]
    assert t.feed(IndicatorSeen(index=1, tile="7z", kind="kan"), 0.2) == []  # held: no kan in the record yet
    out = t.meld(0, "kong_concealed", "1m 1m 1m 1m")
    assert [type(e) for e in out] == [MeldMade, DoraRevealed]
    assert (out[1].indicator, out[1].kind, out[1].t_mono) == ("7z", "kan", out[0].t_mono)
    assert t.ref.indicators == ["5p", "7z"]
