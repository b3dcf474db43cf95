"""The public projection of a hand: what every player and spectator may see, and nothing else.

    hand = PublicHand("riichi-ema2016")
    for ev in store.events("t1-00004/game"):
        hand.feed(ev, now)           # full-information or camera events, in order
    hand.view(now)                   # a JSON-ready dict for the page

Built only from what a camera above the table sees: every event first passes through
:func:`rules.game.machine.table_view` (dealt and drawn tiles face down, a self-drawn winning tile hidden
until the reveal, rejected actions dropped). From those events:

* the physical table (:func:`vision.scene_game.scenes_from_events`, the same picture the simulated camera
  renders): ponds in discard order with riichi discards sideways, melds with the claimed tile turned
  towards its source, flowers, standing tiles counted, hands laid face up at the reveal, cards, sticks;
* the hand machine in ``table`` mode: phase, whose turn, the live wall count, the open claim window, each
  win judged at the reveal with its breakdown (fans/yaku, fu), the settlement.

Violations are published as code, seat and seed reference only (the page words them in each language):
an engine's message or a rejected action may name concealed tiles. The referee adds public renderers for its
own events with :func:`public_renderer` (its questions and the judge's corrections, in both languages);
a notice carries only :data:`NOTICE_FIELDS` (never a question's subject, the observation it is about).
The answers to its questions (``answer``, from the referee's inputs) are shown where the question was about
what lies face up (:data:`PUBLIC_ANSWERS`), else only that it was answered.
"""
from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rules.events import (
    Dealt,
    DiceRolled,
    Discarded,
    DoraRevealed,
    Drew,
    Event,
    ExhaustiveDraw,
    FlowerDeclared,
    HandDead,
    HandEnded,
    HandRevealed,
    HandStarted,
    JSONObject,
    MeldMade,
    MissingSuitDeclared,
    QuestionAnswered,
    QuestionAsked,
    RiichiDeclared,
    Settled,
    Violation,
    WallBroken,
    Won,
)
from rules.game.protocols import RuleSet
from rules.game.state import WinRecord

if TYPE_CHECKING:
    from vision.scene_model import Scene

log = logging.getLogger("mahjong_table.web")

WINDS = ("1z", "2z", "3z", "4z")
#: the game events the hand machine plays (others in the stream go to the public renderers)
PLAYED = (HandStarted, DiceRolled, WallBroken, Dealt, Drew, Discarded, MeldMade, Won, FlowerDeclared,
          MissingSuitDeclared, HandRevealed, ExhaustiveDraw, Settled, HandEnded, RiichiDeclared, DoraRevealed,
          HandDead)
# what of a judged win's score breakdown is shown (never the wait or the concealed tiles as a list)
WIN_FIELDS = ("fans", "total_fan", "han", "fu", "fu_detail", "limit", "dora", "ura_dora", "base_points",
              "hand_fan", "flower_fan", "self_drawn", "shape", "points", "value", "total")
FAN_FIELDS = ("name", "value", "count", "id", "no")
#: the referee's questions whose answer anyone may see: about what lies face up (a tile it could not read, an
#: observation at odds with the record, a kong's tile). A missing suit stays the seat's (as the seat's
#: ``missing_suit`` does until its hand is shown): its answer is published as "answered" only.
PUBLIC_ANSWERS = frozenset({"tile", "impossible", "kong_tile", "order", "slot"})

#: how an event appears to the public: a JSON-ready notice, or None to show nothing
Renderer = Callable[[Event], JSONObject | None]
_RENDERERS: dict[str, Renderer] = {}
#: what a public notice may carry (its words in both languages, whom it is about)
NOTICE_FIELDS = ("kind", "seat", "text", "text_ru")


def public_renderer(wire_type: str) -> Callable[[Renderer], Renderer]:
    """Register how an event type (by its wire name, e.g. the referee's ``question``) appears to the public:
    a function returning a JSON-ready notice (``{"kind": ..., "text": ...}``, no hidden information) or
    None to show nothing. Events of the hand's stream with no renderer and no part in the hand are not shown."""

    def deco(fn: Renderer) -> Renderer:
        _RENDERERS[wire_type] = fn
        return fn

    return deco


def public_violation(v: Violation) -> JSONObject:
    return {"seat": v.seat, "code": v.code, "rule": v.rule, "deferred": v.deferred}


