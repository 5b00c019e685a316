"""The five-criterion rubric judge: Understanding, Relevance, Completeness, Correctness,
Coherence and Overall, each 1–5, with step-by-step reasoning. Turn score = Overall / 5.

The judge is asked for a JSON-schema-constrained reply (scores as enums, bounded strings, so a
small model cannot ramble past max_tokens). A reply that cannot be parsed is sent back once
with a short correction; if it still fails the judgment is *unscored* with the raw reply kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..content.prompts import PromptTemplate, load_prompt
from ..models.llm import ChatClient, Completion, DeltaCallback, Message, asked_again, usage_of
from ..types.judgments import Judgment
from ..types.passages import Passage
from ..types.turns import format_history
from .base import TurnContext
from .check_bias import CONTENT_FREE, CheckBias, content_free_turn
from .explain import probe_lines, rubric_probe_lines
from .json_reply import ReplyParseError, as_int_in_range, extract_json_object, lower_keys
from .level_question import LevelAnswer, ask_level, judgment_from, level_options
from .probability import YES_NO, fold_yes_no
from .rubric_info import CRITERIA, INFO
from .rubric_probes import PROBES, Combined, combine, split_claims

if TYPE_CHECKING:
    from .metric_settings import MetricSettings

MAX_STEP_CHARS = 200
MAX_STEPS = 5
# Enough for five bounded steps, a conclusion and six scores, with room for Japanese.
JUDGE_MAX_TOKENS = 900
HISTORY_LABELS = {"ja": ("お客様", "サポート"), "en": ("Customer", "Support")}
# The checks that read the bot's passages: not asked on a turn recorded without them.
GROUNDING_CHECKS = ("context_answers", "claim")
UNKNOWN_CONTEXT_P = 0.5  # P(the passages hold the answer) when no passages were recorded
NOT_GROUNDED = {
    "en": "grounding not checked: no passages",
    "ja": "根拠は未確認：参照文書なし",
}
NO_CONTEXT = {"ja": "(参照文書なし)", "en": "(no passages were given to the bot)"}

SCHEMA: dict[str, Any] = {
    "title": "rubric_verdict",
    "type": "object",
    "properties": {
        "steps": {
            "type": "array",
            "items": {"type": "string", "maxLength": MAX_STEP_CHARS},
            "minItems": 1,
            "maxItems": MAX_STEPS,
        },
        "conclusion": {"type": "string", "maxLength": 300},
        **{name: {"type": "integer", "enum": [1, 2, 3, 4, 5]} for name in CRITERIA},
    },
    "required": ["steps", "conclusion", *CRITERIA],
    "additionalProperties": False,
}


def parse_verdict(reply: str) -> dict[str, Any]:
    """Scores and comment from a judge reply; raises ReplyParseError saying what is wrong.

    Accepts this project's shape and the seed's (``Comment: {Step1…, Conclusion}``, capitalised
    criteria), so judge prompts written either way keep working.
    """
    data = lower_keys(extract_json_object(reply))
    scores = {name: as_int_in_range(data.get(name), 1, 5, name) for name in CRITERIA}
    steps: list[str] = []
    conclusion = ""
    if isinstance(data.get("steps"), list):
        steps = [str(s) for s in data["steps"]]
        conclusion = str(data.get("conclusion", ""))
    elif isinstance(data.get("comment"), dict):
        comment = lower_keys(data["comment"])
        conclusion = str(comment.pop("conclusion", ""))
        steps = [str(v) for v in comment.values()]
    elif isinstance(data.get("comment"), str):
        conclusion = data["comment"]
    return {"scores": scores, "steps": steps, "conclusion": conclusion}


def format_passages(passages: list[Passage], language: str) -> str:
    if not passages:
        return NO_CONTEXT.get(language, NO_CONTEXT["en"])
    return "\n---\n".join(f"{p.title}\n{p.text}" if p.title else p.text for p in passages)


class RubricJudge:
    name = "rubric"

    def __init__(self, client: ChatClient, template: PromptTemplate) -> None:
        self.client = client
        self.template = template

    def messages(self, context: TurnContext) -> list[Message]:
        customer, agent = HISTORY_LABELS.get(context.language, HISTORY_LABELS["en"])
        user = self.template.render(
            "user",
            context=format_passages(context.passages, context.language),
            history=format_history(context.history, customer, agent),
            question=context.question,
            response=context.response,
        )
        return [{"role": "system", "content": self.template.parts["system"]}, {"role": "user", "content": user}]

    def request_options(self) -> dict[str, Any]:
        """What the judge asks besides the messages; batch request files use the same."""
        return {"json_schema": SCHEMA, "max_tokens": JUDGE_MAX_TOKENS}

    def judgment_from_reply(self, messages: list[Message], completion: Completion) -> Judgment:
        """A reply that came back without this client (a batch result): parsed as ``judge``
        parses a first attempt. There is no correction round, so a bad reply is unscored."""
        try:
            verdict = parse_verdict(completion.text)
        except ReplyParseError as exc:
            return self._judgment(None, {}, messages, [completion], f"judge reply could not be parsed: {exc}")
        return self._judgment(verdict["scores"]["overall"] / 5, verdict, messages, [completion], None)

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        messages = self.messages(context)
        completions: list[Completion] = []
        error = ""
        for attempt in (1, 2):
            completion = await self.client.complete(messages, **self.request_options(), on_delta=on_delta)
            completions.append(completion)
            try:
                verdict = parse_verdict(completion.text)
            except ReplyParseError as exc:
                error = str(exc)
                if attempt == 1:
                    asked_again(f"the judge's reply could not be read ({exc})")
                    messages = [
                        *messages,
                        {"role": "assistant", "content": completion.text},
                        {"role": "user", "content": self.template.parts["retry"]},
                    ]
                continue
            return self._judgment(verdict["scores"]["overall"] / 5, verdict, messages, completions, None)
        return self._judgment(None, {}, messages, completions, f"judge reply could not be parsed: {error}")

    def _judgment(
        self,
        score: float | None,
        details: dict[str, Any],
        messages: list[Message],
        completions: list[Completion],
        error: str | None,
    ) -> Judgment:
        last = completions[-1]
        return Judgment(
            metric=self.name,
            score=score,
            details=details,
            prompt=messages,
            raw_reply=last.text,
            error=error,
            **usage_of(completions).judgment_fields(),
        )


class CheckedRubricJudge:
    """The rubric from yes/no checks (``rubric_probes``): the seed's six criteria and overall,
    computed in code from each check's P(yes); the checks, with their probabilities, are the
    verdict's steps. Turn score = overall / 5, as for the whole-verdict judge."""

    name = "rubric"
    info = INFO  # its description, importable without this judge (rubric_info)
    explain = staticmethod(rubric_probe_lines)  # how a stored verdict was reached (explain.py)

    def __init__(
        self, client: ChatClient, template: PromptTemplate, bias: CheckBias | None = None, grounded: bool = True
    ) -> None:
        self.client = client
        self.template = template
        # Each check's content-free P(yes) (``check_bias``): when set, answers are read against it.
        self.bias = bias
        # False on a turn whose transcript has no retrieved passages (an imported conversation):
        # the checks against the passages (``GROUNDING_CHECKS``) are not asked — a real judge
        # would find every claim "unsupported by" a context that was never recorded — and
        # ``verdict`` combines the others with the passages' side taken as unknown.
        self.grounded = grounded

    @classmethod
    def build(cls, judge: ChatClient, prompts_dir: Path, language: str, settings: MetricSettings) -> CheckedRubricJudge:
        # The turn score from yes/no checks combined in code (rubric_probes); the whole-verdict
        # RubricJudge stays for re-judging with an edited judge_rubric prompt.
        return cls(judge, load_prompt(prompts_dir, language, "judge_probes"))

    def turn_text(self, context: TurnContext) -> str:
        """The whole turn as one block (what a whole-turn grade sees)."""
        customer, agent = HISTORY_LABELS.get(context.language, HISTORY_LABELS["en"])
        return (
            self.template.render(
                "on_context", context=format_passages(context.passages, context.language), question=context.question
            )
            + "\n"
            + self.template.render(
                "on_exchange",
                history=format_history(context.history, customer, agent),
                question=context.question,
                response=context.response,
            )
        )

    def checks(self, context: TurnContext) -> list[tuple[str, str, str]]:
        """(check name, the text it is shown, the check's question). Each check sees only what it
        needs: a 1.5B judge asked about one short text answers far more sharply than about a
        whole turn (measured: with the whole turn every check's P(yes) sat near 0.5)."""
        customer, agent = HISTORY_LABELS.get(context.language, HISTORY_LABELS["en"])
        passages = format_passages(context.passages, context.language)
        on_context = self.template.render("on_context", context=passages, question=context.question)
        on_response = self.template.render("on_response", response=context.response)
        on_exchange = self.template.render(
            "on_exchange",
            history=format_history(context.history, customer, agent),
            question=context.question,
            response=context.response,
        )
        shown = {
            "context_answers": on_context,
            "says_unknown": on_response,
            # Asked as the seed means it — does the reply recommend or compare a competitor's
            # product? — not "does it name a company": the services an ID links to (Google, Apple)
            # are the product's own. Measured: asked with the passages, the 1.5B judge still said
            # ~0.45 to the linking answer; this wording 0.31, competitors 0.40–0.57.
            "other_company": on_response,
            "polite": on_response,
            "addresses": on_exchange,
            "complete": on_exchange,
        }
        checks = [(name, shown[name], self.template.parts[name]) for name in PROBES]
        if not self.grounded:
            return [c for c in checks if c[0] not in GROUNDING_CHECKS]
        for claim in split_claims(context.response):
            text = self.template.render("on_claim", context=passages, claim=claim)
            checks.append(("claim", text, self.template.parts["claim"]))
        return checks

    def messages(self, shown: str, check: str) -> list[Message]:
        user = f"{shown}\n{check.strip()}\n{self.template.parts['answer'].strip()}"
        return [{"role": "system", "content": self.template.parts["system"]}, {"role": "user", "content": user}]

    def questions(self, context: TurnContext) -> list[CheckQuestion]:
        """Every check of the turn as the request it sends, in the order they are asked."""
        return [
            CheckQuestion(name, shown, check, self.messages(shown, check))
            for name, shown, check in self.checks(context)
        ]

    def request_options(self) -> dict[str, Any]:
        """What every check asks besides its messages; batch request files send the same."""
        return level_options()

    def content_free_questions(self, language: str) -> list[CheckQuestion]:
        """Every kind of check once, about a turn with no content (one claim of "N/A")."""
        turn = content_free_turn(language)
        questions = [q for q in self.questions(turn) if q.name != "claim"]
        shown = self.template.render("on_claim", context=CONTENT_FREE, claim=CONTENT_FREE)
        check = self.template.parts["claim"]
        return [*questions, CheckQuestion("claim", shown, check, self.messages(shown, check))]

    async def measure_bias(self, language: str) -> CheckBias:
        """The judge's prior for every check in ``language``: its P(yes) on a content-free turn.
        A check the judge gave no probability for keeps its answers as they are."""
        priors: dict[str, float] = {}
        for question in self.content_free_questions(language):
            answer = await ask_level(self.client, question.messages, YES_NO)
            graded = fold_yes_no(answer.graded)
            if graded.value is not None and graded.source == "probability":
                priors[question.name] = graded.value
        return CheckBias(language, priors)

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        answers: list[LevelAnswer] = []
        for question in self.questions(context):
            answer = await ask_level(self.client, question.messages, YES_NO, on_delta=on_delta)
            answers.append(answer)
            if answer.graded.value is None:
                break  # the turn is unscored whatever the other checks say: don't spend them
        return self.verdict(context, answers)

    def verdict(self, context: TurnContext, answers: list[LevelAnswer]) -> Judgment:
        """The verdict from the checks' answers, in ``questions`` order — however they were asked
        (streamed one by one here, or read back from a batch's results). The first unscored
        check makes the turn unscored, naming it; otherwise ``combine`` gives the grade."""
        questions = self.questions(context)
        probes: list[dict[str, Any]] = []
        values: dict[str, float] = {}
        claims: list[float] = []
        asked: list[LevelAnswer] = []
        for question, answer in zip(questions, answers, strict=False):
            graded = fold_yes_no(answer.graded)
            asked.append(answer)
            text = " ".join(question.check.split())
            if question.name == "claim":
                text += " — " + " ".join(question.shown.rsplit("###", 1)[-1].split())
            # The check's reply as the judge wrote it: the Raw reply tab shows every check's.
            probe = {"check": question.name, "question": text, **graded.to_dict(), "reply": answer.reply}
            probes.append(probe)
            if graded.value is None:
                error = f"the {question.name} check is unscored: {graded.error}"
                return judgment_from(self.name, asked, None, {"probes": probes, "steps": probe_lines(probes)}, error)
            value = graded.value
            if self.bias is not None and question.name in self.bias.priors:
                value = self.bias.apply(question.name, value)
                probe.update(value=value, raw=graded.value, prior=self.bias.priors[question.name])
            if question.name == "claim":
                claims.append(value)
            else:
                values[question.name] = value
        if len(asked) < len(questions):
            missing = questions[len(asked)].name
            error = f"the {missing} check is unscored: it was not asked"
            return judgment_from(self.name, asked, None, {"probes": probes, "steps": probe_lines(probes)}, error)
        if not self.grounded:
            # Whether the knowledge held the answer is unknown: a decline is neither right nor wrong.
            values["context_answers"] = UNKNOWN_CONTEXT_P
        combined = combine(values, claims)
        conclusion = _conclusion(combined, values, context.language)
        if not self.grounded:
            conclusion += f" ({NOT_GROUNDED.get(context.language, NOT_GROUNDED['en'])})"
        details = {
            "scores": combined.scores,
            "steps": probe_lines(probes),
            "conclusion": conclusion,
            "probes": probes,
            "overall": combined.overall,
        }
        if not self.grounded:
            details["no_passages"] = True
        return judgment_from(self.name, asked, combined.overall / 5, details)


