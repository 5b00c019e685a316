"""The one module a ragtui plugin imports: every name a metric, a bot type, a knowledge-base
format or a conversation format needs, whatever ragtui's inside is called this release.

A plugin declares its objects under ragtui's entry point groups (``ragtui.metrics``,
``ragtui.bots``, ``ragtui.loaders``, ``ragtui.conversations``) — the same way ragtui declares its
own built-ins — and imports only from here::

    from ragtui.plugin import DIALOGUE, Judgment, MetricInfo, Verdict

The names below are the plugin API. ``PLUGIN_API_VERSION`` is ``"MAJOR.MINOR"``: a release
that adds a name raises MINOR; one that renames or removes a name, or changes what a field
means, raises MAJOR. A plugin can check it at import (``require_api("1.0")``) and fail with
one clear line instead of a deep ``ImportError``. docs/plugins.md has worked examples;
tests/plugins and examples/ragtui-plugin-example import nothing else of ragtui.

Nothing inside ragtui imports this module (the layering test puts it on top).
"""

from __future__ import annotations

from .core.bots.base import Bot, BotAnswer
from .core.bots.context import BotContext
from .core.config.bot_table import BotTable
from .core.config.rules import invalid
from .core.content.prompts import PromptTemplate, load_prompt
from .core.metrics.base import Metric, TurnContext
from .core.metrics.dialogue.base import DialogueContext, DialogueMetric, DialogueTurn
from .core.models.llm import ChatClient, DeltaCallback
from .core.registry.bots import BotType
from .core.registry.conversation_loaders import ConversationInput, ConversationLoader
from .core.registry.loaders import DocumentLoader
from .core.registry.metrics import (
    BINARY,
    DIALOGUE,
    EXPECTATION_RATE,
    GRADED,
    RESOLUTION_RATE,
    TURN,
    MetricClass,
    MetricInfo,
)
from .core.types.calls import CallUsage
from .core.types.conversations import ImportProblem, RawConversation, RawMessage
from .core.types.errors import KnowledgeFileError
from .core.types.judgments import Judgment
from .core.types.knowledge import Document, Section
from .core.types.passages import Passage
from .core.types.stored import StoredDialogueJudgment
from .core.types.turns import Utterance
from .core.types.verdicts import Verdict

PLUGIN_API_VERSION = "1.0"


class PluginAPIError(ImportError):
    """The installed ragtui's plugin API is not the one a plugin was written for."""


def require_api(version: str) -> None:
    """Raise ``PluginAPIError`` unless this ragtui serves plugin API ``version`` ("MAJOR.MINOR"):
    the same MAJOR, and at least that MINOR."""
    want = tuple(int(part) for part in version.split("."))
    have = tuple(int(part) for part in PLUGIN_API_VERSION.split("."))
    if want[0] != have[0] or want[1:] > have[1:]:
        raise PluginAPIError(
            f"this plugin needs ragtui plugin API {version}; the installed ragtui has {PLUGIN_API_VERSION}"
        )


__all__ = [
    "BINARY",
    "DIALOGUE",
    "EXPECTATION_RATE",
    "GRADED",
    "PLUGIN_API_VERSION",
    "RESOLUTION_RATE",
    "TURN",
    "Bot",
    "BotAnswer",
    "BotContext",
    "BotTable",
    "BotType",
    "CallUsage",
    "ChatClient",
    "ConversationInput",
    "ConversationLoader",
    "DeltaCallback",
    "DialogueContext",
    "DialogueMetric",
    "DialogueTurn",
    "Document",
    "DocumentLoader",
    "ImportProblem",
    "Judgment",
    "KnowledgeFileError",
    "Metric",
    "MetricClass",
    "MetricInfo",
    "Passage",
    "PluginAPIError",
    "PromptTemplate",
    "RawConversation",
    "RawMessage",
    "Section",
    "StoredDialogueJudgment",
    "TurnContext",
    "Utterance",
    "Verdict",
    "invalid",
    "load_prompt",
    "require_api",
]
