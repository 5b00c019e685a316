"""One yes/no question to the judge: does this bot answer meet (or do) this expectation?

A team's expectation ("says unused time is not refunded") is one concrete question, which a small
judge answers far better than a holistic grade. Each check is one call with a one-token reply
(``ask_level``), read as P(yes) from the judge's probabilities; without probabilities the sampled
yes/no is used and marked ``read="sampled"``; a reply naming neither leaves the check unscored
(``p_yes`` None, ``read="none"``, ``error`` set) — never a number.

The prompt holds only what the question needs: the customer's message, the answer and the
expectation (the passages too when ``use_passages`` is on). The dialogue's text, when given as
``shared_prefix``, comes first — after the fixed system text — so the server's prompt cache reuses
it across every check of the dialogue.

A prohibition (``polarity="must_not"``: "promises a refund", or a policy "never asks for a
password") is asked about the forbidden act itself — "does the answer promise a refund?" — never
as "does the answer *not* promise a refund?", which the embedded judge reads at chance
(docs/expectations-agreement.md). So ``p_yes`` is P(the act was done) for both polarities' own
sense: P(met) for "must", P(broken) for "must_not".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ...content.prompts import PromptTemplate
from ...models.llm import ChatClient, Message, usage_of
from ...text.prohibition import forbidden_act
from ...text.sentences import split_sentences
from ...types.calls import CallUsage
from ...types.errors import ConfigError, EndpointError, IncompleteReply
from ...types.expectations import Expectation, ExpectationCheck
from ...types.passages import Passage
from ..level_question import ask_level
from ..probability import YES_NO, fold_yes_no
from ..rubric import format_passages
from . import expectation_overlap
from .base import load_bundled_fallback
from .expectation_parts import split_parts
from .expectations_info import EXPECTATION_PROMPTS, KIND

MET_AT: float = 0.5  # p_yes at or above: the answer meets (polarity must) / does (must_not) the expectation

# The embedded judge says "no" far more than it means it: on the labelled set's choose half its
# P(yes) for met expectations sat near 0.15–0.5 and for missed ones near 0.02–0.1 (AUC 0.86–0.91),
# so 0.5 missed most paraphrases. Its raw P(yes) at these values is where κ peaked on that half;
# ``check`` moves the logit so that raw value reads as MET_AT (docs/expectations-agreement.md).
# Other judges get their raw P(yes): nothing was measured for them.
EMBEDDED_RAW_MET_AT: dict[str, float] = {"en": 0.17, "ja": 0.11}
# The embedded judge's P(the act was done) at which a prohibition reads as broken, where a language
# has its own (docs/expectations-agreement.md, "Prohibition checks: levers"); the cut above
# otherwise. In a language of CALIBRATED_LANGUAGES it is a cut on the calibrated P (the act read
# against a content-free answer, ``act_calibrated``), where the null answer sits at 0.5.
EMBEDDED_RAW_BROKEN_AT: dict[str, float] = {"en": 0.70}
# Where the embedded judge reads a prohibition against a content-free answer (``act_calibrated``):
# on the grown labelled halves it lifted English (report half: broken caught 5/10 → 9/10, kept
# passed 8/10 both times) and cost Japanese (6/10 → 2/10), so English only.
CALIBRATED_LANGUAGES: tuple[str, ...] = ("en",)
# What ``act_calibrated`` adds to the judge's prompt fingerprint (its scores differ from the plain
# check's, so a fit or judge-card row measured without it is not its own).
CALIBRATED_SCORING = "prohibition-against-null-answer/1"
# The content-free answer an act is asked of for ``act_calibrated``.
NULL_ANSWER = "N/A"
# ``must_not_contrast``'s reply: A = the answer does the act, B = it does not.
CHOICE: dict[str, float] = {"a": 1.0, "b": 0.0}
# Splitting a two-part expectation helped in English and hurt in Japanese on the choose half.
SPLIT_LANGUAGES: tuple[str, ...] = ("en",)


def shifted(p: float, raw_met_at: float) -> float:
    """``p`` with its logit moved so ``raw_met_at`` becomes MET_AT (monotonic: ranks unchanged)."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    logit = math.log(p / (1 - p)) - math.log(raw_met_at / (1 - raw_met_at)) + math.log(MET_AT / (1 - MET_AT))
    return 1 / (1 + math.exp(-logit))


@dataclass(frozen=True)
class AnswerToCheck:
    turn: int
    question: str  # the customer's message this answer replies to
    answer: str
    passages: list[Passage]


