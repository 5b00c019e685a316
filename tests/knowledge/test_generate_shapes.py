"""Code's part of proving a generated item: is the question a question of its kind, and what wrong
answers are made from a reference."""

from __future__ import annotations

import pytest

from ragtui.core.generate import question_shape as shape
from ragtui.core.generate.wrong_answers import changed_fact

PASSAGE = "Refunds are paid within 5 business days to the original card. Open Settings > Account to see them."


@pytest.mark.parametrize(
    ("question", "kind", "problem"),
    [
        ("ロッカーが開かない・画面が動かないとき", "factual", shape.NOT_A_QUESTION),  # a heading
        ("I'm moving out of my house and want to keep my account information", "situational", shape.NOT_A_QUESTION),
        ("How long do refunds take?", "two_questions", shape.ONE_QUESTION),
        ("How long do refunds take?", "situational", shape.NO_STORY),
        ("How long do refunds take?", "distracting_detail", shape.NO_DETAIL),
        ("Refunds are paid within 5 business days. How long do refunds take?", "distracting_detail", shape.NO_DETAIL),
        ("How long do refunds take? And where do I see them?", "two_questions", None),
        ("I returned a jacket last week and got an e-mail. When is my money back?", "situational", None),
        ("My cat is asleep on the sofa next to me. How long do refunds take?", "distracting_detail", None),
        ("How do I see my refunds.", "factual", None),  # a question word, without the mark
        ("返金はいつ届きますか", "factual", None),
        ("返金について教えてください。", "factual", None),
    ],
)
def test_a_question_is_a_question_of_its_kind(question: str, kind: str, problem: str | None) -> None:
    assert shape.shape_problem(question, kind, PASSAGE) == problem


@pytest.mark.parametrize(
    ("reference", "wrong"),
    [
        ("Refunds take 5 business days.", "Refunds take 6 business days."),
        ("返金は３日以内です。", "返金は4日以内です。"),
        ("You have seven days.", "You have 8 days."),
        ("Open Settings > Account to see them.", "Open Account > Settings to see them."),
        ('Tap "Linked services" to link Google.', 'Tap "Home" to link Google.'),
        ("「ホーム」を開きます。", "「ヘルプ」を開きます。"),
    ],
)
def test_the_key_fact_is_changed_in_code(reference: str, wrong: str) -> None:
    assert changed_fact(reference, "ja" if "。" in reference else "en") == wrong


def test_a_reference_with_nothing_to_change_has_no_changed_answer() -> None:
    assert changed_fact("Contact us and we will help.", "en") is None
