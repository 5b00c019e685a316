"""A verdict on a bot turn or a whole dialogue, as a metric returns it.

A judgment is either *scored* (``score`` in 0–1) or *unscored* (``score`` is None, ``error``
says why, ``raw_reply`` keeps what the judge said). Nothing downstream may turn an unscored
judgment into a number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .verdicts import Verdict, read_verdict


@dataclass
class Judgment:
    metric: str
    score: float | None  # 0–1, None when unscored
    details: dict[str, Any] = field(default_factory=dict)  # criteria, comment, per-step results
    prompt: list[dict[str, str]] = field(default_factory=list)  # the exact messages of the last attempt
    raw_reply: str = ""
    model: str = ""
    error: str | None = None
    attempts: int = 1
    latency_ms: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None  # of prompt_tokens, reused from the server's cache; None: not said
    served_model: str | None = None  # the model the answer named, when not ``model`` (a gateway's alias)

    @property
    def scored(self) -> bool:
        return self.score is not None

    @property
    def verdict(self) -> Verdict:
        """What the views read of it, typed: outcome, conclusion, threshold, skipped, error."""
        return read_verdict(self.metric, self.score, self.details, self.error)

    @classmethod
    def from_stored(cls, stored: Any) -> Judgment:
        """A verdict read back from the store (a turn's or a dialogue's), in the engine's form."""
        return cls(
            metric=stored.metric,
            score=stored.score,
            details=stored.details,
            prompt=stored.prompt,
            raw_reply=stored.raw_reply,
            model=stored.model or "",
            error=stored.error,
            attempts=stored.attempts,
            latency_ms=stored.latency_ms,
            served_model=getattr(stored, "served_model", None),
        )


# How a verdict's level questions were read (``details["read"]``): from the judge's token
# probabilities, from the one sampled token (the endpoint sent none), or some of each. Scores read
# the two ways are on different scales (an expected level against a whole level), so a run or a
# comparison that mixes them must say so.
READ_PROBABILITY = "probability"
READ_SAMPLED = "sampled"
READ_MIXED = "mixed"


def how_read(details: Any) -> str | None:
    """``probability`` | ``sampled`` | ``mixed`` from the answers to level questions found anywhere
    in ``details`` (each is a ``Graded.to_dict()``: ``source``, ``distribution``, ``mass``); None when
    the verdict asked none (a JSON verdict, a verdict derived in code). ``details["read"]`` wins."""
    if isinstance(details, dict) and details.get("read") in (READ_PROBABILITY, READ_SAMPLED, READ_MIXED):
        return str(details["read"])
    found: set[str] = set()
    pending = [details]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if "distribution" in item and "mass" in item and item.get("source") in (READ_PROBABILITY, READ_SAMPLED):
                found.add(str(item["source"]))
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    if len(found) > 1:
        return READ_MIXED
    return found.pop() if found else None


def stamp_read(details: dict[str, Any]) -> dict[str, Any]:
    """``details`` with ``read`` set from its level questions (unchanged when it asked none)."""
    read = how_read(details)
    if read is not None:
        details["read"] = read
    return details
