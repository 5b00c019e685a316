"""Repetition's description — what every view needs of it — apart from its judge: its
``MetricInfo``. Importing this loads no model client (``repetition`` is the judge)."""

from __future__ import annotations

from ...registry.metrics import DIALOGUE, MetricInfo

INFO = MetricInfo(
    "repetition",
    kind=DIALOGUE,
    card_set="dialogues.jsonl",
    default_threshold=1.0,  # no answer repeated an earlier one
    prompts={
        "metric_repetition": {
            "system": frozenset(),
            "same": frozenset({"earlier", "later"}),
            "retry": frozenset(),
        }
    },
    calls=0,  # decided in code unless a pair is borderline
    label_fields=("messages",),
    # A labelled file's repetition label counts repetition (1: the same answer every turn).
    inverted_label=True,
    order=20,
    explanation="did the bot go round in circles; 1.00: no answer only said again what an earlier one said",
)

__all__ = ["INFO"]
