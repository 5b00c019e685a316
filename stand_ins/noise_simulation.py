"""Simulated comparisons of runs with trials, for checking that ``ragtui compare`` holds its
false-alarm rate on two equal bots and detects the drop it says it can (tests and the bench).

Each pair has a pass probability drawn uniformly; BASE passes each trial with it, NEW with it
minus ``drop``. Drawing base probabilities from [drop, 1] keeps every new probability a real one,
so the planted drop is exactly ``drop`` on every pair."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ragtui.core.runs.noise import Counts, drop_p_value, min_detectable_drop, significant


def simulated_counts(rng: random.Random, pairs: int, trials: int, drop: float = 0.0) -> list[Counts]:
    counts = []
    for _ in range(pairs):
        p = rng.uniform(drop, 1.0)
        base = sum(rng.random() < p for _ in range(trials))
        new = sum(rng.random() < p - drop for _ in range(trials))
        counts.append(Counts(base, trials, new, trials))
    return counts


@dataclass(frozen=True)
class NoiseCheck:
    comparisons: int
    false_alarm_rate: float  # A/A: share of comparisons the run's test called a regression
    promised_drop: float  # the mean "smallest detectable change" printed on the A/A comparisons
    power: float  # share of comparisons with that drop planted that were called a regression


def check_noise(*, pairs: int, trials: int, comparisons: int, alpha: float, seed: int) -> NoiseCheck:
    rng = random.Random(seed)
    false_alarms, promised = 0, 0.0
    for _ in range(comparisons):
        counts = simulated_counts(rng, pairs, trials)
        false_alarms += significant(drop_p_value(counts), alpha)
        promised += min_detectable_drop(counts, alpha) or 0.0
    promised /= comparisons
    detected = sum(
        significant(drop_p_value(simulated_counts(rng, pairs, trials, promised)), alpha) for _ in range(comparisons)
    )
    return NoiseCheck(comparisons, false_alarms / comparisons, promised, detected / comparisons)
