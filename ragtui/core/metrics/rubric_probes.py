"""The rubric decomposed: atomic yes/no checks, each scored P(yes), combined in code.

A 1.5B judge asked for six criteria at once gives all six the same value, credits the response's
own invented claims to the context and punishes an honest "I don't know" (measured; docs/judge-calibration.md). It
answers small yes/no questions far better. So the judge is asked, one at a time, about one turn:

- ``context_answers``: does the CONTEXT hold what is needed to answer the QUESTION?
- ``says_unknown``: does the RESPONSE say it does not know?
- ``addresses``: does it deal with what was asked?  ``complete``: every part of it?
- ``other_company``: does it recommend a competitor's product or service, or compare with one?
  (The guideline's sense: naming the services the product works with — Google or Apple sign-in —
  is not bringing in another company.)
- ``polite``: is it polite and respectful?
- ``claim``: for each sentence of the RESPONSE (up to ``MAX_CLAIMS``), is it supported by the
  CONTEXT? An unsupported claim caps correctness.

and ``combine`` turns the answers into the seed's six criteria (1–5, continuous) by its guidelines:
answer only from the context; say "I don't know" when the context lacks the answer (then that is
a *good* answer); never mention other companies; be accurate. Every check costs one generated
token; the turn's text is a shared prefix the server's prompt cache reuses across checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text.sentences import split_sentences

PROBES = ("context_answers", "says_unknown", "addresses", "complete", "other_company", "polite")
MAX_CLAIMS = 4
MIN_CLAIM_CHARS = 12  # "Hello!" or "ありがとうございます。" carries no checkable fact


def split_claims(response: str) -> list[str]:
    """The response's sentences worth checking against the context: the longest ``MAX_CLAIMS``,
    in their original order (long sentences carry the facts; greetings are short)."""
    sentences = [s for s in split_sentences(response) if len(s) >= MIN_CLAIM_CHARS]
    keep = set(sorted(range(len(sentences)), key=lambda i: -len(sentences[i]))[:MAX_CLAIMS])
    return [s for i, s in enumerate(sentences) if i in keep]


@dataclass(frozen=True)
class Combined:
    scores: dict[str, float]  # the six criteria, 1–5
    overall: float  # 1–5, continuous
    honest_unknown: float  # P(the bot rightly said it does not know)
    grounded: float  # P(every checked claim is supported)


def combine(p: dict[str, float], claims: list[float]) -> Combined:
    """The six criteria from the checks' P(yes). Each term is a probability, so the overall is a
    continuous 1–5 and turn scores stop clustering on 0.2 steps."""
    unknown = p["says_unknown"]
    # Rightly declining: the context lacks the answer and the bot says so (the seed's rule 2).
    honest = unknown * (1.0 - p["context_answers"])
    answered = 1.0 - unknown
    # The weakest claim bounds correctness: one invented fact is enough to mislead.
    grounded = min(claims) if claims else 1.0
    on_topic = p["addresses"]
    complete = p["complete"]
    competitor = p["other_company"]
    polite = p["polite"]
    good_answer = answered * grounded * on_topic * (0.6 + 0.4 * complete)
    base = min(1.0, honest + good_answer)
    base *= 1.0 - competitor  # rule 3: never mention other companies
    base *= 0.5 + 0.5 * polite  # right but rude is at best middling
    scores = {
        "understanding": on_topic,
        "relevance": on_topic * (1.0 - competitor),
        "completeness": min(1.0, honest + answered * complete * grounded),
        "correctness": min(1.0, honest + answered * grounded),
        "coherence": polite,
        "overall": base,
    }
    scaled = {name: round(1.0 + 4.0 * value, 2) for name, value in scores.items()}
    return Combined(scaled, 1.0 + 4.0 * base, honest, grounded)
