"""The live table: the public state (and the judge's) kept current from the event store and the service,
pushed to every connected page when it changes.

The store tells :class:`LiveTable` of each new event (``EventStore.listeners``, from whatever thread
appended it); the service's own state (cycle, prompt, shuffle progress) is looked at every
:data:`TICK_S`. A change wakes the publisher, which builds the state at most every :data:`MIN_GAP_S`
and hands it to each client's sender: a slow client gets the latest state when it is ready again,
never a queue of old ones, and never holds up the others or the table's loop.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict

from controller.tasks import cancel_and_wait
from controller.web import judge as judge_mod
from controller.web import refereeing
from controller.web.public import PublicHand
from controller.web.served import ServedTable
from rules.events import Event, JSONObject, PenaltyAwarded, QuestionAnswered, Violation
from rules.game.penalty_catalogue import receipts, taken

log = logging.getLogger("mahjong_table.web")

TICK_S = 0.25
MIN_GAP_S = 0.2  # at most 5 states a second: a state of a long hand costs ~10 ms (make bench)
SEND_TIMEOUT_S = 10.0
HISTORY = 12
RESULT_FIELDS = ("hand_id", "status", "dealer", "winners", "deltas", "exhaustive", "reason", "next_dealer")


class Client:
    """One page's connection: ``send`` delivers a text message; ``judge`` says (at each message) whether it
    still gets the judge's part (None: a public page)."""

    def __init__(self, send: Callable[[str], Awaitable[object]], judge: Callable[[], bool] | None = None):
        self.send = send
        self._judge = judge
        self.pending: str | None = None
        self.ready = asyncio.Event()
        self.closed = False

    @property
    def judge(self) -> bool:
        return self._judge is not None and self._judge()


