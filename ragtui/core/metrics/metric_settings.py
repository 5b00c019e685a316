"""What the metrics take from the config besides the judge and the prompts.

Its own module, below every metric: the metrics read these settings, and the package's face
(``__init__``) imports the metrics, so they cannot come from there without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..config.config_file import RelevancyOptions  # [answer_relevancy], as the config declares it
from ..config.settings import Config
from ..registry import metrics as registry
from ..registry.metrics import metric_info
from ..types.expectations import Expectation


@dataclass(frozen=True)
class MetricSettings:
    """What the metrics take from the config besides the judge and the prompts."""

    # metric → pass mark; a metric missing here has its class's default (``threshold``)
    thresholds: dict[str, float] = field(default_factory=lambda: registry.default_thresholds())
    relevancy: RelevancyOptions = field(default_factory=RelevancyOptions)
    # metric → a few-shot examples file used instead of prompts/<lang>/examples/<metric>.jsonl
    examples: dict[str, Path] = field(default_factory=dict)
    # the config's [[policy]] prohibitions, checked by the expectations dialogue metric
    policies: tuple[Expectation, ...] = ()

    @classmethod
    def from_config(cls, config: Config) -> MetricSettings:
        return cls(
            thresholds={**registry.default_thresholds(), **config.thresholds},
            relevancy=config.answer_relevancy,
            policies=config.policies,
        )

    def threshold(self, name: str) -> float:
        info = metric_info(name)
        return self.thresholds.get(name, info.default_threshold if info is not None else 1.0)
