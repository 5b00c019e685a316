"""Code's part of proving a generated item: is the question a question of its kind, and what wrong
answers are made from a reference."""

from __future__ import annotations

import pytest

from ragtui.core.generate import answer_kind
from ragtui.core.generate import question_shape as shape
from ragtui.core.generate.whole_topic import asks_whole_topic, whole_topic_part
from ragtui.core.generate.wrong_answers import changed_fact
from ragtui.core.types.knowledge import SourcedPassage

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
        (  # a sentence about the conversation is no story
            "How long do refunds take? I told you about a situation where I had to pay late.",
            "situational",
            shape.NO_STORY,
        ),
        (  # the writer speaking of "the customer", or telling "you" a story, is no customer's story
            "What is the term for the price including tax? The customer told you that they had a bad experience.",
            "situational",
            shape.NOT_THEIRS,  # the writer's voice, whatever the kind
        ),
        (
            "What is the term for the price including tax? The buyer had a bad experience.",
            "situational",
            shape.NOT_THEIRS,
        ),
        (
            "What is the subject line of a receipt? After you made a payment on the web, you received a receipt.",
            "situational",
            shape.NO_STORY,
        ),
        ("I returned a jacket last week and you sent me an e-mail. When is my money back?", "situational", None),
        # only that something went wrong, and what the customer wants: no story of what happened
        ("I had a bad experience with the grind size. Can I change it?", "situational", shape.NO_STORY),
        (
            "I had a problem with my subscription and I want to pause it for more than 3 months. Can you help me?",
            "situational",
            shape.NO_STORY,
        ),
        ("When should I renew? I had a bad experience with the coffee.", "situational", shape.NO_STORY),
        ("How do I export my posts? I wrote a short story about my experience.", "situational", shape.NO_STORY),
        ("I had a subscription that expired and I want to renew it. What do I do?", "situational", None),
        ("I was on a subscription, but then I had a problem. Can I pause it?", "situational", None),
        (
            "What is the minimum order amount for free shipping? I saw a problem with my order.",
            "situational",
            shape.NO_STORY,
        ),
        ("I noticed a problem with my order: two bags were missing. Can I get a refund?", "situational", None),
        ("I had a problem with my card: it was charged twice. Can I get a refund?", "situational", None),
        (  # a sentence about the passage is no detail of the customer's
            "What is the maximum size of a single image? A pet is mentioned in the passage.",
            "distracting_detail",
            shape.NO_DETAIL,
        ),
        (  # "a customer … their": someone spoken of, not the customer speaking
            "What should a customer do if their pages load slowly or the app shows 'Could not connect'?",
            "conditional",
            shape.NOT_THEIRS,
        ),
        ("When can a customer cancel their subscription?", "factual", shape.NOT_THEIRS),
        (  # the writer's story of someone else
            "Can I get a refund? I saw a customer canceling their subscription.",
            "situational",
            shape.NOT_THEIRS,
        ),
        ("I saw a customer service page that said I can pause. Can I?", "situational", None),
        # a quiz of the page's words, not a customer's need
        (
            "What is the term for a subscription that has been canceled before the next renewal date?",
            "factual",
            shape.VOCABULARY,
        ),
        ("What do you call the code that comes by text message?", "factual", shape.VOCABULARY),
        ("定期便を止めることを何と呼びますか？", "factual", shape.VOCABULARY),
        ("What is the name of the sender of the receipt e-mail?", "factual", None),
        (  # the writer's instructions given back
            "What should I ask to be told exactly that if I have a monthly billing cycle, I can switch to an annual "
            "billing cycle?",
            "conditional",
            shape.ECHO,
        ),
        ("I was told my plan renews monthly. Can I switch to yearly?", "situational", None),
        ("What is the term of my contract?", "factual", None),
        ("I asked a customer service agent and they said no. Can I get a refund?", "conditional", None),
        ("A user who harassed me keeps writing. Can I block them?", "situational", None),
        ("How do I see my refunds.", "factual", None),  # a question word, without the mark
        ("返金はいつ届きますか", "factual", None),
        ("返金について教えてください。", "factual", None),
        ("What is a Docker ID?", "conditional", shape.NO_SITUATION),
        ("Can I link my Tsumugi ID with a Google account?", "conditional", shape.NO_SITUATION),
        ("I'm on the yearly plan. Can I get a refund?", "conditional", None),
        ("If my card has expired, where does the refund go?", "conditional", None),
        ("返金はどこに届きますか？", "conditional", shape.NO_SITUATION),
        ("カードの期限が切れている場合、返金はどこに届きますか？", "conditional", None),
        (
            "How do I turn on two-step verification? How can I turn on two-step verification?",
            "two_questions",
            shape.SAME_TWICE,
        ),
        # one question and a request for its steps: the second adds nothing to the first
        ("How can I export my blog posts? What is the process?", "two_questions", shape.SAME_TWICE),
        (
            "How can I switch from web billing to store billing? What are the steps to do this?",
            "two_questions",
            shape.SAME_TWICE,
        ),
        # the same time or amount asked for again, in a word that says so
        ("When should I ship my order? What is the shipping time?", "two_questions", shape.SAME_TWICE),
        ("How much is Premium? What is the price of Premium?", "two_questions", shape.SAME_TWICE),
        ("How much is Premium? What is the price of the yearly plan?", "two_questions", None),
        ("When does my order ship? What is the delivery time?", "two_questions", None),
        (  # numbers are named too: "before 2 p.m." is not "later"
            "When do orders placed before 2 p.m. ship? When do orders placed later ship?",
            "two_questions",
            None,
        ),
        ("When do orders ship? When do orders placed later ship?", "two_questions", None),
        # "the contact options" are the ways to contact: asked again
        ("How can I contact Tsumugi support? What are the contact options?", "two_questions", shape.SAME_TWICE),
        ("Can I pause my subscription? What are my options?", "two_questions", None),  # whether, then what else
        ("How do I create a Tsumugi ID? What are the steps to sign up?", "two_questions", None),
        ("Can I pause my subscription? What is the grace period?", "two_questions", None),
        ("Can I manually retry a failed payment? What is the process?", "two_questions", None),  # whether, then how
        ("I got an e-mail I didn't expect. What should I do? Who do I tell about it?", "two_questions", None),
        (  # a blank left to fill in: no customer writes one
            "When will the tracking link become active? I received my package on [date] and it was [description].",
            "situational",
            shape.PLACEHOLDER,
        ),
        ("Hi, I'm <name>. How do I pay?", "factual", shape.PLACEHOLDER),
        ("注文番号〇〇〇の返金はいつですか？", "factual", shape.PLACEHOLDER),
        # the writer's words about the customer, not the customer's own; others named so are others
        ("If an image upload fails, what should the customer do?", "conditional", shape.NOT_THEIRS),
        ("Can the user delete a post after publishing it?", "factual", shape.NOT_THEIRS),
        ("お客様は開封済みの豆を返品できますか？", "factual", shape.NOT_THEIRS),
        ("How do I reach the customer service team?", "factual", None),
        ("How do I block the user who keeps messaging me?", "factual", None),
        ("お客様センターの電話番号は何ですか？", "factual", None),
        ("Where is [Billing](billing.md) in the app?", "factual", None),  # a link's text is no blank
    ],
)
def test_a_question_is_a_question_of_its_kind(question: str, kind: str, problem: str | None) -> None:
    assert shape.shape_problem(question, kind, PASSAGE) == problem