class ExpectationJudge:
    """Asks the judge about one expectation and one answer; see the module docstring."""

    # The levers measured in docs/expectations-agreement.md; the chosen values are the defaults.
    use_passages: bool = False  # show the judge the passages the bot had
    decide_in_code: bool = True  # what overlap decides safely, without a call (expectation_overlap)
    split_parts: bool = True  # a two-part expectation asked part by part (expectation_parts; SPLIT_LANGUAGES)
    # Also ask the template's second phrasing (``must_again`` / ``must_not_again``): met, or broken,
    # when either phrasing says yes (P = the larger); one more call per check.
    second_phrasing: bool = False
    # A prohibition asked with ``must_not_wide``: doing the act in other words, or naming or
    # describing one case of it, counts as doing it.
    wide_act: bool = False
    # A prohibition shown the passages the bot had (must expectations are not, unless
    # ``use_passages``): the passage names the product and its rules, so a competitor or a false
    # consequence can stand out.
    act_passages: bool = False
    # A prohibition asked as a choice (``must_not_contrast``): "A) the ANSWER does the act, B) it
    # does not"; P = P(A).
    act_contrast: bool = False
    # A prohibition asked of each sentence of the answer on its own (the answer's other sentences
    # left out); broken when any sentence does the act (P = the largest). One call per sentence.
    act_by_sentence: bool = False
    # A prohibition's P(act) measured against the same act asked of a content-free answer
    # (NULL_ANSWER, to the same question; asked once per act and question): P = σ(logit P(act |
    # answer) − logit P(act | "N/A")), so an act the judge leans to (or away from) whatever the
    # answer says starts level. The null answer reads as 0.5: its cut is its own.
    act_calibrated: bool = False

    def __init__(self, client: ChatClient, prompts_dir: Path | None, language: str) -> None:
        self.client = client
        self.language = language
        self.template: PromptTemplate = load_bundled_fallback(prompts_dir, language, KIND)
        self.split_parts = language in SPLIT_LANGUAGES
        endpoint = getattr(client, "endpoint", None)
        embedded = bool(getattr(endpoint, "embedded", False))
        # Raw P(yes) that reads as met; MET_AT itself for any judge but the measured embedded one.
        self.raw_met_at = EMBEDDED_RAW_MET_AT.get(language, MET_AT) if embedded else MET_AT
        # Raw P(the act was done) that reads as broken (a prohibition's own cut, the bench's lever).
        self.raw_broken_at = EMBEDDED_RAW_BROKEN_AT.get(language, self.raw_met_at) if embedded else MET_AT
        self.act_calibrated = embedded and language in CALIBRATED_LANGUAGES
        self._null_p: dict[str, float | None] = {}  # act_calibrated: P(act | NULL_ANSWER) per prompt

    @property
    def scoring(self) -> str:
        """How the checks are scored beyond the template, for the prompt fingerprint: empty for the
        plain check."""
        return CALIBRATED_SCORING if self.act_calibrated else ""

    def _key(self, expectation: Expectation, again: bool = False) -> str:
        """The template part that asks this check: ``must`` / ``must_not`` (``must_not_wide`` with
        ``wide_act``), or its second phrasing."""
        if again:
            return f"{expectation.polarity}_again"
        if expectation.polarity == "must_not" and self.act_contrast:
            return "must_not_contrast"
        return "must_not_wide" if expectation.polarity == "must_not" and self.wide_act else expectation.polarity

    def _require(self, key: str) -> str:
        if key not in self.template.parts:
            raise ConfigError(
                f"{self.template.path or KIND}: no {key!r} to ask with",
                f"add {key!r} to the template, or turn off the lever that asks with it",
            )
        return key

    def messages(
        self, expectation: Expectation, answer: AnswerToCheck, shared_prefix: str = "", key: str | None = None
    ) -> list[Message]:
        """System text, then the dialogue (shared by every check of it), then this check
        (asked with template part ``key``; the lever's choice when None)."""
        key = self._require(key or self._key(expectation))
        parts: list[str] = []
        if shared_prefix.strip():
            parts.append(self.template.render("dialogue", dialogue=shared_prefix.strip()))
        shown = self.use_passages or (self.act_passages and expectation.polarity == "must_not")
        if shown and answer.passages:
            parts.append(self.template.render("passages", context=format_passages(answer.passages, self.language)))
        question = answer.question.strip() or "-"
        if expectation.polarity == "must_not":
            parts.append(
                self.template.render(
                    key,
                    question=question,
                    answer=answer.answer.strip(),
                    act=forbidden_act(expectation.text, self.language),
                )
            )
        else:
            parts.append(
                self.template.render(
                    key, question=question, answer=answer.answer.strip(), expectation=expectation.text.strip()
                )
            )
        return [
            {"role": "system", "content": self.template.parts["system"].strip()},
            {"role": "user", "content": "\n\n".join(p.strip() for p in parts)},
        ]

    async def check(self, expectation: Expectation, answer: AnswerToCheck, shared_prefix: str = "") -> ExpectationCheck:
        if self.decide_in_code:
            decided = expectation_overlap.decide(expectation, answer.answer, self.language)
            if decided is not None:
                return ExpectationCheck(answer.turn, decided, "code")
        parts = split_parts(expectation.text, self.language) if self.split_parts else [expectation.text]
        if expectation.polarity == "must" and len(parts) > 1:
            # Each part asked on its own; met only when every part is (P = the smallest).
            checks = [await self._phrasings(replace(expectation, text=part), answer, shared_prefix) for part in parts]
            return _combined(checks, min, answer.turn)
        sentences = split_sentences(answer.answer) if expectation.polarity == "must_not" else []
        if self.act_by_sentence and len(sentences) > 1:
            # Each sentence asked on its own; broken when any is (P = the largest).
            checks = [
                await self._phrasings(expectation, replace(answer, answer=sentence), shared_prefix)
                for sentence in sentences
            ]
            return _combined(checks, max, answer.turn)
        return await self._phrasings(expectation, answer, shared_prefix)

    async def _phrasings(self, expectation: Expectation, answer: AnswerToCheck, shared_prefix: str) -> ExpectationCheck:
        """The check asked once, or in both phrasings (``second_phrasing``: P = the larger)."""
        keys = [self._key(expectation)] + ([self._key(expectation, again=True)] if self.second_phrasing else [])
        for key in keys:  # a missing wording fails before any call
            self._require(key)
        checks = [await self._ask(expectation, answer, shared_prefix, key) for key in keys]
        return checks[0] if len(checks) == 1 else _combined(checks, max, answer.turn)

    async def _ask(
        self, expectation: Expectation, answer: AnswerToCheck, shared_prefix: str, key: str
    ) -> ExpectationCheck:
        messages = self.messages(expectation, answer, shared_prefix, key)
        try:
            levels = CHOICE if key == "must_not_contrast" else YES_NO
            asked = await ask_level(self.client, messages, levels, retry=self.template.parts["retry"].strip())
        except (EndpointError, IncompleteReply) as exc:
            return ExpectationCheck(answer.turn, None, "none", messages, "", f"unscored: {exc}")
        graded = asked.graded if key == "must_not_contrast" else fold_yes_no(asked.graded)
        usage = usage_of(asked.completions)
        if graded.value is None:
            error = f"unscored: {graded.error}"
            return ExpectationCheck(answer.turn, None, "none", asked.messages, asked.reply, error, usage)
        value = graded.value
        if self.act_calibrated and expectation.polarity == "must_not" and answer.answer != NULL_ANSWER:
            null, null_usage = await self._null(expectation, answer, shared_prefix, key)
            if null_usage is not None:  # asked now (not answered from an earlier check): counted here
                usage = CallUsage.of_calls([u for u in (usage, null_usage) if u is not None])
            if null is None:
                error = "unscored: the act asked of a content-free answer got no readable reply"
                return ExpectationCheck(answer.turn, None, "none", asked.messages, asked.reply, error, usage)
            value = shifted(value, null)  # the null answer's P reads as 0.5
        raw_at = self.raw_broken_at if expectation.polarity == "must_not" else self.raw_met_at
        p_yes = value if raw_at == MET_AT else shifted(value, raw_at)
        return ExpectationCheck(answer.turn, p_yes, graded.source, asked.messages, asked.reply, usage=usage)

    async def _null(
        self, expectation: Expectation, answer: AnswerToCheck, shared_prefix: str, key: str
    ) -> tuple[float | None, CallUsage | None]:
        """P(act) for NULL_ANSWER to the same question (raw, unshifted), asked once per prompt; and
        the usage of that call when it was made now."""
        null_answer = replace(answer, answer=NULL_ANSWER)
        prompt = "\n".join(m["content"] for m in self.messages(expectation, null_answer, shared_prefix, key))
        if prompt in self._null_p:
            return self._null_p[prompt], None
        check = await self._ask(expectation, null_answer, shared_prefix, key)
        raw_at = self.raw_broken_at
        p = check.p_yes
        self._null_p[prompt] = p if p is None or raw_at == MET_AT else shifted(p, 1 - raw_at)
        return self._null_p[prompt], check.usage


def _combined(checks: list[ExpectationCheck], pick: Callable[[list[float]], float], turn: int) -> ExpectationCheck:
    """Several checks of one expectation and answer (its parts, or its phrasings) as one: P =
    ``pick`` of theirs; unscored when any is."""
    unreadable = next((c for c in checks if c.p_yes is None), None)
    last = checks[-1]
    reply = " | ".join(c.reply for c in checks)
    if unreadable is not None:
        return ExpectationCheck(turn, None, "none", unreadable.prompt, reply, unreadable.error, _usage(checks))
    p_yes = pick([float(c.p_yes) for c in checks if c.p_yes is not None])
    read = "sampled" if any(c.read == "sampled" for c in checks) else last.read
    return ExpectationCheck(turn, p_yes, read, last.prompt, reply, usage=_usage(checks))


def _usage(checks: list[ExpectationCheck]) -> CallUsage | None:
    """The calls of several checks (an expectation's parts or phrasings) as one."""
    used = [c.usage for c in checks if c.usage is not None]
    return CallUsage.of_calls(used) if used else None


__all__ = ["EXPECTATION_PROMPTS", "MET_AT", "AnswerToCheck", "ExpectationJudge", "forbidden_act"]
