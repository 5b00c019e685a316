"""Token log-probabilities from a chat-completion stream, in the shapes servers send them.

Asked for ``logprobs: true, top_logprobs: N``, OpenAI and current llama.cpp servers put, in each
streamed choice (or in the non-streamed choice), ``logprobs.content``: one entry per sampled token
with its ``logprob`` and the ``top_logprobs`` alternatives at that position. Older llama.cpp
servers instead put ``completion_probabilities`` at the top level of the chunk: one entry per
token, either ``{"content", "probs": [{"tok_str", "prob"}]}`` (plain probabilities) or
``{"token", "logprob", "top_logprobs": [{"token", "logprob"}]}``. All become ``TokenLogprob``.

Measured on the embedded llama.cpp server: the alternatives are the model's distribution
*before* any JSON-schema grammar is applied, so they may include tokens the grammar forbids; the
metrics therefore renormalise over the levels they allow (``metrics/probability.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TokenLogprob:
    """One sampled token and the alternatives the server reported at its position."""

    token: str
    logprob: float
    top: dict[str, float] = field(default_factory=dict)  # alternative token text → logprob

    def to_dict(self) -> dict[str, Any]:
        return {"token": self.token, "logprob": self.logprob, "top": self.top}


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _openai_entry(entry: Any) -> TokenLogprob | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("token"), str):
        return None
    logprob = _number(entry.get("logprob"))
    if logprob is None:
        return None
    top: dict[str, float] = {}
    for alt in entry.get("top_logprobs") or ():
        if isinstance(alt, dict) and isinstance(alt.get("token"), str):
            value = _number(alt.get("logprob"))
            # The same text can come from two token ids; keep the likelier, like a sampler would see.
            if value is not None and value > top.get(alt["token"], -math.inf):
                top[alt["token"]] = value
    return TokenLogprob(entry["token"], logprob, top)


def _legacy_llamacpp_entry(entry: Any) -> TokenLogprob | None:
    """``{"content": "4", "probs": [{"tok_str": "4", "prob": 0.41}, …]}`` (probabilities, not logs)."""
    if not isinstance(entry, dict):
        return None
    if "probs" not in entry:
        return _openai_entry(entry)
    top: dict[str, float] = {}
    for alt in entry.get("probs") or ():
        if isinstance(alt, dict) and isinstance(alt.get("tok_str"), str):
            prob = _number(alt.get("prob"))
            if prob is not None and prob > 0:
                top[alt["tok_str"]] = max(math.log(prob), top.get(alt["tok_str"], -math.inf))
    token = entry.get("content")
    if not isinstance(token, str):
        return None
    return TokenLogprob(token, top.get(token, -math.inf), top)


def from_choice(choice: dict[str, Any]) -> list[TokenLogprob]:
    """The entries of one (streamed or whole) choice in OpenAI's shape; [] when it has none."""
    logprobs = choice.get("logprobs")
    if not isinstance(logprobs, dict):
        return []
    return [e for e in map(_openai_entry, logprobs.get("content") or ()) if e is not None]


def from_chunk(chunk: dict[str, Any]) -> list[TokenLogprob]:
    """Every entry one chunk carries, whichever shape the server used."""
    entries: list[TokenLogprob] = []
    for choice in chunk.get("choices") or ():
        if isinstance(choice, dict):
            entries += from_choice(choice)
    legacy = chunk.get("completion_probabilities")
    if isinstance(legacy, list):
        entries += [e for e in map(_legacy_llamacpp_entry, legacy) if e is not None]
    return entries
