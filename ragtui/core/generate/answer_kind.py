"""Does the reference give what its question asks for? Decided in code, before any judge.

The small judge's "does it answer the question?" says yes to a reference that is about the
question's topic but answers another question of it: "How long does it take to ship an order of
¥5,000 or more?" → "Shipping is free on orders of ¥5,000 or more"; "How do I deactivate my
account?" → "To deactivate it, follow these steps:" and no step. Some questions say what their
answer must hold, and a reference without it cannot be right:

- a duration ("how long", 「どのくらいかかり」「何日」): a number with a unit of time, or a word
  that is one ("immediately", 「即日」);
- an amount or a count ("how much", "how many", "what is the fee", 「いくら」「何回」): a number,
  or a word that stands for one ("free", "unlimited", 「無料」);
- a clock time or a date ("what time", 「何時」「何曜日」): a number, or a day's name;
- a way to do something ("how do I…", "how can I…", "what can you do to…", 「どうすれば」「方法」):
  an action (select, tap, contact, 選択, 登録…), a menu path, a numbered step, or a button named
  in quotes — "How can I cancel my subscription?" answered "You can cancel at any time before the next renewal date"
  says when, not how — nor is it answered by "How you cancel depends on how you pay" with fewer
  than two of the ways after it; "Can you help me add a payment method?" asks for one too, and "You must be
  an organization owner to add one" says who may, not how (an English action is told as one: an
  imperative, or what the customer can do);
- yes or no ("Can I delay it?", English): a yes or no, a negation, "only", or the asked verb —
  "You have a 15-day grace period" answers a neighbouring question;
- what follows from something ("What happens if I switch to an annual cycle?", English): more
  than whether one may — "You can switch to a yearly plan at any time. However, switching from
  yearly to monthly isn't supported" says whether, not what happens;
- a reason ("Why is it necessary to add the VAT number manually?", 「なぜ」「理由」): a word that
  gives one ("because", "so that", "to protect", 「ため」「ので」) — "Complete the Contact Support
  form" says what to do, not why. A question why something cannot be done ("Why can't I get a
  refund for unused time?") is answered by the rule that says so, too: a "not", "only", "unless".
  In English a reason or a rule that is only the question's own words is none: "Why can't I merge
  my Tsumugi IDs?" is not answered by "Because Tsumugi IDs cannot be merged, …".
- the words shown ("What is the email subject line for a Premium receipt?", "What is the message
  that appears when…?", 「件名」「エラーメッセージは」): the words themselves, in quotes, backticks or
  「」 — "We email a receipt to your address" names no subject line;
- the team's address or number ("What is the support email address?", 「サポートの電話番号」): an
  e-mail address, a web address or a phone number;
- what a thing is ("What is the payment method?", English): more than its name as an item of a
  list — "it shows the Tsumugi ID, date, amount and payment method" names it and says nothing of
  it.

A story of something done that did not work ("I recently changed my email address, but I'm still
getting emails from the old address. How can I fix this?", English) is answered by what speaks of
the trouble: a reference that gives the steps of what the customer already did ("Go to Settings >
Account > Email address and tap 'Change'…") and no word of the trouble's own ("old") tells them to
do it again. So is a story of something lost, forgotten, stolen, hacked, deleted or broken ("I
lost my Tsumugi ID and need to link it with a Google account") by what speaks of it: the linking
steps alone, which begin "log in to Tsumugi", answer as if nothing were lost.

A message of two questions is checked question by question: each one's own words apply, to its
own part of the reference — the sentences that speak of what that question alone asks about (in
English, by content words). "Can I upgrade … to get access to all features of the tier? Can I also
get access to the latest features and updates?" answered "When you upgrade, you immediately get
access to all features and entitlements" leaves the second without a sentence; and a yes/no
second question is not answered by the first one's "You can update the billing information".

A reference that speaks of the page instead of answering ("This page explains how to make
subscription changes", "Learn how to view and pay invoices, …", 「このページでは…」) answers nothing, whatever the question; nor does one
that only sends the reader elsewhere ("For more information, see [Docker subscription
overview](_index.md)", 「詳しくは…をご覧ください」). And a
reference that announces steps or a list ("follow these steps:", 「以下の手順で」) must go
on to give them: something after its last colon, and an action (a menu path, a numbered step, a
verb of the screen: select, tap, 選択, タップ).

Only what the question's own words require is checked; a question that names no such thing
("What is a Tsumugi ID?") passes, and the judge decides.
"""

from __future__ import annotations

import re
import unicodedata

from ..text.content_words import STEM, content_stems
from ..text.exact_match import exact_form
from ..text.script import JAPANESE
from ..text.sentences import split_sentences
from .question_shape import one_by_one, questions_in

DURATION = "duration"
AMOUNT = "amount"
CLOCK = "clock"
STEPS = "steps"
HOW_TO = "how_to"
YES_OR_NO = "yes_or_no"
ABOUT_PAGE = "about_page"
POINTER = "pointer"
UNANSWERED_PART = "unanswered_part"
CONSEQUENCE = "consequence"
REASON = "reason"
WORDING = "wording"
ADDRESS = "address"
TROUBLE = "trouble"
NAMED_ONLY = "named_only"
LOSS = "loss"
DEPENDS = "depends"
USES_MISSING = "uses_missing"

