"""The hall's configuration on the engine it shares with the table: problems name the file, the line and the
key, an unknown key gets the closest known one, a retired key says what replaced it, the sections are typed and
frozen, the rule sets come from the registry, and what ``hall provision`` writes reads back."""
from __future__ import annotations

import dataclasses
import tomllib

import pytest

from controller import config as table_config
from controller.cli import main
from hall import config
from rules.profiles import registry


def check_text(tmp_path, text: str) -> list[str]:
    p = tmp_path / "hall.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(config.HallConfigError) as exc:
        config.load(p)
    return exc.value.problems


def test_problems_name_the_file_the_line_and_the_key_all_at_once(tmp_path):
    problems = check_text(tmp_path, '# a hall\n[hall]\nprofile = "chess"\n\n[broker]\nport = "x"\n'
                                    '[web]\nnames = [1, "hall.lan"]\n[directors.users]\nann = 7\n')
    p = tmp_path / "hall.toml"
    assert problems[0].startswith(f"{p}:3: hall.profile: 'chess' is not one of sichuan-mpl2025, ")
    assert problems[1] == f"{p}:6: broker.port: 'x' is not a integer — the embedded mosquitto's port (0: any free port)"
    assert problems[2].startswith(f"{p}:8: web.names: [1, 'hall.lan']: every item must be a string — ")
    assert problems[3].startswith(f"{p}:9: directors.users: {{'ann': 7}}: every value must be a string — ")
    assert len(problems) == 4 and all("\n" not in x for x in problems)


def test_an_unknown_key_gets_its_line_and_the_closest_known_key(tmp_path):
    problems = check_text(tmp_path, '[pantheon]\nurl = "https://m.example"\nevnt_id = 3\n[brokr]\nurl = ""\n')
    p = tmp_path / "hall.toml"
    assert problems == [f"{p}:3: pantheon.evnt_id: unknown key (did you mean pantheon.event_id?)",
                        f"{p}:5: brokr.url: unknown key (did you mean broker.url?)"]


def test_a_retired_key_says_what_replaced_it(tmp_path, monkeypatch):
    monkeypatch.setitem(config.RETIRED, "hall.rounds", "retired: a session's length is session.minutes")
    monkeypatch.setitem(config.RETIRED, "hall.old_web", "retired: the dashboard is configured in [web]")
    problems = check_text(tmp_path, '[hall]\nid = "k"\nrounds = 4\n[hall.old_web]\nport = 1\n')
    p = tmp_path / "hall.toml"
    assert problems == [f"{p}:3: hall.rounds: retired: a session's length is session.minutes",
                        f"{p}:4: hall.old_web: retired: the dashboard is configured in [web]"]


def test_a_toml_syntax_error_names_its_line(tmp_path):
    problems = check_text(tmp_path, '[hall]\nid = "k"\nname = Kazan\n')
    assert len(problems) == 1 and problems[0].startswith(f"{tmp_path / 'hall.toml'}:3: not valid TOML: ")


@pytest.mark.parametrize("make,words", [(lambda d: d / "missing.toml", "no such file"),
                                        (lambda d: d, "is a directory, not a config file")])
def test_a_file_that_cannot_be_read_is_one_problem(tmp_path, make, words):
    with pytest.raises(config.HallConfigError) as exc:
        config.load(make(tmp_path))
    assert exc.value.problems == [f"{make(tmp_path)}: {words}"]


def test_hall_serve_prints_the_problems_with_their_lines_on_one_line(tmp_path, capsys):
    p = tmp_path / "hall.toml"
    p.write_text('[hall]\nid = "k"\nprofile = "chess"\n[web]\nprot = 80\n', encoding="utf-8")
    assert main(["hall", "serve", "--config", str(p)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"mahjong-table: error: hall configuration: {p}:3: hall.profile: ")
    assert f"; {p}:5: web.prot: unknown key (did you mean web.port?)" in err[0]


def test_sections_are_typed_frozen_dataclasses_of_the_schema():
    cfg = config.defaults().with_overrides(hall__tables=["t1", "t2"], web__names=["hall.lan"],
                                           directors__users={"ann": "pbkdf2_sha256$x"})
    assert cfg.hall.tables == ("t1", "t2") and cfg["hall.tables"] == ["t1", "t2"]
    assert cfg.web.names == ("hall.lan",) and cfg.directors.users == {"ann": "pbkdf2_sha256$x"}
    assert cfg.broker.port == 1883 == cfg["broker.port"] and cfg.web.session_max_hours == 8
    for sec, cls in config.SECTIONS.items():
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
        assert {f.name for f in dataclasses.fields(cls)} == {k.split(".", 1)[1] for k in config.SCHEMA
                                                              if k.startswith(sec + ".")}
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.hall.id = "other"
    with pytest.raises(TypeError):
        cfg.directors.users["bob"] = "x"  # a read-only mapping
    with pytest.raises(config.HallConfigError, match=r"hall\.seed: 'x' is not a integer"):
        cfg.with_overrides(hall__seed="x")


def test_the_rule_sets_are_the_registrys_in_both_services(tmp_path, monkeypatch):
    assert config.SCHEMA["hall.profile"].choices == tuple(registry.names())
    assert table_config.SCHEMA["table.profile"].choices == tuple(registry.names())
    monkeypatch.setitem(registry.PROFILES, "test-extra", ("rules.profiles.basic", "Basic"))  # a new rule set
    (tmp_path / "hall.toml").write_text('[hall]\nprofile = "test-extra"\n', encoding="utf-8")
    assert config.load(tmp_path / "hall.toml").hall.profile == "test-extra"
    (tmp_path / "table.toml").write_text('[table]\nprofile = "test-extra"\n', encoding="utf-8")
    cfg, problems = table_config.check(tmp_path / "table.toml")
    assert problems == [] and cfg is not None and cfg.table.profile == "test-extra"


def test_the_written_file_reads_back_with_what_was_given(tmp_path):
    given = {"hall.id": "kazan", "hall.tables": ["table-01", "table-02"], "broker.port": 8883,
             "directors.users": {"ann": "pbkdf2_sha256$1$a$b", "o'neil \"jr\"": "pbkdf2_sha256$1$c$d"},
             "web.insecure_login": True, "hall.name": 'Kazan "Open"\n2025'}
    text = config.to_toml(given)
    assert 'id = "kazan"' in text and '# port = 8090' in text  # the rest commented out at their defaults
    (tmp_path / "hall.toml").write_text(text, encoding="utf-8")
    cfg = config.load(tmp_path / "hall.toml")
    assert {k: cfg[k] for k in given} == given
    assert {k: v for k, v in cfg.values.items() if k not in given} == {
        k: v for k, v in config.defaults().values.items() if k not in given}
    written = tomllib.loads(config.to_toml({}))  # nothing given: every section there, every key commented out
    assert set(written) == set(config.SECTIONS) and all(v == {} for v in written.values())