class LiveTable:
    def __init__(self, svc: ServedTable, extras: Callable[[], Mapping[str, object]] | None = None):
        self.svc = svc
        self.hand: PublicHand | None = None
        self.previous: JSONObject | None = None  # the last settled hand's view (its result stays shown)
        self._fed = 0  # next seq of the hand's game stream the view expects
        self._rev = 0  # the revision of the hand's record the view follows
        self.clients: set[Client] = set()
        self._changed: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._svc_key: object = None
        self._last_public = ""
        self.extras = extras  # more public fields (the camera view's frame number)
        self.messages = 0  # messages handed to clients (tests, the bench)
        self._closing = False

    # --- lifecycle ----------------------------------------------------------------------------------------
    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self.svc.store.listeners.append(self._on_event)
        self._task = asyncio.create_task(self._publish())

    async def close(self) -> None:
        self._closing = True
        if self._changed is not None:
            self._changed.set()
        if self._on_event in self.svc.store.listeners:
            self.svc.store.listeners.remove(self._on_event)
        await cancel_and_wait(self._task)
        for c in list(self.clients):
            c.closed = True
            c.ready.set()

    def changed(self) -> None:
        if self._changed is not None:
            self._changed.set()

    def _on_event(self, stream: str, seq: int, ev: Event) -> None:  # any thread
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            if _on_loop_thread(loop):
                self._take(stream, seq, ev)
            else:
                loop.call_soon_threadsafe(self._take, stream, seq, ev)
        except RuntimeError:  # the loop is closing
            pass

    def _take(self, stream: str, seq: int, ev: Event) -> None:
        hand = self.hand
        if hand is not None and isinstance(ev, QuestionAnswered) and stream == f"{hand.hand_id}/referee":
            hand.feed(ev, time.monotonic())  # an answer to the referee's question (its inputs' stream)
        rev = revision_of(stream, hand.hand_id) if hand is not None else None
        if hand is not None and rev is not None:
            if rev > self._rev:  # a judge's correction: the hand's record from its new revision on
                self.hand = None
            elif rev == self._rev and seq == self._fed:
                hand.feed(ev, time.monotonic())
                self._fed += 1
            elif rev == self._rev and seq > self._fed:  # missed some (should not happen): read the stream again
                self.hand = None
        self.changed()

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats played at this table (Red for two: 0 and 2)."""
        from rules.profiles import registry

        try:
            return tuple(registry.get(self.svc.profile).wall_spec(self.svc.players).seats)
        except Exception:  # a profile without a wall of this size: the first seats
            return tuple(range(self.svc.players))

    # --- the hand -----------------------------------------------------------------------------------------
    def current_hand(self) -> PublicHand | None:
        """The public view of the service's current hand (read from the store when it changes)."""
        hid = self.svc.hand_id
        if not hid:
            return None
        if self.hand is None or self.hand.hand_id != hid:
            if self.hand is not None and self.hand.hand_id != hid:  # the result stays up until the next one
                done = self.hand.view()
                if done["settlement"] is not None or done["exhaustive"]:
                    self.previous = done
            hand = PublicHand(self.svc.profile, hid)
            rev = 0  # the latest revision of the record (the referee writes each correction's anew)
            while self.svc.store.count(record_stream(hid, rev + 1)):
                rev += 1
            evs = self.svc.store.events(record_stream(hid, rev))
            now = time.monotonic()
            for ev in evs:
                hand.feed(ev, now)
            for ev in self.svc.store.events(f"{hid}/referee"):
                if isinstance(ev, QuestionAnswered):
                    hand.feed(ev, now)
            self.hand, self._fed, self._rev = hand, len(evs), rev
        return self.hand

    # --- the states ---------------------------------------------------------------------------------------
    def scores(self, results: Sequence[tuple[str, Mapping[str, object]]], pens: list[PenaltyAwarded]) -> dict[str, object]:
        seats = self.seats
        total = [0] * 4
        won = [0] * 4
        pen = [0] * 4
        for _, r in results:
            for s, d in enumerate(_listed(r.get("deltas"))):
                if s < 4:
                    total[s] += _whole(d)
            for w in _listed(r.get("winners")):
                if 0 <= _whole(w) < 4:
                    won[_whole(w)] += 1
        for p in pens:
            # the console numbers the players by chair (0..n-1): chair i sits at seats[i] (a table of two: seats
            # 0 and 2); what each chair receives and what the offender pays, as the hall counts it (hall/standings.py)
            if 0 <= p.seat < len(seats):
                got = receipts(p.seat, p.points, p.paid, p.to_others, len(seats))
                total[seats[p.seat]] -= taken(p.points, got)
                pen[seats[p.seat]] += taken(p.points, got)
                for chair, amount in enumerate(got):
                    if chair < len(seats):
                        total[seats[chair]] += amount
        order = sorted(seats, key=lambda s: (-total[s], s))
        standings = [{"rank": i + 1, "seat": s, "total": total[s], "wins": won[s], "penalties": pen[s]}
                     for i, s in enumerate(order)]
        return {"totals": [total[s] if s in seats else None for s in range(4)], "standings": standings,
                "hands": sum(1 for _, r in results if r.get("status") == "played")}

    def public_state(self, now: float | None = None) -> dict[str, object]:
        svc = self.svc
        now = time.monotonic() if now is None else now
        snap = svc.snapshot()
        results = svc.store.results()
        pens = judge_mod.penalties(svc)
        hand = self.current_hand()
        chk = snap.table_check
        out: dict[str, object] = {
            "table": {"id": snap.table, "profile": snap.profile, "players": svc.players,
                      "seats": list(self.seats),  # by chair (the console's numbers): where each sits
                      "language": svc.cfg["web.language"]},
            "service": {"state": snap.state, "hand_id": snap.hand_id, "dice": [list(d) for d in snap.dice],
                        "shuffle": snap.shuffle, "fault": snap.fault, "prompt": snap.prompt,
                        "hands_done": snap.hands_done, "camera_set": getattr(svc, "camera_set", None),
                        "table_check": {k: chk[k] for k in ("result", "differences", "hold") if k in chk}
                        if chk else None},
            # the hall session at this table: time left, last hand, red zone (controller/hall_link/session_rules.py)
            "session": (snap.hall or {}).get("rules"),
            "hand": hand.view(now) if hand is not None else None,
            "previous": self.previous,
            # each hand with its referee's record opens a replay (/replay/<hand>, issue #32)
            "history": [{**{k: r[k] for k in RESULT_FIELDS if k in r}, "replay": svc.store.count(f"{h}/referee") > 0}
                        for h, r in results[-HISTORY:]][::-1],
            "penalties": [{"seat": p.seat, "points": p.points, "rule": p.rule, "reason": p.reason,
                           "code": p.code, "to_others": p.to_others, "hand_id": p.hand_id} for p in pens[-HISTORY:]],
            **self.scores(results, pens),
        }
        if self.extras is not None:
            out.update(self.extras())
        return out

    def judge_state(self) -> dict[str, object]:
        svc = self.svc
        snap = svc.snapshot()
        hid = svc.hand_id
        learning = getattr(svc, "set_learning", None)  # (vision's: the tile set being learned)
        rev = self._rev if self.hand is not None and self.hand.hand_id == hid else 0  # the record's latest revision
        raw = [v for v in svc.store.events(record_stream(hid, rev)) if isinstance(v, Violation)] if hid else []
        return {
            "log": snap.log,
            "table_check": snap.table_check,
            "camera_set": getattr(svc, "camera_set", None),
            "set_learning": learning() if callable(learning) else None,
            "audit": judge_mod.audit(svc, 100),
            "violations": [{"seat": v.seat, "code": v.code, "rule": v.rule, "message": v.message} for v in raw],
            "actions": [{"name": a.name, "help": a.help, "fields": a.fields} for a in judge_mod.ACTIONS.values()
                        if a.available(svc)],
            "penalty_catalog": judge_mod.penalty_catalog(svc.profile),
            "buttons": {b: _button_enabled(svc, b) for b in judge_mod.BUTTONS},
            "referee": refereeing.judge_view(svc),
        }

    def snapshot_json(self) -> dict[str, object]:
        """``GET /api/state``: the service snapshot, as the page has always served it."""
        return asdict(self.svc.snapshot())

    # --- publishing ---------------------------------------------------------------------------------------
    def _service_key(self) -> tuple[object, ...]:
        s = self.svc
        snap = s.snapshot()
        rules = (snap.hall or {}).get("rules") or {}
        if not isinstance(rules, Mapping):
            raise TypeError(f"the hall's session rules are {rules!r}")
        left = rules.get("seconds_left")
        return (snap.state, snap.prompt, snap.fault, snap.hand_id, snap.dice, json.dumps(snap.shuffle),
                snap.hands_done, json.dumps(snap.table_check, sort_keys=True, default=str), snap.log[-1:],
                rules.get("reason"), rules.get("last_hand"), rules.get("red_zone"),
                None if left is None else int(_real(left) // 60))  # the session's clock: once a minute

    async def _publish(self) -> None:
        assert self._changed is not None
        while not self._closing:
            try:  # (asyncio.timeout, not wait_for: on 3.11 wait_for can swallow the cancellation of close(),
                # and the page's publisher then kept the service from exiting)
                async with asyncio.timeout(TICK_S):
                    await self._changed.wait()
            except TimeoutError:
                key = self._service_key()
                if key == self._svc_key and not self._claim_open():
                    continue
            self._changed.clear()
            try:
                self.broadcast()
            except Exception:  # a bug in a view must not stop the page: logged, tried again on the next change
                log.exception("building the page's state failed")
            await asyncio.sleep(MIN_GAP_S)

    def _claim_open(self) -> bool:
        return self.hand is not None and self.hand.claim_opened is not None

    def broadcast(self) -> None:
        if not self.clients:
            self._svc_key = self._service_key()
            return
        self._svc_key = self._service_key()
        public = self.public_state()
        text = json.dumps({"type": "state", "public": public}, separators=(",", ":"))
        judge_text = None
        for c in list(self.clients):
            if c.judge:
                if judge_text is None:
                    judge_text = json.dumps({"type": "state", "public": public, "judge": self.judge_state()},
                                            separators=(",", ":"), default=str)
                self.offer(c, judge_text)
            else:
                self.offer(c, text)
        self._last_public = text

    def offer(self, c: Client, text: str) -> None:
        c.pending = text
        c.ready.set()

    def first_message(self, c: Client) -> None:
        if c.judge:
            msg = {"type": "state", "public": self.public_state(), "judge": self.judge_state()}
        else:
            msg = {"type": "state", "public": self.public_state()}
        self.offer(c, json.dumps(msg, separators=(",", ":"), default=str))

    async def serve(self, c: Client) -> None:
        """Send ``c`` the latest message whenever there is one, until it closes (run as the client's task)."""
        self.clients.add(c)
        try:
            self.first_message(c)
            while not c.closed:
                await c.ready.wait()
                c.ready.clear()
                text, c.pending = c.pending, None
                if text is None or c.closed:
                    continue
                await asyncio.wait_for(c.send(text), SEND_TIMEOUT_S)
                self.messages += 1
        finally:
            self.clients.discard(c)


def record_stream(hand_id: str, revision: int) -> str:
    """The store stream of a hand's record: ``<hand>/game``, and ``<hand>/game.r<N>`` after the N-th judge
    correction (the store never rewrites: the referee writes each corrected record as a new stream)."""
    return f"{hand_id}/game" if revision == 0 else f"{hand_id}/game.r{revision}"


def revision_of(stream: str, hand_id: str) -> int | None:
    """Which revision of ``hand_id``'s record ``stream`` holds (None: another stream)."""
    base = f"{hand_id}/game"
    if stream == base:
        return 0
    tail = stream[len(base) + 2:] if stream.startswith(base + ".r") else ""
    return int(tail) if tail.isdigit() else None


def _listed(v: object) -> Sequence[object]:
    """A list of a stored result (as JSON has it: absent, None or empty is none)."""
    if not v:
        return ()
    if not isinstance(v, Sequence):
        raise TypeError(f"{v!r} is not a list")
    return v


def _real(v: object) -> float:
    """A number as JSON has it (a whole number or not)."""
    if isinstance(v, int | float):
        return v
    raise TypeError(f"{v!r} is not a number")


def _whole(v: object) -> int:
    """A number of a stored result, as a whole number."""
    if isinstance(v, int | float | str):
        return int(v)
    raise TypeError(f"{v!r} is not a number")


def _button_enabled(svc: ServedTable, button: str) -> bool:
    from controller.table_machine import S

    st = svc.machine.state
    if button == "start":
        return st in (S.IDLE, S.FAULT, S.PAUSED, S.DEALING, S.SCORING)
    if button == "judge":
        return st is not S.FAULT
    if button == "abort":
        return st is S.FAULT
    chk = svc.table_check
    return st is S.PAUSED and bool(chk and chk.get("hold") and chk.get("result") == "mismatch")


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether this thread runs ``loop`` (then the event is taken at once)."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False

