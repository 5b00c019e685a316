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

from typing import Annotated, Any

from pydantic import AfterValidator

from ragtui.plugin import BotAnswer, BotContext, BotTable, BotType, CallUsage, invalid


def keywords(answers: dict[str, str]) -> dict[str, str]:
    """Keywords match case-insensitively, and every answer says something."""
    for keyword, answer in answers.items():
        if not answer.strip():
            raise invalid(f".{keyword} is empty", "write the answer for this keyword")
    return {k.lower(): v for k, v in answers.items()}


class FaqSettings(BotTable):
    """The [bot] keys besides ``type``, read when the config is read: an unknown key, a wrong
    type or a missing key is one error line naming the file, the table and the key."""

    answers: Annotated[dict[str, str], AfterValidator(keywords)]
    fallback: str = "Sorry, I don't know."


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


FAQ = BotType("faq", build, settings=FaqSettings, public=lambda s: {"keywords": sorted(s.answers)})
