"""Answer relevancy's description — what every view needs of it — apart from its judge: its
``MetricInfo``. Importing this loads no model client (``answer_relevancy`` is the judge)."""

from __future__ import annotations

from ..registry.metrics import MetricInfo

INFO = MetricInfo(
    "answer_relevancy",
    default_threshold=0.7,
    prompts={
        # Multi-step: one key per step; each step shares the fixed ``system`` text.
        "metric_answer_relevancy": {
            "system": frozenset(),
            "statements": frozenset({"question", "response"}),
            "reason": frozenset({"question", "score", "verdicts"}),
            "retry": frozenset(),
            # One yes/no question per statement, scored from P(yes) (statement_checks.py).
            "check_system": frozenset(),
            "check": frozenset({"question", "statement"}),
            "check_retry": frozenset(),
        }
    },
    calls=2,  # splits the answer into statements and explains the score
    per_statement=True,
    label_fields=("question", "response"),
    order=10,
)

__all__ = ["INFO"]
