"""docs/notation.md is the users' grammar: what it shows must be what the parser and the CLI do."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.cli import main
from rules.notation import format_hand, parse_hand, parse_tiles
from rules.tiles import TILES, Tile

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
TEXT = DOC.read_text(encoding="utf-8")


def test_the_tile_table_names_every_face():
    cells = re.findall(r"`([0-9a-z]{1,2})`", TEXT.split("## Hands")[0])
    shown = {c for c in cells if c in {str(t) for t in TILES}}
    # the table gives ranges (`1m` … `9m`): their ends are shown, every face is covered by one
    ranges = {"m": (1, 9), "p": (1, 9), "s": (1, 9), "f": (1, 8)}
    for suit, (lo, hi) in ranges.items():
        assert f"{lo}{suit}" in shown and f"{hi}{suit}" in shown
    for t in ("1z", "4z", "5z", "7z", "0m", "0p", "0s", "j", "x"):
        assert t in shown, t


@pytest.mark.parametrize("example,tiles", [
    ("123m456p789s11z", "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z"),
    ("12pj456p", "1p 2p j 4p 5p 6p"),
])
def test_digit_runs_as_documented(example, tiles):
    assert example in TEXT
    assert " ".join(str(t) for t in parse_tiles(example)) == tiles


def test_same_tiles_written_two_ways():
    assert "`777m` is the same as `7m7m7m`" in TEXT
    assert parse_tiles("777m") == parse_tiles("7m7m7m")


def test_set_table_reads_as_documented():
    for text, kind in [("[123m]", "chow"), ("[555z]", "pung"), ("[1111p]", "kong_open"),
                       ("[(1111p)]", "kong_concealed"), ("[1111p+]", "kong_added")]:
        assert f"`{text}`" in TEXT
        assert parse_hand(text).melds[0].kind.value == kind
    assert parse_hand("[5pjj]").melds[0].base == Tile.parse("5p").kind


def test_canonical_example_round_trips():
    canonical = "23456m67888p234s [555z] + 1m | 2f"
    assert canonical in TEXT
    assert format_hand(parse_hand(canonical)) == canonical
    assert format_hand(parse_hand("1m + 2m")) == "1m + 2m"


def test_error_example_is_what_the_cli_prints(capsys):
    m = re.search(r"\$ mahjong-table score \"([^\"]+)\"\n\s+(mahjong-table: error: .+)", TEXT)
    assert m, "the error example is in the document"
    assert main(["score", m.group(1)]) == 2
    assert capsys.readouterr().err.strip() == m.group(2).strip()


def test_readme_and_score_json_send_readers_here():
    root = DOC.parents[1]
    assert "(docs/notation.md)" in (root / "README.md").read_text(encoding="utf-8")
    assert "(notation.md)" in (root / "docs" / "score-json.md").read_text(encoding="utf-8")
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        assert "shared/spec/NOTATION.md" not in doc.read_text(encoding="utf-8"), doc
