"""The fits ragtui ships: the embedded judge's raw scores mapped to people's 0–1 scale.

On the embedded 1.5B judge every yes/no check's P(yes) sits between ~0.35 and ~0.9, so a correct,
grounded answer's raw rubric score lands near 0.35–0.6 and the 0.7 gate fails it. Its ranking
carries signal, its scale does not: an isotonic fit from raw score to the labels, chosen on the
choose half of the bundled labelled set (``sample_data/labelled/rubric.jsonl``) and reported on
the other half (docs/judge-calibration.md), puts the threshold back on the people's scale.

``shipped_fits.json`` holds one entry per (metric, judge model, language, prompt fingerprint). An
entry applies only when the model and the metric's prompt fingerprint match exactly, like a fit
from ``ragtui calibrate --fit`` (which wins over it: a team's own fit is about its own data). A
prompt edit changes the fingerprint, so an edited prompt is scored raw — and a test fails when a
bundled prompt changes without the shipped fit being measured again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .fit import Fit

SHIPPED_FITS = Path(__file__).with_name("shipped_fits.json")


@dataclass(frozen=True)
class ShippedFit:
    fit: Fit
    language: str
    fitted_on: str  # what it was fitted on, for the card and the docs
    report: dict[str, Any]  # figures on the report half
    # False when the fit did not improve the report half: the agreement is still shown, the
    # score stays raw (a fit that moves scores away from people's is not applied by default).
    applied: bool = True


def shipped_fits(path: Path | None = None) -> tuple[ShippedFit, ...]:
    """Every shipped fit; none when the file is absent (a trimmed install scores raw)."""
    return _read(path or SHIPPED_FITS)


@cache
def _read(path: Path) -> tuple[ShippedFit, ...]:
    if not path.is_file():
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for entry in data.get("fits", []):
        fit = Fit(
            entry["metric"],
            entry["model"],
            entry["fingerprint"],
            entry["kind"],
            list(entry.get("xs") or []),
            list(entry.get("ys") or []),
            entry.get("threshold"),
        )
        out.append(
            ShippedFit(
                fit,
                entry["language"],
                entry.get("fitted_on", ""),
                dict(entry.get("report") or {}),
                bool(entry.get("applied", True)),
            )
        )
    return tuple(out)


def shipped_fit(metric: str, model: str, fingerprint: str) -> Fit | None:
    """The shipped fit for exactly this metric, judge model and prompt fingerprint, if any."""
    for shipped in shipped_fits():
        fit = shipped.fit
        if shipped.applied and (fit.metric, fit.model, fit.fingerprint) == (metric, model, fingerprint):
            return fit
    return None
