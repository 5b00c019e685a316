"""Faithfulness's description — what every view needs of it — apart from its judge: its
``MetricInfo``. Importing this loads no model client (``faithfulness`` is the judge)."""

from __future__ import annotations

from ..registry.metrics import MetricInfo

INFO = MetricInfo(
    "faithfulness",
    default_threshold=0.8,
    prompts={
        "metric_faithfulness": {
            "system": frozenset(),
            "statements": frozenset({"question", "response"}),
            "retry": frozenset(),
            "check_system": frozenset(),
            "check": frozenset({"context", "statement"}),
            "check_retry": frozenset(),
        }
    },
    per_statement=True,  # the claims are listed (1 call), then one yes/no check per claim
    label_fields=("context", "response"),
    order=40,
)

__all__ = ["INFO"]
