"""The referee's dispatch table (issue #31): an input with no row is refused, never dropped silently."""
from __future__ import annotations

from controller.referee import table
from rules.events import Discarded, PondTileSeen, Violation
from tests.referee.helpers import Table


def test_an_input_the_table_has_no_row_for_is_refused_to_the_caller():
    """A game event fed as if it were an observation: the referee says it takes no such input (it was
    dropped without a word), and the refusal is no verdict on the hand."""
    t = Table("riichi-ema2016")
    out = t.feed(Discarded(seat=0, tile="1m"), 2.0)
    assert [(type(e), e.code, e.seat) for e in out] == [(Violation, "bad_event", None)]
    assert "discarded" in out[0].message
    assert t.ref.violations() == [] and t.ref.game_log[-1].TYPE != "discarded"


def test_every_observation_has_a_row_and_is_not_refused():
    t = Table("riichi-ema2016")
    assert (PondTileSeen, table.ANY) in table.TABLE
    out = t.discard(0, "1m")
    assert not any(isinstance(e, Violation) and e.code == "bad_event" for e in out)
    assert t.ref.game_log[-1].TYPE == "discarded"


def test_a_call_button_is_looked_up_in_the_hands_mode():
    """The same press: a claim in play, a signature once the result waits for its signatures."""
    t = Table("riichi-ema2016")
    assert table.mode(t.ref.state) == table.PLAY
    assert table.lookup(t.ref.state, t.ref.record[0]) is not None
    rows = {m: h for (typ, m), h in table.TABLE.items() if typ.__name__ == "ButtonPressed"}
    # (a hand the judge's chombo ends is dealt again: its seats sign as after a settlement, 004 l.278)
    assert set(rows) == {table.PLAY, table.EXHAUSTING, table.SETTLED, table.REPLAYED}
    assert len(set(rows.values())) == 3 and rows[table.REPLAYED] is rows[table.SETTLED]
