"""The Pi side of the link: reliable delivery, heartbeats, session start, reset detection, reconnection.

Threads: the transport's reader thread calls :meth:`Link._on_frame`; one worker thread handles
(re)connection, retransmission, heartbeats and the watchdog. Both take ``self._lock``; callbacks are called
with it held, so they must be quick and must not call back into the link (the asyncio bridge just hands
them to its loop with ``call_soon_threadsafe``).

Delivery (docs/protocol.md): one command in flight at a time (stop-and-wait), retransmitted with the same
seq after ``ack_timeout`` up to ``max_retries`` times; the MCU executes a seq once and answers a duplicate
with its cached ACK. An emergency stop jumps the queue. Every (re)connection or MCU reset starts a new
session (HELLO, then STATUS): repeatable commands in flight are re-sent, an at-most-once command that may
have reached the MCU fails with :class:`OutcomeUnknown` (one that provably did not - a single copy answered
NOT_SYNCED - is re-sent).
"""
from __future__ import annotations

import functools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from firmware_bridge import framing
from firmware_bridge.errors import DeliveryFailed, LinkClosed, NotConnected, OutcomeUnknown
from firmware_bridge.framing import Frame
from firmware_bridge.messages import (
    Ack,
    Delivery,
    EStop,
    Hello,
    HelloInfo,
    McuHeartbeat,
    Message,
    PiHeartbeat,
    Result,
    StatusRequest,
    TableStatus,
    parse,
)
from firmware_bridge.transport import SerialTransport

log = logging.getLogger("mahjong_table.link")
SLOW_ANSWER_S = 0.020  # docs/protocol.md: a firmware answers within 20 ms
_STATE_LEVEL = {"up": logging.INFO, "down": logging.WARNING, "mcu_reset": logging.WARNING}


@dataclass
class LinkConfig:
    baudrate: int = 115200
    ack_timeout: float = 0.05  # s before a retransmission (a 74-byte frame takes 6.4 ms at 115200)
    max_retries: int = 10  # retransmissions before DeliveryFailed
    heartbeat_interval: float = 0.2  # s between our heartbeats
    link_timeout: float = 1.0  # s without any frame from the MCU -> link "down"
    mcu_watchdog_ms: int = 1000  # told to the MCU in HELLO: it stops the motors after this silence
    reconnect_interval: float = 0.5


@dataclass(frozen=True)
class Reply:
    """What a command's future resolves to: the seq it was sent with and the MCU's answer."""

    seq: int
    result: int
    data: bytes = b""
    session: int = 0  # the link's session number when the answer came (stats.sessions)
    boot: int = 0  # the MCU's boot counter in that session


@dataclass
class _Pending:
    msg: Message
    future: Future[Reply] | None = None  # None for the link's own messages (handshake)
    on_ack: Callable[[Ack], None] | None = None
    seq: int = -1
    tries: int = 0
    sent_at: float = 0.0
    first_sent_at: float = 0.0


@dataclass
class LinkStats:
    tx_frames: int = 0
    rx_frames: int = 0
    retransmits: int = 0
    duplicate_events: int = 0
    bad_payloads: int = 0
    sessions: int = 0
    resets_seen: int = 0
    reconnects: int = 0
    urgent_sent_at: float = 0.0  # monotonic time the last urgent frame (ESTOP) was written


EventCallback = Callable[[Message, int, float], None]  # message, seq, t_mono
StateCallback = Callable[[str, str], None]
SyncedCallback = Callable[[HelloInfo, TableStatus, bool], list[Message]]
AckCallback = Callable[[Message, Ack], None]