@pytest.mark.parametrize(
    ("question", "reference", "lacks"),
    [
        (
            "How long does it take to ship an order of ¥5,000 or more?",
            "Shipping is free on orders of ¥5,000 or more.",
            answer_kind.DURATION,
        ),
        ("How long does it take to ship?", "Orders ship within two business days.", None),
        ("How soon is my refund paid?", "Refunds are paid immediately.", None),
        (
            "What is the maximum amount I can pay by Direct Debit?",
            "The amount is fixed each month.",
            answer_kind.AMOUNT,
        ),
        ("What is the exit fee?", "There is no fee.", None),
        ("How much does the yearly plan cost?", "It costs $40 a year.", None),
        ("How many devices can I use?", "You can use up to three devices.", None),
        ("What time does support open?", "Support opens on weekdays.", None),
        ("What time does support open?", "Contact support by e-mail.", answer_kind.CLOCK),
        ("How do I deactivate my account?", "To deactivate it, follow these steps:", answer_kind.STEPS),
        ("How do I deactivate my account?", "Follow these steps: open Settings > Account and select Deactivate.", None),
        ("返品にはどのくらいかかりますか？", "返品は三日で処理されます。", None),
        ("返品にはどのくらいかかりますか？", "返品の送料はお店によります。", answer_kind.DURATION),
        ("料金はいくらですか？", "無料です。", None),
        ("解約するには？", "以下の手順で解約してください：", answer_kind.STEPS),
        ("What is a Tsumugi ID?", "A Tsumugi ID is one account for every service.", None),
        (
            "How can I cancel my subscription?",
            "You can cancel at any time before the next renewal date.",
            answer_kind.HOW_TO,
        ),
        ("How can I cancel my subscription?", "Open My account > Subscription and choose Cancel.", None),
        ("How do I verify my email address?", "Tap the link in the email we send you.", None),
        ("How do I know if my order shipped?", "You get an email when it ships.", None),
        (
            "I want to upgrade my subscription. What happens?",
            "You can do so at any time. This page explains how to make subscription changes.",
            answer_kind.ABOUT_PAGE,
        ),
        ("返金について教えてください。", "このページでは返金の流れを説明します。", answer_kind.ABOUT_PAGE),
        (  # a page's opening that says what it teaches
            "How can I view my billing history? What is the billing renewal date?",
            "Learn how to view and pay invoices, view your billing history, and verify your billing renewal date.",
            answer_kind.ABOUT_PAGE,
        ),
        ("How do I pay?", "You can pay by card. To learn how to add one, open Billing.", None),
        (
            "Googleアカウントと連携したいです。どのようにするか教えてください。",
            "連携すると、パスワードを入力せずにワンタップでログインできます。",
            answer_kind.HOW_TO,
        ),
        ("解約の方法を教えてください。", "次の更新日の前ならいつでも解約できます。", answer_kind.HOW_TO),
        ("解約の方法を教えてください。", "「マイアカウント」から「解約」を選んでください。", None),
        # a how-to in other words; who may is not how
        (
            "I need to pay by card. Can you help me add a payment method?",
            "You must be an organization owner to add a payment method.",
            answer_kind.HOW_TO,
        ),
        (
            "Can you help me add a payment method?",
            "You can add one from the Billing page: select Add payment method.",
            None,
        ),
        ("How do I add a payment method?", "You can add a payment method at any time.", answer_kind.HOW_TO),
        (  # two things to do asked at once: what to do before deleting is no way to delete
            "What should I do to cancel Tsumugi Premium and delete my account?",
            "Before you delete your account, cancel Tsumugi Premium. You cannot request deletion while a "
            "subscription is active. Save anything you want to keep with Settings > Privacy > Download your data.",
            answer_kind.HOW_TO,
        ),
        (
            "What should I do to cancel Tsumugi Premium and delete my account?",
            "Cancel Tsumugi Premium first. Then go to Settings > Account > Delete account and tap 'Delete'.",
            None,
        ),
        (
            "What should I do to cancel Tsumugi Premium and delete my account?",
            "Cancel Premium first, then delete your account from Settings > Account.",
            None,
        ),
        ("How do I go to settings and change my password?", "Open Settings > Account and tap Change password.", None),
        (  # "the process for" asks how, too
            "What is the process for switching from a monthly billing cycle to an annual billing cycle?",
            "If you have a monthly billing cycle, you can choose to switch to an annual billing cycle.",
            answer_kind.HOW_TO,
        ),
        (  # the page's "you" kept in the question: still a how-to, and "you can choose to" is no step
            "If you have a monthly billing cycle, what can you do to switch to an annual billing cycle?",
            "If you have a monthly billing cycle, you can choose to switch to an annual billing cycle.",
            answer_kind.HOW_TO,
        ),
        (
            "If you have a monthly billing cycle, what can you do to switch to an annual billing cycle?",
            "Select Billing, then Change billing cycle, and choose Annual.",
            None,
        ),
        (  # a step asked for in other words; what one gets after it is no step
            "What is the first step in upgrading a Docker subscription?",
            "To upgrade your subscription, you immediately get access to all features of the new tier.",
            answer_kind.HOW_TO,
        ),
        ("What is the first step in upgrading?", "Sign in to Docker Home and select Billing.", None),
        ("How do I add a payment method?", "You can contact your organization owner to add one.", None),
        (  # "the best way to" asks how; "you can choose to switch" says whether
            "If you have a monthly billing cycle, what is the best way to switch to an annual billing cycle?",
            "If you have a monthly billing cycle, you can choose to switch to an annual billing cycle.",
            answer_kind.HOW_TO,
        ),
        ("What is the best way to switch to an annual cycle?", "Select Billing, then Change cycle.", None),
        (  # the question given back as an order
            "If Premium is not showing where you expected, how can I log in to my other Tsumugi IDs and check?",
            "If Premium is not showing where you expected, log in to your other Tsumugi IDs and check.",
            answer_kind.HOW_TO,
        ),
        ("How do I cancel my plan?", "Cancel it in Settings.", None),
        (  # "what should I do?" asks for an action, not what happens
            "If a renewal payment fails, what should I do?",
            "If a renewal payment fails, we email you and retry the payment for 7 days.",
            answer_kind.HOW_TO,
        ),
        ("If I was charged sales tax, what should I do?", "Open a support ticket with Docker Support.", None),
        ("How do I delete my account?", "You need to log in to Tsumugi and open Settings.", None),
        # yes or no, said as such or with the asked verb; a neighbouring fact says neither
        (
            "If my subscription is due in 15 days, can I delay it?",
            "You have a 15-day grace period to update your payment details.",
            answer_kind.YES_OR_NO,
        ),
        ("If my subscription is due in 15 days, can I delay it?", "You can't pause or delay a subscription.", None),
        ("Can I return my coffee if it's not opened?", "Unopened bags can be returned within 30 days.", None),
        ("Is it possible to change my username?", "Yes, once a month.", None),
        ("Can you tell me what a Docker ID is?", "A Docker ID is your username.", None),
        # a reference that only sends the reader elsewhere
        (
            "What is the Docker subscription overview?",
            "For more information on Docker subscriptions, see [Docker subscription overview](_index.md).",
            answer_kind.POINTER,
        ),
        ("返金について教えてください。", "詳しくは「返金について」のページをご覧ください。", answer_kind.POINTER),
        (
            "I accidentally subscribed on two accounts. What should I do?",
            "If you accidentally subscribed on two accounts, see 'Double charges'.",
            answer_kind.POINTER,
        ),
        (
            "How do I verify a bank account?",
            "Select Verify next to the account. For more information, see [Verify a bank account](payment-method.md).",
            None,
        ),
        ("Where is my renewal date shown?", "See your plan card in Docker Home Billing.", None),
        (  # an address's "no-" is no "no"
            "Can I change my email address? I have a dog named Max.",
            "Tsumugi sends a verification email from no-reply@tsumugi.example. Tap the link in that email to"
            " confirm the address.",
            answer_kind.YES_OR_NO,
        ),
        ("Can I change my email address?", "No, not on the web: change it in the app.", None),
        (  # a "not" about something else: refunds, not whether one may cancel
            "Can I cancel my Tsumugi Premium subscription early?",
            "Tsumugi Premium fees are not refunded for unused time. This includes cancelling partway through a month.",
            answer_kind.YES_OR_NO,
        ),
        ("Can I transfer my subscription to another account?", "Subscriptions are non-transferable.", None),
        ("Can I pause my plan?", "Pausing is possible for up to 3 months.", None),
        ("Can I cancel early?", "You can cancel at any time; the fee is not refunded.", None),
        # what happens: a consequence, not only whether one may
        (
            "What happens if I switch from a monthly billing cycle to an annual billing cycle?",
            "If you're on a monthly plan, you can switch to a yearly plan at any time. However, switching from a"
            " yearly to a monthly cycle isn't supported.",
            answer_kind.CONSEQUENCE,
        ),
        (
            "What happens if I switch from a monthly billing cycle to an annual billing cycle?",
            "You can switch at any time. Your next billing date reflects the new cycle and your start date resets.",
            None,
        ),
        ("What happens if my payment fails?", "There is a grace period of 15 days, including the due date.", None),
        # why: a reason, not only what to do
        (
            "Why is it necessary to manually add the VAT number if it's not available?",
            "If your country's tax ID type isn't listed, complete the Contact Support form.",
            answer_kind.REASON,
        ),
        (
            "Why do I need to verify my email address?",
            "We verify it so that only you can reset your password.",
            None,
        ),
        ("Why is two-step verification on?", "It is on to protect your account if your password leaks.", None),
        # why not: the rule that says so answers it
        ("Why can’t I get a refund for unused time?", "Fees are not refunded for unused time.", None),
        ("Why can't I get a refund for unused time?", "Open Menu > Billing to see your invoices.", answer_kind.REASON),
        ("That's why I ask: how long does shipping take?", "Orders ship in 2 days.", None),
        ("なぜ本人確認が必要ですか？", "設定画面から確認コードを入力してください。", answer_kind.REASON),
        ("なぜ本人確認が必要ですか？", "不正利用を防ぐため、本人確認をお願いしています。", None),
        # two questions, each by its own words
        (  # a second question no sentence speaks of
            "I got an e-mail about a change I didn't make. What does it mean? How do I reset my password?",
            "We send this notice whenever the e-mail address of an account changes.",
            answer_kind.UNANSWERED_PART,
        ),
        (
            "Can I upgrade to get access to all features of my new tier? Can I also get the latest updates?",
            "When you upgrade, you immediately get access to all features and entitlements of the new tier.",
            answer_kind.UNANSWERED_PART,
        ),
        (  # two questions that each ask how long, one duration between them
            "How long does it take for my order to be shipped? How soon after placing it will the tracking link "
            "become active?",
            "The tracking link becomes active about 6 hours after the order ships.",
            answer_kind.UNANSWERED_PART,
        ),
        (
            "How long does standard delivery take? How long does express delivery take?",
            "Standard delivery takes 2 to 4 business days. Express delivery takes one business day.",
            None,
        ),
        (
            "How much is express delivery? How much do I need to spend for free shipping?",
            "Express delivery costs ¥800; shipping is free on orders of ¥5,000 or more.",
            None,
        ),
        (
            "How much is express delivery? How much is standard delivery?",
            "Express costs ¥800.",
            answer_kind.UNANSWERED_PART,
        ),
        (  # each question on its own part: the second's sentence gives no duration
            "Where is my order? How long does shipping take?",
            "Track your order from the link in your confirmation e-mail. Shipping takes place from Osaka.",
            answer_kind.DURATION,
        ),
        (  # a yes/no second question is not answered by the first one's "You can update"
            "Can I update my billing information? Can I also update my email address?",
            "You can update the billing information at any time. The email address you give is where"
            " invoices are sent.",
            answer_kind.YES_OR_NO,
        ),
        (
            "Can I update my billing information? Can I also update my email address?",
            "You can update the billing information at any time. You can update the email address too.",
            None,
        ),
        (  # a bare "Yes." goes with the part it opens
            "Can I change the grind size? How do I do it?",
            "Yes. Open My account > Subscription > Preferences and pick whole bean, filter or espresso grind.",
            None,
        ),
        (  # a question of fewer words of its own is read on the whole reference
            "I got an e-mail about a change I didn't make. What should I do? Who do I tell about it?",
            "Contact support at once.",
            None,
        ),
        # a verb after "and" / "then" goes on with what the subject does: no order to the reader
        (
            "How can I link my Tsumugi ID with a Google, Apple, X, or LINE account?",
            "You can link your Tsumugi ID with a Google, Apple, X or LINE account and then log in with one tap"
            " instead of typing your password.",
            answer_kind.HOW_TO,
        ),
        (
            "How can I add rules to a community?",
            "Each community also has moderators, who may add rules for their community and remove posts that break them.",
            answer_kind.HOW_TO,
        ),
        # the question's own verb as an order tells how only with where or with what
        (
            "I just signed up, but I can't verify my email address. What should I do?",
            "Verify your email address to complete the registration process.",
            answer_kind.HOW_TO,
        ),
        (
            "How can I verify my default payment method before retrying a failed payment?",
            "Before retrying, verify that your default payment method is up to date.",
            answer_kind.HOW_TO,
        ),
        ("How can I cancel my subscription?", "Cancel it in Settings.", None),
        ("How can I cancel my subscription?", "Cancel it at any time before the renewal date.", answer_kind.HOW_TO),
        (  # a value shown in backticks is shown
            "What is the correct way to enter a VAT number?",
            "Your VAT number must include your country prefix. For example, enter `DE123456789`.",
            None,
        ),
        # the words shown, quoted; the team's address
        (
            "What is the email subject line for a Premium payment receipt?",
            "After each Premium payment made on the web, we email a receipt to your address.",
            answer_kind.WORDING,
        ),
        (
            "What is the message that appears when I link an account that is already linked?",
            'You see "This external account is already linked to another Tsumugi ID".',
            None,
        ),
        ("What does this error mean?", "It means the card was declined.", None),
        ("What is the support email address?", "Use the contact form in the app.", answer_kind.ADDRESS),
        ("What is the support email address?", "Write to help@tsumugi.example.", None),
        ("サポートのメールアドレスは？", "アプリのフォームからお問い合わせください。", answer_kind.ADDRESS),
        ("確認メールの件名は何ですか？", "確認メールは登録したアドレスに届きます。", answer_kind.WORDING),
        ("確認メールの件名は何ですか？", "件名は「メールアドレスの確認」です。", None),
        ("How do I change my card?", "Open Settings and then tap Payment method.", None),
        ("How do I sign in if I forgot my password?", "If you forgot it, reset it and then sign in.", None),
        # a cause or a rule that is only the question's own words gives no reason
        (
            "Why can't I merge my Tsumugi IDs? I have a pet named Max.",
            "Because Tsumugi IDs cannot be merged, the way to bring your writing together in one account is to "
            "export the posts from one account and import them into the other.",
            answer_kind.REASON,
        ),
        (
            "Why can't I merge my Tsumugi IDs?",
            "Tsumugi IDs cannot be merged because each one holds its own purchases and followers.",
            None,
        ),
        ("Why can't I get a refund for unused time?", "Premium fees are not refunded for unused time.", None),
        ("Why can't I get a refund?", "You can't get a refund.", answer_kind.REASON),
        ("Why do I need a VAT number?", "It is needed so that the invoice shows your company.", None),
        # a story of something done that did not work: the trouble, not the steps of what was done
        (
            "I recently changed my email address, but I'm still getting emails from the old address. "
            "How can I fix this?",
            "Go to Settings > Account > Email address and tap 'Change'. Enter your current password and the new "
            "email address. Open the confirmation email sent to the new address and tap the link within 24 hours.",
            answer_kind.TROUBLE,
        ),
        (
            "I recently changed my email address, but I'm still getting emails from the old address. "
            "How can I fix this?",
            "Until you tap the link in the confirmation email, your old address stays in use. Tap Change to "
            "send the link again.",
            None,
        ),
        (  # the answer does not repeat what was done: the judge decides
            "I paid for Premium yesterday, but the features are not showing. What can I do?",
            "Sign out and back in so that the app reloads your plan.",
            None,
        ),
        (  # nothing of the trouble's own besides "still doesn't work"
            "I reset my password, but it still doesn't work. What should I do?",
            "Reset your password from the sign-in screen, then sign in with the new one.",
            None,
        ),
        # a story of something lost or forgotten: the reference speaks of it
        (
            "I lost my Tsumugi ID and need to link it with a Google account. How do I do that?",
            "To link a service, log in to Tsumugi and go to Settings > Account > Linked services. Tap 'Link' next "
            "to the service.",
            answer_kind.LOSS,
        ),
        (
            "I can't remember my password. What happened to me?",
            "You cannot reuse your current password.",
            answer_kind.LOSS,
        ),
        (
            "How can I reset my password if I don't remember it?",
            "If you cannot remember your password, select 'Forgot password?' on the login screen.",
            None,
        ),
        (
            "I lost my phone and my backup codes. What should I do?",
            "If you have lost both your device and your backup codes, contact us through the support form.",
            None,
        ),
        (
            "I forgot my password. What should I do?",
            "Request a reset link with 'Forgot password?' on the login screen.",
            None,
        ),
        (
            "I think my account was hacked. What should I do?",
            "Change your password in Settings > Security and sign out of every device.",
            None,
        ),
        # something the customer cannot find: the reference does more than tell them to use it
        (
            "I recently changed my email address, but I can't find the confirmation email. What should I do?",
            "Go to Settings > Account > Email address and tap 'Change'. Enter your current password and the new "
            "email address. Open the confirmation email sent to the new address and tap the link within 24 hours.",
            answer_kind.USES_MISSING,
        ),
        (
            "I never received the code. How do I sign in?",
            "Enter the code from the text message on the sign-in screen.",
            answer_kind.USES_MISSING,
        ),
        (
            "I can't find the confirmation email. What should I do?",
            "If the email does not arrive, wait a few minutes and check your spam or junk folder.",
            None,
        ),
        (
            "I can't find the confirmation email. What should I do?",
            "The confirmation email goes to the new address; request a new one from Settings > Account.",
            None,
        ),
        # "it depends": the ways themselves, at least two
        (
            "How can I cancel my Tsumugi Premium subscription? What should I do if I am unsure?",
            "How you cancel depends on how you pay. If you are unsure, check Settings > Premium > Payment method.",
            answer_kind.DEPENDS,
        ),
        (
            "How do I cancel?",
            'How you cancel depends on how you pay. On the web, go to Settings > Premium and tap "Cancel plan". '
            "In the App Store, open the iOS Settings app and tap Subscriptions.",
            None,
        ),
        (
            "解約するにはどうすればいいですか？",
            "解約方法はお支払い方法によって異なります。分からない場合は 設定 > プレミアム > 支払い方法 で確認してください。",
            answer_kind.DEPENDS,
        ),
        # what a thing is: more than its name as an item of a list
        (
            "What is the subject line of the receipt email? What is the payment method?",
            "The subject line is 'Tsumugi Premium receipt', and it shows the Tsumugi ID, date, amount and "
            "payment method.",
            answer_kind.NAMED_ONLY,
        ),
        (  # the list cut to its first item: named as what the receipt shows, no more
            "What is the subject line of the receipt email? What is the Tsumugi ID?",
            "The subject line is 'Tsumugi Premium receipt', and it shows the Tsumugi ID",
            answer_kind.NAMED_ONLY,
        ),
        ("What is the Tsumugi ID?", "The receipt shows the Tsumugi ID, which is the account you paid with.", None),
        ("What is the payment method?", "It shows the date, amount and payment method, which is your card.", None),
        ("What is the payment method?", "Renewals use your default payment method.", None),
        ("What are the plans?", "You can choose monthly, yearly or lifetime plans.", None),
        ("What is a Tsumugi ID?", "A Tsumugi ID is the one account you use across the apps.", None),
    ],
)
def test_a_reference_gives_what_its_question_asks_for(question: str, reference: str, lacks: str | None) -> None:
    assert answer_kind.missing(question, reference) == lacks


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