class PublicHand:
    """One hand's public view, fed event by event (the events may carry hidden information: it is dropped)."""

    def __init__(self, profile: RuleSet | str, hand_id: str = ""):
        """``profile``: the rule set played (or its registry name)."""
        from rules.game.machine import HandMachine, table_view
        from rules.game.siamese import SiameseHandMachine, siamese_table_view
        from rules.profiles import registry

        prof = registry.get(profile) if isinstance(profile, str) else profile
        two_hands = prof.capabilities.two_hands  # as rules.game.machine_for chooses the machine
        self.rules: RuleSet = prof
        self.profile: str = prof.name
        self.hand_id = hand_id
        self.machine = (SiameseHandMachine if two_hands else HandMachine)(prof, "table")
        self._camera = siamese_table_view if two_hands else table_view
        self.events: list[Event] = []  # what the camera saw, in order
        self.violations: list[JSONObject] = []
        self.notices: list[JSONObject] = []
        self.questions: dict[int, str] = {}  # the referee's question id -> its kind
        self.dora: list[str] = []
        self.claim_opened: float | None = None  # server clock when the open claim window opened
        self._window: tuple[int, str, float] | None = None  # which window that is (seat, tile, opened_at)
        self.last: JSONObject | None = None
        self.broken = ""  # why the view stopped following (a log the machine cannot play)
        self.scene_error = ""  # why the table picture could not follow (it keeps the last one)
        self._scene: Scene | None = None
        self._scene_at = -1

    # --- input --------------------------------------------------------------------------------------------
    def feed(self, ev: Event, now: float = 0.0) -> None:
        """Take one event of the hand's game stream (``now``: the server's monotonic clock)."""
        if isinstance(ev, Violation):
            self._violation(public_violation(ev))
            return
        if isinstance(ev, QuestionAsked):
            self.questions[ev.question_id] = ev.kind
        if isinstance(ev, QuestionAnswered):  # (from the referee's inputs: the page's live view passes them)
            self._notice(self._answer(ev), ev)
            return
        render = _RENDERERS.get(ev.TYPE)
        if render is not None:
            self._notice(render(ev), ev)
            return
        if not isinstance(ev, PLAYED):
            return
        for seen in self._camera([ev]):
            self.events.append(seen)
            self._play(seen, now)

    def _play(self, ev: Event, now: float) -> None:
        if isinstance(ev, HandStarted):
            self.hand_id = ev.hand_id or self.hand_id
        if isinstance(ev, DoraRevealed):
            self.dora.append(ev.indicator)
        if self.broken:
            return
        before = len(self.machine.state.violations)
        try:
            self.machine.submit(ev)
        except Exception as exc:  # a log the engine cannot play: the view stops following, the page says so
            log.exception("public view of %s stopped at %s", self.hand_id, ev.TYPE)
            self.broken = f"{ev.TYPE}: {exc}"
            return
        for v in self.machine.state.violations[before:]:
            self._violation(public_violation(v))
        st = self.machine.state
        win = st.window  # the tile on offer (HandState.window), timed here from when the page saw it open
        key = (win.seat, str(win.tile), win.opened_at) if win is not None else None
        if key != self._window:
            self._window, self.claim_opened = key, (now if key is not None else None)
        self.last = _last(ev)

    def _notice(self, notice: JSONObject | None, ev: Event) -> None:
        if notice is None:
            return
        notice = {k: v for k, v in notice.items() if k in NOTICE_FIELDS}  # a renderer adds nothing else
        notice["t"] = ev.t_mono
        self.notices.append(notice)
        self.notices.sort(key=_when)  # answers arrive from another stream than the questions

    def _answer(self, ev: QuestionAnswered) -> JSONObject:
        kind = self.questions.get(ev.question_id)
        if kind in PUBLIC_ANSWERS:
            return {"kind": "answer", "text": f"answered ({ev.by}): {ev.answer}",
                    "text_ru": f"ответ на вопрос ({ev.by}): {ev.answer}"}
        return {"kind": "answer", "text": f"answered ({ev.by})", "text_ru": f"ответ на вопрос ({ev.by})"}

    def _violation(self, v: JSONObject) -> None:
        if v not in self.violations[-8:]:  # the same finding from the log and from the machine: once
            self.violations.append(v)

    # --- output -------------------------------------------------------------------------------------------
    def scene(self) -> Scene | None:
        """The physical table the events so far leave (cached until the next event)."""
        from vision.scene_game import scenes_from_events

        if self._scene_at != len(self.events) and self.events:
            events = self.events
            seats = self.machine.state.seats
            if events and isinstance(events[0], HandStarted) and max(seats, default=0) >= len(seats):
                # seats across the table (Red for two: 0 and 2): the scene has a place for every side
                events = [dataclasses.replace(events[0], n_players=max(seats) + 1), *events[1:]]
            try:
                # no pond limit: the page shows every discard (the renderer's 30 is a drawing limit)
                self._scene = scenes_from_events(self.profile, events, max_pond=None)[-1]
                self.scene_error = ""
            except (ValueError, IndexError, KeyError) as exc:  # an impossible table (a broken log)
                self.scene_error = f"table: {exc}"
            self._scene_at = len(self.events)
        return self._scene

    def view(self, now: float = 0.0) -> JSONObject:
        st = self.machine.state
        n = st.n_players
        scene = self.scene()
        seats: list[JSONObject] = []
        for s in st.seats:
            ss = st.seat_state.get(s)
            sv = scene.seats[s] if scene is not None and s < len(scene.seats) else None
            seats.append({
                "seat": s,
                "wind": WINDS[(st.seats.index(s) - st.seats.index(st.dealer)) % n] if st.dealer in st.seats else "",
                "dealer": s == st.dealer,
                "pond": [{"tile": p.tile, "sideways": p.sideways} for p in sv.pond] if sv else [],
                "melds": [{"kind": m.kind, "tiles": list(m.tiles), "sideways": m.sideways, "source": m.source,
                           "added": m.added} for m in sv.melds] if sv else [],
                "flowers": list(sv.flowers) if sv else [],
                "standing": sv.standing if sv else 0,
                "revealed": list(sv.revealed) if sv else [],
                "riichi": bool(ss and ss.riichi),
                "card": sv.card if sv else None,
                "won": bool(ss and ss.won),
                "dead": bool(ss and ss.dead),
                "missing_suit": ss.missing_suit if ss and ss.revealed else None,
            })
        claim: JSONObject | None = None
        win = st.window
        if win is not None and self.claim_opened is not None:
            # the profile's claim time (None where the seed sets none: the window shows, without a countdown)
            length = win.deadline - win.opened_at if win.deadline is not None else None
            left = max(0.0, length - (now - self.claim_opened)) if length is not None else None
            claim = {"seat": win.seat, "tile": str(win.tile), "window_s": length,
                     "remaining_s": round(left, 2) if left is not None else None}
        return {
            "hand_id": self.hand_id,
            "profile": self.profile,
            "n_players": n,
            "dealer": st.dealer,
            "round_wind": st.round_wind,
            "hand_number": st.hand_number,
            "phase": str(st.phase),
            "turn": st.current if st.phase not in ("setup", "ended", "settled", "over") else None,
            "wall": st.wall_remaining if st.wall is not None else None,
            "dice": [list(d) for d in st.dice],
            "dora": list(self.dora),
            "seats": seats,
            "claim": claim,
            "wins": [_win(w) for w in st.wins],
            "exhaustive": st.exhaustive,
            "settlement": _settlement(st.settled),
            "next_dealer": st.next_dealer,
            "violations": list(self.violations),
            "notices": list(self.notices),
            "last": self.last,
            "events": len(self.events),
            "broken": self.broken or self.scene_error,
        }


