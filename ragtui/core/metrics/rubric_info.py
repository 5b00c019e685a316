"""The rubric's description — what every view needs of it — apart from its judge: its six
criteria and its ``MetricInfo``. Importing this loads no model client, so a view that lists the
criteria (the TUI's verdict panes) imports it instead of the metric."""

from __future__ import annotations

from ..content.prompts import PROMPT_KINDS
from ..registry.metrics import PRIMARY_METRIC, MetricInfo

# The seed's five criteria and overall, each 1–5; the turn score is overall / 5.
CRITERIA = ("understanding", "relevance", "completeness", "correctness", "coherence", "overall")

INFO = MetricInfo(
    PRIMARY_METRIC,
    default_threshold=0.7,  # the config's top-level `threshold`, not [thresholds]
    prompts={"judge_probes": PROMPT_KINDS["judge_probes"]},
    calls=1,  # the estimate counts its yes/no checks one by one instead
    label_fields=("question", "response"),
    order=0,
    primary=True,
)

__all__ = ["CRITERIA", "INFO"]
