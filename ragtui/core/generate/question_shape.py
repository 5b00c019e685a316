"""Is the writer's question a question, and of the kind it is labelled? Decided in code.

A small writer gives a heading as its question (「ロッカーが開かない・画面が動かないとき」), a
statement ("I'm moving out and want to keep my account information"), a "two questions" item with
one question, a "situational" item with no story, a "distracting detail" item with no detail.
Each is asked again once with what is wrong (the caller), then dropped, counted by reason.

- a question: some sentence ends with a question mark, or (Japanese) with か, or is a request to
  be told (「教えてください」); or (English) opens with a question word ("How do I ….");
- two questions: two such sentences (or two question marks);
- situational: a sentence that is not a question, of a few words at least, tells the customer's
  story (one about the conversation itself — "I told you about a situation where I had to pay
  late.", "The customer told you that…" — does not, nor, in English, one told to "you" with no
  "I" or "my": "After you made a payment, you received a receipt");
- distracting detail: a sentence of its own that is mostly not the passage's words (the detail
  the answer should ignore; under a third of its character trigrams in the passage);
- conditional: the message states a condition ("if", "unless", 「場合」「なら」), or the customer's
  own case in a sentence of its own ("I'm on the Basic plan.", 「私は…」) — "What is a Docker
  ID?" and "Can I link my account?" are no conditional questions;
- two questions: the two are not one question asked twice (as alike as a reworded copy, at or
  above ``similarity.DUPLICATE_AT``), nor one question and a request for its steps ("How can I
  export my blog posts? What is the process?" — the second says nothing the first does not ask),
  nor (English) one question asked again for the same time or amount in a word that says so
  ("When should I ship my order? What is the shipping time?");
- any kind: no blank left to fill in ("I received my package on [date] and it was
  [description].", "<name>", 「〇〇」) — no customer writes one; and the customer's own words, not
  the writer's about them: "If an image upload fails, what should the customer do?",
  「お客様は…できますか」, "What should a customer do if their pages load slowly?" (the customer
  service, a user who harassed me, are other people); nor a quiz of the page's words: "What is
  the term for a subscription that has been cancelled?", 「…を何と呼びますか」; nor the writer's
  instructions given back ("What should I ask to be told exactly that …?").
"""

from __future__ import annotations

import re

from ..text.content_words import content_stems
from ..text.sentences import split_sentences
from .similarity import DUPLICATE_AT, alike, copied_share

NOT_A_QUESTION = "not_a_question"
ONE_QUESTION = "one_question"
NO_STORY = "no_story"
NO_DETAIL = "no_detail"
NO_SITUATION = "no_situation"
SAME_TWICE = "same_twice"
PLACEHOLDER = "placeholder"
NOT_THEIRS = "not_theirs"
VOCABULARY = "vocabulary"
ECHO = "echo"

