"""Does the simulated customer stay a customer?

Small simulators slip: they answer as if they were the support agent, drop their persona (the
wrong language, an essay), or write DONE although the bot's last answer did not address their
question. Each customer message the simulator writes is checked in two layers:

1. In code, free and certain where it fires: a role label ("Support:"), the agent's stock
   phrases, a numbered how-to, the bot's answer copied back (trigram similarity), the wrong
   script for the persona's language, a message far longer than a chat line, an empty message,
   DONE right after an empty or near-empty answer.
2. A cheap model check (one short yes/no request at temperature 0) for what code cannot see:
   does the message read as the customer's; before a DONE, did the last answer address the
   question. A check reply that cannot be parsed is recorded and decides nothing.

The dialogue re-asks the simulator once with the matching correction; a message that still
fails is kept and recorded visibly as ``simulator_off_role`` (see ``state_machine``).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from ..content.prompts import PromptTemplate
from ..metrics.json_reply import ReplyParseError, extract_json_object, lower_keys
from ..models.llm import ChatClient, Completion
from ..text.script import JAPANESE, japanese_share
from ..text.text_similarity import dice, normalise
from ..types.errors import RagtuiError
from ..types.personas import Persona
from ..types.turns import Utterance, is_done

ANSWERED_AS_AGENT = "answered_as_agent"
LEFT_PERSONA = "left_persona"
PREMATURE_DONE = "premature_done"
OFF_ROLE_SOURCE = "simulator_off_role"  # the source of a customer message that failed its check twice
CORRECTION_KEYS = {
    ANSWERED_AS_AGENT: "correction_agent",
    LEFT_PERSONA: "correction_persona",
    PREMATURE_DONE: "correction_done",
}

_ROLE_LABEL = re.compile(
    r"^\s*\**\s*(support|support agent|agent|assistant|operator|bot|サポート|担当者|オペレーター|アシスタント|窓口)\s*\**\s*[:：]",
    re.IGNORECASE | re.MULTILINE,
)
_LIST_LINE = re.compile(r"^\s*(\d+\s*[.)．、]|[-*・•]\s)", re.MULTILINE)
# Phrases a support agent writes and a customer asking for help does not.
AGENT_PHRASES = {
    "en": (
        "how can i help",
        "how may i help",
        "how can i assist",
        "anything else i can help",
        "anything else i can do for you",
        "happy to help",
        "glad to help",
        "thank you for contacting",
        "thanks for contacting",
        "thank you for reaching out",
        "i hope this helps",
        "hope this helps",
        "here are the steps",
        "please follow these steps",
        "feel free to ask",
        "feel free to reach out",
        # Seen from the embedded simulator playing an angry customer: an agent's apology.
        "sorry to hear that",
        "please let me know if",
        "apologize for the inconvenience",
        "sorry for the inconvenience",
        "i can assist you",
        "so i can help you",
    ),
    "ja": (
        "お問い合わせありがとうございます",
        "お問い合わせいただき",
        "お手伝いできること",
        "ほかにご不明な点",
        "他にご不明な点",
        "ご不明な点がございましたら",
        "他にご質問",
        "ほかにご質問",
        "お気軽にお問い合わせ",
        "以下の手順で",
        "ご案内いたします",
        "お役に立てれば",
        "本日はどのようなご用件",
        "ご不便をおかけして申し訳",
        "ご迷惑をおかけして申し訳",
    ),
}
MAX_CHAT_CHARS = 600  # a customer typing in a chat window; personas ask for one or two sentences
ECHO_AT = 0.6  # similarity to the bot's last answer from which the customer is copying it
CHECK_MAX_TOKENS = 120


@dataclass
class CheckResult:
    """One message's check: ``problem`` is None when it passed."""

    problem: str | None = None
    why: str = ""
    by: str = ""  # "code" | "model" | "" (passed)
    model: dict[str, Any] | None = None  # the model check's parsed reply, or its error
    checks: list[str] = field(default_factory=list)  # which checks ran
    usage: dict[str, int | None] | None = None  # the model check's call: calls, prompt and completion tokens

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def is_instruction_list(text: str) -> bool:
    """Three or more list lines that instruct ("Open Settings", "設定を開いてください"), not a
    customer's list of what they tried ("I restarted", "再起動しました")."""
    items = [_LIST_LINE.sub("", line, count=1).strip() for line in text.splitlines() if _LIST_LINE.match(line)]
    if len(items) < 3:
        return False
    first_person = sum(1 for item in items if re.match(r"(?i)(i|i'|my|we)\b", item) or item.startswith("私"))
    polite_requests = sum(1 for item in items if "ください" in item)
    if JAPANESE.search(text):
        return polite_requests >= 2
    return first_person * 2 < len(items)


