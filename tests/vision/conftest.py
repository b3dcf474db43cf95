"""Fixtures for the vision tests: the shipped tile model, loaded once per test session."""
from __future__ import annotations

import pytest

from vision.tile_classifier import TileClassifier


@pytest.fixture(scope="session")
def classifier() -> TileClassifier:
    return TileClassifier.load()
