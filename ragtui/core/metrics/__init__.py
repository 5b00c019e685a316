"""Metrics that judge a bot turn or a whole dialogue. Each returns a ``Judgment``; see ``base``.

The rubric is the primary metric: its score is the turn score. The others are shown beside it,
each against its own threshold (``[thresholds]`` in the config), and stored the same way.
``trust`` is derived from faithfulness, answerability and answer_correctness on the same turn,
so choosing it adds them, and it always runs last.

Which metrics exist, and what each needs, is in the registry (``ragtui/core/registry/metrics.py``):
each metric class describes itself and builds itself; ragtui declares its own as entry points,
and plugins add theirs the same way (docs/plugins.md).

This package's face is light: importing it (or a light module of it, such as ``rubric_info``,
the rubric's description) loads no metric and no model client — a view that needs a metric's
description imports the description, not the judge. ``build_metrics`` and the rest are loaded
when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..registry import metrics as registry
from ..registry.metrics import PRIMARY_METRIC, MetricInfo
from ..types.judgments import Judgment

if TYPE_CHECKING:
    from .base import Metric, TurnContext
    from .build import build_metrics, resolve_names
    from .metric_settings import MetricSettings


def __getattr__(name: str) -> Any:
    """``KNOWN_METRICS`` and ``BINARY_METRICS``, read from the registry (plugins included) when
    first used; the heavier names, imported when first used."""
    if name == "KNOWN_METRICS":
        return registry.metric_names(registry.TURN)
    if name == "BINARY_METRICS":
        return registry.binary_metrics()
    # Imported here, not above: each pulls in the model client.
    if name in ("Metric", "TurnContext"):
        from . import base

        return getattr(base, name)
    if name in ("build_metrics", "resolve_names"):
        from . import build

        return getattr(build, name)
    if name == "MetricSettings":
        from .metric_settings import MetricSettings

        return MetricSettings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BINARY_METRICS",
    "KNOWN_METRICS",
    "PRIMARY_METRIC",
    "Judgment",
    "Metric",
    "MetricInfo",
    "MetricSettings",
    "TurnContext",
    "build_metrics",
    "resolve_names",
]
