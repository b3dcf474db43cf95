"""A simulated table for ``hall simulate`` and the hall benchmark: no camera, no motors — bots play the hands
(``rules.simulate``), and everything else is a real table's: its own event store, its outbox, its
:class:`~controller.hall_link.link.HallLink` taking the hall's commands and publishing the results.

A table plays one game per hall session (the profile's ``game_over``, or until the hall ends the session),
with the players the hall's ``session_start`` command seated. Each hand's events are appended to the store
one by one (``event_delay`` apart: 0 for "as fast as possible", 0.2 s for 10x a real table's pace).
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from controller.event_store import EventStore
from controller.hall_link.link import HallLink, LinkConfig
from controller.hall_link.seat_check import SeatState
from hall.messages import Command, HandResult
from rules import driver
from rules.events import Event, HandStarted, JSONValue, PenaltyAwarded, as_int

_BOTS = threading.Lock()  # the bots' lazily built tables (rules.bots) are filled by one thread at a time
REAL_EVENT_S = 2.0  # seconds between recorded events at a real table (a draw and a discard take ~4 s)


def _start(hr: driver.HandResult) -> HandStarted:
    """The hand's ``hand_started`` (its record's first event)."""
    start = hr.events[0]
    if not isinstance(start, HandStarted):
        raise TypeError(f"the hand's record starts with {start.TYPE}, not hand_started")
    return start


@dataclass
class PlayedHand:
    hand_id: str
    session: int
    deltas: tuple[int, ...]
    seats: tuple[str, ...]
    finished: float


class SimTable:
    def __init__(self, table_id: str, profile: str, folder: str | Path, link: LinkConfig, seed: int, *,
                 event_delay: float = 0.0, durable: bool = True, seat_check: bool = False):
        from rules.profiles import registry

        self.id = table_id
        self.profile_name = profile
        self.profile = registry.get(profile)
        self.folder = Path(folder)
        self.store_path = self.folder / f"{table_id}.sqlite"
        self.store = EventStore(self.store_path, durable=durable)
        self.store.db.execute("PRAGMA busy_timeout = 30000")  # a hundred tables share this machine's cores
        self.seed = seed
        self.event_delay = event_delay
        self.rng = random.Random(seed)
        self._session_started = threading.Event()
        # the seat check (seat_check.py): session -> (seat, seat) two players sat swapped, and how it is released
        # ("override": the judge at the console; "reread": they move and the badges are read again)
        self.misseat: dict[int, tuple[tuple[int, int], str]] = {}
        self.seat_log: list[str] = []
        # (session, hand index) -> the seat whose chombo has a hand dealt again before that hand (replayed_hand)
        self.chombo: dict[tuple[int, int], int] = {}
        self.link = HallLink(link, self.store_path, on_command=self._command, durable=durable, profile=profile,
                             seat_check=seat_check,
                             status=lambda: {"profile": profile, "state": "play" if self.playing else "idle",
                                             "hand_id": self.hand_id, "fault": "", "judge_called": False,
                                             "camera_fps": None})
        self.playing = False
        self.hand_id = ""
        self.played: list[PlayedHand] = []
        self.lock = threading.Lock()

    def start(self) -> SimTable:
        self.link.start()
        return self

    def stop(self) -> None:
        self.link.stop()
        self.store.close()

    def _command(self, cmd: Command) -> None:
        if cmd.kind == "session_start":
            self._session_started.set()

    def wait_session(self, session: int, timeout: float = 30.0) -> list[str]:
        """Wait for the hall's start of ``session``; the players by seat."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ctx = self.link.context()
            if ctx.get("session") == session:
                return list(ctx.get("players") or [])
            self._session_started.wait(0.05)
            self._session_started.clear()
        raise TimeoutError(f"{self.id}: the hall did not start session {session}")

    def play_session(self, session: int, max_hands: int | None = None, stop: threading.Event | None = None,
                     timeout: float = 30.0,
                     before_hand: Callable[[SimTable, int, int], None] | None = None) -> int:
        """Play one game with the seated players; returns the hands recorded. ``before_hand(self, session, i)``
        is called before the i-th hand (0-based): the regulations scenario's judge and director act there."""
        from rules.simulate import play_game

        players = self.wait_session(session, timeout)
        n_players = len(players)
        if self.link.seat_check_on:
            self.check_seats(session, players, timeout)
        with _BOTS:  # the game is computed at once (fast); recording it at the table's pace is what takes time
            game = play_game(self.profile, self.seed * 1000 + session, n_players=n_players, max_hands=max_hands)
        for i, hr in enumerate(game.hands):
            if stop is not None and stop.is_set() or not self.link.may_start_hand():
                break  # the hall ended the session: the hand in play was finished, no new one starts
            if before_hand is not None:
                before_hand(self, session, i)
            now = self.link.context()  # a substitute seated meanwhile plays the following hands (004 Rules 5.8)
            if now.get("session") == session and len(now.get("players") or ()) == n_players:
                players = list(now["players"])
            if (session, i) in self.chombo:
                self.replayed_hand(session, i, hr, players, self.chombo[(session, i)])
            self._record_hand(session, i, hr, players)
        return len(self.played)

    def check_seats(self, session: int, players: list[str], timeout: float = 30.0) -> None:
        """Before the first hand: the badges as the players sit, rendered into an overhead frame, read by the
        camera's path (calibrated on the table's markers) and compared with the hall's seating; a mismatch
        holds the first hand until the judge overrides or the players move and a re-read matches."""
        from controller.hall_link.seat_check import check_frame, render_badges
        from vision.calibration import calibrate

        sitting = dict(enumerate(players))
        swap, release = self.misseat.get(session, ((0, 0), ""))
        if release:
            a, b = swap
            sitting[a], sitting[b] = sitting[b], sitting[a]

        def read(at: dict[int, str]) -> SeatState:
            frame = render_badges(at, seed=self.seed + session)
            return self.link.record_seats(check_frame(frame, players, calibrate(frame)), calibrated=True)

        seats = read(sitting)
        if not seats.blocks:
            self.seat_log.append(f"{self.id} session {session}: as seated")
            return
        if self.link.may_start_hand():
            raise RuntimeError(f"{self.id}: the seat check found a mismatch but the first hand may start")
        found = "; ".join(seats.problems_en)
        if release == "override":
            self.link.override_seats("sim judge", "the players keep these seats for this session")
            how = "overridden by the judge"
        else:
            seats = read(dict(enumerate(players)))
            how = "the players moved; read again: " + seats.status
        if not self.link.may_start_hand():
            raise RuntimeError(f"{self.id}: the seat check still holds the first hand after it was released")
        self.seat_log.append(f"{self.id} session {session}: {found} -> {how}")

    def _record_hand(self, session: int, i: int, hr: driver.HandResult, players: list[str]) -> None:
        hand_id = f"{self.id}-s{session}-h{i + 1:03d}"
        self.playing, self.hand_id = True, hand_id
        st = hr.machine.state
        start = _start(hr)
        seats = tuple(players[int(p[1:])] for p in start.seats)  # "P<i>" = the i-th seated player
        self.store.start_hand(hand_id, self.profile_name, time.time())
        self.link.hand_started(hand_id)
        if not self.event_delay:  # as fast as possible: the hand's events in one durable transaction
            self.store.append_many(f"{hand_id}/game", 0, list(hr.events))
        for seq, ev in enumerate(hr.events if self.event_delay else ()):  # at a table's pace: one by one
            self.store.append(f"{hand_id}/game", seq, ev)
            time.sleep(self.event_delay * self.rng.uniform(0.5, 1.5))
        # every seat signed the result (000 line 269: it is final; a correction needs an upheld appeal)
        result: HandResult = {"hand_id": hand_id, "status": "played", "source": "bots", "dealer": st.dealer,
                  "deltas": list(hr.deltas), "winners": list(hr.winners), "exhaustive": hr.exhaustive,
                  "next_dealer": hr.next_dealer, "seats": list(seats), "events": len(hr.events),
                  "options_after": self.profile.next_hand_options(st), "confirmed_by": "seats"}
        self._finish(session, hand_id, result, seats)

    def _finish(self, session: int, hand_id: str, result: HandResult, seats: tuple[str, ...]) -> None:
        finished = time.time()
        self.store.finish_hand(hand_id, cast("Mapping[str, JSONValue]", result), finished)  # (a HandResult is JSON)
        self.link.hand_finished(hand_id, result)
        self.link.notify()
        with self.lock:
            self.played.append(PlayedHand(hand_id, session, tuple(result["deltas"]), seats, finished))
        self.playing = False

    def replayed_hand(self, session: int, i: int, hr: driver.HandResult, players: list[str],
                      seat: int) -> PenaltyAwarded:
        """The judge gives the rule set's penalty that has the hand dealt again (riichi's chombo, 004 line 278)
        to ``seat`` during a hand before the game's i-th: that hand ends at once and its result pays nothing
        (the penalty is the payment), the same dealer with the same counters deals the next (``hr``, the game's
        i-th hand, is that next one) — as the referee does (controller/referee/sanctions.py). Returns the
        penalty."""
        from rules.game.penalty_catalogue import charge

        kind = next(k for k in self.profile.penalty_catalogue if k.replay)
        start = _start(hr)
        hand_id = f"{self.id}-s{session}-h{i + 1:03d}r"
        seats = tuple(players[int(p[1:])] for p in start.seats)
        self.playing, self.hand_id = True, hand_id
        self.store.start_hand(hand_id, self.profile_name, time.time())
        self.link.hand_started(hand_id)
        c = charge(kind, seat, list(range(len(seats))), dealer=start.dealer)
        ev = PenaltyAwarded(seat=seat, points=c.points, rule=kind.rule, reason=kind.text, code=kind.code,
                            paid=c.paid, occurrence=c.occurrence, when=kind.when, replay=True, judge="sim judge",
                            hand_id=hand_id, t_wall=time.time())
        self._judge(ev)
        same = {k: as_int(start.options.get(k, 0)) for k in self.profile.next_hand_options(hr.machine.state)}
        self._finish(session, hand_id, {
            "hand_id": hand_id, "status": "played", "source": "bots", "dealer": start.dealer,
            "deltas": [0] * len(hr.deltas), "winners": [], "exhaustive": False, "next_dealer": start.dealer,
            "seats": list(seats), "events": 0, "options_after": same, "confirmed_by": "seats",
            "replayed": {"seat": seat, "code": kind.code, "rule": kind.rule, "judge": ev.judge}}, seats)
        return ev

    # --- the judge's console (what controller/web/judge.py records), for the regulations scenario ------------
    def _judge(self, ev: Event) -> None:
        stream = f"{self.id}/judge"
        self.store.append(stream, self.store.next_seq(stream), ev)
        self.link.notify()

    def award_penalty(self, seat: int, code: str, chosen: int | None = None, previous: int = 0) -> PenaltyAwarded:
        """A penalty from the profile's catalogue, charged as the console charges it (``previous`` offences)."""
        from rules.game.penalty_catalogue import charge

        kind = {k.code: k for k in self.profile.penalty_catalogue}[code]
        n = len(self.link.context().get("players") or ()) or 4
        c = charge(kind, seat, list(range(n)), chosen=chosen, previous=previous)
        ev = PenaltyAwarded(seat=seat, points=c.points, rule=kind.rule, reason=kind.text, code=kind.code,
                            paid=c.paid if any(c.paid) else (), occurrence=c.occurrence, when=kind.when,
                            dead_hand=kind.dead_hand, judge="sim judge", hand_id=self.hand_id, t_wall=time.time())
        self._judge(ev)
        return ev

    def sanction(self, seat: int, kind: str, reason: str, points: int = 0) -> None:
        from rules.events import JudgeAction

        self._judge(JudgeAction(action="sanction", detail={"kind": kind, "seat": seat, "reason": reason,
                                                           "points": points},
                                judge="sim judge", hand_id=self.hand_id, t_wall=time.time()))
