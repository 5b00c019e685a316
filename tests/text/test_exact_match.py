"""A ``contains`` is matched the way a person reads a number or a label, by one function that the
run's expectations metric and the scenario generator share."""

from __future__ import annotations

import pytest

from ragtui.core.metrics.dialogue.expectation_match import answer_does
from ragtui.core.text.exact_match import says_exactly, short_phrase
from ragtui.core.types.expectations import Expectation


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        ("お届けまで３日間かかります。", "3日"),  # full width, and a duration's 間
        ("3日でお届けします。", "３日間"),
        ("三日以内に返金します。", "3日"),  # kanji numeral before a unit
        ("You have seven days to return it.", "7 days"),  # English number words
        ("You have 7 days to return it.", "seven days"),
        ("It takes 1 day.", "1 days"),  # one unit form
        ("Orders over ¥5,000 ship free.", "￥5000"),  # thousands separator, width of the yen sign
        ("Open SETTINGS > Account.", "Settings > Account"),  # case
        ("２ヶ月分", "2か月"),
    ],
)
def test_phrases_said_in_another_form_are_found(answer: str, phrase: str) -> None:
    assert says_exactly(answer, phrase)


@pytest.mark.parametrize(
    ("answer", "phrase"),
    [
        ("Refunds take 15 days.", "5 days"),  # never inside a longer number
        ("Refunds take 5.5 days.", "5 days"),
        ("Refunds take 6 days.", "5 days"),
        ("お届けは4日です。", "3日"),
    ],
)
def test_another_number_is_not_found(answer: str, phrase: str) -> None:
    assert not says_exactly(answer, phrase)


def test_the_run_s_contains_is_the_generator_s_match() -> None:
    """The metric decides ``contains`` and ``not_contains`` with ``says_exactly`` itself."""
    for answer, phrase in [("３日間で届きます", "3日"), ("within 15 days", "5 days"), ("seven days", "7 days")]:
        for form in ("contains", "not_contains"):
            expectation = Expectation("x", phrase, form, "must_not" if form == "not_contains" else "must")
            assert answer_does(expectation, answer) == says_exactly(answer, phrase)


@pytest.mark.parametrize(
    "text",
    [
        "5 business days",
        "Settings > Account > Linked services",
        "support@example.com",
        "「設定」>「アカウント」",
        "3日間",
    ],
)
def test_short_phrases_are_fit_for_contains(text: str) -> None:
    assert short_phrase(text)


@pytest.mark.parametrize(
    "text",
    [
        "返品の送料は、購入したお店の返品条件によります。",
        "暗証番号を入力してください。",
        "Readings sent before 11 pm are used for bills dated the next day",
        "Switch the fuse box back on. Then wait.",
    ],
)
def test_sentences_are_not(text: str) -> None:
    assert not short_phrase(text)
