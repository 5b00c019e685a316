"""The judge card: how far a judge (model + prompt fingerprint) agrees with people, per metric and
language, as measured — so a score can be shown with the trust it deserves.

A red 0.35 from a judge that agrees with people at Spearman 0.44 reads exactly like one from a
judge at 0.9 unless the figure is beside it. The card's entries come from what was measured for
exactly this judge and prompt: a fit stored by ``ragtui calibrate METRIC DATA --fit`` (its
cross-validated figures on the team's or any labelled data), else the fit ragtui ships for its
embedded judge (``shipped_fits``: measured on the report half of the bundled labelled set). Any
other metric and language is *unmeasured*, and says so.

Each verdict made through a fit carries its entry (``details["agreement"]``), so ``ragtui show``,
the run summary and the reports read it from the stored verdict, years later, without the prompts.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from ..record.store import Store
from .shipped_fits import shipped_fits

UNMEASURED = "unmeasured — ragtui judge-card"


@dataclass(frozen=True)
class CardEntry:
    metric: str
    language: str
    model: str
    fingerprint: str
    figure: str  # "spearman" | "kappa"
    value: float | None  # agreement with people's labels (the raw judge, before any fit)
    n: int
    on: str  # what it was measured on
    source: str  # "shipped" | "calibrate"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        value = "–" if self.value is None else f"{self.value:.2f}"
        name = "Spearman" if self.figure == "spearman" else "κ"
        return f"agrees with people: {name} {value} (n={self.n}, {self.on})"


def agreement_text(details: dict[str, Any]) -> str:
    """The line a view shows beside a verdict's score: the measured agreement it carries, or
    that its judge is unmeasured for this metric and language."""
    entry = details.get("agreement")
    if not isinstance(entry, dict) or not isinstance(entry.get("value"), int | float):
        return UNMEASURED
    name = "Spearman" if entry.get("figure") == "spearman" else "κ"
    return f"agrees with people: {name} {entry['value']:.2f} (n={entry.get('n')}, {entry.get('on')})"


def shipped_entries() -> list[CardEntry]:
    out = []
    for shipped in shipped_fits():
        raw = shipped.report.get("raw") or {}
        n = int(shipped.report.get("n") or 0)
        out.append(
            CardEntry(
                shipped.fit.metric,
                shipped.language,
                shipped.fit.model,
                shipped.fit.fingerprint,
                "kappa" if shipped.fit.kind == "threshold" else "spearman",
                raw.get("spearman"),
                n,
                f"bundled labelled set, {shipped.report.get('half', 'report half')}",
                "shipped",
            )
        )
    return out


def stored_entries(store: Store) -> list[CardEntry]:
    """One entry per fit stored by ``ragtui calibrate --fit`` (the newest per metric, model and
    prompt): its cross-validated figure on the data it was fitted on."""
    rows = store.db.execute(
        "SELECT metric, model, fingerprint, kind, report, data_path FROM judge_fits f WHERE id = "
        "(SELECT MAX(id) FROM judge_fits g WHERE g.metric = f.metric AND g.model = f.model "
        "AND g.fingerprint = f.fingerprint) ORDER BY metric"
    ).fetchall()
    out = []
    for metric, model, fingerprint, kind, report, data_path in rows:
        figures = json.loads(report or "{}")
        binary = kind == "threshold"
        before = (figures.get("before") or {}).get("kappa" if binary else "spearman")
        out.append(
            CardEntry(
                metric,
                "",
                model,
                fingerprint,
                "kappa" if binary else "spearman",
                before,
                int(figures.get("n") or 0),
                f"{data_path}, {figures.get('folds')}-fold cross-validation",
                "calibrate",
            )
        )
    return out


def entry_for(store: Store | None, metric: str, model: str, fingerprint: str) -> CardEntry | None:
    """The measured agreement of exactly this judge and prompt for ``metric``: a stored fit's
    first, else ragtui's shipped one; None when unmeasured."""
    candidates = (stored_entries(store) if store is not None else []) + shipped_entries()
    return next(
        (e for e in candidates if (e.metric, e.model, e.fingerprint) == (metric, model, fingerprint)),
        None,
    )
