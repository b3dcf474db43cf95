from rules.tiles import JOKER, KINDS, RED_FIVES, TILES, UNKNOWN, Tile, counts34, sort_tiles, tile


def test_every_code_round_trips_through_text():
    for t in TILES:
        assert Tile.parse(str(t)) == t


def test_kinds_and_properties():
    assert [str(t) for t in KINDS[:3]] == ["1m", "2m", "3m"]
    assert str(KINDS[27]) == "1z" and str(KINDS[33]) == "7z"
    assert tile("0p").kind == tile("5p").kind == 13
    assert tile("0p") != tile("5p")
    assert tile("0s").is_red and tile("0s").number == 5 and tile("0s").suit == "s"
    assert tile("9s").is_terminal and not tile("8s").is_terminal
    assert tile("5z").is_dragon and tile("4z").is_wind and tile("4z").is_honor
    assert tile("3f").is_flower and tile("3f").suit == "f"
    assert JOKER.is_joker and str(JOKER) == "j"
    assert UNKNOWN.is_unknown and str(UNKNOWN) == "x"
    assert [str(t) for t in RED_FIVES] == ["0m", "0p", "0s"]


def test_counts_ignore_non_playing_tiles_and_fold_red_fives():
    c = counts34([tile("5m"), tile("0m"), tile("1f"), JOKER, UNKNOWN])
    assert c[4] == 2 and sum(c) == 2


def test_sort_order_is_mpsz_then_flowers_joker_unknown():
    ts = [tile(s) for s in ["x", "j", "1f", "1z", "0m", "5m", "1s", "9p", "4m"]]
    assert [str(t) for t in sort_tiles(ts)] == ["4m", "5m", "0m", "9p", "1s", "1z", "1f", "j", "x"]


def test_bad_tile_text():
    for s in ["8z", "0z", "9f", "m", "10m", ""]:
        try:
            Tile.parse(s)
        except ValueError:
            continue
        raise AssertionError(s)


def test_kind_vocabulary_agrees_with_the_tile_properties():
    from rules.tiles import (
        DRAGONS,
        GREEN,
        HONORS,
        KIND_OF,
        RED_DRAGON,
        RED_OF,
        TERMINALS,
        TERMINALS_AND_HONORS,
        WINDS,
    )

    assert [k for k in range(34) if KINDS[k].is_wind] == list(WINDS)
    assert [k for k in range(34) if KINDS[k].is_dragon] == list(DRAGONS)
    assert [k for k in range(34) if KINDS[k].is_honor] == list(HONORS)
    assert [k for k in range(34) if KINDS[k].is_terminal] == list(TERMINALS)
    assert sorted(TERMINALS_AND_HONORS) == [k for k in range(34) if KINDS[k].is_terminal_or_honor]
    assert sorted(str(KINDS[k]) for k in GREEN) == ["2s", "3s", "4s", "6s", "6z", "8s"]
    assert str(KINDS[RED_DRAGON]) == "7z"
    assert {str(KINDS[k]): str(TILES[c]) for k, c in RED_OF.items()} == {"5m": "0m", "5p": "0p", "5s": "0s"}
    assert all(KIND_OF[t] == t.kind for t in TILES)
