"""pass^k of repeated trials: the unbiased estimator against hand-computed values, and its
bootstrap interval (resampling pairs) against pairs whose pass probabilities are known."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from ragtui.core.runs.pass_k import PairTrials, Trial, group_trials, pass_hat_k, pass_k_line


def trials(scenario: str, outcomes: list[bool], persona: str = "calm") -> list[Trial]:
    return [Trial(scenario, persona, i + 1, 0.9 if ok else 0.3, 0.7) for i, ok in enumerate(outcomes)]


def test_the_estimator_against_hand_computed_values():
    # n=4, c=2: C(2,k)/C(4,k) = 2/4, 1/6, 0/4, 0/1.
    assert [pass_hat_k(4, 2, k) for k in (1, 2, 3, 4)] == pytest.approx([0.5, 1 / 6, 0.0, 0.0])
    # n=3, c=2 (a pair passing 2 of 3 trials): 2/3, 1/3, 0.
    assert [Fraction(pass_hat_k(3, 2, k)).limit_denominator(10) for k in (1, 2, 3)] == [
        Fraction(2, 3),
        Fraction(1, 3),
        0,
    ]
    assert [pass_hat_k(5, 5, k) for k in range(1, 6)] == [1.0] * 5  # always passes: pass^k stays 1
    assert pass_hat_k(5, 4, 5) == 0.0 and pass_hat_k(5, 4, 4) == pytest.approx(1 / 5)


def test_k_over_the_trials_and_impossible_counts_are_refused():
    with pytest.raises(ValueError, match=r"pass\^4 needs at least 4 trial"):
        pass_hat_k(3, 1, 4)
    with pytest.raises(ValueError):
        pass_hat_k(3, 1, 0)
    with pytest.raises(ValueError):
        pass_hat_k(3, 4, 1)
    pair = PairTrials("outage", "calm", tuple(trials("outage", [True, False])))
    with pytest.raises(ValueError):
        pair.pass_k(3)


def test_pass_1_is_the_plain_pass_rate_and_pairs_are_averaged():
    outcomes = {"a": [True, True, False], "b": [False, False, False], "c": [True, True, True], "d": [True, False, True]}
    result = group_trials(t for s, o in outcomes.items() for t in trials(s, o))
    flat = [ok for o in outcomes.values() for ok in o]
    assert result.estimate(1) == pytest.approx(sum(flat) / len(flat))
    # Per pair pass^3 is 1 only for the pair that always passed: 1/4 over four pairs.
    assert result.estimate(3) == pytest.approx(0.25)
    assert result.estimate(2) == pytest.approx((1 / 3 + 0 + 1 + 1 / 3) / 4)
    assert result.trials == 3 and result.even


def test_a_pair_with_fewer_trials_counts_only_for_the_k_it_has():
    result = group_trials([*trials("a", [True, True, True]), *trials("b", [False])])
    assert result.values(1) == [1.0, 0.0] and result.values(3) == [1.0]
    assert not result.even and pass_k_line(result).endswith("(2 pairs × up to 3 trials)")


def test_score_spread_and_the_resolution_verdict_decide_with_the_score():
    pair = PairTrials(
        "outage",
        "calm",
        (
            Trial("outage", "calm", 1, 0.9, 0.7, resolved=True),
            Trial("outage", "calm", 2, 0.8, 0.7, resolved=False),  # scored well, not resolved: fails
            Trial("outage", "calm", 3, 0.7, 0.7),  # at the threshold, no resolution verdict: passes
            Trial("outage", "calm", 4, None, 0.7),  # unscored: never a pass
        ),
    )
    assert pair.passes == 2 and pair.n == 4
    assert pair.mean_score == pytest.approx(0.8) and pair.spread == pytest.approx(0.1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_interval_contains_the_true_pass_k(seed: int):
    """200 pairs × 5 trials, each pair passing with its own p drawn uniformly: the true pass^k
    is the mean of p^k (1/(k+1) for the population); the 95% interval over pairs holds both."""
    rng = random.Random(seed)
    ps = [rng.random() for _ in range(200)]
    result = group_trials(
        Trial(f"s{i}", "calm", t, 1.0 if rng.random() < p else 0.0, 0.5) for i, p in enumerate(ps) for t in range(1, 6)
    )
    for k in (1, 2, 3):
        interval = result.interval(k)
        assert interval is not None and interval.n == 200
        sample_truth = sum(p**k for p in ps) / len(ps)
        assert interval.low <= sample_truth <= interval.high, (k, interval, sample_truth)
        assert interval.low <= 1 / (k + 1) <= interval.high, (k, interval)
        assert interval.high - interval.low < 0.2  # narrow enough to mean something


def test_the_same_data_prints_the_same_line():
    data = [*trials("a", [True, False, True]), *trials("b", [True, True, True]), *trials("c", [False] * 3)]
    line = pass_k_line(group_trials(data))
    assert line == pass_k_line(group_trials(list(reversed(data))))
    assert line.startswith("pass^1 0.56 [") and " · pass^3 0.33 [" in line and line.endswith("(3 pairs × 3 trials)")


def test_the_line_gives_every_k_up_to_5_trials_then_1_2_and_k():
    # K = 3: pass^1, pass^2 and pass^3. Pair a passes 2 of 3 (2/3, 1/3, 0), b all (1, 1, 1), c none.
    three = [*trials("a", [True, False, True]), *trials("b", [True, True, True]), *trials("c", [False] * 3)]
    line = pass_k_line(group_trials(three))
    assert [part.split(" [")[0] for part in line.split(" · ")] == ["pass^1 0.56", "pass^2 0.44", "pass^3 0.33"], line
    # K = 5: every k; K = 10: pass^1, pass^2 and pass^10 on one line.
    five = pass_k_line(group_trials([*trials("a", [True] * 4 + [False]), *trials("b", [True] * 5)]))
    assert [part.split(" ")[0] for part in five.split(" · ")] == [f"pass^{k}" for k in range(1, 6)], five
    ten = pass_k_line(group_trials([*trials("a", [True] * 9 + [False]), *trials("b", [True] * 10)]))
    assert [part.split(" ")[0] for part in ten.split(" · ")] == ["pass^1", "pass^2", "pass^10"], ten
    assert "\n" not in ten and ten.endswith("(2 pairs × 10 trials)")
