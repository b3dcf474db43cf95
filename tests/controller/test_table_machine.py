import pytest

from controller.table_machine import PROMPTS, TRANSITIONS, WORKING, IllegalTransition, S, TableMachine

CYCLE = ["start", "done", "done", "done", "done", "done", "hand_over", "confirmed"]


def test_full_cycle_visits_every_state_in_order():
    m = TableMachine()
    seen = [m.state]
    for trig in CYCLE:
        seen.append(m.fire(trig).after)
    assert seen == [S.IDLE, S.COLLECTING, S.SHUFFLING, S.WALLS_UP, S.DICE, S.DEALING, S.PLAY, S.SCORING, S.IDLE]


@pytest.mark.parametrize("k", range(1, 8))
def test_fault_in_any_working_state_then_retry_returns_there(k):
    m = TableMachine()
    for trig in CYCLE[:k]:
        m.fire(trig)
    st = m.state
    assert st in WORKING
    m.fire("fault", "lift did not reach its limit switch in time (part: lift2)")
    assert m.state is S.FAULT and "lift2" in m.prompt
    m.fire("retry")
    assert m.state is st and m.fault == ""


def test_abort_from_fault_goes_idle_and_retry_is_then_illegal():
    m = TableMachine()
    m.fire("start")
    m.fire("fault", "jam")
    m.fire("abort")
    assert m.state is S.IDLE
    with pytest.raises(IllegalTransition):
        m.fire("retry")


def test_pause_and_resume_from_every_non_fault_state():
    for k in range(len(CYCLE)):
        m = TableMachine()
        for trig in CYCLE[:k]:
            m.fire(trig)
        st = m.state
        m.fire("pause")
        assert m.state is S.PAUSED
        with pytest.raises(IllegalTransition):
            m.fire("done")
        m.fire("resume")
        assert m.state is st


def test_every_illegal_pair_is_rejected():
    triggers = {t for _, t in TRANSITIONS} | {"fault", "retry", "pause", "resume"}
    for st in S:
        for trig in triggers:
            m = TableMachine(state=st, resume_to=S.DICE if st in (S.FAULT, S.PAUSED) else None)
            legal = (
                (st, trig) in TRANSITIONS
                or (trig == "fault" and st in WORKING)
                or (trig in ("retry",) and st is S.FAULT)
                or (trig == "pause" and st not in (S.FAULT, S.PAUSED))
                or (trig == "resume" and st is S.PAUSED)
            )
            assert m.can(trig) == legal, (st, trig)
            if not legal:
                with pytest.raises(IllegalTransition):
                    m.fire(trig)


def test_idle_cannot_fault_and_every_state_has_a_prompt():
    assert not TableMachine().can("fault")
    assert set(PROMPTS) == set(S)
