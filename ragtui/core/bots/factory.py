"""The bot under test, as the config's ``[bot]`` table describes it."""

from __future__ import annotations

from collections.abc import Callable

from ..config import Config
from ..content.knowledge import KnowledgeBase
from ..content.prompts import PromptSet
from ..errors import ConfigError
from ..models.endpoints import Endpoint
from ..models.llm import ClientPool
from .base import Bot
from .builtin_rag import BuiltinRagBot
from .http_bot import HttpBot
from .http_request import check_env
from .openai_bot import OpenAIBot, openai_endpoint
from .python_bot import PythonBot


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
    if settings.type == "builtin":
        if "bot" not in endpoints:
            raise ConfigError("the built-in bot needs the bot role's endpoint, which was not resolved")
        kb = knowledge() if callable(knowledge) else knowledge
        return BuiltinRagBot(pool.client_for(endpoints["bot"]), prompts.bot, kb, config.top_k)
    if settings.type == "http" and settings.http is not None:
        check_env(settings.http)
        return HttpBot(settings.http)
    if settings.type == "openai" and settings.openai is not None:
        return OpenAIBot(settings.openai, pool.client_for(openai_endpoint(settings.openai)))
    if settings.type == "python" and settings.python is not None:
        return PythonBot(settings.python)
    raise ConfigError(f"bot type {settings.type!r} has no settings")
