"""The part of a passage a generated question is written for (``generate.answer_part``): chosen in
code from the passage's sentences and lists, by what each kind of item needs, never a part that
cannot be an answer."""

from __future__ import annotations

import pytest

from ragtui.core.generate.answer_part import answer_part, answer_parts, asked_of, common_words
from ragtui.core.generate.plan import KINDS
from ragtui.core.generate.quote_check import find_quote

VERIFY = (
    "After you sign up, Tsumugi sends a verification email from no-reply@tsumugi.example. "
    "Tap the link in the verification email to confirm the address. The link is valid for 24 hours.\n\n"
    "If the email does not arrive:\n"
    "- Wait a few minutes and check your spam or junk folder.\n"
    '- Go to Settings > Account > Email address and tap "Resend verification email".\n\n'
    "For more information, see [Email settings](email.md)."
)
# a Hugo page: a soft-wrapped paragraph, an introduction in its own paragraph, numbered steps
UPDATE_EMAIL = (
    "You can update the email address of your account at any time. Your new address appears as\n"
    "unverified until you complete the verification.\n\n"
    "To update your email address:\n\n"
    "1. Sign in to your [Docker account](https://app.docker.com/login).\n"
    "1. Select your avatar and select **Account settings**.\n"
    "1. Select **Send verification email**. Docker sends a verification\n"
    "   link to your new email.\n"
)


def texts(passage: str) -> list[str]:
    return [part.text for part in answer_parts(passage)]


def test_every_part_s_quote_is_the_passage_s_own_text_and_a_pointer_is_no_part():
    for passage in (VERIFY, UPDATE_EMAIL):
        for part in answer_parts(passage):
            assert find_quote(part.quote, passage) is not None, part
            assert part.quote == passage[part.start : part.end].strip() or part.is_item
    assert not any("see [Email settings]" in t for t in texts(VERIFY))


def test_a_soft_wrapped_sentence_is_one_part_and_a_list_is_one_with_its_introduction():
    found = texts(UPDATE_EMAIL)
    assert "Your new address appears as unverified until you complete the verification." in found
    (steps,) = [t for t in found if t.startswith("To update your email address:")]
    assert steps.count("\n") == 3 and "Docker sends a verification link to your new email." in steps
    # one step of a numbered procedure alone answers no question: no part of its own
    assert "Select your avatar and select **Account settings**." not in found


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("procedural", "To update your email address:\n"),  # the procedure, with its introduction
        ("two_questions", "You can update the email address of your account at any time.\nYour new address"),
    ],
)
def test_each_kind_takes_a_part_that_can_answer_it(kind: str, expected: str):
    part = answer_part(UPDATE_EMAIL, kind)
    assert part is not None and part.text.startswith(expected)


def test_a_conditional_item_is_written_for_a_case_and_a_procedure_prefers_steps_with_no_case():
    case = answer_part(VERIFY, "conditional")
    assert case is not None and case.text.startswith("If the email does not arrive:\n")
    steps = answer_part(VERIFY, "procedural")
    assert steps is not None and steps.text == "Tap the link in the verification email to confirm the address."
    # with no case in the passage, no conditional item; with no step, no procedural one
    assert answer_part("The link is valid for 24 hours. Only the newest link works.", "conditional") is None
    assert answer_part("The link is valid for 24 hours. Only the newest link works.", "procedural") is None


def test_the_kinds_that_take_any_part_take_different_ones_whatever_the_run_s_order():
    chosen = {kind: answer_part(VERIFY, kind) for kind in ("factual", "distracting_detail", "situational")}
    assert len({part.text for part in chosen.values() if part}) == 3
    assert KINDS.index("factual") == 0 and chosen["factual"] is not None
    assert chosen["factual"].text.startswith("After you sign up")