@pytest.mark.parametrize(
    ("message", "one_by_one"),
    [
        ("What is a Docker ID?", ["What is a Docker ID?"]),
        (
            "I got a notice I didn't expect. What should I do? How do I reset my password?",
            [
                "I got a notice I didn't expect. What should I do?",
                "I got a notice I didn't expect. How do I reset my password?",
            ],
        ),
        ("How do I track my order? Where is the link?", ["How do I track my order?", "Where is the link?"]),
    ],
)
def test_each_question_of_a_message_is_asked_with_its_story(message: str, one_by_one: list[str]) -> None:
    assert shape.one_by_one(message) == one_by_one


@pytest.mark.parametrize(
    ("question", "heading", "whole"),
    [
        ("What is the refund policy for Tsumugi Premium fees?", "Refund policy", True),
        ("I'm new here. What are the community rules?", "Community › Rules", True),
        ("What are the fees for late payment?", "Fees", True),
        ("返金ポリシーについて教えてください。", "返金ポリシー", True),
        # another topic's options; a question for one fact; a definition; a narrower Japanese one
        ("What are the refund options?", "Payment options", False),
        ("What is the maximum number of failed login attempts?", "Account locked after failed logins", False),
        ("What is a Tsumugi ID?", "What is a Tsumugi ID", False),
        ("How do I change the refund policy settings?", "Refund policy", False),
        ("返金ポリシーでアプリ内課金はどうなりますか？", "返金ポリシー", False),
    ],
)
def test_a_question_for_its_pages_whole_topic_is_told_apart(question: str, heading: str, whole: bool) -> None:
    assert asks_whole_topic(question, heading) is whole


