"""How a dialogue verdict was reached, as plain lines for ``ragtui show``, the reports and the
TUI: each intent met or not, each fact kept or not, each later answer new or a repeat, each
expectation met or missed. Built from the stored ``details`` only, so an old verdict still
explains itself. Each built-in metric's class names its function here as its ``explain``; every
view asks through ``registry.metric_views``, so a plugin's own ``explain`` shows the same way."""

from __future__ import annotations

from typing import Any

from ...registry import metric_views
from ...types.expectations import results_from_details
from ..explain import bar

# ✓ passed (met / kept), ✗ failed (missed / broken), ? unscored (a reply that could not be read)
MARKS = {True: "✓", False: "✗", None: "?"}


def explain_dialogue(metric: str, details: dict[str, Any]) -> list[str]:
    """The lines of any dialogue metric, plugins included: its class's ``explain``."""
    return metric_views.explain(metric, details)


def resolution_lines(details: dict[str, Any]) -> list[str]:
    """``[met] P ████░ 80% link an account — steps given``, then whether it was handed over."""
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


def retention_lines(details: dict[str, Any]) -> list[str]:
    """``[kept] turn 1: uses the app — fine``, one per fact."""
    return [
        f"[{f.get('verdict')}] turn {f.get('turn')}: {f.get('fact')}" + (f" — {f['reason']}" if f.get("reason") else "")
        for f in details.get("facts") or []
    ]


def repetition_lines(details: dict[str, Any]) -> list[str]:
    """``turn 3 vs turn 2: similarity 0.91, REPEATS (by code)``, one per compared pair."""
    return [
        f"turn {p.get('turn')} vs turn {p.get('like_turn')}: similarity {p.get('similarity')}, "
        f"{'REPEATS' if p.get('repeats') else 'new'} (by {p.get('decided_by')})"
        + (f" — {p['reason']}" if p.get("reason") else "")
        for p in details.get("pairs") or []
    ]


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
