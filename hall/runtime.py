"""The hall as one object: its broker (an existing one, or the embedded mosquitto), its database, the MQTT
service, the tournament and its clock — what ``hall serve`` runs and ``hall simulate`` drives."""
from __future__ import annotations

from pathlib import Path

from hall.broker import BrokerTLS, Mosquitto
from hall.config import HallConfig
from hall.db import HallDB
from hall.mqtt import Credentials
from hall.service import HallService
from hall.tournament import Tournament


class Hall:
    def __init__(self, cfg: HallConfig, *, durable: bool = True):
        self.cfg = cfg
        self.broker: Mosquitto | None = None
        self.db = HallDB(cfg.hall.db, durable=durable)
        self.service: HallService | None = None
        self.tournament: Tournament | None = None

    @property
    def broker_url(self) -> str:
        if self.cfg.broker.url:
            return self.cfg.broker.url
        assert self.broker is not None
        return self.broker.url

    def start_broker(self) -> None:
        c = self.cfg.broker
        if c.url:
            return
        tls = None
        if c.server_certfile:
            tls = BrokerTLS(c.cafile, c.server_certfile, c.server_keyfile)
        self.broker = Mosquitto(Path(c.dir), c.port, host=c.host, password_file=c.password_file or None,
                                acl_file=c.acl_file or None, tls=tls).start()

    def start(self) -> Hall:
        b, h = self.cfg.broker, self.cfg.hall
        self.start_broker()
        creds = Credentials(b.username, b.password, b.cafile, b.certfile, b.keyfile)
        self.service = HallService(self.db, self.broker_url, h.id, creds).start()
        self.tournament = Tournament(self.db, self.service, profile=h.profile, name=h.name,
                                     tables=list(h.tables) or None, seed=h.seed)
        self.service.tickers.append(self.tournament.tick)
        return self

    def stop(self) -> None:
        if self.service is not None:
            self.service.stop()
        if self.broker is not None:
            self.broker.stop()
        self.db.close()

    def __enter__(self) -> Hall:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
