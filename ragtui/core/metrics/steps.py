"""One JSON-constrained judge call per step, with one retry, recorded for inspection.

Every metric except the rubric is a short chain of such steps (split into statements, judge
each, explain). ``StepRunner`` does the part they share, following the rubric's pattern: the
reply is constrained by a JSON schema (enums, bounded strings, fixed array lengths), parsed by a
step-specific function, sent back once with the template's ``retry`` text when it cannot be
parsed, and recorded — prompt, raw replies, parsed result or error — in a ``trace`` that ends up
in the judgment's ``details``. A step that still fails makes the whole judgment unscored; the
metric never guesses a value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..content.prompts import PromptTemplate
from ..models.llm import ChatClient, Completion, DeltaCallback, Message, asked_again, usage_of
from ..types.judgments import Judgment, stamp_read
from .examples import Example, template_and_examples
from .json_reply import ReplyParseError, extract_json_object, lower_keys
from .level_question import ask_level
from .probability import YES_NO, fold_yes_no

if TYPE_CHECKING:
    from .metric_settings import MetricSettings

T = TypeVar("T")


@dataclass
class StepRecord:
    """What one step sent and got back; stored in ``details["trace"]``."""

    step: str
    prompt: list[Message]
    replies: list[str] = field(default_factory=list)
    result: Any = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "prompt": self.prompt,
            "replies": self.replies,
            "result": self.result,
            "error": self.error,
        }


class StepFailed(Exception):
    """A step's reply could not be parsed even after the retry; the judgment is unscored."""

    def __init__(self, step: str, reason: str) -> None:
        super().__init__(f"the {step} step's reply could not be parsed: {reason}")
        self.step = step


class StepRunner:
    """Runs the steps of one judgment and builds the ``Judgment`` from what they recorded."""

    def __init__(
        self,
        metric: str,
        client: ChatClient,
        template: PromptTemplate,
        examples: list[Example] | None = None,
        max_tokens: int = 700,
    ) -> None:
        self.metric = metric
        self.client = client
        self.template = template
        self.examples = examples or []
        self.max_tokens = max_tokens
        self.trace: list[StepRecord] = []
        self.completions: list[Completion] = []

    def messages(self, step: str, values: dict[str, str]) -> list[Message]:
        """System text, then the few-shot examples of this step as user/assistant turns, then
        the real request. Examples as earlier turns teach a small model the exact output shape
        better than examples pasted into the instructions."""
        messages: list[Message] = [{"role": "system", "content": self.template.parts["system"]}]
        for example in self.examples:
            if example.step == step:
                messages.append({"role": "user", "content": self.template.render(step, **example.inputs)})
                messages.append({"role": "assistant", "content": example.output_json})
        messages.append({"role": "user", "content": self.template.render(step, **values)})
        return messages

    async def run(
        self,
        step: str,
        values: dict[str, str],
        schema: dict[str, Any],
        parse: Callable[[dict[str, Any]], T],
        on_delta: DeltaCallback | None = None,
    ) -> T:
        """Ask, parse, retry once; return the parsed result or raise ``StepFailed``."""
        messages = self.messages(step, values)
        record = StepRecord(step, messages)
        self.trace.append(record)
        for attempt in (1, 2):
            completion = await self.client.complete(
                messages, json_schema=schema, max_tokens=self.max_tokens, on_delta=on_delta
            )
            self.completions.append(completion)
            record.replies.append(completion.text)
            try:
                result = parse(lower_keys(extract_json_object(completion.text)))
            except ReplyParseError as exc:
                record.error = str(exc)
                if attempt == 1:
                    asked_again(f"the judge's reply could not be read ({exc})")
                    messages = [
                        *messages,
                        {"role": "assistant", "content": completion.text},
                        {"role": "user", "content": self.template.parts["retry"]},
                    ]
                    record.prompt = messages
                continue
            record.error = None
            record.result = result
            return result
        raise StepFailed(step, record.error or "unknown")

    async def ask_yes_no(self, step: str, values: dict[str, str], on_delta: DeltaCallback | None = None) -> float:
        """A one-token yes/no step: P(yes) from the judge's probabilities (the sampled answer
        when the endpoint gives none), asked again once with ``retry`` when the reply is neither;
        raises ``StepFailed`` when it still is. No written reason: a reason costs most of a
        verdict's time on a small local model and did not make its answer agree more with people."""
        messages = self.messages(step, values)
        record = StepRecord(step, messages)
        self.trace.append(record)
        answer = await ask_level(self.client, messages, YES_NO, retry=self.template.parts["retry"], on_delta=on_delta)
        self.completions.extend(answer.completions)
        record.replies = [c.text for c in answer.completions]
        record.prompt = answer.messages
        graded = fold_yes_no(answer.graded)
        if graded.value is None:
            record.error = graded.error or "the reply was neither yes nor no"
            raise StepFailed(step, record.error)
        record.result = graded.to_dict()
        return graded.value

    def judgment(self, score: float | None, details: dict[str, Any], error: str | None = None) -> Judgment:
        """The judgment with every step's record in ``details["trace"]``; ``prompt`` and
        ``raw_reply`` are the last step's, as for the single-step rubric."""
        last = self.trace[-1] if self.trace else None
        completions = self.completions
        return Judgment(
            metric=self.metric,
            score=score,
            details=stamp_read({**details, "trace": [r.to_dict() for r in self.trace]}),
            prompt=last.prompt if last else [],
            raw_reply=last.replies[-1] if last and last.replies else "",
            error=error,
            **usage_of(completions).judgment_fields(),
        )