_MARK = re.compile(r"[?？]")
_JA_ASKS = re.compile(r"(?:か|かな|かね|ください|下さい|教えて|知りたいです|でしょうか)[。．.!！]?$")
_EN_ASKS = re.compile(
    r"^(?:how|what|when|where|why|which|who|whom|whose|can|could|do|does|did|is|are|was|were|will|would|"
    r"should|shall|may|might|have|has|am)\b",
    re.I,
)
# A condition the answer turns on, anywhere in the message; or the customer speaking of their own
# case in a sentence that is not the question ("Can I link my account?" says nothing of it).
_EN_CONDITION = re.compile(r"\b(?:if|unless|in case|when i|when my|since|because|as i|as my)\b", re.I)
_EN_OWN_CASE = re.compile(r"\b(?:i|i'm|i've|i'd|my|we|we're|our)\b", re.I)
_JA_CONDITION = re.compile(r"場合|なら|たら|れば|ければ|ので|のですが|んですが|けど|ですが|ため")
_JA_OWN_CASE = re.compile(r"私|僕|わたし|自分|うち")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# A sentence about the conversation or the passage is no story of what happened, nor a detail of
# the customer's ("I told you about a situation where I had to pay late.", "A pet is mentioned in
# the passage."): the small writer fills the kind's slot with it.
_META = re.compile(
    r"\b(?:i (?:told|asked) you|as i (?:said|mentioned|told you)|i (?:already )?(?:mentioned|said|described|explained)|"
    r"my (?:situation|story|question) (?:is|was)|(?:a|the|my) situation (?:where|in which|that)|"
    r"here is my (?:situation|story)|(?:mentioned|said|written|described) in the (?:passage|text|article|page)|"
    r"the (?:passage|text|article) (?:mentions|says|talks about)|"
    r"the (?:customer|user) (?:told|said|asked|mentioned|explained|reported|had|has|was|is|wants|wanted)|"
    r"the (?:customer|user)'s (?:situation|story|question)|i wrote (?:a|my) (?:short )?story)\b|先ほど(?:言った|話した|お伝えした)|(?:状況|事情)を(?:話し|説明し|伝え)",
    re.I,
)
# A blank left to fill in: "[date]" (not a Markdown link's text), "<name>", "{order number}",
# "XXX", 「〇〇」「＿＿」.
_BLANK = re.compile(
    r"\[[^\]\n]{1,40}\](?!\()|<[A-Za-z][\w -]{0,30}>|\{[^}\n]{1,40}\}|\bX{3,}\b|[〇○]{2,}|[＿_]{3,}|［[^］\n]{1,20}］"
)
# What a "customer" word names when it is no person: "the customer service", "a customer account".
_NOT_A_PERSON = r"(?:service|support|care|portal|cent(?:er|re)|id|number|account|area|page|team|desk)\b"
# The writer speaking of the customer instead of as them: "what should the customer do?", "can
# the user…", 「お客様は」. The customer service, or "the user who posted it", are someone else.
_OF_THE_CUSTOMER = re.compile(
    rf"\bthe (?:customer|client|buyer)s?\b(?!'?s?\s+{_NOT_A_PERSON})|"
    r"\b(?:should|can|could|must|may|will|would|does|did|do) the user\b|"
    r"\bthe user (?:should|can|could|must|may|will|would|needs?|has|wants?|is)\b|"
    r"(?:お客様|お客さま|顧客)(?!センター|サポート|窓口|番号|相談|情報|ID)|"
    # "What should a customer do if their pages load slowly?": someone spoken of, as "their"
    r"\b(?:should|can|could|must|may|do|does|did|will|would|is|are|was|were|if|when|once|after|before|"
    r"saw|seen|noticed|watched|heard) "
    rf"(?:a|each|any|every) (?:customer|user|client|buyer)\b(?! {_NOT_A_PERSON})[^.?!]{{0,80}}\b(?:their|they|them)\b",
    re.I,
)
# A quiz of the page's words, not a need of the customer's: "What is the term for a subscription
# that has been cancelled?", "What do you call…?", 「…を何と呼びますか」. ("The name of the sender"
# and "the term of my contract" ask for something else.)
_VOCABULARY = re.compile(
    r"\bwhat(?:'s| is| are) the (?:term|word|name|phrase|expression)s? (?:for|used for|that describes?)\b|"
    r"\bwhat (?:do|does|would) (?:you|we|they|people|one) call\b|\bwhat is (?:it|this|that) called\b|"
    r"(?:何|なん)と(?:呼|言|い[いうわ])",
    re.I,
)
# The writer's instructions given back as the question: "What should I ask to be told exactly
# that if I have a monthly billing cycle, I can switch…?" (the prompt asks for what a customer
# "would ask to be told exactly this").
_ECHO = re.compile(
    r"\b(?:ask to be told|to be told exactly|what (?:should|can|could|would|do) i ask\b|"
    r"what (?:question|questions) (?:should|can|could|would|do) i ask)",
    re.I,
)
# Words that name the asking itself, not what is asked about: "What is the process?", "What are
# the steps to do this?" — with no other word the first question lacks, it asks the first again.
_ASKING_WORDS = frozenset(
    content_stems(
        "process processes procedure step steps way ways method instructions details do done doing thing things"
        " option options choice choices"
    )
)
# What a question asks for, said either way: "When should I ship my order?" and "What is the
# shipping time?" both ask when; "How much is Premium?" and "What is the price of Premium?" both
# ask how much. The word that says so ("time", "price") is no part of what is asked about.
_ASKS_FOR = (
    (
        re.compile(
            r"\s*(?:when\b|what (?:time|date|day)\b|(?:what|which)(?:'s| is| are) the (?:[\w-]+ )*?(?:times?|dates?|days?)\?)",
            re.I,
        ),
        frozenset(content_stems("time times date dates day days timing")),
    ),
    (
        re.compile(r"\s*(?:how much\b|what(?:'s| is| are) the (?:[\w-]+ )*?(?:prices?|costs?|fees?|charges?)\b)", re.I),
        frozenset(content_stems("price prices cost costs fee fees charge charges")),
    ),
)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
SAME_STEM_FROM = 4  # letters: "ship" and "shipp" (of "shipping") are one word
_SECOND_PERSON = re.compile(r"\b(?:you|your|you've|you're|you'd)\b", re.I)
_WHETHER = re.compile(
    r"(?:and |but |also )?(?:can|could|may|might|is|are|was|were|do|does|did|will|would|have|has|am)\b", re.I
)
# A clause that says only that something went wrong ("I had a bad experience with the coffee", "I
# had a problem with my credit card"), or what the customer wants ("I want to change it"): the
# small writer's stand-in for a story. A story needs one clause that is neither.
_VAGUE_TROUBLE = re.compile(
    r"^(?:but |and |so |then |but then |and then )*(?:i|we)(?: have| had|'ve| am| was|'m| were| got| ran into| saw| noticed| found| encountered| hit)"
    r"(?: been)?(?: having)?(?: a| an| some| this)?(?: (?:bad|negative|terrible|poor|awful|unpleasant|horrible|"
    r"frustrating|small|big|little|minor|major|strange|weird|serious))?"
    r" (?:experience|problem|issue|trouble|difficulty|difficulties|problems|issues)"
    r"(?: (?:with|about|regarding|on) (?!.*\b(?:that|which|when|after|because|since|who|where)\b)[^,;:]{0,40})?$",
    re.I,
)
_INTENT = re.compile(
    r"^(?:but |and |so |then )*(?:i|we)(?: really)? (?:want|wanted|would like|'d like|wish|hope) to\b", re.I
)
_CLAUSE_BREAK = re.compile(r"\s*(?:[,;:]|\band\b|\bbut\b|\bso\b)\s*", re.I)
MIN_STORY_WORDS = 4
MIN_STORY_CHARS = 8  # Japanese, which has no spaces
DETAIL_AT_MOST = 0.34  # of a detail sentence's character trigrams, in the passage