_EN_ASKS = {
    # first: "Why do I need to wait so long?" asks for a reason, not a duration
    REASON: re.compile(
        r"(?<!that's )(?<!which is )(?<!this is )\bwhy\b|\bwhat(?:'s| is) the reason\b|\bhow come\b|\bfor what reason\b"
    ),
    DURATION: re.compile(
        r"\bhow long\b|\bhow soon\b|\bhow many (?:business |working )?(?:seconds|minutes|hours|days|weeks|months|years)\b"
        r"|\bhow quickly\b"
    ),
    AMOUNT: re.compile(
        r"\bhow much\b|\bhow many\b|\bwhat(?:'s| is| are)? (?:the )?(?:[\w-]+ )?(?:price|cost|fee|charge|limit|"
        r"maximum|minimum|max|min)s?\b|\bhow (?:big|large)\b"
    ),
    CLOCK: re.compile(r"\bwhat time\b|\bwhat date\b|\bwhich day\b|\bby what time\b|\bby when\b"),
    HOW_TO: re.compile(
        r"\bhow (?:do|can|should|would|could) (?:i|we)\b(?! (?:know|tell)\b)|\bhow to\b"
        # a how-to in other words: "Can you help me add a payment method?"
        r"|\bhelp (?:me|us) (?:to )?(?!with\b|out\b|understand\b|know\b|decide\b)[a-z]+\b|\b(?:show|tell) (?:me|us) how\b"
        r"|\bwalk (?:me|us) through\b|\bwhat (?:are )?the steps\b|\bwhat (?:do|should) (?:i|we) (?:need to )?do to\b"
        # "If a renewal payment fails, what should I do?" asks for an action, not what happens
        r"|\bwhat (?:should|can|do|must) (?:i|we) (?:need to )?do\b"
        # "What is the process for switching from a monthly billing cycle to an annual one?"
        r"|\bwhat(?:'s| is| are) the (?:process|procedure|steps?) (?:for|to|of)\b"
        # the page's "you" kept: "what can you do to switch to an annual billing cycle?"
        r"|\bwhat (?:should|can|do|must) you (?:need to )?do to\b"
        # "What is the first step in upgrading…?" asks for a step, as "how do I" does
        r"|\bwhat(?:'s| is) the (?:first|next|last) step\b"
        # "…, what is the best way to switch to an annual billing cycle?"
        r"|\bwhat(?:'s| is) the (?:best |easiest |quickest |right |correct )?(?:way|process) to\b"
    ),
    CONSEQUENCE: re.compile(r"\bwhat (?:happens|will happen|would happen|changes|will change)\b"),
    # the words shown: "What is the email subject line for a Premium receipt?", "What is the
    # message that appears when …?" ("What does this error mean?" asks what it means)
    WORDING: re.compile(
        r"\bwhat(?:'s| is| are)? (?:the |that )?(?:[\w-]+ ){0,2}(?:subject(?: line)?|label|button|error message|"
        r"message|wording|error)s?\b(?! means?\b)"
    ),
    # the team's address: "What is the support email address?", "What is your phone number?"
    ADDRESS: re.compile(
        r"\bwhat(?:'s| is| are)? (?:the|your) (?:[\w-]+ )?(?:e-?mail address|phone number|telephone number|url|"
        r"website|web address|web site)\b"
    ),
}
_JA_ASKS = {
    REASON: re.compile(r"なぜ|何故|どうして|理由"),
    DURATION: re.compile(
        r"どのくらい(?:の期間|かかり|で届|で反映|で返金)|何日|何時間|何分|何週間|何か月|何ヶ月|何カ月|何営業日|いつまでに"
    ),
    AMOUNT: re.compile(r"いくら|何円|何回|何個|何件|何台|何人|何文字|何GB|上限は|料金は|手数料は|費用は|金額は"),
    CLOCK: re.compile(r"何時|何曜日|何日に"),
    HOW_TO: re.compile(r"どうすれば|どうやって|どうしたら|どのように|どうやったら|方法|手順|やり方|するには"),
    WORDING: re.compile(r"件名|文言|ボタン名|表示される(?:メッセージ|文)|エラーメッセージ(?:は|を|の内容)"),
    ADDRESS: re.compile(r"(?:問い合わせ|お問い合わせ|サポート|窓口)(?:先)?の?(?:メールアドレス|電話番号|URL)"),
}
_TIME_UNIT = re.compile(
    r"\d\s?(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|business days?|working days?|weeks?|months?|years?|"
    r"秒|分|時間|日|営業日|週間|週|か月|ヶ月|カ月|ヵ月|年)"
)
_DURATION_WORDS = re.compile(
    r"\b(?:immediately|instantly|right away|at once|same day|next day|overnight|straight away|a few (?:seconds|"
    r"minutes|hours|days|weeks)|an? (?:hour|day|week|month|year))\b|即時|即日|すぐ|当日|翌日|翌営業日|数分|数時間|数日"
)
_NUMBER_WORDS = re.compile(
    r"\b(?:free|no charge|no fee|no cost|nothing|unlimited|no limit|any number)\b|無料|無制限|上限はありません|かかりません"
)
_DAY_WORDS = re.compile(
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|noon|midnight|weekdays?)\b|"
    r"[月火水木金土日]曜|今日|明日|翌日|正午|深夜|平日"
)
_DIGIT = re.compile(r"\d")
# Words shown as they appear: in quotes, backticks or Japanese brackets.
_QUOTED = re.compile(r"[\"“‘「『`][^\"”’」』`\n]{1,80}[\"”’」』`]|(?<!\w)'[^'\n]{1,80}'(?!\w)")
# An address to write to or call: an e-mail, a web address, or a phone number.
_AN_ADDRESS = re.compile(
    r"@[\w-]+\.|https?://|\bwww\.|\b[\w-]+\.(?:com|org|net|io|jp|co|example|dev|app|help)\b|\d[\d -]{5,}\d"
)
# Words that give a reason. "to" alone does not ("to do so, select Billing"): only with a verb of
# purpose after it ("to protect your account").
_BECAUSE = re.compile(
    r"\b(?:because|since|as a result|so that|so you|so we|due to|owing to|in order to|the reason|that way|"
    r"otherwise|which means|this means|for (?:security|safety|privacy|legal|tax) reasons?|for your (?:security|safety|"
    r"protection)|required by|by law|to (?:protect|prevent|keep|ensure|make sure|avoid|comply|verify|confirm|stop|"
    r"help|secure|meet))\b|ため|ので|理由|防ぐ|守る|からです",
    re.I,
)
# A question why something cannot be done ("Why can't I …", 「できないのはなぜ」): the rule that says so
# answers it.
_WHY_NOT = re.compile(
    r"\bwhy (?:can't|cannot|can not|won't|isn't|aren't|doesn't|don't|didn't|wasn't|am i not|is (?:it|my|the) not|"
    r"do (?:i|we) not)\b|できない(?:の|ん)|ません(?:の|か)",
    re.I,
)
_RULE = re.compile(
    r"\b(?:not|cannot|can't|no|never|only|unless|must|required|won't|isn't|aren't|doesn't|don't)\b|n't\b|ません|できない|のみ|だけ",
    re.I,
)
_ANNOUNCES = re.compile(
    r"\b(?:these|the following|following|below|as follows)\b[^.]{0,20}?(?:steps?|:)|\bsteps? below\b|"
    r"以下の(?:手順|方法|とおり|通り)|次の(?:手順|方法|とおり|通り)|下記の(?:手順|方法)",
    re.I,
)
_ACTION = re.compile(
    r"\b(?:select|click|tap|press|choose|open|go to|navigate|sign in|log in|enter|type|follow the link|scroll)\b|"
    r"[>＞›→]|(?:^|\s)\d[.)]\s|選択|タップ|クリック|押し|開き|開いて|入力|ログイン|進み",
    re.I,
)


