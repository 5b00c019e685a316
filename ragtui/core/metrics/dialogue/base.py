"""What a dialogue metric receives: the whole conversation, turn by turn.

Turn metrics look at one answer; dialogue metrics (``resolution``, ``retention``,
``repetition``) look at the conversation as a whole, once it has ended. They return the same
``Judgment`` as turn metrics — scored 0–1, or unscored with the reason — and are stored as
versioned judgments of the session (``record.dialogue_verdicts``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ...config import paths
from ...content.prompts import PromptTemplate, load_prompt, prompt_path
from ...models.llm import DeltaCallback
from ...types.expectations import Expectation
from ...types.judgments import Judgment
from ...types.passages import Passage
from ...types.turns import is_done

LABELS = {"ja": ("お客様", "サポート"), "en": ("Customer", "Support")}
HUMAN_AGENT_LABEL = {"ja": "有人オペレーター（ボットではない）", "en": "Human agent (not the bot)"}


def load_bundled_fallback(prompts_dir: Path | None, language: str, kind: str) -> PromptTemplate:
    """The template from ``prompts_dir``; from the bundled prompts when that folder predates
    this kind, so a customised prompts folder keeps working (its own file wins once it exists)."""
    directory = prompts_dir or paths.bundled_dir("prompts")
    if not prompt_path(directory, language, kind).is_file():
        directory = paths.bundled_dir("prompts")
    return load_prompt(directory, language, kind)


@dataclass(frozen=True)
class DialogueTurn:
    turn: int
    customer: str  # the customer's message of this turn ("" when there is none)
    bot: str | None  # the bot's answer; None when the bot never answered (a final DONE)
    passages: list[Passage] = field(default_factory=list)
    # An imported conversation's human agent, when one wrote in this turn. The verdicts read the
    # dialogue as the customer lived it, so the agent is in the transcript — labelled as a person,
    # never as the bot, and never one of the bot's answers.
    agent: str | None = None


@dataclass(frozen=True)
class DialogueContext:
    turns: list[DialogueTurn]
    language: str
    stop_reason: str | None = None
    goal: str = ""  # the persona's "what counts as solved", when it has one
    # the scenario's ``expect`` / ``expect_not``, and its tags (which select the config's policies)
    expectations: tuple[Expectation, ...] = ()
    tags: tuple[str, ...] = ()

    @property
    def answered(self) -> list[DialogueTurn]:
        """Turns the bot answered (with any text at all)."""
        return [t for t in self.turns if t.bot is not None and t.bot.strip()]

    def customer_lines(self) -> list[tuple[int, str]]:
        """The customer's messages, without a closing DONE (it states no need)."""
        return [(t.turn, t.customer) for t in self.turns if t.customer.strip() and not is_done(t.customer)]

    def transcript(self, from_turn: int = 1) -> str:
        customer, agent = LABELS.get(self.language, LABELS["en"])
        lines = []
        for t in self.turns:
            if t.turn < from_turn:
                continue
            if t.customer.strip():
                lines.append(f"[{t.turn}] {customer}: {t.customer.strip()}")
            if t.bot is not None:
                lines.append(f"[{t.turn}] {agent}: {t.bot.strip() or '(empty)'}")
            if t.agent is not None and t.agent.strip():
                human = HUMAN_AGENT_LABEL.get(self.language, HUMAN_AGENT_LABEL["en"])
                lines.append(f"[{t.turn}] {human}: {t.agent.strip()}")
        return "\n".join(lines)

    def customer_transcript(self) -> str:
        customer = LABELS.get(self.language, LABELS["en"])[0]
        return "\n".join(f"[{turn}] {customer}: {text.strip()}" for turn, text in self.customer_lines())

    def passages(self) -> list[Passage]:
        """Every passage the bot was given, once each, in order."""
        seen: dict[tuple[str, str], Passage] = {}
        for t in self.turns:
            for p in t.passages:
                seen.setdefault((p.doc_id, p.text), p)
        return list(seen.values())


def metric_applies(metric: object, context: DialogueContext) -> bool:
    """Whether a dialogue metric has anything to judge here. A metric may define
    ``applies(context)``; one that does not always applies. One that does not apply stores no
    verdict at all (``expectations`` on a scenario without any)."""
    applies = getattr(metric, "applies", None)
    return bool(applies(context)) if callable(applies) else True


class DialogueMetric(Protocol):
    name: str

    async def judge(self, context: DialogueContext, on_delta: DeltaCallback | None = None) -> Judgment:
        """Judge the whole dialogue. Raises EndpointError when the judge cannot be reached."""
        ...