def bounded_text(value: Any, name: str, limit: int, *, allow_empty: bool = True) -> str:
    """A string field of a reply, trimmed to ``limit`` (the schema bounds it, but a server
    that ignored the schema must not fill the database with an essay)."""
    if not isinstance(value, str):
        raise ReplyParseError(f"{name} is missing or not text")
    text = value.strip()
    if not text and not allow_empty:
        raise ReplyParseError(f"{name} is empty")
    return text[:limit]


def choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """An enum field, tolerant of case and surrounding spaces only."""
    if not isinstance(value, str) or value.strip().lower() not in allowed:
        raise ReplyParseError(f"{name} must be one of {', '.join(allowed)}, got {str(value)[:30]!r}")
    return value.strip().lower()


def numbered(items: list[str]) -> str:
    return "\n".join(f"{i}. {text}" for i, text in enumerate(items, start=1))


class JudgeMetric:
    """What every metric that asks the judge model holds: its client, its template, few-shot
    examples, and the pass mark it reports against (from ``[thresholds]``)."""

    name: str
    default_threshold: float = 0.7

    def __init__(
        self,
        client: ChatClient,
        template: PromptTemplate,
        examples: list[Example] | None = None,
        threshold: float | None = None,
    ) -> None:
        self.client = client
        self.template = template
        self.examples = examples or []
        self.threshold = self.default_threshold if threshold is None else threshold

    @classmethod
    def build(cls, judge: ChatClient, prompts_dir: Path, language: str, settings: MetricSettings) -> JudgeMetric:
        """The metric as a dialogue runs it: its template, examples and pass mark loaded."""
        name = cls.info.name  # type: ignore[attr-defined]
        template, examples = template_and_examples(prompts_dir, language, name, settings.examples.get(name))
        return cls(judge, template, examples, settings.threshold(name))

    def example_turns(self, answer: Callable[[Example], str]) -> list[Message]:
        """Few-shot examples of a one-token question as earlier turns: the rendered input, then
        the level token ``answer`` gives for the example's output."""
        turns: list[Message] = []
        for example in self.examples:
            if example.step == "user":
                turns.append({"role": "user", "content": self.template.render("user", **example.inputs)})
                turns.append({"role": "assistant", "content": answer(example)})
        return turns
