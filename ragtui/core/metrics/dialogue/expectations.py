"""Expectations: did the bot say what the team says it must, and nothing it must never say?

Inputs: the scenario's ``expect`` / ``expect_not`` (carried by the ``DialogueContext``) and the
config's ``[[policy]]`` prohibitions whose tags select the scenario. Each expectation is checked
answer by answer, in turn order:

- a deterministic form (``contains``, ``regex``, ``not_contains``) in code, no model call;
- a judged one by one yes/no question per answer (``ExpectationJudge.check``: the customer's
  message, the answer, the expectation, read as P(yes)), the dialogue's text sent first as a
  shared prefix so the server's cache reads it once.

``must``: met at the first answer that meets it — no more questions about it (early stop);
missed when no answer does and every check was readable; unscored when none met it and some
check could not be read (an unreadable reply is no evidence either way). ``must_not``: broken at
the first answer that does it (early stop); kept when none does and every check was readable;
else unscored.

Score = share of the scored expectations that passed (met or kept); None when none could be
scored. A dialogue whose scenario has no expectations and to which no policy applies is not
judged at all (``applies``), so it stores no verdict.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...config.expectation_items import policies_for
from ...content.prompts import PromptTemplate
from ...models.llm import ChatClient, DeltaCallback
from ...store.expectation_cells import COLUMNS as EXPECTATION_COLUMNS
from ...store.expectation_cells import expectation_cells
from ...types.calls import CallUsage
from ...types.expectations import Expectation, ExpectationCheck, ExpectationResult, Status
from ...types.judgments import Judgment
from ...types.stored import StoredDialogueJudgment
from .base import DialogueContext
from .expectation_judge import MET_AT, AnswerToCheck, ExpectationJudge
from .expectation_trial import answers_to_try, check_answer
from .expectations_info import INFO
from .explain import expectation_lines
from .texts import dtext

if TYPE_CHECKING:
    from ..metric_settings import MetricSettings


def applicable(context: DialogueContext, policies: tuple[Expectation, ...]) -> list[Expectation]:
    """The scenario's expectations, then the policies its tags select."""
    return [*context.expectations, *policies_for(policies, context.tags)]


class Expectations:
    name = INFO.name
    info = INFO  # its description, importable without this judge (expectations_info)
    explain = staticmethod(expectation_lines)

    @staticmethod
    def csv_cells(verdict: StoredDialogueJudgment | None) -> list[str]:
        """Met, total, policies broken, and the missed ones named (``core.store.expectation_cells``)."""
        cells = expectation_cells(verdict)
        return [cells[column] for column in EXPECTATION_COLUMNS]

    def __init__(
        self,
        judge: ExpectationJudge | None,
        policies: tuple[Expectation, ...] = (),
        threshold: float = 1.0,
        judge_error: str | None = None,
        model: str = "",
    ) -> None:
        self.model = model  # the judge's model, recorded with the verdict
        self.checker = judge
        self.policies = policies
        self.threshold = threshold
        self.judge_error = judge_error  # why judged expectations cannot be checked (no judge)

    @property
    def template(self) -> PromptTemplate | None:
        """The checks' prompt: its fingerprint keys this judge's entry on the judge card."""
        return self.checker.template if self.checker is not None else None

    @property
    def scoring(self) -> str:
        """How the checks are scored beyond the template (``ExpectationJudge.scoring``): part of
        the fingerprint."""
        return self.checker.scoring if self.checker is not None else ""

    @classmethod
    def build(
        cls, judge: ChatClient, prompts_dir: Path | None, language: str, settings: MetricSettings
    ) -> Expectations:
        # Loading validates the template up front: a bad prompt fails before any dialogue.
        checker = ExpectationJudge(judge, prompts_dir, language)
        return cls(checker, settings.policies, settings.threshold(cls.name), model=judge.endpoint.model or "")

    def applies(self, context: DialogueContext) -> bool:
        return bool(applicable(context, self.policies))

    async def judge(self, context: DialogueContext, on_delta: DeltaCallback | None = None) -> Judgment:
        lang = context.language
        expectations = applicable(context, self.policies)
        base: dict[str, Any] = {"threshold": self.threshold}
        if not context.answered:
            why = dtext(lang, "no_answer")
            return Judgment(self.name, None, {**base, "no_answer": True, "conclusion": why}, error=why)
        prefix = context.transcript()
        answers = answers_to_try(context, None)
        results = [await self._result(e, answers, prefix) for e in expectations]
        return self.verdict(results, base, lang)

    def verdict(self, results: list[ExpectationResult], base: dict[str, Any], lang: str) -> Judgment:
        scored = [r for r in results if r.passed is not None]
        passed = sum(1 for r in scored if r.passed)
        broken = [r for r in results if r.expectation.origin == "policy" and r.status == "broken"]
        calls = sum(1 for r in results for c in r.checks if c.read != "code")
        details = {
            **base,
            "results": [r.to_dict() for r in results],
            "met": passed,
            "total": len(results),
            "scored": len(scored),
            "policies_broken": len(broken),
            "calls": calls,
            "conclusion": dtext(lang, "expectations", met=passed, total=len(results), broken=len(broken)),
        }
        used = [c.usage for r in results for c in r.checks if c.usage is not None]
        usage = CallUsage.of_calls(used) if used else CallUsage()
        if not scored:
            why = next((r.error for r in results if r.error), None) or dtext(lang, "expectations_unscored")
            return Judgment(
                self.name,
                None,
                details,
                error=why,
                attempts=max(1, calls),
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
                cached_tokens=usage.cached_tokens,
            )
        last = next((c for r in reversed(results) for c in reversed(r.checks) if c.prompt), None)
        return Judgment(
            self.name,
            passed / len(scored),
            details,
            prompt=last.prompt if last else [],
            raw_reply=last.reply if last else "",
            model=self.model,
            attempts=max(1, calls),
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cached_tokens=usage.cached_tokens,
        )

    async def _result(self, expectation: Expectation, answered: list[AnswerToCheck], prefix: str) -> ExpectationResult:
        checks: list[ExpectationCheck] = []
        for answer in answered:
            check = await check_answer(expectation, answer, self.checker, prefix, self.judge_error)
            checks.append(check)
            if check.p_yes is not None and check.p_yes >= MET_AT:  # early stop: decided
                status: Status = "met" if expectation.polarity == "must" else "broken"
                return ExpectationResult(expectation, status, answer.turn, checks)
        unreadable = [c for c in checks if c.p_yes is None]
        if unreadable:
            why = unreadable[0].error or "the judge's reply could not be read"
            return ExpectationResult(expectation, "unscored", None, checks, f"turn {unreadable[0].turn}: {why}")
        return ExpectationResult(expectation, "missed" if expectation.polarity == "must" else "kept", None, checks)
