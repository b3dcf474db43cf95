"""The table as its web page and the console see it: :class:`Snapshot` (the service's ``snapshot()``), the
operator's prompt and fault line (:func:`prompt_and_fault`: the re-read after a restart and the e-stop
speak first), and the operator's log (:class:`OperatorLog`, the last lines said)."""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from controller.play_source import HandResult
from controller.table_machine import S
from rules.events import JSONObject

if TYPE_CHECKING:
    from controller.estop import EStopSupervisor
    from controller.table_machine import TableMachine

LOG_LINES = 30  # the operator's log keeps this many lines


class ShuffleStacks(TypedDict, total=False):
    """The shuffle's stacks built and to build, per side (empty: no shuffle under way)."""

    built: list[int]
    target: list[int]


class TableCheck(TypedDict):
    """The re-read of the table after a restart (:meth:`controller.table_recovery.TableRecovery.reconcile`)."""

    result: str  # match, mismatch, unreadable, unchecked; accepted (the judge's override of a mismatch)
    differences: list[JSONObject]  # each zone that differs: seat, zone, expected, seen
    detail: str  # for the operator: what differs, or why it could not be compared
    hold: bool  # it holds the table paused
    frames: int  # frames read


@dataclass
class Snapshot:
    table: str
    profile: str
    state: str
    prompt: str
    hand_id: str = ""
    dice: tuple[tuple[int, ...], ...] = ()
    shuffle: ShuffleStacks = field(default_factory=ShuffleStacks)
    fault: str = ""
    hands_done: int = 0
    last_result: HandResult | None = None
    log: list[str] = field(default_factory=list)
    table_check: TableCheck | None = None  # the re-read after a restart: result, differences, detail
    # the others' own views (JSON objects), as each part gives it
    estop: Mapping[str, object] = field(default_factory=dict)  # the supervised e-stop: state, error, attempts
    resume_error: str = ""  # why the last resume/retry was refused (the operator must act)
    store: Mapping[str, object] = field(default_factory=dict)  # the store writer: commits, latency, errors
    loop: Mapping[str, object] = field(default_factory=dict)  # the event loop's lag: worst and mean stall
    hall: Mapping[str, object] | None = None  # the hall link: session clock, hall messages, outbox (controller.hall_link)
    referee: JSONObject | None = None  # the refereed hand's public view (controller/referee/view.py)


class OperatorLog:
    """The last :data:`LOG_LINES` lines said to the operator, each stamped with the time of day."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, text: str) -> None:
        self.lines = (self.lines + [time.strftime("%H:%M:%S ") + text])[-LOG_LINES:]


def prompt_and_fault(machine: TableMachine, table_check: TableCheck | None, resume_error: str,
                     stopper: EStopSupervisor) -> tuple[str, str]:
    """What the operator is asked to do now and what is wrong: the cycle's own prompt and fault, unless a
    re-read after a restart holds the table, a resume was refused, or a stop is not confirmed."""
    prompt, fault = machine.prompt, machine.fault
    chk = table_check
    if machine.state is S.PAUSED and chk is not None and chk.get("hold"):
        if chk["result"] == "mismatch":
            prompt = ("Paused: the table differs from the record. Put it back as listed, then press JUDGE to "
                      "re-read (or the judge accepts the table as it lies: Accept on the web page).")
            fault = "Table differs from the record: " + chk["detail"]
        else:
            prompt = "Paused: check the table by eye against the record, then press JUDGE to resume."
            fault = "Camera could not read the table: " + chk["detail"]
    if resume_error and machine.state in (S.PAUSED, S.FAULT):
        prompt = f"{prompt} Not resumed: {resume_error}"
    if stopper.state == "failed":
        fault = (f"EMERGENCY STOP NOT CONFIRMED (attempt {stopper.attempts}, retrying): "
                 f"{stopper.error}" + (f" — {fault}" if fault else ""))
    return prompt, fault