def asks(sentence: str) -> bool:
    text = sentence.strip()
    if _MARK.search(text):
        return True
    if _JAPANESE.search(text):
        return _JA_ASKS.search(text) is not None
    return _EN_ASKS.match(text) is not None


def questions_in(message: str) -> list[str]:
    """The sentences of ``message`` that ask (``asks``)."""
    return [s for s in split_sentences(message) or [message] if asks(s)]


# A span the customer quotes ("I saw a sign that said 'We accept Visa, …'"): an apostrophe inside a
# word ("isn't") opens none.
_QUOTED = re.compile(r"""(?:^|(?<=[\s(:]))["“‘「'](?P<said>[^"”’」]{12,}?)["”’」'](?![A-Za-z])""")
QUOTES_ANSWER_AT = 0.8  # of the reference's character trigrams, inside one quoted span


def quotes_its_answer(question: str, reference: str) -> bool:
    """Does ``question`` quote its own answer — a quoted span holding nearly all of ``reference``?
    "What payment methods do you accept? I saw a sign that said 'We accept Visa, Mastercard, JCB
    and convenience-store payment'" is met by any bot that reads it back. A yes/no question in the
    reference's words ("Can I cancel at any time?") quotes nothing, and is not read here."""
    return any(
        copied_share(reference, found.group("said"), 3) >= QUOTES_ANSWER_AT for found in _QUOTED.finditer(question)
    )


def one_by_one(question: str) -> list[str]:
    """``question`` once for each question it asks, with the rest of the message kept and the
    other questions left out: "I got a notice I didn't expect. What should I do? How do I reset
    my password?" gives "I got a notice I didn't expect. What should I do?" and "I got a notice I
    didn't expect. How do I reset my password?". A message of one question gives itself."""
    sentences = split_sentences(question) or [question]
    asking = [i for i, s in enumerate(sentences) if asks(s)]
    if len(asking) < 2:
        return [question]
    return [" ".join(s for i, s in enumerate(sentences) if i == kept or i not in asking) for kept in asking]


