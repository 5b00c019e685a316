"""How a dialogue verdict was reached, as plain lines for ``ragtui show`` and the TUI: each
intent met or not, each fact kept or not, each later answer new or a repeat. Built from the
stored ``details`` only, so an old verdict still explains itself."""

from __future__ import annotations

from typing import Any

from ...types.expectations import results_from_details
from ..explain import bar

# ✓ passed (met / kept), ✗ failed (missed / broken), ? unscored (a reply that could not be read)
MARKS = {True: "✓", False: "✗", None: "?"}


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
    if metric == "expectations":
        return expectation_lines(details)
    return []


def expectation_lines(details: dict[str, Any]) -> list[str]:
    """``✓ refund-rule met at turn 2: says unused time is not refunded`` — one per expectation;
    policies are marked as such, an unscored one says why."""
    lines = []
    for r in results_from_details(details):
        e = r.expectation
        at = f" at turn {r.turn}" if r.turn is not None else ""
        kind = "policy " if e.origin == "policy" else ""
        form = "" if e.form == "judged" else f"{e.form} "
        line = f"{MARKS[r.passed]} {kind}{e.id} {r.status}{at}: {form}{e.text}"
        if r.status == "unscored" and r.error:
            line += f" — {r.error}"
        lines.append(line)
    return lines


def _p(item: dict[str, Any]) -> str:
    """The P(yes) of a one-token check as a small bar (verdicts stored before had a reason)."""
    p = item.get("p")
    return f" P {bar(p, 5)} {p:4.0%}" if isinstance(p, int | float) else ""
