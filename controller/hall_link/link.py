"""The table's link to the hall: publishes the outbox over MQTT until the hall acknowledges, takes the hall's
commands (session start, warning, session end, seating, messages), records and acknowledges them.

Threads: paho's network thread (connects, reconnects by itself, calls :meth:`_on_message`), and one pump
thread that feeds the outbox from the store, sends what is due and publishes the table's status. Nothing
here runs on the service's asyncio loop: the table never waits for the network.
"""
from __future__ import annotations

import copy
import logging
import shutil
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from controller.hall_link.outbox import Outbox
from controller.hall_link.seat_check import KIND as SEAT_CHECK
from controller.hall_link.seat_check import SeatState
from controller.hall_link.session_rules import HallSession, SessionRules, SessionState, played
from hall.messages import (
    Ack,
    Command,
    CommandAck,
    HandContext,
    MessageError,
    SeatCheckBody,
    TableStatus,
    dumps,
)
from hall.mqtt import Credentials, make_client
from hall.topics import Topics, check_id

if TYPE_CHECKING:
    from controller.config import Config
    from hall.badges import SeatCheck

log = logging.getLogger("mahjong_table.hall_link")


@dataclass(frozen=True)
class LinkConfig:
    broker: str  # mqtt://host:port or mqtts://host:port
    hall: str = "hall"
    table: str = "table-1"
    creds: Credentials = Credentials()
    events: str = "results"  # "results": results and hand starts; "all": every event of every hand
    resend_s: float = 5.0  # an unacknowledged message is sent again after this long
    poll_s: float = 0.2  # how often the store is read for new results
    status_s: float = 5.0  # fleet-health status period

    @classmethod
    def from_config(cls, cfg: Config) -> LinkConfig:
        """From the table's ``[hall]`` section (controller.config)."""
        creds = Credentials(cfg.hall.username or cfg.table.id, cfg.hall.password, cfg.hall.cafile,
                            cfg.hall.certfile, cfg.hall.keyfile)
        return cls(broker=cfg.hall.address, hall=cfg.hall.id, table=cfg.table.id, creds=creds,
                   events=cfg.hall.events, resend_s=float(cfg.hall.resend_s))


class NextSeating(TypedDict, total=False):
    """Where the players of the hall's next session sit (``seating``)."""

    session: int | None
    players: list[str]


class HallNote(TypedDict):
    """A hall message the table shows (a warning, the session's end, the director's text)."""

    kind: str
    id: str
    en: str
    ru: str


def system_health(path: str | Path = ".") -> TableStatus:
    """CPU temperature and throttling (Raspberry Pi; absent elsewhere), free disk where the store lives — the
    machine's part of the table's status (None: not known here)."""
    out: TableStatus = {}
    try:
        out["cpu_temp_c"] = round(int(Path("/sys/class/thermal/thermal_zone0/temp").read_text()) / 1000, 1)
    except (OSError, ValueError):
        out["cpu_temp_c"] = None
    try:  # the firmware's get_throttled bits (non-zero: under-voltage or thermal throttling, now or since boot)
        out["throttled"] = int(Path("/sys/devices/platform/soc/soc:firmware/get_throttled").read_text(), 16) != 0
    except (OSError, ValueError):
        out["throttled"] = None
    try:
        out["disk_free_mb"] = shutil.disk_usage(Path(path).resolve().parent).free // 2**20
    except OSError:
        out["disk_free_mb"] = None
    return out


def software_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mahjong-table")
    except PackageNotFoundError:  # pragma: no cover - running from a plain checkout
        return "dev"


