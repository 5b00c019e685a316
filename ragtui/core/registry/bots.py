"""Every kind of bot ragtui can test (``[bot] type = ...``), each declared beside its adapter.

A ``BotType`` names the type, the model of its ``[bot]`` keys (a pydantic model, read when the
config is read, so its module must import nothing heavy), and how it makes the bot from those
settings (``build``, run before the first dialogue). ``build`` may be named by its module path
(``"ragtui.core.bots.http_bot:build"``): the adapter is then imported only when a bot is built,
and the settings module never imports its adapter. The built-in types are declared in
``builtin_settings``, ``http_settings``, ``openai_settings`` and ``python_settings``; other
packages add types through the ``ragtui.bots`` entry point group (docs/plugins.md), loaded once,
the first time a type is looked up. A plugin that fails to load is one warning line naming its
entry point; the built-in types keep working.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .plugins import LoadOnce

if TYPE_CHECKING:  # a type's settings model is pydantic's; reading a config without [bot] imports none
    from pydantic import BaseModel

ENTRY_POINT_GROUP = "ragtui.bots"


def _type_only(settings: Any) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class BotType:
    name: str
    # (settings, ragtui.core.bots.context.BotContext) → the bot; may raise ConfigError. Or its
    # "module:function" path, imported when a bot is built. Typed loosely here: the registry sits
    # below the bots, the config and the models it would name.
    build: Callable[[Any, Any], Any] | str
    # The pydantic model of its [bot] keys besides `type` (None: it takes none); errors in them are
    # reported like any config error, naming the file, the table and the key.
    settings: type[BaseModel] | None = None
    # settings → what is safe to print and store with a run (no credentials), besides the type
    public: Callable[[Any], dict[str, Any]] = _type_only
    order: int = 50  # place in listings and messages: the built-in types first
    # The bot answers with ragtui's own `bot` role (its endpoint and model), as the built-in RAG
    # bot does; an HTTP, OpenAI or Python bot brings its own, and the role is then not resolved.
    uses_bot_role: bool = False

    def make(self, settings: Any, context: Any) -> Any:
        """The bot, from ``build`` (importing its module first when it is named by path)."""
        build = self.build
        if isinstance(build, str):
            module, _, function = build.partition(":")
            build = getattr(importlib.import_module(module), function)
        return build(settings, context)


_types: dict[str, BotType] = {}


def register_bot(bot_type: BotType) -> BotType:
    existing = _types.get(bot_type.name)
    if existing is not None and existing is not bot_type:
        raise ValueError(f"a bot type named {bot_type.name!r} is already registered")
    _types[bot_type.name] = bot_type
    return bot_type


def _register_plugin(loaded: Any) -> None:
    if not isinstance(loaded, BotType):
        raise TypeError(f"it is {type(loaded).__name__}, not a ragtui BotType")
    register_bot(loaded)


_ensure_loaded = LoadOnce(ENTRY_POINT_GROUP, "bot type", _register_plugin)


def bot_type_names() -> tuple[str, ...]:
    _ensure_loaded()
    ranked = sorted(enumerate(_types.values()), key=lambda pair: (pair[1].order, pair[0]))
    return tuple(bot_type.name for _, bot_type in ranked)


def find_bot_type(name: str) -> BotType | None:
    _ensure_loaded()
    return _types.get(name)


def uses_bot_role(name: str) -> bool:
    """Whether the bot type ``name`` answers with ragtui's `bot` role (False for an unknown one)."""
    bot_type = find_bot_type(name)
    return bot_type is not None and bot_type.uses_bot_role
