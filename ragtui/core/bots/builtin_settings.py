"""The ``[bot] type = "builtin"`` bot (the default): ragtui's own RAG bot over the knowledge
folder (``builtin_rag.py``, named by its path), on the bot role's endpoint. It takes no keys of its own."""

from __future__ import annotations

from ..registry.bots import BotType

BUILTIN = BotType("builtin", "ragtui.core.bots.builtin_rag:build", order=0, uses_bot_role=True)
