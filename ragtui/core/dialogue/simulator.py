"""The simulated customer: persona + seed question + conversation → next customer message.

The simulator is itself a chat model, so the conversation is mirrored for it: the support
desk's lines are its ``user`` turns and the customer's own lines are its ``assistant`` turns,
after the desk's greeting opens the conversation.
"""

from __future__ import annotations

from ..content.prompts import PromptTemplate
from ..models.llm import ChatClient, Completion, DeltaCallback, Message
from ..types.personas import Persona
from ..types.scenarios import Scenario
from ..types.turns import Utterance


class UserSimulator:
    def __init__(self, client: ChatClient, template: PromptTemplate, persona: Persona, scenario: Scenario) -> None:
        self.client = client
        self.template = template
        self.persona = persona
        self.scenario = scenario

    def persona_text(self) -> str:
        """The persona's behaviour, and its goal when it has one (what counts as solved)."""
        text = self.persona.persona.strip()
        if self.persona.goal.strip():
            label = "解決とみなす条件" if self.persona.language == "ja" else "What counts as solved for you"
            text += f"\n- {label}: {self.persona.goal.strip()}"
        return text

    def messages(self, history: list[Utterance], correction: str | None = None) -> list[Message]:
        system = self.template.render("system", persona=self.persona_text(), question=self.scenario.question)
        messages: list[Message] = [
            {"role": "system", "content": system},
            {"role": "user", "content": self.template.parts["greeting"]},
        ]
        for utterance in history:
            role = "assistant" if utterance.speaker == "user" else "user"
            messages.append({"role": role, "content": utterance.text})
        if correction:
            # After the support's last line, not in the instructions: the retry's prompt then
            # starts exactly as the rejected try's did, and the server reuses all of it from its
            # prompt cache instead of reading the whole conversation again. Not a chat line of
            # its own (the mirrored chat has no place for a third speaker, and some chat
            # templates refuse a system message after the first); the rejected attempt is left
            # out so it is not copied.
            last = messages[-1]
            messages[-1] = {**last, "content": f"{last['content'].rstrip()}\n\n{correction.strip()}"}
        return messages

    async def next_message(
        self, history: list[Utterance], on_delta: DeltaCallback | None = None, correction: str | None = None
    ) -> Completion:
        completion = await self.client.complete(
            self.messages(history, correction), on_delta=on_delta, temperature=self.persona.temperature
        )
        completion.text = completion.text.strip()
        return completion
