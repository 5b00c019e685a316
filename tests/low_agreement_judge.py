"""A judge whose measured agreement with people is low: a fit stored for the fake judge's model
and the rubric's prompt whose cross-validated figure before the fit is ``value``."""

from __future__ import annotations

from pathlib import Path

from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.judge_quality.fit import FitReport, fit, prompt_fingerprint
from ragtui.core.judge_quality.fit_store import save_fit
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.store.store import Store

from .conftest import JUDGE


def store_rubric_fit(database: Path, value: float, n: int = 18) -> None:
    """The fake judge's rubric measured at Spearman ``value`` (n labelled answers). The fit
    is the identity on its five points (scores between them are interpolated by the fit)."""
    judge = CheckedRubricJudge(None, load_prompt(bundled_dir("prompts"), "en", "judge_probes"))  # type: ignore[arg-type]
    raw = [0.0, 0.25, 0.5, 0.75, 1.0]
    stored = fit("rubric", JUDGE, prompt_fingerprint(judge), False, raw, raw)
    report = FitReport(n, 5, {"spearman": value, "mae": 0.3}, {"spearman": value, "mae": 0.3})
    store = Store.open(database)
    try:
        save_fit(store, stored, report, "labels.jsonl", None)
    finally:
        store.close()