def shape_problem(question: str, kind: str, passage: str) -> str | None:
    """What is wrong with ``question`` for an item of ``kind`` drawn from ``passage`` (one of the
    names above), or None."""
    sentences = split_sentences(question) or [question]
    asking = questions_in(question)
    if not asking:
        return NOT_A_QUESTION
    if _BLANK.search(question):
        return PLACEHOLDER
    if _OF_THE_CUSTOMER.search(question):
        return NOT_THEIRS
    if _VOCABULARY.search(question):
        return VOCABULARY
    if _ECHO.search(question):
        return ECHO
    told = [s for s in sentences if not asks(s)]
    if kind == "two_questions":
        if len(asking) < 2 and len(_MARK.findall(question)) < 2:
            return ONE_QUESTION
        if len(asking) >= 2 and any(_asked_twice(a, b) for i, a in enumerate(asking) for b in asking[i + 1 :]):
            return SAME_TWICE
    if kind == "conditional" and not _situation(question, told):
        return NO_SITUATION
    if kind == "situational" and not any(_long_enough(s) and not _META.search(s) and _own_story(s) for s in told):
        return NO_STORY
    if kind == "distracting_detail" and not any(
        _long_enough(s) and copied_share(s, passage, 3) < DETAIL_AT_MOST and not _META.search(s) for s in told
    ):
        return NO_DETAIL
    return None


def _asked_twice(first: str, second: str) -> bool:
    """Do ``first`` and ``second`` ask one thing: alike as a reworded copy, or (English) one of
    them adds nothing to the other but words for the asking ("What is the process?") or for what
    both ask for ("What is the shipping time?" after "When should I ship my order?")?"""
    if alike(first, second) >= DUPLICATE_AT:
        return True
    if _JAPANESE.search(first + second):
        return False
    if _asked_for_again(first, second) or _asked_for_again(second, first):
        return True
    a, b = content_stems(first), content_stems(second)
    # "What should I do?" has no content word at all: another question, not the first's steps;
    # and after "Can I retry a failed payment?" "What is the process?" asks how, not whether
    return any(
        own & _ASKING_WORDS and not own - other - _ASKING_WORDS and not _WHETHER.match(other_text.strip())
        for own, other, other_text in ((a, b, second), (b, a, first))
    )


def _asked_for_again(own: str, other: str) -> bool:
    """Does ``own`` ask for what ``other`` asks for (a time, an amount), in a word that says so
    ("What is the shipping time?" after "When should I ship my order?") and about nothing
    ``other`` does not name? Numbers count as named: "before 2 p.m." is not "later"."""
    for asking, says_so in _ASKS_FOR:
        if not (asking.match(own) and asking.match(other)):
            continue
        own_words, other_words = _named(own), _named(other)
        if own_words & says_so and all(
            any(_same_stem(word, theirs) for theirs in other_words) for word in own_words - says_so
        ):
            return True
    return False


def _named(text: str) -> set[str]:
    return content_stems(text) | set(_NUMBER.findall(text))


def _same_stem(a: str, b: str) -> bool:
    return a == b or (min(len(a), len(b)) >= SAME_STEM_FROM and (a.startswith(b) or b.startswith(a)))


def _own_story(sentence: str) -> bool:
    """Is ``sentence`` the customer's own story, not one told to "you" ("After you made a Premium
    payment, you received a receipt…": the writer speaking to the reader)? English only."""
    if _JAPANESE.search(sentence):
        return True
    if _SECOND_PERSON.search(sentence) and _EN_OWN_CASE.search(sentence) is None:
        return False
    return not _only_vague(sentence)


def _only_vague(sentence: str) -> bool:
    """Does ``sentence`` only say that something went wrong and what the customer wants?"""
    clauses = [c for c in _CLAUSE_BREAK.split(sentence.strip().rstrip(".!")) if c.strip()]
    return all(_VAGUE_TROUBLE.match(c.strip()) or _INTENT.match(c.strip()) for c in clauses)


def _long_enough(sentence: str) -> bool:
    if _JAPANESE.search(sentence):
        return len(sentence.strip()) >= MIN_STORY_CHARS
    return len(sentence.split()) >= MIN_STORY_WORDS


def _situation(question: str, told: list[str]) -> bool:
    """The message states a condition, or the customer's own case in a sentence of its own."""
    japanese = _JAPANESE.search(question) is not None
    condition, own_case = (_JA_CONDITION, _JA_OWN_CASE) if japanese else (_EN_CONDITION, _EN_OWN_CASE)
    return condition.search(question) is not None or any(own_case.search(s) for s in told)