@pytest.mark.parametrize(
    "passage",
    [
        "## Billing\n\nCan I pause my plan?",  # a heading and a FAQ row's question
        "The name (required): The name of the administrator or company",  # a form field's label
        "- [Manage connections](https://example.com/a)\n- [Revoke apps](https://example.com/b)",  # links only
        "This section describes how to deactivate an account.",  # about the page
        "| Plan | Price |\n| --- | --- |",  # a table
        "Billing and payments.",  # a fragment
    ],
)
def test_what_cannot_be_an_answer_is_no_part(passage: str):
    assert answer_parts(passage) == []


def test_a_question_mark_inside_quotes_ends_no_sentence_and_a_quote_mark_line_is_read_as_text():
    passage = (
        'If you cannot remember your password, select "Forgot password?" on the login screen.\n\n'
        "> If your organization enforces single\n> sign-on, ask your administrator to change it."
    )
    found = texts(passage)
    assert found[0] == 'If you cannot remember your password, select "Forgot password?" on the login screen.'
    assert found[1] == "If your organization enforces single sign-on, ask your administrator to change it."
    assert all(part.case for part in answer_parts(passage))


def test_japanese_parts_and_a_list_introduced_by_a_sentence():
    passage = (
        "リンクの有効期限は24時間です。\n\n"
        "確認メールが届かない場合は、次をお試しください。\n"
        "- 数分待ってから、迷惑メールフォルダを確認する。\n"
        "- 設定 > アカウント > メールアドレス で「確認メールを再送信」をタップする。\n"
    )
    assert texts(passage)[0] == "リンクの有効期限は24時間です。"
    case = answer_part(passage, "conditional")
    assert case is not None and case.text.startswith("確認メールが届かない場合は、次をお試しください。\n")


def test_a_sentence_that_leans_on_the_one_before_goes_with_it():
    passage = (
        "Check whether the address is used by another Tsumugi ID. If it is, change the address on the "
        "other account first. Usernames are shown on your public profile."
    )
    assert texts(passage) == [
        "Check whether the address is used by another Tsumugi ID. If it is, change the address on the other "
        "account first.",
        "Usernames are shown on your public profile.",
    ]


def test_an_item_of_a_list_is_shown_with_the_line_that_introduces_it():
    passage = (
        "We make refunds only in these cases:\n"
        "- Double charges: you were charged twice for the same period.\n"
        "- Service faults: a problem on our side made Premium features unavailable to you.\n"
    )
    item = next(p for p in answer_parts(passage) if p.is_item and "Service faults" in p.text)
    assert item.text == (
        "We make refunds only in these cases: Service faults: a problem on our side made Premium features "
        "unavailable to you."
    )
    assert item.quote == (
        "We make refunds only in these cases: … - Service faults: a problem on our side made Premium features "
        "unavailable to you."
    )
    # items are no pair of sentences for a two-questions item
    assert answer_part(passage, "two_questions") is None


def test_a_question_asks_of_its_part_when_it_shares_a_word_the_help_centre_s_pages_do_not_all_share():
    pages = [
        f"Your Tsumugi account: page {n} about {topic}." for n, topic in enumerate(["refunds", "pausing", "links"])
    ]
    common = common_words([*pages, "Tsumugi account limits."])
    assert {"tsumu", "accou"} <= common and "refun" not in common
    part = "Pausing is possible for up to 3 months."
    assert asked_of("Can I pause my plan?", part, common)  # "pause" and "pausing": one word
    assert not asked_of("Why can't I cancel before the renewal date?", part, common)
    assert asked_of("What is a Tsumugi account?", part, common)  # no word of its own: not judged here
    assert asked_of("定期便を一時停止できますか？", "定期便は3か月まで一時停止できます。", frozenset())
    assert not asked_of("返品の送料はいくらですか？", "定期便は3か月まで一時停止できます。", frozenset())


