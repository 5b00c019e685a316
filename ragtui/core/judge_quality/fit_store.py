"""Fits, stored through ``store.judge_fits`` (``judge_fits``, schema migration 5), and the
wrapper that applies them.

``fitted_metrics`` wraps each metric that has a fit for exactly this judge model and prompt
fingerprint; the newest such fit wins, and without one the fit ragtui ships for its embedded judge
(``shipped_fits``) applies. Everything else runs unchanged — and a judgment made
with a fit says so and keeps its raw score (``details["fit"]``), so nothing is hidden.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..metrics.base import Metric, TurnContext
from ..models.llm import DeltaCallback
from ..store import judge_fits
from ..store.store import Store, now
from ..types.agreement_floor import AgreementFloor
from ..types.judge_key import carry, judge_key
from ..types.judgments import Judgment
from .fit import Fit, FitReport, prompt_fingerprint
from .judge_card import entry_for
from .shipped_fits import shipped_fit


def save_fit(store: Store, fit: Fit, report: FitReport, data_path: str, run_id: int | None) -> int:
    row = {
        "created_at": now(),
        "metric": fit.metric,
        "model": fit.model,
        "fingerprint": fit.fingerprint,
        "kind": fit.kind,
        "params": json.dumps(fit.params()),
        "report": json.dumps(dataclasses.asdict(report)),
        "data_path": data_path,
        "run_id": run_id,
    }
    return judge_fits.insert(store, row)


def find_fit(store: Store, metric: str, model: str, fingerprint: str) -> Fit | None:
    row = judge_fits.newest(store, metric, model, fingerprint)
    if row is None:
        return None
    params = json.loads(row[1])
    return Fit(
        metric, model, fingerprint, row[0], params.get("xs") or [], params.get("ys") or [], params.get("threshold")
    )


class FittedMetric:
    """A metric whose raw score is mapped through a fit; the raw score stays in the details.
    Without a fit (``fit`` None: measured, but no fit worth applying) only the measured
    agreement is attached and the score is left as the judge gave it."""

    def __init__(
        self,
        inner: Metric,
        fit: Fit | None,
        source: str = "calibrate",
        agreement: dict[str, Any] | None = None,
        key: dict[str, str] | None = None,
    ) -> None:
        self.inner = inner
        self.fit = fit
        self.source = source  # "calibrate" (stored by `ragtui calibrate --fit`) | "shipped"
        # This judge's measured agreement with people (``judge_card``), carried by each verdict.
        self.agreement = agreement
        # Its judge model and prompt fingerprint: a view reads the card's agreement for them when
        # it shows the verdict (``types.judge_key``), so a later measurement reaches old verdicts.
        self.key = key
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:  # template, examples, threshold… of the inner metric
        return getattr(self.inner, name)

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        return self.apply(await self.inner.judge(context, on_delta))

    def apply(self, judgment: Judgment) -> Judgment:
        """The fit applied to a judgment of the inner metric (also one built from batch results)."""
        if judgment.score is None:
            return judgment
        carry(judgment.details, self.key, self.agreement)
        if self.fit is None:
            return judgment
        fitted = self.fit.apply(judgment.score)
        judgment.details["fit"] = {
            "kind": self.fit.kind,
            "raw_score": judgment.score,
            "model": self.fit.model,
            "fingerprint": self.fit.fingerprint,
            "source": self.source,
        }
        judgment.score = fitted
        return judgment


def fitted_metrics(
    metrics: list[Metric], store: Store, model: str, floor: AgreementFloor | None = None
) -> list[Metric]:
    """Each metric wrapped in its fit when one matches this model and prompt exactly: a fit
    stored by ``ragtui calibrate --fit`` first (the team's own labels), else the one ragtui ships
    for its embedded judge (``shipped_fits``). Each carries the card entry that may decide its
    gate (``judge_card.entry_for`` under ``floor``) and its judge key — also when unmeasured and
    unfitted, so a measurement made later reaches its verdicts."""
    out: list[Metric] = []
    for metric in metrics:
        fingerprint = prompt_fingerprint(metric)
        fit = find_fit(store, metric.name, model, fingerprint)
        source = "calibrate"
        if fit is None:
            fit, source = shipped_fit(metric.name, model, fingerprint), "shipped"
        entry = entry_for(store, metric.name, model, fingerprint, floor)
        key = judge_key(model, fingerprint)
        out.append(FittedMetric(metric, fit, source, entry.to_dict() if entry else None, key))
    return out
