"""The passages the bot retrieved for an answer (``StoredMessage.passages``), folded under it:
a reader checks what the answer could draw on without the transcript growing by pages."""

from __future__ import annotations

from ...text.score_text import score_text
from ...types.passages import Passage
from .escape import esc


def passages_html(passages: list[Passage]) -> str:
    if not passages:
        return ""
    items = "".join(
        f'<li><b>{esc(p.title or p.doc_id)}</b> <span class="muted">{esc(p.doc_id)} · score {score_text(p.score)}</span>'
        f'<div class="text">{esc(p.text)}</div></li>'
        for p in passages
    )
    return f'<details class="ps"><summary>{len(passages)} passage(s) retrieved</summary><ol>{items}</ol></details>'
