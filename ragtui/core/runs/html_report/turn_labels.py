"""People's labels of a bot answer (``labels.labels_where``), under it: each person's score or
agreement with the verdict and their note, apart from the judge's verdicts as labels are kept."""

from __future__ import annotations

from ...store.labels import Label
from .escape import esc


def labels_by_message(labels: list[Label]) -> dict[int, list[Label]]:
    """A run's labels by the bot message they label (the answer a person read)."""
    out: dict[int, list[Label]] = {}
    for label in labels:
        out.setdefault(label.message_id, []).append(label)
    return out


def labels_html(labels: list[Label]) -> str:
    if not labels:
        return ""
    items = "".join(
        f"<li><b>{esc(label.metric)}</b> {esc(label.summary())}"
        + (f' <span class="muted">— {esc(label.note)}</span>' if label.note else "")
        + "</li>"
        for label in labels
    )
    return f'<div class="lb"><span class="who">people’s labels</span><ul class="v">{items}</ul></div>'
