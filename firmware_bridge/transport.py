"""The serial transport: pyserial's ``serial.threaded.ReaderThread`` feeding a framing protocol object.

Framing lives in :class:`FramedProtocol` (bytes in, frames out); the reader thread only moves bytes. The same
code runs over a real port (``/dev/ttyUSB0``), a pty path (the emulator) and pyserial URLs such as
``loop://`` and ``socket://host:port``.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

import serial
import serial.threaded

from firmware_bridge.framing import Frame, FrameDecoder


class FramedProtocol(serial.threaded.Protocol):
    """Splits the byte stream into frames and hands each valid one to ``on_frame``."""

    def __init__(self, on_frame: Callable[[Frame], None], on_lost: Callable[[BaseException | None], None]) -> None:
        self.decoder = FrameDecoder()
        self._on_frame = on_frame
        self._on_lost = on_lost

    def data_received(self, data: bytes) -> None:
        for frame in self.decoder.feed(data):
            self._on_frame(frame)

    def connection_lost(self, exc: BaseException | None) -> None:
        self._on_lost(exc)


class SerialTransport:
    """One open port with its reader thread. ``write`` is thread-safe; ``close`` is idempotent.
    ``on_lost(transport, exc)`` is called from the reader thread when the port fails or is closed."""

    def __init__(self, url: str, baudrate: int, on_frame: Callable[[Frame], None],
                 on_lost: Callable[[SerialTransport, BaseException | None], None]) -> None:
        self.url = url
        self.port = serial.serial_for_url(url, baudrate=baudrate, timeout=None, write_timeout=2)
        self.protocol = FramedProtocol(on_frame, lambda exc: on_lost(self, exc))
        self._wlock = threading.Lock()
        self._closing = threading.Lock()
        self._closed = False
        self._reader = serial.threaded.ReaderThread(self.port, lambda: self.protocol)
        self._reader.name = f"serial-reader {url}"
        self._reader.start()

    def write(self, data: bytes) -> None:
        with self._wlock:
            self.port.write(data)

    def close(self) -> None:
        with self._closing:
            if self._closed:
                return
            self._closed = True
        try:
            if self._reader.is_alive() and self._reader is not threading.current_thread():
                self._reader.stop()  # cancel_read + join (socket:// ports poll once a second)
            self.port.close()
        except Exception:  # a vanished device may fail to cancel or close; it is gone anyway
            pass