# What a how-to answer does: an action on a screen or toward the team, told as one — an
# imperative ("Select Billing", "…, then tap Save") or what the customer can do with another verb
# than the question's ("You can add one from the Billing page" to "How do I add…" tells where, and
# "You can cancel at any time" to "How can I cancel?" tells when) — or a menu path, a numbered
# step, or a button or screen named in quotes. A verb of the screen anywhere is not enough: "You
# must be an organization owner to add a payment method" says who may, not how.
_VERBS = (
    r"(select|click|tap|press|choose|pick|open|go to|visit|navigate|sign in|sign up|sign out|log in|log out|register|"
    r"enter|type|follow|scroll|contact|request|call|send|e-?mail|write to|use|download|install|print|drop|"
    r"turn (?:on|off)|change|update|add|remove|delete|upload|reply|link|unlink|check|fill (?:in|out)|submit|"
    r"confirm|copy|paste|save|edit|set|switch|create|reset|verify|cancel|return|ask|email)"
)
_IMPERATIVE = re.compile(
    r"(?:^|[.;:!?]\s+|,\s+|\(|\b(?:then|and|or|first|next|finally|please|simply|just|try to|be sure to|"
    rf"make sure to|from there,?|here,?)\s+){_VERBS}\b",
    re.I | re.M,
)
_CAN_DO = re.compile(
    r"\b(?:you can|you may|you'll|you will|you need to|you'll need to|you have to|you must|you should|we can)\s+"
    # "you can choose to switch" says whether one may, not how
    rf"(?:also |then |simply |just |now )?(?!(?:choose|select|pick) to\b){_VERBS}\b",
    re.I,
)
_SHOWN = re.compile(r"[>＞›→]|(?:^|\s)\d[.)]\s|[\"“‘「『][^\"”’」』]{1,40}[\"”’」』]|`[^`\n]{1,40}`", re.M)
# A verb after "and" / "or" / "then" goes on with what the sentence's subject does, when it has
# one: "You can link your ID … and then log in with one tap" says what linking gives, and
# "moderators, who may add rules … and remove posts" who may — neither is an order to the reader.
# An order has no subject before it ("Open Settings and then tap Save"), except in a clause that
# sets the case ("If you forgot it, reset it and then sign in").
_GOES_ON = re.compile(r"^\W*(?:and|or|then)\b", re.I)
_SETS_THE_CASE = re.compile(
    r"^\s*(?:if|when|whenever|once|after|before|to|while|since|as soon as|in case)\b[^,]*,\s*", re.I
)
_SUBJECT_DOES = re.compile(
    r"\b(?:you|we|they|it|he|she|who|which|that|users?|customers?|members?|moderators?|owners?|admins?|"
    r"administrators?)\s+(?:can(?:not)?|can't|may|might|will|would|should|must|could|need to|have to|are able to|"
    r"get to)\b|\b(?:you|we|they)'ll\b|\b(?:lets?|allows?|enables?|helps?) (?:you|users|customers|members|them)\b",
    re.I,
)


