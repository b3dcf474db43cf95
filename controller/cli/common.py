"""What several sub-commands share: the rule sets a ``--profile`` may name, a whole number of at least one.

Kept apart from the command modules so that one command's module never imports another's (issue #31: the
``hall`` ↔ ``hall provision`` import circle).
"""
from __future__ import annotations

import argparse

from rules.profiles.registry import names

PROFILES = tuple(names())  # the rule profiles, as the registry names them


def positive_int(text: str) -> int:
    """An argparse ``type``: a whole number of at least 1."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{v} must be at least 1")
    return v
