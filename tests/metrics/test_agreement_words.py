"""A judge's agreement with people in words first, figures second, and what a score under its
pass mark adds beside it: the texts the TUI shows beside a verdict."""

from __future__ import annotations

from ragtui.core.text.score_text import FAIL_STYLE, LOW_STYLE, under_threshold
from ragtui.core.types.agreement_floor import AgreementFloor, agreement_words

FLOOR = AgreementFloor()


def details(value: float | None, n: int = 18, figure: str = "spearman", **extra: float) -> dict:
    return {"agreement": {"figure": figure, "value": value, "n": n, **extra}}


def test_low_agreement_leads_with_words_and_keeps_the_figures_second():
    words = agreement_words(details(-0.08, low=-0.53, high=0.41), FLOOR)
    assert words == "low agreement with people (Spearman -0.08, 95% CI -0.53 to 0.41, n=18; floor 0.5)"


def test_too_few_items_say_so_and_a_measured_judge_agrees():
    assert agreement_words(details(0.9, n=4), FLOOR).endswith("n=4; fewer than 10 labelled items)")
    assert agreement_words(details(0.62, n=40, figure="kappa"), FLOOR) == "agrees with people (κ 0.62, n=40)"
    assert agreement_words({}, FLOOR) == "agreement unmeasured"
    assert agreement_words(details(None), FLOOR).startswith("low agreement with people (Spearman unknown")


def test_under_the_threshold_a_trusted_score_fails_in_red_and_a_low_one_stays_grey():
    trusted = under_threshold(0.4, 0.7)
    assert (trusted.plain, trusted.style) == ("fails: below 0.70", FAIL_STYLE)
    low = under_threshold(0.4, 0.7, low=True)
    assert (low.plain, low.style) == ("≈ below 0.70", LOW_STYLE)
    assert under_threshold(0.7, 0.7).plain == "" and under_threshold(None, 0.7).plain == ""
