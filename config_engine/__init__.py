"""One configuration engine for the table (``controller/config.py``) and the hall (``hall/config.py``): each
service declares only its schema — a frozen dataclass per TOML section, each field a :func:`key` (type,
default, help, allowed values, check) — and the engine does the rest: the defaults, TOML flattened into
dotted keys, every problem at once as ``FILE:LINE: KEY: what is wrong``, the closest known key for an unknown
one (difflib), what replaced a retired one, checks across keys, and the schema written back as a commented
TOML file. It imports nothing of the project, so both services may use it."""
from config_engine.config import ConfigBase
from config_engine.keys import Check, Choices, Key, key
from config_engine.schema import ConfigError, CrossCheck, Reading, Schema
from config_engine.source import key_lines, line_of, where
from config_engine.writer import to_toml, toml_value

__all__ = ["Check", "Choices", "ConfigBase", "ConfigError", "CrossCheck", "Key", "Reading", "Schema", "key",
           "key_lines", "line_of", "to_toml", "toml_value", "where"]
