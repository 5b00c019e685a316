"""Trust's description — what every view needs of it — apart from its code: the metrics it is
derived from and its ``MetricInfo`` (a binary metric). Importing this loads no model client
(``trust`` derives the verdict)."""

from __future__ import annotations

from ..registry.metrics import BINARY, MetricInfo

# The turn metrics whose verdicts on the same turn trust is derived from.
INPUTS = ("faithfulness", "answerability", "answer_correctness")

INFO = MetricInfo(
    "trust",
    scale=BINARY,
    default_threshold=1.0,
    calls=0,  # derived in code: no judge call
    label_fields=("question", "response", "context"),
    order=90,  # after every metric it may read
    inputs=INPUTS,
)

__all__ = ["INFO", "INPUTS"]
