"""The reference without the part that says an expectation: is it still a right answer?

An expectation is fair when every right answer meets it. Its sharpest test is the right answer
that lacks exactly what it asks for: the reference with the sentence (or, in a one-sentence
reference, the clause) that carries the expectation left out. When the judge says that rest
still answers the question, the expectation asks for a detail the customer never needed ("The
tracking link becomes active about 6 hours after the order ships" under "How do I track my
parcel?"), and it must fail there — the proof drops it. When the rest no longer answers, the
carried part is the answer itself, and the expectation stands.

Decided here in code: the reference's parts, and which part carries an expectation (a ``contains``
the part says word for word; a judged one the part most alike to it, if alike enough). The
judge's "does the rest answer?" is asked by the caller.
"""

from __future__ import annotations

import re

from ..text.exact_match import says_exactly
from ..text.sentences import split_sentences
from .similarity import alike

# A one-sentence reference cut into clauses at a joining word after a comma, or a semicolon
# ("…select the order, and the tracking link becomes active…"). "Google, Apple, X or LINE" stays
# one part: a comma alone never cuts.
_CLAUSE = re.compile(r",\s+(?:and|but|so|then|which|while)\s+|;\s+|\s+and then\s+")
_JA_CLAUSE = re.compile(r"(?:(?<=が)|(?<=ので)|(?<=ため)|(?<=ますが))、")
# A judged expectation is carried by the part at least this alike to it (trigram Dice), the most
# alike part; under it, no part says it as written and none is left out.
CARRIES_AT = 0.4


def reference_parts(reference: str) -> list[str]:
    """The reference's sentences; a one-sentence reference's clauses."""
    sentences = split_sentences(reference)
    if len(sentences) != 1:
        return sentences
    japanese = re.search(r"[\u3040-\u30ff\u3400-\u9fff]", reference) is not None
    parts = [p.strip() for p in (_JA_CLAUSE if japanese else _CLAUSE).split(sentences[0]) if p.strip()]
    return parts


def carrier(parts: list[str], expectation: str, exact: bool) -> int | None:
    """The index of the part that says ``expectation`` (word for word when ``exact``), or None."""
    if exact:
        found = [i for i, part in enumerate(parts) if says_exactly(part, expectation)]
        return found[0] if len(found) == 1 else None  # said twice: leaving one out proves nothing
    scores = [alike(part, expectation) for part in parts]
    best = max(range(len(parts)), key=lambda i: scores[i]) if parts else None
    return best if best is not None and scores[best] >= CARRIES_AT else None


def left_out(parts: list[str], index: int, language: str) -> str:
    """The reference without part ``index``, its parts joined as the language writes them."""
    rest = [p for i, p in enumerate(parts) if i != index]
    if language == "ja":
        return "".join(p if p.endswith(("。", "！", "？")) else f"{p}。" for p in rest)
    return " ".join(p if p.endswith((".", "!", "?")) else f"{p.rstrip(',')}." for p in rest)
