"""The ``[bot]`` table: which bot is under test and how to talk to it.

::

    [bot]
    type = "http"                       # builtin (default) | http | openai | python | a plugin's type
    url = "http://127.0.0.1:8765/chat"
    headers = { Authorization = "Bearer ${SUPPORT_BOT_TOKEN}" }   # ${NAME}: read at request time
    body = { question = "{{question}}", history = "{{history}}", session_id = "{{session_id}}" }
    answer_path = "answer"
    passages_path = "passages"

Each type declares its keys, their defaults and how they are read beside its adapter
(``bots/http_settings.py``, ``openai_settings.py``, ``python_settings.py``; the list of types is
``registry/bots.py``) and in the README. Like the rest of the config, secrets never live here:
header and query values name environment variables with ``${NAME}``, expanded only when a request
is sent, and a header that looks like a credential but names no variable is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..registry import bots as registry
from ..text.json_path import JsonPath
from ..text.redaction import looks_like_a_key
from ..types.errors import ConfigError
from .toml_io import expect_type, reject_unknown_keys

PASSAGE_KEYS = {"passages_path", "passage_text", "passage_title", "passage_source"}
# A whole reply's time limit (the roles' endpoints and the bots under test). ``timeout`` alone
# never stops a server that trickles a piece just inside it; five minutes is far beyond any sound
# reply, even the embedded model's on a busy CPU.
DEFAULT_REPLY_TIMEOUT = 300.0
# Names that moved beside their adapters, still importable from here.
_MOVED = {
    "http_settings": (
        "HttpBotConfig", "HTTP_KEYS", "STREAM_MODES", "SLOTS", "LIST_SLOTS", "HEADER_SLOTS", "SLOT", "ENV_REF",
        "SECRET_NAME", "DEFAULT_BODY", "check_env_refs", "check_slots",
    ),
    "openai_settings": ("OpenAIBotConfig", "OPENAI_KEYS"),
    "python_settings": ("PythonBotConfig", "PYTHON_KEYS", "HISTORY_FORMATS"),
}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name == "BOT_TYPES":
        return registry.bot_type_names()
    for module, names in _MOVED.items():
        if name in names:
            import importlib

            return getattr(importlib.import_module(f"ragtui.core.bots.{module}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class PassageMapping:
    """Where the passages are (``path``), and, inside each passage object, its text, title and
    source. A passage that is a plain string is its own text."""

    path: JsonPath | None
    text: JsonPath = JsonPath.parse("text")
    title: JsonPath = JsonPath.parse("title")
    source: JsonPath = JsonPath.parse("source")


@dataclass
class BotConfig:
    type: str = "builtin"
    settings: Any = None  # what the type's parser made of the [bot] table (None for builtin)

    @property
    def http(self) -> Any:
        return self.settings if self.type == "http" else None

    @property
    def openai(self) -> Any:
        return self.settings if self.type == "openai" else None

    @property
    def python(self) -> Any:
        return self.settings if self.type == "python" else None

    def public(self) -> dict[str, Any]:
        """Safe to print and store: URLs without credentials, header *names* only."""
        bot_type = registry.find_bot_type(self.type)
        shown = bot_type.public(self.settings) if bot_type is not None and self.settings is not None else {}
        return {"type": self.type, **shown}


def check_key_env(value: str, where: str) -> None:
    """``api_key_env`` names a variable; a value that looks like a key itself is refused
    without ever being repeated (it would land in logs and on screen)."""
    if looks_like_a_key(value):
        raise ConfigError(
            f"{where} api_key_env must be the name of an environment variable (like OPENAI_API_KEY), "
            "but its value looks like a key itself (not shown)",
            "put the key in an environment variable, name that variable here, and treat the key as exposed",
        )


def parse_bot(table: dict[str, Any], where: str, base: Path) -> BotConfig:
    """The ``[bot]`` table → ``BotConfig``; errors name ``where`` (file and table) and the key."""
    kind = expect_type(table.get("type", "builtin"), str, f"{where} type")
    bot_type = registry.find_bot_type(kind)
    if bot_type is None:
        raise ConfigError(f"{where} type must be one of {', '.join(registry.bot_type_names())}, got {kind!r}")
    if bot_type.keys and "api_key" in table:
        raise ConfigError(
            f"{where}: api_key is not read from files, so it never ends up in a repository",
            "put the key in an environment variable and name it with api_key_env (or ${NAME} in headers)",
        )
    reject_unknown_keys(table, {"type", *bot_type.keys}, f"{where} (type {kind})")
    return BotConfig(type=kind, settings=bot_type.parse(table, where, base))


class TableValues:
    """Typed, located access to the keys of a [bot] table (for every type's parser)."""

    def __init__(self, table: dict[str, Any], where: str) -> None:
        self.table, self.where = table, where

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        return expect_type(self.table[key], kind, f"{self.where} {key}") if key in self.table else default

    def required(self, key: str, kind: type) -> Any:
        if key not in self.table:
            raise ConfigError(f"{self.where} needs {key} for type {self.table.get('type')!r}")
        return self.get(key, kind)

    def positive(self, key: str, default: float | None) -> float | None:
        value = self.get(key, (int, float), default)
        if value is not None and value <= 0:
            raise ConfigError(f"{self.where} {key} must be positive, got {value}")
        return None if value is None else float(value)

    def count(self, key: str, default: int) -> int:
        value = self.get(key, int, default)
        if value < 0:
            raise ConfigError(f"{self.where} {key} must be 0 or more, got {value}")
        return value

    def path(self, key: str, default: str | None) -> JsonPath | None:
        text = self.get(key, str, default)
        if text is None:
            return None
        try:
            return JsonPath.parse(text)
        except ValueError as exc:
            raise ConfigError(f"{self.where} {key}: {exc}") from None

    def passages(self, default_path: str | None) -> PassageMapping:
        return PassageMapping(
            self.path("passages_path", default_path),
            self.path("passage_text", "text"),  # type: ignore[arg-type]
            self.path("passage_title", "title"),  # type: ignore[arg-type]
            self.path("passage_source", "source"),  # type: ignore[arg-type]
        )
