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
from typing import Any

from ..registry import bots as registry
from ..text.json_path import JsonPath
from ..types.errors import ConfigError
from .reader import read

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


@dataclass(frozen=True)
class NoKeys:
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
        read(NoKeys, keys, where, note=f"type {kind}")
        return BotConfig(type=kind)
    # The types' settings are pydantic models (``bot_table.BotTable``): imported with the first
    # ``[bot]`` table, so a config without one reads without them.
    from .validation import validate

    settings = validate(bot_type.settings, keys, where, note=f"type {kind}")
    read_from = getattr(settings, "read_from", None)
    if callable(read_from):
        read_from(where, base)
    return BotConfig(type=kind, settings=settings)
