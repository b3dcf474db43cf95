"""``mahjong-table hall provision``: written with the provisioning milestone."""
from __future__ import annotations

import argparse


def register(hs: argparse._SubParsersAction) -> None:
    pass