def _orders(text: str) -> list[str]:
    """The verbs ``text`` gives as orders (``_IMPERATIVE``), leaving out a verb that goes on with
    what a subject does (above)."""
    verbs = []
    for m in _IMPERATIVE.finditer(text):
        if _GOES_ON.match(m.group(0)):
            start = max(text.rfind(mark, 0, m.start()) for mark in (". ", "; ", ": ", "! ", "? ", "\n"))
            before = _SETS_THE_CASE.sub("", text[start + 1 : m.start()])
            if _SUBJECT_DOES.search(before):
                continue
        verbs.append(m.group(1))
    return verbs


# Where or with what an action is done: "in Settings", "from the Billing page", "under Menu >
# Help", "via the app", "by email", "using the link", "on the welcome screen" — not "at any time".
_WHERE_OR_WITH = re.compile(
    r"\b(?:in|on|from|under|via|through|using|with|by|at(?!\s+(?:any|once|least|most|all|first|last)\b))\s+((?:the|your|our|a|an|its|this|that)?\s*[\w'’-]+"
    r"(?:\s+(?!(?:and|or|to|then|if|when|before|after)\b)[\w'’-]+){0,3})",
    re.I,
)


def _tells_how(question: str, reference: str) -> bool:
    """Does the English ``reference`` tell a way to do what ``question`` asks (above)? An
    imperative, or what the customer can do, with a verb the question does not already say:
    "…how can I log in to my other Tsumugi IDs and check?" answered "log in to your other Tsumugi
    IDs and check" gives the question back as an order."""
    if _SHOWN.search(reference):
        return True
    asked = set(re.findall(r"[a-z]+(?: (?:in|up|out|on|off|to))?", question.casefold()))
    ordered = _orders(reference)
    told = [*ordered, *(m.group(1) for m in _CAN_DO.finditer(reference))]
    if any(verb.casefold() not in asked for verb in told):
        return True
    # the question's own verb as an order, with where or with what that the question does not
    # say ("Cancel it in Settings"); "You can cancel at any time" says when, not how, and "Verify
    # your email address to complete the registration" gives "…can't verify my email address"
    # back with a purpose
    if not ordered:
        return False
    known = content_stems(question)
    return any(content_stems(m.group(1)) - known for m in _WHERE_OR_WITH.finditer(reference))


# Two things to do, asked at once: "What should I do to cancel Tsumugi Premium and delete my
# account?" — each verb followed by what it is done to (a verb, not "my email and password").
_TWO_GOALS = re.compile(
    r"\b(?:do|need|want|have|how|way|steps|able) to ([a-z]+) (?:[a-z' -]+ )?and (?:then |also )?([a-z]+) "
    r"(?:my|the|your|our|it|this|that|them|a|an)\b",
    re.I,
)
# Where a verb is given as something to do: a menu path's step or a quoted label ("Settings >
# Account > Delete account", 'tap "Delete"').
_PATH_OR_LABEL = re.compile(
    r"(?:\b[\w'’-]+(?: [\w'’-]+){0,2}\s>\s)+[\w'’-]+(?: [\w'’-]+){0,2}|[\"“‘'「][^\"”’'」\n]{1,40}[\"”’'」]"
)


def _a_goal_untold(question: str, reference: str) -> bool:
    """Does a how-to ``question`` that asks two things to do get a way for only one? "…to cancel
    Tsumugi Premium and delete my account?" answered with what to do before deleting ("Before you
    delete your account, cancel Tsumugi Premium…") tells no way to delete it: the second verb is
    neither an order nor a step of a menu path or a label. English only."""
    asked = _TWO_GOALS.search(question)
    if asked is None:
        return False
    told = {v.casefold()[:STEM] for v in _orders(reference)}
    told |= {w[:STEM] for m in _PATH_OR_LABEL.finditer(reference) for w in re.findall(r"[a-z]+", m.group(0).casefold())}
    return any(goal.casefold()[:STEM] not in told for goal in asked.groups())


# Japanese names actions as nouns in any sentence (「パスワードを入力せずに」): a how-to answer is
# told as an instruction — 〜てください, or a verb of the screen going on to the next step.
_DOES_JA = re.compile(
    r"[>＞›→]|「[^」]{1,40}」|(?:^|\s)\d[.)．]|(?:て|で)ください|"
    r"(?:開き|選び|選択し|タップし|クリックし|押し|入力し|登録し|連絡し|申請し|送信し|進み|設定し|変更し)(?:ます|、|て)"
)


# A reference that speaks of the document rather than answering from it ("This page explains
# how to make subscription changes", "Learn how to view and pay invoices, …"): a help page's
# introduction copied as an answer.
_ABOUT_PAGE = re.compile(
    r"\b(?:this|the following|the next|the below) (?:page|article|section|guide|topic|document|doc)\b|"
    r"\b(?:see|read|refer to|check) (?:the )?(?:page|article|section|documentation|docs)\b|"
    # a page's opening that says what it teaches: "Learn how to view and pay invoices, …"
    r"(?:^|[.!?]\s+)(?:learn|find out|discover|read about) (?:how|what|when|where|why|about|more about)\b|"
    r"このページ|この記事|このセクション|以下のページ|下記のページ",
    re.I,
)


