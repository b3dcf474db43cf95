"""The hall as one object: its broker (an existing one, or the embedded mosquitto), its database, the MQTT
service, the tournament and its clock — what ``hall serve`` runs and ``hall simulate`` drives."""
from __future__ import annotations

from pathlib import Path
from typing import Any

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
        self.db = HallDB(cfg["hall.db"], durable=durable)
        self.service: HallService | None = None
        self.tournament: Tournament | None = None

    @property
    def broker_url(self) -> str:
        if self.cfg["broker.url"]:
            return self.cfg["broker.url"]
        assert self.broker is not None
        return self.broker.url

    def start_broker(self) -> None:
        c = self.cfg
        if c["broker.url"]:
            return
        tls = None
        if c["broker.server_certfile"]:
            tls = BrokerTLS(c["broker.cafile"], c["broker.server_certfile"], c["broker.server_keyfile"])
        self.broker = Mosquitto(Path(c["broker.dir"]), c["broker.port"], host=c["broker.host"],
                                password_file=c["broker.password_file"] or None, acl_file=c["broker.acl_file"] or None,
                                tls=tls).start()

    def start(self) -> Hall:
        c = self.cfg
        self.start_broker()
        creds = Credentials(c["broker.username"], c["broker.password"], c["broker.cafile"], c["broker.certfile"],
                            c["broker.keyfile"])
        self.service = HallService(self.db, self.broker_url, c["hall.id"], creds).start()
        self.tournament = Tournament(self.db, self.service, profile=c["hall.profile"], name=c["hall.name"],
                                     tables=c["hall.tables"] or None, seed=c["hall.seed"])
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

    def __exit__(self, *exc: Any) -> None:
        self.stop()
