"""Retention's description — what every view needs of it — apart from its judge: the verdict
words of each fact it checks and its ``MetricInfo``. Importing this loads no model client
(``retention`` is the judge)."""

from __future__ import annotations

from ...registry.metrics import DIALOGUE, MetricInfo

# What happened to each fact the customer gave: only ``kept`` counts towards the score.
VERDICTS = ("kept", "asked_again", "ignored", "contradicted")

INFO = MetricInfo(
    "retention",
    kind=DIALOGUE,
    default_threshold=1.0,  # every fact the customer gave was kept
    prompts={
        "metric_retention": {
            "system": frozenset(),
            "facts": frozenset({"customer"}),
            "check": frozenset({"fact", "turn", "transcript"}),
            "retry": frozenset(),
        }
    },
    calls=3,  # assumed with no past run: a step listing the facts, then about two checks
    label_fields=("messages",),
    order=10,
    explanation="did the bot keep what the customer told it; the score is the share of the customer's facts kept",
)

__all__ = ["INFO", "VERDICTS"]
