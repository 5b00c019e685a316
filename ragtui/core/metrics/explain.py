"""How a non-rubric judgment was reached, as plain lines for ``ragtui show`` and the TUI.

Built from ``details`` only (never from the live metric objects), so a stored judgment explains
itself years later. The rubric's own rendering (criteria, steps, conclusion) is left to the
views; this covers the step results of the other metrics.
"""

from __future__ import annotations

from typing import Any

STATUS_SKIPPED = "skipped"
STATUS_UNSCORED = "unscored"


def status_word(score: float | None, details: dict[str, Any]) -> str | None:
    """ "skipped" for a metric that did not apply, "unscored" for a failure, None when scored."""
    if score is not None:
        return None
    return STATUS_SKIPPED if details.get("skipped") else STATUS_UNSCORED


def explain_lines(metric: str, details: dict[str, Any]) -> list[str]:
    if metric == "answer_relevancy":
        return _relevancy(details)
    if metric == "faithfulness":
        return _verdicts(details)
    if metric == "answer_correctness" and "level" in details:
        return [f"level {details['level']}/{details.get('levels', 5)}"]
    if metric == "answerability" and "supporting_span" in details:
        found = "found in the passages" if details.get("span_found") else "NOT found in the passages"
        span = details["supporting_span"] or "(none)"
        return [f"supporting span: {span} ({found if details['supporting_span'] else 'no span'})"]
    if metric == "trust":
        checks = details.get("checks") or {}
        return [f"{name}: {c.get('outcome')} — {c.get('why')}" for name, c in checks.items()]
    return []


def _verdicts(details: dict[str, Any]) -> list[str]:
    return [
        f"[{v.get('verdict')}] {v.get('statement')}" + (f" — {v['reason']}" if v.get("reason") else "")
        for v in details.get("verdicts") or []
        if isinstance(v, dict)
    ]


def _relevancy(details: dict[str, Any]) -> list[str]:
    lines = _verdicts(details)
    counts = details.get("counts")
    if isinstance(counts, dict) and lines:
        weight = details.get("uncertainty_weight", 0.3)
        total = sum(counts.values())
        lines.append(
            f"score = (yes {counts.get('yes', 0)} + {weight:g} × unsure {counts.get('unsure', 0)}) / {total}"
            + (f" × scale {details['scale']:g} = {details.get('scaled_score')}" if details.get("scale", 1) != 1 else "")
        )
    if details.get("statements_fallback"):
        lines.append(str(details["statements_fallback"]))
    return lines
