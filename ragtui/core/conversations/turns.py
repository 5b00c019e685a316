"""An imported conversation as the rows of ``messages`` every view of ragtui reads: a turn is the
customer's message and the answer to it, as in a simulated dialogue.

- A customer message opens a new turn once the one before has had an answer (from the bot or an
  agent); customer messages in a row are one turn's message, joined by a blank line.
- The bot's messages of a turn are its answer (``role = bot``), joined the same way; a human
  agent's are a message of their own (``role = agent``) and system notes another (``role = note``).
  Judges read ``role = bot`` only, so an agent's words and a note are never judged as the bot's.
- What was said before the customer's first message (a greeting) is turn 0, which has no
  customer message and is never judged.

Each row keeps the original messages it was made of as parts: speaker, the file's word for it,
its line or row, its time, and where its text sits in the row's text — so the conversation as it
happened, message by message, can always be read back.
"""

from __future__ import annotations

from ..types.conversations import ImportedConversation, Speaker, TurnMessage, TurnPart

ROLE_OF: dict[Speaker, str] = {"customer": "user", "bot": "bot", "agent": "agent", "system": "note"}
SOURCE_OF: dict[Speaker, str] = {
    "customer": "imported_customer",
    "bot": "imported_bot",
    "agent": "imported_agent",
    "system": "imported_note",
}
JOIN = "\n\n"


def turn_messages(conversation: ImportedConversation) -> list[TurnMessage]:
    """The rows, in the order a reader shows them: per turn, the customer's, then the others in
    the order their first message came."""
    order: list[tuple[int, Speaker]] = []
    texts: dict[tuple[int, Speaker], str] = {}
    parts: dict[tuple[int, Speaker], list[TurnPart]] = {}
    turn, answered = 0, False
    for position, message in enumerate(conversation.messages):
        if message.speaker == "customer" and (turn == 0 or answered):
            turn, answered = turn + 1, False
        elif message.speaker in ("bot", "agent") and turn > 0:
            answered = True
        slot = (turn, message.speaker)
        if slot not in texts:
            order.append(slot)
            texts[slot], parts[slot] = "", []
        start = len(texts[slot]) + (len(JOIN) if texts[slot] else 0)
        texts[slot] = f"{texts[slot]}{JOIN}{message.text}" if texts[slot] else message.text
        end = len(texts[slot])
        parts[slot].append(TurnPart(position, message.speaker, message.role, start, end, message.line, message.time))
    rank = {"customer": 0}
    order.sort(key=lambda slot: (slot[0], rank.get(slot[1], 1)))  # stable: the others keep their order
    return [
        TurnMessage(t, ROLE_OF[speaker], SOURCE_OF[speaker], texts[(t, speaker)], tuple(parts[(t, speaker)]))
        for t, speaker in order
    ]


def turn_count(messages: list[TurnMessage]) -> int:
    return max((m.turn for m in messages), default=0)
