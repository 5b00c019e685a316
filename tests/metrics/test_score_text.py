"""The one way a score becomes text (``core.text.score_text``): its plain and styled forms."""

from __future__ import annotations

import pytest
from rich.text import Text

from ragtui.core.text.score_text import (
    FAIL_STYLE,
    LOW_STYLE,
    PASS_STYLE,
    SKIPPED_STYLE,
    UNSCORED_STYLE,
    no_verdict,
    score_text,
    styled_score,
    styled_verdict,
    verdict_text,
)


def test_a_missing_score_is_unscored_never_zero():
    assert score_text(None) == "unscored"
    assert score_text(None, low=True) == "unscored"  # no ≈ on nothing
    assert styled_score(None, 0.7).plain == "unscored"
    assert styled_score(None, 0.7).style == UNSCORED_STYLE


@pytest.mark.parametrize(
    ("score", "text"), [(0.0, "0.00"), (1.0, "1.00"), (0.125, "0.12"), (0.675, "0.68"), (0.999, "1.00")]
)
def test_two_decimals(score, text):
    assert score_text(score) == text


def test_low_agreement_is_marked_and_neither_red_nor_green():
    assert score_text(0.3, low=True) == "≈0.30"
    styled = styled_score(0.3, 0.7, low=True)
    assert (styled.plain, styled.style) == ("≈0.30", LOW_STYLE)
    assert styled_score(0.9, 0.7, low=True).style == LOW_STYLE


def test_below_the_threshold_is_red_at_or_over_it_green():
    assert styled_score(0.69, 0.7).style == FAIL_STYLE
    assert styled_score(0.7, 0.7).style == PASS_STYLE
    assert styled_score(0.95, 0.7).style == PASS_STYLE


def test_the_styled_form_says_what_the_plain_one_says():
    for score in (None, 0.0, 0.42, 1.0):
        for low in (False, True):
            styled = styled_score(score, 0.5, low)
            assert isinstance(styled, Text) and styled.plain == score_text(score, low)


def test_a_skipped_verdict_is_skipped_and_a_missing_one_a_dash():
    assert verdict_text(None, skipped=True) == "skipped"
    assert verdict_text(None) == "unscored"
    assert verdict_text(0.5, skipped=True) == "0.50"
    assert (styled_verdict(None, 1.0, skipped=True).plain, styled_verdict(None, 1.0, True).style) == (
        "skipped",
        SKIPPED_STYLE,
    )
    assert no_verdict().plain == "–"


@pytest.mark.parametrize(
    ("score", "mark", "text"),
    [
        (0.2954, 0.3, "0.295"),
        (0.29996, 0.3, "0.2999"),
        (0.28, 0.3, "0.28"),
        (0.3, 0.3, "0.30"),
        (0.7049, 0.705, "0.70"),
    ],
)
def test_a_score_under_its_mark_never_rounds_up_to_it(score, mark, text):
    """`0.30 fails: below 0.30` (0.2954) hid the line: the score shows the digits that put it under."""
    assert score_text(score, threshold=mark) == text
    assert styled_score(score, mark).plain == text


def test_the_judge_pane_headline_shows_the_comparison():
    from ragtui.tui.formatting import verdict_text as pane_verdict

    line = pane_verdict(1, "rubric", 1, 0.2954, {}, None, 0.3).plain.splitlines()[0]
    assert "0.295  fails: below 0.30" in line, line
    assert "0.30  fails" not in line
    line = pane_verdict(1, "rubric", 1, 0.7049, {}, None, 0.705).plain.splitlines()[0]
    assert "0.70  fails: below 0.705" in line, line
