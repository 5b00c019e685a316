"""The facts a supporting quote pins down exactly, to be checked in code on the bot's answer
(``contains`` expectations) rather than asked of a judge: amounts and numbers with their unit,
named screens and menu paths, and labels in quotes.

Only what is in the quote is taken, as written there, so an expectation can never ask the bot
for something its source does not say."""

from __future__ import annotations

import re

from ..text.exact_match import numbers_in, says_exactly
from ..text.sentences import split_sentences

_AMOUNT = re.compile(
    r"(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:円|ドル|ユーロ|USD|EUR|JPY|yen|dollars?|euros?))",
    re.I,
)
_NUMBER_WITH_UNIT = re.compile(
    r"\d[\d,]*(?:\.\d+)?\s?(?:%|percent|business days?|days?|hours?|minutes?|weeks?|months?|years?|"
    r"characters?|times|GB|MB|営業日|日|時間|分|週間|か月|ヶ月|カ月|年|文字|回|件)",
    re.I,
)
_CLAUSE_END = re.compile(r"[.,;:!?。、！？()（）\n]|\s(?:and|then|or|to|if|when|where)\s")
_ARROW = re.compile(r"\s?[>＞›]\s?")
_BARE_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_QUOTED = re.compile(r"[\"“「]([^\"”」\n]{2,40})[\"”」]")
# A sentence that offers a way among others: "Support form: <address>, also available in the app
# under Menu > Help > Contact us" — a right answer may give either.
_ONE_WAY_OF_SEVERAL = re.compile(
    r"\b(?:also|alternatively|or|instead|either)\b|または|もしくは|あるいは|からも|でも", re.I
)


def exact_facts(quote: str, limit: int = 4) -> list[str]:
    """Up to ``limit`` strings the answer should contain, as the quote writes them: amounts
    first, then numbers with their unit, menu paths, labels in quotes; none inside another."""
    found = [" ".join(m.group(0).split()) for rx in (_AMOUNT, _NUMBER_WITH_UNIT) for m in rx.finditer(quote)]
    found += menu_paths(quote)
    found += [m.group(1).strip() for m in _QUOTED.finditer(quote)]
    unique: list[str] = []
    for fact in dict.fromkeys(f for f in found if f):
        if any(fact in kept for kept in unique):
            continue
        unique = [kept for kept in unique if kept not in fact] + [fact]
    return unique[:limit]


def menu_paths(text: str) -> list[str]:
    """Menu paths as written: "Settings > Account > Linked services", 「設定」>「アカウント」. The
    first step is the word (or bracketed name) before the first arrow; the last runs to the end
    of its clause, or to its closing bracket."""
    paths = []
    for clause in _CLAUSE_END.split(text):
        arrows = list(_ARROW.finditer(clause))
        if not arrows:
            continue
        head = clause[: arrows[0].start()]
        start = head.rfind("「") if head.endswith("」") else len(head) - len(head.split()[-1]) if head.split() else -1
        tail = clause[arrows[-1].end() :]
        end = arrows[-1].end() + (tail.find("」") + 1 if tail.startswith("「") and "」" in tail else len(tail.rstrip()))
        if start < 0 or end <= arrows[-1].end():
            continue
        paths.append(clause[start:end])
    return paths


def one_way_of_several(reference: str, fact: str) -> bool:
    """Is ``fact`` said in a sentence of ``reference`` that offers it as one way among others
    ("…, also available under Menu > Help > Contact us", "by card or bank transfer")? Such a fact
    is no ``contains``: a right answer that gives the other way fails it."""
    for sentence in split_sentences(reference) or [reference]:
        if fact.casefold() in sentence.casefold() and _ONE_WAY_OF_SEVERAL.search(sentence):
            return True
    return False


def the_number_asked(reference: str, quote: str) -> str | None:
    """The number a "how long" / "how many" question's reference answers with, when it says one
    number only and its quote says it too: "10" of "Your account is locked after 10 failed
    attempts" (with its unit or currency when it has one, "5 business days", "¥800"). A right
    answer must say it; the wrong answer with the number changed does not. None when the
    reference says no number or several (which one is the answer, code cannot tell)."""
    if len(set(numbers_in(reference))) != 1:
        return None
    for fact in exact_facts(reference):
        if numbers_in(fact) and says_exactly(quote, fact):
            return fact
    found = _BARE_NUMBER.search(reference)
    return found.group(0) if found and says_exactly(quote, found.group(0)) else None
