"""Contextual calibration of yes/no checks: each check's P(yes) read against what the same judge
says when shown no content at all.

A small judge leans one way on a whole language (the embedded 1.5B model answers いいえ to almost
every Japanese check and yes to almost every English one; docs/judge-calibration.md). Zhao et
al.'s *calibrate before use*: ask each check once about a content-free turn ("N/A" everywhere);
its P(yes) there is the judge's prior for that check, not evidence. The calibrated answer moves
that prior to 0.5 on the log-odds scale: ``logit(p') = logit(p) - logit(p_free)``. No labels are
needed, and the order of answers within one check never changes — only how the checks weigh
against each other in ``rubric_probes.combine``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..types.passages import Passage
from .base import TurnContext

CONTENT_FREE = "N/A"
# A prior this close to 0 or 1 would swing every answer to the other end: clamp it.
PRIOR_LIMIT = 0.02


def content_free_turn(language: str) -> TurnContext:
    """A turn with no content in any slot: what each check is asked to read the judge's prior."""
    passage = Passage("content-free", "", CONTENT_FREE)
    return TurnContext(1, CONTENT_FREE, CONTENT_FREE, [passage], [], language)


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def debias(p: float, prior: float) -> float:
    """P(yes) with the check's content-free prior moved to 0.5 (a shift of the log-odds)."""
    prior = min(1.0 - PRIOR_LIMIT, max(PRIOR_LIMIT, prior))
    p = min(1.0 - 1e-6, max(1e-6, p))
    return 1.0 / (1.0 + math.exp(-(_logit(p) - _logit(prior))))


@dataclass(frozen=True)
class CheckBias:
    """The content-free P(yes) of every check, for one judge model, prompt and language."""

    language: str
    priors: dict[str, float] = field(default_factory=dict)

    def apply(self, check: str, p: float) -> float:
        prior = self.priors.get(check)
        return p if prior is None else debias(p, prior)