# A question answered yes or no ("If my subscription is due in 15 days, can I delay it?"): the
# answer says which — a yes or no, a negation, "only", or the asked verb itself ("You can return
# unopened bags") — not a neighbouring fact ("You have a 15-day grace period"). English only: a
# Japanese answer's polarity is in its verb ending, which a pattern reads poorly.
_EN_YES_NO = re.compile(
    r"^(?:(?:if|when|since|now that|as)\b[^,?]*,\s*)?"
    r"(?:(?:can|could|may|will|would|should|do|does|did) (?:i|we|you|they)|is it possible to|am i able to|"
    r"are we able to|is there a way to|is it ok(?:ay)? to|is it allowed to)"
    r"\s+(?:still |also |now |just |then |ever |actually )?(?:help (?:me|us) (?:to )?)?([a-z][a-z-]+)"
)
_NOT_A_DEED = {"be", "have", "get", "need", "know", "tell", "explain", "show", "help", "want", "find", "see"}
# A word, not part of an address or a compound: "no-reply@tsumugi.example" says neither yes nor no.
_POLARITY = re.compile(
    r"(?<![-@./])\b(?:yes|no|not|cannot|can't|won't|isn't|aren't|don't|doesn't|never|only|unable|neither|nor|none|"
    r"must|required|requires|allowed|possible|impossible)\b(?![-@])|n't\b",
    re.I,
)


# A sentence that only sends the reader elsewhere ("For more information, see [Docker
# subscription overview](_index.md).", "…, see 'Double charges'.", 「詳しくは…をご覧ください」): a reference made of such
# sentences answers nothing, whatever the question.
_POINTS = re.compile(
    r"^(?:[^,.;:]{0,100},\s*)?"  # "For more information, …", "If you subscribed twice, …"
    r"(?:see|refer to|read|check out|learn more|find out more)\b(?=.*(?:\]\(|https?://|\b(?:page|article|section|guide|"
    r"documentation|docs|topic|overview)\b|\s[\"“‘'「][^\"”’'」]{2,60}[\"”’'」]))|"
    r"(?:ご覧ください|参照してください|ご参照ください)[。．.!！]?$",
    re.I,
)


# A sentence that says only whether the customer may do something ("If you're on a monthly plan,
# you can switch to a yearly plan at any time.", "However, switching from yearly to monthly isn't
# supported."): no consequence of doing it.
_ONLY_WHETHER = re.compile(
    r"^(?:(?:yes|no)[,.!]?\s*)?(?:(?:however|but|also|note that),?\s*)?(?:(?:if|when|once)\b[^,]*,\s*)?"
    r"(?:(?:you|we|they|customers|users)\s+(?:can(?:not|'t)?|may(?: not)?|are (?:not )?able to|are (?:not )?allowed to)\b"
    r"|[^,.]{0,80}\b(?:is|are|isn't|aren't|is not|are not)\s+(?:not\s+)?(?:supported|allowed|possible|available|permitted)\b)",
    re.I,
)


def gives_a_step(text: str) -> bool:
    """Does ``text`` tell an action on a screen or toward the team — an imperative, a menu path,
    or (Japanese) an instruction? (A part of a passage a how-to question can be asked of.)"""
    if JAPANESE.search(text):
        return bool(_DOES_JA.search(text))
    return bool(_orders(text) or re.search(r"[>＞›→]", text))


def only_points(text: str) -> bool:
    """Is ``text`` made only of sentences that send the reader elsewhere?"""
    return _every_sentence(_POINTS, text)


def speaks_of_page(text: str) -> bool:
    """Does ``text`` speak of the page or another document instead of saying something?"""
    return bool(_ABOUT_PAGE.search(text))


def _every_sentence(pattern: re.Pattern[str], reference: str) -> bool:
    """Is ``reference`` made only of sentences ``pattern`` finds (``_POINTS``, ``_ONLY_WHETHER``)?"""
    sentences = [s.strip() for s in split_sentences(reference) if s.strip()]
    return bool(sentences) and all(pattern.search(s) for s in sentences)


def _yes_no_verb(sentence: str) -> str | None:
    """The verb a yes/no question asks about ("delay" in "…can I delay it?"), or None."""
    found = _EN_YES_NO.search(sentence.strip().casefold())
    if found is None or found.group(1) in _NOT_A_DEED:
        return None
    return found.group(1)


# What makes a sentence with the asked verb say whether: a modal ("Unopened bags can be
# returned"), a "non-" ("non-transferable"), or the customer as its subject ("you return them…").
_SAYS_WHETHER = re.compile(r"\b(?:can|could|may|able|will|would|you|we)\b|\bnon-", re.I)
_OPENS_YES_OR_NO = re.compile(r"^\W*(?:yes|no)\b(?![-@])", re.I)


