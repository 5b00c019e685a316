"""The ``[bot]`` table: which bot is under test and how to talk to it.

::

    [bot]
    type = "http"                       # builtin (default) | http | openai | python | a plugin's type
    url = "http://127.0.0.1:8765/chat"
    headers = { Authorization = "Bearer ${SUPPORT_BOT_TOKEN}" }   # ${NAME}: read at request time
    body = { question = "{{question}}", history = "{{history}}", session_id = "{{session_id}}" }
    answer_path = "answer"
    passages_path = "passages"

Each type declares its keys and their defaults as a ``BotTable`` model beside its adapter
(``bots/http_settings.py``, ``openai_settings.py``, ``python_settings.py``; the list of types is
``registry/bots.py``) and in the README; ``parse_bot`` reads the table with the type's model. Like the rest of the config, secrets never live here:
header and query values name environment variables with ``${NAME}``, expanded only when a request
is sent, and a header that looks like a credential but names no variable is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator, PrivateAttr, model_validator

from ..registry import bots as registry
from ..text.json_path import JsonPath
from ..types.errors import ConfigError
from .validation import TomlTable, invalid, validate

# A whole reply's time limit (the roles' endpoints and the bots under test). ``timeout`` alone
# never stops a server that trickles a piece just inside it; five minutes is far beyond any sound
# reply, even the embedded model's on a busy CPU.
DEFAULT_REPLY_TIMEOUT = 300.0
# Names that moved beside their adapters, still importable from here.
_MOVED = {
    "http_settings": (
        "HttpBotConfig", "STREAM_MODES", "SLOTS", "LIST_SLOTS", "HEADER_SLOTS", "SLOT", "ENV_REF",
        "SECRET_NAME", "DEFAULT_BODY",
    ),
    "openai_settings": ("OpenAIBotConfig",),
    "python_settings": ("PythonBotConfig", "HISTORY_FORMATS"),
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


def json_path(value: object) -> object:
    """A JSON path as the file writes it (``"choices[0].message"``)."""
    if not isinstance(value, str):
        raise invalid(f"must be str, got {type(value).__name__} {value!r}")
    try:
        return JsonPath.parse(value)
    except ValueError as exc:
        raise invalid(f": {exc}") from None


JsonPathText = Annotated[JsonPath, BeforeValidator(json_path)]


class BotTable(TomlTable):
    """The ``[bot]`` table of one type, less ``type``: each type's settings model derives from it.
    After reading, ``where`` (file and table) names it in messages and ``base`` is the config
    file's folder."""

    _where: str = PrivateAttr("[bot]")
    _base: Path | None = PrivateAttr(None)

    @model_validator(mode="before")
    @classmethod
    def _no_key(cls, data: Any) -> Any:
        if isinstance(data, dict) and "api_key" in data:
            raise invalid(
                ": api_key is not read from files, so it never ends up in a repository",
                "put the key in an environment variable and name it with api_key_env (or ${NAME} in headers)",
            )
        return data

    @property
    def where(self) -> str:
        return self._where

    @property
    def base(self) -> Path | None:
        return self._base


class PassageKeys(BotTable):
    """The keys that say where a bot's answer keeps its passages (``bots/mapping.py``)."""

    passages_path: JsonPathText | None = None
    passage_text: JsonPathText = JsonPath.parse("text")
    passage_title: JsonPathText = JsonPath.parse("title")
    passage_source: JsonPathText = JsonPath.parse("source")

    @property
    def passages(self) -> PassageMapping:
        return PassageMapping(self.passages_path, self.passage_text, self.passage_title, self.passage_source)


class NoKeys(TomlTable):
    """The table of a type that takes no keys of its own (``builtin``)."""


@dataclass
class BotConfig:
    type: str = "builtin"
    settings: Any = None  # the type's settings model, read from the [bot] table (None for builtin)

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


def parse_bot(table: dict[str, Any], where: str, base: Path) -> BotConfig:
    """The ``[bot]`` table → ``BotConfig``; errors name ``where`` (file and table) and the key."""
    kind = table.get("type", "builtin")
    if not isinstance(kind, str):
        raise ConfigError(f"{where} type must be str, got {type(kind).__name__} {kind!r}")
    bot_type = registry.find_bot_type(kind)
    if bot_type is None:
        raise ConfigError(f"{where} type must be one of {', '.join(registry.bot_type_names())}, got {kind!r}")
    keys = {k: v for k, v in table.items() if k != "type"}
    if bot_type.settings is None:
        validate(NoKeys, keys, where, note=f"type {kind}")
        return BotConfig(type=kind)
    settings = validate(bot_type.settings, keys, where, note=f"type {kind}")
    if isinstance(settings, BotTable):
        settings._where, settings._base = where, base
    return BotConfig(type=kind, settings=settings)
