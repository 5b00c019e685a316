"""What a bot type's ``build`` may use besides its own settings."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..config.settings import Config
from ..content.prompts import PromptSet
from ..knowledge.index import KnowledgeBase
from ..models.endpoints import Endpoint
from ..models.llm import ClientPool


@dataclass(frozen=True)
class BotContext:
    """What ``build`` may use besides the type's own settings (the built-in bot needs them all)."""

    config: Config
    endpoints: Mapping[str, Endpoint]
    pool: ClientPool
    prompts: PromptSet
    knowledge: KnowledgeBase | Callable[[], KnowledgeBase]

    def knowledge_base(self) -> KnowledgeBase:
        """The knowledge folder, indexed now if it was passed as a callable (only the bots that
        ask for it pay for indexing)."""
        return self.knowledge() if callable(self.knowledge) else self.knowledge
