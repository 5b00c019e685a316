"""The built-in bot's prompt grows only at its end from one turn to the next, so llama.cpp's
prompt cache (or any server's) reuses everything sent before; passages are not repeated."""

from __future__ import annotations

from ragtui.core.bots.builtin_rag import BuiltinRagBot
from ragtui.core.config.settings import Config
from ragtui.core.content.prompts import PromptSet
from ragtui.core.knowledge.index import KnowledgeBase
from ragtui.core.types.turns import Utterance

CONTEXT_END = "### CONTEXT END ###"


def bot(language: str = "en") -> BuiltinRagBot:
    config = Config(language=language)
    prompts = PromptSet.load(config.prompts, language)
    return BuiltinRagBot(None, prompts.bot, KnowledgeBase.from_folder(config.knowledge, language))  # type: ignore[arg-type]


def prompt(b: BuiltinRagBot, history: list[Utterance]) -> list[dict[str, str]]:
    return b.messages(history, b.retrieve(history))


def test_each_turn_extends_the_previous_prompt() -> None:
    b = bot()
    history = [Utterance("user", "How do I link my Tsumugi ID with an external service?")]
    first = prompt(b, history)
    assert first[0]["role"] == "system" and "{{" not in first[0]["content"]
    assert "[1] " in first[1]["content"] and first[1]["content"].rstrip().endswith(history[0].text)
    history += [Utterance("bot", "Go to Settings > Account > Linked services."), Utterance("user", "And for Apple?")]
    second = prompt(b, history)
    assert second[: len(first)] == first  # the whole first prompt is a prefix of the second
    assert second[len(first)] == {"role": "assistant", "content": history[1].text}
    history += [Utterance("bot", "Tap Link next to Apple."), Utterance("user", "Thanks, can I unlink it later?")]
    third = prompt(b, history)
    assert third[: len(second)] == second


def test_passages_given_before_are_not_repeated() -> None:
    b = bot()
    question = "How do I link my Tsumugi ID with an external service?"
    history = [Utterance("user", question), Utterance("bot", "See Settings."), Utterance("user", question)]
    messages = prompt(b, history)
    first_passages = messages[1]["content"].split(CONTEXT_END)[0]
    assert first_passages.count("[1] ") == 1
    # Same question again: the same passages, already given, so only the note is sent.
    assert b.template.parts["earlier_context"] in messages[3]["content"]
    assert "[1] " not in messages[3]["content"]


def test_no_passages_at_all_says_so() -> None:
    b = bot()
    history = [Utterance("user", "zzzz qqqq xxxx")]
    messages = b.messages(history, [])
    assert b.template.parts["no_context"] in messages[1]["content"]


def test_japanese_layout_is_the_same() -> None:
    b = bot("ja")
    history = [Utterance("user", "外部サービスとの連携方法を教えてください")]
    first = prompt(b, history)
    history += [Utterance("bot", "設定から連携できます。"), Utterance("user", "Apple の場合は？")]
    assert prompt(b, history)[: len(first)] == first
