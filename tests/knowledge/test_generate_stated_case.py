"""A reference drawn from one case of a topic answers that case's question: the customer's message
must state the case the reference answers under (``generate.stated_case``)."""

from __future__ import annotations

import pytest

from ragtui.core.generate.stated_case import opposite_case, unstated_case

NOTIFICATIONS = (
    "Go to Settings > Notifications to turn push notifications on or off.\n\n"
    "If push notifications do not arrive:\n"
    "1. Check that notifications for Tsumugi are allowed in your phone's settings.\n"
    "2. Turn off battery saver, which can hold notifications back.\n"
)
LOCKED = (
    'If you are not sure of your password, request a reset link with "Forgot password?" while you wait.\n\n'
    "If your account was locked and you did not make the failed attempts yourself, someone may be trying "
    "to guess your password."
)
GRACE = "If your subscription payment fails, there is a grace period of 15 days, including the due date."


@pytest.mark.parametrize(
    ("question", "quote", "reference", "passage", "case"),
    [
        (  # the list's introduction is its case; the customer asked how to turn them on
            "How can I enable push notifications on my phone?",
            "Check that notifications for Tsumugi are allowed in your phone's settings.",
            "Check that notifications for Tsumugi are allowed in your phone's settings.",
            NOTIFICATIONS,
            "push notifications do not arrive",
        ),
        (  # the second item of the list: its introduction is above the first
            "How can I enable push notifications on my phone?",
            "Turn off battery saver, which can hold notifications back.",
            "Turn off battery saver.",
            NOTIFICATIONS,
            "push notifications do not arrive",
        ),
        (  # a case of something going wrong, asked by a customer who says nothing is wrong
            "If my subscription is due in 15 days, can I delay it?",
            GRACE,
            "If your subscription payment fails, there is a grace period of 15 days.",
            GRACE,
            "your subscription payment fails",
        ),
        (  # the reference opens with a case the message never states
            "I'm having trouble logging in. What should I do? And what if I forget my password?",
            LOCKED.split("\n\n")[1],
            "If your account was locked and you did not make the failed attempts yourself, change your password.",
            LOCKED,
            "your account was locked and you did not make the failed attempts yourself",
        ),
        (  # after a bare "No."
            "Can I get a refund for my order?",
            "No. If you paid by bank transfer, the refund is not possible.",
            "No. If you paid by bank transfer, the refund is not possible.",
            "",
            "you paid by bank transfer",
        ),
        (  # Japanese: 「…場合は、」
            "ロッカーが開かないときはどうすればいいですか？",
            "荷物が届かない場合は、サポートにご連絡ください。",
            "荷物が届かない場合は、サポートにご連絡ください。",
            "",
            "荷物が届かない",
        ),
    ],
)
def test_a_reference_answering_a_case_the_message_does_not_state_is_found(
    question: str, quote: str, reference: str, passage: str, case: str
):
    assert unstated_case(question, quote, reference, passage) == case


@pytest.mark.parametrize(
    ("question", "quote", "reference", "passage"),
    [
        (  # the customer states the case
            "What should I do if push notifications do not arrive on my phone?",
            "Check that notifications for Tsumugi are allowed in your phone's settings.",
            "Check that notifications for Tsumugi are allowed in your phone's settings.",
            NOTIFICATIONS,
        ),
        (  # a paragraph above a list, not its introduction: no case
            "How can I turn push notifications on?",
            "Go to Settings > Notifications to turn push notifications on or off.",
            "Go to Settings > Notifications and turn push notifications on.",
            NOTIFICATIONS,
        ),
        (  # the case in other forms of its words: "forget" meets "not sure", a lost phone a lost device
            "What if I forget my password?",
            LOCKED.split("\n\n")[0],
            'Request a reset link with "Forgot password?" while you wait.',
            LOCKED,
        ),
        (  # a negation is no word to repeat: "forgot" states "cannot remember"
            "I forgot my password. Can you help me reset it?",
            'If you cannot remember your password, select "Forgot password?" on the login screen.',
            'If you cannot remember your password, select "Forgot password?" on the login screen.',
            "",
        ),
        (
            "I lost my phone and my backup codes. What should I do?",
            "If you have lost both your device and your backup codes, contact us through the support form.",
            "Contact us through the support form.",
            "",
        ),
        (  # "cancelled" meets "cancel"
            "I just cancelled my Premium plan. Can I get a refund?",
            "If you cancel, Premium stays active until the end of the period you paid for.",
            "No. If you cancel, Premium stays active until the end of the period you paid for.",
            "",
        ),
        (  # a condition further down is a detail of the answer, not its case
            "Can I pause my subscription?",
            "You can't pause a subscription. If your payment fails, there is a grace period of 15 days.",
            "You can't pause a subscription. If your payment fails, there is a grace period of 15 days.",
            "",
        ),
        (  # a sentence's "when" says a time, not a case
            "How do I verify my email address?",
            "When you sign up, Tsumugi sends a verification email; tap its link.",
            "Tap the link in the verification email.",
            "",
        ),
        (
            "パスワードを忘れた場合はどうすればいいですか？",
            "パスワードを忘れた場合は、「パスワードを忘れた方」を選択してください。",
            "パスワードを忘れた場合は、「パスワードを忘れた方」を選択してください。",
            "",
        ),
    ],
)
def test_a_reference_for_the_case_the_message_states_passes(question: str, quote: str, reference: str, passage: str):
    assert unstated_case(question, quote, reference, passage) is None


