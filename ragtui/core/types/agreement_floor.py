"""A verdict's trust level: how its judge's measured agreement with people (``details["agreement"]``,
``judge_quality.judge_card``) compares with the floor (``[min_judge_agreement]`` in the config).

* ``measured``: the figure's 95% interval lies at or over the floor (its lower bound clears it) —
  a score like any other;
* ``low``: measured, but the interval reaches under the floor, on fewer labelled items than the
  floor's ``items``, or with no figure (too few labels to compute one) — drawn neither red nor
  green, marked ``≈``, and left out of the CI gate unless asked;
* ``unmeasured``: no entry at all — shown as unmeasured and gated as it always was.

Pure and light (no metric is imported): every view and the gate ask here, so they never
disagree on which scores are low, and the TUI's first frame does not wait for the LLM client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

DEFAULT_SPEARMAN_FLOOR = 0.5
DEFAULT_KAPPA_FLOOR = 0.4
# Fewer labelled items than this and a figure is a handful of items in some order (two items
# give Spearman ±1): too few to call a judge measured, whatever the figure says.
DEFAULT_MIN_ITEMS = 10


@dataclass(frozen=True)
class AgreementFloor:
    # A score on a scale is measured by Spearman's rank correlation with people's labels, a
    # pass/fail verdict by Cohen's κ: each has its own floor.
    spearman: float = DEFAULT_SPEARMAN_FLOOR
    kappa: float = DEFAULT_KAPPA_FLOOR
    items: int = DEFAULT_MIN_ITEMS

    def for_figure(self, figure: object) -> float:
        return self.kappa if figure == "kappa" else self.spearman


TrustLevel = Literal["measured", "low", "unmeasured"]

# Beside a low-agreement score: readable without colour.
LOW_MARK = "≈"
LOW_WORDS = "low agreement"


def agreement_entry(details: dict[str, Any] | None) -> dict[str, Any] | None:
    entry = (details or {}).get("agreement")
    return entry if isinstance(entry, dict) else None


def _value(entry: dict[str, Any]) -> float | None:
    return _number(entry.get("value"))


# The rule printed under the judge card (``ragtui judge-card``), worded once.
INTERVAL_RULE = (
    "measured: the 95% interval's lower bound at or over the floor — a point figure over it with an interval "
    "reaching under it is low agreement (12 items at Spearman 0.56 can be anywhere from −0.07 to 0.87)"
)


def _number(value: object) -> float | None:
    # bool is an int to Python, but never a measured figure
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def reading(entry: dict[str, Any]) -> float | None:
    """The figure the floor reads: the 95% interval's lower bound. An entry that has interval
    keys but no bound (too few items for one) reads as nothing — a handful of items is no
    evidence; an entry stored before intervals were carried (no such keys) reads its point figure."""
    if "low" in entry:
        return _number(entry.get("low")) if _value(entry) is not None else None
    return _value(entry)


def trust_level(details: dict[str, Any] | None, floor: AgreementFloor) -> TrustLevel:
    entry = agreement_entry(details)
    if entry is None:
        return "unmeasured"
    read = reading(entry)
    if read is None or read < floor.for_figure(entry.get("figure")) or _items(entry) < floor.items:
        return "low"
    return "measured"


def decides_gate(entry: dict[str, Any], floor: AgreementFloor) -> bool:
    """Whether a card entry may decide what gates: a quick measurement (``judge-card --measure
    --quick``) or one on fewer labelled items than the floor's ``items`` is shown, never carried
    by a verdict — so it can neither switch a gate off nor on."""
    return not entry.get("quick") and _items(entry) >= floor.items


def _items(entry: dict[str, Any]) -> int:
    n = entry.get("n")
    return n if isinstance(n, int) and not isinstance(n, bool) else 0


def is_low(details: dict[str, Any] | None, floor: AgreementFloor) -> bool:
    return trust_level(details, floor) == "low"


def figure_name(entry: dict[str, Any]) -> str:
    return "κ" if entry.get("figure") == "kappa" else "Spearman"


def short_agreement(details: dict[str, Any] | None) -> str:
    """``Spearman 0.10 (n=18)``, ``κ 0.62 [0.41–0.80] (n=40)`` or ``unmeasured``: one cell of a
    table (CSV, compare)."""
    entry = agreement_entry(details)
    if entry is None:
        return "unmeasured"
    value = _value(entry)
    text = f"{figure_name(entry)} {'–' if value is None else f'{value:.2f}'}"
    low, high = entry.get("low"), entry.get("high")
    if isinstance(low, int | float) and isinstance(high, int | float):
        text += f" [{low:.2f}–{high:.2f}]"
    return f"{text} (n={entry.get('n')})"


def floor_words(details: dict[str, Any] | None, floor: AgreementFloor) -> str:
    """Why a score is low agreement: ``Spearman 0.10 < floor 0.5``, ``Spearman 1.00 on only 2
    labelled items (< 10)``, or ``Spearman 0.56, but its 95% CI starts at -0.07 < floor 0.5`` when
    the point figure clears the floor and its interval does not."""
    entry = agreement_entry(details) or {}
    value = _value(entry)
    shown = "unknown" if value is None else f"{value:.2f}"
    target = floor.for_figure(entry.get("figure"))
    if value is not None and value >= target and _items(entry) < floor.items:
        return f"{figure_name(entry)} {shown} on only {_items(entry)} labelled items (< {floor.items})"
    read = reading(entry)
    if value is not None and value >= target:
        if read is None:
            return f"{figure_name(entry)} {shown}, too few items for an interval to clear floor {target:g}"
        return f"{figure_name(entry)} {shown}, but its 95% CI starts at {read:.2f} < floor {target:g}"
    return f"{figure_name(entry)} {shown} < floor {target:g}"


def agreement_words(details: dict[str, Any] | None, floor: AgreementFloor) -> str:
    """How far a verdict's judge agrees with people, in words first and figures second, for a
    person reading a screen: ``low agreement with people (Spearman -0.08, 95% CI -0.53 to 0.41,
    n=18; floor 0.5)``, ``agrees with people (Spearman 0.62, n=40)``, or ``agreement
    unmeasured``."""
    entry = agreement_entry(details)
    if entry is None:
        return "agreement unmeasured"  # short: the header line it sits in must not wrap at 80 columns
    value = _value(entry)
    figures = [f"{figure_name(entry)} {'unknown' if value is None else f'{value:.2f}'}"]
    low, high = entry.get("low"), entry.get("high")
    if isinstance(low, int | float) and isinstance(high, int | float):
        figures.append(f"95% CI {low:.2f} to {high:.2f}")
    figures.append(f"n={_items(entry)}")
    shown = ", ".join(figures)
    if trust_level(details, floor) == "measured":
        return f"agrees with people ({shown})"
    target = floor.for_figure(entry.get("figure"))
    if value is not None and value >= target and _items(entry) < floor.items:
        why = f"fewer than {floor.items} labelled items"
    else:
        why = f"floor {target:g}"
    return f"{LOW_WORDS} with people ({shown}; {why})"


def trust_cell(details: dict[str, Any] | None, floor: AgreementFloor) -> str:
    """``Spearman 0.10 (n=18) · low agreement`` — a cell that says the level without colour."""
    text = short_agreement(details)
    return f"{text} · {LOW_WORDS}" if is_low(details, floor) else text
