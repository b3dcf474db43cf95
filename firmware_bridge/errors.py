"""Typed errors of the link and the bridge."""
from __future__ import annotations

from firmware_bridge.messages import FaultCode, Part, Result, code_name


class LinkError(Exception):
    """Base of every error the bridge raises."""


class LinkClosed(LinkError):
    """The link was closed while the command was pending."""


class NotConnected(LinkError):
    """No serial connection (the port is missing or the MCU does not answer)."""


class DeliveryFailed(LinkError):
    """No acknowledgement after the bounded number of retransmissions."""


class OutcomeUnknown(LinkError):
    """An at-most-once command was in flight when the session ended (MCU reset, reconnect): it may or may
    not have run. It is never re-sent; read the status to find out."""


class CommandRejected(LinkError):
    """The MCU acknowledged the command with a non-OK result (busy, e-stop latched, ...)."""

    def __init__(self, command: str, result: int) -> None:
        self.command = command
        self.result = result
        why = _RESULT_TEXT.get(result, code_name(Result, result))
        super().__init__(f"{command} rejected by the table: {why}")


_RESULT_TEXT: dict[int, str] = {  # keyed by the int codes the MCU sends (Result members are ints)
    Result.NOT_SYNCED: "no session (the MCU restarted); retry",
    Result.BAD_MESSAGE: "the MCU did not understand the command (firmware version?)",
    Result.BUSY: "busy with another operation on the same motors",
    Result.BAD_ARGUMENT: "bad argument (or not configured yet)",
    Result.ESTOPPED: "emergency stop latched: reset the table first",
    Result.UNSUPPORTED: "not fitted on this table",
    Result.FAULTED: "a fault condition forbids motion (is the lid open?)",
}


class TableFault(LinkError):
    """An operation ended with a FAULT event from the MCU."""

    def __init__(self, code: int, part: int, operation: str = "") -> None:
        self.code = code
        self.part = part
        self.code_name = code_name(FaultCode, code)
        self.part_name = code_name(Part, part)
        self.operation = operation
        super().__init__(describe_fault(code, part, operation))


_FAULT_TEXT: dict[int, str] = {  # keyed by the int codes the MCU sends (FaultCode members are ints)
    FaultCode.SHUFFLE_TIMEOUT: "shuffle did not finish in time (more than 80 s)",
    FaultCode.LIFT_LIMIT_TIMEOUT: "lift did not reach its limit switch in time: check for a jammed tile",
    FaultCode.CHAIN_ZERO_LOST: "distribution chain zero sensor lost: check the chain and its sensor",
    FaultCode.PUSH_COUNT_WRONG: "pusher counted the wrong number of tiles",
    FaultCode.STACK_COUNT_WRONG: "wrong number of stacks built on a side: check for a missing or extra tile",
    FaultCode.MOTOR_OVERCURRENT: "motor overcurrent: something is blocking it",
    FaultCode.LID_OPEN: "lid is open: close it to continue",
    FaultCode.HEARTBEAT_LOST: "the table lost contact with the Pi and stopped its motors",
    FaultCode.EMERGENCY_STOP: "stopped by the emergency stop",
}


def describe_fault(code: int, part: int, operation: str = "") -> str:
    """A one-line, technician-readable description of a fault."""
    text = _FAULT_TEXT.get(code, code_name(FaultCode, code))
    where = code_name(Part, part) if part else ""
    prefix = f"{operation} failed: " if operation else ""
    return f"{prefix}{text}" + (f" (part: {where})" if where else "")
