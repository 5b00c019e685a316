"""Two runs compared over all the trials of each pair: a drop is a regression only when it is
more than run-to-run noise (``noise``). With one trial a pair on a side there is no noise to
measure, and ``compare`` keeps judging dialogue against dialogue."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from ..text.number_text import p_value_text, percent_text, setting_text
from ..text.score_text import delta_text, figure_text
from .dialogues import RunDialogue
from .noise import Counts, drop_p_value, gain_p_value, min_detectable_drop, significant, trials_needed
from .paired_bootstrap import SEED, Interval, paired_bootstrap

DEFAULT_ALPHA = 0.05
PLANNING_DROP = 0.10  # the drop in pass rate the "trials needed" line is about

# What a change over trials is, in the words every view prints. A change that is not beyond
# noise still has a direction: a drop and a rise are never listed together.
REGRESSION = "regression"
BETTER = "better"
LOWER_IN_NOISE = "lower, within noise"
HIGHER_IN_NOISE = "higher, within noise"
SAME = "same"


def classify(counts: Counts, alpha: float) -> tuple[float, str]:
    """One pair's (or one expectation's) passes over its trials on each side: the one-sided
    p-value of a drop, and its verdict at ``alpha`` (already divided among the tests made)."""
    p_value = drop_p_value([counts])
    if significant(p_value, alpha):
        return p_value, REGRESSION
    if significant(gain_p_value([counts]), alpha):
        return p_value, BETTER
    if counts.drop > 0:
        return p_value, LOWER_IN_NOISE
    if counts.drop < 0:
        return p_value, HIGHER_IN_NOISE
    return p_value, SAME


@dataclass
class TrialPair:
    """A scenario × persona with every counted trial of each side."""

    scenario_id: str
    persona_name: str
    base: list[RunDialogue]
    new: list[RunDialogue]
    p_value: float = 1.0  # one-sided: NEW passes fewer trials than chance would give it
    verdict: str = SAME  # regression | lower, within noise | higher, within noise | better | same

    @property
    def label(self) -> str:
        return f"{self.scenario_id} × {self.persona_name}"

    @property
    def counts(self) -> Counts:
        return Counts(sum(d.passed for d in self.base), len(self.base), sum(d.passed for d in self.new), len(self.new))

    def mean_score(self, side: str) -> float | None:
        scores = [d.score for d in getattr(self, side) if d.score is not None]
        return statistics.fmean(scores) if scores else None

    def cell(self, side: str) -> str:
        """``2/3``: passes over trials."""
        c = self.counts
        return f"{c.base_passes}/{c.base_trials}" if side == "base" else f"{c.new_passes}/{c.new_trials}"


@dataclass
class NoiseComparison:
    """The trial-level verdicts of a comparison in which both runs have several trials a pair."""

    pairs: list[TrialPair]
    alpha: float
    base_trials: int  # the most trials of a pair in BASE
    new_trials: int
    p_value: float  # the run: exact stratified test over pairs
    gain_p_value: float
    interval: Interval | None  # mean over pairs of the pass-rate change, bootstrap over pairs
    min_drop: float | None  # the smallest pass-rate drop this many pairs and trials detects (80% power)
    trials_for_drop: int | None  # trials per pair a side to detect a PLANNING_DROP drop

    @property
    def run_regression(self) -> bool:
        return significant(self.p_value, self.alpha)

    @property
    def regressions(self) -> list[TrialPair]:
        return self.with_verdict(REGRESSION)

    def with_verdict(self, verdict: str) -> list[TrialPair]:
        return [p for p in self.pairs if p.verdict == verdict]

    @property
    def dropped(self) -> list[TrialPair]:
        """Pairs passing fewer of their trials in NEW, significant or not, worst first."""
        return sorted((p for p in self.pairs if p.counts.drop > 0), key=lambda p: (p.p_value, -p.counts.drop))

    @property
    def significant(self) -> bool:
        return self.run_regression or bool(self.regressions)

    @property
    def verdict(self) -> str:
        if self.significant:
            return "regression"
        if significant(self.gain_p_value, self.alpha):
            return BETTER
        return "within noise"

    def pass_rate(self, side: str) -> float:
        rates = [
            (c.base_passes / c.base_trials if side == "base" else c.new_passes / c.new_trials)
            for c in (p.counts for p in self.pairs)
        ]
        return sum(rates) / len(rates)


def has_trials(dialogues: dict[tuple[str, str], list[RunDialogue]]) -> bool:
    return any(len(ds) > 1 for ds in dialogues.values())


def compare_trials(
    base: dict[tuple[str, str], list[RunDialogue]],
    new: dict[tuple[str, str], list[RunDialogue]],
    alpha: float = DEFAULT_ALPHA,
    *,
    seed: int = SEED,
) -> NoiseComparison:
    """Pairs in both runs, each tested over its trials; the run tested over the pairs. A pair is
    a regression when Fisher's p is within alpha / number of pairs (Bonferroni), so that the pairs
    together raise a false alarm at most alpha of the time, as the run's test does."""
    pairs = [TrialPair(s, p, base[(s, p)], new[(s, p)]) for (s, p) in sorted(base) if (s, p) in new]
    for pair in pairs:
        pair.p_value, pair.verdict = classify(pair.counts, alpha / len(pairs))
    counts = [p.counts for p in pairs]
    return NoiseComparison(
        pairs=pairs,
        alpha=alpha,
        base_trials=max((len(p.base) for p in pairs), default=0),
        new_trials=max((len(p.new) for p in pairs), default=0),
        p_value=drop_p_value(counts),
        gain_p_value=gain_p_value(counts),
        interval=paired_bootstrap([-c.drop for c in counts], seed=seed),
        min_drop=min_detectable_drop(counts, alpha),
        trials_for_drop=trials_needed(counts, PLANNING_DROP, alpha),
    )


