"""The trust verdict (seed 002's combined check): can this answer be trusted, yes or no, and why.

Derived in code from the judgments already made on the same turn (``TurnContext.earlier``), so
it costs no judge call and can never disagree with the metrics it summarises. The dialogue runs
it last; ``build_metrics`` adds faithfulness, answerability and answer_correctness when trust
is chosen alone.

Rule, each check against the threshold recorded in that judgment's details:
- faithfulness ≥ its threshold (nothing material made up),
- answerability ≥ its threshold (the passages held the answer),
- answer_correctness ≥ its threshold, or skipped because the scenario has no reference.
Any scored check that fails → 0 ("no", with the failing checks). Otherwise, any check that is
unscored → unscored (a "yes" needs evidence; a parse failure is not evidence). Otherwise, at least
one passing check → 1 ("yes"). A check that was not run is named but neither passes nor fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..models.llm import ChatClient, DeltaCallback
from ..registry.metrics import metric_info
from ..types.judgments import Judgment
from .base import TurnContext
from .explain import trust_lines
from .texts import text
from .trust_info import INFO, INPUTS

if TYPE_CHECKING:
    from .metric_settings import MetricSettings


def check(name: str, judgment: Judgment | None, language: str) -> tuple[str, str]:
    """(outcome, explanation); outcome is pass | fail | unknown | skipped | not_run."""
    if judgment is None:
        return "not_run", text(language, "not_run", metric=name)
    if judgment.details.get("skipped"):
        why = judgment.error or judgment.details.get("conclusion") or ""
        return "skipped", text(language, "skipped", metric=name, why=why)
    if judgment.score is None:
        return "unknown", text(language, "unscored", metric=name, why=judgment.error or "")
    threshold = judgment.details.get("threshold")
    if threshold is None:
        info = metric_info(name)
        threshold = info.default_threshold if info is not None else 1.0
    values = {"metric": name, "score": judgment.score, "threshold": threshold}
    if judgment.score < threshold:
        return "fail", text(language, "fails", **values)
    return "pass", text(language, "passes", **values)


def derive(earlier: dict[str, Judgment], language: str) -> tuple[float | None, dict[str, Any], str | None]:
    """Score (1 yes, 0 no, None undecided), details and error for ``earlier``."""
    checks = {name: check(name, earlier.get(name), language) for name in INPUTS}
    outcomes = [outcome for outcome, _ in checks.values()]
    by = {o: [why for name, (outcome, why) in checks.items() if outcome == o] for o in set(outcomes)}
    details: dict[str, Any] = {
        "checks": {name: {"outcome": outcome, "why": why} for name, (outcome, why) in checks.items()},
        "threshold": 1.0,
    }
    if "fail" in by:
        score, verdict, key, reasons = 0.0, "no", "trust_no", by["fail"]
    elif "unknown" in by:
        score, verdict, key, reasons = None, "undecided", "trust_unknown", by["unknown"]
    elif "pass" in by:
        score, verdict, key = 1.0, "yes", "trust_yes"
        reasons = by["pass"] + by.get("skipped", [])
    else:
        conclusion = text(language, "trust_none")
        return None, {**details, "verdict": "undecided", "conclusion": conclusion}, conclusion
    conclusion = text(language, key, reasons="; ".join(reasons))
    details.update(verdict=verdict, conclusion=conclusion)
    return score, details, conclusion if score is None else None


class Trust:
    name = INFO.name
    info = INFO  # its description, importable without this judge (trust_info)
    explain = staticmethod(trust_lines)  # how a stored verdict was reached (explain.py)
    derived = True  # reads TurnContext.earlier; the dialogue must run it after its inputs

    def __init__(self, threshold: float = 1.0) -> None:
        self.threshold = threshold

    @classmethod
    def build(cls, judge: ChatClient, prompts_dir: Path | None, language: str, settings: MetricSettings) -> Trust:
        return cls(settings.threshold(cls.name))

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        score, details, error = derive(context.earlier, context.language)
        details["threshold"] = self.threshold
        return Judgment(metric=self.name, score=score, details=details, error=error, attempts=0, model="")
