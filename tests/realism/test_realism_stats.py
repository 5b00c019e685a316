"""The realism figures' statistics and readings, against figures computed by hand."""

from __future__ import annotations

import pytest

from ragtui.core.runs.realism import cues
from ragtui.core.runs.realism.stats import apart, cluster_mean, share, wilson


def test_wilson_matches_the_hand_computed_interval():
    # 8 of 10, z = 1.96: centre (0.8 + 1.9208/10) / 1.38415 = 0.71673, half 0.22658.
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    # 0 of 4 still has an upper bound (the normal approximation would give 0–0): z²/(n + z²).
    low, high = wilson(0, 4)
    assert low == 0.0 and high == pytest.approx(3.8415 / (4 + 3.8415), abs=1e-4)
    assert wilson(0, 0) is None
    # A fractional count (a split pair counts half) is read as the share it makes.
    low, high = wilson(2.5, 5)
    assert low < 0.5 < high and low == pytest.approx(1 - high)


def test_share_is_hits_over_items_with_its_n():
    e = share(3, 12)
    assert e.value == 0.25 and e.n == 12 and e.groups == 12
    assert share(0, 0).value is None


def test_a_mean_over_messages_resamples_whole_conversations():
    # Messages 1, 2, 3 in one conversation and 4 in another: the mean is over messages, 10 / 4,
    # not the mean of the conversations' means (3.0). Resampling two conversations gives 2.0
    # (the first twice), 2.5 (one each) or 4.0 (the second twice): the 95% bounds are 2.0 and 4.0.
    e = cluster_mean([[1, 2, 3], [4], []], seed=1)
    assert e.value == 2.5 and e.n == 4 and e.groups == 2
    assert (e.low, e.high) == (2.0, 4.0)
    assert cluster_mean([[1, 2, 3], [4]], seed=1) == cluster_mean([[1, 2, 3], [4]], seed=1)  # the seed fixes it
    single = cluster_mean([[5, 7]], seed=1)
    assert (single.value, single.low, single.high) == (6.0, 6.0, 6.0)
    assert cluster_mean([], seed=1).value is None


def test_intervals_apart_only_when_they_do_not_overlap():
    assert apart(share(1, 20), share(19, 20))
    assert not apart(share(9, 20), share(11, 20))
    assert not apart(share(0, 0), share(19, 20))


@pytest.mark.parametrize(
    ("text", "language", "count"),
    [
        ("I don't know what's wrong", "en", 5),
        ("ORD-12345 is late!!", "en", 4),  # ORD, 12345, is, late
        ("ログインできません。", "ja", 9),  # characters, the full stop not counted
        ("ＩＤは１２３", "ja", 6),  # width-folded: I, D, は, 1, 2, 3 — each a character
    ],
)
def test_length_is_words_in_english_and_characters_in_japanese(text: str, language: str, count: int):
    assert cues.length(text, language) == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("How do I reset it? I tried twice.", 1),
        ("Why? And when?", 2),
        ("どうすればいいですか。", 1),  # the question particle, no question mark
        ("返金できますか", 1),
        ("ありがとうございます。", 0),
        ("Is it broken?I tried", 1),
        ("ok. thanks", 0),
    ],
)
def test_questions_are_counted_per_sentence(text: str, count: int):
    assert cues.questions(text) == count


@pytest.mark.parametrize(
    ("text", "human", "give_up"),
    [
        ("I want to speak to a real person", True, False),
        ("Can I talk with someone?", True, False),
        ("Thanks, agent, that worked", False, False),  # addressing the bot is not asking for a person
        ("担当者に代わってください", True, False),
        ("オペレーターと話したい", True, False),
        ("Forget it, this is useless", False, True),
        ("もういいです。", False, True),
        ("時間の無駄でした", False, True),
        ("Never mind, it works now", False, False),
    ],
)
def test_asking_for_a_person_and_giving_up_follow_the_word_lists(text: str, human: bool, give_up: bool):
    assert cues.asks_for_human(text) is human
    assert cues.gives_up(text) is give_up


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("My email is bob@example.com", {"email"}),
        ("mail me at ｂｏｂ＠ｅｘａｍｐｌｅ．ｃｏｍ", {"email"}),  # full-width
        ("call 090-1234-5678", {"phone"}),
        ("電話は０９０１２３４５６７８です", {"phone"}),
        ("+1 (415) 555 0100", {"phone"}),
        ("order #123456 is late", {"number"}),
        ("注文番号は１２３４５６７です", {"number"}),
        ("card 4111 1111 1111 1111", {"number"}),
        ("<email-1> and <phone-2>, <card-1>, <name-3>", {"email", "phone", "number", "other"}),
        ("I bought 3 items in 2024 for 1,234,567 yen, version 2.5", set()),
    ],
)
def test_personal_data_is_found_raw_or_as_an_import_placeholder(text: str, kinds: set[str]):
    assert cues.personal_data(text) == kinds


def test_the_simulators_done_marker_is_not_a_customers_word():
    assert cues.without_marker("Thanks, that fixed it! DONE") == "Thanks, that fixed it!"
    assert cues.without_marker("DONE") == ""
    assert cues.without_marker("ok\n**DONE**") == "ok"
    assert cues.without_marker("I'm DONE with waiting, fix it") == "I'm DONE with waiting, fix it"


def _result(*asked: tuple[bool, float | None]):
    from ragtui.core.runs.realism.blind_test import Asked, PairResult

    return PairResult(None, tuple(Asked(rf, p, "probability", "x") for rf, p in asked))  # type: ignore[arg-type]


def test_a_pairs_outcome_takes_both_orders_and_a_split_counts_half():
    from ragtui.core.runs.realism.blind_test import BlindTest

    right = _result((True, 0.9), (False, 0.2))  # A was real: said A; B was real: said B
    wrong = _result((True, 0.1), (False, 0.8))
    split = _result((True, 0.7), (False, 0.6))  # said A both times: chose by position
    undecided = _result((True, 0.5), (False, 0.2))  # equal probability on A and B: no answer
    assert [r.outcome for r in (right, wrong, split, undecided)] == ["right", "wrong", "split", "unanswered"]
    assert right.p_real == pytest.approx((0.9 + 0.8) / 2) and split.p_real == pytest.approx((0.7 + 0.4) / 2)
    assert undecided.asked[0].why_unanswered == "the judge put equal probability on A and B"
    test = BlindTest("m", "en", [right, right, wrong, split, undecided], seed=1)
    # (2 right + 1 split / 2) of 4 answered pairs; Wilson over the 4.
    acc = test.accuracy
    assert acc.value == pytest.approx(2.5 / 4) and acc.n == 4
    assert (acc.low, acc.high) == pytest.approx(wilson(2.5, 4))
    # Readable answers naming A: right 1+1, wrong 0+1, split 2, undecided 0 of its one readable.
    assert test.first_share.n == 9 and test.first_share.value == pytest.approx(5 / 9)
    assert "could not tell them apart" in test.reading
