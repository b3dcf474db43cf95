"""The referee: follows a hand from what the camera and the call buttons report, and judges it as it goes.

    ref = Referee("riichi-ema2016")
    for ev in inputs:               # hand_started, dice, camera observations, button presses, answers, ...
        for out in ref.feed(ev):    # game events, violations, questions, claim timings, the confirmation
            ...
    ref.tick(t_mono)                # time passed with nothing seen: a claim window or the reveals may end

Pure and synchronous: no I/O, no clock of its own — every decision is timed by the inputs' ``t_mono`` on
the table's shared monotonic clock, so the referee is a function of its inputs (:attr:`Referee.record`) and
a judge's correction simply replays the corrected record. It drives a hand machine in ``table`` mode
(:mod:`rules.game`: concealed tiles, the wall and self-drawn tiles are unknown until revealed) through its
public API only, and adds what only the table sees: when a claim came, a discard out of turn.

The referee in modules, one per concern (an input's path: :mod:`.dispatch` → :mod:`.timing` → a row of
:mod:`.table` → the concern's module): :mod:`.state` (:class:`RefereeState`: all the state), :mod:`.setup`,
:mod:`.ponds` (pure: the camera's pond against the record's), :mod:`.discards`, :mod:`.turn` (the turn and
the claim window), :mod:`.claims` (calls, sets, flowers), :mod:`.ending` (reveals, the exhaustive draw, the
settlement, the signatures), :mod:`.racks`, :mod:`.variants` (Sichuan WMSG's missing suits),
:mod:`.questions` and :mod:`.answers` (what is asked, how each answer resumes), :mod:`.corrections`,
:mod:`.effects` (events submitted, verdicts emitted). This module: feed / tick / result / replay.

How observations become the hand (:data:`controller.referee.table.TABLE`, (input type, mode) → handler):

* the dice (``dice_rolled``) → the break from the wall model, the deal (``x`` tiles, the profile's counts);
* a new tile in seat k's pond → seat k's discard, preceded by the draw the phase implies (a wall draw, a
  kong's or a flower's replacement); a sideways discard is riichi's declaration;
* a call button (``button_pressed`` ``call``) → a claim on the discard on offer, timed from the frame in
  which the discard settled; a ``hu`` in one's own turn → a self-drawn win;
* a tile leaving a pond and a set appearing in seat j's meld area → seat j's claim and the granted set, its
  source from the open claim window (and the sideways tile where the profile turns it); a concealed or an
  added kong in the player's own turn; a flower set aside → the flower and its replacement;
* a missing-suit card (Sichuan MPL) → the declaration; a hu card → the seat has won;
* a hand laid face up → ``hand_revealed`` (a self-drawn winning tile is the one shown apart, at the right
  end); at an exhaustive draw the hands shown are the ready hands;
* riichi's dead-wall indicators (``indicator_seen``) → ``dora_revealed``.

It never guesses: an unreadable tile or an observation that contradicts the record becomes a question
(:class:`~rules.events.QuestionAsked`); the inputs that follow wait until the answer
(:class:`~rules.events.QuestionAnswered`) comes. Once every hand that must be shown is shown the hand is
settled and waits for its confirmation (every seat's call button, or the judge).
"""
from __future__ import annotations

from controller.play_source import HandResult
from controller.referee import corrections, dispatch, timing, variants
from controller.referee.corrections import apply_correction
from controller.referee.state import (
    TICK_S,
    TILE_TEXTS,
    UNREAD_WAIT_S,
    OpenQuestion,
    RecordLog,
    RefereeState,
    Window,
    fresh_state,
    replay_machine,
    seat_from_source,
)
from controller.referee.table import TABLE
from controller.referee.verdicts import CALL_WAIT_S, english, russian
from rules.events import (
    CorrectionApplied,
    Event,
    JSONObject,
    JudgeAction,
    JudgeCorrection,
    MeldMade,
    PenaltyAwarded,
    QuestionAsked,
    RefereeTick,
    ResultConfirmed,
    Settled,
    Violation,
)
from rules.game.machine import HandMachine
from rules.game.protocols import RuleSet
from rules.game.table_data import TableConventions
from rules.game.violations import violation


