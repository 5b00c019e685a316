"""Prohibitions as people write them: "never asks for a password", "does not promise a refund",
「パスワードを聞かない」, 「返金を約束しないこと」 — and the act each forbids, as a positive phrase
("asks for a password", "promises a refund", 「パスワードを聞く」).

The judge reads an act far better than a negated sentence about it (a 1.5B judge answers "yes" to
"The ANSWER does not promise a refund." whatever the answer says), so a prohibition is always
asked about the act and its answer read the other way (docs/expectations-agreement.md).
"""

from __future__ import annotations

import re

# The negation a rule starts with. After the ones in BARE the verb is in its bare form and is put
# back in the third person ("does not ask" → "asks"); after "never" it already is.
_EN_NEGATION = re.compile(
    r"^\s*(?:the\s+(?:bot|answer|reply)\s+)?(must\s+never|must\s+not|should\s+never|should\s+not|"
    r"never|does\s+not|doesn't|do\s+not|don't|may\s+not|cannot|can't)\s+",
    re.IGNORECASE,
)
_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_JA_NEVER = re.compile(r"^\s*(?:決して|絶対に)\s*")
# A godan verb's negative stem (a-row) back to its plain form (u-row): 聞かない → 聞く.
_JA_GODAN = dict(zip("かがさたなばまらわ", "くぐすつぬぶむるう", strict=True))


def _third_person(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _ja_affirmative(phrase: str) -> str:
    """ "…しない" / "…ないこと" / "…ません" → the plain affirmative verb; anything else unchanged."""
    core = phrase.removesuffix("こと")
    if core.endswith("しません") or core.endswith("しない"):
        return core[: -len("しません" if core.endswith("しません") else "しない")] + "する"
    if core.endswith("ない") and len(core) > 2:
        stem = core[:-2]
        last = stem[-1]
        # Ichidan verbs (尋ねない, 見ない) take る; godan ones change their last kana's row.
        return stem[:-1] + _JA_GODAN[last] if last in _JA_GODAN else stem + "る"
    return phrase


def forbidden_act(text: str, language: str) -> str:
    """The act a prohibition forbids, as a positive phrase; an act already positive unchanged."""
    act = text.strip()
    if language == "ja":
        return _ja_affirmative(_JA_NEVER.sub("", act))
    found = _EN_NEGATION.match(act)
    if found is None:
        return act
    rest = act[found.end() :]
    if not rest:
        return act
    if found.group(1).lower() == "never":
        return rest
    verb, _, tail = rest.partition(" ")
    return f"{_third_person(verb)} {tail}".rstrip()


# "cannot …" / "may not …" under ``expect`` usually state a rule the answer must give ("cannot be
# refunded after 14 days"), not an act it must not do: only these read as a prohibition there.
_EN_FORBIDS = re.compile(
    r"^\s*(?:the\s+(?:bot|answer|reply)\s+)?(?:(?:must|should)\s+(?:not|never)|never|does\s+not|doesn't|do\s+not|don't)\s",
    re.IGNORECASE,
)


def forbids(text: str, language: str) -> bool:
    """Whether ``text`` is written as a prohibition ("does not …", "never …", 「…しない」,
    「…ないこと」): its act differs from it."""
    if language == "en" and not _EN_FORBIDS.match(text):
        return False
    return forbidden_act(text, language) != text.strip()


def forbids_in_any_language(text: str) -> bool:
    """``forbids`` in English or Japanese: an item's text is read before its scenario's language
    is known, and the two forms cannot be mistaken for each other."""
    return forbids(text, "en") or forbids(text, "ja")