def noise_lines(n: NoiseComparison) -> list[str]:
    """The summary of a trial comparison: the run's verdict, what it could detect, how to see more."""
    interval = n.interval
    change = (
        ""
        if interval is None
        else (
            f", change {delta_text(interval.mean)} (95% CI {delta_text(interval.low)} … "
            f"{delta_text(interval.high)}, bootstrap over pairs)"
        )
    )
    head = (
        f"pass rate (pass^1, as in Runs) {percent_text(n.pass_rate('base'))} → {percent_text(n.pass_rate('new'))} over the "
        f"{len(n.pairs)} pair(s) in both runs{change}; "
        f"p={p_value_text(n.p_value)} (exact test stratified by pair, alpha {setting_text(n.alpha)}): "
    )
    if n.verdict == "regression":
        dropped = n.regressions or n.dropped
        names = ", ".join(
            f"{p.label} ({p.cell('base')} → {p.cell('new')}, p={p_value_text(p.p_value)})" for p in dropped[:10]
        )
        head += f"regression beyond run-to-run noise; dropped: {names}"
    elif n.verdict == "better":
        head += "better beyond run-to-run noise"
    else:
        head += "within noise"
    lines = [head]
    if n.base_trials != n.new_trials:
        lines.append(
            f"base has up to {n.base_trials} trials a pair, new up to {n.new_trials}: "
            "each side is compared with the trials it has"
        )
    if n.min_drop is not None:
        line = (
            f"smallest detectable change: a drop of {figure_text(n.min_drop)} in pass rate "
            f"(80% power at alpha {setting_text(n.alpha)}, {len(n.pairs)} pairs × {n.base_trials}/{n.new_trials} trials)"
        )
        if n.trials_for_drop is not None:
            line += f"; to see a drop of {figure_text(PLANNING_DROP)}: {n.trials_for_drop} trials a pair on each side"
        lines.append(line)
    return lines


ONE_TRIAL_LINE = (
    "one trial per pair cannot separate a change from run-to-run noise: "
    "run both with `ragtui run --repeat 5` to compare over trials"
)
