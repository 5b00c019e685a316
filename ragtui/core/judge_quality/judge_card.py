"""The judge card: how far a judge (model + prompt fingerprint) agrees with people, per metric and
language, as measured — so a score can be shown with the trust it deserves.

A red 0.35 from a judge that agrees with people at Spearman 0.44 reads exactly like one from a
judge at 0.9 unless the figure is beside it. The card's entries come from what was measured for
exactly this judge and prompt, newest first among what this database holds:

- ``ragtui judge-card --measure``: the bundled labelled sets' report halves, or the team's own
  labels with ``--from-labels`` (``card_store``), each with a 95% interval;
- a fit stored by ``ragtui calibrate METRIC DATA --fit`` (its cross-validated figures);

else what ragtui ships for its embedded judge: the card measured on the report halves
(``shipped_card.json``), then a shipped fit's report-half figures (``shipped_fits``). Any other metric and
language is *unmeasured*, and says so.

Each verdict made through a fit carries its entry (``details["agreement"]``), so ``ragtui show``,
the run summary and the reports read it from the stored verdict, years later, without the prompts.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..store import judge_fits
from ..store.store import Store
from ..types.agreement_floor import AgreementFloor, decides_gate
from .card_entry import CardEntry, agreement_line
from .card_interval import spearman_interval
from .card_store import all_entries
from .shipped_fits import shipped_fits

__all__ = ["CardEntry", "UNMEASURED", "agreement_text", "entry_for", "newest_entry", "shipped_card_entries"]

UNMEASURED = "unmeasured — ragtui judge-card"
SHIPPED_CARD = Path(__file__).with_name("shipped_card.json")


def agreement_text(details: dict[str, Any]) -> str:
    """The line a view shows beside a verdict's score: the measured agreement it carries (with its
    95% interval when it has one), or that its judge is unmeasured for this metric and language."""
    entry = details.get("agreement")
    if not isinstance(entry, dict) or not isinstance(entry.get("value"), int | float):
        return UNMEASURED
    return agreement_line(entry)


def _interval(figure: str, value: float | None, n: int) -> tuple[float | None, float | None]:
    """A Spearman figure's interval from its value and n alone (a fit's report keeps no pairs)."""
    found = spearman_interval(value, n) if figure == "spearman" else None
    return (found[0], found[1]) if found else (None, None)


def shipped_entries() -> list[CardEntry]:
    """The figures of the fits ragtui ships (their report halves)."""
    out = []
    for shipped in shipped_fits():
        raw = shipped.report.get("raw") or {}
        n = int(shipped.report.get("n") or 0)
        figure = "kappa" if shipped.fit.kind == "threshold" else "spearman"
        value = raw.get(figure)
        low, high = _interval(figure, value, n)
        out.append(
            CardEntry(
                shipped.fit.metric,
                shipped.language,
                shipped.fit.model,
                shipped.fit.fingerprint,
                figure,
                value,
                n,
                f"bundled labelled set, {shipped.report.get('half', 'report half')}",
                "shipped",
                low,
                high,
            )
        )
    return out


def shipped_card_entries(path: Path | None = None) -> tuple[CardEntry, ...]:
    """The card ragtui ships for its embedded judge; none when the file is absent."""
    return _read_card(path or SHIPPED_CARD)


@cache
def _read_card(path: Path) -> tuple[CardEntry, ...]:
    if not path.is_file():
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    fields = set(CardEntry.__dataclass_fields__)
    return tuple(
        CardEntry(**{**{k: v for k, v in e.items() if k in fields}, "source": "shipped"})
        for e in data.get("entries", [])
    )


def fit_entries(store: Store) -> list[tuple[str, CardEntry]]:
    """(stored at, entry) per fit stored by ``ragtui calibrate --fit`` (the newest per metric,
    model and prompt): its cross-validated figure on the data it was fitted on."""
    out = []
    for metric, model, fingerprint, kind, report, data_path, created_at in judge_fits.newest_each(store):
        figures = json.loads(report or "{}")
        figure = "kappa" if kind == "threshold" else "spearman"
        before = (figures.get("before") or {}).get(figure)
        n = int(figures.get("n") or 0)
        low, high = _interval(figure, before, n)
        entry = CardEntry(
            metric,
            "",
            model,
            fingerprint,
            figure,
            before,
            n,
            f"{data_path}, {figures.get('folds')}-fold cross-validation",
            "calibrate",
            low,
            high,
            measured_at=created_at,
        )
        out.append((created_at, entry))
    return out


def stored_entries(store: Store) -> list[CardEntry]:
    """Everything this database measured, newest first: card entries and fits' figures."""
    dated = fit_entries(store) + [(e.measured_at or "", e) for e in all_entries(store)]
    dated.sort(key=lambda pair: pair[0], reverse=True)
    return [entry for _at, entry in dated]


def _candidates(store: Store | None, metric: str, model: str, fingerprint: str) -> list[CardEntry]:
    """Every entry for exactly this judge and prompt, newest first: this database's, then the
    shipped card's (measured on the whole report half as it ships), then the shipped fit's (the
    report half as it was when the fit was chosen)."""
    found = (stored_entries(store) if store is not None else []) + list(shipped_card_entries())
    found += shipped_entries()
    return [e for e in found if (e.metric, e.model, e.fingerprint) == (metric, model, fingerprint)]


def entry_for(
    store: Store | None, metric: str, model: str, fingerprint: str, floor: AgreementFloor | None = None
) -> CardEntry | None:
    """The agreement a verdict of this judge and prompt carries, and so what decides whether it
    gates: the newest entry that may decide it (``decides_gate``: not quick, on at least the
    floor's ``items`` labelled items) — a quick measurement never replaces it. None: unmeasured."""
    floor = floor or AgreementFloor()
    return next((e for e in _candidates(store, metric, model, fingerprint) if decides_gate(e.to_dict(), floor)), None)


def newest_entry(store: Store | None, metric: str, model: str, fingerprint: str) -> CardEntry | None:
    """The newest entry for this judge and prompt, a quick one included: what the card shows."""
    return next(iter(_candidates(store, metric, model, fingerprint)), None)
