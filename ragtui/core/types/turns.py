"""The dialogue as the engine, the bot, the simulator and the judge see it: who said what."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Speaker = Literal["user", "bot"]


@dataclass(frozen=True)
class Utterance:
    """One message of the support conversation: the customer (``user``) or the ``bot``."""

    speaker: Speaker
    text: str


def format_history(history: list[Utterance], customer: str = "Customer", agent: str = "Support") -> str:
    """Plain-text rendering of earlier turns for judge prompts."""
    if not history:
        return "(none)"
    return "\n".join(f"{customer if u.speaker == 'user' else agent}: {u.text}" for u in history)


# The customer ends the conversation by saying DONE; the simulator, the engine and the
# dialogue verdicts all read it the same way.
_DONE_LINE = re.compile(r"^\W*DONE\W*$")


def is_done(text: str) -> bool:
    """True when the customer signals the end: ``DONE`` alone on a line (markup and punctuation
    around it ignored) or as the final word, as small models often write "Thanks! DONE"."""
    cleaned = text.replace("*", "").replace("`", "").strip()
    if not cleaned:
        return False
    if any(_DONE_LINE.match(line) for line in cleaned.splitlines()):
        return True
    return re.search(r"\bDONE\W*$", cleaned) is not None
