"""How a turn judgment was reached, as plain lines for ``ragtui show`` and the TUI.

Built from ``details`` only (never from the live metric objects), so a stored judgment explains
itself years later. Each built-in turn metric's class names its function here as its
``explain`` (as the dialogue metrics do with ``dialogue/explain.py``); ``explain_lines`` asks the
registry for it, so a plugin's own ``explain`` shows the same way and no view names a metric.
The rubric's own rendering (criteria, steps, conclusion) is left to the views.
"""

from __future__ import annotations

from typing import Any

from ..registry import metric_views

STATUS_SKIPPED = "skipped"
STATUS_UNSCORED = "unscored"


def status_word(score: float | None, details: dict[str, Any]) -> str | None:
    """ "skipped" for a metric that did not apply, "unscored" for a failure, None when scored."""
    if score is not None:
        return None
    return STATUS_SKIPPED if details.get("skipped") else STATUS_UNSCORED


def explain_lines(metric: str, details: dict[str, Any]) -> list[str]:
    fit = details.get("fit")
    lines = metric_views.explain(metric, details)
    if isinstance(fit, dict) and isinstance(fit.get("raw_score"), int | float):
        whose = "ragtui's shipped" if fit.get("source") == "shipped" else "a stored"
        lines.insert(
            0,
            f"fitted to people's labels ({whose} {fit.get('kind')} fit for this judge and prompt); "
            f"raw {fit['raw_score']:.2f}",
        )
    return lines


def correctness_lines(details: dict[str, Any]) -> list[str]:
    """answer_correctness: the level read, and how it was read."""
    if "level" not in details:
        return []
    return [
        f"level {details['level']:.2f}/{details.get('levels', 5)}",
        *distribution_lines(details.get("level_question")),
    ]


def answerability_lines(details: dict[str, Any]) -> list[str]:
    """answerability: how its one level question was read."""
    return distribution_lines(details["level_question"]) if "level_question" in details else []


def rubric_probe_lines(details: dict[str, Any]) -> list[str]:
    """The checked rubric's yes/no checks — unless it stored them as its steps, which the views
    show already."""
    return probe_lines(details["probes"]) if "probes" in details and not details.get("steps") else []


def trust_lines(details: dict[str, Any]) -> list[str]:
    """trust: each check it is derived from, its outcome and why."""
    checks = details.get("checks") or {}
    return [f"{name}: {c.get('outcome')} — {c.get('why')}" for name, c in checks.items()]


BAR_WIDTH = 10
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(p: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of ``p`` (0–1) in ``width`` cells, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, p)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(width)


def distribution_lines(graded: Any) -> list[str]:
    """How a probability-scored answer was read: its source, then one small bar per level."""
    if not isinstance(graded, dict):
        return []
    source = graded.get("source")
    if source == "sampled":
        return [f"sampled level {graded.get('sampled')!r}: the endpoint gave no probabilities"]
    if source != "probability":
        return [f"unscored: {graded.get('error')}"] if graded.get("error") else []
    lines = ["scored from the judge's probabilities:"]
    for label, p in (graded.get("distribution") or {}).items():
        if isinstance(p, int | float):
            lines.append(f"  {label:>3} {bar(float(p))} {p:4.0%}")
    return lines


def probe_lines(probes: Any) -> list[str]:
    """The rubric's yes/no checks, each with P(yes) as a bar."""
    lines = []
    for probe in probes if isinstance(probes, list) else []:
        if not isinstance(probe, dict):
            continue
        value = probe.get("value")
        shown = f"{bar(value)} {value:4.0%}" if isinstance(value, int | float) else "unscored"
        mark = " (sampled)" if probe.get("source") == "sampled" else ""
        lines.append(f"P(yes) {shown}{mark}  {probe.get('question')}")
    return lines


def verdict_lines(details: dict[str, Any]) -> list[str]:
    """Each statement with its P(yes) as a bar (verdicts stored before probabilities: the
    sampled verdict and its reason)."""
    lines = []
    for v in details.get("verdicts") or []:
        if not isinstance(v, dict):
            continue
        p = v.get("p_yes")
        if isinstance(p, int | float) and "reason" not in v:
            mark = " (sampled)" if v.get("source") == "sampled" else ""
            lines.append(f"P(yes) {bar(float(p))} {p:4.0%}{mark}  {v.get('statement')}")
        else:
            lines.append(
                f"[{v.get('verdict')}] {v.get('statement')}" + (f" — {v['reason']}" if v.get("reason") else "")
            )
    if str(details.get("failed_step", "")).startswith("check") and details.get("conclusion"):
        lines.append(f"unscored: {details['conclusion']}")
    return lines


def relevancy_lines(details: dict[str, Any]) -> list[str]:
    lines = verdict_lines(details)
    verdicts = [v for v in details.get("verdicts") or [] if isinstance(v, dict)]
    counts = details.get("counts")
    scale = details.get("scale", 1)
    scaled = f" × scale {scale:g} = {details.get('scaled_score')}" if scale != 1 else ""
    if verdicts and all(isinstance(v.get("p_yes"), int | float) for v in verdicts) and "counts" not in details:
        mean = sum(float(v["p_yes"]) for v in verdicts) / len(verdicts)
        lines.append(f"score = mean P(yes) of {len(verdicts)} statement(s) = {mean:.2f}{scaled}")
    elif isinstance(counts, dict) and lines:
        weight = details.get("uncertainty_weight", 0.3)
        total = sum(counts.values())
        lines.append(
            f"score = (yes {counts.get('yes', 0)} + {weight:g} × unsure {counts.get('unsure', 0)}) / {total}{scaled}"
        )
    if details.get("statements_fallback"):
        lines.append(str(details["statements_fallback"]))
    return lines