@dataclass(frozen=True)
class CheckQuestion:
    """One yes/no check of a turn: its name, the text it is shown, its question, its request."""

    name: str
    shown: str
    check: str
    messages: list[Message]


def _conclusion(combined: Combined, values: dict[str, float], language: str) -> str:
    """One line naming what decided the grade (the weakest of the guideline checks)."""
    reasons = {
        "en": {
            "honest": "says it does not know where the context lacks the answer",
            "ungrounded": "a claim is not supported by the context",
            "competitor": "recommends or compares a competitor",
            "off_topic": "does not deal with the question",
            "rude": "impolite",
            "fine": "grounded and on topic",
        },
        "ja": {
            "honest": "参照文書に答えがなく、わからないと正直に述べている",
            "ungrounded": "参照文書に裏づけのない内容がある",
            "competitor": "競合他社を勧めている、または比べている",
            "off_topic": "質問に対応していない",
            "rude": "丁寧さに欠ける",
            "fine": "参照文書に基づき質問に対応している",
        },
    }[language if language == "ja" else "en"]
    found = []
    if combined.honest_unknown >= 0.5:
        found.append(reasons["honest"])
    elif combined.grounded < 0.5:
        found.append(reasons["ungrounded"])
    if values["other_company"] >= 0.5:
        found.append(reasons["competitor"])
    if values["addresses"] < 0.5:
        found.append(reasons["off_topic"])
    if values["polite"] < 0.5:
        found.append(reasons["rude"])
    sep = "、" if language == "ja" else "; "
    return f"{combined.overall:.2f}/5: " + sep.join(found or [reasons["fine"]])
