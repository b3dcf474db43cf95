"""``--profile``: every command declares it one way (controller.cli.common.add_profile), with the registry's
rule sets as its choices; an unknown name is one line on stderr and exit code 2 (issue #31)."""
from __future__ import annotations

import argparse

import pytest

from controller.cli import build_parser, main
from rules.profiles import registry

# Not a plain profile name: simulate's TABLE (PROFILE@PLAYERS or all); score answers an unknown name itself
# (--jsonl answers every line with {"ok": false, ...}).
OWN_CHECK = {("simulate",), ("score",)}


def _profile_options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _profile_options(sub, (*path, name))
        elif "--profile" in action.option_strings:
            yield path, action


OPTIONS = list(_profile_options(build_parser()))


def test_the_commands_that_take_a_profile_are_found():
    paths = {p for p, _ in OPTIONS}
    assert {("deal",), ("play",), ("waits",), ("shanten",), ("serve",), ("vision", "render"), ("vision", "read"),
            ("hall", "simulate"), ("hall", "provision")} <= paths
    assert OWN_CHECK <= paths


@pytest.mark.parametrize("path,action", OPTIONS, ids=[" ".join(p) for p, _ in OPTIONS])
def test_every_profile_option_offers_the_registry(path, action):
    if path in OWN_CHECK:
        assert action.choices is None
    else:
        assert tuple(action.choices) == tuple(registry.names()), path
        assert action.default is None or action.default in registry.names()


@pytest.mark.parametrize("path", [p for p, _ in OPTIONS if p not in OWN_CHECK], ids=lambda p: " ".join(p))
def test_an_unknown_profile_is_one_line_and_exit_code_2(path, capsys):
    try:
        rc = main([*path, "--profile", "chess"])
    except SystemExit as exc:
        rc = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1, err
    assert err[0].startswith("mahjong-table") and "'chess'" in err[0] and "invalid choice" in err[0]
