"""``[bot] type = "faq"``: a bot that answers from a table of keywords in the config.

::

    [bot]
    type = "faq"
    fallback = "Sorry, I can only help with refunds and passwords."
    [bot.answers]
    refund = "Refunds take 5 business days."
    password = "Use 'Forgot password' on the sign-in page."

The first keyword found in the customer's message (case-insensitive) picks the answer; none
found, the fallback.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragtui.core.bots.base import BotAnswer
from ragtui.core.bots.context import BotContext
from ragtui.core.config.bot_config import TableValues
from ragtui.core.registry.bots import BotType
from ragtui.core.types.calls import CallUsage
from ragtui.core.types.errors import ConfigError


@dataclass(frozen=True)
class FaqSettings:
    answers: dict[str, str]
    fallback: str


def parse(table: dict[str, Any], where: str, base: Path) -> FaqSettings:
    """The [bot] table → settings. Runs when the config is read: errors name ``where`` and the key."""
    values = TableValues(table, where)
    answers = values.required("answers", dict)
    for keyword, answer in answers.items():
        if not isinstance(answer, str) or not answer.strip():
            raise ConfigError(f"{where} answers.{keyword} must be a non-empty string")
    return FaqSettings({k.lower(): v for k, v in answers.items()}, values.get("fallback", str, "Sorry, I don't know."))


class FaqBot:
    name = "FAQ bot"

    def __init__(self, settings: FaqSettings) -> None:
        self.settings = settings

    def public(self) -> dict[str, object]:
        """What a run stores about the bot (no secrets here, so all of it)."""
        return {"type": "faq", "keywords": sorted(self.settings.answers)}

    async def answer(self, history: list[Any], on_delta: Any = None) -> BotAnswer:
        question = history[-1].text.lower() if history else ""
        text = next((a for k, a in self.settings.answers.items() if k in question), self.settings.fallback)
        if on_delta is not None:
            on_delta(text)
        return BotAnswer(text=text, usage=CallUsage(model="faq"))


def build(settings: FaqSettings, context: BotContext) -> FaqBot:
    return FaqBot(settings)


FAQ = BotType(
    "faq",
    build,
    keys=frozenset({"answers", "fallback"}),
    parse=parse,
    public=lambda s: {"keywords": sorted(s.answers)},
)
