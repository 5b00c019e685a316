"""`number_bounds`: which way a text bounds its numbers, and when an expectation bounds an amount
the other way from its reference — read in code, because the small judge reads "more than 3
months" as met by "up to 3 months"."""

from __future__ import annotations

import pytest

from ragtui.core.text.number_bounds import Bound, bounds_in, contradicts

PAUSE = "Open My account > Subscription and choose Pause. You can pause for up to 3 months."


@pytest.mark.parametrize(
    ("text", "bounds"),
    [
        ("You can pause for up to 3 months.", {Bound("upper", "3 month")}),
        ("You can pause for more than three months.", {Bound("lower", "3 month")}),
        ("Refunds arrive within 5 business days.", {Bound("upper", "5 business day")}),
        ("Orders of ¥5,000 or more ship free.", {Bound("lower", "5000")}),
        ("Orders under ¥5,000 pay shipping.", {Bound("upper", "5000")}),
        ("It lasts no more than 2 hours.", {Bound("upper", "2 hour")}),
        ("You must be at least 18 years old.", {Bound("lower", "18 year")}),
        ("一時停止は最大3ヶ月までです。", {Bound("upper", "3か月")}),
        ("３か月以上停止できます。", {Bound("lower", "3か月")}),
        # a negation's reach is not read: no bound, the judge decides as before
        ("You cannot pause for more than 3 months.", set()),
        ("3か月を超えて停止することはできません。", set()),
        # a number with no bound word, or a price
        ("It costs $4 each.", set()),
        ("Open Settings > Account.", set()),
    ],
)
def test_the_bounds_a_text_sets(text, bounds):
    assert bounds_in(text) == bounds


@pytest.mark.parametrize(
    ("expectation", "reference", "contradicted"),
    [
        ("You can pause for more than 3 months.", PAUSE, True),
        ("Pausing for 3 months or longer is possible.", PAUSE, True),
        ("You can pause for up to 3 months.", PAUSE, False),
        ("You can pause for more than 3 weeks.", PAUSE, False),  # another amount
        ("You cannot pause for more than 3 months.", PAUSE, False),  # agrees, and is not read anyway
        ("says pausing is possible", PAUSE, False),
        ("Refunds take more than 5 business days.", "Refunds are paid within 5 business days.", True),
        ("3か月以上停止できます。", "一時停止は3か月までです。", True),
        ("3か月まで停止できます。", "一時停止は3か月までです。", False),
    ],
)
def test_an_expectation_bounding_the_reference_s_amount_the_other_way_contradicts_it(
    expectation, reference, contradicted
):
    assert contradicts(expectation, reference) is contradicted
