"""Sentences as the rubric's claim checks see them: an address, a URL, a decimal or an
abbreviation never cuts one in two."""

from __future__ import annotations

import pytest

from ragtui.core.dialogue.estimate import statement_count
from ragtui.core.metrics.rubric_probes import split_claims
from ragtui.core.text.sentences import first_clause, split_sentences


@pytest.mark.parametrize(
    "sentence",
    [
        "Write to support@example.com and we answer within a day.",
        "The guide is at https://example.com/help/linking.html for every plan.",
        "Version 2.5.1 fixes it, and the fee is 4.99 EUR a month.",
        "Use a second factor, e.g. an authenticator app, to sign in.",
        "Link one account only, i.e. the one you pay with.",
        "Dr. Smith and Mr. Jones run the U.S. office.",
        "Photos, videos, etc. are kept for a year.",
    ],
)
def test_one_sentence_stays_one(sentence: str):
    assert split_sentences(sentence) == [sentence]
    assert split_sentences(f"{sentence} Then press Save.") == [sentence, "Then press Save."]


def test_sentences_end_at_their_marks_and_at_line_breaks():
    assert split_sentences("It works! Does it? Yes... Then go.\nNext line") == [
        "It works!",
        "Does it?",
        "Yes...",
        "Then go.",
        "Next line",
    ]
    assert split_sentences("Keep photos, etc. Then save.") == ["Keep photos, etc.", "Then save."]
    assert split_sentences('He said "stop." Then left.') == ['He said "stop."', "Then left."]
    assert split_sentences("設定を開きます。保存してください！") == ["設定を開きます。", "保存してください！"]
    assert split_sentences("") == [] and split_sentences("  \n ") == []


def test_the_claims_checked_keep_an_address_whole():
    answer = "Hello! Write to support@example.com with your order number 12.5 and we answer."
    assert split_claims(answer) == ["Write to support@example.com with your order number 12.5 and we answer."]
    assert statement_count(answer) == 1


@pytest.mark.parametrize(
    ("sentence", "clause"),
    [
        (
            "You can link your Tsumugi ID with a Google, Apple, X or LINE account and then log in with one tap.",
            "You can link your Tsumugi ID with a Google, Apple, X or LINE account.",
        ),
        (
            "You can return unopened bags within 30 days, but opened bags cannot be returned.",
            "You can return unopened bags within 30 days.",
        ),
        ("Refunds go to the original card; the bank then passes them on.", "Refunds go to the original card."),
        ("You can pause for up to 3 months.", None),  # one clause
        ("Yes, but only once.", None),  # a first clause too short to say anything alone
        ("Tsumugi IDをGoogleアカウントと連携でき、ワンタップでログインできます。", None),  # Japanese stays whole
    ],
)
def test_the_first_clause_of_a_sentence_stands_alone(sentence: str, clause: str | None) -> None:
    assert first_clause(sentence) == clause
