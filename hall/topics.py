"""The hall's MQTT topic tree: one branch per table, ``up`` written by the table, ``down`` by the hall.

``hall/<hall-id>/table/<table-id>/up/outbox``   results and the events the hall needs (QoS 1, kept in the
                                                table's outbox until the hall acknowledges them)
``hall/<hall-id>/table/<table-id>/up/status``   fleet health (retained; the table's will says "offline")
``hall/<hall-id>/table/<table-id>/up/cmd_ack``  the table's acknowledgement of a hall command
``hall/<hall-id>/table/<table-id>/down/ack``    the hall service's acknowledgement of outbox messages
``hall/<hall-id>/table/<table-id>/down/cmd``    hall commands: session start, warning, end, seating

The broker's ACL gives each table (MQTT username = table id) write access to its own ``up/#`` and read
access to its own ``down/#`` only (:func:`acl`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")  # no MQTT wildcards, separators or spaces
UP = ("outbox", "status", "cmd_ack")
DOWN = ("ack", "cmd")


def check_id(kind: str, value: str) -> str:
    """A hall or table id usable as one topic level and an MQTT username; ValueError otherwise."""
    if not isinstance(value, str) or not ID_RE.match(value):
        raise ValueError(f"{kind} id {value!r}: use 1-63 letters, digits, '.', '_' or '-' (no '/', '+', '#', spaces)")
    return value


@dataclass(frozen=True)
class Topics:
    hall: str

    def __post_init__(self) -> None:
        check_id("hall", self.hall)

    def table(self, table: str, direction: str, leaf: str) -> str:
        return f"hall/{self.hall}/table/{table}/{direction}/{leaf}"

    def up(self, table: str, leaf: str) -> str:
        return self.table(table, "up", leaf)

    def down(self, table: str, leaf: str) -> str:
        return self.table(table, "down", leaf)

    @property
    def all_up(self) -> str:
        """What the hall service subscribes to."""
        return f"hall/{self.hall}/table/+/up/#"

    def parse(self, topic: str) -> tuple[str, str, str] | None:
        """``(table, direction, leaf)`` of a topic in this hall's tree, or None."""
        parts = topic.split("/")
        if len(parts) != 6 or parts[0] != "hall" or parts[1] != self.hall or parts[2] != "table":
            return None
        return parts[3], parts[4], parts[5]

    def acl(self, hall_user: str = "hall") -> str:
        """Mosquitto ACL: the hall reads and writes its tree, each table (username = table id) only its own
        branch: write ``up/#``, read ``down/#``."""
        root = f"hall/{self.hall}"
        return "\n".join([
            f"# mahjong-table hall {self.hall}: written by 'mahjong-table hall provision'",
            f"user {hall_user}",
            f"topic readwrite {root}/#",
            "",
            "# every table: its own branch only (%u = the MQTT username = the table id)",
            f"pattern write {root}/table/%u/up/#",
            f"pattern read {root}/table/%u/down/#",
            "",
        ])
