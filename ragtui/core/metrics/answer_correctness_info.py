"""Answer correctness's description — what every view needs of it — apart from its judge: its
``MetricInfo``. Importing this loads no model client (``answer_correctness`` is the judge)."""

from __future__ import annotations

from ..registry.metrics import MetricInfo

INFO = MetricInfo(
    "answer_correctness",
    default_threshold=0.7,
    prompts={
        "metric_answer_correctness": {
            "system": frozenset(),
            "user": frozenset({"question", "reference", "response"}),
            "retry": frozenset(),
        }
    },
    label_fields=("reference", "response"),
    order=20,
)

__all__ = ["INFO"]