def _passage(doc_id: str, title: str, text: str) -> SourcedPassage:
    return SourcedPassage(doc_id, title, (), None, 0, len(text), text, "")


def test_only_all_there_is_under_the_heading_answers_a_whole_topic_question() -> None:
    first = _passage("17-refund.md", "Refund policy", "Fees are not refunded.\n\nWe refund double charges.")
    second = _passage("17-refund.md", "Refund policy", "Ask within 30 days.")
    alone = _passage("18-fees.md", "Fees", "Premium is ¥480 a month.")
    assert not whole_topic_part("Fees are not refunded.", first, [first, alone])
    assert whole_topic_part("Fees are not refunded.  We refund double charges.", first, [first, alone])
    # the page goes on in another passage under the same heading
    assert not whole_topic_part("Fees are not refunded. We refund double charges.", first, [first, second])
    assert whole_topic_part("Premium is ¥480 a month.", alone, [first, second, alone])


@pytest.mark.parametrize(
    ("question", "reference", "quoted"),
    [
        (
            "What payment methods do you accept? I saw a sign that said 'We accept Visa, Mastercard, JCB and "
            "convenience-store payment' and I wanted to know if I could use it.",
            "We accept Visa, Mastercard, JCB and convenience-store payment.",
            True,
        ),
        (
            "「返品は30日以内に受け付けます」と書いてありました。返品できますか？",
            "返品は30日以内に受け付けます。",
            True,
        ),
        # a yes/no question in the reference's words quotes nothing
        (
            "Can I cancel my subscription at any time before the next renewal date?",
            "You can cancel a subscription at any time before the next renewal date.",
            False,
        ),
        # the message quoted is the customer's case, not its answer
        (
            "I keep getting 'This external account is already linked to another Tsumugi ID'. What do I do?",
            "This message means a different Tsumugi ID is already using that external account. Log in to it and "
            "tap Unlink.",
            False,
        ),
        ("If my invoice isn't paid by the due date, what's the grace period?", "There's a 15-day grace period.", False),
    ],
)
def test_a_message_that_quotes_its_own_answer_is_found(question: str, reference: str, quoted: bool) -> None:
    assert shape.quotes_its_answer(question, reference) is quoted
