"""The bot under test, as the config's ``[bot]`` table describes it."""

from __future__ import annotations

from collections.abc import Callable

from ..config.settings import Config
from ..content.prompts import PromptSet
from ..knowledge.index import KnowledgeBase
from ..models.endpoints import Endpoint
from ..models.llm import ClientPool
from ..registry.bots import find_bot_type
from ..types.errors import ConfigError
from .base import Bot
from .context import BotContext


def build_bot(
    config: Config,
    endpoints: dict[str, Endpoint],
    pool: ClientPool,
    prompts: PromptSet,
    knowledge: KnowledgeBase | Callable[[], KnowledgeBase],
) -> Bot:
    """Build the configured bot. ``knowledge`` may be a callable, so that only the built-in
    bot pays for indexing the knowledge folder. Raises ConfigError for what can be checked
    before a dialogue: a missing setting, an unset variable, a Python bot that does not import."""
    settings = config.bot
    bot_type = find_bot_type(settings.type)
    if bot_type is None:
        raise ConfigError(f"bot type {settings.type!r} is not known", "is the package that adds it installed?")
    if bot_type.settings is not None and settings.settings is None:
        raise ConfigError(f"bot type {settings.type!r} has no settings")
    return bot_type.make(settings.settings, BotContext(config, endpoints, pool, prompts, knowledge))
