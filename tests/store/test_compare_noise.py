"""The statistics of a compare over trials: exact p-values checked by hand, the false-alarm rate
of two equal bots held under alpha, and the promised smallest detectable drop detected about 80%
of the time. Seeded simulations, pure Python."""

from __future__ import annotations

import math

import pytest

from ragtui.core.runs.noise import Counts, drop_p_value, gain_p_value, min_detectable_drop, trials_needed
from stand_ins.noise_simulation import check_noise

ALPHA = 0.05


def test_fisher_one_pair_matches_the_hypergeometric_tail():
    # 3/3 → 0/3: the only table as extreme, 1 of C(6,3) ways to place 3 passes.
    assert drop_p_value([Counts(3, 3, 0, 3)]) == pytest.approx(1 / 20)
    # 4/5 → 1/5: P(A ≥ 4) with 5 passes over 10 trials = (C(5,4)C(5,1) + C(5,5)) / C(10,5).
    assert drop_p_value([Counts(4, 5, 1, 5)]) == pytest.approx((25 + 1) / 252)
    assert gain_p_value([Counts(1, 5, 4, 5)]) == pytest.approx((25 + 1) / 252)
    assert drop_p_value([Counts(2, 4, 2, 4)]) > 0.5  # no change: nowhere near significant
    assert drop_p_value([]) == 1.0


def test_the_run_test_is_the_convolution_of_its_pairs():
    # Two pairs of 1/1 → 0/1: each puts its one pass on BASE with chance 1/2, both with 1/4.
    assert drop_p_value([Counts(1, 1, 0, 1), Counts(1, 1, 0, 1)]) == pytest.approx(0.25)
    # A pair passing everything on both sides carries no information and changes nothing.
    one = drop_p_value([Counts(3, 3, 0, 3)])
    assert drop_p_value([Counts(3, 3, 0, 3), Counts(5, 5, 5, 5)]) == pytest.approx(one)


def test_sizes_shrink_with_trials_and_match_each_other():
    few = [Counts(3, 5, 3, 5)] * 20
    many = [Counts(12, 20, 12, 20)] * 20
    small, large = min_detectable_drop(many, ALPHA), min_detectable_drop(few, ALPHA)
    assert small is not None and large is not None and small < large
    k = trials_needed(few, large, ALPHA)
    assert k in (5, 6)  # the inverse of each other: the drop 5 trials can see needs 5 trials (up to rounding)
    assert trials_needed(few, 0.10, ALPHA) > 5
    # z(alpha) + z(power) times the standard error, plus half a pass a side over 20 pairs × 5 trials.
    half = min_detectable_drop(few, ALPHA, power=0.5)
    assert half is not None
    assert math.isclose((half - 0.01) / (large - 0.01), 1.645 / (1.645 + 0.842), rel_tol=0.01)


def test_two_equal_bots_are_called_a_regression_at_most_alpha_of_the_time_and_the_promised_drop_is_seen():
    """200 A/A comparisons of 20 pairs × 5 trials (pass probability per pair uniform), then 200
    with the printed smallest detectable drop planted on every pair."""
    check = check_noise(pairs=20, trials=5, comparisons=200, alpha=ALPHA, seed=7)
    assert check.false_alarm_rate <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / 200), check
    assert 0.10 < check.promised_drop < 0.25, check
    assert 0.65 <= check.power <= 0.95, check


def test_the_old_rule_would_fail_almost_every_comparison_of_two_equal_bots():
    """Why a drop must be tested: with 20 pairs, some pair passes fewer trials in NEW nearly always."""
    from random import Random

    from stand_ins.noise_simulation import simulated_counts

    rng = Random(3)
    any_drop = sum(any(c.drop > 0 for c in simulated_counts(rng, 20, 5)) for _ in range(100))
    assert any_drop >= 95