def _says_yes_or_no(verb: str, reference: str) -> bool:
    """Does a sentence of ``reference`` say whether one may ``verb``: one that opens with yes or
    no, or one with the verb and a negation or modal? A "not" elsewhere does not: "Can I cancel my
    Premium subscription early?" answered "Fees are not refunded for unused time. This includes
    cancelling partway through a month" speaks of refunds."""
    # "pause" is said "Pausing is possible", "apply" "applies": a stem without its last e or y
    base = verb[:5] if len(verb) > 5 else verb
    stem = re.compile(rf"\b{re.escape(base[:-1] if len(base) > 3 and base[-1] in 'ey' else base)}", re.I)
    for sentence in split_sentences(reference) or [reference]:
        if _OPENS_YES_OR_NO.search(sentence):
            return True
        if stem.search(sentence) and (_POLARITY.search(sentence) or _SAYS_WHETHER.search(sentence)):
            return True
    return False


def asked_for(question: str) -> str | None:
    """What ``question``'s own words say its answer must hold (a name above), or None."""
    text = unicodedata.normalize("NFKC", question).casefold()
    for kind, pattern in (_JA_ASKS if JAPANESE.search(text) else _EN_ASKS).items():
        if pattern.search(text):
            return kind
    return None


def missing(question: str, reference: str) -> str | None:
    """What ``reference`` lacks that ``question`` asks for (``DURATION``, ``AMOUNT``,
    ``CLOCK``, ``HOW_TO``, ``YES_OR_NO``, ``CONSEQUENCE``, ``REASON``, ``WORDING``, ``ADDRESS``,
    ``TROUBLE``: the story's trouble unspoken and what was done told again, ``LOSS``: what
    the customer lost or forgot never spoken of, ``USES_MISSING``: what they cannot find
    only used in a step, ``DEPENDS``: a way that "depends on" something
    with fewer than two of the ways given, ``NAMED_ONLY``: what
    was asked only named in a list, ``UNANSWERED_PART``: a question of
    the message no sentence speaks of, or two that ask how long (or how much) given one duration
    (or number) between them, ``STEPS`` it announced and never gave, or
    ``ABOUT_PAGE``: it speaks of the page instead of answering; ``POINTER``: it only sends the
    reader elsewhere), or None when it lacks nothing
    that code can see."""
    text = exact_form(reference)  # "seven days" and 「三日」 as digits, width folded
    if _ABOUT_PAGE.search(text):
        return ABOUT_PAGE
    if _every_sentence(_POINTS, text):
        return POINTER
    announced = _ANNOUNCES.search(text)
    if announced and (not _ACTION.search(text[announced.end() :]) or text.rstrip().endswith((":", "："))):
        return STEPS
    japanese = JAPANESE.search(text) is not None
    if not japanese and _repeats_what_was_done(question, text):
        return TROUBLE
    if not japanese and _loss_unspoken(question, text):
        return LOSS
    if not japanese and _uses_what_is_missing(question, text):
        return USES_MISSING
    # each question of a message by its own words, on its own part of the reference: in "…What
    # should I do? How do I reset my password?" the second asks for a way to do it, whatever the
    # first asks, and the first one's answer does not give it
    asking = questions_in(question) or [question]
    # each question with the message's story, without the other questions
    messages = one_by_one(question) if len(asking) > 1 else [question]
    if len(messages) != len(asking):
        messages = [question] * len(asking)
    if _fewer_than_asked(asking, text):
        return UNANSWERED_PART
    for (sentence, part), message in zip(_parts(asking, text, japanese), messages, strict=True):
        if part is None:
            return UNANSWERED_PART
        kind = asked_for(sentence)
        if kind == DURATION and not (_TIME_UNIT.search(part) or _DURATION_WORDS.search(part)):
            return DURATION
        if kind == AMOUNT and not (_DIGIT.search(part) or _NUMBER_WORDS.search(part)):
            return AMOUNT
        if kind == CLOCK and not (_DIGIT.search(part) or _DAY_WORDS.search(part)):
            return CLOCK
        # with the story's words: "I can't verify my email address. What should I do?" is not
        # answered "Verify your email address"
        if kind == HOW_TO and not (_DOES_JA.search(part) if japanese else _tells_how(message, part)):
            return HOW_TO
        if kind == HOW_TO and not japanese and _a_goal_untold(sentence, part):
            return HOW_TO
        if kind == HOW_TO and _only_depends(part):
            return DEPENDS
        if kind == CONSEQUENCE and _every_sentence(_ONLY_WHETHER, part):
            return CONSEQUENCE
        if kind == REASON and not _gives_reason(sentence, part, japanese):
            return REASON
        if kind == WORDING and not _QUOTED.search(part):
            return WORDING
        if kind == ADDRESS and not _AN_ADDRESS.search(part):
            return ADDRESS
        verb = None if japanese else _yes_no_verb(sentence)
        if verb is not None and not _says_yes_or_no(verb, part):
            return YES_OR_NO
        if not japanese and _only_listed(sentence, part):
            return NAMED_ONLY
    return None


# What each answer of a kind is, counted: two questions that each ask how long need two durations.
_ONE_ANSWER_OF = {
    DURATION: (_TIME_UNIT, _DURATION_WORDS),
    AMOUNT: (re.compile(r"\d[\d,.]*"), _NUMBER_WORDS),
}


def _fewer_than_asked(asking: list[str], text: str) -> bool:
    """Do two or more questions ask for a duration (or an amount) that ``text`` gives fewer of?
    "How long does it take for my order to be shipped? How soon will the tracking link become
    active?" is not answered by "The tracking link becomes active about 6 hours after the order
    ships": the one duration answers the second question only."""
    for kind, patterns in _ONE_ANSWER_OF.items():
        wanted = sum(1 for question in asking if asked_for(question) == kind)
        if wanted >= 2 and sum(len(p.findall(text)) for p in patterns) < wanted:
            return True
    return False


