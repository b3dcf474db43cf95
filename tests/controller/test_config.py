import tomllib

import pytest

from controller import config
from controller.cli import main


def test_defaults_validate_and_example_round_trips(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text(config.example_toml())
    cfg, problems = config.check(p)
    assert problems == []
    assert cfg.values == config.defaults().values
    assert tomllib.loads(config.example_toml())["table"]["profile"] == "sichuan-mpl2025"  # a seed rule set (#17)


def test_every_problem_names_its_key_and_the_allowed_values(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[table]\nprofile = "mcrr"\nbackend = 3\n[gpio]\nturn_leds = [1, 2]\npinz = 1\n[web]\nport = 70000\n')
    cfg, problems = config.check(p)
    assert cfg is None
    text = "\n".join(problems)
    assert "table.profile: 'mcrr' is not one of sichuan-mpl2025" in text
    assert "table.backend: 3 is not a string" in text
    assert "gpio.turn_leds: must be a list of four pins" in text
    assert "gpio.pinz: unknown key (did you mean gpio.pin_factory?)" in text
    assert "web.port: must be a TCP port" in text
    assert len(problems) == 5


def test_bool_is_not_accepted_as_a_number(tmp_path):
    p = tmp_path / "b.toml"
    p.write_text("[web]\nport = true\n")
    _, problems = config.check(p)
    assert problems and "web.port" in problems[0]


def test_file_overrides_defaults(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[table]\nprofile = "mcr"\n[gpio.call_panels.0]\nhu = 7\npung = "GPIO8"\n')
    cfg = config.load(p)
    assert cfg["table.profile"] == "mcr" and cfg["gpio.call_panels"] == {"0": {"hu": 7, "pung": "GPIO8"}}
    assert cfg["web.port"] == 8080


def test_cli_check(tmp_path, capsys):
    good = tmp_path / "g.toml"
    good.write_text("[table]\nplayers = 3\n")
    assert main(["config", "check", str(good)]) == 0
    assert "OK" in capsys.readouterr().out
    bad = tmp_path / "b.toml"
    bad.write_text("[table\n")
    assert main(["config", "check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "not valid TOML" in out and "Traceback" not in out
    assert main(["config", "check", str(tmp_path / "missing.toml")]) == 2  # bad input: one line on stderr
    assert "no such file" in capsys.readouterr().err
    assert main(["config", "check", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_overrides_are_validated():
    with pytest.raises(config.ConfigError):
        config.defaults().with_overrides(table__players=5)
    assert config.defaults().with_overrides(table__players=3)["table.players"] == 3