def code_check(text: str, history: list[Utterance], language: str) -> CheckResult | None:
    """The certain cases; None when code sees nothing wrong."""
    stripped = text.strip()
    if not stripped:
        return CheckResult(LEFT_PERSONA, "the message is empty", "code")
    last_bot = history[-1].text if history and history[-1].speaker == "bot" else ""
    if is_done(stripped):
        if len(normalise(last_bot)) < 10:
            return CheckResult(PREMATURE_DONE, "DONE after an empty or near-empty answer", "code")
        return None
    if _ROLE_LABEL.search(stripped):
        return CheckResult(ANSWERED_AS_AGENT, "the message carries an agent's role label", "code")
    lowered = stripped.lower()
    for phrase in AGENT_PHRASES.get(language, ()) + (AGENT_PHRASES["en"] if language != "en" else ()):
        if phrase in lowered:
            return CheckResult(ANSWERED_AS_AGENT, f"agent phrase: {phrase!r}", "code")
    if is_instruction_list(stripped):
        return CheckResult(ANSWERED_AS_AGENT, "a numbered or bulleted how-to, as an agent writes", "code")
    if last_bot and len(normalise(stripped)) >= 30 and dice(stripped, last_bot) >= ECHO_AT:
        return CheckResult(ANSWERED_AS_AGENT, "the message copies the bot's last answer", "code")
    share = japanese_share(stripped)
    if share is not None and language == "ja" and share < 0.3:
        return CheckResult(LEFT_PERSONA, "a Japanese customer writing in another language", "code")
    if share is not None and language == "en" and share > 0.3:
        return CheckResult(LEFT_PERSONA, "an English-speaking customer writing Japanese", "code")
    if len(stripped) > MAX_CHAT_CHARS:
        return CheckResult(LEFT_PERSONA, f"{len(stripped)} characters, far longer than a chat message", "code")
    return None


class SimulatorChecker:
    def __init__(self, client: ChatClient | None, template: PromptTemplate, persona: Persona) -> None:
        self.client = client  # None: code checks only
        self.template = template
        self.persona = persona

    def correction(self, problem: str) -> str:
        return self.template.parts[CORRECTION_KEYS[problem]].strip()

    async def check(self, text: str, history: list[Utterance]) -> CheckResult:
        """Check the customer message ``text`` written after ``history`` (which ends with the
        bot's answer)."""
        found = code_check(text, history, self.persona.language)
        if found is not None:
            found.checks = ["code"]
            return found
        result = CheckResult(checks=["code"])
        if self.client is None:
            return result
        last_bot = history[-1].text if history and history[-1].speaker == "bot" else ""
        if is_done(text):
            question = next((u.text for u in reversed(history) if u.speaker == "user" and not is_done(u.text)), "")
            key, field_name, problem = "done", "addressed", PREMATURE_DONE
            values = {"question": question, "answer": last_bot}
        else:
            key, field_name, problem = "role", "customer", ANSWERED_AS_AGENT
            persona = self.persona.persona.strip()
            values = {"persona": persona, "agent": last_bot or "(none)", "message": text}
        result.checks.append(f"model:{key}")
        try:
            completion = await self.client.complete(
                [
                    {"role": "system", "content": self.template.parts["system"]},
                    {"role": "user", "content": self.template.render(key, **values)},
                ],
                json_schema=_schema(field_name),
                max_tokens=CHECK_MAX_TOKENS,
                temperature=0.0,
            )
            result.usage = call_usage(completion)
            data = lower_keys(extract_json_object(completion.text))
            verdict = str(data.get(field_name, "")).strip().lower()
            if verdict not in ("yes", "no"):
                raise ReplyParseError(f"{field_name} must be yes or no, got {verdict[:20]!r}")
        except (ReplyParseError, RagtuiError) as exc:
            # A check that cannot run decides nothing: the message stands, and the record says why.
            result.model = {"error": str(exc)}
            return result
        reason = str(data.get("reason", ""))[:200]
        result.model = {field_name: verdict, "reason": reason}
        if verdict == "no":
            result.problem, result.why, result.by = problem, reason or f"model check: {field_name} = no", "model"
        return result


USAGE_KEYS = ("calls", "prompt_tokens", "completion_tokens", "cached_tokens")


def call_usage(*completions: Completion) -> dict[str, int | None]:
    """What some calls cost, in the shape the record keeps for calls that are no message of
    their own (a rejected simulator message, the checks): counted in the run's tokens spent.
    ``cached_tokens`` (reused from the server's prompt cache) is None unless every call said."""
    cached = [c.cached_tokens for c in completions]
    return {
        "calls": sum(c.attempts for c in completions),
        "prompt_tokens": sum(c.prompt_tokens or 0 for c in completions),
        "completion_tokens": sum(c.completion_tokens or 0 for c in completions),
        "cached_tokens": None if any(c is None for c in cached) else sum(c for c in cached if c is not None),
    }


def add_usage(parts: list[dict[str, int | None]]) -> dict[str, int | None]:
    """Several ``call_usage`` records as one; reused tokens stay unknown when any part's is
    (a record written before they were kept has none)."""
    total: dict[str, int | None] = {key: sum(part.get(key) or 0 for part in parts) for key in USAGE_KEYS[:3]}
    cached = [part.get("cached_tokens") for part in parts]
    total["cached_tokens"] = None if any(c is None for c in cached) else sum(c for c in cached if c is not None)
    return total


def _schema(field_name: str) -> dict[str, Any]:
    return {
        "title": f"simulator_{field_name}",
        "type": "object",
        "properties": {
            "reason": {"type": "string", "maxLength": 160},
            field_name: {"type": "string", "enum": ["yes", "no"]},
        },
        "required": ["reason", field_name],
        "additionalProperties": False,
    }