@pytest.mark.parametrize(
    ("question", "reference", "word"),
    [
        (
            "Can I return an opened bag of coffee within 30 days?",
            "Unopened bags of coffee can be returned within 30 days of delivery.",
            "opened",
        ),
        ("Can I get a refund for unused months?", "Used months are not refunded.", "unused"),
        # both cases told: the customer's is among them
        (
            "Can I return it if it's opened?",
            "Unopened bags can be returned within 30 days. Opened bags cannot be returned unless damaged.",
            None,
        ),
        ("Can I return an unopened bag?", "Unopened bags can be returned within 30 days.", None),
        ("Can I cancel my plan?", "You can cancel it unless it is a gift.", None),
        ("注文を返品できますか？", "未開封の商品は返品できます。", None),
    ],
)
def test_a_reference_of_only_the_opposite_case_is_found(question: str, reference: str, word: str | None) -> None:
    assert opposite_case(question, reference) == word


ERRORS = (
    "# Problems linking external accounts\n\n"
    '"This external account is already linked to another Tsumugi ID": each account can be linked to only one '
    'Tsumugi ID. Log in to that other Tsumugi ID, go to Settings > Account > Linked services and tap "Unlink". '
    "Then log in to the account you want to use and link the service there.\n\n"
    "「外部アカウントはすでに別のIDに連携されています」: 別のIDでログインし、連携を解除してください。\n"
)
# the help centre's own words, in most of its pages: they tell nothing of which message it is
COMMON = frozenset({"tsumu", "accou"})


@pytest.mark.parametrize(
    ("question", "quote", "unstated"),
    [
        (  # the plain unlink question, answered with the steps for the customer who saw the message
            "How can I unlink my external account from Tsumugi?",
            "Log in to that other Tsumugi ID, go to Settings > Account > Linked services",
            "This external account is already linked to another Tsumugi ID",
        ),
        (
            "How can I unlink my external account from Tsumugi?",
            '"This external account is already linked to another Tsumugi ID": each account',
            "This external account is already linked to another Tsumugi ID",
        ),
        (  # the message quoted, or its case told
            "I keep getting 'This external account is already linked to another Tsumugi ID'. What do I do?",
            "Log in to that other Tsumugi ID, go to Settings > Account > Linked services",
            None,
        ),
        (
            "My Google account is already linked to another Tsumugi ID. How can I link it to this one?",
            "Log in to that other Tsumugi ID, go to Settings > Account > Linked services",
            None,
        ),
        # Japanese messages are not read (the module docstring says why)
        ("外部アカウントの連携を解除するには？", "別のIDでログインし、連携を解除してください。", None),
    ],
)
def test_a_paragraph_opening_with_a_quoted_message_answers_whoever_saw_it(
    question: str, quote: str, unstated: str | None
) -> None:
    assert unstated_case(question, quote, quote, ERRORS, COMMON) == unstated


def test_no_message_opens_a_paragraph_of_plain_steps() -> None:
    passage = 'To unlink, tap "Unlink" next to the service on the same screen.'
    assert unstated_case("How can I unlink my external account?", passage, passage, passage, COMMON) is None
