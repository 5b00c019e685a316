"""How a dialogue verdict was reached, as plain lines for ``ragtui show`` and the TUI: each
intent met or not, each fact kept or not, each later answer new or a repeat. Built from the
stored ``details`` only, so an old verdict still explains itself."""

from __future__ import annotations

from typing import Any

from ..explain import bar


def explain_dialogue(metric: str, details: dict[str, Any]) -> list[str]:
    if metric == "resolution":
        lines = [
            f"[{'met' if i.get('satisfied') else 'NOT met'}]{_p(i)} {i.get('intent')}"
            + (f" ({i['source']})" if i.get("source") not in (None, "customer") else "")
            + (f" — {i['reason']}" if i.get("reason") else "")
            for i in details.get("intents") or []
        ]
        handover = details.get("handover")
        if isinstance(handover, dict):
            why = f" — {handover['reason']}" if handover.get("reason") else ""
            lines.append(f"handed over: {handover.get('handed_over')}{_p(handover)}{why}")
        return lines
    if metric == "retention":
        return [
            f"[{f.get('verdict')}] turn {f.get('turn')}: {f.get('fact')}"
            + (f" — {f['reason']}" if f.get("reason") else "")
            for f in details.get("facts") or []
        ]
    if metric == "repetition":
        return [
            f"turn {p.get('turn')} vs turn {p.get('like_turn')}: similarity {p.get('similarity')}, "
            f"{'REPEATS' if p.get('repeats') else 'new'} (by {p.get('decided_by')})"
            + (f" — {p['reason']}" if p.get("reason") else "")
            for p in details.get("pairs") or []
        ]
    return []


def _p(item: dict[str, Any]) -> str:
    """The P(yes) of a one-token check as a small bar (verdicts stored before had a reason)."""
    p = item.get("p")
    return f" P {bar(p, 5)} {p:4.0%}" if isinstance(p, int | float) else ""
