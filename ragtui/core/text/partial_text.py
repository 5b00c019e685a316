"""A reply that never completed, in the same words in ``ragtui show`` and the TUI.

One cut short by a cancel (the TUI's c, Ctrl-C, SIGTERM) is said to be that, in one line, and
its text is not shown: the operator stopped it, and watched live it vanished from its pane —
printed as a box of text it read like the next answer. One whose stream failed keeps its text
beside the error: what arrived is what there is to diagnose."""

from __future__ import annotations

from ..types.stored import PartialReply

WHO = {"user": "customer", "bot": "bot", "judge": "judge"}


def partial_line(partial: PartialReply) -> str:
    """``turn 4 · bot: cancelled while streaming (38 characters received) — not an answer,
    never judged``, or ``turn 2 · bot · PARTIAL, never completed — <the error>``."""
    who = WHO.get(partial.role, partial.role)
    if partial.cancelled:
        return (
            f"turn {partial.turn} · {who}: cancelled while streaming ({len(partial.text)} characters received)"
            " — not an answer, never judged"
        )
    return f"turn {partial.turn} · {who} · PARTIAL, never completed — {partial.error}"