class Referee:
    """One hand, refereed from observations. ``profile``: the rule set (or its registry name), whose data
    says what differs in refereeing it (its table conventions, its referee notes, its capabilities);
    ``wait_s``: how long to wait for further calls before a win on a discard is granted where the profile
    sets no claim time (:data:`verdicts.CALL_WAIT_S`; where it does, the hand machine's claim window);
    ``reveal_wait_s``: after an exhaustive draw, how long after the last hand shown the others count as
    not ready (riichi shows only ready hands). All its state is :attr:`state` (:class:`RefereeState`)."""

    def __init__(self, profile: RuleSet | str, *, wait_s: float | None = None, reveal_wait_s: float = 4.0):
        if isinstance(profile, str):
            from rules.profiles import registry

            profile = registry.get(profile)
        from vision.conventions import conventions

        self.profile: RuleSet = profile
        self.name: str = profile.name
        self.conv: TableConventions = conventions(profile)
        self.wait_s = wait_s or CALL_WAIT_S
        self.reveal_wait_s = reveal_wait_s
        self.log = RecordLog()
        self.state = self._fresh()

    def _fresh(self) -> RefereeState:
        return fresh_state(self.profile, self.conv, self.wait_s, self.reveal_wait_s, self.log,
                           variants.variant_for(self.profile, self.conv))

    # ------------------------------------------------------------------------------------------------
    # public API

    def feed(self, ev: Event) -> list[Event]:
        """One input: returns what the referee concluded from it (possibly nothing, or a question)."""
        self.log.inputs.append(ev)
        if isinstance(ev, JudgeCorrection):
            return self._correct(ev)
        self.log.record.append(ev)
        return dispatch.process(self.state, ev) + dispatch.unhandled(self.state, ev)

    def tick(self, t_mono: float) -> list[Event]:
        """Time passed to ``t_mono`` with nothing seen: act on what is due (recorded as an input)."""
        if self.open_question is not None or not timing.due_before(self.state, t_mono):
            return []
        return self.feed(RefereeTick(t_mono=t_mono, hand_id=self.hand_id))

    def due(self, t_mono: float) -> bool:
        """Whether something becomes due by ``t_mono`` (a claim window closing, the reveals ending, a pond
        or a rack that stayed unlike the record): then a tick at that time is an input."""
        return timing.due_before(self.state, t_mono)

    def final_length(self) -> int:
        """How much of :attr:`game_log` is final: an event the camera may still complete (a concealed kong
        laid face down, the source of an added kong's tile) and all after it are not yet."""
        log = self.machine.log
        open_at = list(self.state.racks.kong.values())
        for i, e in enumerate(log):
            if isinstance(e, MeldMade) and e.kind == "kong_concealed" and "x" in e.tiles:
                open_at.append(i)
        return min(open_at, default=len(log))

    @property
    def machine(self) -> HandMachine:
        return self.state.machine

    @property
    def hand_id(self) -> str:
        return self.state.hand_id

    @property
    def window(self) -> Window | None:
        return self.state.claims.window

    @property
    def open_question(self) -> OpenQuestion | None:
        return self.state.asking.open

    @property
    def outputs(self) -> list[Event]:
        return self.state.outputs

    @property
    def indicators(self) -> list[str]:
        return self.state.dora.indicators

    @property
    def seen(self) -> dict[int, list[str]]:
        return self.state.pond.seen

    @property
    def confirm_seats(self) -> set[int]:
        return self.state.signing.seats

    @property
    def inputs(self) -> list[Event]:
        return self.log.inputs

    @property
    def record(self) -> list[Event]:
        return self.log.record

    @property
    def revision(self) -> int:
        return self.log.revision

    @property
    def corrections(self) -> list[CorrectionApplied]:
        return self.log.corrections

    @property
    def withdrawn(self) -> list[Event]:
        return self.log.withdrawn

    @property
    def phase(self) -> str:
        return self.machine.phase

    @property
    def settled(self) -> bool:
        return self.state.settled

    @property
    def confirmed(self) -> ResultConfirmed | None:
        return self.state.signing.confirmed

    @property
    def game_log(self) -> list[Event]:
        """The hand machine's log: the hand as the referee followed it (the record of this revision)."""
        return self.machine.log

    def judged(self) -> list[Event]:
        """The judge's decisions this hand took as inputs (the console's penalties and sanctions: a chombo that
        had it dealt again among them), in the order given — its record (``mahjong-table export``) shows them."""
        return [e for e in self.record if isinstance(e, PenaltyAwarded)
                or isinstance(e, JudgeAction) and e.action == "sanction"]

    def export_log(self) -> list[Event]:
        """The hand as the viewers' formats show it (tenhou.net/6, mjai): the machine's log and, for a hand a chombo
        ended to be dealt again (004 line 278), its settlement — the chombo's payments, the judge's penalty's or the
        referee's own ruling (neither format has a chombo: both show a draw with them; the riichi stakes go back)."""
        pen = self.state.replayed
        if pen is None or not any(pen.paid):
            return list(self.machine.log)
        deltas = tuple(int(a) - (pen.points if s == pen.seat else 0) for s, a in enumerate(pen.paid))
        payments: tuple[JSONObject, ...] = tuple(
            {"payer": pen.seat, "payee": s, "amount": int(a), "reason": "chombo", "rule": pen.rule}
            for s, a in enumerate(pen.paid) if a)
        return [*self.machine.log, Settled(payments=payments, deltas=deltas, hand_id=self.hand_id, t_mono=pen.t_mono,
                                           t_wall=pen.t_wall)]

    def violations(self) -> list[Violation]:
        return [e for e in self.outputs if isinstance(e, Violation)]

    def questions(self) -> list[QuestionAsked]:
        return [e for e in self.outputs if isinstance(e, QuestionAsked)]

    def result(self) -> HandResult:
        """The hand's result (once settled): deltas, payments, winners, next dealer, verdicts, questions."""
        st = self.machine.state
        settled = st.settled
        confirmed = self.confirmed
        out: HandResult = {
            "source": "referee",
            "profile": self.name,
            "deltas": list(settled.deltas) if settled is not None else [],
            "payments": [dict(p) for p in settled.payments] if settled is not None else [],
            "winners": [w.seat for w in st.valid_wins()],
            "exhaustive": st.exhaustive,
            "next_dealer": st.next_dealer if st.next_dealer is not None else st.dealer,
            "violations": [{"seat": v.seat, "code": v.code, "rule": v.rule} for v in self.violations()],
            "questions": len(self.questions()),
            "revision": self.revision,
            "confirmed_by": confirmed.by if confirmed is not None else None,
            "next_options": dict(self.profile.next_hand_options(st)) if settled is not None else {},
            "events": len(self.machine.log),
        }
        return out if self.state.replayed is None else self._replayed(out)

    def _replayed(self, out: HandResult) -> HandResult:
        """A hand a chombo ended (004 Rules 3.4.6): dealt again by the same dealer with the same counters; it
        pays nothing itself when the judge's penalty carries the chombo (credited once), else (the referee's
        own ruling: a dead hand's claim) its payment is the hand's."""
        st, pen = self.machine.state, self.state.replayed
        assert pen is not None
        same = {k: st.options.get(k, 0) for k in self.profile.next_hand_options(st)}
        deltas = list(self.state.deltas())
        payments: list[JSONObject] = [{"payer": pen.seat, "payee": s, "amount": a, "reason": "chombo", "rule": pen.rule}
                                      for s, a in enumerate(pen.paid) if a and any(deltas)]
        return {**out, "deltas": deltas, "payments": payments, "winners": [], "exhaustive": False,
                "next_dealer": st.dealer, "next_options": same,
                "replayed": {"seat": pen.seat, "code": pen.code, "rule": pen.rule, "judge": pen.judge}}

    # ------------------------------------------------------------------------------------------------
    # corrections: the corrected record replayed

    def _correct(self, c: JudgeCorrection) -> list[Event]:
        """A judge's correction of the record: replayed from the corrected record, audited."""
        before = self.machine.state.settled
        viol_before = tuple(f"{v.seat}:{v.code}" for v in self.violations())
        rec = list(self.log.record)
        try:
            change = apply_correction(rec, c)
        except (ValueError, IndexError, KeyError, TypeError) as exc:
            return [violation("bad_event", None, f"correction refused: {exc}", at=c, hand_id=self.hand_id)]
        confirmed = self.confirmed
        signed: list[int | str] = (list(sorted(self.confirm_seats)) if confirmed is None
                                   else list(confirmed.seats) or ["judge"])
        self.log.record = rec
        self.log.revision += 1
        self._replay()
        after = self.machine.state.settled
        if signed and corrections.payments(before) != corrections.payments(after):
            # a changed result is signed again: the signatures of the old one are withdrawn
            self.log.withdrawn += corrections.unsigned(self.log.record, self.log.withdrawn)
            self._replay()
            change += f"; the result changed: the signatures ({', '.join(map(str, signed))}) are withdrawn"
        audit = corrections.audit(c, change, self.revision, before, after, viol_before,
                                  tuple(f"{v.seat}:{v.code}" for v in self.violations()), self.hand_id)
        self.log.corrections.append(audit)
        self.state.outputs.append(audit)
        return [audit]

    def _replay(self) -> None:
        self.state = self._fresh()
        for ev in self.log.record:
            dispatch.process(self.state, ev)


#: the dispatch table (input type, mode) → handler (:mod:`controller.referee.table`)
HANDLERS = TABLE

__all__ = ["HANDLERS", "TICK_S", "TILE_TEXTS", "UNREAD_WAIT_S", "Referee", "RefereeTick", "apply_correction",
           "english", "replay_machine", "russian", "seat_from_source"]
