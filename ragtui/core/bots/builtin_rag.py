"""The built-in RAG support bot: FTS5 retrieval, a context-only prompt, a streamed answer."""

from __future__ import annotations

from ..content.prompts import PromptTemplate
from ..knowledge.index import KnowledgeBase
from ..models.llm import ChatClient, DeltaCallback, Message
from ..types.errors import ConfigError, IncompleteReply
from ..types.passages import Passage
from ..types.turns import Utterance
from .base import BotAnswer
from .context import BotContext
from .cut_off import cut_off_answer


def format_context(passages: list[Passage]) -> str:
    return "\n\n".join(f"[{i}] {p.title}\n{p.text}" for i, p in enumerate(passages, start=1))


class BuiltinRagBot:
    name = "builtin-rag"

    def __init__(self, client: ChatClient, template: PromptTemplate, knowledge: KnowledgeBase, top_k: int = 4) -> None:
        self.client = client
        self.template = template
        self.knowledge = knowledge
        self.top_k = top_k

    def retrieve(self, history: list[Utterance]) -> list[Passage]:
        # Follow-ups ("and for Apple?") often lack the topic words, so the previous customer
        # message joins the query; bm25 still favours passages matching the newest one more.
        asked = [u.text for u in history if u.speaker == "user"][-2:]
        return self.knowledge.search(" ".join(reversed(asked)), self.top_k)

    def messages(self, history: list[Utterance], passages: list[Passage]) -> list[Message]:
        """The fixed rules, then the conversation with each customer message carrying the
        passages retrieved for it — only those not given before. Earlier turns are rebuilt
        exactly as they were sent (retrieval is deterministic), so from one turn to the next
        the prompt only grows at the end and a server's prompt cache reuses all the rest."""
        messages: list[Message] = [{"role": "system", "content": self.template.render("system")}]
        given: set[tuple[str, str]] = set()
        for index, utterance in enumerate(history):
            if utterance.speaker != "user":
                messages.append({"role": "assistant", "content": utterance.text})
                continue
            latest = index == len(history) - 1
            found = passages if latest else self.retrieve(history[: index + 1])
            new = [p for p in found if (p.title, p.text) not in given]
            given.update((p.title, p.text) for p in new)
            fallback = self.template.parts["earlier_context" if found else "no_context"]
            context = format_context(new) if new else fallback
            messages.append(
                {"role": "user", "content": self.template.render("turn", context=context, message=utterance.text)}
            )
        return messages

    async def answer(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> BotAnswer:
        passages = self.retrieve(history)
        try:
            completion = await self.client.complete(self.messages(history, passages), on_delta=on_delta)
        except IncompleteReply as exc:
            # Still answering when reply_timeout stopped it: what it said is its answer, marked.
            cut = cut_off_answer(exc, passages, self.client.endpoint.model)
            if cut is None:
                raise
            return cut
        return BotAnswer(
            text=completion.text.strip(),
            passages=passages,
            usage=completion.usage,
        )


def build(settings: object, context: BotContext) -> BuiltinRagBot:
    """The ``builtin`` type's bot, on the bot role's endpoint (``builtin_settings`` names this by its path)."""
    if "bot" not in context.endpoints:
        raise ConfigError("the built-in bot needs the bot role's endpoint, which was not resolved")
    client = context.pool.client_for(context.endpoints["bot"])
    return BuiltinRagBot(client, context.prompts.bot, context.knowledge_base(), context.config.top_k)