# "What is the payment method?": the thing a question asks what it is.
_WHAT_IS = re.compile(
    r"^\W*(?:and |also )?what (?:is|are|was|were) (?:the |your |my |a |an )?([a-z][a-z' -]{1,40}?)\s*\?*$", re.I
)
# Named as what something shows ("and it shows the Tsumugi ID"): a list cut to its first item.
_SHOWS = re.compile(r"\b(?:shows?|includes?|contains?|lists?|displays?)\s+(?:the |its |your )?$", re.I)
# Right after an item of a list: what says what the item is, or does.
_SAYS_WHAT = re.compile(r"^\s*(?:is|are|was|were|means|:|=|\(|,?\s*(?:which|that)\b)", re.I)


def _only_listed(question: str, part: str) -> bool:
    """Does ``part`` name what a "what is X?" ``question`` asks only as an item of a list ("it
    shows the Tsumugi ID, date, amount and payment method"), or as what something shows ("it
    shows the Tsumugi ID"), saying nothing of what X is?"""
    asked = _WHAT_IS.match(question.strip())
    if asked is None:
        return False
    thing = asked.group(1).strip().casefold()
    text = part.casefold()
    found = [m.start() for m in re.finditer(rf"\b{re.escape(thing)}\b", text)]
    if not found:
        return False
    for start in found:
        clause = re.split(r"[.!?;:]\s", text[:start])[-1]
        listed = ("," in clause and re.search(r"(?:,|\band|\bor)\s*(?:the |its |your )?$", clause)) or _SHOWS.search(
            clause
        )
        if not listed or _SAYS_WHAT.match(text[start + len(thing) :]):
            return False
    return True


# The words that open a cause ("because Tsumugi IDs cannot be merged"): what follows them must say
# more than the question.
_CAUSE = re.compile(r"\b(?:because|since|due to|owing to|as a result of)\b", re.I)
_CLAUSE_END = re.compile(r"[,;:.!?]")


def _gives_reason(question: str, part: str, japanese: bool) -> bool:
    """Does ``part`` give a reason for what ``question`` asks why of (above)? In English a cause
    and a rule count only with a word the question lacks — "Because Tsumugi IDs cannot be merged"
    gives "Why can't I merge my Tsumugi IDs?" back."""
    why_not = _WHY_NOT.search(question.replace("’", "'")) is not None
    if japanese:
        return bool(_BECAUSE.search(part) or (why_not and _RULE.search(part)))
    asked = content_stems(question)
    for found in _BECAUSE.finditer(part):
        if not _CAUSE.fullmatch(found.group(0)):
            return True  # "so that", "to protect": a purpose, not the question again
        clause = _CLAUSE_END.split(part[found.end() :], maxsplit=1)[0]
        if content_stems(clause) - asked:
            return True
    return why_not and any(_RULE.search(clause) and content_stems(clause) - asked for clause in _CLAUSE_END.split(part))


# "I (already / recently / just) changed X, but Y": what the customer did, and what went wrong.
_DONE_BUT = re.compile(
    r"\bI(?:'ve| have)?\s+(?:already\s+|recently\s+|just\s+|successfully\s+)?"
    r"([a-z]+ed|set|reset|put|sent|paid|bought|made|got|took|gave|did|upgraded)\b([^.?!]*?),?\s+"
    r"(?:but|yet|and still|and yet|however)\b([^.?!]*)",
    re.I,
)
# Words of a trouble that say nothing of its own: "but it still doesn't work".
_NO_MATTER = frozenset(content_stems("still now again yet anymore work works working happen happened seem seems"))


def _repeats_what_was_done(question: str, reference: str) -> bool:
    """Does ``reference`` tell again what the customer's story says they did, with no word of
    the trouble that came of it (above)?"""
    said = content_stems(reference)
    for sentence in split_sentences(question) or [question]:
        for found in _DONE_BUT.finditer(sentence):
            done = content_stems(f"{found.group(1)} {found.group(2)}")
            trouble = content_stems(found.group(3)) - done - _NO_MATTER
            if trouble and not trouble & said and content_stems(found.group(1)) & said:
                return True
    return False


# What a customer lost, forgot, had stolen, hacked, deleted or broken: each with the words that
# speak of it ("If you cannot remember your password, select 'Forgot password?'").
_LOSSES = (
    (r"lost|lose|losing", r"lost|lose|losing|loss|recover\w*|find|found|replace\w*|new"),
    (
        r"forgot|forgotten|forget|(?:can't|cannot|can not|couldn't|could not|don't|do not) remember",
        r"forg[eo]t\w*|remember|not sure|reset|recover\w*",
    ),
    (r"stolen|stole", r"stol\w*|steal\w*|theft|lost|lose"),
    (r"hacked", r"hack\w*|compromis\w*|secure|security|someone else|unauthori[sz]ed"),
    (r"deleted", r"delet\w*|restor\w*|recover\w*|undo|cannot be|can't be|permanent\w*|gone"),
    (r"broken|broke", r"broke\w*|damag\w*|repair\w*|replace\w*|faulty|defect\w*"),
)


