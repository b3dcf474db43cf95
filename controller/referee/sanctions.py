"""The judge's decisions at the console that change the hand in play. The console records each one in the
table's judge stream (``controller/web/judge.py``) and hands it to the play source (``PlaySource.judged``):
the referee takes it as an input like any other (stored in ``<hand>/referee``, replayed after a restart or a
correction), through its rows of :data:`controller.referee.table.TABLE`.

* **A dead hand** (000 §2.8.3 line 437; 004 Rules 3.4.7 line 302): a ``penalty_awarded`` whose kind makes
  the hand dead, or the ``dead_hand`` sanction → the hand machine's ``hand_dead``. The seat plays on (draws
  and discards); what it may not do is the machine's verdict, as the seed says: Sichuan accepts its hu and
  judges it a false hu at the reveal (000 §2.8.3 «Объявление игроком маджонга при „мёртвой руке“ обернётся
  штрафом за ложный маджонг») and refuses its calls; riichi refuses its win and its calls on the spot
  (004 Rules 3.4.7 «не может объявить победу, любой сет»; such an attempt is a chombo, 3.4.6, which the
  judge gives) and does not count it ready at an exhaustive draw.
* **A penalty that replays the hand** (the catalogue's ``replay``: riichi's chombo, 004 Rules 3.4.6 line 278
  «после чего пересдается текущая раздача ... Счетчик ренчанов не добавляется, и дилер не перемещается»):
  the hand ends at once and is dealt again — no payment of its own (the penalty carries the chombo's
  4000/2000, which the table's page and the hall credit once), the same dealer, the same counters, the riichi
  stakes returned (never paid: a stake is paid at the settlement). The result waits for its signatures.
"""
from __future__ import annotations

from controller.referee import effects
from controller.referee.state import REFEREE_JUDGE, RefereeState
from rules.events import Event, HandDead, JudgeAction, PenaltyAwarded, Violation
from rules.game.penalty_catalogue import charge

DEAD_HAND_RULE = "000 §2.8.3"  # a judge's dead hand with no catalogue kind of its own to cite


def on_penalty(r: RefereeState, ev: PenaltyAwarded) -> None:
    """A penalty given during the hand: it replays the hand, or makes the seat's hand dead, or (points
    only) changes nothing the referee follows."""
    if ev.replay:
        replay(r, ev)
    elif ev.dead_hand:
        dead_hand(r, at_chair(r, ev.seat), ev.rule or DEAD_HAND_RULE)


def on_sanction(r: RefereeState, ev: JudgeAction) -> None:
    """A sanction given during the hand: a dead hand is the referee's; the others (removal,
    disqualification, annulment, table points) are the hall's."""
    detail = ev.detail
    if ev.action == "sanction" and detail.get("kind") == "dead_hand":
        seat = detail.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool):
            dead_hand(r, at_chair(r, seat), dead_hand_rule(r))


def at_chair(r: RefereeState, chair: int) -> int:
    """The hand's seat of the console's ``chair`` (it numbers the players 0..n-1): the same at three or four, East
    and West at a table of two (seats 0 and 2: docs/notation.md "Seats", ``rules.wall.SEATS``)."""
    seats = list(r.st.seats)
    return seats[chair] if 0 <= chair < len(seats) else chair


def dead_hand_rule(r: RefereeState) -> str:
    """The seed line of a judge's dead hand in this rule set (its catalogue's ``dead_hand`` kind)."""
    return next((k.rule for k in r.profile.penalty_catalogue if k.code == "dead_hand"), DEAD_HAND_RULE)


def dead_hand(r: RefereeState, seat: int, rule: str) -> None:
    """The seat's hand is dead from now on (the machine judges its later win or claims)."""
    ss = r.st.seat_state.get(seat)
    if ss is None or ss.dead or ss.won:
        return  # no such seat, dead already, or out of the hand: nothing changes
    effects.submit(r, HandDead(seat=seat, reason="judge", rule=rule))


def replay(r: RefereeState, ev: PenaltyAwarded) -> None:
    """The hand ends to be dealt again: from now on only the signatures count (the table's ``replayed`` mode:
    nothing pending is acted on, no observation is followed)."""
    if r.replayed is None:
        r.replayed = ev


def dead_claims(r: RefereeState, out: list[Event]) -> None:
    """004 Rules 3.4.6: «Попытка претендовать на тайл после того как рука была объявлена мертвой рукой» is a
    chombo. Where the rule set's catalogue has a kind that replays the hand, a claim or a win the machine refused
    to a seat the judge made dead ends the hand with that kind, charged by the referee (its payment is then
    the hand's). Dead hands of the machine's own finding are left as they were (no judge decision: unchanged)."""
    kind = next((k for k in r.profile.penalty_catalogue if k.replay), None)
    if kind is None or r.replayed is not None:
        return
    for v in out:
        if isinstance(v, Violation) and v.code == "claim_inactive_player" and v.seat is not None \
                and judged_dead(r, v.seat):
            st = r.st
            c = charge(kind, v.seat, list(st.seats), dealer=st.dealer)
            flagged = effects.flag(r, "dead_hand_claim", v.seat, "a claim after the judge declared the hand dead")
            r.replayed = PenaltyAwarded(seat=v.seat, points=c.points, rule=flagged.rule, reason=flagged.message,
                                        code=kind.code, paid=c.paid, replay=True, judge=REFEREE_JUDGE,
                                        hand_id=r.hand_id, t_mono=v.t_mono, t_wall=v.t_wall)
            return


def judged_dead(r: RefereeState, seat: int) -> bool:
    return any(isinstance(e, HandDead) and e.seat == seat and e.reason == "judge" for e in r.machine.log)