class Link:
    """A reliable, self-healing message link to the MCU over one serial URL."""

    def __init__(self, url: str, config: LinkConfig | None = None, *, on_event: EventCallback | None = None,
                 on_state: StateCallback | None = None, on_synced: SyncedCallback | None = None,
                 on_ack: AckCallback | None = None) -> None:
        self.url = url
        self.config = config or LinkConfig()
        self.stats = LinkStats()
        self._on_event = on_event or (lambda m, s, t: None)
        user_state = on_state or (lambda s, d: None)

        def on_state_logged(state: str, detail: str) -> None:
            log.log(_STATE_LEVEL.get(state, logging.INFO), "link %s %s: %s", url, state, detail)
            user_state(state, detail)

        self._on_state = on_state_logged
        self._on_synced = on_synced or (lambda h, s, r: [])
        self._on_ack = on_ack or (lambda m, a: None)
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._transport: SerialTransport | None = None
        self._closed = False
        self._seq = 0
        self._queue: deque[_Pending] = deque()  # user commands, sent when synced
        self._prio: deque[_Pending] = deque()  # handshake and re-applied state, sent first
        self._outstanding: _Pending | None = None
        self._urgent: dict[int, _Pending] = {}
        self._synced = False
        self._handshaking = False
        self._up = False
        self._hello: HelloInfo | None = None
        self._last_event_seq: int | None = None
        self._last_rx = 0.0
        self._next_hb = 0.0
        self._next_connect = 0.0
        self._heartbeats_paused = False
        self._reset_reported = False
        self._next_hello = 0.0
        self.last_error = ""
        self.hopeless = ""  # a port that can never open (a malformed URL): waiting for it is pointless
        self._worker = threading.Thread(target=self._run, name=f"link {url}", daemon=True)

    # ------------------------------------------------------------------------------------------ public

    def start(self) -> Link:
        self._worker.start()
        return self

    @property
    def hello(self) -> HelloInfo | None:
        return self._hello

    @property
    def synced(self) -> bool:
        return self._synced

    @property
    def decoder_stats(self) -> framing.DecoderStats | None:
        t = self._transport
        return t.protocol.decoder.stats if t else None

    def submit(self, msg: Message) -> Future[Reply]:
        """Queue a command; the future resolves with its :class:`Reply` (any result) or a LinkError."""
        if msg.DELIVERY == Delivery.URGENT:
            return self.urgent(msg)
        fut: Future[Reply] = Future()
        with self._cond:
            if self._closed:
                raise LinkClosed("link closed")
            self._queue.append(_Pending(msg, fut))
            self._cond.notify_all()
        return fut

    def urgent(self, msg: Message | None = None) -> Future[Reply]:
        """Send ``msg`` now, ahead of everything queued, and keep repeating it until acknowledged."""
        msg = msg or EStop()
        fut: Future[Reply] = Future()
        with self._cond:
            if self._transport is None:
                fut.set_exception(NotConnected(f"no connection on {self.url}: {self.last_error}"))
                return fut
            p = _Pending(msg, fut)
            self._transmit(p, time.monotonic())
            self.stats.urgent_sent_at = time.monotonic()
            self._urgent[p.seq] = p
            self._cond.notify_all()
        return fut

    def wait_synced(self, timeout: float, boot_other_than: int | None = None) -> bool:
        """Wait for a session (with a boot counter other than ``boot_other_than``, after a reset)."""
        def ready() -> bool:
            return self._synced and (boot_other_than is None or (
                self._hello is not None and self._hello.boot_counter != boot_other_than))

        deadline = time.monotonic() + timeout
        with self._cond:
            while not ready() and not self._closed and not self.hopeless:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return ready()

    @property
    def idle(self) -> bool:
        """Synced, nothing in flight and nothing queued."""
        with self._cond:
            return self._synced and self._outstanding is None and not self._prio and not self._queue

    def pause_heartbeats(self, paused: bool = True) -> None:
        """Test/technician hook: stop sending heartbeats (the MCU must then stop its motors)."""
        self._heartbeats_paused = paused

    def drop_connection(self) -> None:
        """Close the port as if the adapter vanished; the worker reconnects."""
        with self._cond:
            t = self._transport
        if t:
            t.close()

    def close(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
            t, self._transport = self._transport, None
            pend = list(self._queue) + list(self._prio) + list(self._urgent.values())
            if self._outstanding:
                pend.append(self._outstanding)
            self._queue.clear()
            self._prio.clear()
            self._urgent.clear()
            self._outstanding = None
        if self._worker.is_alive() and threading.current_thread() is not self._worker:
            self._worker.join(5)
        if t:
            t.close()
        for p in pend:
            _fail(p, LinkClosed("link closed"))

    # ------------------------------------------------------------------------------------------ worker

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                need_connect = self._transport is None and time.monotonic() >= self._next_connect
            if need_connect:
                self._connect()
            if not self._serve_once():
                return

    def _serve_once(self) -> bool:
        """One pass of :meth:`_service` and the wait until its next deadline; False once the link is closed."""
        with self._cond:
            if self._closed:
                return False
            wait = self._service(time.monotonic())
            self._cond.wait(max(0.0, wait))
            return True

    def _connect(self) -> None:
        try:
            t = SerialTransport(self.url, self.config.baudrate, self._frame_in, self._lost)
        except Exception as exc:  # serial.SerialException, OSError, ValueError for a bad URL
            with self._cond:
                if str(exc) != self.last_error:  # once per new reason, not at every retry
                    log.warning("cannot open %s: %s (retrying every %.1f s)", self.url, exc,
                                self.config.reconnect_interval)
                self.last_error = str(exc)
                if isinstance(exc, ValueError):  # a URL pyserial cannot open at all: retrying cannot help
                    self.hopeless = self.last_error
                self._next_connect = time.monotonic() + self.config.reconnect_interval
                self._cond.notify_all()
            return
        with self._cond:
            if self._closed:
                t.close()
                return
            self._transport = t
            self.stats.reconnects += 1
            log.info("port %s open at %d baud (connection %d)", self.url, self.config.baudrate, self.stats.reconnects)
            self._last_rx = time.monotonic()
            self._start_session()

    def _lost(self, transport: SerialTransport, exc: BaseException | None) -> None:
        with self._cond:
            if self._transport is not transport:
                return  # an old or deliberately closed transport
            self._transport = None
            self.last_error = str(exc) if exc else "port closed"
            self._next_connect = time.monotonic() + self.config.reconnect_interval
            self._end_session("down", self.last_error)
            self._cond.notify_all()
        threading.Thread(target=transport.close, daemon=True).start()

    def _service(self, now: float) -> float:
        """Everything time-driven; returns seconds until the next deadline."""
        cfg = self.config
        if self._transport is None:
            return max(0.01, self._next_connect - now)
        deadlines = [now + cfg.heartbeat_interval]
        if now >= self._next_hb:
            if not self._heartbeats_paused:
                self._send_unreliable(PiHeartbeat())
            self._next_hb = now + cfg.heartbeat_interval
        deadlines.append(self._next_hb)
        if self._up and now - self._last_rx > cfg.link_timeout:
            self._up = False
            self._on_state("down", f"no frame from the MCU for {cfg.link_timeout:.1f} s")
        if not self._synced and not self._handshaking and self._outstanding is None:
            if now >= self._next_hello:  # a refused HELLO is retried, slowly
                self._start_session()
            deadlines.append(max(now, self._next_hello))
        # retransmissions
        for p in list(self._urgent.values()) + ([self._outstanding] if self._outstanding else []):
            due = p.sent_at + cfg.ack_timeout
            if now < due:
                deadlines.append(due)
                continue
            internal = p.future is None
            if p.tries > cfg.max_retries and not internal:
                log.error("%s seq %d: no acknowledgement after %d tries", type(p.msg).__name__, p.seq, p.tries)
                self._finish(p, exc=DeliveryFailed(f"{type(p.msg).__name__}: no acknowledgement after "
                                                   f"{p.tries} tries"))
                continue
            if internal and p.tries > cfg.max_retries:  # the handshake keeps trying, more slowly
                if now < p.sent_at + cfg.reconnect_interval:
                    deadlines.append(p.sent_at + cfg.reconnect_interval)
                    continue
            self.stats.retransmits += 1
            log.info("retransmit %s seq %d (try %d): no answer in %.0f ms", type(p.msg).__name__, p.seq,
                     p.tries + 1, (now - p.sent_at) * 1000)
            self._write_frame(p.msg, p.seq)
            p.tries += 1
            p.sent_at = now
            deadlines.append(now + cfg.ack_timeout)
        self._send_next(now)
        return min(deadlines) - now

    # ------------------------------------------------------------------------------------------ session

    def _start_session(self) -> None:
        """Queue HELLO then STATUS; commands wait until both are answered."""
        self._synced = False
        self._handshaking = True
        self._prio.clear()
        hello = Hello(heartbeat_timeout_ms=self.config.mcu_watchdog_ms)
        self._prio.append(_Pending(hello, on_ack=self._hello_acked))
        self._send_next(time.monotonic())

    def _handshake_failed(self, why: str) -> None:
        self.last_error = why
        self._handshaking = False
        self._prio.clear()
        self._next_hello = time.monotonic() + self.config.reconnect_interval

    def _hello_acked(self, ack: Ack) -> None:
        try:
            info = HelloInfo.unpack(ack.data) if ack.result == Result.OK else None
        except ValueError:
            info = None
        if info is None or info.protocol_version != framing.PROTOCOL_VERSION:
            self._handshake_failed(f"incompatible table: HELLO answered {ack.result}, {ack.data.hex(' ')}")
            return
        reset = self._hello is not None and self._hello.boot_counter != info.boot_counter
        self._hello = info
        self._last_event_seq = None
        self.stats.sessions += 1
        if reset:
            self.stats.resets_seen += 1
        self._prio.appendleft(_Pending(StatusRequest(), on_ack=lambda a: self._status_acked(a, reset)))

    def _status_acked(self, ack: Ack, reset: bool) -> None:
        try:
            status = TableStatus.unpack(ack.data)
        except ValueError:
            self._handshake_failed(f"bad STATUS answer: {ack.result}, {ack.data.hex(' ')}")
            return
        assert self._hello is not None
        for msg in self._on_synced(self._hello, status, reset):
            self._prio.append(_Pending(msg, on_ack=functools.partial(self._on_ack, msg)))
        self._synced = True
        self._handshaking = False
        self._up = True
        boot = self._hello.boot_counter
        if reset and not self._reset_reported:
            self._on_state("mcu_reset", f"boot counter {boot} (seen at HELLO)")
        self._reset_reported = False
        self._on_state("up", f"boot {boot}" + (", reconciled after an MCU reset" if reset else ""))
        self._cond.notify_all()

    def _end_session(self, state: str, detail: str) -> None:
        """The session is over (reset seen, port lost): settle the command in flight, then re-handshake."""
        was = self._synced or self._handshaking
        self._synced = False
        self._handshaking = False
        self._up = False
        self._prio.clear()
        p, self._outstanding = self._outstanding, None
        if p is not None and p.future is not None:
            if p.msg.DELIVERY == Delivery.REPEATABLE:
                p.tries = 0
                self._queue.appendleft(p)
            else:
                _fail(p, OutcomeUnknown(f"{type(p.msg).__name__} was in flight when the session ended "
                                        f"({detail}); read the status"))
        if was:
            self._on_state(state, detail)
            self._reset_reported = state == "mcu_reset"

    # ------------------------------------------------------------------------------------------ sending

    def _send_next(self, now: float) -> None:
        if self._outstanding is not None or self._transport is None:
            return
        while self._queue and self._queue[0].future is not None and self._queue[0].future.cancelled():
            self._queue.popleft()  # its caller gave up (an operation cancelled by an e-stop): never sent
        if self._prio:
            p = self._prio.popleft()
        elif self._synced and self._queue:
            p = self._queue.popleft()
        else:
            return
        self._outstanding = p
        self._transmit(p, now)

    def _transmit(self, p: _Pending, now: float) -> None:
        self._seq = (self._seq + 1) & 0xFFFF
        p.seq = self._seq
        p.tries = 1
        p.sent_at = p.first_sent_at = now
        self._write_frame(p.msg, p.seq)

    def _send_unreliable(self, msg: Message) -> None:
        self._write_frame(msg, 0)

    def _write_frame(self, msg: Message, seq: int) -> None:
        t = self._transport
        if t is None:
            return
        try:
            t.write(framing.encode(Frame(int(msg.TYPE), seq, msg.pack())))
            self.stats.tx_frames += 1
        except Exception as exc:  # the adapter vanished mid-write
            self._lost(t, exc)

    def _finish(self, p: _Pending, ack: Ack | None = None, exc: Exception | None = None) -> None:
        if p is self._outstanding:
            self._outstanding = None
        self._urgent.pop(p.seq, None)
        if ack is not None:
            took = time.monotonic() - p.first_sent_at
            if took > SLOW_ANSWER_S and p.first_sent_at:
                log.info("slow answer: %s seq %d acknowledged after %.0f ms (%d tries)", type(p.msg).__name__,
                         p.seq, took * 1000, p.tries)
            if p.on_ack:
                p.on_ack(ack)
            if p.future is not None:
                self._on_ack(p.msg, ack)
                if not p.future.done():
                    boot = self._hello.boot_counter if self._hello else 0
                    p.future.set_result(Reply(p.seq, ack.result, ack.data, self.stats.sessions, boot))
        elif exc is not None:
            _fail(p, exc)
        self._send_next(time.monotonic())

    # ------------------------------------------------------------------------------------------ receiving

    def _frame_in(self, frame: Frame) -> None:
        now = time.monotonic()
        with self._cond:
            if self._closed:
                return
            self.stats.rx_frames += 1
            self._last_rx = now
            if not self._up and self._synced:
                self._up = True
                self._on_state("up", "frames again")
            try:
                msg = parse(frame.type, frame.payload)
            except ValueError:
                self.stats.bad_payloads += 1
                return
            if isinstance(msg, Ack):
                self._ack_in(frame.seq, msg)
            elif isinstance(msg, McuHeartbeat):
                if self._synced and self._hello is not None and msg.boot_counter != self._hello.boot_counter:
                    self._end_session("mcu_reset", f"boot counter {msg.boot_counter}")
                    self._start_session()
            elif msg.DELIVERY == Delivery.EVENT:
                if frame.seq == self._last_event_seq:
                    self.stats.duplicate_events += 1
                else:
                    self._last_event_seq = frame.seq
                    self._on_event(msg, frame.seq, now)
                self._write_frame(Ack(Result.OK), frame.seq)  # after delivery: an acked event is applied
            self._cond.notify_all()

    def _ack_in(self, seq: int, ack: Ack) -> None:
        p = self._urgent.get(seq)
        if p is None and self._outstanding is not None and self._outstanding.seq == seq:
            p = self._outstanding
        if p is None:
            return  # a late duplicate
        if ack.result == Result.NOT_SYNCED and p is self._outstanding:
            if p.future is not None and p.msg.DELIVERY == Delivery.AT_MOST_ONCE and p.tries == 1:
                # a single copy, refused: it certainly did not run, so it may be sent in the next session
                self._outstanding = None
                self._queue.appendleft(p)
            self._end_session("mcu_reset", "MCU answered NOT_SYNCED")
            self._start_session()
            return
        self._finish(p, ack=ack)


def _fail(p: _Pending, exc: Exception) -> None:
    if p.future is not None and not p.future.done():
        p.future.set_exception(exc)
