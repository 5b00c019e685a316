"""Scores from the probabilities of the score token (G-Eval's weighting), not one sample.

A judge asked to answer with one level token ("0"…"5", or "yes"/"no") and for the top
alternatives' log-probabilities tells us its whole belief: P(level) for every allowed level. The
score is the expected level under that distribution, renormalised over the allowed levels — so
4 at 45 % and 5 at 40 % reads 4.4, not 4, and turn scores stop clustering on a few values.

Three outcomes, always recorded in ``Graded.to_dict()`` (stored in the judgment's details):
- ``source="probability"``: the distribution was read; ``distribution`` maps level → P.
- ``source="sampled"``: the endpoint sent no log-probabilities (or rejected the option and was
  asked again without it); the value is the sampled level, and the verdict says so.
- unscored (``value`` None, ``error`` says why): the reply put less than ``MIN_MASS`` on the
  allowed levels, or its text names none. Never 0.

On llama.cpp the alternatives are reported *before* a JSON-schema grammar applies, so they can
include forbidden tokens: that is why the mass on the allowed levels is checked and renormalised.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..models.llm import Completion

TOP_LOGPROBS = 20  # OpenAI's maximum; llama.cpp accepts more, but 20 always covers six levels
MIN_MASS = 0.05  # below this the model was about to say something else: not a level judgment
SCALE_0_5: dict[str, float] = {str(n): float(n) for n in range(6)}
SCALE_1_5: dict[str, float] = {str(n): float(n) for n in range(1, 6)}
# Qwen's tokenizer splits はい / いいえ into "は"+"い" / "いい"+"え": their first tokens count too.
YES_NO: dict[str, float] = {"yes": 1.0, "no": 0.0, "はい": 1.0, "いいえ": 0.0, "は": 1.0, "いい": 0.0}


@dataclass
class Graded:
    """One level question's answer: ``value`` in the levels' units (P(yes) for yes/no)."""

    value: float | None
    source: str  # "probability" | "sampled" | "none"
    sampled: str = ""
    distribution: dict[str, float] = field(default_factory=dict)
    mass: float | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "source": self.source,
            "sampled": self.sampled,
            "distribution": self.distribution,
            "mass": self.mass,
            "error": self.error,
        }


def _key(token: str) -> str:
    return token.strip().strip("\"'「」*").lower()


def _first_level_in_text(text: str, levels: Mapping[str, float]) -> str | None:
    """The level the reply *starts* with. Only the first word counts: "about 0.8" or "the score
    is 4" is not an answer to a one-token question, and reading a digit out of it would invent one."""
    words = re.findall(r"\w+", text.lower())
    if not words:
        return None
    if words[0] in levels:
        return words[0]
    # Japanese has no spaces: "はい、…" is one \w+ run; the longest label wins (はい before は).
    return next(
        (
            label
            for label in sorted(levels, key=len, reverse=True)
            if not label.isdigit() and words[0].startswith(label)
        ),
        None,
    )


def read_levels(completion: Completion, levels: Mapping[str, float]) -> Graded:
    """The judge's answer to a one-token level question (see module docstring)."""
    text = completion.text.strip()
    entry = next((e for e in completion.logprobs if _key(e.token)), None)
    if entry is None:
        label = _first_level_in_text(text, levels)
        if label is None:
            return Graded(None, "none", text[:40], error=f"the reply names no allowed level: {text[:60]!r}")
        return Graded(levels[label], "sampled", label)
    alternatives = dict(entry.top) or {entry.token: entry.logprob}
    probs: dict[str, float] = {}
    for token, logprob in alternatives.items():
        label = _key(token)
        if label in levels:
            probs[label] = probs.get(label, 0.0) + math.exp(logprob)
    mass = sum(probs.values())
    if mass < MIN_MASS:
        likely = ", ".join(repr(t) for t, _ in sorted(alternatives.items(), key=lambda kv: -kv[1])[:3])
        return Graded(
            None,
            "none",
            _key(entry.token),
            mass=mass,
            error=f"the judge put {mass:.0%} of its probability on the allowed levels (it leaned to {likely})",
        )
    distribution = {label: probs.get(label, 0.0) / mass for label in levels if label in probs or label.isdigit()}
    value = sum(levels[label] * p for label, p in distribution.items())
    return Graded(value, "probability", _key(entry.token), distribution, mass)


def fold_yes_no(graded: Graded) -> Graded:
    """Merge the Japanese labels into yes/no so the stored distribution has two bars."""
    if not graded.distribution:
        return graded
    merged = {"yes": 0.0, "no": 0.0}
    for label, p in graded.distribution.items():
        merged["yes" if YES_NO.get(label, 0.0) >= 0.5 else "no"] += p
    graded.distribution = merged
    return graded
