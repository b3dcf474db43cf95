"""The base of a service's config class: the effective values by dotted key, the file they came from and its
lines, and the typed sections the subclass declares (``cfg.serial.baud``)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Self

from config_engine.schema import Schema


@dataclass(frozen=True)
class ConfigBase:
    """A service's configuration. A subclass declares its sections as fields without ``__init__``::

        @dataclass(frozen=True)
        class Config(ConfigBase):
            serial: SerialSection = field(init=False, repr=False, compare=False)

        Config.schema = Schema(Config, retired=..., cross_checks=..., error=ConfigError)

    and reads ``cfg.serial.baud`` (typed, frozen); ``cfg["serial.baud"]`` reads the same value untyped."""

    schema: ClassVar[Schema]

    values: dict[str, object]
    source: str  # the file read, or "defaults"
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)  # key -> line in the file

    def __post_init__(self) -> None:
        for name, section in self.schema.sections_of(self.values).items():
            object.__setattr__(self, name, section)

    @classmethod
    def defaults(cls) -> Self:
        return cls(cls.schema.default_values(), "defaults")

    @classmethod
    def check(cls, path: str | Path | None) -> tuple[Self | None, list[str]]:
        """Read and validate ``path`` (None: the defaults): (the config or None, every problem found — one line
        each, naming the file, the line and the key)."""
        if path is None:
            return cls.defaults(), []
        read = cls.schema.read(Path(path))
        if read.problems:
            return None, read.problems
        return cls(read.values, str(path), read.lines), []

    @classmethod
    def load(cls, path: str | Path | None) -> Self:
        """:meth:`check`, its problems raised as the schema's error."""
        cfg, problems = cls.check(path)
        if cfg is None:
            raise cls.schema.error(problems)
        return cfg

    def __getitem__(self, key: str) -> object:
        """The value of a dotted key as TOML gives it (``cfg["gpio.turn_leds"]`` is a list); the typed way is
        ``cfg.gpio.turn_leds``."""
        return self.values[key]

    def get(self, key: str, default: object = None) -> object:
        return self.values.get(key, default)

    def section(self, name: str) -> dict[str, object]:
        """A section as a plain dict of its keys (``gpio`` -> {"start_button": 5, ...})."""
        return {k.split(".", 1)[1]: v for k, v in self.values.items() if k.startswith(name + ".")}

    def with_overrides(self, **kv: object) -> Self:
        """A copy with ``section__key=value`` overrides (tests and the CLI), checked as a file's keys are."""
        over: Mapping[str, object] = {k.replace("__", "."): v for k, v in kv.items()}
        values = self.values | dict(over)
        problems = self.schema.validate(values, set(over))
        if problems:
            raise self.schema.error(problems)
        return type(self)(values, self.source, self.lines)