def _loss_unspoken(question: str, reference: str) -> bool:
    """Does ``question`` tell of something lost, forgotten, stolen, hacked, deleted or broken
    that ``reference`` never speaks of? "I lost my Tsumugi ID and need to link it with a Google
    account" answered with the linking steps ("log in to Tsumugi and …") answers the request as if
    nothing were lost."""
    for told, spoken in _LOSSES:
        if re.search(rf"\bI(?:'ve| have| had)?\s+(?:\w+\s+)?(?:{told})\b", question, re.I) and not re.search(
            rf"\b(?:{spoken})\b", reference, re.I
        ):
            return True
    return False


# "I can't find the confirmation email", "I never received the code": something the customer
# does not have, the last word of what follows being its name.
_NOT_HAD = re.compile(
    r"\bI\s+(?:can't|cannot|can not|couldn't|could not)\s+(?:find|see|locate|get)\s+([^.?!,;]{2,60})|"
    r"\bI\s+(?:didn't|did not|don't|do not|haven't|have not|never)\s+(?:get|got|receive|received|see|saw|have)\s+"
    r"([^.?!,;]{2,60})",
    re.I,
)
_OBJECT_END = re.compile(r"\s+(?:from|for|to|in|on|at|after|when|since|yet|anymore|that|which)\b.*$", re.I)
# A step that uses a thing: "Open the confirmation email…", "tap the link in the email".
_USE = r"(?:open|tap|click|select|use|enter|follow|check|find)"
# Words that speak of a thing not there: where to look, how to get another.
_ABSENT = re.compile(
    r"\b(?:not (?:arrive|arrived|received|come|there)|does(?:n't| not) arrive|did(?:n't| not) (?:arrive|receive|get)|"
    r"spam|junk|resend|send (?:it |you )?(?:again|another|a new)|request (?:another|a new)|missing|"
    r"can't find|cannot find|no longer|expired?|wait)\b",
    re.I,
)


def _uses_what_is_missing(question: str, reference: str) -> bool:
    """Does ``reference`` tell the customer to use what ``question`` says they cannot find or
    never got, with no word of it being missing? "I changed my email address, but I can't find the
    confirmation email" answered "…3. Open the confirmation email sent to the new address" gives the
    steps they already took, not what to do now."""
    if _ABSENT.search(reference):
        return False
    for found in _NOT_HAD.finditer(question):
        thing = _OBJECT_END.sub("", (found.group(1) or found.group(2)).strip())
        words = [w for w in re.findall(r"[a-z][a-z-]+", thing.casefold()) if w not in {"the", "my", "a", "an", "any"}]
        if not words:
            continue
        name = re.escape(words[-1])
        if re.search(rf"\b{_USE}\b(?:\s+\S+){{0,4}}?\s+{name}s?\b", reference, re.I):
            return True
    return False


# "How you cancel depends on how you pay": the way is one of several, each for its case.
_DEPENDS = re.compile(r"\b(?:depends on|depending on|varies by|differs by)\b|によって(?:異な|違)|により異な", re.I)
CASES_GIVEN = 2  # the ways a reference that says "it depends" must go on to give


def _only_depends(part: str) -> bool:
    """Does ``part`` say the way depends on something and give fewer than ``CASES_GIVEN`` of
    the ways? "How you cancel depends on how you pay. If you are unsure, check Settings > Premium
    > Payment method" gives none of them, only where to look up which is yours."""
    sentences = split_sentences(part) or [part]
    opening = next((i for i, sentence in enumerate(sentences) if _DEPENDS.search(sentence)), None)
    if opening is None:
        return False
    after = [sentences[opening].partition(":")[2], *sentences[opening + 1 :]]
    return sum(1 for sentence in after if sentence.strip() and gives_a_step(sentence)) < CASES_GIVEN


# A sentence that is only "Yes." or "No." (「はい。」): it answers whatever it opens.
BARE_ANSWER = re.compile(r"^(?:yes|no|はい|いいえ)[.,!。、！]?$", re.I)
# A question with fewer words of its own is often answered in other words ("Who do I tell about
# it?" → "contact support"): it is read on the whole reference.
OWN_WORDS_AT = 2


def _parts(questions: list[str], reference: str, japanese: bool) -> list[tuple[str, str | None]]:
    """Each question with the part of ``reference`` that answers it: the sentences sharing a
    content word that only this question of the message has (None when no sentence does). A
    question with fewer than ``OWN_WORDS_AT`` words of its own, a message of one question, and
    Japanese (no spaces to find words by) get the whole reference."""
    if len(questions) < 2 or japanese:
        return [(q, reference) for q in questions]
    sentences = split_sentences(reference) or [reference]
    stems = [content_stems(q) for q in questions]
    parts: list[tuple[str, str | None]] = []
    for i, question in enumerate(questions):
        own = stems[i] - set().union(*(s for j, s in enumerate(stems) if j != i))
        if len(own) < OWN_WORDS_AT:
            parts.append((question, reference))
            continue
        about = [s for s in sentences if content_stems(s) & own]
        # a bare "Yes." or "No." may answer either question: it goes with the part it opens
        parts.append(
            (question, " ".join(s for s in sentences if s in about or BARE_ANSWER.match(s)) if about else None)
        )
    return parts
