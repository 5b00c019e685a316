"""Did the bot hand the customer over to a person? Decided in code from the bot's answer.

This is the stop reason ``handed_over``: the conversation with the bot is over because a human
takes it from here. Pointing to a phone number or a form is not a transfer (the chat goes on);
whether that was the right contact is ``resolution``'s handover step.
"""

from __future__ import annotations

TRANSFER_PHRASES = (
    "transfer you to",
    "transferring you to",
    "connect you with a",
    "connect you to a",
    "connecting you to a",
    "connecting you with a",
    "hand you over to",
    "handing you over to",
    "handing this over to",
    "pass you to a",
    "passing you to a",
    "a human agent will",
    "a member of our team will take over",
    "担当者におつなぎ",
    "オペレーターにおつなぎ",
    "担当部署におつなぎ",
    "有人チャットにおつなぎ",
    "担当者に引き継ぎます",
    "担当者へ引き継ぎます",
    "オペレーターに引き継ぎます",
)


def is_handover(answer: str) -> bool:
    text = answer.lower()
    return any(phrase in text for phrase in TRANSFER_PHRASES)