def _when(notice: JSONObject) -> float:
    t = notice["t"]
    return t if isinstance(t, float | int) else 0.0


def _last(ev: Event) -> JSONObject:
    out: JSONObject = {"type": ev.TYPE}
    for k in ("seat", "tile", "kind", "from_seat"):
        v = getattr(ev, k, None)
        if v is not None and v != "x":
            out[k] = v
    return out


def _win(w: WinRecord) -> JSONObject:
    out: JSONObject = {"seat": w.seat, "tile": str(w.tile), "from_seat": w.from_seat, "valid": w.valid,
                           "robbing_kong": w.robbing_kong, "kong_replacement": w.kong_replacement,
                           "last_tile": w.last_tile}
    res = w.result.to_json() if w.result is not None else None
    if res:
        for k in WIN_FIELDS:
            if k in res:
                out[k] = res[k]
        fans = res.get("fans", [])
        out["fans"] = [{k: f[k] for k in FAN_FIELDS if k in f} for f in (fans if isinstance(fans, Sequence) else ())
                       if isinstance(f, dict)]
    if out["tile"] == "x":
        out["tile"] = None
    return out


def _settlement(settled: Settled | None) -> JSONObject | None:
    if settled is None:
        return None
    return {"payments": [{k: p.get(k) for k in ("payer", "payee", "amount", "reason", "rule")}
                         for p in settled.payments],
            "deltas": list(settled.deltas)}
