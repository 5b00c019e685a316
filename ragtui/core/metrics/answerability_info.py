"""Answerability's description — what every view needs of it — apart from its judge: its
``MetricInfo`` (a binary metric). Importing this loads no model client (``answerability`` is the
judge)."""

from __future__ import annotations

from ..registry.metrics import BINARY, MetricInfo

INFO = MetricInfo(
    "answerability",
    scale=BINARY,
    default_threshold=0.5,
    prompts={
        "metric_answerability": {
            "system": frozenset(),
            "user": frozenset({"question", "context"}),
            "retry": frozenset(),
        }
    },
    label_fields=("question", "context"),
    order=30,
)

__all__ = ["INFO"]
