"""One entry of the judge card: a judge's measured agreement with people for one metric and language."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


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
    source: str  # "shipped" | "calibrate" | "measured" (a labelled set) | "labels" (the team's own)
    # Added with ``ragtui judge-card --measure``; verdicts stored before have none of these keys.
    low: float | None = None  # 95% interval (card_interval)
    high: float | None = None
    unscored: int = 0  # items the judge failed on: counted, left out of the figure
    quick: bool = False  # measured on a small sample (--quick)
    measured_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        return agreement_line(self.to_dict())


def figure_name(figure: object) -> str:
    return "Spearman" if figure == "spearman" else "κ"


def interval_text(low: object, high: object) -> str:
    """ "95% CI a–b", or "" when the entry has no interval (older verdicts, too few items)."""
    if isinstance(low, int | float) and isinstance(high, int | float):
        return f"95% CI {low:.2f}–{high:.2f}"
    return ""


def agreement_line(entry: dict[str, Any]) -> str:
    value = entry.get("value")
    shown = f"{value:.2f}" if isinstance(value, int | float) else "–"
    extra = [f"n={entry.get('n')}"]
    interval = interval_text(entry.get("low"), entry.get("high"))
    if interval:
        extra.append(interval)
    extra.append(str(entry.get("on")))
    return f"agreement with people: {figure_name(entry.get('figure'))} {shown} ({', '.join(extra)})"
