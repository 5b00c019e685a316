"""The ``[bot] type = "builtin"`` bot (the default): ragtui's own RAG bot over the knowledge
folder (``builtin_rag.py``), on the bot role's endpoint. It takes no keys of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..registry.bots import BotType, register_bot
from ..types.errors import ConfigError
from .context import BotContext

if TYPE_CHECKING:
    from .base import Bot


def build(settings: Any, context: BotContext) -> Bot:
    from .builtin_rag import BuiltinRagBot

    if "bot" not in context.endpoints:
        raise ConfigError("the built-in bot needs the bot role's endpoint, which was not resolved")
    client = context.pool.client_for(context.endpoints["bot"])
    return BuiltinRagBot(client, context.prompts.bot, context.knowledge_base(), context.config.top_k)


BUILTIN = register_bot(BotType("builtin", build, order=0, uses_bot_role=True))
