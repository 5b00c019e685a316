"""Does a question ask for the whole of what its page is about? Decided in code.

The writer is given one part of a passage and the passage's heading, and a small writer often
asks for the heading's whole subject: "What is the refund policy for Tsumugi Premium fees?"
under "Refund policy", written for the page's first sentence ("fees are not refunded for unused
time"). The page goes on with the cases that are refunded and how to ask — a reference drawn from
one part answers only some of what was asked, and the judge's "does it answer?" says yes to it.

Such a question names, as what it asks for, a noun of a whole body of rules ("policy", "rules",
"terms", "requirements", "fees", "plans", 「ポリシー」「規約」「条件」…) that the heading names
too, with no word before that noun the heading lacks ("What are the refund options?" under
"Payment options" asks for something else; the words after the noun — "for Tsumugi Premium
fees" — are not read, so "What are the fees for late payment?" under "Fees" is dropped too, a
right item lost at times as the price of never keeping a partial one). A part that is all there is
under the heading answers it; any other part cannot, and the item is dropped, counted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from ..text.content_words import content_stems
from ..text.script import JAPANESE
from ..types.knowledge import SourcedPassage

_TOPIC = (
    r"polic(?:y|ies)|rules?|terms|conditions|requirements?|guidelines|limits|restrictions|options|fees|"
    r"prices|pricing|plans|charges"
)
_EN_WHOLE = re.compile(
    r"^\W*(?:what(?:'s| is| are)|tell me about|can you (?:tell me about|explain)|could you (?:tell me about|explain)|"
    r"explain|what do i need to know about)\s+(?:the |your |our |[\w-]+'s )?"
    rf"((?:[\w'’-]+\s+){{0,3}}?)({_TOPIC})\b",
    re.I,
)
_JA_TOPIC = re.compile(r"ポリシー|規約|規定|条件|ルール|料金|制限|プラン")
_JA_ASKS_WHOLE = re.compile(r"(?:は何|とは|について(?:教えて|知りたい)|はどう(?:なって|いう))")


def asks_whole_topic(question: str, heading: str) -> bool:
    """Does ``question`` ask for the whole of the topic ``heading`` names (above)? ``heading`` is
    the passage's title, "Document › Section" or one of them."""
    text = unicodedata.normalize("NFKC", question).strip()
    headings = [h.strip() for h in unicodedata.normalize("NFKC", heading).split("›") if h.strip()]
    if JAPANESE.search(text):
        return any(_JA_TOPIC.search(h) and h in text for h in headings) and bool(_JA_ASKS_WHOLE.search(text))
    # the question sentence itself, after any story ("I'm new here. What are the rules?")
    asked = [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    found = _EN_WHOLE.search(asked[-1] if asked else text)
    if found is None:
        return False
    noun = content_stems(found.group(2))
    before = content_stems(found.group(1))
    named = set().union(*(content_stems(h) for h in headings))
    # the noun in a heading, and every word before it in one: "the community rules" under
    # "Community › Rules"; the words after it ("for Premium fees") do not narrow the topic
    return any(noun <= content_stems(h) for h in headings) and before <= named


def whole_topic_part(part: str, passage: SourcedPassage, passages: Sequence[SourcedPassage]) -> bool:
    """Is ``part`` all there is under ``passage``'s heading: the whole passage (whitespace aside),
    and no other passage of its document under the same heading (a long page is cut in two)?"""
    if " ".join(part.split()) != " ".join(passage.text.split()):
        return False
    return not any(p is not passage and p.doc_id == passage.doc_id and p.title == passage.title for p in passages)