def test_a_sentence_about_the_same_screen_goes_with_the_one_that_names_it():
    passage = (
        'Go to Settings > Account > Linked services and tap "Link". To unlink, tap "Unlink" next to the '
        "service on the same screen."
    )
    assert texts(passage) == [
        'Go to Settings > Account > Linked services and tap "Link". To unlink, tap "Unlink" next to the service '
        "on the same screen."
    ]
    verify = "Tsumugi sends a verification email. Tap the link in that email to confirm the address."
    assert texts(verify) == [verify]
    # instead of what, and which 30 days, the sentence before says
    delete = (
        'To delete, go to Settings > Account > Delete account, enter your password and tap "Delete". If you log'
        " in only with an external service, you will be asked to sign in to it again instead."
    )
    assert texts(delete) == [delete]
    grace = "Your profile is hidden for 30 days. If you log in during those 30 days, you can cancel the deletion."
    assert texts(grace) == [grace]
    assert texts("Pay by card instead of cash. Refunds take 5 business days to arrive.") == [
        "Pay by card instead of cash.",
        "Refunds take 5 business days to arrive.",
    ]


def test_a_sentence_about_the_page_after_one_that_answers_leaves_it_whole():
    passage = (
        "You can deactivate an account at any time. This section describes the prerequisites and steps "
        "to deactivate a user account."
    )
    assert texts(passage) == ["You can deactivate an account at any time."]


@pytest.mark.parametrize("gap", ["\n\n", "\n"])
def test_a_soft_wrapped_introduction_is_one_sentence_not_its_last_line(gap: str):
    """ "To verify your renewal\\ndate:" introduces the list whole, in its own paragraph or not:
    the procedure's quote opens with it, not with "date:"."""
    passage = (
        "You receive your invoice when the subscription renews. To verify your renewal\n"
        f"date:{gap}"
        "1. Sign in to [Docker Home Billing](https://app.docker.com/billing).\n"
        "1. Find your renewal date and amount on your subscription plan card.\n"
    )
    steps = answer_part(passage, "procedural")
    assert steps is not None and steps.quote.startswith("To verify your renewal\ndate:")
    assert steps.text.startswith("To verify your renewal date:")
    assert find_quote(steps.quote, passage) is not None


def test_a_title_line_of_its_own_is_no_part_of_the_text_below_it():
    """A PDF's terms number their headings like their rules: "3. Cancellation" is the title of
    the sentences below it, not words of the first one."""
    terms = (
        "1. Prices include consumption tax.\n\n"
        "3. Cancellation\n"
        "You can cancel a subscription at any time before the next renewal date.\n"
        "Cancelled subscriptions are not refunded for the current period."
    )
    texts = [part.text for part in answer_parts(terms)]
    assert "You can cancel a subscription at any time before the next renewal date." in texts
    assert not [text for text in texts if "Cancellation" in text]
    assert all(find_quote(part.quote, terms) is not None for part in answer_parts(terms))
    # a wrapped sentence is no title, nor a short item over an indented line, nor a list's first step
    for text, kept in (
        ("You can pay\nby card or bank transfer at checkout.", "You can pay by card"),
        ("- Double\n  charges are refunded within 30 days.", "Double charges"),
        ("1. Sign in\n2. Select Billing and then tap Change to update it.", "Sign in"),
    ):
        assert kept in " ".join(part.text for part in answer_parts(text)), text


def test_a_numbered_list_of_rules_is_no_procedure_and_each_rule_answers_alone():
    """A PDF's numbered terms are rules, not steps: no procedural item is written for them (it
    asked "How do I know when my subscription will renew?" of "renew every 4 weeks"), and a rule
    is a part of its own; the document's title repeated above them is none."""
    terms = (
        "Kumo Coffee Terms of Sale\n"
        "1. Prices include consumption tax on every order.\n"
        "2. Subscriptions renew every 4 weeks until cancelled."
    )
    assert answer_part(terms, "procedural") is None
    texts = [part.text for part in answer_parts(terms)]
    assert "Subscriptions renew every 4 weeks until cancelled." in texts
    assert "Kumo Coffee Terms of Sale" not in texts
    steps = "1. Open My account > Orders.\n2. Find the tracking number under the order."
    found = answer_part(steps, "procedural")
    assert found is not None and found.steps and found.is_list
