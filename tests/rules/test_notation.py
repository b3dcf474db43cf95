"""Notation: parse/format round trips (property tests) and syntax errors with columns."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.notation import Hand, Meld, MeldKind, ParseError, canonical, format_hand, format_tiles, parse_hand
from rules.tiles import FLOWERS, JOKER, KINDS, RED_FIVES, TILES, UNKNOWN

CONCEALED_POOL = list(KINDS) + list(RED_FIVES) + [JOKER, UNKNOWN] + list(FLOWERS)


@st.composite
def melds(draw):
    kind = draw(st.sampled_from(["chow", "pung", "kong_open", "kong_concealed", "kong_added"]))
    if kind == "chow":
        s = draw(st.integers(0, 2))
        i = draw(st.integers(0, 6))
        tiles = [KINDS[s * 9 + i + j] for j in range(3)]
        tiles = [RED_FIVES[s] if t.kind == s * 9 + 4 and draw(st.booleans()) else t for t in tiles]
    else:
        k = draw(st.integers(0, 33))
        n = 3 if kind == "pung" else 4
        tiles = [KINDS[k]] * n
    # a joker may stand in for any tile but one
    n_j = draw(st.integers(0, len(tiles) - 1))
    for i in range(n_j):
        tiles[i] = JOKER
    return Meld.build(tiles, concealed=kind == "kong_concealed", added=kind == "kong_added")


hands = st.builds(
    Hand,
    concealed=st.lists(st.sampled_from(CONCEALED_POOL), max_size=14).map(tuple),
    melds=st.lists(melds(), max_size=4).map(tuple),
    winning=st.none() | st.sampled_from(list(KINDS) + list(RED_FIVES) + [JOKER]),
    flowers=st.lists(st.sampled_from(FLOWERS), max_size=8, unique=True).map(tuple),
)


@given(hands)
def test_parse_format_round_trip(h):
    assert parse_hand(format_hand(h)) == h


@st.composite
def scrambled(draw):
    """A hand and a non-canonical spelling of it: shuffled tiles, ungrouped digits, melds interleaved, spaces."""
    h = draw(hands)
    tiles = draw(st.permutations(list(h.concealed)))
    chunks: list[str] = []
    i = 0
    while i < len(tiles):
        n = draw(st.integers(1, 4))
        chunks.append(format_tiles(tiles[i : i + n], group=draw(st.booleans())))
        i += n
    for m in h.melds:  # melds keep their order but may sit anywhere among the tiles
        pos = draw(st.integers(0, len(chunks)))
        before = [c for c in chunks[:pos]]
        # insert after all earlier melds to keep declaration order
        chunks = before + [str(m)] + chunks[pos:]
    # re-establish meld order (insertion above can swap two melds)
    meld_texts = iter(str(m) for m in h.melds)
    chunks = [next(meld_texts) if c.startswith("[") else c for c in chunks]
    sep = draw(st.sampled_from(["", " ", "  "]))
    s = sep.join(chunks)
    if h.winning is not None:
        s += draw(st.sampled_from(["+", " + ", "+ "])) + str(h.winning)
    if h.flowers:
        s += draw(st.sampled_from(["|", " | "])) + " ".join(str(f) for f in draw(st.permutations(list(h.flowers))))
    return h, s


@given(scrambled())
def test_format_of_parse_is_canonical(pair):
    h, s = pair
    got = parse_hand(s)
    assert got == h
    assert format_hand(got) == canonical(s) == format_hand(h)


def test_canonical_form_example():
    assert canonical("[555z] 1f 888p67p 234s23456m + 1m".replace("1f ", "") + " | 2f") == (
        "23456m67888p234s [555z] + 1m | 2f"
    )
    assert canonical("7m7m7m") == "777m"
    assert canonical("12pj456p") == "12456pj"


def test_meld_kinds_and_jokers():
    h = parse_hand("[555z] [1111p] [(1111s)] [9999m+] [123m] [5pjj] [j12m]")
    kinds = [m.kind for m in h.melds]
    assert kinds == [
        MeldKind.PUNG,
        MeldKind.KONG_OPEN,
        MeldKind.KONG_CONCEALED,
        MeldKind.KONG_ADDED,
        MeldKind.CHOW,
        MeldKind.PUNG,
        MeldKind.CHOW,
    ]
    assert h.melds[5].kinds == (13, 13, 13)  # [5pjj] is a pung of 5p
    assert h.melds[6].kinds == (0, 1, 2)
    assert parse_hand("[406m]").melds[0].kind is MeldKind.CHOW
    assert parse_hand("[550m]").melds[0].kind is MeldKind.PUNG


def test_plus_inside_brackets_is_an_added_kong_not_a_winning_tile():
    h = parse_hand("[1111p+] 123m")
    assert h.winning is None and h.melds[0].kind is MeldKind.KONG_ADDED
    h = parse_hand("123m + 4m")
    assert h.winning == TILES[3] and len(h.concealed) == 3


@pytest.mark.parametrize(
    "text,column,reason",
    [
        ("123m456p8z", 9, '"8z" is not a tile (honours are 1z-7z)'),
        ("123m9f", 5, '"9f" is not a tile (flowers and seasons are 1f-8f)'),
        ("12jp", 1, '"12" has no suit letter'),
        ("123", 1, '"123" has no suit letter'),
        ("[124m]", 1, "a chow must be three consecutive tiles of one suit"),
        ("[123z]", 1, "a chow must be three consecutive tiles of one suit"),
        ("[1122m]", 1, "a kong must be four identical tiles"),
        ("[11m]", 1, "a meld has three or four tiles"),
        ("[(111m)]", 1, "a concealed kong must have four tiles"),
        ("123m + ", 8, '"+" must be followed by the winning tile'),
        ("123m + 1m2m", 10, 'only one winning tile may follow "+"'),
        ("1m + 2m + 3m", 9, 'a second "+"'),
        ("1m | 5m", 6, '"5m" after "|" is not a flower'),
        ("[123m", 1, '"[" is never closed by "]"'),
        ("123m]", 5, '"]" without "["'),
        ("12q", 3, 'unexpected character "q"'),
        ("m", 1, 'suit letter "m" has no digits before it'),
        ("1m + 2m [333p]", 9, "melds must come before the winning tile"),
        ("[1f2f3f]", 1, "a flower"),
    ],
)
def test_syntax_errors_name_column_and_reason(text, column, reason):
    with pytest.raises(ParseError) as ei:
        parse_hand(text)
    assert ei.value.column == column, str(ei.value)
    assert reason in ei.value.reason
    assert str(ei.value).startswith(f"at column {column}: ")


@given(st.text(alphabet="0123456789mpszfjx[]()+| q", max_size=30))
def test_parser_never_crashes_on_junk(s):
    try:
        h = parse_hand(s)
    except ParseError as exc:
        assert 1 <= exc.column <= len(s) + 1
    else:
        assert parse_hand(format_hand(h)) == h
