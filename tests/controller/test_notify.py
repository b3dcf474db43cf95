import socket

from controller.notify import Notifier


def test_messages_reach_the_socket(tmp_path, monkeypatch):
    path = str(tmp_path / "notify.sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    srv.bind(path)
    srv.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    n = Notifier()
    assert n.enabled and n.watchdog_interval() == 5.0
    assert n.ready("up")
    assert srv.recv(1024) == b"READY=1\nSTATUS=up"
    assert n.watchdog()
    assert srv.recv(1024) == b"WATCHDOG=1"
    n.close()
    srv.close()


def test_outside_systemd_nothing_is_sent(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    n = Notifier()
    assert not n.enabled and not n.ready() and n.watchdog_interval() is None
