"""The agreement statistics against values worked out by hand (no SciPy to compare with)."""

from __future__ import annotations

import pytest

from ragtui.core.judge_quality.agreement import (
    average_ranks,
    binary_agreement,
    cohen_kappa,
    mean_absolute_error,
    spearman,
    spearman_interval,
)


def test_ties_share_the_mean_of_their_ranks():
    assert average_ranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4]
    assert average_ranks([3, 1, 2]) == [3, 1, 2]
    assert average_ranks([5, 5, 5]) == [2, 2, 2]


def test_spearman_by_hand_with_a_tie():
    # ranks x = 1..5; y = 5, 6, 7, 8, 7 → ranks 1, 2, 3.5, 5, 3.5
    # deviations from 3: x −2 −1 0 1 2; y −2 −1 .5 2 .5 → Σxy 8, Σx² 10, Σy² 9.5 → r = 8/√95
    assert spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) == pytest.approx(0.820783, abs=1e-6)


def test_spearman_extremes_and_undefined():
    assert spearman([1, 2, 3], [30, 20, 10]) == pytest.approx(-1.0)
    assert spearman([0.1, 0.5, 0.9], [1, 4, 9]) == pytest.approx(1.0)  # ranks only: monotone is enough
    assert spearman([0.5, 0.5, 0.5], [1, 2, 3]) is None  # a constant judge
    assert spearman([1], [1]) is None


def test_fisher_interval_by_hand():
    # z = atanh(.5) = .549306; se = √((1 + .25/2) / 25) = .212132; ± 1.96 × se = .415771
    low, high = spearman_interval(0.5, 28)
    assert low == pytest.approx(0.132747, abs=1e-5) and high == pytest.approx(0.746533, abs=1e-5)
    assert spearman_interval(0.5, 3) is None and spearman_interval(None, 50) is None
    low, high = spearman_interval(1.0, 10)  # clamped, not infinite
    assert 0.99 < low <= high <= 1.0


def test_binary_agreement_by_hand():
    predicted = [1, 1, 0, 0, 1, 0, 1, 0]
    labels = [1, 0, 0, 0, 1, 1, 1, 0]
    # tp 3, fp 1, fn 1, tn 3; p_o = 6/8; p_e = .5 × .5 + .5 × .5 = .5; kappa = .25 / .5
    s = binary_agreement(predicted, labels)
    assert (s.true_positive, s.false_positive, s.false_negative, s.true_negative) == (3, 1, 1, 3)
    assert s.accuracy == 0.75 and s.precision == 0.75 and s.recall == 0.75 and s.f1 == 0.75
    assert s.kappa == pytest.approx(0.5)


def test_kappa_with_unbalanced_classes():
    # p_o = 4/5; p_e = (4/5)(3/5) + (1/5)(2/5) = .56; kappa = .24 / .44
    assert cohen_kappa([1, 1, 1, 1, 0], [1, 1, 1, 0, 0]) == pytest.approx(0.24 / 0.44)
    assert cohen_kappa([1, 1], [1, 1]) is None  # one class only: chance explains everything
    assert cohen_kappa([1, 0], [0, 1]) == pytest.approx(-1.0)


def test_empty_and_degenerate_inputs():
    s = binary_agreement([], [])
    assert s.n == 0 and s.accuracy is None and s.kappa is None
    s = binary_agreement([0, 0], [0, 0])
    assert s.accuracy == 1.0 and s.precision is None and s.f1 is None
    assert mean_absolute_error([0.2, 1.0], [0.0, 0.5]) == pytest.approx(0.35)
    assert mean_absolute_error([], []) is None
