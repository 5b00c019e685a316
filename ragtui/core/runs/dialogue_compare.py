"""Dialogue verdicts (resolution, retention, repetition, expectations, a plugin's) of two runs side by side.

Flags per pair and metric, like the turn scores' but stricter about evidence in the other
direction: an unscored dialogue verdict is never a regression (it is shown as unscored, never
as 0), and a verdict missing in one run — dialogue metrics off, or a run older than them —
is shown as missing.
- ``regression``: a success in BASE, scored and not a success in NEW;
- ``fixed``: scored and not a success in BASE, a success in NEW;
- ``unscored in base|new|both``, ``skipped`` (not applicable, e.g. repetition with one answer),
  ``missing in base|new|both``; ``same`` otherwise.
A success is what ``metric_views.status`` calls a pass: for resolution the outcome ``resolved``
or ``handed_over`` (the run's resolution rate counts the same); for the others, a score at the
verdict's pass mark.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..registry.metrics import DIALOGUE, RESOLUTION_RATE, gate_metric, metric_names
from ..store.dialogue_verdicts import ResolutionRate
from .dialogues import RunDialogue, VerdictScore
from .paired_bootstrap import RESAMPLES, SEED, Interval, paired_bootstrap


def verdict_metrics() -> tuple[str, ...]:
    """Every registered dialogue metric, plugins included (read when asked: a plugin registers
    when the registry first loads, which may be after this module is imported)."""
    return metric_names(DIALOGUE)


def verdict_flag(base: VerdictScore | None, new: VerdictScore | None) -> str:
    if base is None or new is None:
        if base is None and new is None:
            return "missing in both"
        return "missing in base" if base is None else "missing in new"
    b, n = base.status, new.status
    if "skipped" in (b, n):
        return "skipped"
    if "unscored" in (b, n):
        return "unscored in both" if b == n else f"unscored in {'base' if b == 'unscored' else 'new'}"
    if b == "pass" and n == "fail":
        return "regression"
    if b == "fail" and n == "pass":
        return "fixed"
    return "same"


def success(dialogue: RunDialogue) -> float | None:
    """1 resolved or handed over (a success outcome of the metric that makes the resolution rate),
    0 not, None when there is no scored verdict of it."""
    v = dialogue.verdicts.get(gate_metric(RESOLUTION_RATE))
    if v is None or v.score is None:
        return None
    return 1.0 if v.status == "pass" else 0.0


def side_rate(dialogues: list[RunDialogue]) -> ResolutionRate:
    """The resolution rate of one side's dialogues; unscored and missing verdicts counted apart."""
    values = [success(d) for d in dialogues]
    scored = [v for v in values if v is not None]
    return ResolutionRate(successes=int(sum(scored)), scored=len(scored), unscored=len(values) - len(scored))


@dataclass
class ResolutionComparison:
    base: ResolutionRate
    new: ResolutionRate
    interval: Interval | None  # mean paired difference of success (0/1), pairs scored in both
    base_missing: bool  # the whole run has no dialogue verdict
    new_missing: bool

    @property
    def delta(self) -> float | None:
        if self.base.rate is None or self.new.rate is None:
            return None
        return self.new.rate - self.base.rate


def compare_resolution(
    base: list[RunDialogue],
    new: list[RunDialogue],
    *,
    base_missing: bool,
    new_missing: bool,
    seed: int = SEED,
    resamples: int = RESAMPLES,
) -> ResolutionComparison:
    """Both runs' resolution rates over the matched pairs (``base[i]`` and ``new[i]`` are one
    pair) and their paired difference; ``*_missing``: that run has no dialogue verdict at all."""
    deltas = [
        n - b
        for bd, nd in zip(base, new, strict=True)
        if (b := success(bd)) is not None and (n := success(nd)) is not None
    ]
    return ResolutionComparison(
        base=side_rate(base),
        new=side_rate(new),
        interval=paired_bootstrap(deltas, seed=seed, resamples=resamples),
        base_missing=base_missing,
        new_missing=new_missing,
    )