class HallLink:
    def __init__(self, cfg: LinkConfig, store_path: str | Path, *,
                 on_command: Callable[[Command], None] | None = None,
                 status: Callable[[], TableStatus] | None = None, durable: bool = True,
                 profile: str | None = None, seat_check: bool = False):
        check_id("table", cfg.table)
        self.cfg = cfg
        self.topics = Topics(cfg.hall)
        self.store_path = Path(store_path)
        self.outbox = Outbox(store_path, cfg.events, durable=durable)
        self.on_command = on_command
        self.status_source = status
        self.client, self.addr = make_client(cfg.table, cfg.broker, cfg.creds,
                                             will=(self.topics.up(cfg.table, "status"), dumps({"online": False})))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.connected = False
        self.error = ""  # the last refusal (bad credentials, not authorised) for the page
        self.connects = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._pump: threading.Thread | None = None
        self._state_lock = threading.Lock()
        self.session: HallSession = {}  # the hall's current session: number, clock, seating, ended
        self.next_seating: NextSeating = {}
        self.messages: list[HallNote] = []  # what the table shows: warnings, hall messages
        self._last_status = 0.0
        # the seeds' session rules at this table (session_rules.py); no profile: only the hall's clock ends it
        self.rules: SessionRules | None = None
        if profile is not None:
            from rules.profiles import registry

            self.rules = SessionRules(registry.get(profile))
        self._played: dict[str, Mapping[str, object]] = {}  # the current session's hands played: hand -> result
        self._hand_ctx: dict[str, HandContext] = {}  # the context each hand started with (its chairs)
        self._in_play = ""
        # the seat check (seat_check.py): before a session's first hand, while on; what it found is in the outbox
        self.seat_check_on = seat_check
        self.seats = SeatState()
        for c in self.outbox.commands():  # a restarted table knows its session from the recorded commands
            self._apply(Command(c["id"], c["kind"], c["body"]), replay=True, received=c["received"])
        self._refresh()  # the hands this session already played (a restarted table goes on counting)
        if self.session.get("session") is not None:  # a restarted table knows its session's seat check
            last = self.outbox.last(self._seat_key(self.session["session"]))
            if last is not None:  # a seat check's body as this table wrote it (SeatState.to_dict)
                known = {k: v for k, v in last.items() if k in SeatState.__dataclass_fields__}
                self.seats = SeatState.from_body(cast(SeatCheckBody, known))

    # --- life ---------------------------------------------------------------------------------------------
    def start(self) -> HallLink:
        self.client.connect_async(self.addr.host, self.addr.port, keepalive=15)
        self.client.loop_start()
        self._pump = threading.Thread(target=self._run, name=f"hall-link-{self.cfg.table}", daemon=True)
        self._pump.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._pump is not None:
            self._pump.join(timeout=5)
        try:
            if self.connected:
                self.client.publish(self.topics.up(self.cfg.table, "status"), dumps({"online": False}), qos=1,
                                    retain=True).wait_for_publish(timeout=1)
        except (RuntimeError, ValueError):  # pragma: no cover - disconnected meanwhile
            pass
        self.client.disconnect()
        self.client.loop_stop()
        self.outbox.close()

    def notify(self) -> None:
        """Something was recorded: look at the store now rather than at the next poll."""
        self._wake.set()

    # --- MQTT callbacks (paho's thread) -----------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags, reason: ReasonCode,
                    properties: Properties | None) -> None:
        if reason.is_failure:
            self.error = f"the broker refused the table: {reason}"
            log.warning("hall link: %s", self.error)
            return
        self.connected, self.error = True, ""
        self.connects += 1
        client.subscribe(self.topics.table(self.cfg.table, "down", "#"), qos=1)
        self.outbox.unsend()  # everything not acknowledged goes again
        self._last_status = 0.0
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: mqtt.DisconnectFlags,
                       reason: ReasonCode, properties: Properties | None) -> None:
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        parsed = self.topics.parse(msg.topic)
        if parsed is None or parsed[0] != self.cfg.table or parsed[1] != "down":
            return
        try:
            if parsed[2] == "ack":
                self.outbox.ack(Ack.decode(msg.payload).keys)
            elif parsed[2] == "cmd":
                cmd = Command.decode(msg.payload)
                if self.outbox.record_command(cmd.id, cmd.kind, cmd.body):
                    self._apply(cmd)
                    if self.on_command is not None:
                        self.on_command(cmd)
                # acknowledged after it is recorded (again on a redelivery: the first ack may have been lost)
                client.publish(self.topics.up(self.cfg.table, "cmd_ack"),
                               CommandAck(cmd.id, cmd.kind, time.time()).encode(), qos=1)
        except MessageError as exc:
            log.warning("hall link: ignored a bad message on %s: %s", msg.topic, exc)

    # --- hall commands ----------------------------------------------------------------------------------
    def _apply(self, cmd: Command, replay: bool = False, received: float | None = None) -> None:
        b = cmd.body
        with self._state_lock:
            if cmd.kind == "session_start":
                self.session = {"session": b.get("session"), "players": list(b.get("players") or []),
                                "received": time.time() if received is None else received,
                                "starts_at": b.get("starts_at"), "ends_at": b.get("ends_at"),
                                "warning_at": b.get("warning_at"), "warned": False, "ended": False}
                self.messages = []
                self.next_seating = {}
                self._played = {}
                self.seats = SeatState(session=b.get("session"), expected=list(b.get("players") or []))
            elif cmd.kind == "warning":
                self.session["warned"] = True
            elif cmd.kind == "session_end":
                self.session["ended"] = True
            elif cmd.kind == "seating":
                players = list(b.get("players") or [])
                if b.get("now") and self.session and b.get("session") == self.session.get("session"):
                    # a substitute takes a seat in the running session (004 Rules 5.8): the hands started from
                    # now on name him; the hall credits the seat's points to whoever holds it
                    self.session["players"] = players
                    if self.seats.session == b.get("session") and self.seats.status == "mismatch" and not replay:
                        self._reseated(players)
                else:
                    self.next_seating = {"session": b.get("session"), "players": players}
            en, ru = b.get("text_en") or b.get("text") or "", b.get("text_ru") or b.get("text") or ""
            if en or ru:
                self.messages = (self.messages + [{"kind": cmd.kind, "id": cmd.id, "en": en, "ru": ru}])[-10:]

    # --- the seat check (seat_check.py) ------------------------------------------------------------------
    @staticmethod
    def _seat_key(session: int | None) -> str:
        return f"seatcheck-s{session}"

    def seat_check_due(self) -> bool:
        """The badges are to be read now: the check is on, the next hand is the session's first and no check
        let it start yet (a mismatch is read again at each start: the players may have moved)."""
        with self._state_lock:
            current = self.session.get("session")
        return self.seat_check_on and self.first_hand() and (self.seats.session != current or self.seats.blocks)

    def _publish_seats(self) -> None:
        self.outbox.put(self._seat_key(self.seats.session), SEAT_CHECK, self.seats.to_dict(), self.seats.t_wall)
        self._wake.set()

    def record_seats(self, result: SeatCheck | None, calibrated: bool = False,
                     unreadable: str = "") -> SeatState:
        """What the camera read (a :class:`hall.badges.SeatCheck`, or None with why it could not read):
        kept, shown, and sent to the hall."""
        with self._state_lock:
            s = SeatState(session=self.session.get("session"), expected=list(self.session.get("players") or []),
                          calibrated=calibrated, t_wall=time.time())
            if result is None:
                s.status, s.reason = "unreadable", unreadable
            else:
                s.found = list(result.found)
                s.status = "ok" if result.ok else "mismatch"
                s.problems_en, s.problems_ru = result.problems(), result.problems_ru()
            self.seats = s
        self._publish_seats()
        log.info("seat check, session %s: %s %s", s.session, s.status, "; ".join(s.problems_en))
        return s

    def _reseated(self, players: list[str]) -> None:
        """The hall's corrected seating (``seating`` now): the badges already read against it."""
        from hall.badges import SeatCheck

        found = tuple(self.seats.found)
        if len(found) != len(players):
            return
        c = SeatCheck(tuple(players), found)
        self.seats = SeatState(session=self.seats.session, status="ok" if c.ok else "mismatch", expected=players,
                               found=list(found), problems_en=c.problems(), problems_ru=c.problems_ru(),
                               calibrated=self.seats.calibrated, reason="the hall's corrected seating",
                               t_wall=time.time())
        self._publish_seats()

    def override_seats(self, judge: str, reason: str) -> SeatState:
        """The judge lets the session start as the players sit (recorded in the outbox for the hall; the
        console records it in the judge stream too)."""
        with self._state_lock:
            if not self.seats.blocks or self.seats.session != self.session.get("session"):
                raise ValueError("no seat check holds the session's first hand")
            s = replace(copy.deepcopy(self.seats), status="overridden", judge=judge, reason=reason,
                        t_wall=time.time())
            self.seats = s
        self._publish_seats()
        return s

    def context(self) -> HandContext:
        """What each hand's result carries: the hall session and the players by seat."""
        with self._state_lock:
            if not self.session:
                return {}
            return {"session": self.session.get("session"), "players": list(self.session.get("players") or [])}

    def context_for(self, hand: str) -> HandContext:
        """The context hand ``hand`` started with: the session, its players as seated, and ``seats`` — the
        players by chair for this hand (MCR: they change chairs each round, 003 line 2168)."""
        with self._state_lock:
            if hand in self._hand_ctx:
                return self._hand_ctx[hand].copy()
            return self._context_now(exclude=hand)

    def _context_now(self, exclude: str = "") -> HandContext:
        if not self.session:
            return {}
        players = list(self.session.get("players") or [])
        ctx: HandContext = {"session": self.session.get("session"), "players": players}
        if self.rules is not None and players:
            ctx["seats"] = self.rules.chairs(players, played([r for h, r in self._played.items() if h != exclude]))
        return ctx

    def session_began(self) -> float:
        """When this table received the hall's current session (0: none) — the judge's ladders count from it."""
        with self._state_lock:
            return float(self.session.get("received") or 0.0) if self.session else 0.0

    def session_hands(self) -> list[str]:
        """The hands played in the current session, in order."""
        with self._state_lock:
            return list(self._played)

    def first_hand(self) -> bool:
        """The next hand is the first of the hall's session at this table (a new game starts)."""
        with self._state_lock:
            return self.session.get("session") is not None and not self._played and not self._in_play

    def hand_started(self, hand: str) -> None:
        """The table started ``hand`` (the service's loop: memory only): its context is fixed now."""
        with self._state_lock:
            self._hand_ctx[hand] = self._context_now(exclude=hand)
            self._in_play = hand

    def hand_finished(self, hand: str, result: Mapping[str, object]) -> None:
        """The table recorded ``hand``'s result (memory only; the pump reads the store's record too)."""
        with self._state_lock:
            ctx = self._hand_ctx.get(hand) or self._context_now(exclude=hand)  # (a hand resumed after a restart)
            if self._in_play == hand:
                self._in_play = ""
            if result.get("status", "played") == "played" and self.session \
                    and ctx.get("session") == self.session.get("session"):
                self._played[hand] = result

    def _refresh(self) -> None:
        """The hands of the current session from the store (after a restart the memory is empty)."""
        with self._state_lock:
            session = self.session.get("session") if self.session else None
        if session is None:
            return
        found = self.outbox.session_results(session)
        with self._state_lock:
            if self.session.get("session") == session:
                for hand, r in found:
                    self._played.setdefault(hand, r)

    def session_state(self) -> SessionState:
        """The session at this table now: may a hand start, is it the last, the red zone (session_rules.py)."""
        with self._state_lock:
            s = self.session.copy()
            played = list(self._played.values())
            in_play = bool(self._in_play)
        if self.rules is None:
            if not s:
                return SessionState(None, True, "", False, False, None, len(played), "", "")
            rules = SessionRules(_NoLimits())
        else:
            rules = self.rules
        state = rules.decide(s, played, time.time(), in_play=in_play)
        if state.may_start and self.seat_check_on and s.get("session") is not None and not played and not in_play \
                and self.seats.blocks:  # the seat check holds the session's first hand
            en, ru = self.seats.text()
            state = replace(state, may_start=False, reason="seat_check", text_en=en, text_ru=ru)
        return state

    def may_start_hand(self) -> bool:
        """False once the session is over at this table: the hall's gong or clock, the profile's last hand,
        its red zone (the hand in play is finished, no new one starts; session_rules.py)."""
        return self.session_state().may_start

    def view(self) -> dict[str, object]:
        """For the table's state (``Snapshot.hall``) and its web page."""
        counts = self.outbox.counts()
        with self._state_lock:
            now = time.time()
            s = self.session.copy()
            ends_at = s.get("ends_at")
            left = (ends_at - now) if ends_at else None
            view: dict[str, object] = {
                "connected": self.connected, "broker": self.addr.url, "hall": self.cfg.hall, "error": self.error,
                "session": s.get("session"), "players": s.get("players", []),
                "clock": {"ends_at": s.get("ends_at"), "warning_at": s.get("warning_at"),
                          "seconds_left": None if left is None else max(0.0, round(left, 1)),
                          "warned": s.get("warned", False), "ended": s.get("ended", False)},
                "next_seating": self.next_seating.copy(), "messages": list(self.messages),
                "outbox": counts, "rules": None,
                "seat_check": self.seats.to_dict() if self.seat_check_on else None}
        view["rules"] = self.session_state().to_dict()
        return view

    # --- the pump ---------------------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.cfg.poll_s)
            self._wake.clear()
            try:
                self.pump()
            except Exception:  # the link must outlive a bad row or a locked store
                log.exception("hall link pump")

    def pump(self) -> int:
        """Feed the outbox, send what is due, publish the status when due; returns messages sent."""
        self.outbox.feed(self.context_for)
        self._refresh()
        if not self.connected:
            return 0
        sent = 0
        while True:
            due = self.outbox.due(self.cfg.resend_s)
            for m in due:
                self.client.publish(self.topics.up(self.cfg.table, "outbox"), m.encode(), qos=1)
            sent += len(due)
            if len(due) < 500:
                break
        now = time.monotonic()
        if now - self._last_status >= self.cfg.status_s:
            self._last_status = now
            self.client.publish(self.topics.up(self.cfg.table, "status"), dumps(self.status()), qos=1, retain=True)
        return sent

    def status(self) -> TableStatus:
        st: TableStatus = {"online": True, "version": software_version(), "t_wall": time.time(),
                           "outbox_pending": self.outbox.counts()["pending"], "session": self.context().get("session")}
        st.update(system_health(self.store_path))
        if self.status_source is not None:
            st.update(self.status_source())
        return st


class _NoLimits:
    """No profile known: no game limit, no red zone — the hall's clock and gong only."""

    red_zone_min = 0

    def seating(self, hands_played: int, players: int) -> None:
        return None

    def game_over(self, hands_played: int, dealer_changes: int, players: int) -> bool:
        return False

    def session_may_start_hand(self, minutes_left: float) -> bool:
        return minutes_left > 0
