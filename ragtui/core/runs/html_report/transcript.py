"""A dialogue's transcript in the report: each message, the verdicts of each bot answer, partial
replies and the dialogue's error. Every stored text goes through ``esc``."""

from __future__ import annotations

from collections.abc import Mapping

from ...store.labels import Label
from ...text.score_text import score_text
from ...types.stored import StoredSession
from .escape import esc
from .passages import passages_html
from .turn_labels import labels_html


def transcript(session: StoredSession, labels: Mapping[int, list[Label]]) -> str:
    """``labels``: people's labels by the bot message they label."""
    latest = session.latest_judgments()
    out = ['<div class="turns">']
    for m in session.messages:
        # an imported conversation's human agent and notes are shown for what they are, never judged
        who = {"user": "customer", "agent": "human agent (not judged)", "note": "note (not judged)"}.get(m.role, "bot")
        extra = f" · {m.cut}" if m.cut else ""
        out.append(
            f'<div class="msg {"user" if m.role == "user" else "bot"}"><div class="who">{who} · turn {m.turn}'
            f'{esc(extra)}</div><div class="text">{esc(m.text)}</div>'
        )
        if m.role == "bot":
            verdicts = [j for (turn, _metric), j in sorted(latest.items()) if turn == m.turn and j.message_id == m.id]
            if verdicts:
                out.append('<ul class="v">')
                for j in verdicts:
                    words = j.verdict.conclusion or j.verdict.comment or j.error or ""
                    version = f" (v{j.version})" if j.version > 1 else ""
                    out.append(f"<li><b>{esc(j.metric)}</b>{version} {score_text(j.score)} {esc(words)}</li>")
                out.append("</ul>")
            out.append(labels_html(labels.get(m.id, [])))
            out.append(passages_html(m.passages))
        out.append("</div>")
    for partial in session.partials:
        out.append(
            f'<div class="msg partial"><div class="who">{esc(partial.role)} · turn {partial.turn} · incomplete: '
            f'{esc(partial.error)}</div><div class="text">{esc(partial.text)}</div></div>'
        )
    if session.error:
        out.append(f'<p class="muted">error: {esc(session.error)}</p>')
    out.append("</div>")
    return "".join(out)
