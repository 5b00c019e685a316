"""Resolution's description — what every view needs of it — apart from its judge: its outcome
words, which of them count as success, its columns, its gate role and its ``MetricInfo``.
Importing this loads no model client (``resolution`` is the judge)."""

from __future__ import annotations

from ...registry.metrics import DIALOGUE, RESOLUTION_RATE, MetricInfo

OUTCOMES = ("resolved", "partly_resolved", "unresolved", "handed_over")
# Outcomes that count towards a run's resolution rate: the problem was solved, or the bot did
# the right thing when it could not solve it.
SUCCESS_OUTCOMES = frozenset({"resolved", "handed_over"})

# A dialogue passes when the judge is on the whole sure its intents were met (the mean P(met)
# of its intents: 0.75 is where the labelled dialogues' own pass/fail agreement is measured).
INFO = MetricInfo(
    "resolution",
    kind=DIALOGUE,
    card_set="dialogues.jsonl",
    default_threshold=0.75,
    prompts={
        "metric_resolution": {
            "system": frozenset(),
            "intents": frozenset({"customer"}),
            "check": frozenset({"transcript", "intent"}),
            "handover": frozenset({"transcript", "context", "unmet"}),
            "retry": frozenset(),
        }
    },
    calls=3,  # assumed with no past run: a step listing the intents, then about two checks
    label_fields=("messages",),
    columns=("resolution", "outcome"),
    order=0,
    explanation=(
        "was the customer's problem solved: resolved, handed over to the right contact, partly resolved "
        "or unresolved; the score is the mean P(met) of the customer's intents"
    ),
    success_outcomes=SUCCESS_OUTCOMES,
    gates=RESOLUTION_RATE,
)

__all__ = ["INFO", "OUTCOMES", "SUCCESS_OUTCOMES"]
